"""A person's game against a bot at the web table (``ginsim web``): the server's side.

The game runs in a thread of its own through the engine's ``play_hand`` and ``Game``,
exactly as ``ginsim play`` runs it in the terminal: the person is a Strategy whose
decisions wait for the page's moves, the bot sees only its PlayerView. The page gets
``state()``: the person's own view (its hand, the pile, the stock's size, the public
events with the bot's draws unnamed) and, once a hand is over, its showdown. The bot's
cards reach the page only when the rules show them. A move is checked first
(ginsim.web.moves); one that does not fit changes nothing. A bot's decision (or hook)
still under way past the decision limit ends the game with a line saying so
(ginsim.web.limits: a watch thread reads the game thread's count of strategy calls); the
person's own decisions, which wait for the page, are never timed.
"""

from __future__ import annotations

import threading
from typing import Any

from ginsim.engine.cards import CARD_NAMES, Mask
from ginsim.engine.game import MAX_HANDS_PER_GAME, Game
from ginsim.engine.guard import letting_through
from ginsim.engine.melds import tables_for
from ginsim.engine.playhand import HandResult, play_hand, thread_watch
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import DISCARD, DRAW, LAYOFF, OFFER, PlayerView
from ginsim.run.seeding import text_key
from ginsim.terminal.game import person_deal
from ginsim.terminal.textview import Style, event_text, result_lines, showdown_rows
from ginsim.web.limits import LIMIT_NAMES, CallClock, interrupt, poll_interval
from ginsim.web.moves import (
    BIG_GIN,
    GAME_OVER,
    HAND_OVER,
    Discard,
    MoveError,
    card_of,
    check_layoff,
    check_report,
    checked_answer,
    melds_of,
)
from ginsim.web.steps import PUBLIC_ENDS, names

_NONE = object()
MOVE_WAIT = 60.0
"""Seconds a move's request waits for the bot's answer before it returns the table as it
is, beyond the decision limit (so that a game the limit ends reaches the page)."""


class Closed(BaseException):  # let through the engine (letting_through), never a bot's
    """The table was closed, or its game ended past the decision limit: ends the game's
    thread from inside the person's decision (or a stuck bot's, ginsim.web.limits)."""


class WebPerson(Strategy):
    """Seat 0 at the web table: every decision waits for the page's move."""

    name = "you"
    description = "a person at the web table"

    def __init__(self, table: Table) -> None:
        self.table = table
        self.chosen = Discard(0, False, None)

    def take_upcard(self, view: PlayerView) -> bool:
        return bool(self.table.ask(OFFER if view.phase == OFFER else DRAW, view))

    def discard(self, view: PlayerView) -> int:
        answer = self.table.ask(DISCARD, view)
        assert isinstance(answer, Discard)
        self.chosen = answer
        return answer.card

    def knock(self, view: PlayerView) -> bool:
        return self.chosen.knock

    def choose_melds(self, view: PlayerView) -> tuple[Mask, ...] | None:
        return self.chosen.melds

    def choose_layoffs(self, view: PlayerView) -> Mask | None:
        laid = self.table.ask(LAYOFF, view)
        return laid if isinstance(laid, int) else None

    def take_big_gin(self, view: PlayerView) -> bool:
        return bool(self.table.ask(BIG_GIN, view))


class Table:
    """One game to ``rules.target_score``: the person in seat 0, ``bot`` (built from
    ``spec``) in seat 1, decks and the bot's randomness from ``seed`` as ``ginsim play
    --seed`` deals them; seat ``seed % 2`` deals first. A decision of the bot still under
    way ``decision_limit`` seconds after it began ends the game (0: no limit)."""

    def __init__(self, rules: Rules, spec: StrategySpec, seed: int, bot: Strategy, decision_limit: float = 0.0) -> None:
        self.rules = rules
        self.spec = spec
        self.bot = bot
        self.seed = seed
        self.limit = decision_limit
        self.names = ("You", spec.label)
        self.key = text_key("play", spec.canonical)
        self.cond = threading.Condition()
        self.prompt = ""  # what the person is asked now; "" while the engine plays
        self.view: PlayerView | None = None
        self.answer: object = _NONE
        self.version = 0  # counts the prompts: a move names the one it answers
        self.game = Game(rules, seed % 2)
        self.hand_number = 0
        self.results: list[HandResult] = []
        self.failure = ""
        self.closed = False
        self.stopped = False  # the bot ran past the limit: the game is over, its thread left behind
        self.person = WebPerson(self)
        self.thread = threading.Thread(target=self._run, name=f"ginsim-table-{seed}", daemon=True)
        self.thread.start()
        with self.cond:
            self.cond.wait_for(lambda: self.version > 0, timeout=MOVE_WAIT + self.limit)

    # -- the game's thread ----------------------------------------------------------------
    def _run(self) -> None:
        if self.limit:
            clock = CallClock(thread_watch(), self.limit)  # this thread's count of strategy calls
            watch = threading.Thread(target=self._watch, args=(clock, threading.current_thread()), daemon=True)
            watch.name = f"ginsim-table-watch-{self.seed}"
            watch.start()
        failure = ""
        try:
            with letting_through(Closed):
                self._play()
        except Closed:
            return
        except Exception as e:  # noqa: BLE001 - shown on the page, never a dead table
            failure = f"the game stopped: {type(e).__name__}: {e}"
        try:
            self._set(GAME_OVER, self.view, failure)
        except Closed:  # the watch ended the game meanwhile, with its own line
            return

    def _play(self) -> None:
        for h in range(MAX_HANDS_PER_GAME):
            deck, seeds = person_deal(self.seed, self.key, h)
            self.hand_number = h + 1
            scores = self.game.score_pair()
            res = play_hand(self.rules, (self.person, self.bot), deck, self.game.dealer, scores, seeds)
            with self.cond:
                if self.stopped or self.closed:  # a stuck bot's hand, finished after the game was ended
                    raise Closed
                self.game.record(res)
                self.results.append(res)
            if self.game.over:
                break
            self.ask(HAND_OVER, self.view)

    def _watch(self, clock: CallClock, game: threading.Thread) -> None:
        """The watch's thread: ends the game when a call of the bot's (the game thread's
        count odd while no prompt waits for the person) lasts the limit. The game thread
        stays behind, asked to stop (ginsim.web.limits.interrupt)."""
        poll = poll_interval(self.limit)
        while game.is_alive():
            with self.cond:
                self.cond.wait(poll)
                if self.closed or self.stopped or self.prompt == GAME_OVER:
                    return
                person = bool(self.prompt)  # the person's decision: not timed
            if clock.stuck(paused=person) and self._stop():
                interrupt(game, Closed)
                return

    def _stop(self) -> bool:
        """End the game: the bot gave no answer within the limit (False if the person's
        turn came meanwhile, or the game ended)."""
        with self.cond:
            if self.prompt or self.closed or self.stopped:
                return False
            self.stopped = True
            self.failure = (
                f"the game stopped: {self.names[1]} gave no answer within {self.limit:g}s "
                f"({LIMIT_NAMES['decision_limit']})"
            )
            self.prompt = GAME_OVER
            self.version += 1
            self.cond.notify_all()
            return True

    def _set(self, kind: str, view: PlayerView | None, failure: str = "") -> None:
        with self.cond:
            if self.stopped:  # this thread was left behind: the game is over
                raise Closed
            self.prompt, self.view = kind, view
            self.failure = failure or self.failure
            self.version += 1
            self.cond.notify_all()

    def ask(self, kind: str, view: PlayerView | None) -> object:
        """Wait for the person's answer to ``kind`` (called by the game's thread)."""
        self._set(kind, view)
        with self.cond:
            while self.answer is _NONE:
                if self.closed or self.stopped:
                    raise Closed
                self.cond.wait()
            answer, self.answer = self.answer, _NONE
            self.prompt = ""
            return answer

    # -- the page's requests -------------------------------------------------------------
    def move(self, action: str, data: dict[str, Any]) -> dict[str, Any]:
        """Play the person's move and return the table once the engine asks again (the
        bot has played in between); MoveError, and nothing changed, if it does not fit."""
        with self.cond:
            if "version" in data and data["version"] != self.version:
                raise MoveError("the table has moved on since that page was drawn: look again")
            if not self.prompt or self.answer is not _NONE:
                raise MoveError("not your turn: wait for the bot to play")
            self.answer = checked_answer(self.prompt, self.view, action, data, self.names[1])
            asked = self.version
            self.cond.notify_all()
            self.cond.wait_for(lambda: self.version != asked or self.closed, timeout=MOVE_WAIT + self.limit)
            return self.state()

    def check(self, data: dict[str, Any]) -> dict[str, Any]:
        """The "check knock" report of the person's hand (or of lay-offs facing a knock)."""
        with self.cond:
            view = self.view
            if view is None or self.prompt not in (OFFER, DRAW, DISCARD, LAYOFF):
                raise MoveError("nothing to check now")
            if self.prompt == LAYOFF and "layoff" in data:
                return check_layoff(view, data["layoff"], self.names[1])
            card = card_of(data["discard"]) if data.get("discard") else None
            return check_report(view, card, melds_of(data.get("melds")))

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    # -- what the page is shown --------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The table as the person may see it now."""
        with self.cond:
            view, kind = self.view, self.prompt
            out: dict[str, Any] = {
                "version": self.version,
                "prompt": kind,
                "names": list(self.names),
                "hand_number": self.hand_number,
                "scores": list(self.game.score_pair()),
                "target": self.rules.target_score,
                "rules": self.rules.describe(),
                "seed": self.seed,
                "hands": [hand_line(r) for r in self.results],
                "failure": self.failure,
            }
            if view is not None:
                out.update(self._view_state(view, kind))
            if kind in (HAND_OVER, GAME_OVER) and self.results:
                out["result"] = result_state(self.results[-1], self.names, self.rules)
            if kind == GAME_OVER:
                out["game"] = self._game_state()
            return out

    def _view_state(self, view: PlayerView, kind: str) -> dict[str, Any]:
        tables = tables_for(view.rules.max_run_length)
        best = tables.best_melds_mask(view.hand)
        style = Style(False)
        out: dict[str, Any] = {
            "hand": names(view.hand),
            "melds": [names(m) for m in best.melds],
            "deadwood": best.deadwood,
            "dealer": view.dealer,
            "pile": [CARD_NAMES[c] for c in view.discard_pile],
            "stock": view.stock_size,
            "opp_known": names(view.opp_known),
            "events": [event_text(style, ev, self.names) for ev in view.history],
            "knock_limit": view.knock_limit,
            "drawn": CARD_NAMES[view.drawn] if kind == DISCARD and view.drawn is not None else None,
        }
        if kind == DISCARD:
            dw, _ = view.best_discards()
            out.update(legal=names(view.legal_discards()), can_knock=dw <= view.knock_limit)
        if kind == LAYOFF:
            out["knocker"] = {
                "melds": [names(m) for m in view.knocker_melds],
                "deadwood_cards": names(view.knocker_deadwood_cards),
                "deadwood": view.knocker_deadwood,
            }
        return out

    def _game_state(self) -> dict[str, Any]:
        g = self.game
        final = g.final()
        return {"winner": g.winner, "ended": g.ended, "totals": list(final.totals), "hands": g.hands}


def hand_line(res: HandResult) -> dict[str, Any]:
    """A finished hand for the score sheet: who scored what, and how it ended."""
    return {"outcome": res.outcome, "winner": res.winner, "points": res.points}


def result_state(res: HandResult, names_: tuple[str, str], rules: Rules) -> dict[str, Any]:
    """A finished hand's showdown for the page: the score lines and the hands with their
    melds, lay-offs and deadwood. The bot's hand is shown only when a knock or gin showed
    it (R16); after a drawn or forfeited hand it stays face down."""
    public = res.outcome in PUBLIC_ENDS
    hands: list[dict[str, Any]] = []
    for s, (melds, laid, dead) in enumerate(showdown_rows(res, rules)):
        if s == 1 and not public:
            hands.append({"hidden": 10, "known": []})
            continue
        hands.append(
            {
                "cards": names(res.hands[s]),
                "melds": [names(m) for m in melds],
                "laid": names(laid),
                "deadwood_cards": names(dead),
                "knocker": s == res.knocker,
            }
        )
    lines = result_lines(Style(False), res, names_, rules, public)
    return {"lines": lines, "hands": hands, "outcome": res.outcome, "public": public}
