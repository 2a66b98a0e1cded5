"""Start a run from a description: used by the match/roundrobin/sweep commands and by
experiment files alike, so both check and play things the same way."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ginsim.errors import RunError
from ginsim.guard import DEFAULT_DECISION_LIMIT
from ginsim.rules import Rules
from ginsim.runner import RunOptions, run_plan
from ginsim.tournament import RunPlan, check_counts, plan_match, plan_roundrobin, plan_sweep


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
    isolate: bool = False  # tournament mode (ginsim.isolate): part of the run's identity
    decision_limit: float | None = DEFAULT_DECISION_LIMIT  # hard seconds per decision


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
        from ginsim.backends import require_dask

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
        plan = plan_match(target["a"], target["b"], **kw)
    elif kind == "roundrobin":
        plan = plan_roundrobin(list(target["strategies"]), **kw)
    elif kind == "sweep":
        plan = plan_sweep(target["strategy"], target["param"], list(target["versus"]), **kw)
    else:
        raise RunError(f"unknown kind of run {kind!r} (match, roundrobin, sweep)")
    if s.isolate:  # other decks (the run's secret) and other rules of play: another run
        plan = replace(plan, extra={**plan.extra, "isolate": True})
    return plan


def launch(kind: str, target: dict[str, Any], s: RunSettings, echo: Callable[[str], None] = print) -> Path:
    """Plan, play (resuming into ``s.out`` if it holds this run), then write the
    summary, report and charts. Returns the run folder."""
    plan = make_plan(kind, target, s, note=None if s.quiet else lambda m: print(m, file=sys.stderr))
    opts = RunOptions(
        jobs=s.jobs,
        backend=s.backend,
        scheduler=s.scheduler,
        quiet=s.quiet,
        command=s.command,
        stop_rule=s.stop_rule,
        decision_limit=s.decision_limit,
    )
    folder = run_plan(plan, s.out, opts)
    finish(folder, plots=s.plots, quiet=s.quiet, svg=s.svg, echo=echo)
    return folder


def finish(folder: Path, plots: bool, quiet: bool, svg: bool, echo: Callable[[str], None] = print) -> None:
    """Stats, tables, report.md and (optionally) charts of a run folder; print the digest."""
    from ginsim.report import analyze, terminal_digest, write_tables

    analysis = analyze(folder)
    if plots:
        from ginsim.plots import draw_all

        draw_all(analysis, svg=svg)
    write_tables(analysis)
    if not quiet:
        echo(terminal_digest(analysis))
