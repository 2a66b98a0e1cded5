"""Tournament mode's tables (ginsim.tournament.tables): a chunk's deals played at once,
every pending decision of one bot process sent in one request, give the in-process log
hand for hand; a bot's failure in a request forfeits its own hands and never its
opponent's; a chunk stopped by the user leaves no table or process behind."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ginsim.engine.guard import STATE
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec, parse_spec
from ginsim.run.options import Engine
from ginsim.run.recheck import REPLAY_CHECK
from ginsim.run.worker import ChunkTask, play_chunk
from ginsim.runfolder.timing import TIMING_KEY
from ginsim.tournament import referee, tables

ATTACKS = Path(__file__).resolve().parents[1] / "attacks"


@pytest.fixture(autouse=True)
def bots_as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # this machine's Python may not be runnable by other users; the privilege drop has its own test
    monkeypatch.setenv("GINSIM_BOT_USER", "root")


def _spec(name: str) -> StrategySpec:
    module, _, cls = name.partition(":")
    return parse_spec(f"{ATTACKS / module}.py:{cls}") if module in ("common", "crashers") else parse_spec(name)


def _chunk(
    a: str, b: str, units: int, isolate: bool, mode: str = "hands", rules: Rules | None = None, limit: float = 60.0
) -> dict[str, np.ndarray]:
    """Copy 0 and 1 of ``units`` deals (games) of ``a`` against ``b``, the in-process
    decks (no secret: as with --shared-decks and the same seed)."""
    task = ChunkTask(
        rules or Rules(), _spec(a), _spec(b), 0, 4242, 17, mode, True, 0, units, 0,
        decision_limit=limit, isolate=isolate, secret=b"", engine=Engine.GENERAL,
    )  # fmt: skip
    try:
        return play_chunk(task)
    finally:
        referee.close_pool()


def _same(tournament: dict[str, np.ndarray], in_process: dict[str, np.ndarray]) -> list[str]:
    """The columns that differ (the sample of decision times is the machine's; the
    replay checks are compared by what they found)."""
    keys = set(tournament) | set(in_process)
    checks = [[(c.compared, c.difference) for c in log[REPLAY_CHECK]] for log in (tournament, in_process)]
    differ = [k for k in keys - {TIMING_KEY, REPLAY_CHECK} if not np.array_equal(tournament.get(k), in_process.get(k))]
    return sorted(differ) + ([REPLAY_CHECK] if checks[0] != checks[1] else [])


@pytest.mark.parametrize(
    ("a", "b", "mode", "rules"),
    [
        ("simple", "simple", "hands", Rules()),
        ("common:Watcher", "random", "hands", Rules()),
        ("threshold:knock_at=3", "common:Watcher", "hands", Rules(oklahoma=True)),
        ("common:Watcher", "simple", "games", Rules()),
    ],
)
def test_tables_play_the_in_process_log(a: str, b: str, mode: str, rules: Rules) -> None:
    units = 30 if mode == "hands" else 2
    tournament = _chunk(a, b, units, True, mode, rules)
    assert not _same(tournament, _chunk(a, b, units, False, mode, rules))
    assert not any(tournament["forfeit_reason"])


def test_a_late_decision_in_a_request_is_that_hands_forfeit_only() -> None:
    # SlowOnce thinks 1.5 s, past the 1 s limit, at the first decision its process sees,
    # inside a request of several decisions (due within their sum): that hand is its
    # forfeit, its other hands and its opponent's go on
    # (8 deals: its first request holds 4 decisions, due within 4 s)
    log = _chunk("crashers:SlowOnce", "simple", 8, True, limit=1.0)
    reasons = [str(r) for r in log["forfeit_reason"]]
    assert sorted(reasons) == [""] * 14 + ["take_upcard: no answer within 1s (the hard limit per decision)"] * 2
    assert (log["forfeit_seat"][np.asarray(reasons) != ""] == log["seat_a"][np.asarray(reasons) != ""]).all()


def test_a_stalled_request_forfeits_the_stallers_hands_only() -> None:
    # Sleeper thinks 2 s at its first decision of every hand, past the 1 s limit: its
    # requests run past the sum of their decisions' limits, its process is killed, and
    # every hand it had under way is its own forfeit
    log = _chunk("crashers:Sleeper", "simple", 3, True, limit=1.0)
    assert (log["forfeit_seat"] == log["seat_a"]).all()
    reasons = [str(r) for r in log["forfeit_reason"]]
    assert all("no answer within 1s" in r for r in reasons), reasons


def test_a_stop_leaves_no_table_running(monkeypatch: pytest.MonkeyPatch) -> None:
    # the user's Ctrl-C (the guard's flag) while tables wait on their processes: the chunk
    # stops with KeyboardInterrupt, every table unwound, every bot process killed
    started: list[tables._Table] = []
    real = tables._Table.__init__

    def note(self: tables._Table, *args: object) -> None:
        real(self, *args)
        started.append(self)

    calls = {"n": 0}
    real_wait = tables.wait_for

    def stop_after_a_while(*args: object, **kw: object) -> object:
        calls["n"] += 1
        if calls["n"] == 5:
            STATE.user_stop = True
            raise KeyboardInterrupt
        return real_wait(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tables._Table, "__init__", note)
    monkeypatch.setattr(tables, "wait_for", stop_after_a_while)
    try:
        with pytest.raises(KeyboardInterrupt):
            _chunk("simple", "simple", 20, True)
    finally:
        STATE.user_stop = False
    assert started and all(t.dead for t in started)
    assert not referee._POOL
