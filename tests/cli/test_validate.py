"""``ginsim validate`` and ginsim.testing: the contract on any strategy."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from ginsim.run.contract import check_strategy

BOTS = '''
import random

from ginsim import Strategy


class Base(Strategy):
    """Plays like simple, with one fault."""

    def take_upcard(self, view):
        return view.upcard is not None and view.would_meld(view.upcard)

    def discard(self, view):
        _, cards = view.best_discards()
        return (cards & -cards).bit_length() - 1


class Meddler(Base):
    """Forgets what the opponent passed on: writes into its view."""

    name = "meddler"

    def take_upcard(self, view):
        view.opp_passed = 0
        return super().take_upcard(view)


class Gambler(Base):
    """Takes the upcard on a coin flip of the global random module."""

    name = "gambler"

    def take_upcard(self, view):
        return random.random() < 0.5


class Cheat(Base):
    """Discards a card it does not hold once the first draws are done."""

    name = "cheat"

    def discard(self, view):
        if view.stock_size < 29:
            return next(c for c in range(52) if not view.hand >> c & 1)
        return super().discard(view)
'''


@pytest.fixture
def bots(tmp_path, monkeypatch):
    (tmp_path / "bots.py").write_text(BOTS)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "bots.py"


def _verdicts(r):
    return {line.split(":")[0].strip() for line in r.out.splitlines() if "FAIL" in line}


def test_validate_passes_simple(run_cli):
    r = run_cli("validate", "simple", "--hands", "20")
    assert r.code == 0, r.err
    assert r.out.count("PASS") == 4 and "ok: the strategy keeps the contract" in r.out


@pytest.mark.parametrize(
    ("cls", "check"),
    [("Meddler", "never changes its view"), ("Gambler", "reproducible under a seed"), ("Cheat", "legal moves only")],
)
def test_validate_catches_a_bad_bot(run_cli, bots, cls, check):
    r = run_cli("validate", f"{bots}:{cls}", "--hands", "20")
    assert r.code == 1
    assert _verdicts(r) == {f"FAIL  {check}"}
    assert "ginsim replay" in r.out and "seed 0" in r.out


def test_the_replay_command_shows_the_failing_hand(run_cli, bots):
    report = check_strategy(f"{bots}:Cheat", hands=10, opponents=("simple",))
    bad = next(v for v in report.verdicts if not v.passed)
    assert bad.deal is not None
    match, replay = report.replay(bad.deal).split(" && ")
    assert run_cli(*shlex.split(match)[1:]).code == 0
    r = run_cli(*shlex.split(replay)[1:])
    assert r.code == 0, r.err
    assert "forfeit" in r.out and "discard" in r.out


def test_each_suggested_replay_plays_in_a_folder_of_its_own(run_cli, bots):
    """Two failing deals' commands, run one after the other, both work: the second does
    not meet the first's folder (played to another hand count) and get refused."""
    from ginsim.run.contract import Deal

    report = check_strategy(f"{bots}:Cheat", hands=10, opponents=("simple",))
    commands = [report.replay(Deal("simple", deal, 0)) for deal in (1, 4)]
    outs = [shlex.split(c.split(" && ")[0])[-1] for c in commands]
    assert outs[0] != outs[1] and all(o.startswith("validate-bots-simple-deal") for o in outs)
    for command in commands:
        match, replay = command.split(" && ")
        assert run_cli(*shlex.split(match)[1:]).code == 0
        assert run_cli(*shlex.split(replay)[1:]).code == 0


def test_bad_spec_is_one_line(run_cli):
    r = run_cli("validate", "simpel")
    assert r.code == 2 and "did you mean 'simple'" in r.err


USER_TESTS = """
from ginsim.testing import StrategyContract


class TestSimple(StrategyContract):
    spec = "simple"
    hands = 10
    variant_hands = 3
    games = 1
    repro_hands = 3


class TestCheat(StrategyContract):
    spec = "bots.py:Cheat"
    hands = 10
    variant_hands = 3
    games = 1
    repro_hands = 3
"""


def test_ginsim_testing_works_in_a_users_pytest(bots):
    import subprocess
    import sys

    (bots.parent / "test_mine.py").write_text(USER_TESTS)
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "test_mine.py"],
        cwd=bots.parent,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "TestCheat::test_only_legal_moves" in r.stdout and "cannot discard" in r.stdout
    failed = {line.split("::")[1] for line in r.stdout.splitlines() if line.startswith("FAILED")}
    assert failed == {"TestCheat"}, r.stdout[-2000:]


def test_validate_flags_a_bot_whose_copy_1_depends_on_copy_0() -> None:
    from ginsim.run.contract import check_strategy

    attacks = Path(__file__).resolve().parents[1] / "attacks"
    report = check_strategy(f"{attacks / 'harmers.py'}:Recaller", hands=12, opponents=("simple",))
    verdict = {v.check: v for v in report.verdicts}["copy 1 independent of copy 0"]
    assert not verdict.passed and "copy 1 played right after copy 0 differs" in verdict.detail
    assert verdict.deal is not None and verdict.deal.copy == 1
    honest = check_strategy("simple", hands=12, opponents=("simple",))
    assert {v.check: v for v in honest.verdicts}["copy 1 independent of copy 0"].passed
