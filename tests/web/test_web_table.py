"""``ginsim web``'s API without a browser (Starlette's test client): moves out of turn,
illegal or stale get one line and change nothing; no answer names a card of the bot's
before the showdown; the watch and run-folder endpoints; the page's files are served."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.web import card_names, engine_game, secret_cards

from ginsim.cli import cli
from ginsim.engine.rules import Rules

pytest.importorskip("starlette", reason="ginsim web needs the web extra: pip install -e '.[web]'")
from starlette.testclient import TestClient

from ginsim.web.server import make_app


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    args = ["match", "simple", "random", "--hands", "4", "--out", str(root / "m"), "--no-plots", "-q", "--jobs", "1"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    return root


@pytest.fixture
def client(runs: Path) -> TestClient:
    return TestClient(make_app(runs))


def _new(client: TestClient, seed: int, **kw: Any) -> dict[str, Any]:
    r = client.post("/api/play", json={"bot": "simple", "seed": seed, "rules_text": "target_score=25", **kw})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_a_move_that_does_not_fit_changes_nothing(client: TestClient) -> None:
    s = _new(client, 3)
    gid = s["id"]
    url = f"/api/play/{gid}/move"
    before = client.get(f"/api/play/{gid}").json()
    for body, says in [
        ({"action": "discard", "card": s["hand"][0]}, "the first-turn offer comes first"),
        ({"action": "stock"}, "on the first-turn offer take"),
        ({"action": "next"}, "not now: take the upcard or pass"),
        ({"action": "take", "version": s["version"] - 1}, "the table has moved on"),
        ({"action": "discard", "card": "ZZ"}, "the first-turn offer comes first"),
    ]:
        r = client.post(url, json=body)
        assert r.status_code == 400 and r.json()["error"].startswith(says) and "\n" not in r.json()["error"]
        assert client.get(f"/api/play/{gid}").json() == before
    s = client.post(url, json={"action": "pass"}).json()
    if s["prompt"] == "draw":
        s = client.post(url, json={"action": "stock"}).json()
    assert s["prompt"] == "discard"
    r = client.post(url, json={"action": "discard", "card": next(c for c in ["AC", "2C", "3C"] if c not in s["hand"])})
    assert r.status_code == 400 and "is not in your hand" in r.json()["error"]
    r = client.post(url, json={"action": "knock", "card": s["legal"][0]})
    assert r.status_code == 400 and r.json()["error"].startswith("cannot knock discarding")
    assert client.post("/api/play/nope/move", json={"action": "pass"}).status_code == 400
    assert client.post("/api/play", json={"bot": "nosuchbot"}).json()["error"]
    assert "rule" in client.post("/api/play", json={"rules_text": "target_score=x"}).json()["error"]


def test_no_answer_names_the_bots_hidden_cards_and_scores_match(client: TestClient) -> None:
    s = _new(client, 12)
    gid = s["id"]
    url = f"/api/play/{gid}/move"
    texts = [str(s)]
    checks = 0
    while s["prompt"] != "game_over":
        p = s["prompt"]
        if p in ("offer", "draw", "discard"):  # the check report is an answer too
            texts.append(str(client.post(f"/api/play/{gid}/check", json={}).json()))
            checks += 1
        action = {"offer": "pass", "draw": "stock", "layoff": "layoff", "hand_over": "next"}.get(p, "discard")
        s = client.post(url, json={"action": action, "card": (s.get("legal") or [None])[-1], "cards": []}).json()
        if s["prompt"] in ("hand_over", "game_over"):
            secret = secret_cards(s["result"], s["events"])
            assert secret and not any(secret & card_names(t) - {"AS"} for t in texts), secret
            texts = []
        elif s["prompt"] in ("offer", "draw", "discard"):
            texts.append(str(s))
    expected = engine_game(Rules().with_values({"target_score": 25}, "test"), "simple", 12)
    assert s["scores"] == list(expected.scores) and checks > 5


def test_check_knock_takes_a_chosen_arrangement(client: TestClient) -> None:
    s = _new(client, 3)
    gid = s["id"]
    r = client.post(f"/api/play/{gid}/check", json={}).json()
    assert r["deadwood"] >= 0 and all(set(m) <= set(r["cards"]) for m in r["candidates"])
    assert client.post(f"/api/play/{gid}/check", json={"melds": []}).json()["deadwood"] >= r["deadwood"]
    melds = {tuple(sorted(m)) for m in r["candidates"]}
    odd = next(list(c) for c in combinations(r["cards"], 3) if tuple(sorted(c)) not in melds)
    bad = client.post(f"/api/play/{gid}/check", json={"melds": [odd]})
    assert bad.status_code == 400 and bad.json()["error"].endswith("is not a meld")


def test_watch_plays_a_game_hand_by_hand(client: TestClient) -> None:
    body = {"a": "simple", "b": "random", "seed": 4, "rules_text": "target_score=60"}
    w = client.post("/api/watch", json=body).json()
    h = 0
    while True:
        data = client.get(f"/api/watch/{w['id']}/hand/{h}").json()
        assert data["steps"][0]["label"] == "deal" and data["steps"][-1]["end"]
        if data["over"]:
            break
        h += 1
    assert max(data["scores"]) >= 60
    assert "ended after" in client.get(f"/api/watch/{w['id']}/hand/{h + 1}").json()["error"]


def test_run_folders_are_browsed_and_replayed(client: TestClient) -> None:
    assert client.get("/api/options").json()["runs"] == ["m"]
    listed = client.get("/api/runs/hands", params={"run": "m"}).json()
    assert listed["total"] == len(listed["hands"]) == 4  # 4 hands: 2 deals, each played twice
    first = client.get("/api/runs/hands", params={"run": "m", "first": "knock"}).json()
    assert listed["hands"][first["offset"]]["outcome"] == "knock"
    picked = client.get("/api/runs/hands", params={"run": "m", "where": "turns > 1 and points > 0"}).json()
    assert picked["offset"] == next(h["hand"] for h in listed["hands"] if h["turns"] > 1 and h["points"] > 0)
    data = client.get("/api/runs/replay", params={"run": "m", "hand": 1, "seat": 1}).json()
    assert data["seat"] == 1 and "cards" not in data["steps"][1]["hands"][0]
    for bad in ("..", "../..", "/etc", "m/../.."):
        assert "no run folder" in client.get("/api/runs/replay", params={"run": bad, "hand": 0}).json()["error"]
    assert "condition" in client.get("/api/runs/hands", params={"run": "m", "where": "turns"}).json()["error"]


def test_the_page_and_its_files(client: TestClient) -> None:
    page = client.get("/").text
    for name in ("cards.css", "app.css", "cards.js", "replay.js", "app.js", "browse.js"):
        assert f"/static/{name}" in page and client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../server.py").status_code == 404


def test_the_command_serves_the_page(runs: Path) -> None:
    """``ginsim web --port 0`` prints its address and serves the page there until stopped."""
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-m", "ginsim", "web", "--port", "0", "--runs", str(runs)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        url = line.split("open ", 1)[1].split(" ", 1)[0]
        assert url.startswith("http://127.0.0.1:") and f"run folders from {runs}" in line
        with urllib.request.urlopen(url, timeout=10) as r:
            assert "<title>ginsim" in r.read().decode()
        with urllib.request.urlopen(url + "api/options", timeout=10) as r:
            assert b'"runs":["m"]' in r.read()
    finally:
        proc.terminate()
        proc.wait(10)
