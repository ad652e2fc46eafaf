// One seat's private planning page (`play --phones`). The token in this page's address is the
// only key to the seat: every request carries it, and the server answers only for this seat.
// The form as filled so far is also kept in this phone's own storage, so a reload, a lost
// connection or a resumed game at the laptop never loses it.
"use strict";

const base = location.pathname.replace(/\/+$/, "");
const storeKey = `shogun-tower plan ${base.split("/").pop()}`;
let shown = "";        // the status the form was last built for
let view = null;
let player = "";       // whose seat this page showed last (a stale link names it)
let restored = false;  // the stored form was offered back once for this season

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function armies(n) { return fmt(ngettext("{n} army", "{n} armies", n), { n }); }

// a colour (a player's, a region's) in the page's language
function colourWord(c) { return c ? _(c) : c; }

function choices(hand) {
  // the expansions' cards (e.g. the court's "tower") after the base game's
  return ["", ...hand.provinces, ...hand.chests.map(c => `chest ${c}`),
          ...Object.keys(hand.cards || {})];
}

// a province card as the form offers it: its own name, the one the console takes too, and
// beside it the name the page's tables show where that differs (its kanji in Japanese)
function pickName(card) {
  const word = provinceWord(card);
  return word === card ? card : `${card} ${word}`;
}

// a card as the form shows it: the value it sends ("chest 3", "tower", a province) stays the
// seat's data; only its label is in the page's language
function choiceLabel(card, v) {
  if (card === "") return _("— empty —");
  const chest = /^chest (\d)$/.exec(card);
  if (chest) return fmt(_("chest {n}"), { n: chest[1] });
  if (card === "tower") return _("tower card");
  const prov = ((v.board || {}).provinces || []).find(p => p.name === card);
  return prov ? fmt(_("{province} ({armies})"), { province: pickName(card), armies: armies(prov.armies) })
    : pickName(card);
}

function formValues() {
  const out = {};
  for (const s of document.querySelectorAll("#spaces select")) out[s.name] = s.value;
  return out;
}

// ---- the form kept on this phone --------------------------------------------------------------
function stored() {
  try { return JSON.parse(localStorage.getItem(storeKey) || "null"); } catch (err) { return null; }
}

function keep() {
  if (!view || view.status !== "plan") return;
  try {
    localStorage.setItem(storeKey, JSON.stringify({ season: view.season, draft: formValues() }));
  } catch (err) { /* private browsing: the laptop still keeps the form while it runs */ }
}

// After a resume the laptop has forgotten the form: this phone gives it back, once.
function restore(v) {
  if (restored || v.status !== "plan") return false;
  restored = true;
  const mine = stored();
  if (!mine || mine.season !== v.season || Object.values(v.draft || {}).some(Boolean)) return false;
  let any = false;
  for (const s of document.querySelectorAll("#spaces select")) {
    const card = (mine.draft || {})[s.name] || "";
    if (card && [...s.options].some(o => o.value === card)) { s.value = card; any = true; }
  }
  document.getElementById("restored").hidden = !any;
  return any;
}

// ---- drawing ----------------------------------------------------------------------------------
function buildForm(v) {
  const list = document.getElementById("spaces");
  list.replaceChildren(...v.spaces.map(sp => {
    const select = el("select", { name: sp.space, id: `space-${sp.space}` });
    for (const c of choices(v.hand)) select.append(el("option", { value: c, text: choiceLabel(c, v) }));
    select.value = (v.draft || {})[sp.space] || "";
    select.addEventListener("change", () => { keep(); post("check"); });
    return el("li", { "data-space": sp.space, class: sp.space === "bid" ? "bid" : sp.extra ? "extra" : "" },
              el("label", { for: `space-${sp.space}`, text: sp.name }), select,
              el("div", { class: "entry-error", "data-space": sp.space }));
  }));
}

function neighbour(n) {
  const who = n.owner ? `${colourWord(n.owner)} ${n.armies}`
    : (n.armies ? _("neutral") + " " + n.armies : _("neutral"));
  return el("span", { class: "near", "data-owner": n.owner || "neutral", "data-province": n.name },
            el("span", { class: "dot" }), fmt(n.sea ? _("{province} (by sea): {who}")
              : _("{province}: {who}"), { province: provinceWord(n.name), who }));
}

function drawBoard(board) {
  document.getElementById("counts").textContent =
    fmt(_("Armies: {armies} on the board, {supply} in supply. Coins: {coins}."),
        { armies: board.armies, supply: board.supply, coins: view.hand.coins });
  document.getElementById("provinces").replaceChildren(...board.provinces.map(p => {
    const facts = [fmt(_("tax {n}"), { n: p.tax }), fmt(_("rice {n}"), { n: p.rice }), ...p.buildings];
    if (p.revolt) facts.push(fmt(ngettext("{n} revolt marker", "{n} revolt markers", p.revolt), { n: p.revolt }));
    return el("li", { "data-province": p.name, "data-armies": p.armies },
      el("div", { class: "prov-head" }, el("b", { text: provinceWord(p.name) }),
         el("span", { class: "region", text: fmt(_("{region} region"), { region: colourWord(p.region) }) }),
         el("span", { class: "armies", text: armies(p.armies) })),
      el("div", { class: "facts", text: facts.join(" · ") }),
      el("div", { class: "neighbours" }, _("next to:") + " ", ...p.neighbours.map(neighbour)));
  }));
}

function drawSuggestion(v) {
  const plan = v.suggestion || {};
  const panel = document.getElementById("suggestion-panel");
  panel.hidden = v.status !== "plan" || !Object.keys(plan).length;
  if (panel.hidden) return;
  document.getElementById("suggestion").replaceChildren(...v.spaces.map(sp =>
    el("li", { "data-space": sp.space }, el("span", { class: "space", text: fmt(_("{space}: "), { space: sp.name }) }),
       choiceLabel(plan[sp.space] || "", v))));
}

function statusText(v) {
  const waiting = (v.waiting_for || []).filter(p => p !== v.player);
  if (v.status === "plan")
    return fmt(_("{player}, plan in secret: choose a card for each space."), { player: colourWord(v.player) });
  if (v.status === "sent" && waiting.length && !v.all_in)
    return fmt(_("Your plan is in. Waiting for {players}…"), { players: waiting.map(colourWord).join(_(", ")) });
  if (v.status === "sent") return _("All plans are in: the season goes on at the laptop.");
  if (v.all_in) return _("All plans are in: the season goes on at the laptop.");
  return _("No planning now: the game goes on at the laptop. This page shows your plan form " +
           "when the next season's planning starts.");
}

function draw(v) {
  view = v;
  player = v.player;
  document.body.dataset.status = v.status;
  document.getElementById("gone").hidden = true;
  document.getElementById("offline").hidden = true;
  document.getElementById("seat-player").textContent = `— ${colourWord(v.player)}`;
  document.getElementById("season").textContent = v.season || "";
  document.getElementById("status").textContent = statusText(v);
  const refused = document.getElementById("refused");
  refused.hidden = !v.refused;
  refused.textContent = v.refused ? fmt(_("Refused: {why}"), { why: v.refused }) : "";
  const planning = !!v.hand;
  for (const id of ["army-panel", "board-panel", "season-panel"])
    document.getElementById(id).hidden = !planning;
  if (planning) {
    drawBoard(v.board);
    const provinces = fmt(ngettext("{n} province card", "{n} province cards", v.hand.provinces.length),
                          { n: v.hand.provinces.length });
    const towers = (v.hand.cards || {}).tower || 0;
    document.getElementById("hand").textContent = towers
      ? fmt(_("Your hand: {provinces}, the chest cards 0 to 4 and {towers}."), { provinces,
          towers: fmt(ngettext("{n} tower card", "{n} tower cards", towers), { n: towers }) })
      : fmt(_("Your hand: {provinces} and the chest cards 0 to 4."), { provinces });
    document.getElementById("season-cards").textContent =
      fmt(_("Actions in this order: {actions}. Special cards: {specials}."),
          { actions: (v.actions_in_order || []).join(_(", ")), specials: (v.specials || []).join(_(", ")) });
  }
  drawSuggestion(v);
  const form = document.getElementById("plan");
  form.hidden = !planning;
  if (planning && shown !== v.status) {
    buildForm(v);
    if (restore(v)) { shown = v.status; post("check"); }
  }
  if (v.status !== "plan") restored = false;
  shown = planning ? v.status : "";
  for (const s of document.querySelectorAll("#spaces select")) s.disabled = v.status !== "plan";
  // the laptop lost the form this page still shows (its game was resumed): give it back
  if (v.status === "plan" && !posting &&
      [...document.querySelectorAll("#spaces select")].some(s => s.value !== ((v.draft || {})[s.name] || "")))
    post("check");
  for (const box of document.querySelectorAll(".entry-error")) {
    const msg = (v.errors || {})[box.dataset.space] || "";
    box.textContent = msg;
    box.parentElement.classList.toggle("refused", !!msg);
  }
  const send = document.getElementById("send");
  send.disabled = !(v.status === "plan" && v.complete);
  send.hidden = v.status !== "plan";
  // under the button too, where the player's eyes are once the plan is sent
  const hint = document.getElementById("send-hint");
  hint.textContent = v.status !== "plan" ? statusText(v) :
    (v.complete ? _("Your plan is complete: send it (once; it cannot be changed).") :
      _("Fill every space your hand allows, without a red message, to send the plan."));
  hint.classList.toggle("said", v.status !== "plan");
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
  } catch (err) { offline(); } finally {
    posting = false;
    if (checkAgain) {
      checkAgain = false;
      post("check");
    }
  }
}

// The link opens no seat (now): say what to do, with this seat's colour when the page knew it.
function forbidden() {
  document.body.dataset.status = "forbidden";
  document.getElementById("status").textContent = player ?
    fmt(_("This link no longer opens {player}'s seat."), { player: colourWord(player) })
    : _("This link opens no seat at this table.");
  document.getElementById("gone").hidden = false;
  if (player) {
    document.getElementById("gone-title").textContent =
      fmt(_("This link no longer opens {player}'s seat"), { player: colourWord(player) });
    document.getElementById("gone-do").textContent =
      fmt(_("At the laptop, type phone {colour}, then scan the code it shows with this phone. " +
            "Your unfinished form is kept on this phone."), { colour: player });
  }
  for (const id of ["plan", "army-panel", "board-panel", "season-panel", "suggestion-panel",
                    "refused", "offline", "restored"])
    document.getElementById(id).hidden = true;
}

function offline() {
  if (document.body.dataset.status === "forbidden") return;
  document.getElementById("offline").hidden = false;
  document.body.dataset.connected = "false";
}

async function poll() {
  let again = 700;
  try {
    const r = await fetch(`${base}/state`, { cache: "no-store" });
    if (r.status === 403) { forbidden(); again = 3000; } else {
      document.body.dataset.connected = "true";
      draw(await r.json());
    }
  } catch (err) { offline(); again = 1500; }
  setTimeout(poll, again);
}

document.getElementById("plan").addEventListener("submit", (e) => {
  e.preventDefault();
  if (!document.getElementById("send").disabled) post("plan");
});
document.getElementById("use-suggestion").addEventListener("click", () => {
  const plan = (view && view.suggestion) || {};
  for (const s of document.querySelectorAll("#spaces select")) s.value = plan[s.name] || "";
  keep();
  post("check");
});
if (document.body.dataset.status === "forbidden") forbidden(); else poll();
