"""A batch of learners' tables stepped in the kernel: the engine of ``GinRummyVectorEnv``
against a built-in parametric opponent (hands, not games).

The tables' state lives in flat int64 arrays (``kernel.TABLE_WIDTH`` ints a table, its
deck and discard pile beside it); ``kernel.step_tables`` applies every learner's action
and plays each opponent until its learner's next decision or the hand's end, and writes
each learner's view as ``kernel.FEATURE_WIDTH`` ints (plane masks, scalars, legal
actions), which this module turns into observations and masks with whole-array NumPy
operations. The kernel runs as numba compiled it when numba is installed
(``fastjit.jitted``), else in its mypyc form over lists.

Each episode takes one draw of the table's own NumPy generator, which keys the table's
dealing stream in the kernel (the learner's seat, the dealer, the deck and the seats'
seeds of each deal), exactly as ``Learner.reset`` keys a ``Table``'s, so table ``i`` plays
as ``GinRummyEnv`` reset with the same generator.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np

from ginsim.engine import fastjit, kernel
from ginsim.engine.melds import tables_for
from ginsim.engine.policy import FastPolicy
from ginsim.engine.rules import Rules, rule_facts
from ginsim.rl.encoding import N_ACTIONS, N_PLANES, OBS_SIZE, TURN_SCALE

W: Final = kernel.TABLE_WIDTH
FW: Final = kernel.FEATURE_WIDTH
_M32: Final = 0xFFFFFFFF
_S0: Final = N_PLANES * 52
_BITS_AT: Final = np.arange(4)


def _unpack(masks: np.ndarray, out: np.ndarray) -> None:
    """Card masks (n, k) int64 as 0/1 rows of 52 k into ``out`` (n, 52 k), any dtype;
    ``out`` may be a column slice of a wider array (its rows are then reshaped in place)."""
    n, k = masks.shape
    bits = np.unpackbits(np.ascontiguousarray(masks).view(np.uint8), axis=1, bitorder="little")
    np.copyto(out.reshape(n, k, 52), bits.reshape(n, k, 64)[:, :, :52], casting="unsafe")


class KernelBatch:
    """``n`` tables, each a learner against ``policy``, stepped in the kernel."""

    def __init__(self, n: int, rules: Rules, policy: FastPolicy, seat: int | None) -> None:
        self.n = n
        self.seat_choice = seat
        self.S = np.zeros((n, W), dtype=np.int64)
        self.decks = np.zeros((n, 52), dtype=np.int64)
        self.piles = np.zeros((n, 52), dtype=np.int64)
        self.F = np.zeros((n, FW), dtype=np.int64)
        self.rngs: list[np.random.Generator] = [np.random.default_rng() for _ in range(n)]
        kinds = [policy.kind, policy.kind]
        knock_at = [policy.knock_at, policy.knock_at]
        chances = [policy.take_chance, policy.knock_chance] * 2
        choice = -1 if seat is None else seat
        jit = fastjit.jitted()
        self._start: Callable[[Sequence[int]], None]
        self._step: Callable[[np.ndarray], None]
        if jit is not None:
            args = (
                fastjit.facts_array(rules), fastjit.tables_array(rules.max_run_length),
                np.array(kinds, dtype=np.int64), np.array(knock_at, dtype=np.int64),
                np.array(chances, dtype=np.float64),
            )  # fmt: skip
            scratch = np.zeros(kernel.SCRATCH, dtype=np.int64)
            flat = (self.decks.reshape(-1), self.S.reshape(-1), self.piles.reshape(-1))

            def start(which: Sequence[int]) -> None:
                jit.start_tables(*args, *flat, np.asarray(which, dtype=np.int64), self.F.reshape(-1), scratch, choice)

            def step(actions: np.ndarray) -> None:
                jit.step_tables(*args, *flat, actions, self.F.reshape(-1), scratch)

        else:
            lists = (rule_facts(rules), tables_for(rules.max_run_length).flat, kinds, knock_at, chances)
            start, step = self._mypyc(lists, choice)
        self._start = start
        self._step = step

    def _mypyc(
        self, args: tuple[Any, ...], choice: int
    ) -> tuple[Callable[[Sequence[int]], None], Callable[[np.ndarray], None]]:
        """The kernel's mypyc form over lists (when numba is not installed)."""
        scratch = [0] * kernel.SCRATCH

        def call(fn: Callable[..., None], extra: list[int], *tail: int) -> None:
            S, piles, F = self.S.reshape(-1).tolist(), self.piles.reshape(-1).tolist(), self.F.reshape(-1).tolist()
            decks = self.decks.reshape(-1).tolist()
            fn(*args, decks, S, piles, extra, F, scratch, *tail)
            self.decks[:] = np.array(decks, dtype=np.int64).reshape(self.n, 52)
            self.S[:] = np.array(S, dtype=np.int64).reshape(self.n, W)
            self.piles[:] = np.array(piles, dtype=np.int64).reshape(self.n, 52)
            self.F[:] = np.array(F, dtype=np.int64).reshape(self.n, FW)

        return (lambda which: call(kernel.start_tables, list(which), choice)), (
            lambda actions: call(kernel.step_tables, actions.tolist())
        )

    # -- dealing ----------------------------------------------------------------------
    def seed(self, seeds: Sequence[int | None]) -> None:
        self.rngs = [np.random.default_rng(s) for s in seeds]

    def deal(self, which: Sequence[int]) -> None:
        """A new episode at each table of ``which``: one draw of the table's generator
        keys its dealing stream (as ``Learner.reset`` keys a ``Table``'s), from which the
        kernel deals, passing over a deal the opponent ends before the learner's first
        decision."""
        rows = list(which)
        keys = np.array([self.rngs[i].bit_generator.random_raw() for i in rows], dtype=np.uint64)
        self.S[rows, kernel.T_DST_HI] = (keys >> np.uint64(32)).astype(np.int64)
        self.S[rows, kernel.T_DST_LO] = (keys & np.uint64(_M32)).astype(np.int64)
        self._start(rows)

    def step(self, actions: np.ndarray) -> np.ndarray:
        """Every table's learner plays ``actions`` (int64; anything not legal now
        forfeits); the tables whose hand is over."""
        self._step(actions)
        return np.flatnonzero(self.S[:, kernel.T_PHASE] == kernel.PH_OVER)

    # -- what the learners see -----------------------------------------------------------
    def observe(self, obs: np.ndarray, mask: np.ndarray | None, F: np.ndarray | None = None) -> None:
        """The tables' observations (docs/rl.md's encoding) into ``obs`` (n,
        ``OBS_SIZE``) float32 and their legal actions into ``mask`` (n, ``N_ACTIONS``)
        int8, from the features ``F`` (default: every table's now)."""
        if F is None:
            F = self.F
        _unpack(F[:, :N_PLANES], obs[:, :_S0])
        phase = F[:, 8]
        sc = obs[:, _S0:OBS_SIZE]
        sc[:, 0] = phase == 1
        sc[:, 1] = phase == 2
        sc[:, 2] = phase == 3
        sc[:, 3] = F[:, 9]
        sc[:, 4] = F[:, 10] / 31.0
        sc[:, 5] = F[:, 11] / 10.0
        sc[:, 6] = np.minimum(F[:, 12], TURN_SCALE) / TURN_SCALE
        sc[:, 7] = F[:, 13]
        sc[:, 8] = F[:, 14]
        sc[:, 9:] = 0.0  # scores: hand mode
        if mask is not None:
            _unpack(F[:, kernel.F_DISCARDS : kernel.F_KNOCKS + 1], mask[:, : kernel.ACT_TAKE])
            mask[:, kernel.ACT_TAKE : N_ACTIONS] = (F[:, kernel.F_TAIL, None] >> _BITS_AT) & 1

    def results(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The finished hands ``rows``: outcome codes, winners, points, learner seats."""
        S = self.S[rows]
        return S[:, kernel.T_CODE], S[:, kernel.T_WINNER], S[:, kernel.T_POINTS], S[:, kernel.T_SEAT]


def action_ids(actions: Any, n: int) -> np.ndarray:
    """A batch of actions as int64 ids; anything that is not an int (a float, a bool,
    an object that is no integer) becomes -1, which the kernel treats as illegal."""
    acts = np.asarray(actions).reshape(n)
    if acts.dtype.kind in "iu":
        return acts.astype(np.int64)
    if acts.dtype.kind != "O":
        return np.full(n, -1, dtype=np.int64)
    out = np.full(n, -1, dtype=np.int64)
    for i, a in enumerate(acts):
        if isinstance(a, int | np.integer) and not isinstance(a, bool | np.bool_) and 0 <= a < N_ACTIONS:
            out[i] = int(a)
    return out
