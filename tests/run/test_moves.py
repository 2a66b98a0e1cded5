"""Move logs: every decision of a run's hands, replayed from the seeds, loads in pandas,
and its decisions alone play every hand out as the hand log has it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import ginsim
from ginsim.engine.cards import parse_card
from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import Rules
from ginsim.run.seeding import deal_seed, deck_for
from ginsim.run.worker import first_dealer
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import RESULT_COLUMNS, read_chunk
from ginsim.strategy import Strategy


class Scripted(Strategy):
    """Answers each decision from the move log, in order (nothing else)."""

    def __init__(self, answers: list[object]) -> None:
        self.answers = iter(answers)

    def take_upcard(self, view):  # type: ignore[no-untyped-def]
        return next(self.answers)

    def discard(self, view):  # type: ignore[no-untyped-def]
        return next(self.answers)

    def knock(self, view):  # type: ignore[no-untyped-def]
        return next(self.answers)


def _answers(moves: pd.DataFrame) -> list[object]:
    out: list[object] = []
    for action, card in zip(moves["action"], moves["card"], strict=True):
        if action in ("take", "pass", "draw"):
            out.append(action == "take")
        elif action == "discard":
            out.append(parse_card(card))
        else:
            out.append(action == "knock")
    return out


def _replays_to_the_log(folder: Path, moves: pd.DataFrame, seed: int) -> int:
    log = pd.concat([read_chunk(f) for f in chunk_files(folder)], ignore_index=True)
    checked = 0
    for n, hand in moves.groupby("hand", sort=True):
        row = log.iloc[int(n)]
        seats = [Scripted(_answers(hand[hand["seat"] == s])) for s in (0, 1)]
        deal = int(row["deal"])
        r = play_hand(Rules(), seats, deck_for(deal_seed(seed, deal)), first_dealer(deal))
        for name in RESULT_COLUMNS:
            want = row[name]
            assert str(getattr(r, name)) == str(want), (n, name)
        checked += 1
    return checked


@pytest.mark.parametrize("hands", [1000])  # 10,000 in the measured command of docs/python.md
def test_a_move_log_loads_in_pandas_and_replays_to_the_hand_log(run_cli, tmp_path: Path, hands: int) -> None:
    out = tmp_path / "run"
    args = ["match", "simple", "threshold:knock_at=5", "--hands", str(hands), "--seed", "4", "-q", "--no-plots"]
    assert run_cli(*args, "--jobs", "1", "--out", str(out)).code == 0
    r = run_cli("moves", str(out))
    assert r.code == 0, r.err
    moves = pd.read_parquet(out / "moves.parquet")
    assert r.out.strip() == f"wrote {len(moves):,} decisions to {out / 'moves.parquet'}"
    assert moves["hand"].nunique() == hands
    assert set(moves["action"]) <= {"take", "pass", "draw", "discard", "knock", "play_on"}
    assert (moves["stock_size"] <= 31).all() and (moves["seen_mask"] & moves["hand_mask"] == moves["hand_mask"]).all()
    assert _replays_to_the_log(out, moves, 4) == hands


def test_run_moves_chooses_hands_and_game_runs(tmp_path: Path) -> None:
    run = ginsim.match("aware", "simple", games=2, jobs=1, out=tmp_path / "g")
    undercuts = run.moves(where="outcome == 'undercut'")
    assert set(undercuts["hand"]) == set(run.hands.index[run.hands["outcome"] == "undercut"])
    some = run.moves(hands="0:3,5")
    assert sorted(set(some["hand"])) == [0, 1, 2, 5]
    path = run.moves(hands="1", out=tmp_path / "one.csv")
    assert pd.read_csv(path)["hand"].unique().tolist() == [1]
    assert (some.groupby("hand")["decision"].min() == 0).all()


def test_a_bad_choice_is_one_line_and_writes_nothing(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        run_cli("match", "simple", "random", "--hands", "10", "-j", "1", "-q", "--no-plots", "--out", str(out)).code
        == 0
    )
    r = run_cli("moves", str(out), "--hands", "10")
    assert r.code == 2 and r.err.strip() == "ginsim: error: --hands: row 10 is not in the hand log (rows 0 to 9)"
    r = run_cli("moves", str(out), "--where", "points >")
    assert r.code == 2 and r.err.startswith("ginsim: error: --where 'points >'")
    assert not (out / "moves.parquet").exists()
