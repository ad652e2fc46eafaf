// One seat's private planning page (`play --phones`). The token in this page's address is the
// only key to the seat: every request carries it, and the server answers only for this seat.
"use strict";

const base = location.pathname.replace(/\/+$/, "");
let shown = "";        // the status the form was last built for
let view = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function choices(hand) {
  // the expansions' cards (e.g. the court's "tower") after the base game's
  return ["", ...hand.provinces, ...hand.chests.map(c => `chest ${c}`),
          ...Object.keys(hand.cards || {})];
}

function formValues() {
  const out = {};
  for (const s of document.querySelectorAll("#spaces select")) out[s.name] = s.value;
  return out;
}

function buildForm(v) {
  const list = document.getElementById("spaces");
  list.replaceChildren(...v.spaces.map(sp => {
    const select = el("select", { name: sp.space, id: `space-${sp.space}` });
    for (const c of choices(v.hand)) {
      const opt = el("option", { value: c, text: c === "" ? "— empty —" : c });
      select.append(opt);
    }
    select.value = (v.draft || {})[sp.space] || "";
    select.addEventListener("change", () => post("check"));
    return el("li", { "data-space": sp.space, class: sp.space === "bid" ? "bid" : sp.extra ? "extra" : "" },
              el("label", { for: `space-${sp.space}`, text: sp.name }), select,
              el("div", { class: "entry-error", "data-space": sp.space }));
  }));
}

function draw(v) {
  view = v;
  document.body.dataset.status = v.status;
  document.getElementById("seat-player").textContent = `— ${v.player}`;
  document.getElementById("season").textContent = v.season || "";
  const waiting = (v.waiting_for || []).filter(p => p !== v.player);
  const status = document.getElementById("status");
  if (v.status === "plan") status.textContent = `${v.player}, plan in secret: choose a card for each space`;
  else if (v.status === "sent") status.textContent = waiting.length ?
    `Your plan is in. Waiting for ${waiting.join(", ")}…` : "Your plan is in. All plans are in.";
  else status.textContent = "No planning now. This page shows your plan form when the next season's planning starts.";
  const refused = document.getElementById("refused");
  refused.hidden = !v.refused;
  refused.textContent = v.refused ? `refused: ${v.refused}` : "";
  document.getElementById("hand-panel").hidden = !v.hand;
  if (v.hand) {
    document.getElementById("hand").textContent =
      `Province cards: ${v.hand.provinces.join(", ") || "none"} · chest cards 0–4` +
      Object.entries(v.hand.cards || {}).map(([k, n]) => ` · ${n} ${k} cards`).join("") +
      ` · coins ${v.hand.coins}`;
    document.getElementById("season-cards").textContent =
      `This season's actions, in order: ${(v.actions_in_order || []).join(", ")}. ` +
      `Special cards: ${(v.specials || []).join(", ")}.`;
  }
  const form = document.getElementById("plan");
  form.hidden = !v.hand;
  if (v.hand && shown !== v.status) buildForm(v);
  shown = v.status;
  for (const s of document.querySelectorAll("#spaces select")) s.disabled = v.status !== "plan";
  for (const box of document.querySelectorAll(".entry-error")) {
    const msg = (v.errors || {})[box.dataset.space] || "";
    box.textContent = msg;
    box.parentElement.classList.toggle("refused", !!msg);
  }
  const send = document.getElementById("send");
  send.disabled = !(v.status === "plan" && v.complete);
  send.hidden = v.status !== "plan";
  document.getElementById("send-hint").textContent = v.status !== "plan" ? "" :
    (v.complete ? "Your plan is complete: send it (once; it cannot be changed)." :
      "Fill every space your hand allows, without a red message, to send the plan.");
}

// One POST at a time: two checks in flight could reach the server in the other order and leave
// it holding an older form than the one on screen. A change made meanwhile is checked after.
let posting = false;
let checkAgain = false;

async function post(what) {
  if (posting) {
    if (what === "check") checkAgain = true;
    else setTimeout(() => post(what), 50);
    return;
  }
  posting = true;
  try {
    const r = await fetch(`${base}/${what}`, { method: "POST", body: JSON.stringify(formValues()),
                                               headers: { "Content-Type": "application/json" } });
    if (r.status === 403) return forbidden();
    draw(await r.json());
  } catch (err) { /* the next poll tries again */ } finally {
    posting = false;
    if (checkAgain) {
      checkAgain = false;
      post("check");
    }
  }
}

function forbidden() {
  document.body.dataset.status = "forbidden";
  document.getElementById("status").textContent = "This link opens no seat at this table.";
  document.getElementById("plan").hidden = true;
}

async function poll() {
  try {
    const r = await fetch(`${base}/state`, { cache: "no-store" });
    if (r.status === 403) return forbidden();
    draw(await r.json());
  } catch (err) { /* the game may be between seasons or restarting */ }
  setTimeout(poll, 700);
}

document.getElementById("plan").addEventListener("submit", (e) => {
  e.preventDefault();
  if (!document.getElementById("send").disabled) post("plan");
});
poll();
