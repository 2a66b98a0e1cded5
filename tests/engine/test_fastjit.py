"""numba's kernel for the fast path (ginsim.engine.fastjit): the same rows as
the compiled-Python fast path (``fastplay.fast_rows``, itself held equal to the general
engine by tests/engine/test_fastpath.py) for thousands of hands under every preset and variant;
chosen by the runner and followed by its workers whatever their environment; bigger
chunks for runs of the policies the fast path plays."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from support.fastpath import PAIRS, VARIANTS, chunk_task, policy_of

from ginsim.cli.group import cli
from ginsim.engine import fastjit
from ginsim.engine.fastplay import ROW_FIELDS, ROW_WIDTH, fast_rows
from ginsim.engine.rules import Rules
from ginsim.run import fastchunk, worker
from ginsim.run import plan as run_plan
from ginsim.run.options import JIT_ENV, Engine, resolve_engine
from ginsim.run.seeding import check_decks, deal_seeds, decks_for, strategy_seeds

needs_numba = pytest.mark.skipif(not fastjit.installed(), reason="numba is not installed (pip install 'ginsim[jit]')")

JIT_PAIRS = [
    *PAIRS,
    ("threshold:knock_at=10", "threshold:knock_at=0"),
    ("random:take_chance=0.9,knock_chance=0.2", "random:take_chance=0.1,knock_chance=0.9"),
    ("simple", "random"),
]


def _both(rules: Rules, a: str, b: str, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    seeds = deal_seeds(seed, 0, n)
    decks = check_decks(decks_for(seeds))
    s0 = strategy_seeds(seeds, seed, 0, 0)
    s1 = strategy_seeds(seeds, seed, 0, 1)
    dealers = (np.arange(n) + seed) % 2
    seats = (policy_of(a), policy_of(b))
    jit = fastjit.jit_rows(rules, seats, decks, dealers, s0, s1)
    flat = fast_rows(rules, seats, decks.reshape(n * 52).tolist(), dealers.tolist(), s0.tolist(), s1.tolist())
    return jit, np.asarray(flat, dtype=np.int64).reshape(n, ROW_WIDTH)


@needs_numba
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_rows_identical_to_compiled_fast_path(variant: str) -> None:
    rules = VARIANTS[variant]
    outcomes: set[int] = set()
    for i, (a, b) in enumerate(JIT_PAIRS):
        jit, ref = _both(rules, a, b, 700, seed=31 + i)
        assert jit.dtype == np.int64 and jit.shape == ref.shape
        bad = np.flatnonzero((jit != ref).any(axis=1))
        assert not len(bad), (a, b, bad[:5], jit[bad[:1]], ref[bad[:1]])
        outcomes |= set(ref[:, 0].tolist())
    assert {0, 1, 2} <= outcomes  # knocks, undercuts and gins all met


@needs_numba
def test_every_outcome_and_layoff_met() -> None:
    """The rare branches: big gin, draws, lay-offs of three cards or more, a knock at a
    tie (no score) and undercuts, all equal."""
    seen = dict.fromkeys(("undercut", "big gin", "draw", "3+ laid", "tie"), 0)
    for rules in (Rules(big_gin_bonus=31, undercut_on_tie=False), Rules(max_run_length=4)):
        for a, b in (("simple", "simple"), ("simple", "random:knock_chance=0.3"), ("random", "simple")):
            jit, ref = _both(rules, a, b, 1500, seed=7)
            assert (jit == ref).all(), (rules, a, b)
            col = {name: ref[:, j] for j, name in enumerate(ROW_FIELDS)}
            seen["undercut"] += int((col["outcome"] == 1).sum())
            seen["big gin"] += int((col["outcome"] == 3).sum())
            seen["draw"] += int((col["outcome"] == 4).sum())
            seen["3+ laid"] += int((col["layoff_cards"] >= 3).sum())
            seen["tie"] += int(((col["outcome"] == 0) & (col["winner"] == -1)).sum())
    assert all(v > 0 for v in seen.values()), seen


@needs_numba
def test_workers_follow_the_runners_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker started with another environment plays as the task says: the same
    columns from numba's kernel ("auto") and the compiled path ("compiled")."""
    task = chunk_task(Rules(), "threshold:knock_at=4", "simple", "hands", 0, 400)
    monkeypatch.setenv(JIT_ENV, "0")  # the worker's own environment says no
    auto = worker.play_chunk(task)
    monkeypatch.delenv(JIT_ENV)
    compiled = worker.play_chunk(dataclasses.replace(task, engine="compiled"))
    for name in auto:
        assert auto[name].tolist() == compiled[name].tolist(), name
    assert fastchunk.fast_kernel(Engine.AUTO).startswith("ginsim.engine.fastjit")
    assert fastchunk.fast_kernel(Engine.COMPILED) == "ginsim.engine.fastplay"


def test_runs_identical_with_and_without_the_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole run folder's hand log, through the CLI: by default, with GINSIM_JIT=0
    and with ``--engine compiled``; the manifest says which kernel played."""
    logs = {}
    for how in ("default", "env", "flag"):
        monkeypatch.setenv(JIT_ENV, "0" if how == "env" else "1")  # restored after the test
        out = tmp_path / how
        args = ["match", "threshold:knock_at=6", "random", "--hands", "600", "--seed", "4", "-j", "1"]
        engine = ["--engine", "compiled"] if how == "flag" else []
        r = CliRunner().invoke(cli, [*engine, *args, "--out", str(out), "--quiet"])
        assert r.exit_code == 0, r.output
        logs[how] = pd.read_parquet(out / "hands")
        path = json.loads((out / "manifest.json").read_text())["platform"]["play_path"]
        assert path.startswith("fast (")
        auto = resolve_engine() == Engine.AUTO  # GINSIM_PURE=1 (sources only) turns "auto" into "compiled"
        kernel = "fastjit" if how == "default" and auto and fastjit.installed() else "fastplay"
        assert kernel in path, path
    assert logs["default"].equals(logs["env"]) and logs["default"].equals(logs["flag"])


def test_fast_policies_match_the_fast_seats() -> None:
    """The names that get the fast path's bigger chunks are exactly the built-ins whose
    classes offer a fast policy."""
    from ginsim.engine.registry import BUILTINS
    from ginsim.engine.spec import parse_spec

    fast = {name for name in BUILTINS if fastchunk.fast_policy(parse_spec(name).load_class(), {}) is not None}
    assert fast == set(run_plan.FAST_POLICIES)


def test_fast_runs_get_bigger_chunks() -> None:
    kw = {"rules": Rules(), "hands": 200_000, "seed": 1}
    fast = run_plan.plan_match("threshold:knock_at=3", "random", **kw)
    general = run_plan.plan_match("aware", "simple", **kw)
    isolated = run_plan.plan_match("simple", "simple", isolate=True, **kw)
    clocked = run_plan.plan_match("simple", "simple", rules=Rules(time_per_hand=30.0), hands=200_000, seed=1)
    assert fast.chunk * 2 == run_plan.DEFAULT_FAST_CHUNK_HANDS
    assert general.chunk * 2 == isolated.chunk * 2 == clocked.chunk * 2 == run_plan.DEFAULT_CHUNK_HANDS
    sweep = run_plan.plan_sweep("threshold", "knock_at=0:10", ["simple"], rules=Rules(), hands=100_000, seed=1)
    assert sweep.chunk * 2 == run_plan.DEFAULT_FAST_CHUNK_HANDS  # eleven values: 55 chunks in all
    small = run_plan.plan_match("simple", "simple", rules=Rules(), hands=2000, seed=1)
    assert small.chunk == 125  # small runs still split for every core
    few = run_plan.plan_sweep("threshold", "knock_at=0:1", ["simple"], rules=Rules(), hands=20_000, seed=1)
    assert few.chunk == 2 * 10_000 // 8  # two values of 10,000 deals: eight chunks in all
