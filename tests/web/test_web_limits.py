"""``ginsim web`` keeps the decision limit where its bots run in threads the watchdog
cannot reach: a bot whose module code or constructor never returns gets one line naming
it and the limit (the page's request answers, the server answers every other request,
during the load too), and a bot's decision at a table past the limit ends that game with
one line. The bots here wait on an event (support.web's ``hold``) that each test lets go
at its end, so no thread is left busy."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from support.web import held, release_all, request_json, serving

pytest.importorskip("starlette", reason="ginsim web needs the web extra: pip install -e '.[web]'")
pytest.importorskip("uvicorn", reason="ginsim web needs the web extra: pip install -e '.[web]'")

from ginsim.web.limits import CallClock
from ginsim.web.server import make_app

LIMIT = 0.5  # seconds
TOO_LONG = "gave no answer within 0.5s (--decision-limit)"
HEAD = "from support.web import hold\nfrom ginsim.strategies.simple import Simple\n\n"
BOTS = {
    "module": "hold({name!r})\n\n\nclass Bot(Simple):\n    pass\n",
    "constructor": "class Bot(Simple):\n    def __init__(self) -> None:\n        hold({name!r})\n",
    # the check's instance is built, the one that would play never is
    "second": (
        "class Bot(Simple):\n    built = 0\n\n    def __init__(self) -> None:\n        Bot.built += 1\n"
        "        if Bot.built > 1:\n            hold({name!r})\n"
    ),
    "decision": "class Bot(Simple):\n    def take_upcard(self, view):\n        hold({name!r})\n        return False\n",
    # swallows the exception that asks its thread to stop, and plays on
    "stubborn": (
        "class Bot(Simple):\n    def take_upcard(self, view):\n        try:\n            hold({name!r})\n"
        "        except BaseException:\n            pass\n        return False\n"
    ),
}


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    release_all()


def _bot(folder: Path, kind: str) -> tuple[str, str]:
    """A bot file that holds in its module's code, its constructor or a decision: its
    spec and the name of its hold."""
    name = f"{folder.name}-{kind}"
    path = folder / f"{kind}_bot.py"
    path.write_text(HEAD + BOTS[kind].format(name=name))
    return f"{path}:Bot", name


@pytest.mark.parametrize(
    "kind, step", [("module", "loading and checking it"), ("constructor", "loading and checking it"),
                   ("second", "its constructor")],
)  # fmt: skip
def test_a_bot_that_never_loads_gets_one_line_and_the_server_goes_on(folder: Path, kind: str, step: str) -> None:
    spec, _ = _bot(folder, kind)
    with serving(folder, decision_limit=LIMIT) as url:
        status, got = request_json(url + "api/play", {"bot": spec})
        assert status == 400 and got["error"] == f"strategy '{spec}': {step} {TOO_LONG}"
        assert request_json(url + "api/options")[0] == 200
        status, table = request_json(url + "api/play", {"bot": "simple", "seed": 3})
        assert status == 200 and table["prompt"] == "offer"
        status, again = request_json(url + "api/play", {"bot": spec})  # the first load still runs: refused at once
        assert (
            status == 400
            and again["error"] == f"strategy '{spec}': {step} (from an earlier request, still running) {TOO_LONG}"
        )


def test_watching_bots_bounds_their_loading_too(folder: Path) -> None:
    spec, _ = _bot(folder, "module")
    with serving(folder, decision_limit=LIMIT) as url:
        status, got = request_json(url + "api/watch", {"a": "simple", "b": spec})
        assert status == 400 and got["error"] == f"strategy '{spec}': loading and checking it {TOO_LONG}"
        assert request_json(url + "api/watch", {"a": "simple", "b": "random"})[0] == 200


RAISING = "class Bot(Simple):\n    def __init__(self) -> None:\n        raise RuntimeError('boom')\n"


@pytest.mark.parametrize(
    "source, says", [("raise SystemExit('bye')\n", "SystemExit: bye"), (RAISING, "RuntimeError: boom")]
)
def test_a_bot_that_raises_as_it_loads_gets_one_line(tmp_path: Path, source: str, says: str) -> None:
    """Errors the registry leaves to a command's traceback (module code's SystemExit, a
    constructor's RuntimeError) are the page's one line too, not a server error."""
    from starlette.testclient import TestClient

    path = tmp_path / "raising.py"
    path.write_text(HEAD + source)
    got = TestClient(make_app(tmp_path, LIMIT)).post("/api/play", json={"bot": f"{path}:Bot"})
    assert (
        got.status_code == 400
        and got.json()["error"] == f"strategy '{path}:Bot': loading and checking it raised {says}"
    )


def test_the_server_answers_other_requests_while_a_bot_loads(folder: Path) -> None:
    spec, name = _bot(folder, "module")
    arrived, released = held(name)
    answers: list[tuple[int, dict[str, Any]]] = []
    with serving(folder) as url:  # the default limit: the load is let go long before it
        loading = threading.Thread(target=lambda: answers.append(request_json(url + "api/play", {"bot": spec})))
        loading.start()
        assert arrived.wait(20)
        assert request_json(url + "api/options", timeout=10)[0] == 200  # not held up behind the load
        released.set()
        loading.join(20)
    assert answers and answers[0][0] == 200 and answers[0][1]["names"] == ["You", "Bot"], answers


@pytest.mark.parametrize("seed", [2, 1])  # the bot is offered the upcard first / after the person passes
def test_a_decision_past_the_limit_ends_the_game_with_one_line(folder: Path, seed: int) -> None:
    spec, _ = _bot(folder, "decision")
    with serving(folder, decision_limit=LIMIT) as url:
        status, s = request_json(url + "api/play", {"bot": spec, "seed": seed})
        assert status == 200
        move = f"{url}api/play/{s['id']}/move"
        if seed % 2:  # the person deals second: offered the upcard first
            assert s["prompt"] == "offer"
            status, s = request_json(move, {"action": "pass", "version": s["version"]})
            assert status == 200
        assert s["prompt"] == "game_over" and s["failure"] == f"the game stopped: Bot {TOO_LONG}"
        status, late = request_json(move, {"action": "take"})
        assert status == 400 and late["error"] == "not now: the game is over"
        status, other = request_json(url + "api/play", {"bot": "simple", "seed": seed})
        assert status == 200 and other["prompt"] and not other["failure"]


@pytest.mark.parametrize("seat", [0, 1])
def test_a_watched_bot_past_the_limit_ends_the_game_with_one_line_naming_it(folder: Path, seat: int) -> None:
    spec, name = _bot(folder, "decision")
    pair = {"a": spec, "b": "simple"} if seat == 0 else {"a": "simple", "b": spec}
    stopped = f"the game stopped: seat {seat} (Bot) {TOO_LONG}"
    with serving(folder, decision_limit=LIMIT) as url:
        status, w = request_json(url + "api/watch", {**pair, "seed": 5})
        assert status == 200
        status, got = request_json(f"{url}api/watch/{w['id']}/hand/0")
        assert held(name)[0].is_set()  # the bot was asked, and held
        assert status == 400 and got["error"] == stopped
        for h in (0, 1):  # the game is over: every later hand gets the same line, at once
            assert request_json(f"{url}api/watch/{w['id']}/hand/{h}", timeout=5) == (400, {"error": stopped})
        status, other = request_json(url + "api/watch", {"a": "simple", "b": "random", "seed": 5})
        assert status == 200
        status, hand = request_json(f"{url}api/watch/{other['id']}/hand/0")
        assert status == 200 and hand["title"], hand


def test_a_watched_hand_left_behind_is_never_recorded(folder: Path) -> None:
    """The stuck hand's thread, let go after the game ended, stops without scoring, even
    when its bot swallows the exception that asks it to stop and plays the hand out."""
    from ginsim.engine.rules import Rules
    from ginsim.engine.spec import parse_spec
    from ginsim.errors import RunError
    from ginsim.web.watch import WatchGame

    spec, _ = _bot(folder, "stubborn")
    bot = parse_spec(spec)
    game = WatchGame(Rules(), parse_spec("simple"), bot, 5, decision_limit=LIMIT)
    with pytest.raises(RunError, match="seat 1 \\(Bot\\) gave no answer"):
        game.hand(0)
    left = [t for t in threading.enumerate() if t.name.startswith("ginsim-watch-5-")]
    assert left
    release_all()
    for thread in left:
        thread.join(10)
        assert not thread.is_alive()
    assert game.game.score_pair() == (0, 0) and not game.played


def test_without_a_limit_a_watched_game_plays_the_same_hands() -> None:
    from ginsim.engine.rules import Rules
    from ginsim.engine.spec import parse_spec
    from ginsim.web.watch import WatchGame

    game = WatchGame(Rules(), parse_spec("simple"), parse_spec("random"), 7)
    timed = WatchGame(Rules(), parse_spec("simple"), parse_spec("random"), 7, decision_limit=LIMIT)
    assert game.hand(2) == timed.hand(2)  # the same hands either way


def test_only_a_call_that_lasts_the_limit_is_stuck_never_the_persons() -> None:
    now, count = [0.0], SimpleNamespace(calls=0)
    clock = CallClock(count, 1.0, lambda: now[0])

    def at(t: float, calls: int, paused: bool = False) -> bool:
        now[0], count.calls = t, calls
        return clock.stuck(paused)

    assert not at(0.5, 1)  # a call is under way (the count is odd)
    assert not at(1.4, 1)
    assert at(1.6, 1)  # the limit since it was first seen
    assert not at(1.7, 2) and not at(9.0, 2)  # between calls
    assert not at(9.1, 3, paused=True) and not at(60.0, 3, paused=True)  # the person thinks
    assert not at(60.2, 3)  # answered: the time counts from now
    assert at(61.2, 3)
    assert not at(61.3, 5)  # another call


def test_the_command_takes_the_limit_and_refuses_nan(
    monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    import ginsim.web.server

    made: list[float] = []

    def serve(_host: str, _port: int, root: Path, _ready: object, limit: float) -> None:
        make_app(root, limit)  # refuses a limit that is not a number of seconds, as serve does
        made.append(limit)

    monkeypatch.setattr(ginsim.web.server, "serve", serve)
    done = run_cli("web", "--runs", str(tmp_path), "--decision-limit", "2.5")
    assert done.code == 0 and made == [2.5]
    done = run_cli("web", "--runs", str(tmp_path), "--decision-limit", "nan")
    assert done.code == 2 and made == [2.5]
    assert done.err == "ginsim: error: --decision-limit must be a number of seconds, 0 or more (0: no limit), not nan\n"
