"""The command-line options of tournament mode and of the decision watchdog, shared by
match, roundrobin, sweep and run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ginsim.guard import DEFAULT_DECISION_LIMIT


def isolate_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--isolate`` and ``--decision-limit SECONDS``."""
    f = click.option(
        "--decision-limit",
        type=click.FloatRange(min=0),
        default=DEFAULT_DECISION_LIMIT,
        show_default=True,
        metavar="SECONDS",
        help="Hard limit on one decision of a strategy: past it the strategy forfeits the hand "
        "(0: no limit; the rules' time_per_hand, if shorter, applies). See docs/security.md.",
    )(f)
    f = click.option(
        "--isolate",
        is_flag=True,
        help="Tournament mode: every strategy plays in its own process and sees only a copy of its view; "
        "decks mix in a secret kept in the run folder. For bots you do not trust: see docs/security.md.",
    )(f)
    return f
