"""Fast play-outs for Monte Carlo strategies: a sampled deal played to the end in microseconds.

A strategy that samples the unseen cards (``strategies/sampler.py`` does) scores an option
by playing the rest of the hand out with cheap policies, many times. This module is that
inner loop, compiled with the engine (see ``setup.py``), and its small helpers:
``outs_mask`` (the cards that would make a meld with two cards of a hand), ``least_discard``
and ``discard_with_outs`` (the play-out policies' discards), ``score_knock`` (a knock scored exactly, lay-offs
included) and ``playout`` itself.

Hands are 52-bit masks and cards ints, as everywhere in ginsim; piles and stocks are lists
with the top card last. Nothing here reads a view: the caller deals the world, so what a
strategy may know stays its own business (R13).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ginsim.engine.cards import FULL_DECK, Card, Mask, melds_with
from ginsim.engine.kernel.bits import low_index
from ginsim.engine.kernel.discard import least_discards
from ginsim.engine.layoff import showdown
from ginsim.engine.melds import MeldTables
from ginsim.engine.rules import Rules, rule_facts


def _suit_keep(lo: int, hi: int) -> Mask:
    """The cards of ranks lo..hi in every suit."""
    field = sum(1 << r for r in range(lo, hi + 1))
    return field | field << 13 | field << 26 | field << 39


_D1: Final = _suit_keep(0, 11)  # ranks that stay in their suit when moved one down
_D2: Final = _suit_keep(0, 10)
_U1: Final = _suit_keep(1, 12)
_U2: Final = _suit_keep(2, 12)
_REPEAT: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39


def outs_mask(h: Mask) -> Mask:
    """Cards not in ``h`` that would make a meld (of three) with two cards of ``h``."""
    adj = h & (h >> 1) & _D1  # rank r where r and r+1 are held
    gap = h & (h >> 2) & _D2  # r and r+2 held
    runs = (adj >> 1) & _D1 | (adj << 2) & _U2 | (gap << 1) & _U1
    a = h & 8191
    b = h >> 13 & 8191
    c = h >> 26 & 8191
    d = h >> 39
    pairs = a & b | a & c | a & d | b & c | b & d | c & d  # ranks with two or more cards
    return (runs | pairs * _REPEAT) & ~h & FULL_DECK


def least_discard(tables: MeldTables, hand: Mask, banned: Mask) -> tuple[int, Card]:
    """The least deadwood after one discard from ``hand`` (not ``banned``) and a card that
    reaches it (the highest of ``best_discard_mask``'s, else the lowest of the rest)."""
    dw, cards = tables.best_discard_mask(hand)
    ok = cards & ~banned
    if ok:
        return dw, ok.bit_length() - 1
    dw, cards = least_discards(tables.flat, hand, hand & ~banned)
    return dw, low_index(cards)  # the lowest, among equals


def discard_with_outs(
    tables: MeldTables, hand: Mask, banned: Mask, live: Mask, weight: float, prune: int
) -> tuple[int, Card]:
    """The discard that leaves the least deadwood less ``weight`` per live out (``live``:
    the cards that may still come), among those within ``prune`` of the least deadwood;
    and the deadwood it leaves."""
    deadwood = tables.deadwood_mask
    dws: list[int] = []
    lows: list[int] = []
    least = 1 << 30
    q = hand & ~banned
    while q:
        low = q & -q
        q ^= low
        dw = deadwood(hand ^ low)
        dws.append(dw)
        lows.append(low)
        if dw < least:
            least = dw
    top = least + prune
    best = 1e9
    best_dw = 0
    best_card = -1
    for i in range(len(dws)):
        dw = dws[i]
        if dw <= top:
            low = lows[i]
            v = dw - weight * (outs_mask(hand ^ low) & live).bit_count()
            if v < best:
                best = v
                best_dw = dw
                best_card = low.bit_length() - 1
    return best_dw, best_card


def score_knock(rules: Rules, tables: MeldTables, knocker: Mask, kd: int, defender: Mask) -> int:
    """Points of a knock with ``kd`` deadwood, from the knocker's side (negative: undercut);
    the knocker shows its least-deadwood melds and the defender lays off all it can (R16-R20),
    scored by ``kernel.scoring.showdown`` without the hand's multiplier."""
    melds = tables.best_melds_mask(knocker).melds if kd else ()
    before = tables.deadwood_mask(defender)
    _, winner, points, _, _ = showdown(tables, rule_facts(rules), 0, kd, defender, melds, before, 1)
    return points if winner == 0 else -points


def deal_hidden(
    tables: MeldTables,
    cards: list[Card],
    known: Mask,
    hidden: int,
    steps: int,
    belief: list[float],
    rand: Callable[[], float],
) -> Mask:
    """Deal a sampled opponent hand: ``known`` plus ``hidden`` cards of ``cards`` (the
    unseen cards, shuffled in place as far as needed), then improved by ``steps`` draws,
    each adding the next unseen card and dropping the least-deadwood discard (never a
    ``known`` card). ``belief[d]`` is the chance that a draw bringing the hand to deadwood
    ``d`` is allowed (deadwoods past the list's end always are): a player that did not
    knock rarely held a hand it could knock with. ``rand`` gives uniform floats in [0, 1).
    The first ``hidden + steps`` entries of ``cards`` are the cards dealt and drawn."""
    size = len(cards)
    deal = hidden + steps
    for i in range(deal):  # a partial shuffle deals the hidden cards, then the draws
        j = i + int(rand() * (size - i))
        cards[i], cards[j] = cards[j], cards[i]
    opp = known
    for i in range(hidden):
        opp |= 1 << cards[i]
    n = len(belief)
    for i in range(hidden, deal):
        grown = opp | 1 << cards[i]
        dw, drop = least_discard(tables, grown, known)
        if dw < n and rand() >= belief[dw]:
            continue  # it would have knocked: this draw did not reach that
        opp = grown ^ 1 << drop
    return opp


def shuffled_stock(cards: list[Card], opp: Mask, rand: Callable[[], float]) -> list[Card]:
    """The cards of ``cards`` not in ``opp``, in a random order (a stock, top last)."""
    stock = [c for c in cards if not opp >> c & 1]
    n = len(stock)
    for i in range(n - 1):
        j = i + int(rand() * (n - i))
        stock[i], stock[j] = stock[j], stock[i]
    return stock


@dataclass
class Policy:
    """How the two seats of a play-out play. Both take the upcard when it melds with their
    hand and discard to the least deadwood; the opponent (seat 1) knocks as soon as it can.
    This seat (seat 0) also takes an upcard that lowers its deadwood by ``take_gain``,
    discards by deadwood less ``out_weight`` per live out (the weight fading to nothing by
    turn ``out_turns``, among discards within ``prune`` of the least deadwood), and knocks at
    deadwood <= ``knock_at`` before turn ``late_turn``, <= ``late_knock_at`` from then on (gin
    always). The opponent may wait as well: from turn ``opp_late_turn`` it knocks only at
    deadwood <= ``opp_late_knock_at`` (by default never: it knocks at once all hand). A
    play-out still going after ``max_turns`` turns counts as a draw; a big gin (R22) is
    played as a gin (a discard from the eleven melded cards)."""

    out_weight: float = 2.0
    out_turns: int = 20
    prune: int = 6
    take_gain: int = 4
    knock_at: int = 10
    late_turn: int = 20
    late_knock_at: int = 6
    max_turns: int = 60
    opp_late_turn: int = 1_000
    opp_late_knock_at: int = 0


def playout(
    rules: Rules,
    tables: MeldTables,
    policy: Policy,
    me: Mask,
    opp: Mask,
    pile: list[Card],
    stock: list[Card],
    turn: int,
    take: int = -1,
) -> int:
    """Play a hand to its end and return this seat's points (negative: the opponent's).

    ``me`` and ``opp`` hold 10 cards each, ``pile`` is the discard pile and ``stock`` the
    stock (both top last; both are used up). With ``take`` -1 play starts at the opponent's
    draw; with 1 or 0 it starts at this seat's draw, taking the upcard (1) or drawing from
    the stock (0). ``turn`` is the turn count before that draw. A hand whose stock is down
    to two cards after a discard is a draw (R23), as is one still going after
    ``policy.max_turns`` turns."""
    limit = rules.knock_limit
    same_ok = rules.allow_discard_of_drawn_upcard
    best_discard = tables.best_discard_mask
    deadwood = tables.deadwood_mask
    out_weight = policy.out_weight
    out_turns = policy.out_turns
    prune = policy.prune
    take_gain = policy.take_gain
    knock_at = policy.knock_at
    late_turn = policy.late_turn
    late_knock_at = policy.late_knock_at
    opp_late_turn = policy.opp_late_turn
    opp_late_knock_at = policy.opp_late_knock_at
    hands = [me, opp]
    seat = 1 if take < 0 else 0
    pile_mask = 0
    for c in pile:
        pile_mask |= 1 << c
    if len(stock) <= 2:
        return 0  # R23: the discard that led here ended the hand
    for _ in range(policy.max_turns):
        turn += 1
        h = hands[seat]
        banned = 0
        if take >= 0:
            taking = take == 1
            take = -1
        elif pile:
            up = pile[-1]
            taking = melds_with(up, h) or (seat == 0 and best_discard(h | 1 << up)[0] <= deadwood(h) - take_gain)
        else:
            taking = False
        if taking:
            card = pile.pop()
            h |= 1 << card
            pile_mask ^= 1 << card
            if not same_ok:
                banned = 1 << card
        else:
            h |= 1 << stock.pop()
        if seat == 0 and turn < out_turns:
            w = out_weight * (1.0 - turn / out_turns)
            dw, card = discard_with_outs(tables, h, banned, FULL_DECK & ~h & ~pile_mask, w, prune)
        else:
            dw, card = least_discard(tables, h, banned)
        h ^= 1 << card
        if seat == 0:
            knocks = dw <= (knock_at if turn < late_turn else late_knock_at)
        else:
            knocks = turn < opp_late_turn or dw <= opp_late_knock_at
        if dw <= limit and (knocks or dw == 0):
            pts = score_knock(rules, tables, h, dw, hands[1 - seat])
            return pts if seat == 0 else -pts
        hands[seat] = h
        pile.append(card)
        pile_mask |= 1 << card
        if len(stock) <= 2:
            return 0
        seat = 1 - seat
    return 0  # two players feeding each other from the pile: call it a draw
