"""``ginsim bench``: the speed of the engine and the runner, measured the same way every time.

``run_bench`` takes every figure (each measured by ginsim.run.measures, which says how) and
``format_bench`` lays them out as the command's table; ``KEYS`` names the figures.
"""

from __future__ import annotations

import platform
from collections.abc import Callable
from typing import Any

from ginsim.engine import _native as native
from ginsim.engine import fastjit
from ginsim.run.fastchunk import fast_kernel
from ginsim.run.measures import (
    SWEEP_HANDS,
    bench_engine,
    bench_fast_engine,
    bench_jit_engine,
    bench_melds,
    bench_runner,
    bench_sweep,
    bench_tournament,
)
from ginsim.run.options import Engine
from ginsim.run.runner import resolve_jobs
from ginsim.version import __version__

KEYS = (
    "deadwood_per_s",
    "best_discard_per_s",
    "hands_per_s_engine",
    "hands_per_s_1job",
    "hands_per_s_all",
    "scaling",
    "fast_simple_per_s_engine",
    "fast_threshold_per_s_engine",
    "jit_simple_per_s_engine",
    "jit_threshold_per_s_engine",
    "fast_simple_per_s_1job",
    "fast_threshold_per_s_1job",
    "fast_simple_per_s_all",
    "fast_threshold_per_s_all",
    "sweep_s",
    "tournament_per_s_1job",
    "tournament_share",
)


def run_bench(
    seconds: float = 2.0,
    jobs: int | None = None,
    reps: int = 3,
    say: Callable[[str], None] | None = None,
    sweep: bool = False,
    engine: Engine = Engine.AUTO,
) -> dict[str, Any]:
    """Every figure of ``ginsim bench``. ``seconds`` is the time budget per figure;
    ``sweep`` times the full knock sweep rather than a scaled-down one. The general
    engine's figures always play through ``play_hand``; the fast path's figures and
    the sweep play as ``engine`` says, except that "general" leaves them "auto" (their
    point is the fast path): "compiled" measures the fast path without numba's kernel."""
    fast_engine = Engine.COMPILED if engine == Engine.COMPILED else Engine.AUTO

    n_jobs = resolve_jobs(jobs)
    note = say or (lambda _m: None)
    note("melds: in-game hands ...")
    dw, bd = bench_melds(seconds, reps)
    note("engine: simple vs simple ...")
    engine = bench_engine(seconds, reps)
    # size the runner runs to take about `seconds` each on one core
    hands_1 = max(200, int(engine * seconds / reps) // 2 * 2)
    note(f"runner: {hands_1:,} hands with 1 job ...")
    one = bench_runner(1, hands_1, reps)
    hands_all = max(200, int(one * n_jobs * seconds / reps) // 2 * 2)
    note(f"runner: {hands_all:,} hands with {n_jobs} jobs ...")
    every = bench_runner(n_jobs, hands_all, reps)
    out: dict[str, Any] = {
        "deadwood_per_s": dw,
        "best_discard_per_s": bd,
        "hands_per_s_engine": engine,
        "hands_per_s_1job": one,
        "hands_per_s_all": every,
        "scaling": every / one,
    }
    for name, a in (("simple", "simple"), ("threshold", "threshold:knock_at=5")):
        note(f"fast path: {a} vs simple ...")
        fast = out[f"fast_{name}_per_s_engine"] = bench_fast_engine(seconds, reps, a)
        if fast_engine == Engine.AUTO and fastjit.installed():
            note(f"fast path, numba's kernel: {a} vs simple ...")
        jit = out[f"jit_{name}_per_s_engine"] = bench_jit_engine(seconds, reps, a, engine=fast_engine)
        fast = jit or fast
        n1 = max(200, int(fast * seconds / reps) // 2 * 2)
        note(f"fast path runner: {n1:,} hands with 1 job ...")
        f1 = out[f"fast_{name}_per_s_1job"] = bench_runner(1, n1, reps, a, engine=fast_engine)
        n_all = max(200, int(f1 * n_jobs * seconds / reps) // 2 * 2)
        note(f"fast path runner: {n_all:,} hands with {n_jobs} jobs ...")
        out[f"fast_{name}_per_s_all"] = bench_runner(n_jobs, n_all, reps, a, engine=fast_engine)
    sweep_hands = None if sweep else max(200, int(2000 * seconds)) // 2 * 2
    note(f"knock sweep: 11 x {sweep_hands or SWEEP_HANDS:,} hands with {n_jobs} jobs, end to end ...")
    out["sweep_s"] = bench_sweep(n_jobs, sweep_hands, fast_engine)
    out["sweep_hands"] = 11 * (sweep_hands or SWEEP_HANDS)
    out.update(bench_tournament(one, seconds, reps, note))
    out.update(
        jobs=n_jobs,
        python=platform.python_version(),
        engine=native.status(),
        fast_kernel=fast_kernel(fast_engine),
        ginsim=__version__,
        platform=f"{platform.system()} {platform.release()} {platform.machine()}, {_cpus()} cpus",
    )
    return out


def _cpus() -> int:
    import os

    return os.cpu_count() or 1


def format_bench(r: dict[str, Any]) -> str:
    jobs = r["jobs"]
    rows = [
        ("deadwood_per_s", f"{r['deadwood_per_s']:,.0f}", "deadwood() calls/s, in-game 10-card hands, one core"),
        ("best_discard_per_s", f"{r['best_discard_per_s']:,.0f}", "best-discard calls/s, in-game 11-card hands"),
        ("hands_per_s_engine", f"{r['hands_per_s_engine']:,.0f}", "simple vs simple hands/s, general engine, one core"),
        ("hands_per_s_1job", f"{r['hands_per_s_1job']:,.0f}", "the same through the runner, --jobs 1, written"),
        ("hands_per_s_all", f"{r['hands_per_s_all']:,.0f}", f"the same through the runner, --jobs {jobs}"),
        ("scaling", f"{r['scaling']:.2f}x", "hands_per_s_all / hands_per_s_1job"),
    ]
    for name, label in (("simple", "simple"), ("threshold", "threshold:knock_at=5")):
        rows += [
            (
                f"fast_{name}_per_s_engine",
                f"{r[f'fast_{name}_per_s_engine']:,.0f}",
                f"{label} vs simple, fast path, one core",
            ),
            (
                f"jit_{name}_per_s_engine",
                "-" if r.get(f"jit_{name}_per_s_engine") is None else f"{r[f'jit_{name}_per_s_engine']:,.0f}",
                f"{label} vs simple, numba's kernel (ginsim[jit]), one core",
            ),
            (
                f"fast_{name}_per_s_1job",
                f"{r[f'fast_{name}_per_s_1job']:,.0f}",
                "the same through the runner, --jobs 1",
            ),
            (
                f"fast_{name}_per_s_all",
                f"{r[f'fast_{name}_per_s_all']:,.0f}",
                f"the same through the runner, --jobs {jobs}",
            ),
        ]
    if r.get("sweep_s") is not None:
        full = "the full" if r["sweep_hands"] == 11 * SWEEP_HANDS else "a scaled-down (--sweep: the full)"
        what = f"s: {full} knock sweep, {r['sweep_hands']:,} hands, --jobs {jobs}, end to end"
        rows.append(("sweep_s", f"{r['sweep_s']:.1f}", what))
    share = r.get("tournament_share")
    rows.append(
        (
            "tournament_per_s_1job",
            "-" if share is None else f"{r['tournament_per_s_1job']:,.0f}",
            "simple vs simple hands/s, tournament mode (--isolate), --jobs 1, one chunk"
            + (f" ({r['tournament_note']})" if share is None and r.get("tournament_note") else ""),
        )
    )
    rows.append(
        ("tournament_share", "-" if share is None else f"{share:.1%}", "tournament_per_s_1job / hands_per_s_1job")
    )
    w = max(len(k) for k, _, _ in rows)
    v = max(len(x) for _, x, _ in rows)
    lines = [f"ginsim {r['ginsim']} bench on Python {r['python']}, {r['platform']}; engine {r['engine']}"]
    lines.append(f"fast path's hands in runs: {r.get('fast_kernel', 'ginsim.engine.fastplay')}")
    lines += [f"{k:<{w}}  {x:>{v}}  {d}" for k, x, d in rows]
    return "\n".join(lines)
