// The chamber board (X4): a face-up tile shows its name, a face-down one is the neutral
// player's (#), a marker its player's colour; each row and column its VP and who holds most.
function chamberMost(line, neutral) {
  const most = (line.leaders || []).map(o => o === neutral ? html("span", { text: "#", title: "neutral" }) : swatch(o));
  return html("span", { class: "most", "data-leaders": line.leaders.join(","),
    title: `${line.line}: ${line.vp} VP; ` + (Object.entries(line.scores).map(([p, n]) => `${p} scores ${n}`).join(", ") || "nobody scores") },
    ...(most.length ? most : ["–"]));
}

PANELS.chambers = { draw: drawChambers };

function drawChambers(ch) {
  document.getElementById("chambers").hidden = !ch;
  if (!ch) return;
  const lines = Object.fromEntries(ch.lines.map(l => [l.line, l]));
  const head = html("tr", {}, html("th"), ...ch.columns.map(c => html("th", { text: c })), html("th", { text: "VP" }), html("th", { text: "most" }));
  const rows = ch.spaces.map((row, r) => html("tr", {}, html("th", { text: String(r + 1) }),
    ...row.map(sp => {
      const cell = html("td", { class: `space ${sp.state}`, "data-tile": sp.tile, "data-state": sp.state,
                                "data-owner": sp.owner || "", title: `${sp.tile}: ${sp.state === "up" ? "face up" :
                                  sp.state === "down" ? "face down (neutral)" : sp.state === "marker" ? `${sp.owner}'s marker` : "in the bag"}` });
      if (sp.state === "up") cell.textContent = sp.tile;
      else if (sp.state === "down") cell.textContent = "#";
      else if (sp.state === "marker") cell.append(swatch(sp.owner));
      return cell;
    }),
    html("td", { class: "vp", text: String(ch.row_vp[r]) }),
    html("td", { "data-line": `row ${r + 1}` }, chamberMost(lines[`row ${r + 1}`], ch.neutral))));
  const vp = html("tr", {}, html("th", { text: "VP" }), ...ch.column_vp.map(v => html("td", { class: "vp", text: String(v) })));
  const most = html("tr", {}, html("th", { text: "most" }), ...ch.columns.map(c =>
    html("td", { "data-line": `column ${c}` }, chamberMost(lines[`column ${c}`], ch.neutral))));
  document.getElementById("chamber-board").replaceChildren(html("thead", {}, head), html("tbody", {}, ...rows, vp, most));
  document.getElementById("chamber-info").textContent =
    `markers left: ${Object.entries(ch.markers).map(([p, n]) => `${p} ${n}`).join(", ")}; region row: ${ch.regions.join(", ") || "not laid yet"}` +
    `${ch.asking ? ` (now: the ${ch.asking} region)` : ""}; tiles in the bag: ${ch.bag}; ` +
    `points if the game ended now: ${Object.entries(ch.points).map(([p, n]) => `${p} ${n}`).join(", ")}`;
}
