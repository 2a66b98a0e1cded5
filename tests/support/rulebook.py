"""What the rule tests share: the default rules and meld tables, a hand played with
strategies given by role, the built-in bots, two first-turn hands, and brute-force
references for melds, deadwood and lay-offs (slow, obviously correct).

Seat convention: ``dealer=1``, so seat 0 is the non-dealer and moves first. Decks are
built with ``support.deals.make_deck`` (R08 layout: non-dealer deck[0,2,..,18], dealer
deck[1,3,..,19], upcard deck[20], stock deck[21:], deck[21] drawn first)."""

from __future__ import annotations

import itertools

from ginsim import (
    Rules,
    parse_spec,
    play_hand,
    tables_for,
)
from ginsim.engine.cards import RANK_OF, SUIT_OF, VALUE_OF, cards_list
from ginsim.engine.strategy import Strategy

DEFAULT = Rules()
TABLES = tables_for(None)


def play(deck, nondealer, dealer_strategy, dealer=1, rules=DEFAULT, log=None, seeds=(1, 2)):
    """Play one hand with strategies given by role (non-dealer, dealer)."""
    strategies = [None, None]
    strategies[1 - dealer] = nondealer
    strategies[dealer] = dealer_strategy
    return play_hand(rules, strategies, deck, dealer, seeds=seeds, log=log)


def simple() -> Strategy:
    return parse_spec("simple").build()


def rand() -> Strategy:
    return parse_spec("random").build()


# -- reference implementations (slow, obviously correct) ----------------------------


def all_melds(hand: int, max_run_length: int | None = None) -> list[int]:
    """Every group (3 or 4 of a rank) and run (3+ consecutive of a suit) inside ``hand``."""
    cards = cards_list(hand)
    out = []
    for rank in range(13):
        same = [c for c in cards if RANK_OF[c] == rank]
        for n in (3, 4):
            for combo in itertools.combinations(same, n):
                out.append(sum(1 << c for c in combo))
    for suit in range(4):
        for start in range(13):
            for end in range(start + 3, 14):
                if max_run_length is not None and end - start > max_run_length:
                    break
                run = [suit * 13 + r for r in range(start, end)]
                if all(hand >> c & 1 for c in run):
                    out.append(sum(1 << c for c in run))
                else:
                    break
    return out


def value(m: int) -> int:
    return sum(VALUE_OF[c] for c in cards_list(m))


def brute_deadwood(hand: int, max_run_length: int | None = None) -> int:
    """Least deadwood over every set of disjoint melds (R06, R07), by exhaustive search."""
    melds = all_melds(hand, max_run_length)

    def best(rest: int, start: int) -> int:
        b = value(rest)
        for i in range(start, len(melds)):
            m = melds[i]
            if m & rest == m:
                b = min(b, best(rest & ~m, i + 1))
        return b

    return best(hand, 0)


def brute_layable(laid: int, knocker_melds, max_run_length: int | None = None) -> bool:
    """Can every card of ``laid`` go onto the knocker's melds at once (R17)? Tries every
    assignment of cards to melds: a group of 3 takes at most one card of its rank; a run
    takes cards of its suit so that run + cards are consecutive (within the length limit)."""
    cards = cards_list(laid)
    options = []
    for c in cards:
        opts = []
        for i, m in enumerate(knocker_melds):
            mc = cards_list(m)
            is_group = len({RANK_OF[x] for x in mc}) == 1
            if is_group and len(mc) == 3 and RANK_OF[mc[0]] == RANK_OF[c]:
                opts.append(i)
            if not is_group and SUIT_OF[mc[0]] == SUIT_OF[c]:
                opts.append(i)
        if not opts:
            return False
        options.append(opts)
    for assignment in itertools.product(*options):
        ok = True
        for i, m in enumerate(knocker_melds):
            got = [c for c, a in zip(cards, assignment, strict=True) if a == i]
            if not got:
                continue
            mc = cards_list(m)
            if len({RANK_OF[x] for x in mc}) == 1:
                ok = len(got) == 1
            else:
                ranks = sorted(RANK_OF[x] for x in mc + got)
                ok = ranks == list(range(ranks[0], ranks[0] + len(ranks)))
                if max_run_length is not None and len(ranks) > max_run_length:
                    ok = False
            if not ok:
                break
        if ok:
            return True
    return False


def brute_layoff_deadwood(defender: int, knocker_melds, max_run_length: int | None = None) -> int:
    """The defender's least deadwood over all lay-off sets and own melds together."""

    def fits(c: int, m: int) -> bool:
        mc = cards_list(m)
        is_group = len({RANK_OF[x] for x in mc}) == 1
        if is_group:
            return len(mc) == 3 and RANK_OF[c] == RANK_OF[mc[0]]
        return SUIT_OF[c] == SUIT_OF[mc[0]]

    candidates = [c for c in cards_list(defender) if any(fits(c, m) for m in knocker_melds)]
    best = brute_deadwood(defender, max_run_length)
    for n in range(1, len(candidates) + 1):
        for combo in itertools.combinations(candidates, n):
            laid = sum(1 << c for c in combo)
            if brute_layable(laid, knocker_melds, max_run_length):
                best = min(best, brute_deadwood(defender & ~laid, max_run_length))
    return best


NONDEALER = "AS 2S 3S 6H 6D 6C 9C TC JC 5D"  # deadwood 5 (5D)
DEALER = "8H 8S 8D QD QS QH KD KS KC 5H"  # deadwood 5 (5H)


LAYOFF_KNOCKER = "6S 7S 8S 2H 2D 2C JD QD KD AC"  # deadwood 1 (AC) after discarding the draw
BIG_GIN_HAND = "AS 2S 3S 6H 6D 6C 9C TC JC QC"  # draws KC: all 11 cards meld
BIG_GIN_DEFENDER = "8H 8S 8D QD QS QH 2D 4H 6S 7D"  # deadwood 19


class PerHand(Strategy):
    """Plays ``first`` on the first hand of a game and ``later`` after (a hand is known by
    its new view)."""

    def __init__(self, first, later):
        self.first = first
        self.later = later
        self.views = []

    def _pick(self, view):
        if not self.views or self.views[-1] is not view:
            self.views.append(view)
        return self.first if len(self.views) == 1 else self.later

    def take_upcard(self, view):
        return self._pick(view).take_upcard(view)

    def discard(self, view):
        return self._pick(view).discard(view)

    def knock(self, view):
        return self._pick(view).knock(view)


class Observer(Strategy):
    """simple, with an ``observe`` hook (the engine's careful path)."""

    def __init__(self):
        self.inner = simple()
        self.events = 0

    def take_upcard(self, view):
        return self.inner.take_upcard(view)

    def discard(self, view):
        return self.inner.discard(view)

    def observe(self, view, event):
        self.events += 1
