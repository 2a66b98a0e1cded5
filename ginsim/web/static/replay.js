/* The replay page: steps through a replayed hand, read from the JSON in #data. */
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("data").textContent);
  const steps = data.steps;
  const $ = id => document.getElementById(id);
  let at = 0;
  document.title = data.title[0];
  $("title").textContent = data.title[0];
  $("sub").textContent = data.title.slice(1).join(" ");
  const bottom = data.seat === null ? 0 : data.seat;
  const order = [1 - bottom, bottom];
  const log = $("log");
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
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(steps.length - 1));
  document.addEventListener("keydown", e => {
    const k = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 }[e.key];
    if (k === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    show(k);
  });
  show(0);
})();
