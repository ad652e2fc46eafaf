// The live board page: draws the view the assistant publishes (GET /state, then /events).
"use strict";
const COLOURS = { black: "#222", red: "#d62828", yellow: "#e9b400", purple: "#8e3bd6",
                  blue: "#2a64e0", green: "#2aa34a", unknown: "#999" };
const REGION_RING = { brown: "#8b5a2b", yellow: "#d4a017", red: "#b22222", purple: "#6a0dad",
                      green: "#2e8b57" };
const SVGNS = "http://www.w3.org/2000/svg";
let layout = {};

function el(tag, attrs, text) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function swatch(colour) {
  return `<span class="swatch" style="background:${COLOURS[colour] || "#ccc"}"></span>`;
}

function cubesText(counts) {
  const parts = Object.entries(counts || {}).filter(([, n]) => n > 0)
    .map(([c, n]) => `<span data-colour="${c}">${swatch(c)}${c} ${n}</span>`);
  return parts.length ? parts.join("") : "<span>empty</span>";
}

function drawMap(view) {
  const svg = document.getElementById("map");
  svg.replaceChildren();
  const pos = layout.positions || {};
  for (const [a, b, kind] of view.edges || []) {
    if (!pos[a] || !pos[b]) continue;
    svg.appendChild(el("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1],
                                  class: `edge ${kind}`, "data-edge": `${a}|${b}` }));
  }
  for (const [name, p] of Object.entries(view.provinces || {})) {
    const xy = pos[name];
    if (!xy) continue;
    const g = el("g", { class: "province" + (p.excluded ? " excluded" : ""),
                        id: `province-${name}`, "data-owner": p.owner || "neutral",
                        "data-armies": p.armies, "data-buildings": (p.buildings || []).join(","),
                        "data-revolt": p.revolt || 0, transform: `translate(${xy[0]},${xy[1]})` });
    g.appendChild(el("circle", { r: 22, class: "body",
                                 fill: p.owner ? COLOURS[p.owner] : "var(--neutral)",
                                 stroke: REGION_RING[p.region] || "#666" }));
    if (p.armies) g.appendChild(el("text", { class: "armies", y: 6 }, String(p.armies)));
    g.appendChild(el("text", { class: "name", y: 38 }, name));
    const letters = (p.buildings || []).map(b => ({ castle: "C", temple: "T", theatre: "N" })[b] || "?");
    if (letters.length) g.appendChild(el("text", { class: "buildings", y: -27 }, letters.join(" ")));
    for (let i = 0; i < (p.revolt || 0); i++)
      g.appendChild(el("circle", { r: 5, cx: 22 + i * 11, cy: -16, class: "revolt-dot" }));
    g.appendChild(el("title", {}, `${name} (${p.region}): ${p.owner || "neutral"}, ` +
      `${p.armies} armies, ${(p.buildings || []).join(", ") || "no buildings"}, ` +
      `${p.revolt || 0} revolt markers`));
    svg.appendChild(g);
  }
}

function drawTrack(id, players, key, spaces) {
  const track = document.getElementById(id);
  track.replaceChildren();
  for (let s = 0; s < spaces; s++) {
    const space = document.createElement("div");
    space.className = "space" + (s % 10 === 0 ? " tenth" : "");
    space.title = String(s);
    const here = players.filter(p => p[key] % spaces === s);
    here.forEach((p, i) => {
      const m = document.createElement("div");
      m.className = "marker";
      m.id = `${key}-${p.colour}`;
      m.dataset.value = p[key];
      m.style.background = COLOURS[p.colour];
      m.style.top = `${(i * 16) / here.length}px`;
      m.style.height = `${16 / here.length}px`;
      space.appendChild(m);
    });
    track.appendChild(space);
  }
}

function render(view) {
  document.getElementById("when").textContent = view.when || "";
  document.getElementById("waiting").textContent = view.waiting || "";
  drawMap(view);
  const players = view.players || [];
  document.querySelector("#players tbody").innerHTML = players.map(p =>
    `<tr id="player-${p.colour}"><td>${swatch(p.colour)}${p.colour}</td><td>${p.vp}</td>` +
    `<td>${p.rice}</td><td>${p.coins}</td><td>${p.provinces}</td><td>${p.supply}</td></tr>`).join("");
  drawTrack("vp-track", players, "vp", 81);
  drawTrack("rice-track", players, "rice", 19);
  document.getElementById("tower").innerHTML = cubesText(view.tower);
  document.getElementById("tray").innerHTML = cubesText(view.tray);
  const t = view.last_throw;
  document.getElementById("last-throw").innerHTML = t ?
    `<div>in: ${cubesText(t.in)}</div><div>out: ${cubesText(t.out)}</div>` +
    `<div class="verdict">${t.verdict || ""}</div>` : "none yet";
  document.getElementById("log").innerHTML = (view.log || []).slice(0, 30)
    .map(line => `<li>${line.replace(/</g, "&lt;")}</li>`).join("");
  document.body.dataset.version = view.version;
}

async function start() {
  layout = await (await fetch("/layout.json")).json();
  render(await (await fetch("/state")).json());
  const events = new EventSource("/events");
  events.onmessage = (e) => render(JSON.parse(e.data));
}
start();
