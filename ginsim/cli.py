"""The ``ginsim`` command line: one click group, thin commands, logic in the library.

Heavy imports (pandas, matplotlib, joblib) happen inside the commands that need them so
``ginsim --help`` stays instant. Every input mistake is one line on stderr and exit 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from ginsim import __version__
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
@click.version_option(__version__, prog_name="ginsim")
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
        params = ", ".join(f"{k}={v}" for k, v in row["parameters"].items()) or "(no parameters)"
        click.echo(f"{row['name']:<12} {row['description']}")
        click.echo(f"{'':<12} parameters: {params}")


def _color() -> bool:
    return sys.stdout.isatty()


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI; input errors become one line and exit status 2."""
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
