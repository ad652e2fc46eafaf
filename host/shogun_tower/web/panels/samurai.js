// The Samurai panel of the board page (expansion X2): drawn from view.expansions.samurai, or
// hidden when the expansion is not in play. Registered in PANELS (web/panels/panels.js).

// a bonus's parts, each as a count of its thing ("2 coins, 1 VP")
function bonusPart(kind, n) {
  if (kind === "coins") return fmt(ngettext("{n} coin", "{n} coins", n), { n });
  if (kind === "armies") return fmt(ngettext("{n} army", "{n} armies", n), { n });
  if (kind === "rice") return fmt(ngettext("{n} rice", "{n} rice", n), { n });
  if (kind === "vp") return fmt(_("{vp} VP"), { vp: n });
  return `${n} ${kind}`;
}

function bonusText(b) {
  const parts = Object.entries(b || {}).filter(([, n]) => n).map(([k, n]) => bonusPart(k, n));
  return parts.join(_(", ")) || _("nothing");
}

PANELS.samurai = {
  draw(samurai) {
    document.getElementById("samurai").hidden = !samurai;
    if (samurai) {
      document.querySelector("#samurai-stacks tbody").replaceChildren(
        ...Object.entries(samurai.stacks || {}).map(([p, s]) => html("tr", { id: `samurai-${p}` },
          html("td", {}, swatch(p), colourWord(p)),
          html("td", { text: fmt(_("{n} of {total}"), { n: s.regions, total: samurai.regions_needed }) }),
          html("td", { text: String(s.top) }), html("td", { text: bonusText(s.shows) }),
          html("td", { text: bonusText(s.next) }))));
    }
  },
};
