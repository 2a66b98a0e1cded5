/* The replay viewer: steps through a replayed hand (the data of ginsim.web.steps).
   The self-contained page reads its data from #data; the local table calls showReplay. */
"use strict";
function showReplay(data, onStep) {
  const steps = data.steps;
  const $ = id => document.getElementById(id);
  let at = 0;
  $("title").textContent = data.title[0];
  $("sub").textContent = data.title.slice(1).join(" ");
  const bottom = data.seat === null || data.seat === undefined ? 0 : data.seat;
  const order = [1 - bottom, bottom];
  const log = $("log");
  log.replaceChildren();
  steps.forEach((s, i) => {
    const li = el("li");
    li.appendChild(el("span", "lab", s.label));
    li.appendChild(document.createTextNode(" " + s.text));
    li.addEventListener("click", () => show(i));
    log.appendChild(li);
  });

  function seatBox(pos, seat, step) {
    const h = step.hands[seat];
    const head = $("head" + pos), cards = $("cards" + pos);
    head.replaceChildren(el("span", "", data.names[seat] + (seat === data.dealer ? " (dealer)" : "")));
    let info = "";
    if (h.hidden !== undefined) info = (h.hidden + h.known.length) + " cards, face down";
    else if (step.end) info = "deadwood " + h.deadwood + (h.knocker ? " (knocker)" : "") +
      (h.laid && h.laid.length ? ", laid off " + h.laid.join(" ") : "");
    else info = "deadwood " + h.deadwood;
    head.appendChild(el("span", "info", info));
    const marks = new Set(step.seat === seat && step.card ? [step.card] : []);
    fill(cards, h.hidden !== undefined ? hiddenEls(h) : handEls(h, marks));
  }

  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    const s = steps[at];
    seatBox(0, order[0], s);
    seatBox(1, order[1], s);
    fill($("pile"), [pileEl(s.pile)]);
    $("pilecount").textContent = "discard pile " + s.pile.length;
    fill($("stock"), [s.stock ? backEl() : el("div", "empty")]);
    $("stockcount").textContent = "stock " + s.stock;
    $("status").textContent = (s.label && s.label !== "end" ? s.label + ": " : "") + s.text;
    $("pos").textContent = "step " + (at + 1) + " of " + steps.length;
    $("end").hidden = !s.end;
    $("end").textContent = s.end ? s.lines.join("\n") : "";
    [...log.children].forEach((li, k) => li.classList.toggle("now", k === at));
    const now = log.children[at];  // keep it in view inside the list, never scroll the page
    if (now.offsetTop < log.scrollTop) log.scrollTop = now.offsetTop;
    else if (now.offsetTop + now.offsetHeight > log.scrollTop + log.clientHeight)
      log.scrollTop = now.offsetTop + now.offsetHeight - log.clientHeight;
    $("first").disabled = $("prev").disabled = at === 0;
    $("next").disabled = $("last").disabled = at === steps.length - 1;
    if (onStep) onStep(at, steps.length);
  }

  const viewer = { show, get at() { return at; }, steps, last: () => at === steps.length - 1 };
  window.currentReplay = viewer;
  show(0);
  return viewer;
}

(function () {
  const $ = id => document.getElementById(id);
  const go = d => window.currentReplay && window.currentReplay.show(window.currentReplay.at + d);
  $("first").addEventListener("click", () => window.currentReplay.show(0));
  $("prev").addEventListener("click", () => go(-1));
  $("next").addEventListener("click", () => go(1));
  $("last").addEventListener("click", () => window.currentReplay.show(1e9));
  document.addEventListener("keydown", e => {
    const r = window.currentReplay;
    const box = $("viewer");
    if (!r || (box && box.hidden) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    const k = { ArrowLeft: r.at - 1, ArrowRight: r.at + 1, Home: 0, End: 1e9 }[e.key];
    if (k === undefined) return;
    e.preventDefault();
    r.show(k);
  });
  const data = document.getElementById("data");
  if (data) {
    const parsed = JSON.parse(data.textContent);
    document.title = parsed.title[0];
    showReplay(parsed);
  }
})();
