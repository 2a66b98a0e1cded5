"""Tournament mode (``--isolate``): every strategy plays in a process of its own.

The referee (this module, in the process that plays the chunk) never imports a
strategy's code: each seat has, per copy of the deals, a process ``python -m
ginsim.tournament.bot_host`` (ginsim.tournament.bot_process), confined before any bot
code runs (ginsim.tournament.confine: a user of its own, namespaces, resource limits),
and the engine plays against stand-ins (``RemoteStrategy``, one per instance: each hand,
or game, a fresh one) that send the bot what changed in their seat's view and get its
answer back. The two copies of a duplicate deal are played by different processes, so
nothing the bot keeps in memory from copy 0 reaches copy 1.

The referee plays many tables at once (ginsim.tournament.tables): every pending
decision of one process goes out in one request and comes back in one answer. A
decision's answer is due within ``decision_limit`` seconds, a request's within the sum
of its decisions' limits; past that the process is killed and every hand it had under
way is its own forfeit (never the opponent's), and a fresh process plays its next
hands. Under the rules' clock (R25) decisions go one at a time, each within what is
left of the hand's time. Nothing a bot does can block or kill the referee: a malformed,
oversized, nested, forged or out-of-turn answer, a crash or a process killed from
outside is that seat's forfeit with a one-line reason. A process that could not start
(its module exits or sleeps when the play process imports it, its init answer is
nonsense) forfeits every remaining hand of that copy of the chunk at once. The decks mix
in the run's secret (ginsim.runfolder.secret), which bots never see.
"""

from __future__ import annotations

import atexit
import operator
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ginsim.engine.guard import BotFailure, DecisionTimeout, guarded
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.tournament.bot_host import FIELDS
from ginsim.tournament.bot_process import BotProcess, answers, batch_message, outcome, start_together
from ginsim.tournament.tables import ask_driver

_fields_of = operator.attrgetter(*FIELDS, "_pile", "knocker_melds")
"""The view's fields as the host's copy takes them (the pile is the engine's list: the
request is written before its table moves on, so it holds the pile of the decision)."""


class RemoteStrategy(Strategy):
    """The engine's stand-in for one instance of a strategy in its own process."""

    name = ""  # a stand-in: no name of its own (nor a registry entry)

    def __init__(self, bot: BotProcess, broken: BotFailure | None = None) -> None:
        self._bot = bot
        self._broken = broken  # its process could not start: each decision forfeits
        self._n = 0  # its number in its process (0: not built there yet)
        self._generation = 0  # the process (start) that holds it
        self._view: PlayerView | None = None  # the engine's view its copy follows
        self._sent = 0  # events of that view's history already sent
        self._used = 0.0  # thinking time this hand (the rules' clock)
        # built in a table (ginsim.tournament.tables): its decisions go with the others'
        self._ask = ask_driver() if bot.clock is None else None

    def __del__(self) -> None:
        bot = self._bot
        if self._n and self._generation == bot.generation:
            bot.over.append(self._n)  # its process forgets it with the next request

    def _call(self, method: str, view: PlayerView, event: Any = None) -> Any:
        """One decision: what changed in the view out to its process, the answer back."""
        if self._broken is not None:
            raise self._broken
        bot = self._bot
        if not self._n:
            bot.ensure()
            self._n, self._generation = next(bot.tables), bot.generation
        elif self._generation != bot.generation or bot.proc is None:
            raise BotFailure("raised", f"lost its process: {bot.ended}")  # another of its hands ended it
        start: Any = 0
        if view is not self._view:  # a new hand
            self._view, self._sent, self._used = view, 0, 0.0
            start = (view.seat, view.dealer, view.scores, view._seed, view.knock_limit)
        history = view.history
        sent, self._sent = self._sent, len(history)
        events = [(s, str(a), c) for s, a, c in history[sent:]]  # plain strs: marshal takes no enum
        if event is not None:
            event = (event[0], str(event[1]), event[2])
        item = [self._n, method, start, _fields_of(view), events, event]
        if self._ask is not None:
            return self._ask(bot, item)  # with the other tables' decisions (ginsim.tournament.tables)
        return self._alone(item)

    def _alone(self, item: list[Any]) -> Any:
        """A decision on its own: outside tables (a forfeit's replay), or under the rules'
        clock, within what is left of the hand's time (R25)."""
        bot = self._bot
        timeout = bot.limit
        clock = False
        if bot.clock is not None:
            left = max(bot.clock - self._used, 0.0) + 0.01  # the rest of its time for the hand
            clock = timeout is None or left < timeout
            timeout = left if clock else timeout
        t0 = time.monotonic()
        try:
            reply = bot.request(batch_message(bot, [item]), timeout, clock)
            self._used += time.monotonic() - t0
            result = outcome(bot, answers(bot, reply, 1)[0])
        except (BotFailure, DecisionTimeout) as e:
            bot.ended = str(e)
            raise
        if isinstance(result, BaseException):
            raise result
        return result

    def take_upcard(self, view: PlayerView) -> bool:
        return self._call("take_upcard", view)  # type: ignore[no-any-return]

    def discard(self, view: PlayerView) -> Any:
        return self._call("discard", view)

    def knock(self, view: PlayerView) -> bool:
        return self._call("knock", view)  # type: ignore[no-any-return]


def _hook(name: str) -> Callable[..., Any]:
    if name == "observe":

        def observe(self: RemoteStrategy, view: PlayerView, event: Any) -> None:
            self._call("observe", view, event)

        return observe

    def hook(self: RemoteStrategy, view: PlayerView) -> Any:
        out = self._call(name, view)
        return tuple(out) if name == "choose_melds" and type(out) is list else out

    return hook


_CLASSES: dict[frozenset[str], type[RemoteStrategy]] = {}


def remote_class(hooks: frozenset[str]) -> type[RemoteStrategy]:
    """The stand-in class that overrides exactly the optional hooks the bot's class does
    (the engine calls a hook only when it is overridden)."""
    cls = _CLASSES.get(hooks)
    if cls is None:
        body = {h: _hook(h) for h in sorted(hooks)}
        cls = _CLASSES[hooks] = type("RemoteStrategy_" + "_".join(sorted(hooks)), (RemoteStrategy,), body)
    return cls


def remote_strategy(bot: BotProcess) -> RemoteStrategy:
    """A stand-in for a fresh instance in ``bot``'s process (started if need be: its
    class's hooks say which stand-in). The instance itself is built there with its
    first decision."""
    try:
        bot.ensure()
    except BotFailure as e:  # its first decision then forfeits
        return remote_class(bot.hooks)(bot, e)
    return remote_class(bot.hooks)(bot)


Factories = tuple[Callable[..., Strategy], Callable[..., Strategy]]


_POOL: dict[tuple[Any, ...], BotProcess] = {}
"""The bot processes this (referee) process keeps between the chunks of one pairing: a
process plays one copy of that pairing's deals, chunk after chunk (what it keeps from
one deal tells nothing of another's cards). A new pairing kills the others."""


def close_pool() -> None:
    """Kill every bot process kept between chunks (the run is over, or stopped)."""
    while _POOL:
        _POOL.popitem()[1].kill()


atexit.register(close_pool)


@contextmanager
def isolated_factories(
    specs: tuple[StrategySpec, StrategySpec],
    rules: Rules,
    decision_limit: float | None,
    limits: dict[str, int] | None = None,
    pairing_key: int = 0,
    copies: tuple[int, ...] = (0, 1),
) -> Iterator[Callable[[int], Factories]]:
    """Tournament mode for one chunk of the pairing ``specs`` (a chunk task's, strategy a
    first): yields ``for_copy(copy)``, the two factories the worker builds the stand-ins
    of that copy of the deals with (in place of the strategies' classes). Each strategy
    has a process of its own per copy (of ``copies``, the ones the chunk plays), all
    started at once and kept for the pairing's next chunk, so no process plays both
    copies of a deal; a chunk that ends otherwise than normally kills them."""
    rules_dict = rules.to_dict()
    base = (pairing_key, specs[0].text, specs[1].text, repr(rules_dict), decision_limit, repr(limits))
    for key in [k for k in _POOL if k[2:] != base]:
        _POOL.pop(key).kill()  # another pairing's
    for bot in _POOL.values():
        bot.broken = None  # each chunk tries a process that could not start once more

    for side in (0, 1):
        for copy in copies:
            key = (side, copy, *base)
            if key not in _POOL:
                _POOL[key] = BotProcess(specs[side], rules_dict, decision_limit, rules.time_per_hand, limits)
    start_together(list(_POOL.values()))  # the processes the chunk needs, started at once

    def factory(side: int, copy: int) -> Callable[..., Strategy]:
        key = (side, copy, *base)

        def build(**_params: Any) -> Strategy:
            bot = _POOL.get(key)
            if bot is None:
                bot = _POOL[key] = BotProcess(specs[side], rules_dict, decision_limit, rules.time_per_hand, limits)
            return remote_strategy(bot)

        return build

    made = {copy: (factory(0, copy), factory(1, copy)) for copy in (0, 1)}
    try:
        with guarded(None):  # Ctrl-C marked as the user's; the bots' time is kept here
            yield made.__getitem__
    except BaseException:
        close_pool()
        raise
