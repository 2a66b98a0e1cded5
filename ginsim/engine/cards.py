"""Cards as ints 0..51 and hands as 52-bit int masks, with text parsing and formatting (R01-R03).

A card is ``suit * 13 + rank``: rank 0 is the ace and 12 the king (R01, ace low only);
suits are clubs, diamonds, hearts, spades in that order. A hand is an ``int`` whose bit
``card`` is set for each card it holds, so each suit is one 13-bit field of the mask.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from ginsim.engine.kernel.meldsearch import melds_with as melds_with
from ginsim.errors import CardError

Card = int
"""One card, ``suit * 13 + rank``."""
Mask = int
"""A set of cards: bit ``card`` set for each card."""

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
FULL_DECK: Final[Mask] = (1 << 52) - 1
SUIT_FIELD: Final = 0x1FFF

RANK_OF: Final[tuple[int, ...]] = tuple(c % 13 for c in range(52))
SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52))
VALUE_OF: Final[tuple[int, ...]] = tuple(min(c % 13 + 1, 10) for c in range(52))
"""R02: ace 1, two to ten face value, jack/queen/king 10."""
RANK_MASK: Final[tuple[Mask, ...]] = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
"""All four cards of a rank."""
SUIT_MASK: Final[tuple[Mask, ...]] = tuple(SUIT_FIELD << (13 * s) for s in range(4))

_RANK_TEXT = {ch: i for i, ch in enumerate(RANKS)}
_RANK_TEXT["10"] = 9
_SUIT_TEXT = {ch: i for i, ch in enumerate(SUITS)}
_SUIT_TEXT.update({ch: i for i, ch in enumerate(SUIT_SYMBOLS)})
_SUIT_TEXT.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})
CARD_NAMES: Final[tuple[str, ...]] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))


def card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = ace .. 12 = king) and ``suit`` (0..3 = C, D, H, S)."""
    return suit * 13 + rank


def parse_card(text: str) -> Card:
    """Parse one card such as ``7H``, ``TD``, ``10d`` or ``A♠`` (R03); raise CardError otherwise."""
    token = text.strip()
    body = token.upper()
    if len(body) < 2:
        raise CardError(f"bad card {text!r}: expected a rank (A 2-9 T/10 J Q K) and a suit (C D H S)")
    rank = _RANK_TEXT.get(body[:-1])
    suit = _SUIT_TEXT.get(body[-1])
    if rank is None or suit is None:
        raise CardError(f"bad card {text!r}: expected a rank (A 2-9 T/10 J Q K) and a suit (C D H S)")
    return suit * 13 + rank


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas: ``"7H 8H 9H, KS"``. Duplicates are an error."""
    tokens = text.replace(",", " ").split()
    cards = [parse_card(t) for t in tokens]
    _check_unique(cards)
    return cards


def _check_unique(cards: list[Card]) -> None:
    if len(set(cards)) != len(cards):
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise CardError(f"card {CARD_NAMES[c]} appears twice")
            seen.add(c)


def to_mask(hand: str | Mask | Iterable[Card | str]) -> Mask:
    """A hand given as card text, an iterable of cards (ints or text) or a mask, as a mask."""
    if isinstance(hand, bool):
        raise CardError(f"bad hand {hand!r}")
    if isinstance(hand, int):
        if hand < 0 or hand > FULL_DECK:
            raise CardError(f"bad hand mask {hand}: must be a 52-bit non-negative int")
        return hand
    if isinstance(hand, str):
        cards = parse_cards(hand)
    else:
        cards = []
        for item in hand:
            if isinstance(item, str):
                cards.append(parse_card(item))
            elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 52:
                cards.append(item)
            else:
                raise CardError(f"bad card {item!r}: expected card text or an int 0..51")
        _check_unique(cards)
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: Mask) -> Iterator[Card]:
    """The cards of a mask in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_list(mask: Mask) -> list[Card]:
    """The cards of a mask as a list in increasing order."""
    return list(cards_of(mask))


def mask_value(mask: Mask) -> int:
    """Total point value of the cards of a mask."""
    return sum(VALUE_OF[c] for c in cards_of(mask))


def sort_key(c: Card) -> tuple[int, int]:
    """Sort by suit then rank, the way a player holds a hand."""
    return (c // 13, c % 13)


def format_card(c: Card, symbols: bool = False) -> str:
    """``7H`` (or ``7♥`` with ``symbols``)."""
    if symbols:
        return RANKS[c % 13] + SUIT_SYMBOLS[c // 13]
    return CARD_NAMES[c]


def format_cards(cards: Iterable[Card] | Mask, symbols: bool = False) -> str:
    """Cards as space-separated text, sorted by suit then rank."""
    seq = cards_of(cards) if isinstance(cards, int) else cards
    return " ".join(format_card(c, symbols) for c in sorted(seq, key=sort_key))
