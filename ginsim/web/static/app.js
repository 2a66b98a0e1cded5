/* The local table (ginsim web): play against a bot, watch two bots, replay a run's hands.
   The server holds every game; this page sends moves and draws the state it is sent. */
"use strict";
const $ = id => document.getElementById(id);
let game = null;      // the table's last state, with its id
let busy = false;     // a request in flight: every control waits
let knockMode = null; // {card, melds, report} while choosing how to knock
let laid = [];        // lay-offs chosen so far: [[card, meld index]]
let picked = null;    // a hand card picked by click or keyboard, for a lay-off

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" },
                                           body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function setBusy(on) {
  busy = on;
  document.body.classList.toggle("busy", on);
  document.querySelectorAll("#actions button, #play-form button").forEach(b => {
    if (on) { b.dataset.was = b.disabled ? "1" : ""; b.disabled = true; } else b.disabled = b.dataset.was === "1";
  });
}

async function guarded(fn, errorBox) {
  if (busy) return;
  setBusy(true);
  $(errorBox || "error").textContent = "";
  try { await fn(); } catch (e) { $(errorBox || "error").textContent = e.message; } finally { setBusy(false); }
}

/* -- tabs -------------------------------------------------------------------------- */
function showTab(name) {
  document.querySelectorAll(".tab").forEach(b => b.setAttribute("aria-current", b.dataset.tab === name ? "page" : "false"));
  ["play", "watch", "runs"].forEach(t => { $("tab-" + t).hidden = t !== name; });
  $("viewer").hidden = name === "play" || !window.currentReplay || $("viewer").dataset.tab !== name;
  if (name !== "watch") stopWatch();
}
document.querySelectorAll(".tab").forEach(b => b.addEventListener("click", () => showTab(b.dataset.tab)));

async function loadOptions() {
  const o = await api("/api/options");
  $("strategies").replaceChildren(...o.strategies.map(s => { const x = el("option"); x.value = s; return x; }));
  document.querySelectorAll(".presets").forEach(sel =>
    sel.replaceChildren(...o.presets.map(p => { const x = el("option", "", p); x.value = p; return x; })));
  $("run-select").replaceChildren(...o.runs.map(r => { const x = el("option", "", r); x.value = r; return x; }));
  if (!o.runs.length) $("runs-error").textContent = "no run folder under " + o.root + " (ginsim web --runs FOLDER)";
}

/* -- play ---------------------------------------------------------------------------- */
$("play-form").addEventListener("submit", e => {
  e.preventDefault();
  const f = Object.fromEntries(new FormData(e.target));
  guarded(async () => { const s = await api("/api/play", f); draw(s, s.id); $("game").hidden = false; });
});

const PROMPTS = {
  offer: "First turn: take the upcard (click or drag it to your hand) or pass.",
  draw: "Your turn: draw from the stock or take the upcard (click, or drag to your hand).",
  discard: "Discard a card: click it or drag it to the pile. Check knock shows your melds.",
  layoff: "The bot knocked: drag cards onto its melds (or click a card, then a meld), then Done.",
  big_gin: "All 11 cards meld: go big gin?",
  hand_over: "The hand is over.",
  game_over: "The game is over.",
  "": "The bot is playing...",
};

function move(action, extra) {
  return guarded(async () => {
    const s = await api("/api/play/" + game.id + "/move", Object.assign({ action, version: game.version }, extra || {}));
    knockMode = null; laid = []; picked = null;
    draw(s, game.id);
  });
}

function draw(s, id) {
  game = Object.assign({}, s, { id });
  const p = s.prompt, opp = s.names[1];
  $("opp-name").textContent = opp + (s.dealer === 1 ? " (dealer)" : "");
  $("prompt").textContent = s.failure || PROMPTS[p] || "";
  drawOpponent(s);
  drawMiddle(s);
  drawHand(s);
  const show = { "b-take": p === "offer" || p === "draw", "b-pass": p === "offer", "b-stock": p === "draw",
    "b-check": ["offer", "draw", "discard"].includes(p), "b-knock": p === "discard" && s.can_knock,
    "b-done": p === "layoff", "b-undo": p === "layoff", "b-best": p === "layoff", "b-biggin": p === "big_gin",
    "b-nobiggin": p === "big_gin", "b-next": p === "hand_over", "b-new": p === "game_over" };
  Object.entries(show).forEach(([bid, on]) => { $(bid).hidden = !on; $(bid).disabled = !on; });
  $("b-knock").textContent = "Knock";
  $("b-undo").disabled = !laid.length;
  const sc = s.scores;
  $("total").textContent = "You " + sc[0] + " \u00b7 " + opp + " " + sc[1] + " (game to " + s.target + ")";
  $("hand-scores").replaceChildren(...s.hands.map((h, i) => el("li", "",
    (h.winner < 0 ? "no score" : (h.winner === 0 ? "You" : opp) + " +" + h.points) + " (" + h.outcome + ")")));
  $("events").replaceChildren(...(s.events || []).map(t => el("li", "", t)));
  $("events").scrollTop = 1e6;
  $("checkpanel").hidden = true;
  drawShowdown(s);
}

function drawOpponent(s) {
  const box = $("opp-cards"), opp = s.names[1];
  if (s.prompt === "layoff" && s.knocker) {
    $("opp-info").textContent = "knocked: deadwood " + s.knocker.deadwood + "; drop cards on a meld";
    const groups = s.knocker.melds.map((m, i) => {
      const g = el("div", "meldgroup target drop");
      g.dataset.drop = "meld"; g.dataset.meld = i; g.tabIndex = 0;
      g.setAttribute("aria-label", opp + "'s meld " + m.join(" "));
      m.forEach(c => g.appendChild(cardEl(c, "meld")));
      laid.filter(l => l[1] === i).forEach(l => g.appendChild(cardEl(l[0], "laid")));
      g.addEventListener("click", () => { if (picked) layOff(picked, i); });
      g.addEventListener("keydown", e => { if (e.key === "Enter" && picked) layOff(picked, i); });
      return g;
    });
    fill(box, [...groups, ...s.knocker.deadwood_cards.map(c => cardEl(c, "dead"))]);
    dropZones(box);
    return;
  }
  if (s.result) {  // the showdown: both hands face up, as the rules show them
    const h = s.result.hands[1];
    $("opp-info").textContent = h.knocker ? "knocked" : "";
    fill(box, h.hidden !== undefined ? hiddenEls(h) : handEls(h));
    return;
  }
  const known = s.opp_known || [];
  $("opp-info").textContent = "10 cards" + (known.length ? "; taken from the pile: " + known.join(" ") : "");
  fill(box, hiddenEls({ hidden: 10 - known.length, known }));
}

function drawMiddle(s) {
  const pile = s.pile || [], canDraw = s.prompt === "offer" || s.prompt === "draw";
  const top = pileEl(pile);
  if (canDraw && pile.length) {
    top.draggable = true; top.tabIndex = 0; top.classList.add("clickable");
    top.addEventListener("dragstart", e => e.dataTransfer.setData("text/plain", "pile"));
    top.addEventListener("click", () => move("take"));
    top.addEventListener("keydown", e => { if (e.key === "Enter") move("take"); });
  }
  fill($("p-pile"), [top]);
  const count = el("div", "", "discard pile " + pile.length);
  const under = el("div", "under", pile.length > 1 ? "under it: " + pile.slice(-4, -1).join(" ") : "");
  fill($("p-pilecount"), [count, under]);
  const stock = s.stock ? backEl() : el("div", "empty");
  if (s.prompt === "draw") {
    stock.draggable = true; stock.tabIndex = 0; stock.classList.add("clickable");
    stock.setAttribute("aria-label", "stock: draw a card");
    stock.addEventListener("dragstart", e => e.dataTransfer.setData("text/plain", "stock"));
    stock.addEventListener("click", () => move("stock"));
    stock.addEventListener("keydown", e => { if (e.key === "Enter") move("stock"); });
  }
  fill($("p-stock"), [stock]);
  $("p-stockcount").textContent = "stock " + (s.stock === undefined ? "" : s.stock);
}

function drawHand(s) {
  const hand = s.hand || [], inMeld = new Set((s.melds || []).flat()), legal = new Set(s.legal || []);
  const gone = new Set(laid.map(l => l[0]));
  const cards = hand.filter(c => !gone.has(c)).map(c => {
    const k = cardEl(c, (inMeld.has(c) ? "meld" : "") + (legal.has(c) ? " legal" : "") + (c === s.drawn ? " drawn" : "") +
                        (knockMode && knockMode.card === c ? " selected" : "") + (picked === c ? " selected" : ""));
    k.tabIndex = 0; k.draggable = true;
    k.addEventListener("dragstart", e => e.dataTransfer.setData("text/plain", "card:" + c));
    k.addEventListener("click", () => handClick(c));
    k.addEventListener("keydown", e => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); handClick(c); }
      if (e.key === "ArrowRight" && k.nextSibling) k.nextSibling.focus();
      if (e.key === "ArrowLeft" && k.previousSibling) k.previousSibling.focus();
    });
    return k;
  });
  fill($("my-cards"), s.result ? handEls(s.result.hands[0]) : cards);
  $("my-info").textContent = s.prompt === "hand_over" || s.prompt === "game_over" ? "" :
    "deadwood " + s.deadwood + (s.prompt === "discard" ? " (11 cards)" : "") + ", knock at " + s.knock_limit + " or less";
}

function handClick(c) {
  const p = game.prompt;
  if (p === "discard" && knockMode) return chooseKnockCard(c);
  if (p === "discard") return move("discard", { card: c });
  if (p === "layoff") { picked = picked === c ? null : c; return draw(game, game.id); }
  if (p === "offer" || p === "draw") return move("discard", { card: c }); // refused with its reason
}

function drawShowdown(s) {
  const box = $("showdown");
  box.hidden = !s.result;
  if (!s.result) return;
  box.textContent = s.result.lines.join("\n") + (s.game ? "\n\n" + gameLine(s) : "");
}

function gameLine(s) {
  const g = s.game, names = s.names;
  if (g.winner < 0) return "The game stopped without a winner.";
  return names[g.winner] + (g.winner === 0 ? " win" : " wins") + " the game (" + g.ended + "): totals " +
    names[0] + " " + g.totals[0] + ", " + names[1] + " " + g.totals[1] + ".";
}

/* check knock, knocking with a chosen arrangement, confirmation ------------------------ */
function checkPanel(report, title, buttons) {
  const box = $("checkpanel");
  box.hidden = false;
  const chosen = report.melds.map(m => m.join(" "));
  const used = new Set(report.melds.flat());
  const head = el("div", "row", title + " Deadwood " + report.deadwood +
    (report.deadwood_cards.length ? " (" + report.deadwood_cards.join(" ") + ")" : "") + "; knock at " + report.knock_limit + " or less.");
  const sets = el("div", "row");
  sets.appendChild(el("span", "", "Sets (click one to use it or drop it):"));
  report.candidates.forEach(m => {
    const on = chosen.includes(m.join(" ")), blocked = !on && m.some(c => used.has(c));
    const b = el("button", "cand" + (on ? " on" : "") + (blocked ? " blocked" : ""));
    b.type = "button";
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.setAttribute("aria-label", "set " + m.join(" "));
    m.forEach(c => b.appendChild(cardEl(c, "meld")));
    b.addEventListener("click", () => toggleMeld(report, m, on));
    sets.appendChild(b);
  });
  const extra = el("div", "row");
  if (report.best_discards) extra.textContent = "Best discard " + report.best_discards.join(" or ") + ": deadwood " +
    report.deadwood_after + (report.gin ? " (gin)" : report.can_knock ? " (you may knock)" : " (too much to knock)");
  const row = el("div", "controls");
  buttons.forEach(b => row.appendChild(b));
  box.replaceChildren(head, sets, extra, row);
  box.scrollIntoView({ block: "nearest" });
}

function button(text, fn, id) {
  const b = el("button", "", text);
  b.type = "button"; if (id) b.id = id;
  b.addEventListener("click", fn);
  return b;
}

async function runCheck(body) {
  return api("/api/play/" + game.id + "/check", body);
}

$("b-check").addEventListener("click", () => guarded(async () => {
  const r = await runCheck({});
  checkPanel(r, "Your hand as it stands.", [button("Close", () => { $("checkpanel").hidden = true; })]);
}));

$("b-knock").addEventListener("click", () => {
  knockMode = { card: null, melds: null };
  draw(game, game.id);
  $("prompt").textContent = "Knock: click the card to discard face down.";
});

function chooseKnockCard(c) {
  guarded(async () => {
    const r = await runCheck({ discard: c });
    knockMode = { card: c, melds: r.melds, report: r };
    draw(game, game.id);
    showKnockPanel(r);
  });
}

function showKnockPanel(r) {
  const ok = r.deadwood <= r.knock_limit, gin = r.deadwood === 0;
  const go = button(gin ? "Gin, discarding " + r.discard : "Knock, discarding " + r.discard, () => confirmKnock(r), "knock-go");
  go.disabled = !ok;
  checkPanel(r, "Knocking with " + r.discard + " discarded." + (ok ? "" : " Too much deadwood with these sets."),
             [go, button("Cancel", () => { knockMode = null; draw(game, game.id); })]);
}

function toggleMeld(report, m, on) {
  const key = m.join(" ");
  let melds = report.melds.filter(x => x.join(" ") !== key);
  if (!on) melds = melds.filter(x => !x.some(c => m.includes(c))).concat([m]);
  guarded(async () => {
    const body = { melds };
    if (knockMode && knockMode.card) body.discard = knockMode.card;
    const r = await runCheck(body);
    if (knockMode && knockMode.card) { knockMode.melds = r.melds; showKnockPanel(r); }
    else checkPanel(r, "Your hand with the sets you chose.", [button("Close", () => { $("checkpanel").hidden = true; })]);
  });
}

function confirmKnock(r) {
  const d = $("confirm");
  $("confirm-text").textContent = (r.deadwood === 0 ? "Go gin" : "Knock with deadwood " + r.deadwood) +
    ", discarding " + r.discard + "? Your sets: " + r.melds.map(m => m.join(" ")).join(" | ");
  $("confirm-yes").onclick = () => { d.close(); move("knock", { card: r.discard, melds: knockMode.melds }); };
  $("confirm-no").onclick = () => d.close();
  d.showModal();
  $("confirm-yes").focus();
}

/* lay-offs ---------------------------------------------------------------------------- */
function layOff(card, meld) {
  guarded(async () => {
    const cards = laid.map(l => l[0]).concat([card]);
    await runCheck({ layoff: cards });
    laid.push([card, meld]);
    picked = null;
    draw(game, game.id);
  });
}
$("b-done").addEventListener("click", () => move("layoff", { cards: laid.map(l => l[0]) }));
$("b-undo").addEventListener("click", () => { laid.pop(); draw(game, game.id); });
$("b-best").addEventListener("click", () => move("layoff_best"));
["take", "pass", "stock"].forEach(a => $("b-" + a).addEventListener("click", () => move(a)));
$("b-biggin").addEventListener("click", () => move("big_gin", { yes: true }));
$("b-nobiggin").addEventListener("click", () => move("big_gin", { yes: false }));
$("b-next").addEventListener("click", () => move("next"));
$("b-new").addEventListener("click", () => $("start").click());

/* dragging: the stock or the pile to the hand; a hand card to the pile or onto a meld */
function dropZones(root) {
  root.querySelectorAll(".drop").forEach(z => {
    if (z.dataset.wired) return;
    z.dataset.wired = "1";
    z.addEventListener("dragover", e => { e.preventDefault(); z.classList.add("over"); });
    z.addEventListener("dragleave", () => z.classList.remove("over"));
    z.addEventListener("drop", e => {
      e.preventDefault(); e.stopPropagation(); z.classList.remove("over");
      dropped(e.dataTransfer.getData("text/plain"), z.dataset.drop, z.dataset.meld);
    });
  });
}

function dropped(what, where, meld) {
  if (!game || busy || !what) return;
  const card = what.startsWith("card:") ? what.slice(5) : null;
  if (where === "hand" && what === "pile") return move("take");
  if (where === "hand" && what === "stock") return move("stock");
  if (where === "pile" && card) return move("discard", { card });
  if (where === "meld" && card) return layOff(card, Number(meld));
  if (where === "stock" && card) $("error").textContent = "discard onto the discard pile, not the stock";
}
dropZones(document);
