"""A vectorised environment: a batch of learners' tables stepped together.

``make_vector(num_envs, opponent="simple", rules="default")`` returns a
``gymnasium.vector.VectorEnv``. Against the built-in parametric opponents (``simple``,
``threshold``, ``random``: their ``FastPolicy``) it is a ``GinRummyVectorEnv``: every
table's opponent decides through the kernel's policy functions and the batch's
observations are encoded at once into preallocated arrays. In hand mode the tables step
in the kernel (``ginsim.rl.batch``: the whole batch in one call, compiled); whole games
step through the engine's ``Hand`` table by table. Any other opponent gets a
``SyncVectorEnv`` of the single-agent environment. Both reset a finished table in the same
step (Gymnasium's ``AutoresetMode.SAME_STEP``): the observation and mask returned for it
are the new hand's first decision, so a mask is never empty; the finished hand's last
observation is in ``infos["final_obs"]`` (mask all zero) and its info in
``infos["final_info"]``.

Like Gymnasium's own vector environments, ``reset`` and ``step`` return copies of the
batch's arrays (``copy=True``); with ``copy=False`` they return the environment's own
arrays (observations, masks, ``final_obs``), which the next ``step`` or ``reset``
overwrites: faster, for a caller that copies what it keeps.

``reset(seed=s)`` seeds table ``i`` with ``s + i``, as ``SyncVectorEnv`` seeds its
environments: table ``i`` then plays exactly as ``GinRummyEnv`` reset with ``s + i``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ginsim.engine.result import OUTCOMES, forfeit_points
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import Strategy
from ginsim.rl.aec import observation_space
from ginsim.rl.arrays import Recycled
from ginsim.rl.batch import KernelBatch, action_ids
from ginsim.rl.encoding import N_ACTIONS, N_PLANES, N_SCALARS, OBS_SIZE, legal_mask, planes_of, view_masks, view_scalars
from ginsim.rl.opponents import FastOpponent, opponent_for
from ginsim.rl.single import GinRummyEnv, Learner
from ginsim.rl.table import Table, check_reward, resolve_rules


class GinRummyVectorEnv(VectorEnv):  # type: ignore[misc]
    """``num_envs`` tables of one learner each against a built-in parametric opponent."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        opponent: str = "simple",
        rules: Rules | str = "default",
        seat: int | None = None,
        game: bool = False,
        reward: str = "points",
        copy: bool = True,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        self.rules = resolve_rules(rules)
        first = opponent_for(opponent)
        if not isinstance(first, FastOpponent):
            raise ValueError(f"opponent {opponent!r} is no built-in parametric policy: use make_vector")
        self.learners = [
            Learner(Table(self.rules, game, reward), opponent_for(opponent), seat) for _ in range(num_envs)
        ]
        self.reward = check_reward(reward)
        self.scale = float(forfeit_points(self.rules))
        self.kernel = None if game else KernelBatch(num_envs, self.rules, first.policy, seat)
        self.num_envs = num_envs
        self.single_observation_space = observation_space()
        self.single_action_space = gymnasium.spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rngs: list[np.random.Generator] = [np.random.default_rng() for _ in range(num_envs)]
        self._obs = np.zeros((num_envs, OBS_SIZE), dtype=np.float32)
        self._mask = np.zeros((num_envs, N_ACTIONS), dtype=np.int8)
        self._masks = np.zeros((num_envs, N_PLANES), dtype=np.uint64)
        self.copy = copy
        self._final = np.zeros((num_envs, OBS_SIZE), dtype=np.float32)
        self._final_rows = np.empty(0, dtype=np.intp)
        self._final_mask = np.zeros((num_envs, N_ACTIONS), dtype=np.int8)
        self._fresh = (Recycled(self._obs.shape, np.float32), Recycled(self._mask.shape, np.int8))
        self._fresh_final = Recycled(self._final.shape, np.float32)

    def _encode(self, which: range | list[int]) -> None:
        """Encode the learners ``which`` into the batch's arrays (planes all at once)."""
        obs, mask, masks = self._obs, self._mask, self._masks
        s0 = N_PLANES * 52
        for i in which:
            learner = self.learners[i]
            table = learner.table
            view = table.hand.views[learner.seat]
            moving = not table.over and table.hand.to_move == learner.seat
            masks[i] = view_masks(view)
            view_scalars(view, moving, table.rules.target_score, obs[i, s0 : s0 + N_SCALARS])
            if moving:
                legal_mask(view, table.big_gin, mask[i])
            else:
                mask[i] = 0
        idx = np.asarray(which, dtype=np.intp)
        obs[idx, :s0] = planes_of(masks[idx]).reshape(len(idx), s0)

    def _batch(self) -> dict[str, np.ndarray]:
        """The batch's observations now: copies of the environment's arrays, or (with
        ``copy=False``) the arrays themselves, which the next ``step`` overwrites."""
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def _kernel_batch(self, kb: KernelBatch) -> dict[str, np.ndarray]:
        """The kernel's tables' observations now (as ``_batch``): with ``copy``, written
        into arrays no caller holds (``Recycled``) instead of copied."""
        if self.copy:
            self._obs, self._mask = self._fresh[0].take(), self._fresh[1].take()
            kb.observe(self._obs, self._mask)
            return {"observation": self._obs, "action_mask": self._mask}
        kb.observe(self._obs, self._mask)
        return self._batch()

    def _final_obs(self, kb: KernelBatch, done: np.ndarray) -> dict[str, np.ndarray]:
        """``infos["final_obs"]``: the finished tables' last observations in their rows
        (mask all zero), every other row zero; copied, or (``copy=False``) the
        environment's own arrays, which the next ``step`` overwrites."""
        if self.copy:
            final = self._fresh_final.take()
            final.fill(0.0)
            kb.observe(final, None, done)
            return {"observation": final, "action_mask": np.zeros_like(self._final_mask)}
        final = self._final
        final[self._final_rows] = 0.0
        kb.observe(final, None, done)
        self._final_rows = done
        return {"observation": final, "action_mask": self._final_mask}

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        n = self.num_envs
        if seed is not None:
            seeds = [seed + i for i in range(n)] if isinstance(seed, int) else list(seed)
            if len(seeds) != n:
                raise ValueError(f"reset: {len(seeds)} seeds for {n} environments")
            self._rngs = [np.random.default_rng(s) for s in seeds]
            if self.kernel is not None:
                self.kernel.seed(seeds)
        if self.kernel is not None:
            self.kernel.deal(range(n))
            return self._kernel_batch(self.kernel), {}
        for learner, rng in zip(self.learners, self._rngs, strict=True):
            learner.reset(rng)
        self._encode(range(n))
        return self._batch(), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        n = self.num_envs
        if self.kernel is not None:
            return self._kernel_step(self.kernel, actions)
        acts = np.asarray(actions).reshape(n)
        rewards = np.zeros(n, dtype=np.float64)
        terms = np.zeros(n, dtype=bool)
        truncs = np.zeros(n, dtype=bool)
        done: list[int] = []
        final_info: list[dict[str, Any]] = []
        for i, learner in enumerate(self.learners):
            rewards[i] = learner.step(int(acts[i]) if acts.dtype.kind in "iu" else acts[i])
            table = learner.table
            if table.over:
                truncs[i] = table.truncated
                terms[i] = not truncs[i]
                done.append(i)
                final_info.append(learner.info())
        infos: dict[str, Any] = {}
        if done:
            self._encode(done)
            final = np.zeros((n, OBS_SIZE), dtype=np.float32)
            final[done] = self._obs[done]
            flags = np.zeros(n, dtype=bool)
            flags[done] = True
            infos["final_obs"] = {"observation": final, "action_mask": np.zeros((n, N_ACTIONS), dtype=np.int8)}
            infos["_final_obs"] = flags
            infos["final_info"] = {"outcome": _column(n, done, final_info, "outcome", "")}
            infos["final_info"]["points"] = _column(n, done, final_info, "points", 0)
            infos["final_info"]["winner"] = _column(n, done, final_info, "winner", -1)
            infos["final_info"]["seat"] = _column(n, done, final_info, "seat", -1)
            infos["_final_info"] = flags
            for i in done:
                self.learners[i].reset(self._rngs[i])
        self._encode(range(n))
        return self._batch(), rewards, terms, truncs, infos

    def _kernel_step(
        self, kb: KernelBatch, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """``step`` with the tables in the kernel: one call steps the batch, the finished
        hands are scored and dealt again in the same step."""
        n = self.num_envs
        done = kb.step(action_ids(actions, n))
        rewards = np.zeros(n, dtype=np.float64)
        terms = np.zeros(n, dtype=bool)
        infos: dict[str, Any] = {}
        if len(done):
            codes, winners, points, seats = kb.results(done)
            value = np.ones(len(done)) if self.reward == "win" else points.astype(np.float64)
            if self.reward == "scaled":
                value = value / self.scale
            rewards[done] = np.where(winners < 0, 0.0, np.where(winners == seats, value, -value))
            terms[done] = True
            infos["final_obs"] = self._final_obs(kb, done)
            infos["_final_obs"] = terms.copy()
            info: dict[str, np.ndarray] = {"outcome": np.full(n, "", dtype=object)}
            info["outcome"][done] = [OUTCOMES[c] for c in codes.tolist()]
            for key, col in (("points", points), ("winner", winners), ("seat", seats)):
                info[key] = np.full(n, -1 if key != "points" else 0, dtype=np.int64)
                info[key][done] = col
            infos["final_info"] = info
            infos["_final_info"] = terms.copy()
            kb.deal(done.tolist())
        return self._kernel_batch(kb), rewards, terms, np.zeros(n, dtype=bool), infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every table now (booleans, one row a table)."""
        return self._mask.astype(bool)


def _column(n: int, rows: list[int], infos: list[dict[str, Any]], key: str, empty: Any) -> np.ndarray:
    col = np.full(n, empty, dtype=object if isinstance(empty, str) else np.int64)
    for i, info in zip(rows, infos, strict=True):
        col[i] = info.get(key, empty)
    return col


def make_vector(
    num_envs: int,
    opponent: str | Strategy = "simple",
    rules: Rules | str = "default",
    seat: int | None = None,
    game: bool = False,
    reward: str = "points",
    copy: bool = True,
) -> VectorEnv:
    """A vector of ``num_envs`` learners' tables: a ``GinRummyVectorEnv`` against a
    built-in parametric opponent, else a ``SyncVectorEnv`` of ``GinRummyEnv`` (both reset
    a finished table in the same step; ``copy`` as Gymnasium's: False returns arrays the
    next step overwrites)."""
    if isinstance(opponent, str) and isinstance(opponent_for(opponent), FastOpponent):
        return GinRummyVectorEnv(num_envs, opponent, rules, seat, game, reward, copy)

    def one() -> GinRummyEnv:
        return GinRummyEnv(opponent=opponent, rules=rules, seat=seat, game=game, reward=reward)

    return gymnasium.vector.SyncVectorEnv([one] * num_envs, copy=copy, autoreset_mode=AutoresetMode.SAME_STEP)
