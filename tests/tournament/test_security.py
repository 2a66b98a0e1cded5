"""Untrusted bots: what a strategy can learn and what it can break.

Each attack is a fixture strategy in tests/attacks/. A cheater that finds this hand's
deck answers a marker and so forfeits with the marker in the log, which lets a test
count, in any mode, how often its route worked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from attacks.common import CHEAT_MARK, Honest, undo_sabotage
from attacks.seed_inversion import SeedInverter, splitmix64, unsplitmix64
from ginsim.strategies.simple import Simple
from support.runs import ginsim_subprocess

from ginsim.engine.melds import tables_for
from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec, parse_spec
from ginsim.run.seeding import deal_seed, deck_for, strategy_seed, text_key
from ginsim.run.worker import ChunkTask, play_chunk
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import OUTCOME_CODE

_M64 = 0xFFFFFFFFFFFFFFFF
SPECS = ("seed_inverter", "simple")


def _old_strategy_seed(deal: int, key: int, copy: int, seat: int) -> int:
    """How ginsim derived a seat's seed in earlier versions (a chain of bijections)."""
    return splitmix64(deal ^ splitmix64((key + 4 * copy + seat) & _M64))


def _cheats(seeds_for: object, hands: int = 12) -> int:
    """Hands (seed inverter in seat 0 against simple) in which the inverter found the deck."""
    key = text_key("pairing", *SPECS)
    found = 0
    for i in range(hands):
        ds = deal_seed(5, i)
        seeds = (seeds_for(ds, key, 0, 0), seeds_for(ds, key, 0, 1))  # type: ignore[operator]
        res = play_hand(Rules(), [SeedInverter(specs="|".join(SPECS)), Simple()], deck_for(ds), i % 2, seeds=seeds)
        found += res.forfeit_seat == 0 and CHEAT_MARK in res.forfeit_reason
    return found


def test_unsplitmix64_inverts_splitmix64() -> None:
    for x in (0, 1, 12345, _M64, 0x0123456789ABCDEF):
        assert unsplitmix64(splitmix64(x)) == x


def test_seed_inversion_found_every_deck_with_the_old_derivation() -> None:
    # the fixture really is an attack: against the old derivation it finds every deck
    assert _cheats(_old_strategy_seed) == 12


def test_seed_inversion_finds_nothing_now() -> None:
    assert _cheats(strategy_seed) == 0


def test_strategy_seeds_are_one_way_and_still_reproducible() -> None:
    a = strategy_seed(deal_seed(1, 2), 7, 0, 1)
    assert a == strategy_seed(deal_seed(1, 2), 7, 0, 1)
    assert len({strategy_seed(deal_seed(1, 2), 7, c, s) for c in (0, 1) for s in (0, 1)}) == 4
    assert unsplitmix64(a) != deal_seed(1, 2)


# -- the routes to hidden cards, the saboteurs: in-process and in tournament mode --------

ATTACKS = Path(__file__).resolve().parents[1] / "attacks"


def _spec(name: str) -> StrategySpec:
    module, _, cls = name.partition(":")
    return parse_spec(f"{ATTACKS / module}.py:{cls}") if cls else parse_spec(name)


def _play(a: str, b: str, hands: int, isolate: bool, seed: int = 3, **rules: Any) -> dict[str, np.ndarray]:
    """``hands`` hands (duplicate deals) of ``a`` against ``b``: the same pairing key
    whoever plays, so a cheater that finds nothing plays exactly its honest twin's hands.
    In-process, in this very process (no decision limit, so no child process plays the
    chunk): what a bot does to it stays here for the test to see."""
    task = ChunkTask(
        Rules(**rules), _spec(a), _spec(b), 0, 12345, seed, "hands", True, 0, hands // 2, 0,
        decision_limit=None if not isolate else 60.0, isolate=isolate, secret=b"s" * 32 if isolate else b"",
    )  # fmt: skip
    return play_chunk(task)


def _marks(arrays: dict[str, np.ndarray]) -> int:
    return sum(CHEAT_MARK in str(r) for r in arrays["forfeit_reason"])


def _same_log(x: dict[str, np.ndarray], y: dict[str, np.ndarray]) -> bool:
    return all(np.array_equal(x[k], y[k]) for k in x if k != "timing")  # times are the machine's


@pytest.fixture
def bots_as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # this machine's Python may not be runnable by nobody; the privilege drop has its own test
    monkeypatch.setenv("GINSIM_BOT_USER", "root")


CHEATERS = ["cheaters:GcReferrers", "cheaters:GcObjects", "cheaters:FrameWalker"]


@pytest.mark.parametrize("cheater", CHEATERS)
def test_in_process_the_routes_work(cheater: str) -> None:
    # in-process mode is no sandbox: these routes find the deck, which is what makes the
    # tournament-mode test below mean something
    assert _marks(_play(cheater, "simple", 4, isolate=False)) > 0


@pytest.mark.parametrize("cheater", CHEATERS)
@pytest.mark.usefixtures("bots_as_root")
def test_in_tournament_mode_the_routes_find_nothing(cheater: str) -> None:
    honest = _play("common:Honest", "simple", 6, isolate=True)
    cheat = _play(cheater, "simple", 6, isolate=True)
    assert _marks(cheat) == 0
    assert _same_log(cheat, honest)  # it played its honest twin's hands, move for move


@pytest.mark.usefixtures("bots_as_root")
def test_the_seed_route_fails_in_tournament_mode_too() -> None:
    cheat = _play("seed_inversion:SeedInverter:key=12345", "simple", 6, isolate=True)
    assert _marks(cheat) == 0
    assert _marks(_play("seed_inversion:SeedInverter:key=12345", "simple", 6, isolate=False)) == 0


def _proc_run(cheater: str, out: Path, *extra: str) -> dict[str, Any]:
    proc = ginsim_subprocess(
        "match", f"{ATTACKS / 'cheaters'}.py:{cheater}", "simple", "--hands", "6", "--jobs", "1", "-q",
        "--no-plots", "--out", str(out), *extra,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    reasons = [str(r) for f in chunk_files(out) for r in pd.read_parquet(f)["forfeit_reason"]]
    return {"marks": sum(CHEAT_MARK in r for r in reasons), "hands": len(reasons)}


def test_the_proc_manifest_seed_route(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINSIM_BOT_USER", "root")
    assert _proc_run("ProcSeed", tmp_path / "in")["marks"] > 0  # in-process: the route works
    isolated = _proc_run("ProcSeed", tmp_path / "iso", "--isolate")
    assert isolated == {"marks": 0, "hands": 6}  # the decks mix in the run's secret


def test_the_secret_is_the_referees_alone(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = ginsim_subprocess(
        "match", "simple", "random", "--hands", "2", "-q", "--no-plots", "--isolate", "--out", str(out)
    )
    if os.geteuid() != 0:
        assert proc.returncode == 0, proc.stderr
        assert (out / "secret").stat().st_mode & 0o077 == 0  # another user cannot read it
        return
    # as root the bots run as users of their own, who can read no 0600 file of root's;
    # here that may mean they cannot even run this Python: then the run stops with one
    # clear line naming the folder they cannot enter
    if proc.returncode != 0:
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "cannot enter /" in proc.stderr
        assert "python3" not in proc.stderr.split("cannot enter")[1].split(" ")[1]
        return
    assert (out / "secret").stat().st_mode & 0o077 == 0
    sneaky = _proc_run("SecretReader", tmp_path / "sneaky", "--isolate")
    assert sneaky["marks"] == 0


@pytest.mark.usefixtures("bots_as_root")
def test_the_gc_saboteur_harms_no_one_in_tournament_mode() -> None:
    res = _play("saboteurs:GcSaboteur", "simple", 6, isolate=True)
    assert _same_log(res, _play("common:Honest", "simple", 6, isolate=True))


SABOTEURS = ["saboteurs:GcSaboteur", "saboteurs:ClassSaboteur", "saboteurs:CodeSaboteur"]


def _sabotaged(bystander: Simple) -> bool:
    """Whether a saboteur's patch is live in this process: on the instance, on its class,
    or in the code of the class's ``discard``."""
    fn = type(bystander).__dict__["discard"]
    return "discard" in vars(bystander) or fn.__name__ == "_illegal_discard" or fn.__code__.co_name != "discard"


@pytest.mark.parametrize("saboteur", SABOTEURS)
def test_saboteurs_harm_no_one_in_process(saboteur: str) -> None:
    # the engine calls each seat's functions as its class defined them (entry_points):
    # an instance attribute, a patched class or rewritten code changes nobody's play
    honest = _play("common:Honest", "simple", 6, isolate=False)
    bystander = Simple()  # a live instance of the opponent's class, for the gc saboteur to reach
    try:
        res = _play(saboteur, "simple", 6, isolate=False)
        assert _sabotaged(bystander)  # the attack happened: in this process it is live
        # even the bystander, patched or of a patched class, plays its honest hands
        again = play_hand(Rules(), [Honest(), bystander], deck_for(deal_seed(3, 0)), 0)
        twin = play_hand(Rules(), [Honest(), Simple()], deck_for(deal_seed(3, 0)), 0)
    finally:
        undo_sabotage()
    assert not _sabotaged(Simple())
    assert (res["forfeit_seat"] < 0).all()  # the opponent forfeits nothing, nor does the saboteur
    assert _same_log(res, honest)  # its points, wins and forfeits are its honest twin's, hand for hand
    assert again == twin and again.forfeit_seat < 0


@pytest.mark.parametrize("isolate", [False, True])
@pytest.mark.parametrize("tamperer", ["saboteurs:RulesTamperer", "saboteurs:TableTamperer"])
@pytest.mark.usefixtures("bots_as_root")
def test_tamperers_change_no_score(tamperer: str, isolate: bool) -> None:
    public = tables_for(None)
    saved = public.deadwood_mask
    try:
        honest = _play("common:Honest", "simple", 10, isolate=isolate, seed=1)
        res = _play(tamperer, "simple", 10, isolate=isolate, seed=1)
    finally:
        public.deadwood_mask = saved  # the table tamperer leaves the public tables broken
    assert (honest["outcome"] != OUTCOME_CODE["forfeit"]).all()
    # in-process these deals hold an undercut, whose bonus the rules tamperer zeroes
    assert isolate or (honest["outcome"] == OUTCOME_CODE["undercut"]).any()
    assert _same_log(res, honest)


# -- bots that stop, hang or crash the run: each a recorded forfeit, the run goes on ----

CRASHERS = {
    "Exit0": "take_upcard raised SystemExit: 0",
    "Exit3": "take_upcard raised SystemExit: 3",
    "Interrupt": "take_upcard raised KeyboardInterrupt",
    "GenExit": "take_upcard raised GeneratorExit",
    "Forever": "take_upcard: no answer within 1s (the hard limit per decision)",
    "EvilIndex": "discard raised SystemExit: 4",
    "HugeCard": "a discard must be a card (int 0..51), not ",
}


def _forfeits(reasons: list[str], expected: str) -> bool:
    """Every hand forfeited for ``expected``; a bot may see the odd hand end before the
    decision it fails at (the opponent takes the first upcard and knocks at once, before
    its first draw; or knocks before its first discard), tournament decks being new at
    every run."""
    done = [r for r in reasons if r]
    return len(reasons) == 4 and len(done) >= 3 and all(expected in r for r in done)


def _run(tmp_path: Path, bot: str, *extra: str, hands: int = 4) -> tuple[Any, list[str]]:
    out = tmp_path / bot
    args = ("match", f"{ATTACKS / 'crashers'}.py:{bot}", "simple", "--hands", str(hands), "--jobs", "1", "--no-plots")
    proc = ginsim_subprocess(*args, "--out", str(out), *extra, timeout=90)
    reasons = [str(r) for f in chunk_files(out) for r in pd.read_parquet(f)["forfeit_reason"]]
    return proc, reasons


@pytest.mark.parametrize("isolate", [False, True])
@pytest.mark.parametrize("bot", sorted(CRASHERS))
@pytest.mark.usefixtures("bots_as_root")
def test_crashers_forfeit_and_the_run_completes(tmp_path: Path, bot: str, isolate: bool) -> None:
    proc, reasons = _run(tmp_path, bot, "--decision-limit", "1", *(["--isolate"] if isolate else []))
    assert proc.returncode == 0, proc.stderr
    assert _forfeits(reasons, CRASHERS[bot]), reasons
    assert "forfeit" in proc.stdout  # the summary is printed, and says so
    summary = pd.read_csv(tmp_path / bot / "summary.csv")
    assert set(summary["hands"]) == {4}


@pytest.mark.parametrize("isolate", [False, True])
@pytest.mark.usefixtures("bots_as_root")
def test_a_slow_bot_loses_to_the_clock(tmp_path: Path, isolate: bool) -> None:
    proc, reasons = _run(tmp_path, "Sleeper", "--rule", "time_per_hand=1", *(["--isolate"] if isolate else []))
    assert proc.returncode == 0, proc.stderr
    assert _forfeits(reasons, "take_upcard: no answer within 1s (time_per_hand, R25)"), reasons


@pytest.mark.usefixtures("bots_as_root")
def test_a_hard_exit_in_tournament_mode_is_a_forfeit(tmp_path: Path) -> None:
    proc, reasons = _run(tmp_path, "HardExit", "--isolate")
    assert proc.returncode == 0, proc.stderr
    assert _forfeits(reasons, "discard crashed: its process ended (exit status 1)"), reasons


def test_a_hard_exit_in_process_is_one_resumable_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ("match", f"{ATTACKS / 'crashers'}.py:HardExit", "simple", "--hands", "8", "--chunk", "1", "--jobs", "2")
    proc = ginsim_subprocess(*args, "-q", "--no-plots", "--out", str(out), timeout=90)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and f"--out {out}" in proc.stderr
    assert "crashers.py:HardExit' vs 'simple' ended the process playing its chunk (exit status 1)" in proc.stderr


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        ("HugeMelds", "a meld must be a card mask (bits 0..51)"),
        ("HugeLayoff", "lay-offs must be a card mask (bits 0..51)"),
        ("GeneratorMelds", "not a list of card masks"),
    ],
)
@pytest.mark.parametrize("isolate", [False, True])
@pytest.mark.usefixtures("bots_as_root")
def test_huge_answers_are_illegal_moves(tmp_path: Path, bot: str, reason: str, isolate: bool) -> None:
    # enough hands that one is knocked or laid off on whatever the seeds (they depend on
    # the bot file's path, so on where the checkout lies)
    proc, reasons = _run(tmp_path, bot, *(["--isolate"] if isolate else []), hands=24)
    assert proc.returncode == 0, proc.stderr
    assert any(reason in r for r in reasons), reasons


def test_a_bot_emptying_its_own_pile_breaks_nothing() -> None:
    honest = _play("common:Honest", "simple", 6, isolate=False)
    assert _same_log(_play("crashers:PileClearer", "simple", 6, isolate=False), honest)


@pytest.mark.parametrize("isolate", [False, True])
@pytest.mark.usefixtures("bots_as_root")
def test_the_users_ctrl_c_still_stops_the_run(tmp_path: Path, isolate: bool) -> None:
    # a bot raising KeyboardInterrupt forfeits (above); a real SIGINT stops the run, cleanly
    out = tmp_path / "run"
    args = ["match", f"{ATTACKS / 'crashers'}.py:Sleeper", "simple", "--hands", "40", "--jobs", "1", "-q"]
    args += ["--no-plots", "--chunk", "1", "--out", str(out), *(["--isolate"] if isolate else [])]
    # Ctrl-C as a terminal delivers it: with SIGINT's default action (a shell that runs
    # the suite in the background starts it ignored, and ginsim then keeps ignoring it)
    proc = subprocess.Popen(
        [sys.executable, "-m", "ginsim", *args],
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not chunk_files(out) and time.monotonic() < deadline:  # a hand or two played
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    try:  # generous: on a loaded machine a bot's process may take long to start
        _, err = proc.communicate(timeout=180)
    finally:
        proc.kill()
    assert proc.returncode == 130, err  # an interruption exits 130 at every stage
    assert err.count("\n") == 1 and "interrupted" in err and f"--out {out}" in err
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"


@pytest.mark.usefixtures("bots_as_root")
def test_a_tournament_run_resumes_and_replays_with_its_secret(tmp_path: Path, run_cli: Any) -> None:
    out = tmp_path / "run"
    args = ["match", "simple", "random", "--hands", "8", "--chunk", "2", "--jobs", "1", "-q", "--no-plots"]
    assert run_cli(*args, "--isolate", "--out", str(out)).code == 0
    log = pd.concat([pd.read_parquet(f) for f in chunk_files(out)], ignore_index=True)
    chunk_files(out)[-1].unlink()  # as if killed before the last chunk
    assert run_cli(*args, "--isolate", "--out", str(out)).code == 0
    again = pd.concat([pd.read_parquet(f) for f in chunk_files(out)], ignore_index=True)
    pd.testing.assert_frame_equal(log, again)
    assert run_cli(*args, "--out", str(out)).code == 2  # without --isolate: another run
    replay = run_cli("replay", str(out), "--hand", "5")
    assert replay.code == 0, replay.err
    plain = tmp_path / "plain"
    assert run_cli(*args, "--out", str(plain)).code == 0
    other = pd.concat([pd.read_parquet(f) for f in chunk_files(plain)], ignore_index=True)
    assert not log["turns"].equals(other["turns"])  # the secret dealt other decks
