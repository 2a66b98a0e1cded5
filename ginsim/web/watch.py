"""Two bots playing a game for the page to watch, and a run folder's hands to browse.

A watched game is played hand by hand as the page asks for the next one, through the
engine's ``play_hand`` and ``Game``; each hand reaches the page as the replay's steps
(ginsim.web.steps), which the page shows at the speed chosen. Under a decision limit a
hand is played in a daemon thread of its own, watched through that thread's count of
strategy calls (ginsim.web.limits): a bot's decision past the limit ends the game with a
line naming the bot, and the stuck hand stays behind in its thread. A run folder's hands are
listed from its hand log and replayed by ``ginsim.terminal.replay``, as ``ginsim replay``
does; only folders inside the root that ``ginsim web`` serves can be opened.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, NoReturn

from ginsim.engine.game import MAX_HANDS_PER_GAME, Game
from ginsim.engine.guard import letting_through
from ginsim.engine.playhand import play_hand, thread_watch
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import Event
from ginsim.errors import RunError
from ginsim.run.seeding import deck_for, game_deal_seed, strategy_seed, text_key
from ginsim.runfolder.records import read_manifest
from ginsim.terminal.replay import Replay, replay_hand
from ginsim.terminal.runlog import RunLog
from ginsim.web.limits import LIMIT_NAMES, CallClock, interrupt, poll_interval, thinking_seat
from ginsim.web.steps import hand_steps

LIST_LIMIT = 500
"""Hands listed per page of a run folder's log."""
FOLDER_LIMIT = 300
"""Run folders listed at most (those up to two levels below the root)."""


class WatchStopped(BaseException):  # let through the engine (letting_through), never a bot's
    """Raised in a hand's thread left behind past the decision limit (``interrupt``), to
    end it if it runs Python code; the game has ended already."""


class WatchGame:
    """A game between two bots: ``a`` in seat 0, ``b`` in seat 1, deals from ``seed``
    (seat ``seed % 2`` deals first); ``hand(h)`` plays up to hand ``h`` and returns it.
    ``bots``: the two instances, already built (ginsim.web.limits.load_bot); else they
    are built here. A bot's decision still under way ``decision_limit`` seconds after it
    began ends the game (0: no limit): that request and every later one get the line
    saying so (``failure``)."""

    def __init__(
        self,
        rules: Rules,
        a: StrategySpec,
        b: StrategySpec,
        seed: int,
        bots: tuple[Strategy, Strategy] | None = None,
        decision_limit: float = 0.0,
    ) -> None:
        self.rules = rules
        self.specs = (a, b)
        self.seed = seed
        self.key = text_key("watch", a.canonical, b.canonical)
        self.names = (f"seat 0 ({a.label})", f"seat 1 ({b.label})")
        self.game = Game(rules, seed % 2)
        self.bots = bots or (a.build(), b.build())
        self.limit = decision_limit
        self.failure = ""
        self.played: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def hand(self, h: int) -> dict[str, Any]:
        """Hand ``h`` (from 0) as replay steps, with the game's scores after it and
        whether the game is over; RunError past the game's last hand, or once a bot ran
        past the decision limit."""
        with self.lock:
            while len(self.played) <= h:
                if self.failure:
                    raise RunError(self.failure)
                if self.game.over or len(self.played) >= MAX_HANDS_PER_GAME:
                    raise RunError(f"the game ended after {len(self.played)} hands")
                n = len(self.played)
                self.played.append(self._timed(n) if self.limit else self._play(n))
            return self.played[h]

    def _timed(self, h: int) -> dict[str, Any]:
        """Hand ``h`` played in a daemon thread of its own while this one watches its
        count of strategy calls; past the limit the game ends (``_stop``)."""
        outcome: list[Any] = []
        started, done = threading.Event(), threading.Event()
        counter: list[Any] = []

        def run() -> None:
            counter.append(thread_watch())  # the hand thread's own count of strategy calls
            started.set()
            try:
                with letting_through(WatchStopped):
                    outcome.append(self._play(h))
            except BaseException as e:  # noqa: BLE001 - handed to the request that waits
                outcome.append(e)
            finally:
                done.set()

        thread = threading.Thread(target=run, name=f"ginsim-watch-{self.seed}-{h}", daemon=True)
        thread.start()
        started.wait()
        clock, poll = CallClock(counter[0], self.limit), poll_interval(self.limit)
        while not done.wait(poll):
            if clock.stuck():
                self._stop(thread)
        if isinstance(outcome[0], BaseException):
            raise outcome[0]
        return outcome[0]  # type: ignore[no-any-return]

    def _stop(self, thread: threading.Thread) -> NoReturn:
        """End the game: the bot thinking in ``thread`` gave no answer within the limit;
        the thread is asked to stop, and its hand is never recorded."""
        seat = thinking_seat(thread, self.bots)
        who = "a bot" if seat is None else self.names[seat]
        self.failure = (
            f"the game stopped: {who} gave no answer within {self.limit:g}s ({LIMIT_NAMES['decision_limit']})"
        )
        interrupt(thread, WatchStopped)
        raise RunError(self.failure)

    def _play(self, h: int) -> dict[str, Any]:
        ds = game_deal_seed(self.seed, 0, h)
        deck = deck_for(ds)
        seeds = (strategy_seed(ds, self.key, 0, 0), strategy_seed(ds, self.key, 0, 1))
        dealer, scores = self.game.dealer, self.game.score_pair()
        log: list[Event] = []
        result = play_hand(self.rules, self.bots, deck, dealer, scores, seeds, log=log)
        if self.failure:  # a hand left behind past the limit: the game ended without it
            raise WatchStopped
        self.game.record(result)
        where = f"game, hand {h + 1}"
        r = Replay(h, {}, where, self.names, self.rules, deck, dealer, scores, result, log, [])
        data = hand_steps(r, Path("watch"))
        a, b = self.specs
        data["title"] = [
            f"{a.label} vs {b.label}: hand {h + 1}, seed {self.seed}",
            f"scores before it: {scores[0]} to {scores[1]}; {self.rules.describe()}",
        ]
        data["scores"] = list(self.game.score_pair())
        data["over"] = self.game.over
        data["winner"] = self.game.winner
        data["target"] = self.rules.target_score
        return data


def run_folders(root: Path) -> list[str]:
    """The run folders in ``root`` and up to two levels below it (those holding a
    manifest), as paths relative to it."""
    if not root.is_dir():
        return []
    found: list[Path] = []
    for pattern in ("manifest.json", "*/manifest.json", "*/*/manifest.json"):  # not the whole disk
        found += (p.parent for p in root.glob(pattern))
    return [str(p.relative_to(root)) if p != root else "." for p in sorted(found)[:FOLDER_LIMIT]]


def run_folder(root: Path, name: str) -> Path:
    """The run folder ``name`` inside ``root``; RunError for any other path."""
    folder = (root / name).resolve()
    if not folder.is_relative_to(root.resolve()) or not (folder / "manifest.json").is_file():
        raise RunError(f"{name}: no run folder of that name under {root}")
    return folder


def hand_list(folder: Path, first: str | None, where: str | None, offset: int) -> dict[str, Any]:
    """A page of the run's hand log (row, who played, how it ended), or with ``first`` /
    ``where`` the first matching hand, as ``ginsim replay --first/--where`` picks it."""
    from ginsim.analysis.handlog import select_hand
    from ginsim.api import open_run

    if first or where:
        offset = select_hand(folder, first or None, where or None)
    log = open_run(folder).hands
    rows = log.iloc[offset : offset + LIST_LIMIT]
    keep = ["seat0", "seat1", "outcome", "winner_name", "points", "turns", "knocker_deadwood"]
    items = [
        {"hand": int(i), **{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}}
        for i, row in zip(range(offset, offset + len(rows)), rows[keep].to_dict("records"), strict=True)
    ]
    m = read_manifest(folder)
    return {"total": len(log), "offset": offset, "hands": items, "rules": dict(m.rules)}


def run_hand(folder: Path, hand: int, seat: int | None) -> dict[str, Any]:
    """Hand ``hand`` of the run, replayed, as the replay page's steps."""
    r = replay_hand(RunLog(folder), hand, seat)
    return hand_steps(r, folder, seat)
