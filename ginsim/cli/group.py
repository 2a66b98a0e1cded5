"""The ``ginsim`` command line: one click group, thin commands, logic in the library.

Each command family is a module of this package listing its click commands in
``COMMANDS``; shared options live in ginsim.cli.options. Heavy imports (pandas,
matplotlib, joblib) happen inside the commands that need them so ``ginsim --help`` stays
instant. Every input mistake is one line on stderr and exit 2.
"""

from __future__ import annotations

import sys

import click

from ginsim.cli import bench, charts, info, play, rules, runs
from ginsim.cli.options import EXIT_USAGE, set_argv
from ginsim.engine import _native as native
from ginsim.errors import GinsimError
from ginsim.version import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="ginsim", message=f"%(prog)s %(version)s, engine {native.status()}")
@click.option(
    "--engine",
    type=click.Choice(["auto", "general"]),
    default="auto",
    show_default=True,
    help="auto: built-in policies play through the fast path; general: every hand through play_hand.",
)
def cli(engine: str) -> None:
    """ginsim: play millions of seeded bot-vs-bot Gin Rummy hands and turn them into
    tables and charts.

    \b
    Examples:
      ginsim check 7H 8H 9H 7C 7D 7S 2C 3D KS QS
      ginsim strategies
      ginsim --engine general run experiments/knock_sweep.toml
    """
    if engine == "general":
        import os

        os.environ["GINSIM_GENERAL"] = "1"  # ginsim.run.worker reads it, in every worker process


for _module in (info, rules, runs, charts, play, bench):
    for _command in _module.COMMANDS:
        cli.add_command(_command)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI; input errors become one line and exit status 2."""
    set_argv(list(argv) if argv is not None else sys.argv[1:])
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
