"""EAAI Java players through ginsim.outside: the bridge against the test players of
tests/java/ (compiled here against the stand-ins of the framework's API), without
Neller's framework."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from ginsim.engine.cards import parse_card
from ginsim.engine.game import play_game
from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.outside.java import FROM_EAAI, TO_EAAI, JavaPlayerError, eaai_cards, parse_melds
from ginsim.run.seeding import deal_seeds, decks_for

JAVA_SOURCES = Path(__file__).parents[1] / "java"


def _javac() -> str | None:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "javac").is_file():
        return str(Path(home) / "bin" / "javac")
    return shutil.which("javac")


@pytest.fixture(scope="session")
def classes(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The test players compiled into a folder: the classpath of their specs."""
    javac = _javac()
    if javac is None:
        pytest.skip("no JDK: javac is not on the PATH and JAVA_HOME has none (.ci/run installs one)")
    out = tmp_path_factory.mktemp("java-classes")
    sources = sorted(str(p) for p in JAVA_SOURCES.rglob("*.java"))
    subprocess.run([javac, "-nowarn", "-d", str(out), *sources], check=True, capture_output=True)
    return str(out)


def _java(classes: str, name: str, params: str = "") -> Callable[[], Strategy]:
    """A factory of fresh players of a spec (its parameters included)."""
    return parse_spec(f"java:{classes}:{name}{':' + params if params else ''}").build


def _deals(n: int, seed: int = 7) -> tuple[list[list[int]], list[int]]:
    seeds = deal_seeds(seed, 0, n)
    return decks_for(seeds).tolist(), [int(s) for s in seeds]


# -- card ids --------------------------------------------------------------------------
def test_card_ids_follow_the_frameworks_suit_order():
    # the framework numbers suit * 13 + rank with suits C H S D; ginsim with C D H S
    assert TO_EAAI[parse_card("AC")] == 0
    assert TO_EAAI[parse_card("7H")] == 13 + 6
    assert TO_EAAI[parse_card("KS")] == 26 + 12
    assert TO_EAAI[parse_card("TD")] == 39 + 9
    assert sorted(TO_EAAI) == list(range(52))
    assert all(FROM_EAAI[TO_EAAI[c]] == c for c in range(52))


def test_melds_cross_the_pipe_as_framework_ids():
    run = (1 << parse_card("5D")) | (1 << parse_card("6D")) | (1 << parse_card("7D"))
    assert eaai_cards(run) == "43,44,45"
    assert parse_melds("43,44,45/0,13,26") == [
        run,
        (1 << parse_card("AC")) | (1 << parse_card("AH")) | (1 << parse_card("AS")),
    ]
    assert parse_melds("n") is None
    assert parse_melds("-") == []
    with pytest.raises(JavaPlayerError, match="twice"):
        parse_melds("43,43,44")


# -- the same policy, hand for hand --------------------------------------------------------
@pytest.mark.parametrize("player", ["SimplePort", "Printer"])
def test_java_simple_plays_as_simple_hand_for_hand(classes, player):
    """The port of simple through the bridge gives the very hands ginsim's simple gives,
    in either seat, on the same decks and seeds: the call order, the card ids, the
    reseeded tie-breaks and the melds shown all agree. Printer prints protocol-like
    lines on every call, which must change nothing."""
    java = _java(classes, player)
    simple = parse_spec("simple").load_class()
    rules = Rules()
    decks, seeds = _deals(120 if player == "SimplePort" else 30)
    checked = 0
    for i, deck in enumerate(decks):
        for seat in (0, 1):
            s = (seeds[i] ^ 0x5555, seeds[i] ^ 0xAAAA)
            mine = [simple(), simple()]
            mine[seat] = java()
            expected = play_hand(rules, [simple(), simple()], deck, i % 2, seeds=s)
            got = play_hand(rules, mine, deck, i % 2, seeds=s)
            assert got == expected, (i, seat)
            checked += got.outcome != "draw"
    assert checked > 100 if player == "SimplePort" else checked > 20


def test_java_simple_plays_whole_games_as_simple(classes):
    """In game mode one player instance plays every hand of a game (scores reported
    between hands); the games still match simple's."""
    java = _java(classes, "SimplePort")
    simple = parse_spec("simple").load_class()
    rules = Rules(gin_bonus=25, undercut_bonus=25)
    decks, seeds = _deals(400, seed=3)
    for g in range(6):

        def deck(h: int, g: int = g) -> list[int]:
            return decks[(g * 60 + h) % len(decks)]

        def hand_seeds(h: int, g: int = g) -> tuple[int, int]:
            return seeds[(g * 60 + h) % len(seeds)], seeds[(g * 60 + h + 1) % len(seeds)]

        expected = play_game(rules, [simple(), simple()], deck, g % 2, hand_seeds)
        got = play_game(rules, [java(), simple()] if g % 2 else [simple(), java()], deck, g % 2, hand_seeds)
        assert got == expected


# -- failures are forfeits -----------------------------------------------------------------
def _first_forfeit(cls: Callable[[], Strategy], hands: int = 2) -> list[tuple[int, str]]:
    simple = parse_spec("simple").load_class()
    decks, seeds = _deals(hands)
    out = []
    for i, deck in enumerate(decks):
        r = play_hand(Rules(), [cls(), simple()], deck, 1, seeds=(seeds[i], seeds[i] + 1))
        out.append((r.forfeit_seat, r.forfeit_reason))
    return out


def test_a_java_exception_is_a_forfeit_with_its_stack_trace(classes):
    for seat, reason in _first_forfeit(_java(classes, "Thrower")):
        assert seat == 0
        assert "IllegalStateException: thrown on purpose by Thrower" in reason
        assert "at Thrower.getDiscard(Thrower.java" in reason
        assert "ginsimhost" not in reason and "reflect" not in reason


def test_a_null_discard_and_a_bad_knock_are_forfeits(classes):
    assert all(s == 0 and "getDiscard returned null" in r for s, r in _first_forfeit(_java(classes, "NullDiscard")))
    assert all(s == 0 and "over the knock limit" in r for s, r in _first_forfeit(_java(classes, "AlwaysKnock")))


def test_system_exit_is_a_forfeit_and_play_goes_on(classes):
    results = _first_forfeit(_java(classes, "Exiter"), hands=3)
    assert all(s == 0 and "System.exit(3)" in r for s, r in results)


def test_a_hung_player_is_stopped_and_the_next_hand_gets_a_fresh_jvm(classes):
    results = _first_forfeit(_java(classes, "Hanger", "timeout=0.3"), hands=2)
    assert all(s == 0 and "no answer from Hanger.willDrawFaceUpCard within 0.3s" in r for s, r in results)
    # the same seat's JVM was killed; a player in a fresh one plays normally
    assert all(s == -1 for s, _ in _first_forfeit(_java(classes, "SimplePort"), hands=2))


# -- the command line ------------------------------------------------------------------------
def test_match_with_a_java_spec_records_reproducibility(classes, tmp_path, run_cli):
    out = tmp_path / "run"
    r = run_cli(
        "match",
        f"java:{classes}:SimplePort",
        "simple",
        "--hands",
        "40",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--no-plots",
        "--quiet",
    )
    assert r.code == 0, r.err
    manifest = json.loads((out / "manifest.json").read_text())
    java = next(s for s in manifest["strategies"] if s["label"] == "SimplePort")
    assert java["outside"]["reproducible"] is True
    assert java["outside"]["random_fields_reseeded"] == 1
    assert manifest["reproducible"] is True
    hands = pd.read_parquet(out / "hands")
    assert len(hands) == 40 and (hands.forfeit_seat == -1).all()

    out2 = tmp_path / "unseeded"
    r = run_cli(
        "match",
        f"java:{classes}:Unseeded",
        "simple",
        "--hands",
        "4",
        "--jobs",
        "1",
        "--out",
        str(out2),
        "--no-plots",
        "--quiet",
    )
    assert r.code == 0, r.err
    manifest = json.loads((out2 / "manifest.json").read_text())
    assert manifest["reproducible"] is False
    notes = next(s for s in manifest["strategies"] if s["label"] == "Unseeded")["outside"]["notes"]
    assert any("ThreadLocalRandom" in n for n in notes)


def test_java_runs_do_not_depend_on_jobs(classes, tmp_path, run_cli):
    logs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}"
        r = run_cli(
            "match",
            f"java:{classes}:SimplePort",
            "random",
            "--hands",
            "60",
            "--jobs",
            jobs,
            "--out",
            str(out),
            "--no-plots",
            "--quiet",
        )
        assert r.code == 0, r.err
        logs.append(pd.read_parquet(out / "hands").sort_values(["deal", "copy"]).reset_index(drop=True))
    pd.testing.assert_frame_equal(logs[0], logs[1])


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("java:{cp}:Nope", "class Nope not found"),
        ("java:{cp}/missing:SimplePort", "does not exist"),
        ("java:{cp}:NotAPlayer", "does not implement ginrummy.GinRummyPlayer"),
        ("java:{cp}/ginrummy:SimplePort", "ginrummy framework"),
        ("java:SimplePort", "expected java:CLASSPATH:ClassName"),
        ("java:{cp}:SimplePort:timeout=0", "timeout must be a positive"),
    ],
)
def test_a_bad_java_spec_is_one_line_exit_2(classes, spec, message, run_cli):
    r = run_cli("match", spec.format(cp=classes), "simple", "--hands", "2", "--quiet")
    assert r.code == 2
    assert message in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_no_jdk_is_one_line_exit_2(classes, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(Path(sys.executable).parent)  # python, but no java or javac
    r = subprocess.run(
        [sys.executable, "-m", "ginsim", "match", f"java:{classes}:SimplePort", "simple", "--hands", "2"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert r.returncode == 2
    assert "no javac found" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.usefixtures("classes")  # skips without a JDK
def test_the_java_experiments_script_compiles_the_player_they_name(tmp_path, run_cli, monkeypatch):
    """experiments/java/compile_marjj.sh builds, from the fetched framework and player
    sources, the very classpath and class the Java experiment files name. Stand-ins here:
    the test framework and a player saved as MARJJ's file is (no framework import)."""
    root = Path(__file__).resolve().parents[2]
    script = root / "experiments" / "java" / "compile_marjj.sh"
    specs = {
        spec
        for f in sorted((root / "experiments" / "java").glob("*.toml"))
        for spec in re.findall(r'"(java:[^"]+)"', f.read_text(encoding="utf-8"))
    }
    assert specs == {"java:build/classes:MARJJ_v5"}
    shutil.copytree(JAVA_SOURCES / "ginrummy", tmp_path / "gin-rummy-eaai" / "ginrummy")
    player = (JAVA_SOURCES / "SimplePort.java").read_text(encoding="utf-8")
    player = "\n".join(line for line in player.splitlines() if not line.startswith("import ginrummy"))
    (tmp_path / "MARJJ").mkdir()
    (tmp_path / "MARJJ" / "MARJJ_v5-1.java").write_text(player.replace("SimplePort", "MARJJ_v5"), encoding="utf-8")
    missing = subprocess.run(["sh", str(script), "nowhere"], cwd=tmp_path, capture_output=True, text=True)
    assert missing.returncode == 2 and "gin-rummy-eaai" in missing.stderr
    done = subprocess.run(["sh", str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    monkeypatch.chdir(tmp_path)
    r = run_cli("match", "java:build/classes:MARJJ_v5", "simple", "--hands", "4", "--jobs", "1", "-q", "--no-plots")
    assert r.code == 0, r.err
