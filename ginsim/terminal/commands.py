"""The person's commands in ``ginsim play``: the console they are read from, their words
and aliases, the help, and naming a card; kept apart so the seat only decides."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ginsim.engine.cards import CARD_NAMES, Card, parse_card
from ginsim.engine.view import PlayerView
from ginsim.errors import CardError
from ginsim.terminal.textview import Style


class Quit(BaseException):  # the engine lets it through (guard.letting_through), never a bot's
    """The person quit, or the input ended: stops the game from inside a decision."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class Refused(Exception):
    """A command that does not fit now; its message is shown and the prompt comes back."""


AGAIN = object()
"""A command's answer that asks for the prompt again (help, check, a card laid off)."""
ALIASES = {
    "t": "take", "p": "pass", "s": "stock", "draw": "stock", "d": "discard", "k": "knock", "l": "layoff",
    "?": "help", "h": "help", "q": "quit", "exit": "quit", "show": "hand", "y": "yes", "n": "no",
}  # fmt: skip
HELP = """Commands (a card is rank A 2-9 T J Q K, 10 also works, then suit C D H S: 7H TD 10s):
  take          take the upcard (the top of the discard pile)
  pass          on the first-turn offer: leave the upcard
  stock         draw the top card of the stock (also: draw)
  discard 7H    discard a card (or just type 7H)
  knock 7H      discard 7H and knock: the deadwood left must be at most the knock limit
  check         best melds, deadwood, best discards, whether a knock or gin is possible
  layoff 9S     when the bot has knocked: lay a card off on its melds; then done
                (auto lays off the best cards and ends; undo takes the last one back)
  hand          show the table again
  help          this list
  quit          stop the game (asks to confirm)"""


@dataclass
class Console:
    """Where the game reads lines (None at the end of input) and writes text."""

    read: Callable[[], str | None]
    write: Callable[..., None]  # write(text, nl=True)
    style: Style
    echo_input: bool = False  # write each line read after the prompt (piped input)


def parse_command(words: list[str], context: str) -> tuple[str, list[str]]:
    """The command and its arguments in the words of a line: aliases spelled out, and a
    bare card when discarding read as ``discard`` that card."""
    cmd = ALIASES.get(words[0].lower(), words[0].lower())
    args = words[1:]
    if context == "discard" and _is_card(words[0]):
        cmd, args = "discard", words
    return cmd, args


def card_named(view: PlayerView, args: list[str], layoff: bool = False) -> Card:
    """The one card ``args`` names, in the hand of ``view`` and (unless laid off) legal to
    discard; Refused with the reason otherwise."""
    if len(args) != 1:
        raise Refused("name one card, e.g. 7H" if not args else "one card at a time")
    try:
        c = parse_card(args[0])
    except CardError as e:
        raise Refused(str(e)) from None
    if not view.hand >> c & 1:
        raise Refused(f"{CARD_NAMES[c]} is not in your hand")
    if not layoff and not view.legal_discards() >> c & 1:
        raise Refused(f"{CARD_NAMES[c]} was just taken from the discard pile: it may not be discarded this turn")
    return c


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except CardError:
        return False
    return True
