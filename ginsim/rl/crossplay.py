"""Conversions between ginsim's action ids and OpenSpiel's and RLCard's, for cross-play.

Card numbers differ in the order of suits: ginsim numbers ``suit * 13 + rank`` with suits
clubs, diamonds, hearts, spades; OpenSpiel's ``gin_rummy`` uses spades, clubs, diamonds,
hearts; RLCard's ``gin-rummy`` spades, hearts, diamonds, clubs. Ranks run ace to king in
all three.

OpenSpiel (its ``gin_rummy`` game): 0-51 a card (a discard), 52 draw the upcard, 53 draw
from the stock, 54 pass, 55 knock, 56 + meld id the melds a knocker lays down (185 melds
of at most five cards). A knock there is a sequence: 55, the discard, each meld, then 54;
``to_openspiel`` gives that sequence from the knocker's melds.

RLCard (``gin-rummy``): 2 draw a card, 3 pick up the discard, 5 gin, 6 + card discard,
58 + card knock; 0, 1 (its scoring steps) and 4 (a dead hand declared) have no ginsim
action: ginsim scores and ends hands itself (R23). RLCard has no first-turn pass.
"""

from __future__ import annotations

from typing import Final

from ginsim.engine.cards import Mask
from ginsim.rl.encoding import BIG_GIN, DRAW_STOCK, KNOCK_BASE, PASS, TAKE

_GINSIM_SUITS: Final = "CDHS"
_OPENSPIEL_SUITS: Final = "SCDH"
_RLCARD_SUITS: Final = "SHDC"


def _card_table(suits: str) -> tuple[int, ...]:
    """ginsim card -> the other numbering's card, for a suit order ``suits``."""
    return tuple(suits.index(_GINSIM_SUITS[c // 13]) * 13 + c % 13 for c in range(52))


TO_OPENSPIEL_CARD: Final = _card_table(_OPENSPIEL_SUITS)
FROM_OPENSPIEL_CARD: Final = tuple(TO_OPENSPIEL_CARD.index(c) for c in range(52))
TO_RLCARD_CARD: Final = _card_table(_RLCARD_SUITS)
FROM_RLCARD_CARD: Final = tuple(TO_RLCARD_CARD.index(c) for c in range(52))

OS_DRAW_UPCARD: Final = 52
OS_DRAW_STOCK: Final = 53
OS_PASS: Final = 54
OS_KNOCK: Final = 55
OS_MELD_BASE: Final = 56

RL_DRAW_CARD: Final = 2
RL_PICK_UP_DISCARD: Final = 3
RL_GIN: Final = 5
RL_DISCARD_BASE: Final = 6
RL_KNOCK_BASE: Final = 58


def openspiel_meld_id(meld: Mask) -> int:
    """OpenSpiel's id (0..184) of a meld of three to five cards, given as a ginsim card
    mask: groups of three by rank and the missing suit, groups of four, then runs by
    length, suit and lowest rank (OpenSpiel's numbering)."""
    cards = sorted(TO_OPENSPIEL_CARD[c] for c in range(52) if meld >> c & 1)
    ranks = {c % 13 for c in cards}
    suits = {c // 13 for c in cards}
    n = len(cards)
    if len(ranks) == 1 and n in (3, 4):
        rank = cards[0] % 13
        if n == 4:
            return rank * 5 + 4
        missing = ({0, 1, 2, 3} - suits).pop()
        return rank * 5 + missing
    low = cards[0]
    if len(suits) == 1 and 3 <= n <= 5 and cards == list(range(low, low + n)):
        suit, rank = divmod(low, 13)
        offset = {3: 65, 4: 65 + 44, 5: 65 + 44 + 40}[n]
        return offset + suit * (14 - n) + rank
    raise ValueError("not a meld OpenSpiel numbers (a group, or a run of three to five cards)")


def openspiel_melds(melds: tuple[Mask, ...]) -> list[int]:
    """A knocker's melds as OpenSpiel's meld ids; a run of six or more cards is laid down
    as runs of at most five (six as three and three, seven as four and three, ...)."""
    out = []
    for meld in melds:
        cards = [c for c in range(52) if meld >> c & 1]
        while len(cards) > 5:
            take = 3 if len(cards) in (6, 8) else 4 if len(cards) == 7 else 5
            head, cards = cards[:take], cards[take:]
            out.append(openspiel_meld_id(sum(1 << c for c in head)))
        out.append(openspiel_meld_id(sum(1 << c for c in cards)))
    return out


def to_openspiel(action: int, melds: tuple[Mask, ...] = ()) -> list[int]:
    """OpenSpiel's actions for one ginsim action: one action, or for a knock the whole
    sequence (knock, discard, the melds' ids, pass). Big gin has none (OpenSpiel has no
    such rule): ValueError."""
    if 0 <= action < 52:
        return [TO_OPENSPIEL_CARD[action]]
    if KNOCK_BASE <= action < KNOCK_BASE + 52:
        return [
            OS_KNOCK,
            TO_OPENSPIEL_CARD[action - KNOCK_BASE],
            *(OS_MELD_BASE + m for m in openspiel_melds(melds)),
            OS_PASS,
        ]
    if action == TAKE:
        return [OS_DRAW_UPCARD]
    if action == DRAW_STOCK:
        return [OS_DRAW_STOCK]
    if action == PASS:
        return [OS_PASS]
    raise ValueError(f"ginsim action {action} has no OpenSpiel action")


def from_openspiel(action: int, knocking: bool = False) -> int | None:
    """ginsim's action for one OpenSpiel action in play: a card is a discard (with
    ``knocking``, the discard after OpenSpiel's knock action: ginsim's knock); the knock
    action itself and the meld actions are None (ginsim takes them in one action)."""
    if 0 <= action < 52:
        card = FROM_OPENSPIEL_CARD[action]
        return KNOCK_BASE + card if knocking else card
    table = {OS_DRAW_UPCARD: TAKE, OS_DRAW_STOCK: DRAW_STOCK, OS_PASS: PASS}
    if action in table:
        return table[action]
    if action == OS_KNOCK or OS_MELD_BASE <= action < OS_MELD_BASE + 185:
        return None
    raise ValueError(f"OpenSpiel action {action} is out of range")


def to_rlcard(action: int, gin: bool = False) -> int:
    """RLCard's action for a ginsim action. A knock that leaves no deadwood is RLCard's
    gin with ``gin`` (RLCard then picks the discard itself). Pass and big gin have none:
    ValueError."""
    if 0 <= action < 52:
        return RL_DISCARD_BASE + TO_RLCARD_CARD[action]
    if KNOCK_BASE <= action < KNOCK_BASE + 52:
        return RL_GIN if gin else RL_KNOCK_BASE + TO_RLCARD_CARD[action - KNOCK_BASE]
    if action == TAKE:
        return RL_PICK_UP_DISCARD
    if action == DRAW_STOCK:
        return RL_DRAW_CARD
    if action in (PASS, BIG_GIN):
        raise ValueError(f"ginsim action {action} has no RLCard action")
    raise ValueError(f"ginsim action {action} is out of range")


def from_rlcard(action: int, gin_discard: int | None = None) -> int | None:
    """ginsim's action for an RLCard action; RLCard's gin needs the card ginsim should
    discard (``gin_discard``, a ginsim card); its scoring and dead-hand steps are None."""
    if RL_DISCARD_BASE <= action < RL_DISCARD_BASE + 52:
        return FROM_RLCARD_CARD[action - RL_DISCARD_BASE]
    if RL_KNOCK_BASE <= action < RL_KNOCK_BASE + 52:
        return KNOCK_BASE + FROM_RLCARD_CARD[action - RL_KNOCK_BASE]
    if action == RL_DRAW_CARD:
        return DRAW_STOCK
    if action == RL_PICK_UP_DISCARD:
        return TAKE
    if action == RL_GIN:
        if gin_discard is None:
            raise ValueError("RLCard's gin: say which card ginsim discards (gin_discard)")
        return KNOCK_BASE + gin_discard
    if action in (0, 1, 4):
        return None
    raise ValueError(f"RLCard action {action} is out of range")
