"""Tournament mode against bots that harm, read or stall the other side (tests/attacks/
harmers.py and protocol.py): each attacker gains nothing over its honest twin, its
victim is never charged, the chunk ends, and nothing of the bots outlives it.

Bots run in namespaces of their own when the referee is root (ginsim.tournament.confine); the
tests keep them root inside (``GINSIM_BOT_USER=root``) where this machine's Python is
not runnable by other users; ``test_seats_run_as_users_of_their_own`` needs one that is."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from attacks.common import CHEAT_MARK
from attacks.harmers import FORKED_NAME, SHARED

from ginsim.engine.guard import DecisionTimeout
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec, parse_spec
from ginsim.run.worker import ChunkTask, play_chunk
from ginsim.tournament import bot_process, referee
from ginsim.tournament.confine import closed_folders, namespaces_available
from ginsim.tournament.processes import reach_paths, read_bounded

ATTACKS = Path(__file__).resolve().parents[1] / "attacks"
NAMESPACES = sys.platform.startswith("linux") and os.geteuid() == 0
needs_root = pytest.mark.skipif(not NAMESPACES, reason="bots are confined in namespaces only when the referee is root")


@pytest.fixture(autouse=True)
def bots_as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINSIM_BOT_USER", "root")


def _spec(name: str) -> StrategySpec:
    module, _, cls = name.partition(":")
    return parse_spec(f"{ATTACKS / module}.py:{cls}") if cls else parse_spec(name)


def play(
    a: str, b: str = "simple", deals: int = 3, isolate: bool = True, pairing: int = 0, limit: float = 2.0
) -> dict[str, np.ndarray]:
    """``deals`` duplicate deals of ``a`` (seat 0 in copy 0) against ``b``: the same seeds
    whoever plays, so an attacker that achieves nothing plays its honest twin's hands."""
    task = ChunkTask(
        Rules(), _spec(a), _spec(b), pairing, 12345 + pairing, 3, "hands", True, 0, deals, 0,
        decision_limit=limit, isolate=isolate, secret=b"s" * 32 if isolate else b"",
    )  # fmt: skip
    return play_chunk(task)


def marks(log: dict[str, np.ndarray]) -> int:
    return sum(CHEAT_MARK in str(r) for r in log["forfeit_reason"])


def victim_charged(log: dict[str, np.ndarray]) -> int:
    """Hands the opponent (strategy b) forfeited."""
    seat_b = 1 - log["seat_a"]
    return int((log["forfeit_seat"] == seat_b).sum())


def same_log(x: dict[str, np.ndarray], y: dict[str, np.ndarray]) -> bool:
    return all(np.array_equal(x[k], y[k]) for k in x if k != "forfeit_details")


def left_behind(name: bytes = FORKED_NAME, wait: float = 5.0) -> list[int]:
    """PIDs of processes called ``name`` still alive after up to ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for pid in os.listdir("/proc"):
            try:
                comm = Path(f"/proc/{pid}/comm").read_bytes().strip()
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if comm == name and state != "Z":
                found.append(int(pid))
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


@pytest.fixture(scope="module")
def honest() -> dict[str, np.ndarray]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GINSIM_BOT_USER", "root")
        return play("common:Honest")


@needs_root
@pytest.mark.parametrize("attacker", ["Killer", "Stopper", "MemReader", "Forker", "DiskFiller"])
def test_harmers_gain_nothing(attacker: str, honest: dict[str, np.ndarray]) -> None:
    log = play(f"harmers:{attacker}")
    referee.close_pool()  # the bots' processes kept for the pairing's next chunk: the run's end
    assert marks(log) == 0 and victim_charged(log) == 0
    assert same_log(log, honest)  # its honest twin's hands, move for move
    assert left_behind() == []  # no child, no daemon outlives the chunk


def test_remembering_a_deal_works_in_process_only(honest: dict[str, np.ndarray]) -> None:
    # in-process, the process that played copy 0 plays copy 1: module state carries the
    # hand it was dealt, which copy 1 deals to the opponent
    assert marks(play("harmers:Remember", isolate=False, deals=6)) > 0
    log = play("harmers:Remember")  # a process per copy: nothing to remember
    assert marks(log) == 0 and same_log(log, honest)


@needs_root
def test_no_folder_carries_a_deal_to_another_pairing() -> None:
    for folder in ("/dev/shm", "/var/tmp", "/tmp"):
        Path(folder, SHARED).unlink(missing_ok=True)
    try:
        first = play("harmers:Carrier", pairing=0, deals=4)
        second = play("harmers:Carrier", pairing=1, deals=4)
        assert marks(first) == 0 and marks(second) == 0
        assert not any(Path(folder, SHARED).exists() for folder in ("/dev/shm", "/var/tmp", "/tmp"))
    finally:
        for folder in ("/dev/shm", "/var/tmp", "/tmp"):
            Path(folder, SHARED).unlink(missing_ok=True)


@pytest.mark.parametrize(
    ("attacker", "reason"),
    [
        ("NestBomb", "answered "),  # not a plain value, or with its real answer: out of turn
        ("Staller", "answered out of turn"),
        ("OutOfTurn", "answered out of turn"),
        ("ForgedInit", "could not start: answered out of turn"),
        ("ExitAtStart", "could not start: SystemExit: 0"),
        ("CrashAtStart", "could not start: crashed: its process ended (exit status 139)"),
    ],
)
def test_protocol_attacks_are_the_attackers_forfeits(attacker: str, reason: str) -> None:
    log = play(f"protocol:{attacker}")
    seat_a = log["seat_a"]
    assert victim_charged(log) == 0
    assert (log["forfeit_seat"] == seat_a).all()  # every hand: its own forfeit
    assert all(reason in str(r) and "\n" not in str(r) for r in log["forfeit_reason"]), log["forfeit_reason"]


def test_a_bot_that_sleeps_as_it_starts_forfeits_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_process, "START_TIMEOUT", 2.0)
    t0 = time.monotonic()
    log = play("protocol:SleepAtStart", deals=2)
    assert victim_charged(log) == 0 and (log["forfeit_seat"] == log["seat_a"]).all()
    assert all("could not start in time" in str(r) for r in log["forfeit_reason"])
    assert time.monotonic() - t0 < 30  # once per process, not once per hand


def test_a_bot_that_never_reads_cannot_block_a_write() -> None:
    bot = bot_process.BotProcess(parse_spec("simple"), Rules().to_dict(), 1.0, None)
    proc = subprocess.Popen(["sleep", "30"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    bot.proc = proc
    os.set_blocking(proc.stdin.fileno(), False)  # type: ignore[union-attr]
    t0 = time.monotonic()
    with pytest.raises(DecisionTimeout):
        bot.request({"op": "batch", "items": [[1] * (1 << 20)]}, 1.0)  # far more than a pipe holds
    assert time.monotonic() - t0 < 10 and proc.poll() is not None  # killed


def test_a_process_that_writes_without_end_is_read_with_a_bound() -> None:
    code = "import sys\nfor _ in range(40): sys.stderr.write('x' * (1 << 20))\nprint('done')"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err, in_time = read_bounded(proc, 60, 1 << 16)
    proc.wait()
    assert in_time and out == b"done\n" and len(err) == 1 << 16


@needs_root
def test_seats_run_as_users_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GINSIM_BOT_USER")
    if not namespaces_available():
        pytest.skip("this system forbids the namespaces a bot is confined in")
    log = play("harmers:MemReader")
    assert marks(log) == 0 and victim_charged(log) == 0
    assert left_behind() == []


def test_a_forfeits_traceback_shows_the_bots_own_file() -> None:
    log = play("crashers:Exit3", deals=1)
    assert (log["forfeit_seat"] == log["seat_a"]).all()
    details = [str(d) for d in log.get("forfeit_details", [])]
    assert details and all("crashers.py" in d and "referee.py" not in d for d in details), details


def test_the_folders_a_bot_must_read_are_found_closed_or_open(tmp_path: Path) -> None:
    closed = tmp_path / "closed"
    inner = closed / "a" / "b"
    inner.mkdir(parents=True)
    (inner / "bot.py").write_text("")
    closed.chmod(0o700)
    found = closed_folders([str(inner / "bot.py"), str(closed / "a")])
    assert found[str(closed)] == {"a"}
    assert all(os.stat(f).st_mode & 0o001 == 0 for f in found)
    assert str(inner) not in found  # open folders inside a closed one are not covered
    assert os.getcwd() in reach_paths() and str(tmp_path) in reach_paths((str(tmp_path),))


@needs_root
def test_a_python_behind_a_closed_folder_still_runs_the_bots(tmp_path: Path) -> None:
    """A bot's user cannot enter a folder of mode 0700 (``/root`` of a pyenv Python): its
    mount namespace covers that folder with one holding only the entries on the way."""
    if not namespaces_available():
        pytest.skip("this system forbids the namespaces a bot is confined in")
    home = tmp_path / "home"
    (home / "bots").mkdir(parents=True)
    (home / "secret.txt").write_text("not for bots")
    bot = home / "bots" / "peek.py"
    bot.write_text(
        "import os\n"
        "from ginsim.strategies.simple import Simple\n"
        "class Peek(Simple):\n"
        "    def discard(self, view):\n"
        "        assert os.getuid() != 0 and not os.path.exists(" + repr(str(home / "secret.txt")) + ")\n"
        "        return super().discard(view)\n"
    )
    home.chmod(0o700)
    env = {k: v for k, v in os.environ.items() if k != "GINSIM_BOT_USER"}
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "ginsim", "match", f"{bot}:Peek", "simple", "--hands", "4", "--isolate", "-q"]
    done = subprocess.run([*cmd, "--no-plots", "--out", str(out)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    log = pd.concat(pd.read_parquet(f) for f in sorted((out / "hands").glob("*.parquet")))
    assert len(log) == 4 and (log["outcome"] != "forfeit").all(), log["forfeit_reason"].tolist()
