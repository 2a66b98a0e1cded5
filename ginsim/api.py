"""Start a run from a description: used by the match/roundrobin/sweep commands and by
experiment files alike, so both check and play things the same way."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ginsim.engine.rules import Rules
from ginsim.errors import RunError
from ginsim.run.plan import RunPlan, check_counts, plan_match, plan_roundrobin, plan_sweep
from ginsim.run.runner import RunOptions, run_plan


@dataclass
class RunSettings:
    """Everything about a run except what plays whom."""

    rules: Rules = field(default_factory=Rules)
    seed: int = 0
    hands: int | None = None  # default 10000 when games is None too
    games: int | None = None
    duplicate: bool = True
    chunk: int | None = None
    out: Path | None = None
    jobs: int | None = None
    backend: str = "loky"
    scheduler: str | None = None
    quiet: bool = False
    plots: bool = True
    svg: bool = False
    command: str = ""
    stop_rule: Any = None


def make_plan(kind: str, target: dict[str, Any], s: RunSettings, note: Callable[[str], None] | None = None) -> RunPlan:
    """The plan of a match, round-robin or sweep. ``target`` names who plays:
    ``{"a", "b"}``, ``{"strategies"}`` or ``{"strategy", "param", "versus"}``."""
    hands, games = s.hands, s.games
    if hands is None and games is None:
        hands = 10_000
    check_counts(hands, games)
    if s.scheduler and s.backend != "dask":
        raise RunError("--scheduler is for --backend dask")
    if s.backend == "dask":  # before the run folder is touched
        from ginsim.run.backends import require_dask

        require_dask()
    if hands is not None and s.duplicate and hands % 2:
        hands += 1
        if note is not None:
            note(f"note: duplicate deals come in pairs: playing {hands} hands per pairing")
    kw: dict[str, Any] = {
        "rules": s.rules,
        "seed": s.seed,
        "hands": hands,
        "games": games,
        "duplicate": s.duplicate,
        "chunk": s.chunk,
    }
    if kind == "match":
        return plan_match(target["a"], target["b"], **kw)
    if kind == "roundrobin":
        return plan_roundrobin(list(target["strategies"]), **kw)
    if kind == "sweep":
        return plan_sweep(target["strategy"], target["param"], list(target["versus"]), **kw)
    raise RunError(f"unknown kind of run {kind!r} (match, roundrobin, sweep)")


def launch(kind: str, target: dict[str, Any], s: RunSettings, echo: Callable[[str], None] = print) -> Path:
    """Plan, play (resuming into ``s.out`` if it holds this run), then write the
    summary, report and charts. Returns the run folder."""
    plan = make_plan(kind, target, s, note=None if s.quiet else lambda m: print(m, file=sys.stderr))
    opts = RunOptions(
        jobs=s.jobs, backend=s.backend, scheduler=s.scheduler, quiet=s.quiet, command=s.command, stop_rule=s.stop_rule
    )
    folder = run_plan(plan, s.out, opts)
    finish(folder, plots=s.plots, quiet=s.quiet, svg=s.svg, echo=echo)
    return folder


def finish(folder: Path, plots: bool, quiet: bool, svg: bool, echo: Callable[[str], None] = print) -> None:
    """Stats, tables, report.md and (optionally) charts of a run folder; print the digest."""
    from ginsim.analysis.figures import analyze
    from ginsim.analysis.report import terminal_digest, write_tables

    analysis = analyze(folder)
    if plots:
        from ginsim.analysis.plots import draw_all

        draw_all(analysis, svg=svg)
    write_tables(analysis)
    if not quiet:
        echo(terminal_digest(analysis))
