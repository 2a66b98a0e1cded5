"""The PettingZoo AEC environment: two agents play a hand (or a game) of Gin Rummy.

``env(rules="default", game=False, reward="points")`` returns a ``GinRummyAEC``. Agents
``player_0`` and ``player_1`` are seats 0 and 1; the agent to move is the seat the hand
waits on. Each observation is ``{"observation": float32[OBS_SIZE], "action_mask":
int8[N_ACTIONS]}`` from that agent's own ``PlayerView``; the agent not to move gets its
own observation and an all-zero mask, never the mover's. An illegal action forfeits the
hand (and the game) for the agent that chose it, scored as the engine scores a forfeit.
Rewards are zero-sum (``ginsim.rl.table``). docs/rl.md documents the encodings.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ginsim.engine.rules import Rules
from ginsim.rl.encoding import N_ACTIONS, OBS_SIZE, encode, legal_mask
from ginsim.rl.table import Table, resolve_rules

AGENTS: Final = ("player_0", "player_1")


def observation_space() -> spaces.Dict:
    """The observation space of every agent and of the single-agent environment."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        }
    )


def observe_seat(table: Table, seat: int, out_obs: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Seat ``seat``'s observation of ``table``: its own view, and its legal actions when
    it is to move (all zero otherwise, and once the table is over)."""
    hand = table.hand
    view = hand.views[seat]
    moving = not table.over and hand.to_move == seat and hand.result is None
    target = table.rules.target_score
    obs = encode(view, moving, target, out_obs)
    mask = legal_mask(view, table.big_gin) if moving else np.zeros(N_ACTIONS, dtype=np.int8)
    return {"observation": obs, "action_mask": mask}


class GinRummyAEC(AECEnv):  # type: ignore[misc]
    """Gin Rummy for two agents, one action at a time (PettingZoo's AEC API)."""

    metadata: Final = {"render_modes": ["human", "ansi"], "name": "ginsim_gin_rummy_v0", "is_parallelizable": False}

    def __init__(
        self, rules: Rules | str = "default", game: bool = False, reward: str = "points", render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.rules = resolve_rules(rules)
        self.table = Table(self.rules, game, reward)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.render_mode = render_mode
        self._obs_space = observation_space()
        self._act_space = spaces.Discrete(N_ACTIONS)
        self._rng: np.random.Generator | None = None
        self._cache: dict[str, dict[str, np.ndarray]] = {}
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (a new game in game mode); ``seed`` fixes it and every hand
        after it until the next seeded reset."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self.table.reset(self._rng)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self._cache = {}
        self.agent_selection = AGENTS[self.table.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        got = self._cache.get(agent)
        if got is None:
            got = self._cache[agent] = observe_seat(self.table, AGENTS.index(agent))
        return got

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        self._cumulative_rewards[agent] = 0.0
        r0, r1 = table.act(action)
        self._cache = {}
        self.rewards = {AGENTS[0]: r0, AGENTS[1]: r1}
        if table.over:
            done = not table.truncated
            self.terminations = dict.fromkeys(AGENTS, done)
            self.truncations = dict.fromkeys(AGENTS, not done)
            result = table.last
            info = {"outcome": result.outcome, "winner": result.winner, "points": result.points} if result else {}
            self.infos = {a: dict(info) for a in AGENTS}
        else:
            self.agent_selection = AGENTS[table.to_move]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The hand as text: each seat's cards, the pile's top and the stock's size."""
        from ginsim.engine.cards import format_cards

        hand = self.table.hand
        up = hand.upcard
        lines = [f"seat {s}: {format_cards(hand.hands[s])}" for s in (0, 1)]
        lines.append(f"upcard {'-' if up is None else format_cards(1 << up)}, stock {hand.stock_size}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(rules: Rules | str = "default", game: bool = False, reward: str = "points", **kwargs: Any) -> GinRummyAEC:
    """A PettingZoo AEC environment of Gin Rummy (``ginsim.rl.env``): ``rules`` a preset's
    name, a rules file or a ``Rules``; ``game`` plays whole games (R24) rather than one
    hand; ``reward`` is ``points``, ``scaled`` or ``win`` (docs/rl.md)."""
    return GinRummyAEC(rules=rules, game=game, reward=reward, **kwargs)
