"""The fixed opponent of the single-agent and vectorised environments.

``opponent_for(spec)`` builds one from a strategy spec (a built-in, ``file.py:Class``,
``package.module:Class``, ``java:...``, ``rlpolicy:...``) or a ``Strategy`` instance:

- the built-in parametric policies (``simple``, ``threshold``, ``random``: their class
  offers a ``FastPolicy``) decide through the kernel's policy functions, on the seat's own
  hand, the upcard and the seat's seeded stream, exactly as ``play_hand`` and the fast path
  play them;
- any other strategy is asked through its ``PlayerView``, its decisions guarded: one that
  raises or answers with something that is not a move forfeits the hand (R26).

Either way the opponent answers with an action id of ``ginsim.rl.encoding``, which the
table applies through the engine like the learner's.
"""

from __future__ import annotations

from typing import Any, Final

from ginsim.engine.guard import passes, safe_repr
from ginsim.engine.hand import Hand
from ginsim.engine.kernel.policies import policy_discard, policy_knocks, policy_takes
from ginsim.engine.policy import FastPolicy
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy, entry_points
from ginsim.engine.view import DISCARD, KNOCK, OFFER
from ginsim.rl.encoding import BIG_GIN, DRAW_STOCK, KNOCK_BASE, PASS, TAKE

_M32: Final = 0xFFFFFFFF


class Failure(Exception):
    """An opponent's decision failed: it forfeits the hand (kind and reason as the engine
    records them)."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


class FastOpponent:
    """A built-in parametric policy (``FastPolicy``) deciding through the kernel."""

    def __init__(self, policy: FastPolicy, label: str) -> None:
        self.policy = policy
        self.label = label
        self.kinds = [policy.kind, policy.kind]
        self.knock_at = [policy.knock_at, policy.knock_at]
        self.chances = [policy.take_chance, policy.knock_chance] * 2
        self.st = [0, 0, 0, 0]
        self._hand: Hand | None = None

    def decide(self, hand: Hand, seat: int) -> int:
        """The policy's action for ``seat``, to move in ``hand``."""
        st = self.st
        if hand is not self._hand:  # a new hand: the seat's stream from its seed
            self._hand = hand
            seed = hand.views[seat]._seed
            st[2 * seat] = seed >> 32 & _M32
            st[2 * seat + 1] = seed & _M32
        held = hand.hands[seat]
        phase = hand.phase
        if phase is DISCARD:
            if hand.can_big_gin():  # the seat to move: this one
                return BIG_GIN
            facts = hand.facts
            TB = hand.tables.flat
            drawn = hand.drawn if hand.drawn is not None else 0
            c, dw = policy_discard(TB, self.kinds, st, seat, held, drawn, hand.drawn_from_pile, facts.no_back)
            if dw <= hand.knock_limit and policy_knocks(self.kinds, self.knock_at, self.chances, st, seat, dw):
                return KNOCK_BASE + c
            return c
        up = hand.upcard
        if up is not None and policy_takes(self.kinds, self.chances, st, seat, up, held):
            return TAKE
        return PASS if phase is OFFER else DRAW_STOCK


class StrategyOpponent:
    """Any strategy, asked through its own ``PlayerView`` (its hooks ``observe`` and
    ``take_big_gin`` included; melds and lay-offs are the environment's optimal ones)."""

    def __init__(self, strategy: Strategy, label: str) -> None:
        self.strategy = strategy
        self.label = label
        self.entries = entry_points(type(strategy))
        self.seen = 0
        self._hand: Hand | None = None

    def _call(self, index: int, method: str, *args: Any) -> Any:
        try:
            return self.entries[index](self.strategy, *args)
        except BaseException as e:  # any failure of a strategy forfeits (R26); passes() lets Ctrl-C through
            if passes(e):
                raise
            raise Failure("raised", f"{method} raised {type(e).__name__}: {e}") from None

    def _notify(self, view: Any) -> None:
        observe = self.entries[3]
        history = view.history
        while self.seen < len(history):
            ev = history[self.seen]
            self.seen += 1
            if observe is not None:
                self._call(3, "observe", view, ev)

    def _yes(self, value: object, method: str) -> bool:
        if value is True or value is False:
            return value
        if type(value).__name__ == "bool_":  # NumPy's bool
            return bool(value)
        raise Failure("illegal", f"{method} returned {safe_repr(value)}, not True or False")

    def decide(self, hand: Hand, seat: int) -> int:
        """The strategy's action for ``seat``, to move in ``hand``."""
        view = hand.views[seat]
        if hand is not self._hand:
            self._hand = hand
            self.seen = 0
        self._notify(view)
        phase = hand.phase
        if phase is not DISCARD:
            take = self._yes(self._call(0, "take_upcard", view), "take_upcard")
            return TAKE if take else PASS if phase is OFFER else DRAW_STOCK
        if hand.can_big_gin():
            fn = self.entries[6]
            if fn is None or self._yes(self._call(6, "take_big_gin", view), "take_big_gin"):
                return BIG_GIN
        card = self._call(1, "discard", view)
        try:
            c = int(card)
        except (TypeError, ValueError):
            raise Failure("illegal", f"discard returned {safe_repr(card)}, not a card") from None
        if isinstance(card, bool | float) or not 0 <= c < 52 or not hand.hands[seat] >> c & 1:
            raise Failure("illegal", f"discard returned {safe_repr(card)}, not a card of its hand")
        dw = view.deadwood_after(c)
        if dw <= hand.knock_limit:
            view.phase = KNOCK
            view.discard_choice = c
            view.discard_deadwood = dw
            if self._yes(self._call(2, "knock", view), "knock"):
                return KNOCK_BASE + c
        return c


Opponent = FastOpponent | StrategyOpponent


def opponent_for(opponent: str | Strategy, fast: bool = True) -> Opponent:
    """The opponent of a spec or a strategy instance; the kernel's form of a built-in
    parametric policy unless ``fast`` is False (then it is asked through its view)."""
    if isinstance(opponent, Strategy):
        return StrategyOpponent(opponent, opponent.spec())
    spec = parse_spec(opponent)
    if fast:
        policy = spec.load_class().fast_policy(dict(spec.params))
        if policy is not None:
            return FastOpponent(policy, spec.label)
    return StrategyOpponent(spec.build(), spec.label)
