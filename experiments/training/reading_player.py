"""The search's worlds read from the opponent's whole hand so far, as an eager knocker's.

``patient``'s deals of the opponent's hidden cards (``ginsim.sampling.deal_worlds``) check
them against the hand *now*: the last discard exactly, the upcards it passed on leniently
(a card drawn since may meld with one). This module deals them by replaying the hand: a
filter over the opponent's turns (``OpponentFilter``) starts from deals of its ten cards and
follows every turn it played, drawing its unseen stock cards, and weighs each turn by how
likely an eager knocker was to play it with that hand: it takes an upcard exactly when it
melds, discards one of its least-deadwood cards at random (never the upcard it just took)
and knocks as soon as it can. A move the hand does not explain counts ``eps``, so another
kind of player still gets worlds. The deals are exact under that model: every card the
opponent could have held is equally likely before its moves are weighed (the deck is
shuffled), a discard it had not held must have been its draw that turn, and the filter
resamples whenever the weights grow uneven.

``Reading`` is ``patient`` with these worlds, the eighteenth attempt's idea done exactly; how
close its worlds come to the opponent's real hand, beside ``patient``'s, is measured by
``world_check.py`` (the notes' eighteenth attempt).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ginsim.strategies.patient import Patient

from ginsim.cards import Card, Mask
from ginsim.engine.cards import cards_list, melds_with
from ginsim.engine.kernel.discard import least_discards as kernel_least_discards
from ginsim.engine.melds import MeldTables, tables_for
from ginsim.engine.playout import shuffled_stock
from ginsim.engine.view import PlayerView

Step = tuple[str, Card, Card]  # (kind, card, a second card): the opponent's moves, as the filter replays them


def opponent_steps(view: PlayerView) -> tuple[list[Step], Mask]:
    """The opponent's moves in this hand, in order, and the cards it took from the pile.

    Steps: ``("pass", U, -1)`` and ``("take", U, -1)`` of an upcard; ``("decline", T, -1)``
    when it drew from the stock with ``T`` on the pile (``T`` -1 when no decision was asked:
    the first turn's draw after both passed); ``("draw", Y, -1)``, its stock draw in a turn
    that ends by discarding ``Y``; ``("discard", Y, K)`` with ``K`` 1 when a knock followed."""
    me = view.seat
    hist = view.history
    pile: list[Card] = []
    steps: list[Step] = []
    taken = 0
    for i, (seat, action, card) in enumerate(hist):
        if action in ("pass", "take") and not pile and card is not None:
            pile.append(card)  # the first upcard
        if action == "take":
            pile.pop()
        elif action == "discard":
            assert card is not None
            pile.append(card)
        if seat == me:
            continue
        if action in ("pass", "take"):
            assert card is not None
            steps.append((action, card, -1))
            taken |= (1 << card) if action == "take" else 0
        elif action == "draw":
            after_pass = i > 0 and hist[i - 1][1] == "pass"
            steps.append(("decline", -1 if after_pass or not pile else pile[-1], -1))
            nxt = next((c for s, a, c in hist[i + 1 :] if s != me and a == "discard"), None)
            steps.append(("draw", -1 if nxt is None else nxt, -1))
        elif action == "discard":
            assert card is not None
            knocked = i + 1 < len(hist) and hist[i + 1][0] != me and hist[i + 1][1] == "knock"
            steps.append(("discard", card, 1 if knocked else 0))
    return steps, taken


def least_discards(tables: MeldTables, hand: Mask, banned: Mask) -> Mask:
    """The cards of the 11-card ``hand`` (not ``banned``) whose discard leaves the least
    deadwood: the engine's rule, as ``PlayerView.best_discards`` applies it."""
    cards = tables.best_discard_mask(hand)[1]
    legal = hand & ~banned
    if cards & legal:
        return cards & legal
    return kernel_least_discards(tables.flat, hand, legal)[1]


class OpponentFilter:
    """``n`` weighted copies of the opponent's hand, replayed through its moves up to
    ``view`` when built (module doc)."""

    def __init__(self, view: PlayerView, n: int, eps: float, rand: random.Random) -> None:
        self.n, self.eps, self.rand = n, eps, rand
        self.tables = tables_for(view.rules.max_run_length)
        self.limit = view.knock_limit
        steps, taken = opponent_steps(view)
        own_discards = 0
        for kind, card, _ in steps:
            if kind == "discard":
                own_discards |= 1 << card
        # the cards the opponent's hand can have come from the deck with: unseen now, or
        # discarded by it without having been taken from the pile
        self.pool = view.unseen() | (own_discards & ~taken)
        # the cards it threw before its first stock draw were dealt to it (every hand that
        # fits holds them, so dealing them to every copy weighs nothing)
        dealt = 0
        for kind, card, _ in steps:
            if kind == "draw":
                break
            if kind == "discard":
                dealt |= 1 << card
        dealt &= ~taken
        pool = cards_list(self.pool & ~dealt)
        free = 10 - dealt.bit_count()
        self.hands: list[Mask] = []
        self.gone: list[Mask] = []  # pool cards each copy has held (held now or thrown)
        for _ in range(n):
            h = dealt | sum(1 << c for c in rand.sample(pool, min(free, len(pool))))
            self.hands.append(h)
            self.gone.append(h)
        self.failed = False  # no copy fits the moves: the caller deals its worlds otherwise
        self.weights = [1.0] * n
        self.took = -1  # the upcard taken this turn (not to be discarded)
        for step in steps:
            self._step(step)
            if self._uneven():
                self._resample()
                if self.failed:
                    break

    def _step(self, step: Step) -> None:
        kind, card, extra = step
        eps, hands, w = self.eps, self.hands, self.weights
        if kind == "pass" or (kind == "decline" and card >= 0):
            for i, h in enumerate(hands):
                if melds_with(card, h):
                    w[i] *= eps
        elif kind == "take":
            self.took = card
            for i, h in enumerate(hands):
                if not melds_with(card, h):
                    w[i] *= eps
                hands[i] = h | 1 << card
        elif kind == "draw":
            self.took = -1
            self._draw(card)
        elif kind == "discard":
            self._discard(card, extra == 1)

    def _draw(self, discard: Card) -> None:
        """A stock draw in a turn that ends by discarding ``discard``: a copy that does not hold
        that card must have drawn it (weighed by that draw's chance); the others draw at random."""
        rand = self.rand
        for i, h in enumerate(self.hands):
            avail = self.pool & ~self.gone[i]
            n = avail.bit_count()
            if n == 0:
                self.weights[i] = 0.0
                continue
            if discard >= 0 and not h >> discard & 1:
                if not avail >> discard & 1:
                    self.weights[i] = 0.0
                    continue
                d = discard
                self.weights[i] /= n
            else:
                k = int(rand.random() * n)
                m = avail
                for _ in range(k):
                    m &= m - 1
                d = (m & -m).bit_length() - 1
            self.hands[i] = h | 1 << d
            self.gone[i] |= 1 << d

    def _discard(self, card: Card, knocked: bool) -> None:
        tables, eps, limit = self.tables, self.eps, self.limit
        banned = 0 if self.took < 0 else 1 << self.took
        for i, h in enumerate(self.hands):
            if not h >> card & 1:
                self.weights[i] = 0.0
                continue
            best = least_discards(tables, h, banned)
            self.weights[i] *= 1.0 / best.bit_count() if best >> card & 1 else eps
            rest = h & ~(1 << card)
            if not knocked and tables.deadwood_mask(rest) <= limit:
                self.weights[i] *= eps  # it could have knocked, and did not
            self.hands[i] = rest
        self.took = -1

    def _uneven(self) -> bool:
        """Whether to resample: a copy the moves ruled out (weight 0: a hand that did not
        hold a card it threw), or weights uneven enough to halve the copies that count."""
        w = self.weights
        s = sum(w)
        if s <= 0.0 or min(w) == 0.0:
            return True
        return s * s < 0.5 * self.n * sum(x * x for x in w)

    def _resample(self) -> None:
        """Systematic resampling: copies in proportion to their weights, all weighing 1."""
        w = self.weights
        total = sum(w)
        if total <= 0.0:  # no copy fits the moves
            self.failed = True
            return
        step = total / self.n
        u = self.rand.random() * step
        hands, gone = [], []
        acc, j = w[0], 0
        for _ in range(self.n):
            while u > acc and j < self.n - 1:
                j += 1
                acc += w[j]
            hands.append(self.hands[j])
            gone.append(self.gone[j])
            u += step
        self.hands, self.gone, self.weights = hands, gone, [1.0] * self.n

    def pick(self) -> Mask:
        """One copy's hand, by weight."""
        w = self.weights
        x = self.rand.random() * sum(w)
        for i, wi in enumerate(w):
            x -= wi
            if x < 0.0:
                return self.hands[i]
        return self.hands[-1]


class Reading(Patient):
    """``patient`` whose worlds are the filter's (``OpponentFilter``): the opponent's hand
    replayed through its moves, ``particles`` copies, a move its hand does not explain
    weighing ``eps``."""

    name = "patient_reading"

    def __init__(self, particles: int = 256, eps: float = 0.1, samples: int = 48, confidence: float = 0.5) -> None:
        super().__init__(samples=samples, confidence=confidence)
        if isinstance(particles, bool) or not isinstance(particles, int) or particles < 8:
            raise ValueError(f"particles must be a whole number >= 8, not {particles!r}")
        if not 0.0 < eps <= 1.0:
            raise ValueError(f"eps must be in (0, 1], not {eps!r}")
        self.particles, self.eps = particles, eps
        self._filter: OpponentFilter | None = None
        self._for: tuple[object, ...] = ()

    def _filter_for(self, view: PlayerView) -> OpponentFilter | None:
        """The filter for this decision, built afresh (the cards this seat has seen since
        the last decision are out of the opponent's reach, at every turn of the replay) and
        kept for the decision's other questions."""
        hist = view.history
        if not hist:
            return None
        key = (view.scores, view.dealer, len(hist), view.hand, view.phase)
        if self._filter is None or self._for != key:
            self._filter = OpponentFilter(view, self.particles, self.eps, random.Random(view.rng.getrandbits(64)))
            self._for = key
        return self._filter

    def worlds(self, view: PlayerView, n: int) -> Iterator[tuple[Mask, list[Card]]]:
        f = self._filter_for(view)
        if f is None or f.failed:
            yield from super().worlds(view, n)
            return
        rand = random.Random(view.rng.getrandbits(64)).random
        unseen = cards_list(view.unseen())
        for _ in range(n):
            opp = f.pick()
            yield opp, shuffled_stock(unseen, opp, rand)
