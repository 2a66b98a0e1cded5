"""Tournament mode's spec check (ginsim.tournament.spec_check): a bot's module is imported only
in processes of its own, never by the referee, and a bad spec still stops the command
with the same single line, exit status 2, before any run folder is written."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from support.runs import ginsim_subprocess

from ginsim.engine.spec import imports_outside_code
from ginsim.tournament.spec_check import parse_specs

ATTACKS = Path(__file__).resolve().parents[1] / "attacks"


@pytest.fixture
def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # this machine's Python may not be runnable by nobody; the privilege drop has its own test
    monkeypatch.setenv("GINSIM_BOT_USER", "root")
    path = tmp_path / "marked.py"
    shutil.copy(ATTACKS / "import_marker.py", path)
    return path


CONFINED = sys.platform.startswith("linux") and os.geteuid() == 0
"""Whether bots' processes run confined (root): they then cannot leave a mark."""


def _jailed(*scripts: str) -> list[str]:
    """The marks the bots' own processes leave: none when they are confined."""
    return [] if CONFINED else list(scripts)


def _importers(bot: Path) -> list[str]:
    """The scripts (``sys.argv[0]``'s file name) of the processes that imported the bot."""
    marks = bot.with_suffix(".marks")
    lines = marks.read_text().splitlines() if marks.exists() else []
    marks.unlink(missing_ok=True)
    return [Path(line.split(" ", 1)[1]).name for line in lines]


def test_which_specs_import_outside_code(bot: Path) -> None:
    assert not imports_outside_code("simple")
    assert not imports_outside_code("threshold:knock_at=4")
    assert not imports_outside_code("ginsim.strategies.simple:Simple")
    assert imports_outside_code(f"{bot}:Marked")
    assert imports_outside_code("json:JSONDecoder")


def test_the_facts_match_an_in_process_check(bot: Path) -> None:
    text = f"{bot}:Marked:level=3"
    (apart,) = parse_specs([text], isolate=True)
    assert _importers(bot) == _jailed("spec_host.py")  # checked by a process of its own only
    (here,) = parse_specs([text], isolate=False)
    assert len(_importers(bot)) == 1  # this test process imported it just now
    assert apart.facts is not None and here.facts is None
    assert apart == here and apart.defaults() == here.defaults()
    assert (apart.label, apart.canonical) == (here.label, here.canonical)


def _match(bot: Path, out: Path, *extra: str, spec: str = "Marked") -> tuple[int, str]:
    args = ("match", f"{bot}:{spec}", "simple", "--hands", "4", "--chunk", "1", "-q", "--no-plots")
    proc = ginsim_subprocess(*args, "--out", str(out), *extra, timeout=120)
    return proc.returncode, proc.stderr


def test_in_tournament_mode_the_referee_never_imports_a_bot(bot: Path, tmp_path: Path) -> None:
    code, err = _match(bot, tmp_path / "plain", "--jobs", "1")
    assert code == 0, err
    assert "__main__.py" in _importers(bot)  # the mark works: in-process, the command imports it
    code, err = _match(bot, tmp_path / "iso", "--jobs", "2", "--isolate")
    assert code == 0, err
    importers = _importers(bot)
    assert set(importers) == set(_jailed("spec_host.py", "bot_host.py"))  # neither the command nor its workers


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("Nope", "has no 'Nope'"),
        ("Marked:bogus=1", "unknown parameter 'bogus'"),
        ("Marked:level=abc", "parameter level expects int"),
        ("Marked:level=-1", "level must be 0 or more"),
    ],
)
def test_a_bad_spec_is_the_same_one_line_in_tournament_mode(bot: Path, tmp_path: Path, spec: str, says: str) -> None:
    plain = _match(bot, tmp_path / "plain", spec=spec)
    isolated = _match(bot, tmp_path / "iso", "--isolate", spec=spec)
    assert plain == isolated  # exit status and message alike
    code, err = isolated
    assert code == 2 and err.count("\n") == 1 and says in err, err
    assert not (tmp_path / "iso").exists() and not (tmp_path / "plain").exists()
    assert "__main__.py" not in _importers(bot)[1:]  # the isolated command: its check's process only


def test_a_bot_that_exits_as_it_is_checked_is_one_line(bot: Path, tmp_path: Path) -> None:
    bot.write_text(bot.read_text() + "\nraise SystemExit(0)\n")
    code, err = _match(bot, tmp_path / "iso", "--isolate")
    assert code == 2 and err.count("\n") == 1 and "checking it failed (SystemExit: 0)" in err, err
    assert _importers(bot) == _jailed("spec_host.py") and not (tmp_path / "iso").exists()


def test_a_sweep_and_a_round_robin_check_their_bots_apart(bot: Path, tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ("sweep", f"{bot}:Marked", "--param", "level=0:2", "--vs", "simple", "--hands", "2", "-q", "--no-plots")
    proc = ginsim_subprocess(*args, "--jobs", "1", "--isolate", "--out", str(out), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "__main__.py" not in _importers(bot)
    bad = ginsim_subprocess(*args[:3], "level=-1:1", *args[4:], "--isolate", "--out", str(tmp_path / "bad"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "level must be 0 or more" in bad.stderr
    assert "__main__.py" not in _importers(bot) and not (tmp_path / "bad").exists()
    rr = ("roundrobin", f"{bot}:Marked", f"{bot}:Marked:level=2", "simple", "--hands", "2", "-q", "--no-plots")
    proc = ginsim_subprocess(*rr, "--jobs", "1", "--isolate", "--out", str(tmp_path / "rr"), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "__main__.py" not in _importers(bot)
