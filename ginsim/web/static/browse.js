/* The local table's other two tabs: watching two bots play, and a run folder's hands.
   Both show hands in the replay viewer (replay.js). */
"use strict";
let watch = null; // {id, hand, timer, paused}

function stopWatch() {
  if (watch && watch.timer) clearTimeout(watch.timer);
  if (watch) watch.timer = null;
}

function showViewer(tab, data, onStep) {
  $("viewer").dataset.tab = tab;
  $("viewer").hidden = false;
  return showReplay(data, onStep);
}

$("watch-form").addEventListener("submit", e => {
  e.preventDefault();
  stopWatch();
  const f = Object.fromEntries(new FormData(e.target));
  guarded(async () => {
    const w = await api("/api/watch", f);
    watch = { id: w.id, hand: 0, timer: null, paused: false };
    $("pause").disabled = false;
    $("pause").textContent = "Pause";
    await watchHand();
  }, "watch-score");
});

async function watchHand() {
  const data = await api("/api/watch/" + watch.id + "/hand/" + watch.hand);
  const names = data.names;
  const done = "Game score after hand " + (watch.hand + 1) + ": " + names[0] + " " + data.scores[0] + ", " +
    names[1] + " " + data.scores[1] + " (game to " + data.target + ")" +
    (data.over ? ". " + names[data.winner] + " wins the game." : "");
  watch.data = data;
  $("watch-score").textContent = "Hand " + (watch.hand + 1) + " under way.";
  showViewer("watch", data, (at, n) => { if (at === n - 1) $("watch-score").textContent = done; });
  tick();
}

function tick() {
  stopWatch();
  if (!watch || watch.paused) return;
  const delay = Number($("speed").value) * (window.currentReplay.last() ? 3 : 1);  // a pause at each hand's end
  watch.timer = setTimeout(async () => {
    const r = window.currentReplay;
    if (!r.last()) { r.show(r.at + 1); return tick(); }
    if (watch.data.over) { $("pause").disabled = true; return; }
    watch.hand += 1;
    try { await watchHand(); } catch (err) { $("watch-score").textContent = err.message; $("pause").disabled = true; }
  }, delay);
}

$("pause").addEventListener("click", () => {
  if (!watch) return;
  watch.paused = !watch.paused;
  $("pause").textContent = watch.paused ? "Resume" : "Pause";
  if (!watch.paused) tick(); else stopWatch();
});

function runQuery(f, extra) {
  const q = new URLSearchParams(Object.assign({ run: f.run }, extra));
  return q.toString();
}

$("runs-form").addEventListener("submit", e => {
  e.preventDefault();
  const f = Object.fromEntries(new FormData(e.target));
  guarded(async () => {
    let hand = f.hand;
    if (f.first || f.where) {
      const found = await api("/api/runs/hands?" + runQuery(f, { first: f.first, where: f.where }));
      hand = String(found.offset);
      listHands(f, found);
    }
    const data = await api("/api/runs/replay?" + runQuery(f, { hand: hand || "0", seat: f.seat }));
    showViewer("runs", data);
  }, "runs-error");
});

$("list-hands").addEventListener("click", () => {
  const f = Object.fromEntries(new FormData($("runs-form")));
  guarded(async () => listHands(f, await api("/api/runs/hands?" + runQuery(f, { offset: f.hand || "0" }))), "runs-error");
});

function listHands(f, list) {
  const cols = ["hand", "seat0", "seat1", "outcome", "winner_name", "points", "turns"];
  const table = el("table");
  const head = el("tr");
  cols.forEach(c => head.appendChild(el("th", "", c.replace("_name", ""))));
  table.appendChild(head);
  list.hands.forEach(h => {
    const tr = el("tr");
    cols.forEach(c => tr.appendChild(el("td", "", h[c])));
    const td = el("td");
    const b = el("button", "", "replay");
    b.type = "button";
    b.addEventListener("click", () => guarded(async () =>
      showViewer("runs", await api("/api/runs/replay?" + runQuery(f, { hand: h.hand, seat: f.seat }))), "runs-error"));
    td.appendChild(b);
    tr.appendChild(td);
    table.appendChild(tr);
  });
  const note = el("p", "sub", "hands " + list.offset + " to " + (list.offset + list.hands.length - 1) + " of " + list.total);
  fill($("hand-list"), [note, table]);
}

showTab("play");
loadOptions().catch(e => { $("error").textContent = e.message; });
