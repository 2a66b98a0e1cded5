"""The replay page (``ginsim replay --html``, ``ginsim.web.replay_html``): one step per
event of the hand, each saying what the text replay says; ``--seat`` keeps the other
hand face down until a showdown shows it; the data cannot break out of its script. The
page in a real browser is tested in tests/web/test_web_browser.py."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginsim.cli import cli
from ginsim.terminal.replay import replay_hand
from ginsim.terminal.replaytext import replay_text
from ginsim.terminal.runlog import RunLog
from ginsim.terminal.textview import Style
from ginsim.web import replay_html
from ginsim.web.page import replay_page, script_json
from ginsim.web.steps import PUBLIC_ENDS, hand_steps


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("webreplay") / "run"
    args = ["match", "simple", "random", "--hands", "6", "--out", str(folder), "--no-plots", "-q", "--jobs", "1"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return folder


def _data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert m
    return json.loads(m.group(1))


def test_steps_say_what_the_text_replay_says(run_folder: Path) -> None:
    run = RunLog(run_folder)
    for n in range(len(run)):
        r = replay_hand(run, n)
        data = hand_steps(r, run_folder)
        steps = data["steps"]
        assert len(steps) == len(r.log) + 2  # the deal, every event, the end
        text = replay_text(r, run_folder, Style())
        play = text[text.index("Play:") + 1 : text.index("End:") - 1]
        assert [f"  {s['label']:<8}  {s['text']}" for s in steps[1:-1]] == play
        assert steps[-1]["lines"] == [line[2:] for line in text[text.index("End:") + 1 : -1]]
        assert steps[0]["stock"] == 31 and all(len(h["cards"]) == 10 for h in steps[0]["hands"])
        assert data["title"] == text[:2]


def test_seat_keeps_the_other_hand_face_down(run_folder: Path) -> None:
    run = RunLog(run_folder)
    for n in range(len(run)):
        for seat in (0, 1):
            r = replay_hand(run, n, seat)
            steps = hand_steps(r, run_folder, seat)["steps"]
            other = 1 - seat
            for s in steps[:-1]:
                assert "cards" not in s["hands"][other] and "cards" in s["hands"][seat]
                if s.get("action") == "draw" and s["seat"] == other:
                    assert s["card"] is None and "from the stock" in s["text"]
            assert ("cards" in steps[-1]["hands"][other]) == (r.result.outcome in PUBLIC_ENDS)


def test_the_data_cannot_end_its_script(run_folder: Path) -> None:
    r = replay_hand(RunLog(run_folder), 0)
    evil = "</script><script>alert(1)</script><!--"
    r = dataclasses.replace(r, names=(evil, "seat 1 & <b>"))
    html = replay_page(hand_steps(r, run_folder))
    assert html.count("</script>") == 2  # the JSON's and the code's own
    assert "<!--" not in html and _data(html)["names"] == [evil, "seat 1 & <b>"]
    assert json.loads(script_json({"a": "\u2028<>&"})) == {"a": "\u2028<>&"}


def test_cli_and_python_write_the_same_page(run_folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "hand.html"
    result = CliRunner().invoke(cli, ["replay", str(run_folder), "--hand", "1", "--seat", "0", "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert str(out) in result.output
    page = out.read_text()
    assert page == replay_html(run_folder, 1, seat=0)
    assert not re.search(r"(src|href)=|https?://|@import|url\(", page)  # loads nothing
    assert _data(replay_html(run_folder, first="knock", path=tmp_path / "k.html"))["steps"]
    assert (tmp_path / "k.html").exists()
