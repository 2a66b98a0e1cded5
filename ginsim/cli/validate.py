"""``ginsim validate SPEC``: the strategy contract (ginsim.run.contract) on any strategy, with
a verdict per check and, for a failure, the hand and the commands that show it."""

from __future__ import annotations

import sys

import click

from ginsim.cli.options import decision_limit_option, rules_options, seed_option


@click.command()
@click.argument("spec")
@click.option(
    "--hands",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Deals per opponent, each played twice with the seats swapped.",
)
@click.option(
    "--vs",
    "versus",
    multiple=True,
    metavar="STRATEGY",
    help="An opponent (repeatable; default: random and simple).",
)
@seed_option("Master seed of the hands (as for ginsim match).")
@decision_limit_option(
    "Limit on one decision (past it the hand is forfeited and the check fails) and on loading or "
    "building a strategy (past it the command stops with one line); 0: no limit."
)
@rules_options
def validate(
    spec: str,
    hands: int,
    versus: tuple[str, ...],
    seed: int,
    decision_limit: float,
    rules_file: str | None,
    rule_options: tuple[str, ...],
) -> None:
    """Check that strategy SPEC keeps the contract: legal moves only, never changes its
    view, reproducible under a seed (randomness only from view.rng).

    Plays --hands deals against random and simple, in both seats, and prints a verdict
    per check; a failure names the hand and the commands that replay it. Exit status 1
    when a check fails.

    \b
    Examples:
      ginsim validate simple
      ginsim validate my_bot.py:MyBot --hands 300
    """
    from ginsim.engine.rules import build_rules
    from ginsim.run.contract import check_strategy

    rules = build_rules(rules_file, rule_options)
    rules_args = (["--rules", rules_file] if rules_file else []) + [a for r in rule_options for a in ("--rule", r)]
    report = check_strategy(
        spec,
        hands=hands,
        seed=seed,
        rules=rules,
        opponents=versus or ("random", "simple"),
        rules_args=rules_args,
        decision_limit=decision_limit,
    )
    click.echo(f"{report.spec}: {hands} deals per opponent, both seats, seed {seed}")
    for v in report.verdicts:
        click.echo(f"  {'PASS' if v.passed else 'FAIL'}  {v.check}: {v.detail}")
        if v.deal is not None:
            d = v.deal
            click.echo(f"        hand: vs {d.opponent}, deal {d.deal} (seed {seed}), seat {d.seat}; to watch it:")
            click.echo(f"        {report.replay(d)}")
    click.echo("ok: the strategy keeps the contract" if report.passed else "failed: see the checks above")
    if not report.passed:
        sys.exit(1)


COMMANDS = [validate]
