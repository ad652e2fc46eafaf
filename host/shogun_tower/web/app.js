// The live board page: draws the view the assistant publishes (GET /events, Server-Sent Events).
// It only draws what the view holds (see docs/board-page.md); it never computes rules.
"use strict";

const COLOURS = { black: "#222", red: "#d62828", yellow: "#e9b400", purple: "#8e3bd6",
                  blue: "#2a64e0", green: "#2aa34a" };
// Regions are named by their colour on the board; the pale tint fills the region, the dark rim
// outlines it, so a region reads as one shape and its border is where the rims meet the sea.
const REGION_STYLE = {
  brown: { tint: "#e6d3b3", rim: "#7a4e24" }, yellow: { tint: "#f4e6a2", rim: "#a88908" },
  red: { tint: "#f2c3b8", rim: "#a4372a" }, purple: { tint: "#ddcbee", rim: "#66388f" },
  green: { tint: "#cde6c4", rim: "#3c7a36" },
};
const SPARE_STYLES = [{ tint: "#d9e2ec", rim: "#4a5d73" }, { tint: "#f0d9e6", rim: "#8a3c66" }];
const BUILDING_LETTER = { castle: "C", temple: "T", theatre: "N" };
// the buildings' names as the rules name them (rules/core/constants.py BUILDING_NAMES), in
// the page's language
const BUILDING_NAME = { castle: _("castle"), temple: _("temple"), theatre: _("Nō theatre") };
// the map's two sides (data/map_sun.json, map_moon.json), as the header names them
const SIDE_NAME = { sun: _("sun side"), moon: _("moon side") };
const DISK = 32;      // radius of a province's patch of its region
const CAP = 14;       // half width of the band joining two provinces of one region
const SVGNS = "http://www.w3.org/2000/svg";
let layout = { positions: {} };

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function html(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("data-") || k === "class" || k === "id" || k === "title")
      node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined)
    node.append(typeof c === "string" ? document.createTextNode(c) : c);
  return node;
}

function swatch(colour) {
  return html("span", { class: "swatch", style: `background:${COLOURS[colour] || "#ccc"}` });
}

function regionStyle(name, index) {
  return REGION_STYLE[name] || SPARE_STYLES[index % SPARE_STYLES.length];
}


// a cube colour as players name it: the green cubes are the farmers
function colourName(c) { return c === "green" ? _("farmers") : _(c); }

// a player's colour, or a region's (the regions are named by their colour on the board)
function colourWord(c) { return c ? _(c) : c; }

// ---- geometry for the region shapes ---------------------------------------------------------
function segDist(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2)) : 0;
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

function segSegDist(a, b, c, d) {
  const cross = (o, p, q) => (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0]);
  const d1 = cross(a, b, c), d2 = cross(a, b, d), d3 = cross(c, d, a), d4 = cross(c, d, b);
  if (((d1 > 0) !== (d2 > 0)) && ((d3 > 0) !== (d4 > 0))) return 0;
  return Math.min(segDist(a, c, d), segDist(b, c, d), segDist(c, a, b), segDist(d, a, b));
}

// The bands joining provinces of one region along their land borders, leaving out any band
// that would touch another region's shape: two regions must never seem to share ground.
function regionBands(view, pos) {
  const provs = view.provinces;
  const candidates = [];
  for (const [a, b, kind] of view.edges || []) {
    if (kind !== "land" || !pos[a] || !pos[b] || !provs[a] || !provs[b]) continue;
    if (provs[a].region !== provs[b].region) continue;
    candidates.push({ a, b, region: provs[a].region });
  }
  return candidates.filter(band => {
    for (const [name, p] of Object.entries(provs)) {
      if (p.region === band.region || !pos[name]) continue;
      if (segDist(pos[name], pos[band.a], pos[band.b]) < DISK + CAP + 8) return false;
    }
    for (const other of candidates) {
      if (other.region === band.region) continue;
      if (segSegDist(pos[band.a], pos[band.b], pos[other.a], pos[other.b]) < 2 * CAP + 8)
        return false;
    }
    return true;
  });
}

function inTriangle(p, a, b, c) {
  const side = (o, q, r) => (q[0] - o[0]) * (r[1] - o[1]) - (q[1] - o[1]) * (r[0] - o[0]);
  const s1 = side(a, b, p), s2 = side(b, c, p), s3 = side(c, a, p);
  return !((s1 < 0 || s2 < 0 || s3 < 0) && (s1 > 0 || s2 > 0 || s3 > 0));
}

// Three provinces of one region that border each other pairwise enclose land of that region:
// filling the triangle makes the region read as one piece of land rather than a web of bands.
function regionTriangles(view, pos, bands) {
  const joined = new Set(bands.map(b => [b.a, b.b].sort().join("|")));
  const has = (x, y) => joined.has([x, y].sort().join("|"));
  const out = [];
  for (const region of view.regions || []) {
    const members = region.provinces.filter(m => pos[m]);
    for (let i = 0; i < members.length; i++)
      for (let j = i + 1; j < members.length; j++)
        for (let k = j + 1; k < members.length; k++) {
          const [a, b, c] = [members[i], members[j], members[k]];
          if (!has(a, b) || !has(b, c) || !has(a, c)) continue;
          const foreign = Object.entries(view.provinces).some(([name, p]) =>
            p.region !== region.name && pos[name] && inTriangle(pos[name], pos[a], pos[b], pos[c]));
          if (!foreign) out.push({ region: region.name, points: [pos[a], pos[b], pos[c]] });
        }
  }
  return out;
}

// ---- the map --------------------------------------------------------------------------------
function drawMap(view) {
  const map = document.getElementById("map");
  map.replaceChildren();
  const pos = layout.positions || {};
  const provs = view.provinces || {};
  if (!Object.keys(provs).length) {
    map.appendChild(svg("text", { x: 530, y: 350, class: "no-game" }, _("no game yet")));
    return;
  }
  const placed = Object.keys(provs).filter(n => pos[n]).map(n => pos[n]);
  const xs = placed.map(p => p[0]), ys = placed.map(p => p[1]);
  // room around the outermost provinces for their names, buildings and region rims
  map.setAttribute("viewBox", `${Math.min(...xs) - 60} ${Math.min(...ys) - 55} ` +
    `${Math.max(...xs) - Math.min(...xs) + 120} ${Math.max(...ys) - Math.min(...ys) + 110}`);
  const regions = view.regions || [];
  const bands = regionBands(view, pos);
  const triangles = regionTriangles(view, pos, bands);
  const regionLayer = svg("g", { id: "regions-layer" });
  regions.forEach((region, i) => {
    const style = regionStyle(region.name, i);
    const g = svg("g", { class: "region", id: `region-${region.name}`,
                         "data-region": region.name, "data-provinces": region.provinces.join(",") });
    g.appendChild(svg("title", {}, fmt(_("{region} region: {provinces}"),
      { region: colourWord(region.name), provinces: region.provinces.map(provinceWord).join(_(", ")) })));
    // The rim first, a little larger; the tint on top leaves the rim showing as the outline.
    for (const [layer, grow, colour] of [["region-rim", 3, style.rim], ["region-fill", 0, style.tint]]) {
      const part = svg("g", { class: layer });
      for (const name of region.provinces) {
        if (!pos[name]) continue;
        part.appendChild(svg("circle", { cx: pos[name][0], cy: pos[name][1], r: DISK + grow,
                                         fill: colour, "data-province": name }));
      }
      for (const t of triangles) {
        if (t.region !== region.name) continue;
        part.appendChild(svg("polygon", { points: t.points.map(p => p.join(",")).join(" "),
                                          fill: colour, stroke: colour, "stroke-width": 2 * grow,
                                          "stroke-linejoin": "round" }));
      }
      for (const band of bands) {
        if (band.region !== region.name) continue;
        part.appendChild(svg("line", { x1: pos[band.a][0], y1: pos[band.a][1],
                                       x2: pos[band.b][0], y2: pos[band.b][1], stroke: colour,
                                       "stroke-width": 2 * (CAP + grow), "stroke-linecap": "round" }));
      }
      g.appendChild(part);
    }
    regionLayer.appendChild(g);
  });
  map.appendChild(regionLayer);

  const edgeLayer = svg("g", { id: "edges-layer" });
  for (const [a, b, kind] of view.edges || []) {
    if (!pos[a] || !pos[b] || !provs[a] || !provs[b]) continue;
    const cross = provs[a].region !== provs[b].region;
    const out = provs[a].excluded || provs[b].excluded;
    edgeLayer.appendChild(svg("line", {
      x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1],
      class: `edge ${kind}${kind === "land" && cross ? " cross" : ""}${out ? " out" : ""}`,
      "data-edge": `${a}|${b}`, "data-kind": kind }));
  }
  map.appendChild(edgeLayer);

  const provLayer = svg("g", { id: "provinces-layer" });
  for (const [name, p] of Object.entries(provs)) {
    const xy = pos[name];
    if (!xy) continue;
    const buildings = p.buildings || [];
    const g = svg("g", {
      class: "province" + (p.excluded ? " excluded" : "") + (p.owner ? "" : " neutral"),
      id: `province-${name}`, "data-owner": p.owner || "neutral", "data-armies": p.armies,
      "data-buildings": buildings.join(","), "data-revolt": p.revolt || 0,
      "data-region": p.region, "data-excluded": p.excluded ? "true" : "false",
      transform: `translate(${xy[0]},${xy[1]})` });
    g.appendChild(svg("circle", { r: 19, class: "body",
                                  fill: p.excluded ? "#b9b9b9" : (p.owner ? COLOURS[p.owner] : "#fbf8f1") }));
    if (p.excluded) {
      g.appendChild(svg("line", { x1: -13, y1: -13, x2: 13, y2: 13, class: "cross-out" }));
      g.appendChild(svg("line", { x1: -13, y1: 13, x2: 13, y2: -13, class: "cross-out" }));
    } else if (p.armies) {
      g.appendChild(svg("text", { class: "armies" + (p.owner === "yellow" || !p.owner ? " dark" : ""),
                                  y: 6 }, String(p.armies)));
    }
    g.appendChild(svg("text", { class: "name", y: 33 }, provinceWord(name)));
    buildings.forEach((b, i) => {
      const x = -((buildings.length - 1) * 13) / 2 + i * 13;
      const bg = svg("g", { class: `building ${b}`, transform: `translate(${x},-26)`, "data-building": b });
      bg.appendChild(svg("rect", { x: -6, y: -6, width: 12, height: 12, rx: 2 }));
      bg.appendChild(svg("text", { y: 4 }, BUILDING_LETTER[b] || "?"));
      g.appendChild(bg);
    });
    for (let i = 0; i < (p.revolt || 0); i++)
      g.appendChild(svg("circle", { r: 5, cx: 22, cy: -12 + i * 11, class: "revolt-dot" }));
    const owner = p.excluded ? _("out of play") : (p.owner ? colourWord(p.owner) : _("neutral"));
    g.appendChild(svg("title", {}, fmt(_("{province} ({region} region, tax {tax}, rice {rice}, " +
      "{slots}): {owner}, {armies}, {buildings}, {markers}"), {
      province: provinceWord(name), region: colourWord(p.region), tax: p.tax, rice: p.rice,
      slots: fmt(ngettext("{n} building slot", "{n} building slots", p.slots), { n: p.slots }),
      owner, armies: fmt(ngettext("{n} army", "{n} armies", p.armies), { n: p.armies }),
      buildings: buildings.map(b => BUILDING_NAME[b] || b).join(_(", ")) || _("no buildings"),
      markers: fmt(ngettext("{n} revolt marker", "{n} revolt markers", p.revolt || 0),
                   { n: p.revolt || 0 }) })));
    provLayer.appendChild(g);
  }
  map.appendChild(provLayer);

  const legend = document.getElementById("region-legend");
  legend.replaceChildren(...regions.map((r, i) => {
    const style = regionStyle(r.name, i);
    return html("span", { class: "region-key", "data-region": r.name },
      html("span", { class: "swatch", style: `background:${style.tint};border:2px solid ${style.rim}` }),
      fmt(_("{region} region"), { region: colourWord(r.name) }));
  }));
}

// ---- tracks, cubes, cards -------------------------------------------------------------------
function drawTrack(id, players, key, spaces) {
  const track = document.getElementById(id);
  track.replaceChildren();
  for (let s = 0; s < spaces; s++) {
    const space = html("div", { class: "space" + (s % 10 === 0 ? " tenth" : ""), "data-space": s,
                                title: String(s) }, html("span", { class: "num", text: String(s) }));
    for (const p of players) {
      const value = p[key];
      const at = key === "vp" ? p.vp_space ?? value % spaces : Math.min(value, spaces - 1);
      if (at !== s) continue;
      const lap = key === "vp" ? (p.vp_lap ?? Math.floor(value / spaces)) : 0;
      const m = html("span", { class: "marker" + (lap ? " lapped" : ""), id: `${key}-${p.colour}`,
                               "data-value": value, "data-space": at, "data-lap": lap,
                               title: lap ? fmt(_("{player}: {n} (lap {lap})"),
                                                { player: colourWord(p.colour), n: value, lap: lap + 1 })
                                 : fmt(_("{player}: {n}"), { player: colourWord(p.colour), n: value }) });
      m.style.background = COLOURS[p.colour] || "#999";
      if (lap) m.textContent = `+${lap * spaces}`;
      space.appendChild(m);
    }
    track.appendChild(space);
  }
}

function drawCubes(id, counts) {
  const box = document.getElementById(id);
  const entries = Object.entries(counts || {}).filter(([, n]) => n > 0);
  const total = entries.reduce((t, [, n]) => t + n, 0);
  box.dataset.total = total;
  box.replaceChildren(...entries.map(([c, n]) =>
    html("span", { class: "cube-count", "data-colour": c, "data-count": n },
         swatch(c), `${colourName(c)} ${n}`)));
  if (!entries.length) box.append(html("span", { class: "empty", text: _("empty") }));
  else box.append(html("span", { class: "total",
                                 text: fmt(ngettext("({n} cube)", "({n} cubes)", total), { n: total }) }));
}

function cubeLine(label, counts) {
  const parts = Object.entries(counts || {}).filter(([, n]) => n > 0)
    .map(([c, n]) => html("span", { class: "cube-count", "data-colour": c, "data-count": n },
                          swatch(c), `${colourName(c)} ${n}`));
  // Translators: the cubes put into the tower ("in:") and those that fell out ("out:")
  const head = label === "in" ? _("in:") : _("out:");
  return html("div", { class: `throw-${label}` }, `${head} `,
              ...(parts.length ? parts : [_("nothing")]));
}

function drawLastThrow(t) {
  const box = document.getElementById("last-throw");
  if (!t) {
    box.removeAttribute("data-reason");
    box.replaceChildren(_("none yet"));
    return;
  }
  box.dataset.reason = t.reason || "";
  const title = t.title || _("Throw");  // the rules' own words (rules/core/tower.py throw_title)
  box.replaceChildren(html("div", { class: "throw-title", text: title }),
                      cubeLine("in", t.in), cubeLine("out", t.out),
                      html("div", { class: "verdict", text: t.verdict || "" }));
}

function drawPlayers(players) {
  document.querySelector("#players tbody").replaceChildren(...players.map(p => {
    let bid = "";
    if (p.bid_shown) bid = p.bid === null ? _("none") : (typeof p.bid === "string"
      ? fmt(_("card {card}"), { card: provinceWord(p.bid) }) : String(p.bid));
    else if (p.planned) bid = _("planned");
    // the card's name only: its text is in the special cards' list and in the tooltip
    const special = p.special ? p.special.card : "";
    return html("tr", { id: `player-${p.colour}`, "data-colour": p.colour },
      html("td", {}, swatch(p.colour), colourWord(p.colour)), html("td", { text: String(p.vp) }),
      html("td", { text: String(p.rice) }), html("td", { text: String(p.coins) }),
      html("td", { text: String(p.provinces) }), html("td", { text: String(p.armies ?? "") }),
      html("td", { text: String(p.supply) }), html("td", { class: "special", text: special,
                                                   title: p.special ? `${p.special.card} ${p.special.text}` : "" }),
      html("td", { class: "bid", text: bid }), html("td", { text: p.turn ? String(p.turn) : "" }));
  }));
}

function drawRegions(regions) {
  const cell = (m) => {
    if (!m || !m.leaders.length) return html("td", { class: "leaders", text: "–" });
    return html("td", { class: "leaders", title: fmt(_("{count} each, {vp} VP each"), m) },
                ...m.leaders.map(p => swatch(p)), fmt(_("{vp} VP"), m));
  };
  document.querySelector("#regions tbody").replaceChildren(...regions.map((r, i) => {
    const style = regionStyle(r.name, i);
    return html("tr", { id: `region-row-${r.name}`, "data-region": r.name },
      html("td", {}, html("span", { class: "swatch", style: `background:${style.tint};border:2px solid ${style.rim}` }), colourWord(r.name)),
      html("td", { text: r.in_play.length !== r.provinces.length
        ? fmt(_("{n} of {total}"), { n: r.in_play.length, total: r.provinces.length })
        : String(r.in_play.length) }),
      cell(r.majorities.castle), cell(r.majorities.temple), cell(r.majorities.theatre));
  }));
}

// "Battle/Move A" may wrap after its slash on a narrow track, never inside a word
function breakable(name) {
  const parts = String(name).split("/");
  return parts.flatMap((part, i) => i < parts.length - 1 ? [`${part}/`, html("wbr")] : [part]);
}

function drawCards(view) {
  document.getElementById("action-track").replaceChildren(...(view.action_track || []).map(a =>
    html("li", { class: (a.action ? "up" : "down") + (a.done ? " done" : "") + (a.current ? " current" : ""),
                 "data-slot": a.slot, "data-action": a.action || "" }, ...breakable(a.name))));
  document.getElementById("event").textContent = view.event ? view.event.text : _("none");
  document.getElementById("events-up").replaceChildren(...(view.events_up || []).map(e =>
    html("li", { "data-card": e.card, text: e.text })));
  document.getElementById("specials").replaceChildren(...(view.specials || []).map(s =>
    html("li", { "data-card": s.card, "data-taken-by": s.taken_by || "" },
         `${s.card} ${s.text}`, s.taken_by ? html("span", { class: "taker" }, " — ", swatch(s.taken_by), colourWord(s.taken_by)) : "")));
  const draft = view.draft;
  document.getElementById("draft-panel").hidden = !draft;
  if (draft) document.getElementById("draft").textContent =
    fmt(ngettext("face up: {faceup} · {n} card in the pile", "face up: {faceup} · {n} cards in the pile",
                 draft.pile), { faceup: draft.faceup.map(provinceWord).join(_(", ")) || _("none"), n: draft.pile });
}

function render(view) {
  document.getElementById("side").textContent = view.side ? (SIDE_NAME[view.side]
    || fmt(_("{side} side"), { side: view.side })) : "";
  document.getElementById("when").textContent = view.when || "";
  const over = ["game over", _("game over")].includes(view.next);
  document.getElementById("next").textContent = (view.next && !over ? fmt(_("next: {next}"), view) : "")
    + (view.odds ? ` — ${view.odds.text}` : "");  // the exact odds of the battle being thrown
  document.getElementById("waiting").textContent = view.waiting || "";
  // notes on the map data are for the people who maintain the map file, in its language
  // (English): the legend keeps them (data-map-notes), shown as a tooltip on an English page
  // only, never as page text
  const legend = document.getElementById("legend");
  const notes = (view.map_notes || []).join("; ");
  legend.dataset.mapNotes = notes;
  if (notes && document.documentElement.lang === "en") legend.title = notes;
  else legend.removeAttribute("title");
  const result = document.getElementById("result");
  result.hidden = !view.result;
  if (view.result) result.textContent = view.result.winners.length === 1 ?
    fmt(_("Game over — {player} wins"), { player: colourWord(view.result.winners[0]) })
    : fmt(_("Game over — shared victory: {players}"),
          { players: view.result.winners.map(colourWord).join(_(", ")) });
  drawMap(view);
  const players = view.players || [];
  drawPlayers(players);
  drawTrack("vp-track", players, "vp", 81);
  drawTrack("rice-track", players, "rice", 19);
  drawCubes("tower", view.tower);
  drawCubes("tray", view.tray);
  drawLastThrow(view.last_throw);
  document.getElementById("log").replaceChildren(...(view.log || []).slice(0, 30)
    .map(line => html("li", { text: line })));
  drawRegions(view.regions || []);
  drawCards(view);
  drawPanels(view);
  const sup = view.supplies;
  document.getElementById("supplies").textContent = sup ?
    fmt(_("Supply: {items}"), { items: [
      fmt(ngettext("{n} castle", "{n} castles", sup.castle), { n: sup.castle }),
      fmt(ngettext("{n} temple", "{n} temples", sup.temple), { n: sup.temple }),
      fmt(ngettext("{n} Nō theatre", "{n} Nō theatres", sup.theatre), { n: sup.theatre }),
      fmt(ngettext("{n} farmer", "{n} farmers", sup.farmers), { n: sup.farmers })].join(_(", ")) }) : "";
  document.body.dataset.version = view.version;
}

// ---- the expansions' panels (web/panels/NAME.js: each draws its own, view.expansions.NAME or
// undefined when the expansion is not in play) ------------------------------------------------
function drawPanels(view) {
  for (const [name, panel] of Object.entries(PANELS)) panel.draw((view.expansions || {})[name], view);
}

// ---- the live connection --------------------------------------------------------------------
// EventSource retries by itself only on some failures; a page left open through a restart of
// the game must come back by itself, so the page reconnects on every error, a little slower
// each time, and says meanwhile that what it shows may be stale.
let retryMs = 300;

function setConnected(ok) {
  document.body.dataset.connected = ok ? "true" : "false";
  document.getElementById("connection").hidden = ok;
}

function connect() {
  const source = new EventSource("/events");
  source.onopen = () => { retryMs = 300; setConnected(true); };
  source.onmessage = async (e) => {
    setConnected(true);
    if (!Object.keys(layout.positions || {}).length) await loadLayout();
    try { render(JSON.parse(e.data)); } catch (err) { console.error("cannot draw the view", err); }
  };
  source.onerror = () => {
    source.close();
    setConnected(false);
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 2000);
  };
}

async function loadLayout() {
  try { layout = await (await fetch("/layout.json")).json(); } catch (err) { /* next connect */ }
}

// The server puts the layout and the current view into the page itself, so the first paint is
// the game as it is, never an empty board waiting for a second request.
function inline(id) {
  const node = document.getElementById(id);
  try { return node ? JSON.parse(node.textContent) : null; } catch (err) { return null; }
}

async function start() {
  const given = inline("initial-layout");
  if (given) layout = given; else await loadLayout();
  const first = inline("initial-view");
  if (first) {
    try { render(first); } catch (err) { console.error("cannot draw the view", err); }
  }
  connect();
}
start();
