// The military leaders (X3): on the map a banner in the leader's province and a statue where
// one stands, both in their player's colour; in the side panel each player's row.
PANELS.leaders = { draw: drawLeaders };

function drawLeaders(ld) {
  document.getElementById("leaders").hidden = !ld;
  const map = document.getElementById("map");
  const old = document.getElementById("leaders-layer");
  if (old) old.remove();
  if (!ld) return;
  const pos = layout.positions || {};
  const layer = svg("g", { id: "leaders-layer" });
  for (const [p, at] of Object.entries(ld.leaders || {})) {
    if (!at || !pos[at]) continue;
    const g = svg("g", { class: "leader", "data-leader": p, "data-province": at,
                         transform: `translate(${pos[at][0] - 24},${pos[at][1] - 20})` });
    g.appendChild(svg("line", { x1: 0, y1: 14, x2: 0, y2: -8, class: "pole" }));
    g.appendChild(svg("polygon", { points: "0,-8 12,-4 0,0", fill: COLOURS[p] || "#ccc", class: "banner" }));
    g.appendChild(svg("title", {}, fmt(_("{player}'s military leader in {province}: the actions planned in this province are stronger"),
                                       { player: colourWord(p), province: provinceWord(at) })));
    layer.appendChild(g);
  }
  for (const [prov, p] of Object.entries(ld.statues || {})) {
    if (!pos[prov]) continue;
    const g = svg("g", { class: "statue", "data-statue": p, "data-province": prov,
                         transform: `translate(${pos[prov][0] + 22},${pos[prov][1] + 14})` });
    g.appendChild(svg("rect", { x: -4, y: -9, width: 8, height: 12, rx: 2, fill: COLOURS[p] || "#ccc" }));
    g.appendChild(svg("rect", { x: -6, y: 3, width: 12, height: 3, class: "plinth" }));
    g.appendChild(svg("title", {}, fmt(_("{player}'s statue in {province}: 1 VP at the end unless another leader takes it"),
                                       { player: colourWord(p), province: provinceWord(prov) })));
    layer.appendChild(g);
  }
  map.appendChild(layer);
  document.querySelector("#leader-players tbody").replaceChildren(
    ...Object.entries(ld.leaders || {}).map(([p, at]) => {
      const statues = Object.entries(ld.statues || {}).filter(([, c]) => c === p).map(([x]) => x);
      const trophies = (ld.trophies || {})[p] || [];
      return html("tr", { id: `leader-${p}` }, html("td", {}, swatch(p), colourWord(p)),
        html("td", { text: at ? provinceWord(at)
          : ((ld.taken || []).includes(p) ? _("taken back") : _("not placed")) }),
        // a line breaks between the provinces, never inside a name (a kanji name has no space)
        html("td", { class: "statues" }, ...(statues.length ? statues.flatMap((x, i) =>
          [i ? _(", ") : "", html("span", { class: "province", text: provinceWord(x) })]) : ["–"])),
        html("td", { text: String((ld.statue_supply || {})[p]) }),
        html("td", {}, ...(trophies.length ? trophies.map(c => swatch(c)) : ["–"])),
        html("td", { text: String((ld.vp || {})[p]) }));
    }));
}
