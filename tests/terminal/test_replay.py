"""``ginsim replay``: every hand of small real runs (hands and games) re-plays exactly as
logged; ``--seat`` shows one seat's views; a log that disagrees and bad input are one
line and exit status 2."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from ginsim.cli import cli, main
from ginsim.engine.cards import CARD_NAMES
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.integrity import sum_path, write_sum
from ginsim.terminal.replay import replay_hand
from ginsim.terminal.replaytext import replay_text, seat_text
from ginsim.terminal.runlog import RunLog
from ginsim.terminal.textview import Style


def _run(folder: Path, *args: str) -> Path:
    result = CliRunner().invoke(
        cli, ["match", "simple", "random", *args, "--out", str(folder), "--no-plots", "-q", "--jobs", "1"]
    )
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture(scope="module")
def hands_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("replay") / "hands", "--hands", "40")


@pytest.fixture(scope="module")
def games_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("replay") / "games", "--games", "3", "--seed", "5")


@pytest.mark.parametrize("which", ["hands_run", "games_run"])
def test_every_hand_replays_as_logged(which: str, request: pytest.FixtureRequest) -> None:
    folder: Path = request.getfixturevalue(which)
    run = RunLog(folder)
    assert len(run) >= 10
    outcomes = set()
    for n in range(len(run)):
        r = replay_hand(run, n)  # raises RunError on any difference from the log
        outcomes.add(r.result.outcome)
        text = "\n".join(replay_text(r, folder, Style()))
        assert f"Hand {n} of {folder}" in text and "all match" in text
        for seat in (0, 1):
            seen = replay_hand(run, n, seat)
            assert seen.result == r.result  # watching a seat does not change the hand
            assert all(d.seen["seat"] == seat for d in seen.decisions)
            seat_text(seen, seat, folder, Style())
    assert outcomes & {"knock", "gin", "undercut"}


def test_replay_command_names_the_hand(hands_run: Path) -> None:
    result = CliRunner().invoke(cli, ["replay", str(hands_run), "--hand", "3"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "pairing 0 (simple vs random), deal 1, copy 1 (seats swapped)" in out
    assert "Deal:" in out and "upcard" in out and "Play:" in out and "End:" in out
    assert "from the stock" in out and "discards" in out
    assert "deadwood" in out and "all match." in out


def test_replay_of_a_game_hand(games_run: Path) -> None:
    run = RunLog(games_run)
    later = next(n for n in range(len(run)) if run.row(n)["game_hand"] > 0)
    result = CliRunner().invoke(cli, ["replay", str(games_run), "--hand", str(later)])
    assert result.exit_code == 0, result.output
    row = run.row(later)
    assert f"game {row['deal']}, copy {row['copy']}" in result.output
    # 1-based ("hand 2 of the game" is its second hand), scores named by seat as the names are printed
    assert f"hand {row['game_hand'] + 1} of the game; scores before it: seat 0 (" in result.output
    names = result.output.split("\n")[1]  # "seat 0 (a) and seat 1 (b); ..."
    seat0, seat1 = names.split(" and ")[0], names.split(" and ")[1].split(";")[0]
    assert f"{seat0} {row['score_0']}, {seat1} {row['score_1']}." in result.output


def test_seat_shows_only_that_seats_view(hands_run: Path) -> None:
    run = RunLog(hands_run)
    r = replay_hand(run, 0)
    opponent_draws = [c for s, a, c in r.log if s == 1 and a == "draw"]
    result = CliRunner().invoke(cli, ["replay", str(hands_run), "--hand", "0", "--seat", "0"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "What seat 0 (simple) saw at each of its decisions" in out
    assert "answer    " in out and "hand      " in out and "opponent  " in out
    assert "seat 1 (random) draws from the stock" in out  # the card it drew stays hidden
    assert opponent_draws
    for card in opponent_draws:
        assert f"seat 1 (random) draws {CARD_NAMES[card]} from the stock" not in out


def test_a_log_that_disagrees_is_an_error(hands_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "tampered"
    shutil.copytree(hands_run, folder)
    first = chunk_files(folder)[0]
    table = pq.read_table(first)
    points = table.column("points").to_pylist()
    points[1] += 1
    table = table.set_column(table.schema.get_field_index("points"), "points", pa.array(points, type=pa.int16()))
    pq.write_table(table, first)
    # re-record its checksum: a log that passes the integrity checks yet disagrees with the
    # engine (as after an engine change), not a damaged file (tests/runfolder/test_integrity.py)
    record = json.loads(sum_path(first).read_text())
    write_sum(first, record["run"], table.num_rows, first, None)
    with pytest.raises(SystemExit) as e:
        main(["replay", str(folder), "--hand", "1"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not replay as logged" in err[0] and "points" in err[0]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--hand", "40"], "has 40 hands, numbered 0 to 39"),
        (["--hand", "-1"], "numbered 0 to 39"),
        (["--hand", "x"], "--hand"),
        (["--hand", "0", "--seat", "2"], "--seat"),
        ([], "--hand"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    hands_run: Path, args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["replay", str(hands_run), *args])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_missing_or_unreadable_run_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notarun").mkdir()
    bad = tmp_path / "badmanifest"
    bad.mkdir()
    (bad / "manifest.json").write_text("{not json", encoding="utf-8")
    for folder, words in ((tmp_path / "notarun", "not a ginsim results folder"), (bad, "not a valid manifest")):
        with pytest.raises(SystemExit) as e:
            main(["replay", str(folder), "--hand", "0"])
        assert e.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0]
    # and once as the installed command, in its own process
    proc = subprocess.run(
        [sys.executable, "-c", "from ginsim.cli import main; main()", "replay", str(tmp_path / "nope"), "--hand", "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "no such results folder" in lines[0], proc.stderr


def test_a_relative_plugin_path_is_read_from_where_the_run_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli
) -> None:
    start = tmp_path / "start"
    start.mkdir()
    (start / "slowbot.py").write_text(
        "from ginsim.strategies.simple import Simple\n\n\nclass Slow(Simple):\n    pass\n"
    )
    monkeypatch.chdir(start)
    r = run_cli("match", "slowbot.py:Slow", "simple", "--hands", "4", "--jobs", "1", "--no-plots", "-q", "--out", "run")
    assert r.code == 0, r.err
    r = run_cli("replay", "run", "--hand", "1")
    assert r.code == 0 and "all match" in r.out
    monkeypatch.chdir(tmp_path)
    r = run_cli("replay", "start/run", "--hand", "1")
    assert r.code == 2
    err = r.err.strip().splitlines()
    assert len(err) == 1 and "no file 'slowbot.py'" in err[0] and f"run replay from {start}," in err[0]
