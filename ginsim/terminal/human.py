"""The person's seat in ``ginsim play``: a Strategy whose decisions read lines of text.

The engine, its checks and the bot's PlayerView are exactly those of a tournament. Input is
plain lines, typed or piped; a mistyped or illegal command gets one line saying why and the
prompt again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ginsim.engine.cards import CARD_NAMES, Card, Mask, cards_of
from ginsim.engine.layoff import best_layoff, layoff_is_legal
from ginsim.engine.melds import tables_for
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import OFFER, Event, PlayerView
from ginsim.terminal.check import check_text
from ginsim.terminal.commands import AGAIN, ALIASES, HELP, Console, Quit, Refused, card_named, parse_command
from ginsim.terminal.textview import event_text, hand_lines, union


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
                    raise Refused("the discard pile is empty: draw from the stock (stock)")
                return True
            if cmd == "pass":
                if offer:
                    return False
                raise Refused("pass is only for the first-turn offer: take the upcard or draw from the stock (stock)")
            if cmd == "stock":
                if not offer:
                    return False
                raise Refused(f"on the first-turn offer take {up} or pass; the stock comes after both players pass")
            if cmd in ("discard", "knock"):
                if offer:
                    raise Refused(f"the first-turn offer comes first: take {up} or pass")
                raise Refused(f"draw first: take {up} or draw from the stock (stock)")
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
                raise Refused("you have drawn: discard a card (discard 7H) or knock (knock 7H)")
            if cmd in ("discard", "knock"):
                card = card_named(view, args)
                if cmd == "knock" and not view.can_knock(card):
                    raise Refused(
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
                    raise Refused("which card? e.g. layoff 9S")
                for text in args:
                    c = card_named(view, [text], layoff=True)
                    if c in laid:
                        raise Refused(f"{CARD_NAMES[c]} is laid off already")
                    if not layoff_is_legal(m | 1 << c, melds, tables):
                        where = " with the cards laid off so far" if laid else ""
                        raise Refused(f"{CARD_NAMES[c]} does not fit on {opp}'s melds{where}")
                    laid.append(c)
                    m |= 1 << c
                dw = tables.deadwood_mask(view.hand & ~m)
                self.console.write(f"  laid off {s.cards(m)}: your deadwood is now {dw}")
                return AGAIN
            if cmd == "undo":
                if not laid:
                    raise Refused("nothing is laid off yet")
                self.console.write(f"  took back {s.card(laid.pop())}")
                return AGAIN
            if cmd == "done":
                return m
            if cmd == "auto":
                dw, best = best_layoff(view.hand, melds, tables)
                self.console.write(f"  auto: laying off {s.cards(best)}: your deadwood is {dw}")
                return best
            if cmd in ("take", "pass", "stock", "discard", "knock"):
                raise Refused(f"{opp} has knocked: lay off (layoff 9S), then done; or auto")
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
                cmd, args = parse_command(words, context)
                try:
                    answer = act(cmd, args)
                    if answer is None:
                        answer = self._common(view, context, cmd, args)
                except Refused as e:
                    self.console.write(f"No: {e}.")
                    continue
                if answer is AGAIN:
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
            if ALIASES.get(answer, answer) == "yes":
                raise Quit("quit")
            self.console.write("Not quitting.")
        elif cmd in ("yes", "no", "done", "auto", "undo", "layoff", "gin"):
            raise Refused(f"{cmd} does not fit now (help lists the commands)")
        else:
            raise Refused(f"unknown command {cmd!r} (help lists the commands)")
        return AGAIN

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
