"""State across a match: a strategy with ``lifetime = "match"`` keeps one instance per seat
order for a whole chunk, told of each game and hand; the default stays one per hand."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import read_chunk, read_manifest

LEARNER = '''
from ginsim.strategy import Strategy

CALLS = []


class Learner(Strategy):
    """Knocks only once it has been told of an odd number of hands: its play depends on
    what it kept from the hands before."""

    name = "learner"
    lifetime = "match"

    def __init__(self):
        self.seen = 0

    def new_game(self, game):
        CALLS.append(("game", game))

    def new_hand(self, hand):
        CALLS.append(("hand", hand))
        self.seen += 1

    def take_upcard(self, view):
        return view.would_meld(view.upcard)

    def discard(self, view):
        mask = view.best_discards()[1]
        return (mask & -mask).bit_length() - 1

    def knock(self, view):
        return self.seen % 2 == 1


class Forgetful(Learner):
    lifetime = "hand"
'''


@pytest.fixture
def bot(tmp_path: Path) -> Path:
    path = tmp_path / "learning_bot.py"
    path.write_text(LEARNER, encoding="utf-8")
    return path


def _log(folder: Path) -> pd.DataFrame:
    return pd.concat([read_chunk(f) for f in chunk_files(folder)], ignore_index=True)


def test_kept_instances_are_deterministic_across_jobs_and_part_of_the_identity(run_cli, bot: Path) -> None:
    out = bot.parent
    args = ["match", f"{bot}:Learner", "simple", "--hands", "40", "--chunk", "7", "-q", "--no-plots"]
    assert run_cli(*args, "--jobs", "1", "--out", str(out / "one")).code == 0
    assert run_cli(*args, "--jobs", "2", "--out", str(out / "two")).code == 0
    pd.testing.assert_frame_equal(_log(out / "one"), _log(out / "two"))
    m = read_manifest(out / "one")
    assert m.identity["keep"] == ["learner"]
    forgetful = ["match", f"{bot}:Forgetful", "simple", "--hands", "40", "--chunk", "7", "-q", "--no-plots"]
    assert run_cli(*forgetful, "--jobs", "1", "--out", str(out / "fresh")).code == 0
    assert "keep" not in read_manifest(out / "fresh").identity
    assert not _log(out / "one").equals(_log(out / "fresh"))  # what it kept changed its play
    r = run_cli(*args[:-2], "--jobs", "1", "--chunk", "5", "-q", "--no-plots", "--out", str(out / "one"))
    assert r.code == 2 and "differs in: chunk" in r.err  # the chunk shapes what it learns


def test_hooks_come_in_order_one_instance_per_chunk_and_seat_order(bot: Path, monkeypatch) -> None:
    import importlib

    import ginsim

    monkeypatch.syspath_prepend(str(bot.parent))
    module = importlib.import_module("learning_bot")
    module.CALLS.clear()
    # no decision limit: the chunks play in this very process, whose CALLS the test reads
    ginsim.match(module.Learner, "simple", games=4, chunk=1, jobs=1, out=bot.parent / "g", decision_limit=0)
    calls = module.CALLS
    games = [c for c in calls if c[0] == "game"]
    # each seat order's instance, then the runner's replay check plays copy 0 of the chunk's game again
    assert games == [("game", 0), ("game", 0), ("game", 0), ("game", 1), ("game", 1), ("game", 1)]
    first = calls[: calls.index(("game", 0), 1)]  # copy 0 of game 0
    assert first[0] == ("game", 0) and [c[1] for c in first[1:]] == list(range(len(first) - 1))


def test_a_kept_hand_replays_and_its_moves_log(run_cli, bot: Path) -> None:
    out = bot.parent / "r"
    args = ["match", f"{bot}:Learner", "simple", "--hands", "20", "--chunk", "5", "-j", "1", "-q", "--no-plots"]
    assert run_cli(*args, "--out", str(out)).code == 0
    for hand in (0, 7, 19):  # the first of a chunk, and later ones
        r = run_cli("replay", str(out), "--hand", str(hand))
        assert r.code == 0, r.err
    assert run_cli("moves", str(out)).code == 0
    moves = pd.read_parquet(out / "moves.parquet")
    assert moves["hand"].nunique() == 20
