"""Play a game against a bot in the terminal (``ginsim play``).

The person is a Strategy whose decisions read lines of text, so the engine, its checks
and the bot's PlayerView are exactly those of a tournament. Input is plain lines, typed
or piped; a mistyped or illegal command gets one line saying why and the prompt again.
The text helpers at the top (cards, hands, events, the end of a hand) serve ``replay`` too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ginsim.engine.cards import CARD_NAMES, Card, Mask, cards_of, format_cards, parse_card, sort_key
from ginsim.engine.game import MAX_HANDS_PER_GAME, Game
from ginsim.engine.guard import letting_through
from ginsim.engine.layoff import best_layoff, layoff_is_legal
from ginsim.engine.melds import tables_for
from ginsim.engine.playhand import play_hand
from ginsim.engine.registry import StrategySpec
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import OFFER, Event, PlayerView
from ginsim.errors import CardError
from ginsim.run.seeding import deck_for, game_deal_seed, strategy_seed, text_key
from ginsim.terminal.check import check_hand, format_check
from ginsim.terminal.textview import Style, conj, event_text, hand_lines, result_lines, union

# -- the person at the table -------------------------------------------------------------


class Quit(BaseException):  # the engine lets it through (guard.letting_through), never a bot's
    """The person quit, or the input ended: stops the game from inside a decision."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class _Refused(Exception):
    """A command that does not fit now; its message is shown and the prompt comes back."""


_AGAIN = object()
_ALIASES = {
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


class HumanPlayer(Strategy):
    """Seat 0 of ``ginsim play``: every decision is read from the console."""

    name = "you"
    description = "a person at the terminal"

    def __init__(self, console: Console, names: tuple[str, str], target: int) -> None:
        self.console = console
        self.names = names
        self.target = target
        self.view: PlayerView | None = None
        self.context = ""  # offer, draw, discard, layoff, big_gin, confirm: for scripted input
        self.hand_number = 0
        self.used = 0.0  # own thinking time this hand (R25)
        self._t0 = 0.0  # when the current decision began
        self._deciding = False
        self._knock = False
        self._passes = 0  # passes on the first upcard this hand

    def new_hand(self, number: int) -> None:
        self.hand_number = number
        self.used = 0.0
        self.view = None
        self._passes = 0

    # -- the engine's questions ----------------------------------------------------------
    def observe(self, view: PlayerView, event: Event) -> None:
        self.view = view
        text = event_text(self.console.style, event, self.names)
        if event[1] == "pass":
            self._passes += 1
        elif event[1] == "draw" and self._passes == 2:  # R10: both passed, the non-dealer draws
            self._passes = 0
            text = "Both passed the upcard: " + text
        else:
            self._passes = 0
        self.console.write("  - " + text)

    def take_upcard(self, view: PlayerView) -> bool:
        self._start()
        offer = view.phase == OFFER
        up = self.console.style.card(view.upcard) if view.upcard is not None else "nothing"

        def act(cmd: str, _args: list[str]) -> object:
            if cmd == "take":
                if view.upcard is None:
                    raise _Refused("the discard pile is empty: draw from the stock (stock)")
                return True
            if cmd == "pass":
                if offer:
                    return False
                raise _Refused("pass is only for the first-turn offer: take the upcard or draw from the stock (stock)")
            if cmd == "stock":
                if not offer:
                    return False
                raise _Refused(f"on the first-turn offer take {up} or pass; the stock comes after both players pass")
            if cmd in ("discard", "knock"):
                if offer:
                    raise _Refused(f"the first-turn offer comes first: take {up} or pass")
                raise _Refused(f"draw first: take {up} or draw from the stock (stock)")
            return None

        if offer:
            prompt = f"Your turn, the first-turn offer: take {up} or pass."
        else:
            prompt = f"Your turn: take {up} from the discard pile, or draw from the stock (stock)."
        self._table(view)
        return bool(self._decide(view, "offer" if offer else "draw", prompt, act))

    def discard(self, view: PlayerView) -> Card:
        self._start()

        def act(cmd: str, args: list[str]) -> object:
            if cmd in ("take", "pass", "stock"):
                raise _Refused("you have drawn: discard a card (discard 7H) or knock (knock 7H)")
            if cmd in ("discard", "knock"):
                card = self._card(view, args)
                if cmd == "knock" and not view.can_knock(card):
                    raise _Refused(
                        f"cannot knock discarding {CARD_NAMES[card]}: deadwood {view.deadwood_after(card)} is over "
                        f"the knock limit {view.knock_limit} (check shows the best discard)"
                    )
                self._knock = cmd == "knock"
                return card
            return None

        s = self.console.style
        hand, melds = hand_lines(s, view.hand, tables_for(view.rules.max_run_length))
        self.console.write(f"  your hand    {hand}\n               {melds}")
        note = ""
        if view.drawn_from_pile and view.drawn is not None and not view.rules.allow_discard_of_drawn_upcard:
            note = f" ({s.card(view.drawn)} just came from the pile: not this turn)"
        return int(self._decide(view, "discard", f"Discard a card (discard X), or knock X{note}.", act))  # type: ignore[call-overload]

    def knock(self, view: PlayerView) -> bool:
        return self._knock

    def choose_layoffs(self, view: PlayerView) -> Mask | None:
        self._start()
        s = self.console.style
        melds = view.knocker_melds
        tables = tables_for(view.rules.max_run_length)
        laid: list[Card] = []
        opp = self.names[1]

        def fits() -> list[Card]:
            m = union([1 << c for c in laid])
            return [c for c in cards_of(view.hand & ~m) if layoff_is_legal(m | 1 << c, melds, tables)]

        def act(cmd: str, args: list[str]) -> object:
            m = union([1 << c for c in laid])
            if cmd == "layoff":
                if not args:
                    raise _Refused("which card? e.g. layoff 9S")
                for text in args:
                    c = self._card(view, [text], layoff=True)
                    if c in laid:
                        raise _Refused(f"{CARD_NAMES[c]} is laid off already")
                    if not layoff_is_legal(m | 1 << c, melds, tables):
                        where = " with the cards laid off so far" if laid else ""
                        raise _Refused(f"{CARD_NAMES[c]} does not fit on {opp}'s melds{where}")
                    laid.append(c)
                    m |= 1 << c
                dw = tables.deadwood_mask(view.hand & ~m)
                self.console.write(f"  laid off {s.cards(m)}: your deadwood is now {dw}")
                return _AGAIN
            if cmd == "undo":
                if not laid:
                    raise _Refused("nothing is laid off yet")
                self.console.write(f"  took back {s.card(laid.pop())}")
                return _AGAIN
            if cmd == "done":
                return m
            if cmd == "auto":
                dw, best = best_layoff(view.hand, melds, tables)
                self.console.write(f"  auto: laying off {s.cards(best)}: your deadwood is {dw}")
                return best
            if cmd in ("take", "pass", "stock", "discard", "knock"):
                raise _Refused(f"{opp} has knocked: lay off (layoff 9S), then done; or auto")
            return None

        self._table(view)
        self.console.write(f"  {opp}'s melds  {s.melds(melds)}")
        if view.knocker_deadwood_cards:  # R16: the knocker shows its unmatched cards too
            self.console.write(
                f"  {opp}'s unmatched cards  {s.cards(view.knocker_deadwood_cards)} (deadwood {view.knocker_deadwood})"
            )
        fit = fits()
        hint = f"fits now: {' '.join(s.card(c) for c in fit)}" if fit else "none of your cards fits"
        prompt = (
            f"{opp} knocked. Lay off cards on its melds: layoff X ({hint}), then done; auto lays off the best and ends."
        )
        return self._decide(view, "layoff", prompt, act)  # type: ignore[return-value]

    def take_big_gin(self, view: PlayerView) -> bool:
        self._start()

        def act(cmd: str, _args: list[str]) -> object:
            if cmd in ("yes", "gin"):
                return True
            if cmd == "no":
                return False
            return None

        prompt = f"All 11 of your cards meld: big gin ({view.rules.big_gin_bonus} + deadwood)? yes or no."
        return bool(self._decide(view, "big_gin", prompt, act))

    # -- reading and answering --------------------------------------------------------------
    def _decide(self, view: PlayerView, context: str, prompt: str, act: Callable[[str, list[str]], object]) -> Any:
        """Prompt until a command fits; the time since ``_start`` counts on the clock."""
        self.view = view
        try:
            self.console.write(prompt)
            while True:
                words = self._read(context).split()
                if not words:
                    self.console.write("Type a command (help lists them).")
                    continue
                cmd = _ALIASES.get(words[0].lower(), words[0].lower())
                args = words[1:]
                if context == "discard" and _is_card(words[0]):
                    cmd, args = "discard", words
                try:
                    answer = act(cmd, args)
                    if answer is None:
                        answer = self._common(view, context, cmd, args)
                except _Refused as e:
                    self.console.write(f"No: {e}.")
                    continue
                if answer is _AGAIN:
                    continue
                return answer
        finally:
            self.used += time.perf_counter() - self._t0
            self._deciding = False
            self.context = ""

    def _start(self) -> None:
        self._t0 = time.perf_counter()
        self._deciding = True

    def _common(self, view: PlayerView, context: str, cmd: str, args: list[str]) -> object:
        """help, check, hand and quit, anywhere; anything else is unknown here."""
        if cmd == "help":
            self.console.write(HELP)
        elif cmd == "check":
            self.console.write(check_text(view, context, self.console.style))
        elif cmd == "hand":
            self._table(view)
        elif cmd == "quit":
            self.console.write("Quit the game? yes or no.")
            answer = self._read("confirm").strip().lower()
            if _ALIASES.get(answer, answer) == "yes":
                raise Quit("quit")
            self.console.write("Not quitting.")
        elif cmd in ("yes", "no", "done", "auto", "undo", "layoff", "gin"):
            raise _Refused(f"{cmd} does not fit now (help lists the commands)")
        else:
            raise _Refused(f"unknown command {cmd!r} (help lists the commands)")
        return _AGAIN

    def _read(self, context: str) -> str:
        self.context = context
        self.console.write("> ", nl=False)
        line = self.console.read()
        if line is None:
            self.console.write("")
            raise Quit("end of input")
        if self.console.echo_input:
            self.console.write(line)
        return line

    def _card(self, view: PlayerView, args: list[str], layoff: bool = False) -> Card:
        if len(args) != 1:
            raise _Refused("name one card, e.g. 7H" if not args else "one card at a time")
        try:
            c = parse_card(args[0])
        except CardError as e:
            raise _Refused(str(e)) from None
        if not view.hand >> c & 1:
            raise _Refused(f"{CARD_NAMES[c]} is not in your hand")
        if not layoff and not view.legal_discards() >> c & 1:
            raise _Refused(f"{CARD_NAMES[c]} was just taken from the discard pile: it may not be discarded this turn")
        return c

    def _table(self, view: PlayerView) -> None:
        """The state of the table: hand number, scores, stock, discard pile, clock, hand."""
        s = self.console.style
        own, opp = view.scores
        dealer = "you deal" if view.is_dealer else f"{self.names[1]} deals"
        head = f"Hand {self.hand_number}, turn {view.turn}, {dealer} | You {own}, {self.names[1]} {opp}"
        head += f" (to {self.target})"
        pile = view.discard_pile
        top = f"{s.card(pile[-1])} on top (pile of {len(pile)})" if pile else "empty"
        top += f" | stock {view.stock_size}"
        limit = view.rules.time_per_hand
        if limit is not None:  # on the second line, so that both lines fit 80 columns
            left = limit - self.used - (time.perf_counter() - self._t0 if self._deciding else 0.0)
            top += f" | your clock {max(left, 0.0):.1f}s left of {limit:g}s"
        hand, melds = hand_lines(s, view.hand, tables_for(view.rules.max_run_length))
        lines = [head, f"  discard pile {top}"]
        if len(pile) > 1:  # the whole pile, as a player at the table can recall it
            lines.append(f"  pile, bottom to top  {' '.join(s.card(c) for c in pile)}")
        lines.append(
            f"  {self.names[1]} holds {s.cards(view.opp_known)} (taken from the pile) | passed on "
            f"{s.cards(view.opp_passed)} | discarded {s.cards(view.opp_discards)}"
        )
        lines += [f"  your hand    {hand}", f"               {melds}"]
        self.console.write("\n".join(lines))


def check_text(view: PlayerView, context: str, style: Style) -> str:
    """The "check knock" report of the hand in front of the person: best melds and
    deadwood; with 11 cards the best legal discards (R12) and whether a knock or gin
    follows; before drawing, what taking the upcard would give; facing a knock, the best
    lay-offs."""
    rules = view.rules
    tables = tables_for(rules.max_run_length)
    hand = view.hand
    report = check_hand(format_cards(hand), rules)
    if hand.bit_count() == 11:
        dw, best = view.best_discards()
        first = min(cards_of(best), key=sort_key)
        after = tables.best_melds_mask(hand & ~(1 << first))
        report.update(
            best_discards=_names(best),
            deadwood_after=dw,
            melds_after=[_names(m) for m in after.melds],
            deadwood_cards_after=_names(hand & ~(1 << first) & ~union(after.melds)),
            can_knock=dw <= view.knock_limit,
            gin=dw == 0,
        )
    text = format_check(report, color=style.color)
    up = view.upcard
    if context in ("offer", "draw") and up is not None:
        h = hand | 1 << up
        choices = h if rules.allow_discard_of_drawn_upcard else hand
        values = {c: tables.deadwood_mask(h & ~(1 << c)) for c in cards_of(choices)}
        low = min(values.values())
        names = " or ".join(CARD_NAMES[c] for c in sorted(values, key=sort_key) if values[c] == low)
        verdict = "gin" if low == 0 else "a knock" if low <= view.knock_limit else "no knock"
        text += f"\ntake {CARD_NAMES[up]}  then discard {names} -> deadwood {low} ({verdict})"
    if context == "layoff" and view.knocker_melds:
        dw, laid = best_layoff(hand, view.knocker_melds, tables)
        text += f"\nlay-offs  best: {format_cards(laid) or 'none'} -> deadwood {dw}"
    return text


def _names(mask: Mask) -> list[str]:
    return [CARD_NAMES[c] for c in sorted(cards_of(mask), key=sort_key)]


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except CardError:
        return False
    return True


# -- the game ---------------------------------------------------------------------------------


@dataclass
class GameSummary:
    scores: tuple[int, int]
    winner: int  # 0 you, 1 the bot, -1 nobody
    hands: int
    ended: str  # target, forfeit, quit, end of input, undecided


def person_deal(seed: int, key: int, h: int) -> tuple[list[Card], tuple[int, int]]:
    """The deck of hand ``h`` of a person's game with master seed ``seed`` against the bot
    of ``key`` (``text_key("play", spec.canonical)``), and both seats' random seeds: the
    same deals for ``ginsim play`` and ``ginsim web``."""
    ds = game_deal_seed(seed, 0, h)
    return deck_for(ds), (strategy_seed(ds, key, 0, 0), strategy_seed(ds, key, 0, 1))


class TerminalGame:
    """A game to ``rules.target_score``: the person in seat 0, the bot in seat 1. The
    seed fixes every deck (``game_deal_seed(seed, 0, hand)``) and the bot's random
    stream, as in a tournament's game mode; seat ``seed % 2`` deals first."""

    def __init__(self, rules: Rules, bot: StrategySpec, seed: int, console: Console) -> None:
        self.rules = rules
        self.bot = bot
        self.seed = seed
        self.console = console
        self.names = ("You", bot.label)
        self.key = text_key("play", bot.canonical)
        self.human = HumanPlayer(console, self.names, rules.target_score)

    def deal(self, h: int) -> tuple[list[Card], tuple[int, int]]:
        """The deck of hand ``h`` and the two seats' random seeds."""
        return person_deal(self.seed, self.key, h)

    def run(self) -> GameSummary:
        w = self.console.write
        rules = self.rules
        bot = self.bot.build()
        name = self.names[1]
        w(f"Gin Rummy against {name} to {rules.target_score} points ({rules.describe()}), seed {self.seed}.")
        if rules.time_per_hand is not None:
            w(f"Clock: {rules.time_per_hand:g}s per player per hand; whoever runs out loses the game.")
        w("Cards marked * are in your best melds. Type help for the commands.")
        game = Game(rules, self.seed % 2)
        for h in range(MAX_HANDS_PER_GAME):
            deck, seeds = self.deal(h)
            dealer = game.dealer
            w(f"\n=== Hand {h + 1}: {'you deal' if dealer == 0 else name + ' deals'} ===")
            self.human.new_hand(h + 1)
            try:
                with letting_through(Quit):
                    res = play_hand(rules, (self.human, bot), deck, dealer, game.score_pair(), seeds)
            except Quit as q:
                s = game.scores
                w(f"Game stopped ({q.why}) in hand {h + 1}: You {s[0]}, {name} {s[1]}.")
                return GameSummary(game.score_pair(), -1, h, q.why)
            w(f"--- End of hand {h + 1} ---")
            for line in result_lines(self.console.style, res, self.names, rules):
                w(line)
            game.record(res)
            s = game.scores
            if game.ended == "forfeit":
                w(f"{self.names[res.winner]} {conj(self.names[res.winner], 'win')} the game by forfeit.")
                return GameSummary(game.score_pair(), res.winner, h + 1, "forfeit")
            w(f"Totals: You {s[0]}, {name} {s[1]} (to {rules.target_score})")
            if game.over:
                who = self.names[game.winner]
                w(f"{who} {conj(who, 'win')} the game, {max(s)} to {min(s)}.")
                final = game.final()
                if final.totals != game.score_pair():  # R31-R33: the end-of-game bonuses
                    w(f"With boxes and bonuses: You {final.totals[0]}, {name} {final.totals[1]}.")
                return GameSummary(game.score_pair(), game.winner, h + 1, "target")
        w(f"No winner after {MAX_HANDS_PER_GAME} hands.")
        return GameSummary(game.score_pair(), -1, MAX_HANDS_PER_GAME, "undecided")
