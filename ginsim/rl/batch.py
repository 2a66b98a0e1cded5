"""A batch of learners' tables stepped in the kernel: the engine of ``GinRummyVectorEnv``
against a built-in parametric opponent (hands, not games).

The tables' state lives in flat int64 arrays (``kernel.table.TABLE_WIDTH`` ints a table,
its deck and discard pile beside it); ``kernel.steps.step_tables`` applies every learner's
action and plays each opponent until its learner's next decision or the hand's end, and
writes each learner's view as ``kernel.steps.FEATURE_WIDTH`` ints (plane masks, scalars,
legal actions), which this module turns into observations and masks: table by table in a
small numba function (``_encode_rows``) when numba is installed, else with whole-array
NumPy operations (``_observe_numpy``). The kernel runs as numba compiled it when numba is
installed (``fastjit.jitted``), else in its mypyc form over lists.

Each episode takes one draw of the table's own NumPy generator, which keys the table's
dealing stream in the kernel (the learner's seat, the dealer, the deck and the seats'
seeds of each deal), exactly as ``Learner.reset`` keys a ``Table``'s, so table ``i`` plays
as ``GinRummyEnv`` reset with the same generator.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Final

import numpy as np

from ginsim.engine import fastjit
from ginsim.engine.kernel import steps, table
from ginsim.engine.kernel.scoring import SCRATCH
from ginsim.engine.melds import tables_for
from ginsim.engine.policy import FastPolicy
from ginsim.engine.rules import Rules, rule_facts
from ginsim.rl.encoding import N_ACTIONS, N_PLANES, OBS_SIZE, TURN_SCALE

W: Final = table.TABLE_WIDTH
FW: Final = steps.FEATURE_WIDTH
_M32: Final = 0xFFFFFFFF
_S0: Final = N_PLANES * 52
_BITS_AT: Final = np.arange(4)
_BYTE_BITS: Final = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.float32)
"""Row ``b``: the eight bits of byte ``b`` as floats, lowest first (``_encode_rows``)."""
_F_DISCARDS: Final = steps.F_DISCARDS
_F_KNOCKS: Final = steps.F_KNOCKS
_F_TAIL: Final = steps.F_TAIL
_ACT_KNOCK: Final = table.ACT_KNOCK
_ACT_TAKE: Final = table.ACT_TAKE


def _unpack(masks: np.ndarray, out: np.ndarray) -> None:
    """Card masks (n, k) int64 as 0/1 rows of 52 k into ``out`` (n, 52 k), any dtype;
    ``out`` may be a column slice of a wider array (its rows are then reshaped in place)."""
    n, k = masks.shape
    bits = np.unpackbits(np.ascontiguousarray(masks).view(np.uint8), axis=1, bitorder="little")
    np.copyto(out.reshape(n, k, 52), bits.reshape(n, k, 64)[:, :, :52], casting="unsafe")


def _encode_rows(F: np.ndarray, rows: np.ndarray, obs: np.ndarray, mask: np.ndarray, with_mask: bool) -> None:
    """The features of tables ``rows`` as observations into ``obs[rows]`` and, when
    ``with_mask``, legal actions into ``mask[rows]``, one table at a time: the same
    encoding as ``KernelBatch``'s NumPy pass (``_observe_numpy``), written directly
    (numba compiles it when installed; tests/test_rl_vector.py compares the two)."""
    for j in range(rows.shape[0]):
        i = rows[j]
        f = F[i]
        o = obs[i]
        for p in range(N_PLANES):
            m = f[p]
            base = 52 * p
            for byte in range(7):
                bits = _BYTE_BITS[(m >> (8 * byte)) & 255]
                at = base + 8 * byte
                for c in range(8 if byte < 6 else 4):
                    o[at + c] = bits[c]
        phase = f[8]
        o[_S0] = 1.0 if phase == 1 else 0.0
        o[_S0 + 1] = 1.0 if phase == 2 else 0.0
        o[_S0 + 2] = 1.0 if phase == 3 else 0.0
        o[_S0 + 3] = f[9]
        o[_S0 + 4] = f[10] / 31.0
        o[_S0 + 5] = f[11] / 10.0
        o[_S0 + 6] = min(f[12], TURN_SCALE) / TURN_SCALE
        o[_S0 + 7] = f[13]
        o[_S0 + 8] = f[14]
        for k in range(_S0 + 9, OBS_SIZE):
            o[k] = 0.0  # scores: hand mode
        if with_mask:
            a = mask[i]
            discards = f[_F_DISCARDS]
            knocks = f[_F_KNOCKS]
            for c in range(52):
                a[c] = (discards >> c) & 1
                a[_ACT_KNOCK + c] = (knocks >> c) & 1
            tail = f[_F_TAIL]
            for k in range(N_ACTIONS - _ACT_TAKE):
                a[_ACT_TAKE + k] = (tail >> k) & 1


@cache
def _compiled_encoder() -> Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool], None]:
    """``_encode_rows`` compiled by numba (cached next to this module)."""
    import numba

    return numba.njit(cache=True, nogil=True)(_encode_rows)  # type: ignore[no-any-return]


def _encoder() -> Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool], None] | None:
    """The compiled ``_encode_rows`` when the kernel runs in numba's form, else None
    (the NumPy pass encodes)."""
    return None if fastjit.jitted(steps) is None else _compiled_encoder()


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
        jit = fastjit.jitted(steps)
        self._start: Callable[[Sequence[int]], None]
        self._step: Callable[[np.ndarray], None]
        if jit is not None:
            args = (
                fastjit.facts_array(rules), fastjit.tables_array(rules.max_run_length),
                np.array(kinds, dtype=np.int64), np.array(knock_at, dtype=np.int64),
                np.array(chances, dtype=np.float64),
            )  # fmt: skip
            scratch = np.zeros(SCRATCH, dtype=np.int64)
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
        scratch = [0] * SCRATCH

        def call(fn: Callable[..., None], extra: list[int], *tail: int) -> None:
            S, piles, F = self.S.reshape(-1).tolist(), self.piles.reshape(-1).tolist(), self.F.reshape(-1).tolist()
            decks = self.decks.reshape(-1).tolist()
            fn(*args, decks, S, piles, extra, F, scratch, *tail)
            self.decks[:] = np.array(decks, dtype=np.int64).reshape(self.n, 52)
            self.S[:] = np.array(S, dtype=np.int64).reshape(self.n, W)
            self.piles[:] = np.array(piles, dtype=np.int64).reshape(self.n, 52)
            self.F[:] = np.array(F, dtype=np.int64).reshape(self.n, FW)

        return (lambda which: call(steps.start_tables, list(which), choice)), (
            lambda actions: call(steps.step_tables, actions.tolist())
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
        self.S[rows, table.T_DST_HI] = (keys >> np.uint64(32)).astype(np.int64)
        self.S[rows, table.T_DST_LO] = (keys & np.uint64(_M32)).astype(np.int64)
        self._start(rows)

    def step(self, actions: np.ndarray) -> np.ndarray:
        """Every table's learner plays ``actions`` (int64; anything not legal now
        forfeits); the tables whose hand is over."""
        self._step(actions)
        return np.flatnonzero(self.S[:, table.T_PHASE] == table.PH_OVER)

    # -- what the learners see -----------------------------------------------------------
    def observe(self, obs: np.ndarray, mask: np.ndarray | None, rows: np.ndarray | None = None) -> None:
        """The observations (docs/rl.md's encoding) of the tables ``rows`` (default:
        all) into the same rows of ``obs`` (n, ``OBS_SIZE``) float32 and their legal
        actions into ``mask`` (n, ``N_ACTIONS``) int8; other rows are left as they are."""
        enc = _encoder()
        if enc is not None:
            which = np.arange(self.n, dtype=np.int64) if rows is None else rows.astype(np.int64, copy=False)
            enc(self.F, which, obs, obs if mask is None else mask, mask is not None)
            return
        if rows is None:
            _observe_numpy(self.F, obs, mask)
            return
        last = np.empty((len(rows), OBS_SIZE), dtype=np.float32)
        part = None if mask is None else np.empty((len(rows), N_ACTIONS), dtype=np.int8)
        _observe_numpy(self.F[rows], last, part)
        obs[rows] = last
        if mask is not None:
            mask[rows] = part

    def results(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The finished hands ``rows``: outcome codes, winners, points, learner seats."""
        S = self.S[rows]
        return S[:, table.T_CODE], S[:, table.T_WINNER], S[:, table.T_POINTS], S[:, table.T_SEAT]


def _observe_numpy(F: np.ndarray, obs: np.ndarray, mask: np.ndarray | None) -> None:
    """Features ``F`` (n, ``FEATURE_WIDTH``) as observations (docs/rl.md's encoding) into
    ``obs`` (n, ``OBS_SIZE``) float32 and legal actions into ``mask`` (n, ``N_ACTIONS``)
    int8 with whole-array NumPy operations (without numba)."""
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
        _unpack(F[:, steps.F_DISCARDS : steps.F_KNOCKS + 1], mask[:, : table.ACT_TAKE])
        mask[:, table.ACT_TAKE : N_ACTIONS] = (F[:, steps.F_TAIL, None] >> _BITS_AT) & 1


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
