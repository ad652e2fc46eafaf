// The Samurai panel of the board page (expansion X2): drawn from view.expansions.samurai, or
// hidden when the expansion is not in play. Registered in PANELS (web/panels/panels.js).

function bonusText(b) {
  const one = { coins: "coin", armies: "army", rice: "rice", vp: "VP" };
  const parts = Object.entries(b || {}).filter(([, n]) => n)
    .map(([k, n]) => `${n} ${k === "vp" ? "VP" : (n === 1 ? one[k] || k : k)}`);
  return parts.join(", ") || "nothing";
}

PANELS.samurai = {
  draw(samurai) {
    document.getElementById("samurai").hidden = !samurai;
    if (samurai) {
      document.querySelector("#samurai-stacks tbody").replaceChildren(
        ...Object.entries(samurai.stacks || {}).map(([p, s]) => html("tr", { id: `samurai-${p}` },
          html("td", {}, swatch(p), p), html("td", { text: `${s.regions} of ${samurai.regions_needed}` }),
          html("td", { text: String(s.top) }), html("td", { text: bonusText(s.shows) }),
          html("td", { text: bonusText(s.next) }))));
    }
  },
};
