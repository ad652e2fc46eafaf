// The Imperial Court panel of the board page (expansion X1): drawn from view.expansions.court, or
// hidden when the expansion is not in play. Registered in PANELS (web/panels/panels.js).
PANELS.court = {
  draw(court) {
    document.getElementById("court").hidden = !court;
    if (court) {
      document.querySelector("#court-players tbody").replaceChildren(
        ...Object.entries(court.courtiers || {}).map(([p, c]) => html("tr", { id: `court-${p}` },
          html("td", {}, swatch(p), p), html("td", { text: String(c.supply) }),
          html("td", { text: String(c.hall) }), html("td", { text: String(c.room) }),
          html("td", { class: "special", text: ((court.kept || {})[p] || []).map(f => `${f.favour}`).join(", "),
                       title: ((court.kept || {})[p] || []).map(f => `${f.favour}: ${f.text}`).join("\n") }))));
      document.getElementById("court-places").replaceChildren(...(court.places || []).map(f =>
        html("li", { "data-favour": f.favour, text: `favour ${f.favour} for ${f.courtiers} courtiers: ${f.text}` })));
      document.getElementById("court-pile").textContent = `favour cards: ${court.pile} in the pile, ${court.gone} gone`;
    }
  },
};
