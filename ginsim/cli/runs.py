"""``ginsim match``, ``roundrobin``, ``sweep``, ``run`` and ``report``: the commands that
start (or resume) a run and summarise a run folder. Thin: the work is ginsim.launch's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ginsim.cli.options import (
    backend_options,
    invocation,
    isolate_options,
    jobs_option,
    output_options,
    rules_options,
    run_engine,
    run_options,
    seed_option,
)
from ginsim.run.describe import GauntletRun, MatchRun, RoundRobinRun, RunDescription, SweepRun


def _start_run(run: RunDescription, kw: dict[str, Any], sprt: str | None = None) -> None:
    """Build the settings from the options, play, write tables and charts, print the digest."""
    from ginsim.engine.rules import build_rules
    from ginsim.launch import RunSettings, launch, sprt_settings

    settings = RunSettings(
        rules=build_rules(kw["rules_file"], kw["rule_options"]),
        seed=kw["seed"],
        hands=kw["hands"],
        games=kw["games"],
        duplicate=kw["duplicate"],
        chunk=kw["chunk"],
        out=kw["out"],
        jobs=kw["jobs"],
        backend=kw["backend"],
        scheduler=kw["scheduler"],
        quiet=kw["quiet"],
        plots=kw["plots"],
        svg=kw["svg"],
        command=invocation(),
        isolate=kw["isolate"],
        decision_limit=kw["decision_limit"],
        shared_decks=kw["shared_decks"],
        bot_limits=tuple(kw["bot_limits"]),
        engine=run_engine(),
    )
    if sprt is not None:
        sprt_settings(settings, sprt)
    launch(run, settings, echo=click.echo)


@click.command()
@click.argument("a")
@click.argument("b")
@run_options
@click.option(
    "--sprt",
    default=None,
    metavar="p0=0,p1=0.5[,alpha=0.05,beta=0.05]",
    help="Stop as soon as a sequential probability ratio test on deal pairs decides between H0 (A nets p0 "
    "points per hand against B) and H1 (p1); --hands is then the most to play (default 1000000). "
    "See docs/sprt.md.",
)
def match(a: str, b: str, sprt: str | None, **kw: Any) -> None:
    """Play strategy A against strategy B.

    \b
    Examples:
      ginsim match simple random --hands 20000
      ginsim match threshold:knock_at=6 simple --games 2000 --seed 7
      ginsim match my_bot.py:MyBot simple --hands 100000 --out results/mybot
      ginsim match threshold:knock_at=5 simple --sprt p0=0,p1=1
    """
    _start_run(MatchRun(a, b), kw, sprt)


@click.command()
@click.argument("strategies", nargs=-1, required=True)
@run_options
def roundrobin(strategies: tuple[str, ...], **kw: Any) -> None:
    """Play every pair of the listed strategies; rate them (points per hand, or game wins with --games).

    \b
    Examples:
      ginsim roundrobin random simple threshold:knock_at=4 --hands 20000
      ginsim roundrobin simple threshold:knock_at=0 threshold:knock_at=5 --games 1000
    """
    _start_run(RoundRobinRun(strategies), kw)


@click.command()
@click.argument("strategy")
@click.option(
    "--param",
    "params",
    multiple=True,
    required=True,
    metavar="NAME=START:STOP[:STEP] | NAME=v1,v2,...",
    help="A parameter to sweep (inclusive range or list); several make the grid of every combination.",
)
@click.option("--vs", "versus", multiple=True, required=True, metavar="STRATEGY", help="An opponent (repeatable).")
@run_options
def sweep(strategy: str, params: tuple[str, ...], versus: tuple[str, ...], **kw: Any) -> None:
    """Sweep strategy parameters over ranges against fixed opponents: one --param draws a
    line per opponent, two draw a heatmap over the grid, more a table in report.md.

    \b
    Examples:
      ginsim sweep threshold --param knock_at=0:10 --vs simple
      ginsim sweep threshold --param knock_at=0:10:2 --vs simple --vs random --games 2000
      ginsim sweep aware --param late_knock_at=2,6 --param late_turn=10,15,20 --vs simple
    """
    _start_run(SweepRun(strategy, params[0], versus, params[1:]), kw)


@click.command()
@click.argument("candidate")
@click.argument("opponents", nargs=-1, required=True)
@click.option("--vs", "vs_marker", is_flag=True, help="Before the opponents, for reading: CANDIDATE --vs A B C.")
@run_options
def gauntlet(candidate: str, opponents: tuple[str, ...], vs_marker: bool, **kw: Any) -> None:
    """Play CANDIDATE against each of the opponents (and them against nobody else); the
    report shows the candidate's figures against each one.

    \b
    Examples:
      ginsim gauntlet my_bot.py:MyBot --vs simple aware sampler --hands 20000
      ginsim gauntlet threshold:knock_at=6 --vs simple random --games 1000
    """
    del vs_marker  # only for reading: the opponents are the arguments after the candidate
    _start_run(GauntletRun(candidate, opponents), kw)


@click.command()
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--quiet", "-q", is_flag=True, help="Write the files, print nothing.")
def report(folder: Path, quiet: bool) -> None:
    """Print the summary of a finished (or partly finished) run and (re)write its
    summary.csv, ratings.csv and report.md.

    \b
    Example:
      ginsim report results/roundrobin-20261129-101500
    """
    from ginsim.launch import finish

    finish(folder, plots=False, quiet=quiet, svg=False, echo=click.echo)


@click.command()
@click.argument("experiment", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Run folder (default: the file's out key).")
@jobs_option
@click.option("--hands", type=int, default=None, help="Play N hands per pairing instead (a quick try; own folder).")
@click.option("--games", type=int, default=None, help="Play N games per pairing instead (a quick try; own folder).")
@seed_option("Use this master seed instead of the file's (own folder: <out>-seed<S>).", default=None)
@rules_options
@backend_options
@output_options
@isolate_options
def run(
    experiment: Path,
    out: Path | None,
    jobs: int | None,
    hands: int | None,
    games: int | None,
    seed: int | None,
    rules_file: str | None,
    rule_options: tuple[str, ...],
    backend: str,
    scheduler: str | None,
    plots: bool,
    svg: bool,
    quiet: bool,
    isolate: bool,
    decision_limit: float | None,
    shared_decks: bool,
    bot_limits: tuple[str, ...],
) -> None:
    """Run the experiment described by a TOML file (see experiments/README.md).

    The file names the kind (match, roundrobin, sweep), the strategies, hands or games,
    seed, rules and output folder (default results/<file name>). Rerun it to resume.
    With --hands or --games the run goes to <out>-hands<N> (or -games<N>), so a quick
    try never collides with the full run; likewise --seed (<out>-seed<S>) and --rules or
    --rule (<out>-rules-<name>), which replace the file's seed and rules.

    \b
    Examples:
      ginsim run experiments/knock_sweep.toml
      ginsim run experiments/roundrobin_builtins.toml --hands 2000 --jobs 2
      ginsim run experiments/knock_sweep.toml --seed 7 --rules eaai
    """
    from ginsim.launch import run_experiment

    run_experiment(
        experiment,
        out=out,
        jobs=jobs,
        quiet=quiet,
        plots=plots,
        svg=svg,
        hands=hands,
        games=games,
        backend=backend,
        scheduler=scheduler,
        echo=click.echo,
        isolate=isolate,
        decision_limit=decision_limit,
        engine=run_engine(),
        seed=seed,
        rules=rules_file,
        rule_options=rule_options,
        shared_decks=shared_decks,
        bot_limits=bot_limits,
    )


COMMANDS = [match, roundrobin, sweep, gauntlet, run, report]
