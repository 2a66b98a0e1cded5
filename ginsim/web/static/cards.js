/* Drawing cards and hands; shared by the replay page and the local table.
   Card names are ginsim's: rank A 2-9 T J Q K, then suit C D H S. Every text goes in
   with textContent, never as HTML. */
"use strict";
const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_WORDS = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function cardEl(name, extra) {
  const rank = name.slice(0, -1), suit = name.slice(-1);
  const c = el("div", "card" + (suit === "D" || suit === "H" ? " red" : "") + (extra ? " " + extra : ""));
  c.dataset.card = name;
  c.setAttribute("aria-label", (RANK_WORDS[rank] || rank) + " of " + SUIT_WORDS[suit]);
  c.appendChild(el("span", "rank", rank === "T" ? "10" : rank));
  c.appendChild(el("span", "suit", SUITS[suit]));
  return c;
}

function backEl(extra) {
  const c = el("div", "card back" + (extra ? " " + extra : ""));
  c.setAttribute("aria-label", "face-down card");
  return c;
}

/* A face-up hand: melded cards first, meld by meld, each with its red stripe, then the
   deadwood; ``laid`` cards (lay-offs) marked. */
function handEls(hand, marks) {
  const out = [];
  const inMeld = new Set();
  (hand.melds || []).forEach(m => m.forEach(c => inMeld.add(c)));
  const laid = new Set(hand.laid || []);
  (hand.melds || []).forEach(m => {
    const g = el("div", "meldgroup");
    m.forEach(c => g.appendChild(cardEl(c, "meld" + (marks && marks.has(c) ? " moved" : ""))));
    out.push(g);
  });
  (hand.cards || []).filter(c => !inMeld.has(c)).forEach(c => {
    const cls = (laid.has(c) ? "laid" : "dead") + (marks && marks.has(c) ? " moved" : "");
    out.push(cardEl(c, cls));
  });
  return out;
}

function hiddenEls(hand) {
  const out = (hand.known || []).map(c => cardEl(c, "known"));
  for (let i = 0; i < hand.hidden; i++) out.push(backEl());
  return out;
}

function fill(node, children) {
  node.replaceChildren(...children);
}

function pileEl(pile) {
  return pile.length ? cardEl(pile[pile.length - 1]) : el("div", "empty");
}
