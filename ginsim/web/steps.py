"""A replayed hand as data for the browser: one step per event, the table after it.

The steps come from ``ginsim.terminal.replaytext.replay_moves`` (the source of the text
replay), so each step says what the terminal replay says. With ``seat`` set, a step holds
only what that seat saw: the opponent's hand is face down (the cards it took from the
pile face up, as the seat saw them go) until a showdown shows it, and the opponent's
draws from the stock are unnamed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ginsim.engine.cards import CARD_NAMES, Card, Mask, cards_of, mask_value, sort_key
from ginsim.engine.melds import MeldTables, tables_for
from ginsim.engine.playhand import BIG_GIN, GIN, KNOCK_WON, UNDERCUT
from ginsim.terminal.replay import Replay
from ginsim.terminal.replaytext import Move, dealt_hands, header_lines, replay_moves
from ginsim.terminal.textview import Style, event_text, result_lines, showdown_rows

PUBLIC_ENDS = (KNOCK_WON, UNDERCUT, GIN, BIG_GIN)
"""Outcomes whose showdown shows both hands."""


def names(mask: Mask) -> list[str]:
    """Card names of a mask, by suit then rank."""
    return [CARD_NAMES[c] for c in sorted(cards_of(mask), key=sort_key)]


def shown_hand(mask: Mask, tables: MeldTables) -> dict[str, Any]:
    """A face-up hand: its cards, its best melds and their deadwood."""
    best = tables.best_melds_mask(mask)
    return {"cards": names(mask), "melds": [names(m) for m in best.melds], "deadwood": best.deadwood}


def hidden_hand(count: int, known: Mask) -> dict[str, Any]:
    """A face-down hand of ``count`` cards, the ``known`` ones (taken from the pile) face up."""
    return {"hidden": count - known.bit_count(), "known": names(known)}


def _step(label: str, text: str, hands: list[dict[str, Any]], pile: tuple[Card, ...], stock: int) -> dict[str, Any]:
    return {"label": label, "text": text, "hands": hands, "pile": [CARD_NAMES[c] for c in pile], "stock": stock}


def _end_step(r: Replay, seat: int | None, last: dict[str, Any], style: Style) -> dict[str, Any]:
    """The showdown: melds, lay-offs and deadwood of each hand, and the score lines."""
    public = seat is None or r.result.outcome in PUBLIC_ENDS
    lines = result_lines(style, r.result, r.names, r.rules, public)
    hands: list[dict[str, Any]] = []
    for s, (melds, laid, dead) in enumerate(showdown_rows(r.result, r.rules)):
        if public or s == seat:
            hands.append(
                {
                    "cards": names(r.result.hands[s]),
                    "melds": [names(m) for m in melds],
                    "laid": names(laid),
                    "deadwood": mask_value(dead),
                    "knocker": s == r.result.knocker,
                }
            )
        else:
            hands.append(last["hands"][s])
    step = _step("end", lines[0], hands, (), 0)
    step.update(pile=last["pile"], stock=last["stock"], lines=lines, end=True)
    return step


def hand_steps(r: Replay, folder: Path, seat: int | None = None) -> dict[str, Any]:
    """The page's data for a replayed hand: the header, the names, and the steps from the
    deal to the showdown (every event of the hand, then the end)."""
    style = Style(False)
    tables = tables_for(r.rules.max_run_length)
    known = [0, 0]  # what each seat knows of the other's hand: cards it took from the pile
    count = [10, 10]

    def table(hands: tuple[Mask, Mask]) -> list[dict[str, Any]]:
        return [
            shown_hand(hands[s], tables) if seat is None or s == seat else hidden_hand(count[s], known[s])
            for s in (0, 1)
        ]

    dealt = dealt_hands(r)
    steps = [_step("deal", f"{r.names[r.dealer]} deals; the upcard is {CARD_NAMES[r.deck[20]]}", table(dealt),
                   (r.deck[20],), 31)]  # fmt: skip
    for m in replay_moves(r, style):
        s, action, card = m.event
        if action in ("take", "draw"):
            count[s] += 1
            known[s] |= (1 << card) if action == "take" and card is not None else 0
        elif action == "discard" and card is not None:
            count[s] -= 1
            known[s] &= ~(1 << card)
        steps.append(_step(m.label, _seen_text(m, seat, r, style), table(m.hands), m.pile, m.stock))
        steps[-1].update(seat=s, action=action, card=CARD_NAMES[card] if card is not None else None)
        if seat is not None and s != seat and action == "draw":
            steps[-1]["card"] = None
    steps.append(_end_step(r, seat, steps[-1], style))
    return {
        "title": header_lines(r, folder),
        "names": list(r.names),
        "seat": seat,
        "dealer": r.dealer,
        "rules": r.rules.describe(),
        "steps": steps,
    }


def _seen_text(m: Move, seat: int | None, r: Replay, style: Style) -> str:
    """The step's sentence; the opponent's moves as ``seat`` saw them (no card it drew,
    no deadwood it kept)."""
    s, action, card = m.event
    if seat is None or s == seat:
        return m.text
    seen = (s, action, None if action == "draw" else card)
    if action == "knock" and r.result.outcome == GIN:
        return m.text
    return event_text(style, seen, r.names)
