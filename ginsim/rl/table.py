"""One table of the environments: a hand (or a game of hands) played action by action
through the engine's ``Hand`` state machine.

``Table`` turns an action id (``ginsim.rl.encoding``) of the seat to move into the
engine's checked move: ``take``, ``pass_upcard``, ``draw``, ``discard`` (with a knock)
and ``big_gin``. A knock goes straight to the showdown with the knocker's least-deadwood
melds and the defender's optimal lay-offs (R16-R18), scored by the kernel. An action the
engine refuses (or that is no action at all) forfeits the hand for the seat that chose it
(R26), scored as the engine scores every forfeit. In game mode the table deals the next
hand through ``Game`` (R24: running scores, next dealer, the end of the game).

Decks, dealers and the seats' random seeds come from the table's dealing stream (the
kernel's splitmix64, ``kernel.splitmix.deal_from_stream``), keyed by one draw of the environment's
NumPy generator at each reset, so one seed fixes every hand of a table, and the
vectorised environment deals the same hands inside the kernel.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ginsim.engine.game import MAX_HANDS_PER_GAME, Game
from ginsim.engine.hand import Hand
from ginsim.engine.kernel.splitmix import below, deal_from_stream
from ginsim.engine.result import FORFEIT, HandResult, forfeit_points
from ginsim.engine.rules import Rules, load_rules
from ginsim.engine.view import OVER
from ginsim.errors import IllegalMoveError, RulesError
from ginsim.rl.encoding import BIG_GIN, DRAW_STOCK, KNOCK_BASE, PASS, TAKE, describe_action

REWARDS: Final = ("points", "scaled", "win")
"""The reward options (docs/rl.md): real points, points over the rules' forfeit score, or
+1/-1 for the hand (for the game in game mode)."""


def resolve_rules(rules: Rules | str) -> Rules:
    """A ``Rules`` value, a preset's name or a rules file (as ``--rules`` takes them)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return load_rules(rules)
    raise RulesError(f"rules must be a preset's name, a rules file or a Rules value, not {rules!r}")


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


class Table:
    """A hand, or a game of hands, between seats 0 and 1, moved by action ids."""

    __slots__ = ("big_gin", "game", "game_mode", "hand", "hands_played", "last", "reward", "rules", "scale", "stream")

    def __init__(self, rules: Rules, game: bool = False, reward: str = "points") -> None:
        self.rules = rules
        self.game_mode = game
        self.reward = check_reward(reward)
        self.scale = float(forfeit_points(rules))
        self.big_gin = rules.big_gin_bonus is not None
        self.stream = [0, 0]  # the dealing stream's state, as halves
        self.game: Game | None = None
        self.hand: Hand = None  # type: ignore[assignment]  # dealt by reset
        self.last: HandResult | None = None
        self.hands_played = 0

    # -- dealing ----------------------------------------------------------------------
    def key(self, rng: np.random.Generator) -> None:
        """Key the table's dealing stream with one draw of ``rng``."""
        k = int(rng.bit_generator.random_raw())
        self.stream[0] = k >> 32
        self.stream[1] = k & 0xFFFFFFFF

    def draw_seat(self) -> int:
        """A seat (0 or 1) from the dealing stream: the learner's, drawn before a deal."""
        return below(self.stream, 0, 2)

    def reset(self, rng: np.random.Generator | None) -> None:
        """Start a new hand (a new game in game mode): the dealing stream keyed from
        ``rng`` first, or with None the stream's next deal."""
        if rng is not None:
            self.key(rng)
        self.last = None
        self.hands_played = 0
        dealer = below(self.stream, 0, 2)
        if self.game_mode:
            self.game = Game(self.rules, dealer)
        self._deal(dealer, (0, 0))

    def _deal(self, dealer: int, scores: tuple[int, int]) -> None:
        deck = [0] * 52
        seeds = [0, 0]
        deal_from_stream(self.stream, 0, deck, 0, seeds)
        self.hand = Hand(self.rules, deck, dealer, scores, (seeds[0], seeds[1]), checked=True)

    @property
    def seeds(self) -> tuple[int, int]:
        """The seats' random seeds of the current hand (their views' generators)."""
        v = self.hand.views
        return v[0]._seed, v[1]._seed

    @property
    def to_move(self) -> int:
        return self.hand.to_move

    @property
    def over(self) -> bool:
        """Whether the table is done: the hand is over (hand mode) or the game is."""
        return self.hand.phase is OVER and (self.game is None or self.game.over or self.truncated)

    @property
    def truncated(self) -> bool:
        """A game still undecided after ``MAX_HANDS_PER_GAME`` hands stops there (as
        ``play_game`` stops it): the episode is truncated, not terminated."""
        return self.game is not None and not self.game.over and self.hands_played >= MAX_HANDS_PER_GAME

    # -- moving -------------------------------------------------------------------------
    def act(self, action: object) -> tuple[float, float]:
        """Apply the action of the seat to move; the two seats' rewards for it. A refused
        action forfeits the hand (and the game) for that seat."""
        hand = self.hand
        if self.over:
            raise RuntimeError("the episode is over: reset the environment before the next step")
        seat = hand.to_move
        try:
            a = _action_id(action)
            if a < 52:
                hand.discard(a, False)
            elif a < 104:
                hand.discard(a - KNOCK_BASE, True)
                hand.show()
            elif a == TAKE:
                hand.take()
            elif a == DRAW_STOCK:
                hand.draw()
            elif a == PASS:
                hand.pass_upcard()
            elif a == BIG_GIN:
                hand.big_gin()
            else:
                raise IllegalMoveError(f"{a} is no action (0..{BIG_GIN})")
        except IllegalMoveError as e:
            hand.forfeit(seat, "illegal", f"{describe_action(action) if _is_int(action) else action!r}: {e}")
        if hand.phase is not OVER:
            return 0.0, 0.0
        return self._hand_over(hand.result)  # type: ignore[arg-type]

    def forfeit(self, seat: int, kind: str, reason: str) -> tuple[float, float]:
        """``seat`` forfeits the hand in progress (a strategy that failed, R26)."""
        return self._hand_over(self.hand.forfeit(seat, kind, reason))

    def _hand_over(self, result: HandResult) -> tuple[float, float]:
        """Count a finished hand; the seats' rewards; in game mode deal the next hand
        unless the game is over."""
        self.last = result
        self.hands_played += 1
        game = self.game
        if game is None:
            return self._rewards(result.winner, result.points)
        game.record(result)
        if self.reward == "win":
            r: tuple[float, float] = (0.0, 0.0)
            if game.over and game.winner >= 0:
                r = (1.0, -1.0) if game.winner == 0 else (-1.0, 1.0)
        else:
            r = self._rewards(result.winner, result.points)
        if not game.over and result.outcome != FORFEIT and self.hands_played < MAX_HANDS_PER_GAME:
            self._deal(game.dealer, game.score_pair())
        return r

    def _rewards(self, winner: int, points: int) -> tuple[float, float]:
        if winner < 0:
            return 0.0, 0.0
        if self.reward == "win":
            v = 1.0
        elif self.reward == "scaled":
            v = points / self.scale
        else:
            v = float(points)
        return (v, -v) if winner == 0 else (-v, v)


def _is_int(x: object) -> bool:
    try:
        int(x)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return False
    return not isinstance(x, bool | float)


def _action_id(action: object) -> int:
    """An action as a plain int (NumPy integers included), or IllegalMoveError."""
    if isinstance(action, bool | float) or not _is_int(action):
        raise IllegalMoveError(f"an action is an int 0..{BIG_GIN}, not {action!r}")
    a = int(action)  # type: ignore[call-overload]
    if not 0 <= a <= BIG_GIN:
        raise IllegalMoveError(f"{a} is no action (0..{BIG_GIN})")
    return a
