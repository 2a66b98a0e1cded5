"""The person's moves at the web table, checked against their PlayerView before the
engine sees them: a move that does not fit gets one line saying why (``MoveError``) and
changes nothing. The engine checks every answer again; these checks only spare the
person a forfeit for a slip of the mouse.

Also the "check knock" report: every meld the hand can show, an arrangement (the best,
or one the person picked) and its deadwood, as the engine computes them.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, NamedTuple

from ginsim.engine.cards import CARD_NAMES, RANK_MASK, SUIT_MASK, Card, Mask, cards_of, mask_value, parse_card
from ginsim.engine.layoff import best_layoff, layoff_is_legal
from ginsim.engine.melds import MeldTables, tables_for
from ginsim.engine.view import DISCARD, DRAW, LAYOFF, OFFER, PlayerView
from ginsim.errors import CardError, IllegalMoveError
from ginsim.web.steps import names

HAND_OVER = "hand_over"
GAME_OVER = "game_over"
BIG_GIN = "big_gin"
WANTED = {
    OFFER: "take the upcard or pass",
    DRAW: "draw: take the upcard or a card from the stock",
    DISCARD: "discard a card, or knock",
    LAYOFF: "lay off on the knocker's melds, then done",
    BIG_GIN: "say whether to go big gin",
    HAND_OVER: "the hand is over: go on to the next hand",
    GAME_OVER: "the game is over",
}
"""What the table waits for at each prompt, for the error line of a move out of place."""


class MoveError(Exception):
    """A move that does not fit now; its text is the page's one-line error."""


class Discard(NamedTuple):
    """The person's discard: the card, whether it knocks, the melds to show (None: best)."""

    card: Card
    knock: bool
    melds: tuple[Mask, ...] | None


def card_of(text: object) -> Card:
    """A card name from the page (``7H``) as a card, or MoveError."""
    if not isinstance(text, str):
        raise MoveError("name a card, e.g. 7H")
    try:
        return parse_card(text)
    except CardError as e:
        raise MoveError(str(e)) from None


def mask_of(texts: object) -> Mask:
    """A list of card names from the page as a mask, or MoveError."""
    if not isinstance(texts, list):
        raise MoveError('name the cards as a list, e.g. ["7H", "8H"]')
    m = 0
    for t in texts:
        m |= 1 << card_of(t)
    return m


def melds_of(value: object) -> tuple[Mask, ...] | None:
    """An arrangement from the page (a list of lists of card names) as masks; None: best."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise MoveError("melds must be a list of lists of cards")
    return tuple(mask_of(m) for m in value)


def all_melds(hand: Mask, tables: MeldTables) -> list[Mask]:
    """Every meld within ``hand`` (R04, R05): groups of 3 or 4 of a rank, runs of 3 or
    more in a suit; each candidate is judged by the rules' own ``is_meld``."""
    out: list[Mask] = []
    for r in range(13):
        same = list(cards_of(hand & RANK_MASK[r]))
        for k in (3, 4):
            out += [m for combo in combinations(same, k) if tables.is_meld(m := sum(1 << c for c in combo))]
    for s in range(4):
        cards = list(cards_of(hand & SUIT_MASK[s]))
        for i in range(len(cards)):
            run = 1 << cards[i]
            for j in range(i + 1, len(cards)):
                if cards[j] != cards[j - 1] + 1:
                    break
                run |= 1 << cards[j]
                if tables.is_meld(run):
                    out.append(run)
    return out


def check_report(view: PlayerView, discard: Card | None, melds: tuple[Mask, ...] | None) -> dict[str, Any]:
    """ "Check knock": the hand (less ``discard``), its melds (``melds`` or a least-deadwood
    arrangement), their deadwood, every meld it could show, and with 11 cards the best
    discards and whether a knock (or gin) is possible."""
    tables = tables_for(view.rules.max_run_length)
    hand = view.hand
    if discard is not None:
        if not view.legal_discards() >> discard & 1:
            raise MoveError(f"{CARD_NAMES[discard]} is not a card you may discard now")
        hand &= ~(1 << discard)
    if melds is None:
        shown = tables.best_melds_mask(hand).melds
    else:
        try:
            tables.check_melds(hand, melds)
        except IllegalMoveError as e:
            raise MoveError(str(e)) from None
        shown = melds
    used = 0
    for m in shown:
        used |= m
    dead = hand & ~used
    report: dict[str, Any] = {
        "cards": names(hand),
        "melds": [names(m) for m in shown],
        "deadwood_cards": names(dead),
        "deadwood": mask_value(dead),
        "candidates": [names(m) for m in all_melds(hand, tables)],
        "knock_limit": view.knock_limit,
        "discard": CARD_NAMES[discard] if discard is not None else None,
    }
    if hand.bit_count() == 11:
        dw, best = view.best_discards()
        report.update(best_discards=names(best), deadwood_after=dw, can_knock=dw <= view.knock_limit, gin=dw == 0)
    elif discard is not None:
        report.update(can_knock=report["deadwood"] <= view.knock_limit, gin=report["deadwood"] == 0)
    return report


def checked_answer(kind: str, view: PlayerView | None, action: str, data: dict[str, Any], opp: str) -> object:
    """The engine's answer for the person's ``action`` at prompt ``kind``, or MoveError."""
    if view is not None and kind in (OFFER, DRAW):
        return _draw_answer(kind, view, action)
    if view is not None and kind == DISCARD and action in ("discard", "knock"):
        return _discard_answer(view, action, data)
    if view is not None and kind == LAYOFF and action == "layoff":
        laid = mask_of(data.get("cards", []))
        _check_layoff(view, laid, opp)
        return laid
    if view is not None and kind == LAYOFF and action == "layoff_best":
        return best_layoff(view.hand, view.knocker_melds, tables_for(view.rules.max_run_length))[1]
    if kind == BIG_GIN and action == "big_gin":
        return bool(data.get("yes"))
    if kind == HAND_OVER and action == "next":
        return True
    raise MoveError(f"not now: {WANTED.get(kind, 'wait for your turn')}")


def check_layoff(view: PlayerView, cards: object, opp: str) -> dict[str, Any]:
    """Whether the cards may all be laid off together, and the deadwood they leave."""
    laid = mask_of(cards)
    _check_layoff(view, laid, opp)
    tables = tables_for(view.rules.max_run_length)
    return {"cards": names(laid), "deadwood": tables.deadwood_mask(view.hand & ~laid)}


def _check_layoff(view: PlayerView, laid: Mask, opp: str) -> None:
    if laid & ~view.hand:
        raise MoveError(f"{' '.join(names(laid & ~view.hand))} is not in your hand")
    if not layoff_is_legal(laid, view.knocker_melds, tables_for(view.rules.max_run_length)):
        last = names(laid)
        raise MoveError(f"{' '.join(last)} cannot all be laid off on {opp}'s melds")


def _draw_answer(kind: str, view: PlayerView, action: str) -> bool:
    up = CARD_NAMES[view.upcard] if view.upcard is not None else "nothing"
    if action == "take":
        if view.upcard is None:
            raise MoveError("the discard pile is empty: draw from the stock")
        return True
    if action == "pass" and kind == OFFER:
        return False
    if action == "pass":
        raise MoveError("pass is only for the first-turn offer: take the upcard or draw from the stock")
    if action == "stock" and kind == DRAW:
        return False
    if action == "stock":
        raise MoveError(f"on the first-turn offer take {up} or pass; the stock comes after both players pass")
    if action in ("discard", "knock") and kind == OFFER:
        raise MoveError(f"the first-turn offer comes first: take {up} or pass")
    if action in ("discard", "knock"):
        raise MoveError(f"draw first: take {up} from the pile or draw from the stock")
    raise MoveError(f"not now: {WANTED[kind]}")


def _discard_answer(view: PlayerView, action: str, data: dict[str, Any]) -> Discard:
    card = card_of(data.get("card"))
    name = CARD_NAMES[card]
    if not view.hand >> card & 1:
        raise MoveError(f"{name} is not in your hand")
    if not view.legal_discards() >> card & 1:
        raise MoveError(f"{name} was just taken from the discard pile: it may not be discarded this turn")
    if action == "discard":
        return Discard(card, False, None)
    if not view.can_knock(card):
        raise MoveError(
            f"cannot knock discarding {name}: deadwood {view.deadwood_after(card)} is over the knock limit "
            f"{view.knock_limit}"
        )
    melds = melds_of(data.get("melds"))
    if melds is not None:
        report = check_report(view, card, melds)
        if report["deadwood"] > view.knock_limit:
            raise MoveError(
                f"those melds leave deadwood {report['deadwood']}, over the knock limit {view.knock_limit}: "
                "pick other melds"
            )
    return Discard(card, True, melds)
