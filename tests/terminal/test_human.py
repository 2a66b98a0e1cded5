"""``ginsim play``: a whole scripted game against ``simple`` through the CLI, and the
person's commands (check, refused moves, lay-offs, quit, end of input, the clock).

The script of the whole game is written by a "typist" that plays in-process through the
very same TerminalGame (it reads the person's view to choose each line); the lines are
then piped into ``ginsim play`` with CliRunner, which must print the same transcript.
"""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from support.deals import make_deck

from ginsim.cli import cli, main
from ginsim.engine.cards import CARD_NAMES, cards_of, parse_card
from ginsim.engine.guard import letting_through
from ginsim.engine.layoff import layoff_is_legal
from ginsim.engine.melds import tables_for
from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.terminal.commands import Console, Quit
from ginsim.terminal.game import GameSummary, TerminalGame
from ginsim.terminal.human import HumanPlayer
from ginsim.terminal.textview import Style

TARGET = 60  # a shorter game than 100, still several hands


class Typist:
    """Chooses the person's next line from the person's own view: a check on the first
    prompt, a mistyped command, the illegal discard of a card just taken (R12), a knock
    refused over the limit, then plays like ``simple`` and lays off one card at a time."""

    def __init__(self) -> None:
        self.game: TerminalGame | None = None
        self.lines: list[str] = []
        self.tried: set[str] = set()
        self.laid = 0

    def once(self, what: str) -> bool:
        if what in self.tried:
            return False
        self.tried.add(what)
        return True

    def __call__(self) -> str:
        assert self.game is not None
        human = self.game.human
        line = self.choose(human.view, human.context)
        self.lines.append(line)
        return line

    def choose(self, v: Any, ctx: str) -> str:
        if ctx in ("offer", "draw"):
            self.laid = 0
            if self.once("check"):
                return "check"
            if self.once("typo"):
                return "drwa"
            if v.upcard is not None and v.would_meld(v.upcard):
                return "take"
            return "pass" if ctx == "offer" else "stock"
        if ctx == "discard":
            if v.drawn_from_pile and self.once("r12"):
                return f"discard {CARD_NAMES[v.drawn]}"
            dw, best = v.best_discards()
            card = CARD_NAMES[min(cards_of(best))]
            if dw > v.rules.knock_limit and self.once("knock over the limit"):
                return f"knock {card}"
            return f"knock {card}" if dw <= v.rules.knock_limit else f"discard {card}"
        if ctx == "layoff":
            tables = tables_for(v.rules.max_run_length)
            for c in cards_of(v.hand & ~self.laid):
                if layoff_is_legal(self.laid | 1 << c, v.knocker_melds, tables):
                    self.laid |= 1 << c
                    return f"layoff {CARD_NAMES[c]}"
            return "done"
        if ctx == "big_gin":
            return "yes"
        raise AssertionError(f"unexpected prompt {ctx!r}")


def typed_game(seed: int) -> tuple[GameSummary, list[str], str]:
    out: list[str] = []
    typist = Typist()

    def write(text: str, nl: bool = True) -> None:
        out.append(text + ("\n" if nl else ""))

    rules = Rules().with_values({"target_score": TARGET})
    game = TerminalGame(rules, parse_spec("simple"), seed, Console(typist, write, Style(False), echo_input=True))
    typist.game = game
    return game.run(), typist.lines, "".join(out)


@pytest.fixture(scope="module")
def scripted() -> tuple[int, list[str], str]:
    """The first seed whose typed game has a knock by the person, a lay-off and the R12 refusal."""
    for seed in range(40):
        summary, lines, text = typed_game(seed)
        if (
            summary.ended == "target"
            and any(line.startswith("layoff") for line in lines)
            and "You knock" in text
            and "it may not be discarded this turn" in text
        ):
            return seed, lines, text
    raise AssertionError("no seed in 0..39 gives a game with a knock, a lay-off and a refused discard")


def test_whole_scripted_game_through_the_cli(scripted: tuple[int, list[str], str]) -> None:
    seed, lines, text = scripted
    result = CliRunner().invoke(
        cli, ["play", "--seed", str(seed), "--rule", f"target_score={TARGET}"], input="\n".join(lines) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert result.output == text  # the same game, move for move
    out = result.output
    assert f"Gin Rummy against simple to {TARGET} points" in out
    assert "> check\nhand " in out and "deadwood" in out  # the check report
    assert "No: unknown command 'drwa'" in out
    assert "it may not be discarded this turn" in out  # R12 refused, and the prompt came back
    assert "No: cannot knock discarding" in out and "over the knock limit" in out
    assert "You knock" in out and "simple knocks" in out
    assert "simple knocked. Lay off cards on its melds" in out and "laid off" in out
    assert "--- End of hand 1 ---" in out and "Totals: You " in out
    assert "win the game" in out or "wins the game" in out
    assert "\x1b[" not in out  # no colour when the output is not a terminal
    assert "Traceback" not in out


def test_a_discard_on_the_first_turn_offer_says_take_or_pass() -> None:
    result = CliRunner().invoke(cli, ["play", "--seed", "3"], input="discard 8C\nstock\ndiscard 8C\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "No: the first-turn offer comes first: take 8C or pass." in out
    assert "No: on the first-turn offer take 8C or pass; the stock comes after both players pass." in out


def test_check_and_refusals_keep_the_turn() -> None:
    script = "check\ntake\ndiscard 5D\nstock\ndiscard\ndiscard QQ\ndiscard KS KH\nhand\nquit\nno\nquit\nyes\n"
    result = CliRunner().invoke(cli, ["play", "--seed", "3"], input=script)
    out = result.output
    assert result.exit_code == 0, out
    assert "take 8C  then discard" in out  # check before drawing says what the upcard would give
    assert "No: you have drawn: discard a card" in out
    assert "No: name one card" in out
    assert "No: bad card 'QQ'" in out
    assert "No: one card at a time" in out
    assert out.count("Quit the game? yes or no.") == 2
    assert "Not quitting." in out
    assert "Game stopped (quit) in hand 1: You 0, simple 0." in out


def test_end_of_input_ends_the_game_cleanly() -> None:
    result = CliRunner().invoke(cli, ["play", "--seed", "5", "--vs", "random"], input="check\n")
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("Game stopped (end of input) in hand 1: You 0, random 0.")
    empty = CliRunner().invoke(cli, ["play", "--seed", "5"], input="")
    assert empty.exit_code == 0 and "Game stopped (end of input)" in empty.output
    confirm = CliRunner().invoke(cli, ["play", "--seed", "5"], input="quit\n")
    assert confirm.exit_code == 0 and "Game stopped (end of input)" in confirm.output


def test_the_seed_fixes_the_deals() -> None:
    a = CliRunner().invoke(cli, ["play", "--seed", "11"], input="hand\n").output
    b = CliRunner().invoke(cli, ["play", "--seed", "11"], input="hand\n").output
    c = CliRunner().invoke(cli, ["play", "--seed", "12"], input="hand\n").output
    assert a == b and a != c
    unseeded = CliRunner().invoke(cli, ["play"], input="").output
    assert "seed " in unseeded.splitlines()[0]


def test_clock_is_shown() -> None:
    result = CliRunner().invoke(cli, ["play", "--seed", "2", "--clock", "90"], input="hand\n")
    assert result.exit_code == 0
    assert "Clock: 90s per player per hand" in result.output
    assert "your clock " in result.output and "left of 90s" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "--vs", "nosuchbot"], "unknown strategy 'nosuchbot'"),
        (["play", "--clock", "-1"], "time_per_hand"),
        (["play", "--rule", "knock_limit=99"], "knock_limit"),
        (["play", "--seed", "-4"], "--seed"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err


def test_help_has_examples() -> None:
    for name in ("play", "replay"):
        result = CliRunner().invoke(cli, [name, "--help"])
        assert result.exit_code == 0 and "Example" in result.output


def _seat_person(script: list[str], rules: Rules, deck: list[int], dealer: int) -> tuple[Any, str]:
    """Play one hand with the person (seat 0) answering from ``script`` against simple."""
    lines = iter(script)
    out: list[str] = []
    console = Console(lambda: next(lines, None), lambda t, nl=True: out.append(t + ("\n" if nl else "")), Style(), True)
    person = HumanPlayer(console, ("You", "simple"), rules.target_score)
    result = play_hand(rules, (person, parse_spec("simple").build()), deck, dealer)
    return result, "".join(out)


def test_layoff_commands_against_a_first_turn_knock() -> None:
    # simple (non-dealer) takes JS for 9S TS JS, discards KH and knocks with 3H (3 deadwood)
    deck = make_deck(nondealer="2C 3C 4C 5D 6D 7D 9S TS 3H KH", dealer="5C 6C 4D 8D 8S QS AH AD 7H 9H", upcard="JS")
    script = ["done?", "layoff 6C", "layoff 5C 6C", "undo", "layoff ZZ", "layoff 7H", "check", "take", "auto"]
    result, out = _seat_person(script, Rules(), deck, dealer=0)
    assert "simple knocks" in out and "simple's melds  [2C 3C 4C] [5D 6D 7D] [9S TS JS]" in out
    assert "No: 6C does not fit on simple's melds." in out  # 6C needs 5C first
    assert "laid off 5C 6C: your deadwood is now" in out
    assert "took back 6C" in out
    assert "No: bad card 'ZZ'" in out
    assert "No: 7H does not fit on simple's melds with the cards laid off so far." in out
    assert "lay-offs  best: 5C 6C 4D 8D 8S QS" in out  # check facing a knock
    assert "No: simple has knocked" in out
    assert "auto: laying off 5C 6C 4D 8D 8S QS" in out
    assert result.outcome == "knock" and result.layoff_cards == 6
    assert result.defender_deadwood_after == 18 and result.points == 15  # AH AD 7H 9H against 3H


def test_big_gin_is_asked_when_on() -> None:
    deck = make_deck(nondealer="AH 2H 3H 4H 5H 6H 7H 8H 9H TH", upcard="JH")
    result, out = _seat_person(["take", "check", "maybe", "yes"], Rules(big_gin_bonus=31), deck, dealer=1)
    assert "All 11 of your cards meld: big gin (31 + deadwood)? yes or no." in out
    assert "big gin   yes: all 11 cards meld" in out
    assert "No: unknown command 'maybe'" in out
    assert result.outcome == "big_gin" and result.winner == 0


def test_the_person_who_runs_out_of_clock_loses_the_game() -> None:
    import time

    deck = make_deck(nondealer="2C 3C 4C 5D 6D 7D 9S TS 3H KH", dealer="5C 6C 4D 8D 8S QS AH AD 7H 9H", upcard="JS")
    out: list[str] = []

    def slow_read() -> str:
        time.sleep(0.12)
        return "pass"

    console = Console(slow_read, lambda t, nl=True: out.append(t + ("\n" if nl else "")), Style(), True)
    person = HumanPlayer(console, ("You", "simple"), 100)
    rules = Rules(time_per_hand=0.1)
    result = play_hand(rules, (person, parse_spec("simple").build()), deck, dealer=1)
    assert result.outcome == "forfeit" and result.forfeit_seat == 0 and result.forfeit_kind == "clock"
    from ginsim.terminal.textview import result_lines

    first = result_lines(Style(), result, ("You", "simple"), rules)[0]
    assert first.startswith("You forfeit the hand and the game (clock: used ")
    assert first.count("clock") == 1


def test_check_colours_cards_as_the_table_does() -> None:
    from ginsim.terminal.check import check_hand, format_check

    text = format_check(check_hand("AS 2S 3S 4C 5C 6C 7D 8D 9D KH QS", Rules()), color=True)
    style = Style(color=True)
    assert style.card(parse_card("QS")) in text  # QS as the table shows it, in the terminal's own colour
    assert "\x1b[37m" not in text  # no white text (unreadable on a light terminal)
    assert style.card(parse_card("KH")) in text.splitlines()[2]  # KH coloured in the deadwood line too
    assert format_check(check_hand("AS 2S", Rules())).startswith("hand      AS 2S  (2 cards)")
    assert "(1 card)" in format_check(check_hand("AS", Rules()))


def test_table_shows_the_pile_what_the_bot_is_known_to_hold_and_why_you_draw() -> None:
    # both pass the first upcard KS: the person (non-dealer) draws from the stock, told why
    deck = make_deck(
        nondealer="2C 5C 8C JC 3D 6D 9D QD 4H 7H", dealer="AS 2S 3S 5H 6H 9H TH KH 4C 7C", upcard="KS", stock="8D 8H"
    )
    lines = iter(["pass", "discard 2C", "hand", "quit", "yes"])
    out: list[str] = []
    console = Console(lambda: next(lines, None), lambda t, nl=True: out.append(t + ("\n" if nl else "")), Style(), True)
    person = HumanPlayer(console, ("You", "simple"), 100)
    with pytest.raises(Quit), letting_through(Quit):  # the person's quit passes the engine's guard
        play_hand(Rules(), (person, parse_spec("simple").build()), deck, 1)
    text = "".join(out)
    assert "  - Both passed the upcard: You draw 8D from the stock" in text
    table = text[text.rindex("> hand") :]
    pile = table.split("pile, bottom to top  ")[1].split("\n")[0].split()
    assert pile[:2] == ["KS", "2C"]  # the whole pile, bottom first
    assert "simple holds none (taken from the pile) | passed on 2C KS | discarded KH" in table


def test_layoffs_show_the_knockers_unmatched_cards() -> None:
    deck = make_deck(nondealer="2C 3C 4C 5D 6D 7D 9S TS 3H KH", dealer="5C 6C 4D 8D 8S QS AH AD 7H 9H", upcard="JS")
    _, out = _seat_person(["auto"], Rules(), deck, dealer=0)
    assert "simple's unmatched cards  3H (deadwood 3)" in out


@pytest.mark.parametrize("width", [20, 33, 60])
def test_lines_wrap_at_spaces_to_the_width(width: int) -> None:
    from ginsim.terminal.textview import visible_len, wrap_text

    style = Style(color=True)
    line = "  simple holds " + " ".join(style.card(c) for c in range(20)) + " | passed on nothing-at-all-here"
    wrapped = wrap_text(line, width).split("\n")
    assert len(wrapped) > 1
    words = [w for part in wrapped for w in part.split()]
    assert words == line.split()  # no word broken, none lost
    for part in wrapped:
        assert visible_len(part) <= width or len(part.split()) == 1  # colour codes do not count
    assert all(part.startswith("    ") for part in wrapped[1:])  # continuation indented
