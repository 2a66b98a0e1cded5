"""``ginsim check`` and ``ginsim strategies``: answers that need no run."""

from __future__ import annotations

import json

import click

from ginsim.cli.options import color, rules_options


@click.command()
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
    from ginsim.engine.rules import build_rules
    from ginsim.terminal.check import check_hand, format_check

    rules = build_rules(rules_file, rule_options)
    report = check_hand(" ".join(cards), rules)
    if as_json:
        click.echo(json.dumps(report))
    else:
        click.echo(format_check(report, color=color()))


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
def strategies(as_json: bool) -> None:
    """List the named strategies with their parameters and defaults.

    Use one as NAME or NAME:key=value,key=value (e.g. threshold:knock_at=4); outside
    code as package.module:Class or path/to/file.py:Class.

    \b
    Example:
      ginsim strategies
    """
    from ginsim.engine.registry import describe_all

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


COMMANDS = [check, strategies]
