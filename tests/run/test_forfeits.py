"""Crashes a user can debug: each forfeit's traceback and view in forfeits/,
pointed to by the digest and report.md; replay picks hands by what happened."""

from __future__ import annotations

import pytest

import ginsim

BOT = '''
from ginsim import Strategy


class Crash(Strategy):
    """Raises once the stock is low; plays like simple before."""

    name = "crash"

    def take_upcard(self, view):
        return False

    def discard(self, view):
        if view.stock_size < 15:
            raise ValueError("no plan for a low stock")
        _, cards = view.best_discards()
        return (cards & -cards).bit_length() - 1


class Wrong(Crash):
    """Answers the knock question with a number."""

    name = "wrong"

    def discard(self, view):
        _, cards = view.best_discards()
        return (cards & -cards).bit_length() - 1

    def knock(self, view):
        return 1
'''


@pytest.fixture
def bot(tmp_path, monkeypatch):
    (tmp_path / "bot.py").write_text(BOT)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "bot.py"


def test_a_forfeit_keeps_its_traceback_and_view(bot, tmp_path):
    run = ginsim.match(f"{bot}:Crash", "simple", hands=16, jobs=1, out=tmp_path / "run")
    f = run.forfeits
    assert len(f) == (run.hands["outcome"] == "forfeit").sum() > 0
    first = f.iloc[0]
    assert first["strategy"] == f"{bot}:Crash" and first["decision"] == "discard" and first["kind"] == "raised"
    assert "ValueError: no plan for a low stock" in first["traceback"] and 'bot.py", line' in first["traceback"]
    assert "stock_size: 14" in first["view"] and "hand: " in first["view"]
    for rec in f.itertuples():  # each record names its own row of the hand log
        row = run.hands.iloc[rec.row]
        assert row["outcome"] == "forfeit" and row["forfeit_seat"] == rec.seat
        assert row["seat0" if rec.seat == 0 else "seat1"] == "crash"
    assert "forfeits/" in run.report() and "--first forfeit" in run.report()


def test_illegal_answers_and_games_are_traced(bot, tmp_path):
    run = ginsim.match(f"{bot}:Wrong", "simple", games=2, jobs=1, out=tmp_path / "g")
    f = run.forfeits
    assert len(f) == (run.hands["outcome"] == "forfeit").sum() > 0  # games end at Wrong's first knock question
    assert set(f["decision"]) == {"knock"} and set(f["answer"]) == {"1"} and set(f["kind"]) == {"illegal"}
    rows = run.hands.iloc[f["row"]]
    assert (rows["outcome"] == "forfeit").all() and rows["game_end"].all()


def test_digest_and_replay_pick_by_outcome(run_cli, bot, tmp_path):
    out = tmp_path / "c"
    r = run_cli("match", f"{bot}:Crash", "simple", "--hands", "16", "-j", "1", "--no-plots", "--out", str(out))
    assert "forfeits: each one's traceback and view are in" in r.out and "--first forfeit" in r.out
    hands = ginsim.open_run(out).hands
    r = run_cli("replay", str(out), "--first", "forfeit")
    assert r.code == 0, r.err
    n = int((hands["outcome"] == "forfeit").to_numpy().nonzero()[0][0])
    assert f"Hand {n} of" in r.out
    assert "ValueError: no plan for a low stock" in r.out and "its view at that decision" in r.out
    cond = "outcome == 'knock' and points > 10 and winner_name == 'simple'"
    expected = hands.query(cond).index[0]
    r = run_cli("replay", str(out), "--where", cond, "--seat", "1")
    assert r.code == 0 and f"Hand {expected} of" in r.out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--where", "pointz > 3"], "name 'pointz' is not defined"),
        (["--where", "points + 1"], "not a condition"),
        (["--first", "big_gin"], "no hand with outcome big_gin"),
        (["--hand", "1", "--first", "gin"], "not both"),
        ([], "say which hand"),
    ],
)
def test_replay_selection_mistakes_are_one_line(run_cli, tmp_path, args, message):
    ginsim.match("simple", "random", hands=4, jobs=1, out=tmp_path / "m")
    r = run_cli("replay", str(tmp_path / "m"), *args)
    assert r.code == 2 and message in r.err and "Traceback" not in r.err
