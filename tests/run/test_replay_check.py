"""Reproducibility is checked, not assumed (ginsim.run.recheck): the runner replays each
chunk's first deal and a strategy that plays differently under the same seed marks the
run ``reproducible: false``, named, with one warning; the figures stay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ginsim.engine.playhand import HandResult
from ginsim.run.recheck import compare, difference, suspects

BOT = """
import random
from ginsim import Strategy
from ginsim.cards import cards_list


class R(Strategy):
    def take_upcard(self, view):
        return {source}.random() < 0.5

    def discard(self, view):
        return {source}.choice(cards_list(view.legal_discards()))

    def knock(self, view):
        return {source}.random() < 0.5
"""


def _bot(folder: Path, source: str) -> str:
    (folder / "r.py").write_text(BOT.format(source=source))
    return f"{folder / 'r.py'}:R"


def _run(run_cli, spec: str, out: Path, *size: str):
    return run_cli("match", spec, "simple", *size, "--jobs", "1", "--no-plots", "--out", str(out))


@pytest.mark.parametrize("size", [("--hands", "80", "--chunk", "10"), ("--games", "8", "--chunk", "2")])
def test_a_bot_on_the_global_random_module_is_found_out(tmp_path, run_cli, size):
    out = tmp_path / "run"
    r = _run(run_cli, _bot(tmp_path, "random"), out, *size)
    assert r.code == 0
    warnings = [line for line in r.err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "'R'" in warnings[0] and "reproducible: false" in warnings[0]
    m = json.loads((out / "manifest.json").read_text())
    assert m["reproducible"] is False
    assert m["unreproduced"] and all(u["strategies"] == ["R"] for u in m["unreproduced"])
    assert "not reproducible" in (out / "report.md").read_text()
    assert "not reproducible" in r.out  # the terminal digest says it too
    assert "points_per_hand" in (out / "summary.csv").read_text()  # the figures stay


@pytest.mark.parametrize("size", [("--hands", "80", "--chunk", "10"), ("--games", "8", "--chunk", "2")])
def test_a_bot_on_its_seeded_stream_stays_reproducible(tmp_path, run_cli, size):
    out = tmp_path / "run"
    r = _run(run_cli, _bot(tmp_path, "view.rng"), out, *size)
    assert r.code == 0 and "warning" not in r.err
    m = json.loads((out / "manifest.json").read_text())
    assert m["reproducible"] is True and "unreproduced" not in m
    assert "not reproducible" not in (out / "report.md").read_text()


def _result(**changes: object) -> HandResult:
    base = HandResult("knock", 0, 0, 12, 3, 15, 15, 0, 9, 20, 1)
    return base._replace(**changes)


def test_the_check_compares_every_per_hand_field_and_ignores_time_limits():
    base = _result()
    assert difference(base, base) == ""
    other = _result(knocker_deadwood=4)
    assert difference(base, other) == "knocker_deadwood 3 logged, 4 replayed"
    timed = _result(outcome="forfeit", winner=1, forfeit_seat=0, forfeit_reason="discard: no answer within 10s")
    assert difference(timed, base) is None  # a time limit is the machine's, not the seed's
    check = compare([("deal 0, copy 0", base, (0, 0))], [("deal 0, copy 0", other, (0, 0))])
    assert check.compared == 1 and check.difference.startswith("deal 0, copy 0: knocker_deadwood")
    assert compare([("d", base, (0, 0))], [("d", base, (0, 5))]).difference.startswith("d: scores before")


def test_suspects_are_the_strategies_that_are_not_built_ins():
    assert suspects("simple", "simple", "/x/r.py:R", "R") == ["R"]
    assert suspects("/a.py:A", "A", "/b.py:B", "B") == ["A", "B"]
    assert suspects("simple", "simple", "random", "random") == ["simple", "random"]
