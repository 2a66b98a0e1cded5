"""Telling a replayed hand as text: the deal, every move with the table after it, the end,
and one seat's view at each of its decisions (``ginsim replay`` and the replay page)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ginsim.engine.cards import Card, Mask
from ginsim.engine.melds import tables_for
from ginsim.engine.playhand import BIG_GIN, GIN, KNOCK_WON, UNDERCUT
from ginsim.engine.view import Event
from ginsim.terminal.recording import Decision
from ginsim.terminal.replay import CHECKED, Replay
from ginsim.terminal.textview import Style, event_text, hand_lines, result_lines


def _dealt(deck: Sequence[Card], dealer: int) -> list[Mask]:
    """Both hands as dealt (R08: alternately from the non-dealer)."""
    hands = [0, 0]
    for i in range(20):
        hands[(1 - dealer) if i % 2 == 0 else dealer] |= 1 << deck[i]
    return hands


def header_lines(r: Replay, folder: Path) -> list[str]:
    """The replay's first lines: which hand of which run, who plays, the rules."""
    # the scores with the names they belong to (seat order), never a bare "19-61" to misread
    scores = f"; scores before it: {r.names[0]} {r.scores[0]}, {r.names[1]} {r.scores[1]}" if "game" in r.where else ""
    return [
        f"Hand {r.index} of {folder}: {r.where}{scores}.",
        f"{r.names[0]} and {r.names[1]}; {r.names[r.dealer]} deals; {r.rules.describe()}.",
    ]


@dataclass
class Move:
    """One event of a replayed hand as the replay tells it: the turn label (``turn 3`` on
    the turn's first event), the sentence, and both hands and the pile after it."""

    label: str
    text: str
    event: Event
    hands: tuple[Mask, Mask]
    pile: tuple[Card, ...]
    stock: int


def replay_moves(r: Replay, style: Style) -> list[Move]:
    """Every event of the hand in order, with the table after it: the one source of the
    text replay and the HTML page."""
    tables = tables_for(r.rules.max_run_length)
    hands = _dealt(r.deck, r.dealer)
    pile, stock = [r.deck[20]], 31
    out: list[Move] = []
    turn = 1
    for i, ev in enumerate(r.log):
        s, action, card = ev
        text = event_text(style, ev, r.names)
        if card is not None and action in ("take", "draw"):
            hands[s] |= 1 << card
            if action == "take":
                pile.pop()
            else:
                stock -= 1
        elif card is not None and action == "discard":
            hands[s] &= ~(1 << card)
            pile.append(card)
            text += f"  (deadwood {tables.deadwood_mask(hands[s])})"
        elif action == "knock" and r.result.outcome == GIN:
            text = f"{r.names[s]} knocks: gin"
        label = f"turn {turn}" if i == 0 or _turn_starts(r.log, i) else ""
        out.append(Move(label, text, ev, (hands[0], hands[1]), tuple(pile), stock))
        if action == "discard" and (i + 1 == len(r.log) or r.log[i + 1][1] != "knock"):
            turn += 1
    return out


def dealt_hands(r: Replay) -> tuple[Mask, Mask]:
    """Both hands of a replayed hand as dealt."""
    hands = _dealt(r.deck, r.dealer)
    return hands[0], hands[1]


def replay_text(r: Replay, folder: Path, style: Style) -> list[str]:
    """The whole hand move by move: the deal, each draw and discard, the end, the check."""
    tables = tables_for(r.rules.max_run_length)
    hands = _dealt(r.deck, r.dealer)
    width = max(len(n) for n in r.names)
    out = [*header_lines(r, folder), "", "Deal:"]
    for s in (1 - r.dealer, r.dealer):
        hand, melds = hand_lines(style, hands[s], tables)
        out += [f"  {r.names[s]:<{width}}  {hand}", f"  {'':<{width}}  {melds}"]
    out += [f"  upcard {style.card(r.deck[20])}, stock 31 cards", "", "Play:"]
    out += [f"  {m.label:<8}  {m.text}" for m in replay_moves(r, style)]
    out += ["", "End:", *("  " + line for line in result_lines(style, r.result, r.names, r.rules))]
    out.append(f"Checked against the log ({', '.join(CHECKED)}): all match.")
    return out


def _turn_starts(log: Sequence[Event], i: int) -> bool:
    prev = log[i - 1][1]
    return prev == "discard" and log[i][1] != "knock"


def _answer(d: Decision, style: Style) -> str:
    a, seen = d.answer, d.seen
    if isinstance(a, str):
        return a
    if d.method == "take_upcard" and isinstance(a, bool):
        if a:
            return f"take {style.card(seen['upcard'])}"
        return "pass" if seen["phase"] == "offer" else "draw from the stock"
    if d.method == "discard" and isinstance(a, int) and 0 <= a < 52:
        return f"discard {style.card(a)}"
    if d.method == "knock" and isinstance(a, bool):
        if a:
            return f"knock (discarding {style.card(seen['discard_choice'])}, deadwood {seen['discard_deadwood']})"
        return f"do not knock (discarding {style.card(seen['discard_choice'])})"
    if d.method == "take_big_gin" and isinstance(a, bool):
        return "big gin" if a else "no big gin"
    if d.method == "choose_layoffs":
        return "lay off optimally" if a is None else f"lay off {style.cards(a) if isinstance(a, int) else a!r}"
    if d.method == "choose_melds":
        return "show the best melds" if a is None else f"show {style.melds(a) if isinstance(a, list | tuple) else a!r}"
    return repr(a)


def seat_text(r: Replay, seat: int, folder: Path, style: Style) -> list[str]:
    """Only what ``seat`` saw: its view at each of its decisions, and the public end."""
    tables = tables_for(r.rules.max_run_length)
    seen_log = [(s, a, None if a == "draw" and s != seat else c) for s, a, c in r.log]
    out = [*header_lines(r, folder), f"What {r.names[seat]} saw at each of its decisions (its PlayerView):"]
    done = 0
    for d in r.decisions:
        v = d.seen
        out.append(f"\nturn {v['turn']}: {d.method} ({v['phase']})")
        for ev in v["history"][done:]:
            out.append(f"  event     {event_text(style, ev, r.names)}")
        done = len(v["history"])
        hand, melds = hand_lines(style, v["hand"], tables)
        up = style.card(v["upcard"]) if v["upcard"] is not None else "none"
        own, opp = v["scores"]
        out += [
            f"  hand      {hand}",
            f"            {melds}",
            f"  table     upcard {up} | pile {len(v['discard_pile'])} | stock {v['stock_size']} | "
            f"scores {own}-{opp} (own-opponent) | dealer seat {v['dealer']}",
            f"  opponent  holds {style.cards(v['opp_known'])} | passed on {style.cards(v['opp_passed'])} | "
            f"discarded {style.cards(v['opp_discards'])}",
        ]
        if v["knocker_melds"]:
            out.append(f"  knocker   {style.melds(v['knocker_melds'])}")
        out.append(f"  answer    {_answer(d, style)}")
    if not r.decisions:
        out.append(f"\n{r.names[seat]} had no decision to make in this hand.")
    rest = seen_log[done:]
    if rest:
        out.append("\nthen:")
        out += [f"  event     {event_text(style, ev, r.names)}" for ev in rest]
    public = r.result.outcome in (KNOCK_WON, UNDERCUT, GIN, BIG_GIN)  # both hands are shown at a knock
    out += ["", "End:", *("  " + line for line in result_lines(style, r.result, r.names, r.rules, public))]
    return out
