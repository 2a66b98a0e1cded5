"""``ginsim play``, ``ginsim replay`` and ``ginsim moves``: thin click commands over
ginsim.terminal.game, ginsim.terminal.replay (with replaytext) and ginsim.terminal.moves."""

from __future__ import annotations

import secrets
import shutil
import sys
from pathlib import Path

import click

from ginsim.cli.options import color, rules_options, seed_option


@click.command()
@click.option(
    "--vs", "versus", default="simple", show_default=True, metavar="STRATEGY", help="The bot to play against."
)
@seed_option("Fixes every deal and the bot's random choices (default: a new seed, printed at the start).", None)
@rules_options
@click.option(
    "--clock",
    type=float,
    default=None,
    metavar="SECONDS",
    help="Thinking time per player per hand (rule time_per_hand, R25); whoever runs out loses the game.",
)
def play(
    versus: str, seed: int | None, rules_file: str | None, rule_options: tuple[str, ...], clock: float | None
) -> None:
    """Play a game of Gin Rummy to the target score against a bot, in the terminal.

    You are seat 0; the bot sees only its own view, as in a tournament. Commands: take,
    pass, stock, discard 7H, knock 7H, check, layoff 9S / done / auto, hand, help, quit.
    Input may be piped, one command a line; the end of input ends the game.

    \b
    Examples:
      ginsim play
      ginsim play --vs threshold:knock_at=4 --seed 7
      ginsim play --vs random --rule target_score=50 --clock 120
      printf 'check\\nquit\\nyes\\n' | ginsim play --seed 1
    """
    from ginsim.engine.guard import DEFAULT_DECISION_LIMIT, UNSET_LIMIT_NAMES, checking
    from ginsim.engine.rules import build_rules
    from ginsim.engine.spec import parse_spec
    from ginsim.errors import GinsimError
    from ginsim.terminal.commands import Console
    from ginsim.terminal.game import TerminalGame
    from ginsim.terminal.textview import Style, wrap_text

    rules = build_rules(rules_file, rule_options)
    if clock is not None:
        rules = rules.with_values({"time_per_hand": clock}, "--clock")
    try:
        with checking(DEFAULT_DECISION_LIMIT):  # a bot that never finishes loading: one line, as before a run
            spec = parse_spec(versus)
    except GinsimError as e:
        raise type(e)(e.message(UNSET_LIMIT_NAMES)) from None
    stdin = sys.stdin

    def read() -> str | None:
        line = stdin.readline()
        return line.rstrip("\r\n") if line else None

    wrap = sys.stdout.isatty()  # a terminal has a width; a pipe or a file keeps whole lines

    def write(text: str, nl: bool = True) -> None:  # wrapped to the terminal, at spaces only
        width = shutil.get_terminal_size((100, 24)).columns - 1 if wrap else 0
        click.echo(wrap_text(text, width), nl=nl)

    console = Console(read, write, Style(color()), echo_input=not stdin.isatty())
    TerminalGame(rules, spec, secrets.randbelow(2**31) if seed is None else seed, console).run()


@click.command()
@click.argument("folder", type=click.Path(path_type=Path))
@click.option(
    "--hand", "hand", type=int, default=None, metavar="N", help="Row of the run's hand log, from 0, in log order."
)
@click.option(
    "--first",
    type=click.Choice(["forfeit", "undercut", "gin", "big_gin", "draw", "knock"]),
    default=None,
    help="Instead of --hand: the first hand that ended so.",
)
@click.option(
    "--where",
    default=None,
    metavar="CONDITION",
    help="Instead of --hand: the first hand matching a pandas condition over the hand log's columns, "
    "e.g. \"outcome == 'forfeit' and points > 20\" or \"winner_name == 'simple' and turns > 30\".",
)
@click.option(
    "--seat",
    type=click.IntRange(0, 1),
    default=None,
    help="Show only what this seat saw: its view at each of its decisions.",
)
@click.option(
    "--html",
    "html",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Write the hand as one self-contained web page to step through (no server, works from file://).",
)
def replay(
    folder: Path, hand: int | None, first: str | None, where: str | None, seat: int | None, html: Path | None
) -> None:
    """Re-play hand N of a run from its seed and print it move by move.

    N is the row of the hand log (the chunk files in order, 0 first); --first and --where
    pick the first hand by what happened in it. The replayed result is checked against
    the log; a mismatch is an error. A forfeit's traceback and view are shown after it.

    \b
    Examples:
      ginsim replay results/match-20261129-101500 --hand 0
      ginsim replay results/mybot --hand 1234 --seat 1
      ginsim replay results/mybot --first forfeit
      ginsim replay results/mybot --where "outcome == 'undercut' and points > 20"
      ginsim replay results/mybot --hand 7 --html hand7.html
    """
    from ginsim.terminal.replay import replay_hand
    from ginsim.terminal.replaytext import replay_text, seat_text
    from ginsim.terminal.runlog import RunLog
    from ginsim.terminal.textview import Style

    if hand is not None and (first or where):
        raise click.UsageError("give --hand N, or --first / --where, not both")
    if hand is None:
        if not first and not where:
            raise click.UsageError("say which hand: --hand N, --first OUTCOME or --where CONDITION")
        from ginsim.analysis.handlog import select_hand

        hand = select_hand(folder, first, where)
    run = RunLog(folder)
    result = replay_hand(run, hand, seat)
    if html is not None:
        from ginsim.runfolder.atomic import write_text_atomic
        from ginsim.web.page import replay_page
        from ginsim.web.steps import hand_steps

        write_text_atomic(html, replay_page(hand_steps(result, folder, seat)))
        click.echo(f"Wrote {html}: hand {hand} of {folder}, {len(result.log)} events; open it in a browser.")
        return
    style = Style(color())
    lines = replay_text(result, folder, style) if seat is None else seat_text(result, seat, folder, style)
    for line in lines:
        click.echo(line)
    if result.result.outcome == "forfeit":
        for line in _forfeit_lines(folder, hand):
            click.echo(line)


def _forfeit_lines(folder: Path, row: int) -> list[str]:
    """The traced forfeit of hand ``row`` (forfeits/ in the run folder), as text."""
    from ginsim.runfolder.forfeit_files import read_forfeit_details

    rec = next((r for r in read_forfeit_details(folder) if r["row"] == row), None)
    if rec is None:
        return ["", "(no traceback kept for this forfeit: the run predates forfeits/ or traced no more of its chunk)"]
    out = ["", f"Forfeit of seat {rec['seat']} ({rec['strategy']}), kept in {folder / rec['file']}:"]
    out.append(f"  {rec['kind']}: {rec['reason']}")
    if rec.get("decision"):
        out.append(f"  decision: {rec['decision']}" + (f", answered {rec['answer']}" if rec.get("answer") else ""))
    if rec.get("note"):
        out.append(f"  note: {rec['note']}")
    if rec.get("traceback"):
        out += ["", *("  " + line for line in rec["traceback"].rstrip().splitlines())]
    if rec.get("view"):
        out += ["", "  its view at that decision:", *("    " + line for line in rec["view"].splitlines())]
    return out


@click.command()
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--hands", default=None, metavar="ROWS", help="Rows of the hand log: N, N,M,... or A:B (A to B-1).")
@click.option(
    "--where",
    default=None,
    metavar="CONDITION",
    help="Instead of --hands: the hands matching a pandas condition over the hand log's columns, "
    'e.g. "outcome == \'undercut\'" or "turns > 30".',
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="The file to write (default FOLDER/moves.parquet; a name ending in .csv writes CSV).",
)
def moves(folder: Path, hands: str | None, where: str | None, out: Path | None) -> None:
    """Write every decision of a run's hands (all, or those chosen), one row each: hand,
    turn, seat, strategy, phase, action, card, deadwood after, stock size, and the cards
    the seat could see. Each hand is replayed from the seeds and checked against the hand
    log. Load it with pandas.read_parquet.

    \b
    Examples:
      ginsim moves results/match-20261204-101500
      ginsim moves results/<run> --hands 0:1000 --out first1000.parquet
      ginsim moves results/<run> --where "outcome == 'undercut'" --out undercuts.csv
    """
    from ginsim.terminal.moves import write_moves

    target = out if out is not None else folder / "moves.parquet"
    rows = write_moves(folder, target, hands, where)
    click.echo(f"wrote {rows:,} decisions to {target}")


COMMANDS = [play, replay, moves]
