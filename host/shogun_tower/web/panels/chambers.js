// The chamber board (X4): a face-up tile shows its name, a face-down one is the neutral
// player's (#), a marker its player's colour; each row and column its VP and who holds most.
function chamberMost(line, neutral) {
  const most = (line.leaders || []).map(o => o === neutral ? html("span", { text: "#", title: _("neutral") }) : swatch(o));
  const scores = Object.entries(line.scores).map(([p, n]) => fmt(_("{player} scores {n}"), { player: colourWord(p), n }));
  return html("span", { class: "most", "data-leaders": line.leaders.join(","),
    title: fmt(_("{line}: {vp} VP; {scores}"), { line: chamberLine(line.line), vp: line.vp,
                                                 scores: scores.join(_(", ")) || _("nobody scores") }) },
    ...(most.length ? most : ["–"]));
}

// "row 2", "column C" (the view's names of the lines) in the page's words
function chamberLine(name) {
  const [kind, which] = String(name).split(" ");
  return kind === "row" ? fmt(_("row {row}"), { row: which })
    : kind === "column" ? fmt(_("column {column}"), { column: which }) : name;
}

function chamberTileState(sp) {
  if (sp.state === "up") return _("face up");
  if (sp.state === "down") return _("face down (neutral)");
  if (sp.state === "marker") return fmt(_("{player}'s marker"), { player: colourWord(sp.owner) });
  return _("in the bag");
}

PANELS.chambers = { draw: drawChambers };

function drawChambers(ch) {
  document.getElementById("chambers").hidden = !ch;
  if (!ch) return;
  const lines = Object.fromEntries(ch.lines.map(l => [l.line, l]));
  const head = html("tr", {}, html("th"), ...ch.columns.map(c => html("th", { text: c })), html("th", { text: _("VP") }), html("th", { text: _("most") }));
  const rows = ch.spaces.map((row, r) => html("tr", {}, html("th", { text: String(r + 1) }),
    ...row.map(sp => {
      const cell = html("td", { class: `space ${sp.state}`, "data-tile": sp.tile, "data-state": sp.state,
                                "data-owner": sp.owner || "", title: `${sp.tile}: ${chamberTileState(sp)}` });
      if (sp.state === "up") cell.textContent = sp.tile;
      else if (sp.state === "down") cell.textContent = "#";
      else if (sp.state === "marker") cell.append(swatch(sp.owner));
      return cell;
    }),
    html("td", { class: "vp", text: String(ch.row_vp[r]) }),
    html("td", { "data-line": `row ${r + 1}` }, chamberMost(lines[`row ${r + 1}`], ch.neutral))));
  const vp = html("tr", {}, html("th", { text: _("VP") }), ...ch.column_vp.map(v => html("td", { class: "vp", text: String(v) })));
  const most = html("tr", {}, html("th", { text: _("most") }), ...ch.columns.map(c =>
    html("td", { "data-line": `column ${c}` }, chamberMost(lines[`column ${c}`], ch.neutral))));
  document.getElementById("chamber-board").replaceChildren(html("thead", {}, head), html("tbody", {}, ...rows, vp, most));
  const counts = (o) => Object.entries(o).map(([p, n]) => `${colourWord(p)} ${n}`).join(_(", "));
  const regions = ch.regions.map(colourWord).join(_(", ")) || _("not laid yet");
  document.getElementById("chamber-info").textContent = ch.asking
    ? fmt(_("markers left: {markers}; region row: {regions} (now: the {region} region); tiles in the bag: {bag}; points if the game ended now: {points}"),
          { markers: counts(ch.markers), regions, region: colourWord(ch.asking), bag: ch.bag, points: counts(ch.points) })
    : fmt(_("markers left: {markers}; region row: {regions}; tiles in the bag: {bag}; points if the game ended now: {points}"),
          { markers: counts(ch.markers), regions, bag: ch.bag, points: counts(ch.points) });
}
