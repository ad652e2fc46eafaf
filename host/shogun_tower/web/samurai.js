// The board page of a game of Samurai: the counts, the figures still on the board,
// the tower's strip as read back, the end and the ranking. It draws the view the console
// publishes (games/knizia_samurai/view.py) and computes no rule itself: the strict mosts, the
// winner and each player's place come in the view, as the terminal says them.
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

function render(v) {
  document.body.dataset.version = String(v.version || 0);
  if (!v.players) {
    document.getElementById("entries").textContent = v.waiting ? _(v.waiting) : _("waiting for the game…");
    return;
  }
  const types = v.types;
  document.getElementById("entries").textContent = v.headline;
  document.getElementById("last").replaceChildren(
    ...(v.last || []).map((line) => html("div", { text: line.trim() })));

  // the counts, a strict most underlined
  const head = document.querySelector("#captured thead tr");
  const names = v.names || {};
  const said = (p) => names[p] || p;
  head.replaceChildren(html("th", { text: _("player") }),
    ...types.map((t) => html("th", { text: t.plural })), html("th", { text: _("all") }));
  const body = document.querySelector("#captured tbody");
  body.replaceChildren(...v.players.map((p) => {
    const c = v.captured[p];
    const row = html("tr", { "data-player": p }, html("td", {}, swatch(p), said(p)));
    let all = 0;
    for (const t of types) {
      row.append(html("td", { text: String(c[t.name]), "data-type": t.name,
                              class: v.most && v.most[t.name] === p ? "most" : "" }));
      all += c[t.name];
    }
    row.append(html("td", { text: String(all), "data-type": "all" }));
    return row;
  }));

  document.getElementById("on-board").replaceChildren(...types.map((t) =>
    html("li", { "data-type": t.name, text: v.on_board_words[t.name] })));
  document.getElementById("ties").textContent =
    v.ties_text;

  // the strip: a band per player, three segments; a white LED stands for two figures
  const strip = document.getElementById("strip");
  const note = document.getElementById("strip-note");
  if (v.strip) {
    strip.replaceChildren(...v.players.map((p) => {
      const segments = html("span", { class: "segments" }, ...types.map((t, k) => {
        const seg = html("span", { class: "segment", "data-type": t.name,
                                   "data-shown": String(v.strip[p][t.name]) });
        // the segment's LEDs as the tower shows them: dark, white (two figures) or lit
        for (const led of v.bands[p][k]) {
          seg.append(html("span", { class: led === "·" ? "led" : led === "W" ? "led white"
                                                                        : `led p-${p}` }));
        }
        return seg;
      }));
      // how many LEDs a band has: the segments go under the name when they would not fit
      // beside it at a readable size (samurai.css)
      segments.style.setProperty("--leds", String(v.bands[p].join("").length));
      return html("div", { class: "band", "data-player": p },
        html("span", { class: "who" }, swatch(p), said(p)), segments);
    }));
    const agrees = v.players.every((p) => types.every((t) =>
      v.strip[p][t.name] === v.captured[p][t.name]));
    note.textContent = agrees ? _("read back from the tower: it agrees with the counts")
      : _("read back from the tower: it DISAGREES with the counts");
  } else {
    strip.replaceChildren();
    note.textContent = v.strip_note;
  }

  // the end
  const result = document.getElementById("result");
  const ranking = document.getElementById("ranking");
  result.hidden = !v.over;
  document.getElementById("ranking-title").hidden = !v.result;
  if (v.over && v.result) {
    document.getElementById("over").textContent = v.over_text;
    document.getElementById("winner").textContent = v.winner_line;
    // each player's own place: players who share one show the same number (1, 2, 2, 4)
    ranking.replaceChildren(...v.standings.map((s) => html("li",
      { "data-player": s.player, "data-place": String(s.place), class: s.winner ? "winner" : "" },
      html("span", { class: "place", text: `${s.place}.` }), swatch(s.player),
      html("span", { class: "who", text: said(s.player) }), s.after || `: ${s.text}`)));
  } else {
    ranking.replaceChildren();
  }
}

liveView(render);  // live.js
