"""The ``ginsim`` command line: one click group, thin commands, logic in the library.

Heavy imports (pandas, matplotlib, joblib) happen inside the commands that need them so
``ginsim --help`` stays instant. Every input mistake is one line on stderr and exit 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ginsim import __version__
from ginsim import _native as native
from ginsim.errors import GinsimError

EXIT_USAGE = 2


def rules_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--rules FILE`` and repeatable ``--rule key=value``."""
    f = click.option(
        "--rule",
        "rule_options",
        multiple=True,
        metavar="KEY=VALUE",
        help="Override one rule (repeatable), e.g. --rule knock_limit=8 --rule gin_bonus=25.",
    )(f)
    f = click.option(
        "--rules",
        "rules_file",
        metavar="FILE",
        help="TOML file with a [rules] table (field names as in RULES.md).",
    )(f)
    return f


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="ginsim", message=f"%(prog)s %(version)s, engine {native.status()}")
def cli() -> None:
    """ginsim: play millions of seeded bot-vs-bot Gin Rummy hands and turn them into
    tables and charts.

    \b
    Examples:
      ginsim check 7H 8H 9H 7C 7D 7S 2C 3D KS QS
      ginsim strategies
    """


@cli.command()
@click.argument("cards", nargs=-1, required=True)
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def check(cards: tuple[str, ...], rules_file: str | None, rule_options: tuple[str, ...], as_json: bool) -> None:
    """Show the best melds and deadwood of a hand (the "check knock" button).

    With 11 cards (you just drew) it shows the best discard(s), the deadwood after it and
    whether that allows a knock or gin.

    \b
    Examples:
      ginsim check 7H 8H 9H 7C 7D 7S 2C 3D KS QS
      ginsim check "7H 8H 9H 7C 7D 7S 2C 3D KS QS 4C" --json
      ginsim check AS 2S 3S 4S 5S 6S TH JH QH KH 9C --rule max_run_length=5
    """
    from ginsim.check import check_hand, format_check
    from ginsim.rules import build_rules

    rules = build_rules(rules_file, rule_options)
    report = check_hand(" ".join(cards), rules)
    if as_json:
        click.echo(json.dumps(report))
    else:
        click.echo(format_check(report, color=_color()))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
def strategies(as_json: bool) -> None:
    """List the named strategies with their parameters and defaults.

    Use one as NAME or NAME:key=value,key=value (e.g. threshold:knock_at=4); outside
    code as package.module:Class or path/to/file.py:Class.

    \b
    Example:
      ginsim strategies
    """
    from ginsim.registry import describe_all

    rows = describe_all()
    if as_json:
        click.echo(json.dumps(rows, default=str))
        return
    for row in rows:
        click.echo(f"{row['name']:<12} {row['description']}")
        if row.get("error"):
            continue  # a plugin that cannot load: its parameters are unknown
        params = ", ".join(f"{k}={v}" for k, v in row["parameters"].items()) or "(no parameters)"
        click.echo(f"{'':<12} parameters: {params}")


def run_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by match, roundrobin and sweep."""
    opts = [
        click.option("--hands", type=int, default=None, help="Hands per pairing (default 10000 unless --games)."),
        click.option(
            "--games", type=int, default=None, help="Games to the rules' target_score per pairing, instead of hands."
        ),
        click.option(
            "--seed", type=int, default=0, show_default=True, help="Master seed: fixes every deck and random choice."
        ),
        click.option(
            "--jobs",
            "-j",
            type=click.IntRange(min=1),
            default=None,
            help="Processes (default: every core; 1 runs in this process).",
        ),
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
        click.option(
            "--backend",
            type=click.Choice(["loky", "dask"]),
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
        click.option("--plots/--no-plots", default=True, show_default=True, help="Draw the charts at the end."),
        click.option("--svg", is_flag=True, help="Also write each chart as SVG."),
        click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary."),
    ]
    for opt in reversed(opts):
        f = opt(f)
    from ginsim.cli_isolate import isolate_options

    return isolate_options(rules_options(f))


def _start_run(kind: str, target: dict[str, Any], kw: dict[str, Any]) -> None:
    """Build the plan from the options, play it, write tables and charts, print the digest."""
    from ginsim.launch import RunSettings, launch
    from ginsim.rules import build_rules

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
        stop_rule=kw.get("stop_rule"),
        isolate=kw["isolate"],
        decision_limit=kw["decision_limit"],
    )
    launch(kind, target, settings, echo=click.echo)


@cli.command()
@click.argument("a")
@click.argument("b")
@run_options
@click.option(
    "--sprt",
    default=None,
    metavar="elo0=0,elo1=5[,alpha=0.05,beta=0.05]",
    help="Stop as soon as a sequential probability ratio test on deal pairs decides between H0 (A is elo0 "
    "logistic Elo stronger than B) and H1 (elo1); --hands is then the most to play (default 1000000). "
    "See docs/sprt.md.",
)
def match(a: str, b: str, sprt: str | None, **kw: Any) -> None:
    """Play strategy A against strategy B.

    \b
    Examples:
      ginsim match simple random --hands 20000
      ginsim match threshold:knock_at=6 simple --games 2000 --seed 7
      ginsim match my_bot.py:MyBot simple --hands 100000 --out results/mybot
      ginsim match threshold:knock_at=5 simple --sprt elo0=0,elo1=10
    """
    if sprt is not None:
        from ginsim.sprt import SPRT, SPRT_CHUNK

        kw["stop_rule"] = SPRT.parse(sprt)
        if kw["chunk"] is None:
            kw["chunk"] = SPRT_CHUNK  # small chunks: the test can stop soon after it decides
        if kw["games"] is not None:
            from ginsim.errors import RunError

            raise RunError("--sprt works on duplicate deal pairs: use --hands (the most to play), not --games")
        if not kw["duplicate"]:
            from ginsim.errors import RunError

            raise RunError("--sprt scores duplicate deal pairs: drop --no-duplicate")
        if kw["hands"] is None:
            kw["hands"] = 1_000_000
    _start_run("match", {"a": a, "b": b}, kw)


@cli.command()
@click.argument("strategies", nargs=-1, required=True)
@run_options
def roundrobin(strategies: tuple[str, ...], **kw: Any) -> None:
    """Play every pair of the listed strategies; rate them (Bradley-Terry).

    \b
    Examples:
      ginsim roundrobin random simple threshold:knock_at=4 --hands 20000
      ginsim roundrobin simple threshold:knock_at=0 threshold:knock_at=5 --games 1000
    """
    _start_run("roundrobin", {"strategies": list(strategies)}, kw)


@cli.command()
@click.argument("strategy")
@click.option(
    "--param",
    required=True,
    metavar="NAME=START:STOP[:STEP] | NAME=v1,v2,...",
    help="The parameter to sweep (inclusive range or list).",
)
@click.option("--vs", "versus", multiple=True, required=True, metavar="STRATEGY", help="An opponent (repeatable).")
@run_options
def sweep(strategy: str, param: str, versus: tuple[str, ...], **kw: Any) -> None:
    """Sweep one strategy parameter over a range against fixed opponents.

    \b
    Examples:
      ginsim sweep threshold --param knock_at=0:10 --vs simple
      ginsim sweep threshold --param knock_at=0:10:2 --vs simple --vs random --games 2000
    """
    _start_run("sweep", {"strategy": strategy, "param": param, "versus": list(versus)}, kw)


@cli.command()
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


COMMAND_MODULES = ("ginsim.cli_play", "ginsim.cli_charts", "ginsim.cli_bench")
"""Modules that add commands to the group: each defines ``COMMANDS``, a list of click
commands, and keeps its heavy imports inside the commands."""


def _register() -> None:
    import importlib

    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            continue
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def _color() -> bool:
    return sys.stdout.isatty()


_ARGV: list[str] | None = None


def invocation() -> str:
    """The command line as the user typed it, for manifests."""
    import shlex

    args = _ARGV if _ARGV is not None else sys.argv[1:]
    return "ginsim " + shlex.join(args)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI; input errors become one line and exit status 2."""
    global _ARGV
    _ARGV = list(argv) if argv is not None else sys.argv[1:]
    try:
        cli.main(args=argv, prog_name="ginsim", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.Abort:
        click.echo("ginsim: aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        click.echo(f"ginsim: error: {e.format_message()}", err=True)
        sys.exit(EXIT_USAGE)
    except GinsimError as e:
        click.echo(f"ginsim: error: {e}", err=True)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        click.echo("ginsim: interrupted", err=True)
        sys.exit(130)
