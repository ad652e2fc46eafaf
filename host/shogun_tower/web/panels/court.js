// The Imperial Court panel of the board page (expansion X1): drawn from view.expansions.court, or
// hidden when the expansion is not in play. Registered in PANELS (web/panels/panels.js).
PANELS.court = {
  draw(court) {
    document.getElementById("court").hidden = !court;
    if (court) {
      document.querySelector("#court-players tbody").replaceChildren(
        ...Object.entries(court.courtiers || {}).map(([p, c]) => html("tr", { id: `court-${p}` },
          html("td", {}, swatch(p), colourWord(p)), html("td", { text: String(c.supply) }),
          html("td", { text: String(c.hall) }), html("td", { text: String(c.room) }),
          html("td", { class: "special", text: ((court.kept || {})[p] || []).map(f => `${f.favour}`).join(_(", ")),
                       title: ((court.kept || {})[p] || []).map(f => `${f.favour}: ${f.text}`).join("\n") }))));
      document.getElementById("court-places").replaceChildren(...(court.places || []).map(f =>
        html("li", { "data-favour": f.favour, text: fmt(ngettext("favour {favour} for {n} courtier: {text}",
          "favour {favour} for {n} courtiers: {text}", f.courtiers), { favour: f.favour, n: f.courtiers, text: f.text }) })));
      document.getElementById("court-pile").textContent = fmt(ngettext("favour cards: {pile} in the pile, {gone} gone",
        "favour cards: {pile} in the pile, {gone} gone", court.gone), court);
    }
  },
};
