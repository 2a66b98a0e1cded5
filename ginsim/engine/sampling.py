"""Sampled worlds for Monte Carlo strategies: deals of the unseen cards that fit what a seat has
seen, the evidence about the opponent they weigh, and a hand's points as chances to win the game.

``deal_worlds`` deals the opponent's hidden hand as the opponent would have built it and checks it
against what it did; the worlds are then scored by play-outs (``ginsim.engine.playout``) under
``hand_rules``, in points or, by ``game_worth``, in chances to win the game. The built-in
``sampler`` (strategies/sampler.py) explains the idea and what was measured.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator

import numpy as np

from ginsim.engine.cards import VALUE_OF, Card, Mask, cards_list, melds_with
from ginsim.engine.melds import tables_for
from ginsim.engine.playout import deal_hidden, shuffled_stock
from ginsim.engine.rules import Rules
from ginsim.engine.view import Event, PlayerView

KEEPER_LOW = 7
"""An early opponent discard of this value or less is evidence that it keeps high cards."""
KEEPER_RATES = (0.04, 0.23)
"""The chance that one of a player's first three discards of a hand is ``KEEPER_LOW`` or
less: for ``simple`` (it throws its highest deadwood) and for ``aware`` (it keeps high
pairs and connectors), measured over 800 hands each against ``aware``."""
_KEEPER_LOW_LLR = math.log(KEEPER_RATES[1] / KEEPER_RATES[0])
_KEEPER_HIGH_LLR = math.log((1 - KEEPER_RATES[1]) / (1 - KEEPER_RATES[0]))


def keeper_evidence(history: list[Event] | tuple[Event, ...], me: int) -> float:
    """The log likelihood ratio, keeper over ``simple``, of the opponent's first three
    discards in a hand's ``history`` as seen by seat ``me``."""
    llr = 0.0
    k = 0
    for seat, action, card in history:
        if seat != me and action == "discard" and card is not None:
            llr += _KEEPER_LOW_LLR if VALUE_OF[card] <= KEEPER_LOW else _KEEPER_HIGH_LLR
            k += 1
            if k == 3:
                break
    return llr


HAND_POINTS = [(15 + 3 * k) if k <= 10 else 45 * math.exp((10 - k) / 14) for k in range(1, 201)]
"""The points a hand's winner scores, k = 1, 2, ... (relative weights): a fit to the hands of
``sampler`` against ``aware`` (most hands 5-15 points, the tail halving every ~10 points)."""


@functools.lru_cache(maxsize=8)
def game_table(target: int) -> tuple[tuple[float, ...], ...]:
    """``W[a][b]``: the chance of winning a game to ``target`` from scores (a, b) between
    equal players (each wins half the hands, points as ``HAND_POINTS``; draws are replayed)."""
    w = np.array(HAND_POINTS[:target])
    p = w / w.sum() / 2
    tbl = np.zeros((target + 1, target + 1))
    tbl[target, :] = 1.0  # row ``target``: this seat has won (whatever it scored over)
    for a in range(target - 1, -1, -1):
        n = target - a
        win = p[:n] @ tbl[a + 1 : a + 1 + n, :target] + p[n:].sum()
        for b in range(target - 1, -1, -1):
            m = target - 1 - b
            tbl[a, b] = win[b] + (p[:m] @ tbl[a, b + 1 : b + 1 + m] if m else 0.0)
    return tuple(tuple(float(x) for x in row[:target]) for row in tbl[:target])


def game_worth(target: int, mine: int, theirs: int) -> Callable[[float], float]:
    """A hand's points (this seat's side) turned into its chance of winning the game, in %."""
    tbl = game_table(target)
    row = tbl[min(mine, target - 1)]

    def worth(pts: float) -> float:
        if pts > 0:
            return 100.0 if mine + pts >= target else 100.0 * tbl[mine + int(pts)][theirs]
        if pts < 0:
            return 0.0 if theirs - pts >= target else 100.0 * row[theirs - int(pts)]
        return 100.0 * row[theirs]

    return worth


def hand_rules(view: PlayerView) -> Rules:
    """The rules the play-outs use: the view's, with this hand's knock limit (R29)."""
    rules = view.rules
    if view.knock_limit == rules.knock_limit:
        return rules
    return _with_limit(rules, view.knock_limit)


@functools.lru_cache(maxsize=64)
def _with_limit(rules: Rules, limit: int) -> Rules:
    return rules.with_values({"knock_limit": limit, "oklahoma": False, "oklahoma_spades": False})


def chance(llr: float) -> float:
    """The chance that a log likelihood ratio (log odds) stands for."""
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, llr))))


class GameEvidence:
    """Evidence about the opponent summed over a game's hands: each hand's is added, by
    ``read(old_view, new_view)``, when the view of the next hand first appears (a hand at
    0-0 starts a new game). A strategy sees every hand's view at each of its decisions, so
    calling ``update`` at them misses no hand it played in."""

    __slots__ = ("read", "total", "view")

    def __init__(self, read: Callable[[PlayerView, PlayerView], float]) -> None:
        self.read = read
        self.total = 0.0  # the game's evidence from hands before ``view``'s
        self.view: PlayerView | None = None  # the view of the hand being played

    def update(self, view: PlayerView) -> float:
        """The game's evidence before ``view``'s hand, taking in the last hand's if it is new."""
        if view is not self.view:
            old = self.view
            if view.scores == (0, 0):
                self.total = 0.0
            elif old is not None:
                self.total += self.read(old, view)
            self.view = view
        return self.total


def last_passed(view: PlayerView) -> Card | None:
    """The upcard the opponent declined on its last turn, if it did."""
    me = view.seat
    hist = view.history
    for i in range(len(hist) - 1, -1, -1):
        seat, action, card = hist[i]
        if seat != me and action in ("draw", "pass"):
            if action == "pass":
                return card
            for j in range(i - 1, -1, -1):  # the top of the pile when it drew
                _, a2, c2 = hist[j]
                if a2 == "discard":
                    return c2
                if a2 == "take":
                    return None
            return None
        if seat != me and action == "take":
            return None
    return None


def deal_worlds(
    view: PlayerView,
    n: int,
    rand: Callable[[], float],
    last: Card | None,
    belief: list[float],
    *,
    selection: float,
    hint: float,
    pass_hint: float,
) -> Iterator[tuple[Mask, list[Card]]]:
    """``n`` deals of the unseen cards, one at a time: (opponent hand, stock top last), drawn
    with ``rand``. The opponent's hidden cards are dealt, then improved by one draw-and-drop
    for ``selection`` x its draws so far (``ginsim.engine.playout.deal_hidden``: a draw that
    brings it to deadwood d is allowed with chance ``belief[d]``). Then a hand is kept with
    chance ``hint`` if it would not have thrown ``last`` (the opponent's last discard) or would
    have taken the upcard it last passed, ``pass_hint`` ** k if it melds with k of the cards
    it passed on that are still in the pile, and ``belief[d]`` if its deadwood d is within
    ``belief``; after 20 x ``n`` tries every deal is kept."""
    tables = tables_for(view.rules.max_run_length)
    unseen = cards_list(view.unseen())
    me = view.seat
    known = view.opp_known
    hidden = max(0, 10 - known.bit_count())
    size = len(unseen)
    steps = sum(1 for seat, action, _ in view.history if seat != me and action in ("draw", "take"))
    extra = max(0, min(int(selection * steps + 0.5), size - hidden - 2))
    last_bit = 0 if last is None else 1 << last
    passed = last_passed(view)
    # cards the opponent passed on or left, still in the pile
    declined = cards_list(view.opp_passed & view.pile_mask) if pass_hint < 1.0 else []
    n_belief = len(belief)
    dealt = 0
    tries = 0
    while dealt < n:
        tries += 1
        cards = unseen.copy()
        opp = deal_hidden(tables, cards, known, hidden, extra, belief, rand)
        if hint < 1.0 and tries <= 20 * n:
            unlikely = (last_bit and not tables.best_discard_mask(opp | last_bit)[1] & last_bit) or (
                passed is not None and melds_with(passed, opp)
            )
            if unlikely and rand() >= hint:
                continue
        if declined and tries <= 20 * n:
            k = sum(1 for c in declined if melds_with(c, opp))
            if k and rand() >= pass_hint**k:
                continue
        if n_belief and tries <= 20 * n:
            dw = tables.deadwood_mask(opp)
            if dw < n_belief and rand() >= belief[dw]:
                continue
        stock = shuffled_stock(cards, opp, rand)
        dealt += 1
        yield opp, stock
