// The board page of a game of Samurai: the counts, the figures still on the board,
// the tower's strip as read back, the end and the ranking. It draws the view the console
// publishes (shogun_tower/samurai/view.py) and computes no rule itself.
"use strict";

function html(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function swatch(player) {
  return html("span", { class: `swatch p-${player}` });
}

function count(type, n) {
  return `${n} ${n === 1 ? type.title : type.plural}`;
}

function render(v) {
  document.body.dataset.version = String(v.version || 0);
  if (!v.players) {
    document.getElementById("entries").textContent = v.waiting || "waiting for the game…";
    return;
  }
  const types = v.types;
  document.getElementById("entries").textContent =
    `${v.players.length} players · ${v.figures_per_type} figures a type · ${v.entries} entries`;
  document.getElementById("last").textContent = v.last || "";

  // the counts, a strict most underlined
  const head = document.querySelector("#captured thead tr");
  head.replaceChildren(html("th", { text: "player" }),
    ...types.map((t) => html("th", { text: t.plural })), html("th", { text: "all" }));
  const body = document.querySelector("#captured tbody");
  body.replaceChildren(...v.players.map((p) => {
    const c = v.captured[p];
    const row = html("tr", { "data-player": p }, html("td", {}, swatch(p), p));
    let all = 0;
    for (const t of types) {
      const top = Math.max(...v.players.map((q) => v.captured[q][t.name]));
      const alone = v.players.filter((q) => v.captured[q][t.name] === top).length === 1;
      row.append(html("td", { text: String(c[t.name]), "data-type": t.name,
                              class: top > 0 && alone && c[t.name] === top ? "most" : "" }));
      all += c[t.name];
    }
    row.append(html("td", { text: String(all), "data-type": "all" }));
    return row;
  }));

  document.getElementById("on-board").replaceChildren(...types.map((t) =>
    html("li", { "data-type": t.name, text: count(t, v.on_board[t.name]) })));
  document.getElementById("ties").textContent =
    `left the board on a tie: ${v.ties} of ${v.ties_that_end}`;

  // the strip: a band per player, three segments; a white LED stands for two figures
  const strip = document.getElementById("strip");
  const note = document.getElementById("strip-note");
  if (v.strip) {
    strip.replaceChildren(...v.players.map((p) => html("div", { class: "band", "data-player": p },
      html("span", { class: "who" }, swatch(p), p),
      ...types.map((t, k) => {
        const seg = html("span", { class: "segment", "data-type": t.name,
                                   "data-shown": String(v.strip[p][t.name]) });
        // the segment's LEDs as the tower shows them: dark, white (two figures) or lit
        for (const led of v.bands[p][k]) {
          seg.append(html("span", { class: led === "·" ? "led" : led === "W" ? "led white"
                                                                        : `led p-${p}` }));
        }
        return seg;
      }))));
    const agrees = v.players.every((p) => types.every((t) =>
      v.strip[p][t.name] === v.captured[p][t.name]));
    note.textContent = agrees ? "read back from the tower: it agrees with the counts"
      : "read back from the tower: it DISAGREES with the counts";
  } else {
    strip.replaceChildren();
    note.textContent = "no tower lights this game";
  }

  // the end
  const result = document.getElementById("result");
  const ranking = document.getElementById("ranking");
  result.hidden = !v.over;
  document.getElementById("ranking-title").hidden = !v.result;
  if (v.over && v.result) {
    document.getElementById("over").textContent = `The game is over: ${v.over.text}.`;
    document.getElementById("winner").textContent =
      `Winner: ${v.result.winners.join(" and ")} — ${v.result.reason}`;
    ranking.replaceChildren(...v.result.ranking.map((s) => html("li",
      { "data-player": s.player, "data-place": String(s.place) }, swatch(s.player),
      `${s.player}: ` + (s.most_of.length
        ? `most ${s.most_of.map((n) => types.find((t) => t.name === n).plural).join(" and ")}`
        : "no strict most") + `; other figures ${s.others}, all ${s.total}`)));
  } else {
    ranking.replaceChildren();
  }
}

liveView(render);  // live.js
