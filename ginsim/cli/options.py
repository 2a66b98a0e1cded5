"""The options that several commands share, declared once, and the small helpers every
command module uses (colour, the command line for manifests, the run's engine, the flag
each library parameter is given by)."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ginsim.engine.guard import DEFAULT_DECISION_LIMIT
from ginsim.engine.rng import MAX_SEED
from ginsim.errors import GinsimError, one_line
from ginsim.run.options import Engine, resolve_engine

EXIT_USAGE = 2
BACKENDS = ("loky", "dask")
FLAGS = {
    "hands": "--hands",
    "games": "--games",
    "seed": "--seed",
    "chunk": "--chunk",
    "duplicate": "--duplicate",
    "param": "--param",
    "values": "--param",
    "vs": "--vs",
    "out": "--out",
    "jobs": "--jobs",
    "backend": "--backend",
    "scheduler": "--scheduler",
    "sprt": "--sprt",
    "engine": "--engine",
    "bot_limits": "--bot-limit",
    "decision_limit": "--decision-limit",
}
"""The flag that gives each library parameter an error may name (ginsim.errors)."""


def error_line(e: GinsimError) -> str:
    """An error's message as a CLI user reads it: the parameters it names as flags."""
    return one_line(e.message(FLAGS))


def run_engine() -> Engine:
    """The engine of this command's runs: the one the ``ginsim`` group resolved from
    ``--engine`` and the environment (ginsim.run.options), or, for a command invoked on
    its own, the environment's."""
    ctx = click.get_current_context(silent=True)
    found = ctx.find_object(Engine) if ctx is not None else None
    return found if found is not None else resolve_engine()


Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def _apply(f: Callable[..., Any], opts: list[Decorator]) -> Callable[..., Any]:
    for opt in reversed(opts):
        f = opt(f)
    return f


def rules_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--rules FILE`` and repeatable ``--rule key=value``."""
    return _apply(
        f,
        [
            click.option(
                "--rules",
                "rules_file",
                metavar="NAME|FILE",
                help="A preset (default, eaai, modern, classic, palace; see `ginsim rules`) or a TOML file with a "
                "[rules] table (field names as in RULES.md).",
            ),
            click.option(
                "--rule",
                "rule_options",
                multiple=True,
                metavar="KEY=VALUE",
                help="Override one rule (repeatable), e.g. --rule knock_limit=8 --rule gin_bonus=25.",
            ),
        ],
    )


def jobs_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        default=None,
        help="Processes (default: every core; 1 runs in this process).",
    )(f)


def backend_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--backend`` and ``--scheduler``."""
    return _apply(
        f,
        [
            click.option(
                "--backend",
                type=click.Choice(BACKENDS),
                default="loky",
                show_default=True,
                help="Local processes (loky) or a Dask cluster.",
            ),
            click.option(
                "--scheduler",
                default=None,
                metavar="ADDRESS",
                help="Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: a local cluster for the run).",
            ),
        ],
    )


def output_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--plots/--no-plots``, ``--svg`` and ``--quiet``."""
    return _apply(
        f,
        [
            click.option("--plots/--no-plots", default=True, show_default=True, help="Draw the charts at the end."),
            click.option("--svg", is_flag=True, help="Also write each chart as SVG."),
            click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary."),
        ],
    )


def isolate_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--isolate`` (tournament mode), ``--decision-limit SECONDS``, ``--shared-decks``, ``--bot-limit``."""
    return _apply(
        f,
        [
            click.option(
                "--isolate",
                is_flag=True,
                help="Tournament mode: every strategy plays in its own process and sees only a copy of its view; "
                "decks mix in a secret kept in the run folder. For bots you do not trust: see docs/security.md.",
            ),
            decision_limit_option(
                "Limit on one decision of a strategy: past it the strategy forfeits the hand, and a "
                "decision still running a grace later has its process ended (0: no limit; the rules' "
                "time_per_hand, if shorter, applies); also on loading and building each strategy before "
                "the run (past it the command stops with one line). See docs/security.md."
            ),
            click.option(
                "--shared-decks",
                is_flag=True,
                help="Tournament mode: deal every pairing the same decks (by default each pairing gets its own, "
                "so no bot meets a deal it has seen).",
            ),
            click.option(
                "--bot-limit",
                "bot_limits",
                multiple=True,
                metavar="NAME=VALUE",
                help="Tournament mode: a resource limit of each bot process (memory MiB, cpu seconds, procs, files, "
                "fsize MiB, tmp MiB; 0: none); repeatable. Defaults in docs/security.md.",
            ),
        ],
    )


def decision_limit_option(help_text: str) -> Decorator:
    """``--decision-limit SECONDS`` (default ``DEFAULT_DECISION_LIMIT``, 0: none)."""
    return click.option(
        "--decision-limit",
        type=click.FloatRange(min=0),
        default=DEFAULT_DECISION_LIMIT,
        show_default=True,
        metavar="SECONDS",
        help=help_text,
    )


def seed_option(help_text: str, default: int | None = 0) -> Decorator:
    return click.option(
        "--seed", type=click.IntRange(0, MAX_SEED), default=default, show_default=default is not None, help=help_text
    )


def run_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by match, roundrobin and sweep."""
    f = _apply(
        f,
        [
            click.option(
                "--hands",
                type=int,
                default=None,
                help="Hands played per pairing (default 10000 unless --games); with duplicate deals, N/2 deals "
                "each played twice (an odd N is rounded up).",
            ),
            click.option(
                "--games",
                type=int,
                default=None,
                help="Games to the rules' target_score played per pairing, instead of hands; with duplicate "
                "deals, N/2 games' deals each played twice (an odd N is rounded up).",
            ),
            seed_option("Master seed: fixes every deck and random choice."),
            jobs_option,
            click.option(
                "--out",
                type=click.Path(path_type=Path),
                default=None,
                help="Run folder (default: a new folder under results/). Rerun with the same --out to resume.",
            ),
            click.option(
                "--duplicate/--no-duplicate",
                default=True,
                show_default=True,
                help="Play each deck twice with the seats swapped.",
            ),
            click.option(
                "--chunk", type=int, default=None, help="Deals (or games) per chunk (default: sized automatically)."
            ),
            backend_options,
            output_options,
        ],
    )
    return isolate_options(rules_options(f))


def color() -> bool:
    return sys.stdout.isatty()


_ARGV: list[str] | None = None


def set_argv(argv: list[str]) -> None:
    global _ARGV
    _ARGV = list(argv)


def invocation() -> str:
    """The command line as the user typed it, for manifests."""
    args = _ARGV if _ARGV is not None else sys.argv[1:]
    return "ginsim " + shlex.join(args)
