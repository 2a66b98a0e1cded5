"""Start a run from a description and analyse it: used by the match/roundrobin/sweep
commands and by experiment files alike, so both check and play things the same way.

This is the top of the data flow: it plans (ginsim.run.plan), plays (ginsim.run.runner)
and hands the folder to the analysis (statistics, report.md, charts)."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ginsim.engine.guard import DEFAULT_DECISION_LIMIT, checked_limit, checking
from ginsim.engine.rules import Rules, load_rules, parse_rule_options
from ginsim.errors import RunError
from ginsim.run.backends import require_dask
from ginsim.run.config import Experiment, load_experiment
from ginsim.run.describe import RunDescription
from ginsim.run.grow import grown_plan
from ginsim.run.options import Engine, resolve_engine
from ginsim.run.plan import plan_run
from ginsim.run.runner import RunOptions, run_plan
from ginsim.run.runplan import RunPlan
from ginsim.run.sequential import StopRule

if TYPE_CHECKING:
    from ginsim.analysis.digest import RunDigest


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
    stop_rule: StopRule | None = None
    isolate: bool = False  # tournament mode (ginsim.tournament.referee): part of the run's identity
    decision_limit: float | None = DEFAULT_DECISION_LIMIT  # hard seconds per decision
    shared_decks: bool = False  # tournament mode: every pairing dealt the same decks (part of the identity)
    bot_limits: tuple[str, ...] = ()  # tournament mode: NAME=VALUE resource limits of each bot process
    engine: Engine = Engine.AUTO  # what plays the hands (ginsim.run.options); not part of the run's identity


def sprt_settings(s: RunSettings, text: str) -> None:
    """Set up ``s`` for a match stopped by a sequential test (``--sprt TEXT``): the stop
    rule, small chunks, and at most 1,000,000 hands unless ``s.hands`` says otherwise."""
    from ginsim.analysis.sprt import SPRT, SPRT_CHUNK

    s.stop_rule = SPRT.parse(text)
    if s.chunk is None:
        s.chunk = SPRT_CHUNK  # small chunks: the test can stop soon after it decides
    if s.games is not None:
        raise RunError.about("{sprt} works on duplicate deal pairs: use {hands} (the most to play), not {games}")
    if not s.duplicate:
        raise RunError.about("{sprt} scores duplicate deal pairs: {duplicate} must stay on")
    if s.hands is None:
        s.hands = 1_000_000


def bot_limits(items: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """``--bot-limit`` items as the run's limits (the defaults for the others)."""
    from ginsim.tournament.confine import parse_limits

    try:
        return tuple(parse_limits(items).items())
    except ValueError as e:
        raise RunError.about("{bot_limits}: " + str(e).replace("{", "{{").replace("}", "}}")) from None


def make_plan(run: RunDescription, s: RunSettings, note: Callable[[str], None] | None = None) -> RunPlan:
    """The plan of a match, round-robin or sweep (``ginsim.run.plan.plan_run``), after the
    checks that need the settings (the backend)."""
    if s.scheduler and s.backend != "dask":
        raise RunError.about("a scheduler address ({scheduler}) is only for the dask backend: set {backend} to dask")
    if s.backend == "dask":  # before the run folder is touched
        require_dask()
    return plan_run(
        run,
        rules=s.rules,
        seed=s.seed,
        hands=s.hands,
        games=s.games,
        duplicate=s.duplicate,
        chunk=s.chunk,
        note=note,
        isolate=s.isolate,  # other decks (the run's secret) and other rules of play: another run
        shared_decks=s.shared_decks,
    )


def launch(run: RunDescription, s: RunSettings, echo: Callable[[str], None] = print) -> Path:
    """Plan, play (resuming into ``s.out`` if it holds this run), then write the
    summary, report and charts. Returns the run folder."""
    limit = s.decision_limit
    if limit is not None:
        checked_limit(limit)
    if s.isolate:
        from ginsim.tournament.processes import preflight

        preflight()  # before any spec is checked or folder made
    with checking(limit):  # each spec's check (its module loaded, one instance built) bounded as a decision is
        plan = make_plan(run, s, note=None if s.quiet else lambda m: print(m, file=sys.stderr))
    plan = grown_plan(plan, s.out)  # laid out as the run in the folder grows into it (ginsim.run.grow)
    from ginsim.analysis.digest import RunDigest

    # the analysis takes each chunk as it is written instead of reading it back afterwards
    digest = RunDigest([p.record() for p in plan.pairings], counts=s.plots)
    opts = RunOptions(
        jobs=s.jobs,
        backend=s.backend,
        scheduler=s.scheduler,
        quiet=s.quiet,
        command=s.command,
        stop_rule=s.stop_rule,
        decision_limit=s.decision_limit,
        bot_limits=bot_limits(s.bot_limits),
        on_chunk=digest.add,
        engine=s.engine,
    )
    folder = run_plan(plan, s.out, opts)
    finish(folder, plots=s.plots, quiet=s.quiet, svg=s.svg, echo=echo, digest=digest)
    return folder


def finish(
    folder: Path,
    plots: bool,
    quiet: bool,
    svg: bool,
    echo: Callable[[str], None] = print,
    digest: RunDigest | None = None,
) -> None:
    """Stats, tables, report.md and (optionally) charts of a run folder; print the digest
    (``digest``: the chunks' parts taken as the run was played, ginsim.analysis.digest)."""
    from ginsim.analysis.report import terminal_digest, write_tables
    from ginsim.analysis.tables import analyze

    analysis = analyze(folder, digest)
    if plots:
        from ginsim.analysis.plots import draw_all

        draw_all(analysis, svg=svg)
    write_tables(analysis)
    if not quiet:
        echo(terminal_digest(analysis))


def _overrides(
    exp: Experiment,
    seed: int | None,
    rules: str | Path | None,
    rule_options: tuple[str, ...],
    hands: int | None,
    games: int | None,
) -> tuple[int, Rules, int | None, int | None, Path, list[str]]:
    """An experiment's seed, rules and size with the command line's overrides, the folder
    they name (``<out>-seed<S>``, ``<out>-rules-<name>``, ``<out>-hands<N>``) and the
    ``ginsim run`` command that asks for them; RunError for a bad override."""
    size_hands, size_games = exp.hands, exp.games
    folder = exp.out
    args = ["ginsim", "run", str(exp.path)]
    exp_seed, exp_rules = exp.seed, exp.rules
    if seed is not None:
        if not 0 <= seed < 2**63:
            raise RunError.about("{seed} must be a whole number from 0 to 2**63-1, not {n}", n=seed)
        exp_seed = seed
        folder = folder.with_name(f"{folder.name}-seed{seed}")
        args += ["--seed", str(seed)]
    if rules is not None or rule_options:
        exp_rules = load_rules(rules) if rules is not None else exp_rules
        if rule_options:
            exp_rules = exp_rules.with_values(parse_rule_options(rule_options), "--rule")
        name = "custom" if rules is None else Path(str(rules)).stem
        folder = folder.with_name(f"{folder.name}-rules-{name}")
        args += ["--rules", str(rules)] if rules is not None else []
        for option in rule_options:
            args += ["--rule", option]
    if hands is not None or games is not None:
        if hands is not None and games is not None:
            raise RunError.about("give {hands} or {games}, not both")
        for count, n in (("{hands}", hands), ("{games}", games)):
            if n is not None and n <= 0:
                raise RunError.about(count + " must be a positive whole number, not {n}", n=n)
        size_hands, size_games = hands, games
        n, what = (hands, "hands") if hands is not None else (games, "games")
        folder = folder.with_name(f"{folder.name}-{what}{n}")
        args += [f"--{what}", str(n)]
    return exp_seed, exp_rules, size_hands, size_games, folder, args


def run_experiment(
    path: str | Path,
    *,
    out: Path | None = None,
    jobs: int | None = None,
    quiet: bool = False,
    plots: bool = True,
    svg: bool = False,
    hands: int | None = None,
    games: int | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    echo: Callable[[str], None] = print,
    isolate: bool = False,
    decision_limit: float | None = DEFAULT_DECISION_LIMIT,
    engine: Engine | str | None = None,
    seed: int | None = None,
    rules: str | Path | None = None,
    rule_options: tuple[str, ...] = (),
    shared_decks: bool = False,
    bot_limits: tuple[str, ...] = (),
) -> Path:
    """Play an experiment file and write tables and charts. ``hands``/``games`` override
    its size for a quick try (into ``<out>-hands<N>``), ``seed`` its seed (``<out>-seed<S>``),
    ``rules`` (a preset or a rules file, instead of the file's) and ``rule_options``
    (``key=value`` on top) its rules (``<out>-rules-<name>``), each unless ``out`` is given.
    ``engine`` (ginsim.run.options): None lets the environment's overrides choose."""
    chosen = resolve_engine(engine)
    with checking(decision_limit):  # its strategies checked as a run's are (launch)
        exp = load_experiment(path, isolate=isolate)
    exp_seed, exp_rules, size_hands, size_games, folder, args = _overrides(exp, seed, rules, rule_options, hands, games)
    if out is not None:
        folder = out
        args += ["--out", str(out)]
    if not quiet and exp.description:
        echo(f"{exp.path}: {exp.description}")
    settings = RunSettings(
        rules=exp_rules,
        seed=exp_seed,
        hands=size_hands,
        games=size_games,
        duplicate=exp.duplicate,
        out=folder,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        quiet=quiet,
        plots=plots,
        svg=svg,
        command=shlex.join(args),
        isolate=isolate,
        decision_limit=decision_limit,
        engine=chosen,
        shared_decks=shared_decks,
        bot_limits=bot_limits,
    )
    return launch(exp.run, settings, echo=echo)
