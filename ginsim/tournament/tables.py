"""Many tables at once: tournament mode's way to pay one round trip per many decisions.

A chunk's deals (or games) are independent: fresh instances, their own decks and seeds.
``play_together`` plays each as a table of its own, a greenlet running the engine's
ordinary code (``play_hand``, the same calls as one table at a time, so the same log).
When a stand-in (ginsim.tournament.referee) needs a decision, its table pauses and hands
the decision to this driver, which gathers every pending decision of one bot process
into one request; when the process answers, each table goes on with its answer. While
one process thinks, the tables waiting on the others go on, so every process of the
pairing (two seats, two copies) works at once.

Deadlines: a request is due within the sum of its decisions' limits; a process past it
is killed and each of its decisions in the request raises ``DecisionTimeout`` in its own
table: the bot forfeits those hands, the opponent none.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from greenlet import getcurrent, greenlet

from ginsim.engine.guard import BotFailure, DecisionTimeout, letting_through
from ginsim.tournament.bot_process import MAX_ANSWER, BotProcess, answers, batch_message, outcome, wait_for

WIDTH = 256
"""Tables played at once (each holds a hand's state and a paused stack)."""


class _Abandoned(BaseException):
    """The driver stopped (the user's Ctrl-C, the run's own error): the tables unwind."""


class _Table(greenlet):  # type: ignore[misc]
    """One deal (or game) played through the engine, paused at each remote decision."""

    def __init__(self, unit: Callable[[], None], driver: _Driver) -> None:
        super().__init__(self._play)
        self.unit = unit
        self.driver = driver

    def _play(self) -> None:
        self.unit()
        self.driver.live.discard(self)  # then back to the driver (the parent)

    def ask(self, bot: BotProcess, item: list[Any]) -> Any:
        """From inside this table: leave ``item`` with the driver and let the next table
        with an answer go on (or the driver, when none has); this table goes on with its
        own answer."""
        driver = self.driver
        driver.pending.setdefault(bot, []).append((self, item))
        return driver.next_table()


Ask = Callable[[BotProcess, list[Any]], Any]


def ask_driver() -> Ask | None:
    """How a stand-in asks for a decision in the current table (``_Table.ask``), or None
    outside tables (then it asks its process on its own)."""
    table = getcurrent()
    return table.ask if isinstance(table, _Table) else None


class _Driver:
    def __init__(self) -> None:
        self.main = getcurrent()
        self.pending: dict[BotProcess, list[tuple[_Table, list[Any]]]] = {}  # decisions not yet sent
        self.sent: dict[BotProcess, list[_Table]] = {}  # the tables of each request under way
        # tables to go on, each with its answer (or the exception it raises) and which it is
        self.ready: deque[tuple[_Table, Any, bool]] = deque()
        self.live: set[_Table] = set()

    def next_table(self) -> Any:
        """Switch to the next ready table (from a table or the driver); what this greenlet
        is given when it is next switched to."""
        if not self.ready:
            return self.main.switch()
        table, value, failed = self.ready.popleft()
        return table.throw(value) if failed else table.switch(value)

    def send(self) -> None:
        """One request to each idle process with pending decisions."""
        for bot in [b for b in self.pending if b not in self.sent]:
            asks = self.pending.pop(bot)
            if bot.proc is None:  # ended since they asked (``fail`` took the asks before it)
                self.lost(bot, asks)
                continue
            items = [item for _, item in asks]
            limit = bot.limit
            try:
                bot.post(batch_message(bot, items), None if limit is None else limit * len(items), each=limit or 0.0)
            except (BotFailure, DecisionTimeout) as e:  # each decision's own failure
                self.fail(bot, [t for t, _ in asks], e)
                continue
            self.sent[bot] = [t for t, _ in asks]

    def fail(self, bot: BotProcess, tables: list[_Table], e: BaseException) -> None:
        """Each table of a failed request raises the failure (an exception of its own);
        the decisions its process had not been sent yet are lost with it."""
        bot.ended = str(e)
        self.ready.extend((table, _twin(e), True) for table in tables)
        self.lost(bot, self.pending.pop(bot, []))

    def lost(self, bot: BotProcess, asks: list[tuple[_Table, list[Any]]]) -> None:
        """Decisions of instances whose process has ended (another hand's failure)."""
        self.ready.extend((table, BotFailure("raised", f"lost its process: {bot.ended}"), True) for table, _ in asks)

    def receive(self) -> None:
        """Wait a slice; each table whose process answered is ready to go on."""
        bots = list(self.sent)
        for bot, result in wait_for(bots, MAX_ANSWER * max(len(self.sent[b]) for b in bots)):
            tables = self.sent.pop(bot)
            if isinstance(result, BaseException):
                self.fail(bot, tables, result)
                continue
            try:
                replies = answers(bot, result, len(tables))
            except BotFailure as e:  # the process answered nonsense: each decision's failure
                self.fail(bot, tables, e)
                continue
            for table, reply in zip(tables, replies, strict=True):
                if type(reply) is dict:  # no answer: why (ginsim.tournament.bot_host)
                    self.ready.append((table, outcome(bot, reply), True))
                else:
                    self.ready.append((table, reply, False))

    def abandon(self) -> None:
        for table in list(self.live):
            with contextlib.suppress(_Abandoned):
                table.throw(_Abandoned())


def _twin(e: BaseException) -> BaseException:
    """An exception like ``e`` for one table (each raises its own)."""
    if isinstance(e, DecisionTimeout):
        return DecisionTimeout(e.limit, e.clock)
    if isinstance(e, BotFailure):
        twin = BotFailure(e.kind, str(e))
        twin.remote_traceback = e.remote_traceback
        return twin
    return e


def play_together(units: Iterable[Callable[[], None]], width: int = WIDTH) -> None:
    """Play each unit (a callable that plays a deal or a game through the stand-ins) as a
    table, up to ``width`` at once, their remote decisions batched per bot process. An
    exception that escapes a unit (the user's Ctrl-C, the run's own error) stops them all."""
    driver = _Driver()
    todo: Iterator[Callable[[], None]] = iter(units)
    with letting_through(_Abandoned):
        try:
            while True:
                while len(driver.live) < width and (unit := next(todo, None)) is not None:
                    table = _Table(unit, driver)  # started from here: its stack begins at the driver's
                    driver.live.add(table)
                    table.switch()
                if driver.ready:
                    driver.next_table()  # tables go on until none has an answer
                    continue
                if not driver.live:
                    return
                driver.send()  # to each process that is not thinking: its tables' decisions
                if driver.sent:
                    driver.receive()
        except BaseException:
            driver.abandon()
            raise
