"""``ginsim bench --rl``: the environments' speed on one core, random legal actions.

- ``aec_steps_per_s``: the PettingZoo AEC environment, every agent decision (``last()``
  then ``step``), both seats random;
- ``single_steps_per_s``: the single-agent environment against ``simple`` (learner
  decisions; the opponent's moves are inside each step);
- ``vector_steps_per_s``: the vectorised environment, a batch of ``VECTOR_BATCH`` tables
  against ``simple`` (learner decisions of the whole batch per second), the learners'
  random legal actions chosen for the whole batch at once (``random_legal_rows``) and
  timed with the steps;
- ``first_use_s``: a fresh Python process importing ``ginsim.rl`` and making, resetting and
  stepping each environment once.

Each steps-per-second figure comes twice: by the wall clock, and per second of the
process's CPU time (``*_cpu``), which is one core's rate even when other work shares the
machine.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from ginsim.run.measures import rates

VECTOR_BATCH: Final = 1024
BENCH_SEED: Final = 20261204


def _random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def random_legal_rows(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One action a row of ``mask`` (n, actions; 0/1 or bool, every row with a legal
    action), uniform over that row's legal actions: the ``k`` legal actions of a row
    are its ``k`` nonzero entries in order, and ``floor(u k)`` for a uniform ``u`` in
    [0, 1) picks one of them with probability 1/k each. Whole-array NumPy, no loop over
    rows."""
    n, width = mask.shape
    legal = mask.view(np.bool_) if mask.dtype.itemsize == 1 else mask.astype(bool)
    at = np.flatnonzero(legal)  # row-major: row i's legal actions are together, in order
    rows = np.arange(n + 1) * width
    bounds = np.searchsorted(at, rows)  # row i's are at[bounds[i]:bounds[i + 1]]
    k = bounds[1:] - bounds[:-1]
    return at[bounds[:-1] + (rng.random(n) * k).astype(np.intp)] - rows[:-1]


def bench_aec(seconds: float, reps: int) -> tuple[float, float]:
    from ginsim.rl.aec import env

    e = env()
    e.reset(seed=BENCH_SEED)
    rng = np.random.default_rng(BENCH_SEED)

    def work() -> int:
        n = 0
        for _ in range(50):
            e.reset()
            for agent in e.agent_iter():
                obs, _, term, trunc, _ = e.last()
                e.step(None if term or trunc else _random_legal(rng, obs["action_mask"]))
                n += 1
                del agent
        return n

    return rates(work, seconds, reps)


def bench_single(seconds: float, reps: int, opponent: str = "simple") -> tuple[float, float]:
    from ginsim.rl.single import GinRummyEnv

    e = GinRummyEnv(opponent=opponent)
    obs, _ = e.reset(seed=BENCH_SEED)
    rng = np.random.default_rng(BENCH_SEED)
    state = [obs]

    def work() -> int:
        o = state[0]
        for _ in range(1000):
            o, _, term, trunc, _ = e.step(_random_legal(rng, o["action_mask"]))
            if term or trunc:
                o, _ = e.reset()
        state[0] = o
        return 1000

    return rates(work, seconds, reps)


def bench_vector(seconds: float, reps: int, batch: int = VECTOR_BATCH) -> tuple[float, float]:
    from ginsim.rl.vector import GinRummyVectorEnv

    v = GinRummyVectorEnv(batch, "simple")
    obs, _ = v.reset(seed=BENCH_SEED)
    rng = np.random.default_rng(BENCH_SEED)
    state = [obs]

    def work() -> int:
        o = state[0]
        state[0], *_ = v.step(random_legal_rows(rng, o["action_mask"]))
        return batch

    return rates(work, seconds, reps)


_FIRST_USE: Final = """
import time
t0 = time.perf_counter()
import numpy as np
import ginsim.rl
from ginsim.rl.aec import env
from ginsim.rl.single import GinRummyEnv
from ginsim.rl.vector import GinRummyVectorEnv
e = env(); e.reset(seed=1); e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
s = GinRummyEnv(); o, _ = s.reset(seed=1); s.step(int(np.flatnonzero(o["action_mask"])[0]))
v = GinRummyVectorEnv(8); o, _ = v.reset(seed=1); v.step(o["action_mask"].argmax(axis=1))
print(time.perf_counter() - t0)
"""


def first_use() -> float:
    """Seconds a fresh process takes to import the environments and take a first step."""
    out = subprocess.run([sys.executable, "-c", _FIRST_USE], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def run_rl_bench(seconds: float = 3.0, reps: int = 3, say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Every figure of ``ginsim bench --rl``, each measured for ``seconds``: steps per
    second by the wall clock, and per second of CPU time (``*_cpu``: one core's rate when
    other work shares the machine)."""
    out: dict[str, Any] = {}
    for key, fn in (
        ("aec_steps_per_s", lambda: bench_aec(seconds, reps)),
        ("single_steps_per_s", lambda: bench_single(seconds, reps)),
        ("vector_steps_per_s", lambda: bench_vector(seconds, reps)),
    ):
        if say is not None:
            say(f"measuring {key} ...")
        out[key], out[key + "_cpu"] = fn()
    if say is not None:
        say("measuring first_use_s ...")
    out["first_use_s"] = first_use()
    out["vector_batch"] = VECTOR_BATCH
    return out


def format_rl_bench(r: dict[str, Any]) -> str:
    rows = [("figure", "wall", "per CPU s", "what")]
    for key, what in (
        ("aec_steps_per_s", "PettingZoo AEC env, random legal agents, one core"),
        ("single_steps_per_s", "single-agent env vs simple, random legal learner"),
        ("vector_steps_per_s", f"vectorised env, batch {r['vector_batch']}, vs simple, random legal learners"),
    ):
        rows.append((key, f"{r[key]:,.0f}", f"{r[key + '_cpu']:,.0f}", what))
    first = "a fresh process: import ginsim.rl, make and step each env"
    rows.append(("first_use_s", f"{r['first_use_s']:.2f}", "", first))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return "\n".join(f"{a:<{widths[0]}}  {b:>{widths[1]}}  {c:>{widths[2]}}  {d}" for a, b, c, d in rows)
