"""The Gymnasium single-agent environment ``ginsim/GinRummy-v0``: the learner against a
fixed opponent.

``gymnasium.make("ginsim/GinRummy-v0", opponent="simple", rules="eaai")``. The opponent
is any strategy spec (``ginsim.rl.opponents``); the learner's seat is drawn at each reset
unless ``seat`` fixes it. Observations, actions and rewards are the AEC environment's
(docs/rl.md): the learner's own view, its legal actions (``action_masks()`` as
sb3-contrib's MaskablePPO reads them) and its zero-sum reward; the opponent's moves are
played between the learner's steps. ``reset(seed=...)`` fixes every deck, dealer and
random choice of the episode and of the unseeded resets after it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from ginsim.engine.rules import Rules
from ginsim.engine.strategy import Strategy
from ginsim.rl.aec import observation_space, observe_seat
from ginsim.rl.encoding import N_ACTIONS
from ginsim.rl.opponents import Failure, Opponent, opponent_for
from ginsim.rl.table import Table, resolve_rules


class Learner:
    """One table seen from the learner's seat, the opponent's moves played between the
    learner's: what the single-agent and the vectorised environments step."""

    __slots__ = ("opponent", "seat", "seat_choice", "table")

    def __init__(self, table: Table, opponent: Opponent, seat: int | None) -> None:
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None (drawn at each reset), not {seat!r}")
        self.table = table
        self.opponent = opponent
        self.seat_choice = seat
        self.seat = 0 if seat is None else seat

    def reset(self, rng: np.random.Generator) -> int:
        """A new episode from ``rng``, at the learner's first decision. A hand the
        opponent ends before the learner has any choice (a knock on the first turn, as
        non-dealer) leaves the learner nothing to learn from: the next deal starts the
        episode instead. How many deals were passed over so."""
        table = self.table
        table.key(rng)
        skipped = 0
        while True:
            self.seat = table.draw_seat() if self.seat_choice is None else self.seat_choice
            table.reset(None)
            self._opponent_moves()
            if not self.table.over:
                return skipped
            skipped += 1

    def step(self, action: Any) -> float:
        """The learner's action, then the opponent's until the learner is to move again
        or the episode is over; the learner's reward for all of it."""
        r = self.table.act(action)[self.seat]
        return r + self._opponent_moves()

    def _opponent_moves(self) -> float:
        table = self.table
        me = self.seat
        opp = 1 - me
        total = 0.0
        while not table.over and table.hand.to_move == opp:
            try:
                action = self.opponent.decide(table.hand, opp)
            except Failure as f:
                total += table.forfeit(opp, f.kind, f.reason)[me]
                continue
            total += table.act(action)[me]
        return total

    def observe(self, out: np.ndarray | None = None) -> dict[str, np.ndarray]:
        return observe_seat(self.table, self.seat, out)

    def info(self) -> dict[str, Any]:
        """The learner's seat and, once the episode is over, how the last hand ended."""
        out: dict[str, Any] = {"seat": self.seat}
        last = self.table.last
        if self.table.over and last is not None:
            out.update(outcome=last.outcome, winner=last.winner, points=last.points)
        return out


class GinRummyEnv(gymnasium.Env):  # type: ignore[misc]
    """Gin Rummy for one learner against a fixed opponent (Gymnasium's API)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        opponent: str | Strategy = "simple",
        rules: Rules | str = "default",
        seat: int | None = None,
        game: bool = False,
        reward: str = "points",
        render_mode: str | None = None,
    ) -> None:
        self.rules = resolve_rules(rules)
        self.learner = Learner(Table(self.rules, game, reward), opponent_for(opponent), seat)
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.render_mode = render_mode
        self._obs: dict[str, np.ndarray] | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        skipped = self.learner.reset(self.np_random)
        self._obs = obs = self.learner.observe()
        info = self.learner.info()
        if skipped:
            info["skipped"] = skipped
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        learner = self.learner
        reward = learner.step(action)
        self._obs = obs = learner.observe()
        table = learner.table
        truncated = table.truncated
        return obs, float(reward), table.over and not truncated, truncated, learner.info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans (sb3-contrib's MaskablePPO)."""
        obs = self._obs if self._obs is not None else self.learner.observe()
        return obs["action_mask"].astype(bool)

    def render(self) -> str | None:
        from ginsim.engine.cards import format_cards

        hand = self.learner.table.hand
        view = hand.views[self.learner.seat]
        up = hand.upcard
        return (
            f"seat {self.learner.seat}: {format_cards(view.hand)}; upcard "
            f"{'-' if up is None else format_cards(1 << up)}; stock {hand.stock_size}"
        )
