// The board page of Ravensburger's Shogun: the 8×8 board with each piece's dial number, the
// last move's way, "Shogun!" and the result, redrawn on every view the console publishes.
"use strict";

const FILES = "abcdefgh";

function html(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function render(view) {
  document.body.dataset.version = String(view.version || 0);
  if (!view.pieces) { document.getElementById("turn").textContent = view.waiting ? _(view.waiting) : _("no game yet"); return; }
  const sides = view.sides || {};
  const side = (s) => sides[s] || s;
  const way = new Set(view.last ? view.last.path : []);
  const landed = view.last ? view.last.to : null;
  const threat = view.shogun ? view.shogun.shogun : null;
  const board = document.getElementById("board");
  const rows = [html("tr", {}, html("th"), ...[...FILES].map(f => html("th", { text: f })))];
  for (let rank = 8; rank >= 1; rank--) {
    const cells = [html("th", { text: String(rank) })];
    for (const f of FILES) {
      const sq = f + rank;
      const piece = view.pieces[sq];
      const cls = [sq === landed ? "landed" : way.has(sq) ? "way" : "", sq === threat ? "threat" : ""];
      const td = html("td", { id: `sq-${sq}`, class: cls.join(" ").trim() });
      if (piece) {
        td.append(html("span", {
          class: `piece ${piece.side}${piece.kind === "shogun" ? " shogun" : ""}`,
          "data-side": piece.side, "data-kind": piece.kind,
          title: fmt(piece.kind === "shogun" ? _("{side} Shogun on {square}, shows {n}")
            : _("{side} piece on {square}, shows {n}"), { side: side(piece.side), square: sq, n: piece.dial }),
          text: String(piece.dial),
        }));
      }
      cells.push(td);
    }
    cells.push(html("th", { text: String(rank) }));
    rows.push(html("tr", {}, ...cells));
  }
  rows.push(rows[0].cloneNode(true));
  board.replaceChildren(...rows);
  const turn = document.getElementById("turn");
  turn.textContent = !view.to_move ? _("game over")
    : fmt((view.bots || []).includes(view.to_move) ? _("{side} to move (bot)") : _("{side} to move"),
      { side: side(view.to_move) });
  const shogun = document.getElementById("shogun");
  shogun.hidden = !view.shogun || !!view.result;  // once over, the result says why (the square stays red)
  if (view.shogun) {
    shogun.textContent = fmt(_("Shogun! {side}'s Shogun on {square} is threatened from {from}"),
      { side: side(view.shogun.side), square: view.shogun.shogun, from: view.shogun.by });
  }
  const result = document.getElementById("result");
  result.hidden = !view.result;
  result.textContent = view.result_line || "";  // the terminal's words
  const facts = [[_("board"), fmt(view.turned ? _("{seed} (--seed {seed}), turned {turned}°")
    : _("{seed} (--seed {seed})"), { seed: view.seed, turned: view.turned })],
    [_("moves played"), String(view.moves)],
    [_("pieces left"), fmt(_("white {white}, red {red}"), view.left)]];
  document.getElementById("facts").replaceChildren(
    ...facts.flatMap(([k, v]) => [html("dt", { text: k }), html("dd", { text: v })]));
  // every move played, numbered as the console counts them (a capture is part of its move)
  const log = document.getElementById("log");
  log.replaceChildren(...(view.played || []).map(m => html("li", { value: String(m.n), text: m.text })));
  log.scrollTop = log.scrollHeight;  // the newest move in view
}

// the view in the page, then every view pushed; reconnects by itself (web/live.js)
liveView(render);
