"""The web pages in a real Chromium driven by Playwright (the system's browser, see
tests/support/web.py; skipped, saying why, where there is none): a whole game against
``simple`` played by clicks scores as the engine scores it, and the page never holds the
bot's hidden cards; an illegal drag is refused with its reason; the replay file steps
through every event from file:// with no request and no console error."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.web import CHROMIUM_ARGS, chromium_or_skip, engine_game, secret_cards, serving

from ginsim.cli import cli
from ginsim.engine.rules import Rules

SEED = 12  # two hands: the second comes after "Next hand"
TARGET = 25  # a short game: one or two hands
BEFORE_SHOWDOWN = ("offer", "draw", "discard")  # a knock shows the knocker's melds (R16), then both hands


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("uvicorn", reason="ginsim web needs the web extra: pip install -e '.[web]'")
    with serving(tmp_path_factory.mktemp("runs")) as url:
        yield url


def _start(page: Any, site: str, seed: int) -> None:
    page.goto(site)
    page.fill("#play-form input[name=rules_text]", f"target_score={TARGET}")
    page.fill("#play-form input[name=seed]", str(seed))
    with page.expect_response(lambda r: r.url.endswith("/api/play")):
        page.click("#start")
    page.wait_for_selector("#game:not([hidden])")


def _act(page: Any, selector: str) -> dict[str, Any]:
    """Click and return the state the server answered with."""
    with page.expect_response(lambda r: "/move" in r.url) as info:
        page.click(selector)
    page.wait_for_selector("body:not(.busy)")
    return info.value.json()  # type: ignore[no-any-return]


def test_a_whole_game_by_clicks_scores_as_the_engine(browser: Any, site: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    bodies: list[str] = []  # every answer of the table's API, in order
    page.on("response", lambda r: bodies.append(r.text()) if "/api/play" in r.url else None)
    _start(page, site, SEED)
    state = json.loads(bodies[-1])
    hand_texts: list[str] = [bodies[-1]]  # this hand's answers and pages before its showdown
    clicks = 0
    while state["prompt"] != "game_over":
        clicks += 1
        assert clicks < 400
        prompt = state["prompt"]
        if prompt in BEFORE_SHOWDOWN:
            hand_texts.append(page.content())
        if prompt == "offer":
            state = _act(page, "#b-pass")
        elif prompt == "draw":
            state = _act(page, "#p-stock .card")
        elif prompt == "discard":
            state = _act(page, "#my-cards .card.legal >> nth=-1")
        elif prompt == "layoff":
            state = _act(page, "#b-done")
        elif prompt == "hand_over":
            hand_texts = []
            state = _act(page, "#b-next")
        else:
            pytest.fail(f"unexpected prompt {prompt!r}")
        if state["prompt"] in ("hand_over", "game_over"):
            secret = secret_cards(state["result"], state["events"])
            assert secret, "the bot ends each hand with cards nobody saw"
            for text in hand_texts:
                assert not secret & set(re.findall(r'"([A2-9TJQK][CDHS])"', text))
        elif state["prompt"] in BEFORE_SHOWDOWN:
            hand_texts.append(json.dumps(state))
    expected = engine_game(Rules().with_values({"target_score": TARGET}, "test"), "simple", SEED)
    assert state["scores"] == list(expected.scores)
    assert len(state["hands"]) == len(expected.hands)
    assert [h["points"] for h in state["hands"]] == [h.points for h in expected.hands]
    total = page.inner_text("#total")
    assert f"You {expected.scores[0]} " in total and f"simple {expected.scores[1]} " in total
    assert page.is_visible("#b-new") and "game" in page.inner_text("#showdown")
    page.close()


def test_an_illegal_drag_is_refused_with_its_reason(browser: Any, site: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    _start(page, site, 3)
    hand = page.locator("#my-cards .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    pile = page.inner_text("#p-pilecount")
    with page.expect_response(lambda r: "/move" in r.url) as info:
        page.drag_and_drop("#my-cards .card >> nth=0", "#p-pile")  # a discard before drawing
    assert info.value.status == 400
    page.wait_for_selector("body:not(.busy)")
    error = page.inner_text("#error")
    assert error.startswith("the first-turn offer comes first: take ") and error.endswith(" or pass")
    assert page.locator("#my-cards .card").evaluate_all("cs => cs.map(c => c.dataset.card)") == hand
    assert page.inner_text("#p-pilecount") == pile
    assert page.is_visible("#b-pass") and page.is_enabled("#b-pass")
    page.close()


def test_a_knock_with_chosen_sets_after_a_confirmation(browser: Any, site: str) -> None:
    """Play the best discard each turn until a knock is possible, pick the sets to show
    (drop one: too much deadwood, the knock button waits; take it back), confirm."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    _start(page, site, 2)  # seed 2: the best discards reach a knock in the first hand
    state = json.loads(page.evaluate("JSON.stringify(game)"))
    for _ in range(200):
        if state["prompt"] == "discard" and state["can_knock"]:
            break
        if state["prompt"] == "discard":
            with page.expect_response(lambda r: "/check" in r.url) as info:
                page.click("#b-check")
            best = info.value.json()["best_discards"][0]
            state = _act(page, f"#my-cards .card[data-card='{best}']")
        else:
            sel = {"offer": "#b-pass", "draw": "#p-stock .card", "layoff": "#b-best", "hand_over": "#b-next"}
            state = _act(page, sel[state["prompt"]])
    assert state["prompt"] == "discard" and state["can_knock"]
    with page.expect_response(lambda r: "/check" in r.url) as info:
        page.click("#b-check")
    best = info.value.json()["best_discards"][0]
    page.click("#b-knock")
    with page.expect_response(lambda r: "/check" in r.url) as info:
        page.locator(f"#my-cards .card[data-card='{best}']").focus()  # by keyboard: Enter picks the card
        page.keyboard.press("Enter")
    report = info.value.json()
    assert report["discard"] == best and report["deadwood"] <= report["knock_limit"]
    sets = report["melds"]
    with page.expect_response(lambda r: "/check" in r.url) as info:
        page.locator("#checkpanel .cand.on").first.click()
    dropped = info.value.json()
    assert len(dropped["melds"]) == len(sets) - 1 and dropped["deadwood"] > report["deadwood"]
    assert page.is_enabled("#knock-go") == (dropped["deadwood"] <= report["knock_limit"])
    with page.expect_response(lambda r: "/check" in r.url) as info:
        page.locator(f"#checkpanel .cand[aria-label='set {' '.join(sets[0])}']").click()
    assert info.value.json()["deadwood"] == report["deadwood"]
    page.click("#knock-go")
    assert page.is_visible("#confirm") and report["discard"] in page.inner_text("#confirm-text")
    with page.expect_response(lambda r: "/move" in r.url) as info:
        page.click("#confirm-yes")
    result = info.value.json()["result"]
    assert result["hands"][0]["knocker"] and result["lines"][0].startswith("You ")
    assert {" ".join(m) for m in result["hands"][0]["melds"]} == {" ".join(m) for m in sets}
    page.close()


def test_the_replay_file_steps_through_every_event_offline(browser: Any, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    args = ["match", "simple", "random", "--hands", "2", "--out", str(folder), "--no-plots", "-q", "--jobs", "1"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    out = tmp_path / "hand.html"
    assert CliRunner().invoke(cli, ["replay", str(folder), "--hand", "0", "--html", str(out)]).exit_code == 0
    data = json.loads(re.search(r'id="data">(.*?)</script>', out.read_text(), re.S).group(1))  # type: ignore[union-attr]
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    requests: list[str] = []
    problems: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(out.as_uri())
    seen = [page.inner_text("#status")]
    while page.is_enabled("#next"):
        page.keyboard.press("ArrowRight")
        seen.append(page.inner_text("#status"))
    steps = data["steps"]
    assert len(seen) == len(steps) and page.inner_text("#pos") == f"step {len(steps)} of {len(steps)}"
    for text, step in zip(seen, steps, strict=True):
        assert text.endswith(" ".join(step["text"].split()))  # the page's text collapses spaces
    assert page.is_visible("#end") and steps[-1]["lines"][0] in page.inner_text("#end")
    page.keyboard.press("Home")
    assert page.inner_text("#pos") == f"step 1 of {len(steps)}"
    assert requests == [out.as_uri()] and problems == []
    page.close()
