"""A strategy whose check before the run never ends (its constructor or its module's code
loops forever): the command stops at ``--decision-limit`` with one line naming the
strategy and exit status 2, and a run folder already written is left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.runs import ginsim_subprocess

LIMIT = "0.5"  # seconds
BOT = '''
from pathlib import Path

from ginsim import Strategy
from ginsim.strategies.simple import Simple


class Looping(Simple):
    """Loops forever in its constructor once a file named "stuck" lies beside it."""

    def __init__(self) -> None:
        while Path(__file__).with_name("stuck").exists():
            pass
'''
MODULE_LOOPS = """
from ginsim.strategies.simple import Simple

while True:
    pass


class Never(Simple):
    pass
"""


def _bot(folder: Path, stuck: bool = True) -> str:
    path = folder / "looping.py"
    path.write_text(BOT)
    if stuck:
        (folder / "stuck").touch()
    return f"{path}:Looping"


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("ginsim: error: "), err
    return err


def test_a_constructor_that_never_returns_stops_the_match_with_one_line(tmp_path: Path) -> None:
    spec, out = _bot(tmp_path), tmp_path / "run"
    proc = ginsim_subprocess(
        "match", spec, "simple", "--hands", "4", "--decision-limit", LIMIT, "-q", "--no-plots", "--out", str(out),
        timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2
    err = _one_line(proc.stderr)
    assert f"strategy '{spec}': its constructor gave no answer within {LIMIT}s (--decision-limit)" in err
    assert not out.exists()  # stopped before any run folder was made


def test_a_run_folder_already_written_is_left_as_it_was(tmp_path: Path) -> None:
    spec, out = _bot(tmp_path, stuck=False), tmp_path / "run"
    args = ("match", spec, "simple", "--jobs", "1", "--decision-limit", LIMIT, "-q", "--no-plots", "--out", str(out))
    first = ginsim_subprocess(*args, "--hands", "4", timeout=120)
    assert first.returncode == 0, first.stderr
    before = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    (tmp_path / "stuck").touch()  # the same code, now stuck in its constructor
    grown = ginsim_subprocess(*args, "--hands", "8", timeout=60)
    assert grown.returncode == 2
    assert "its constructor gave no answer" in _one_line(grown.stderr)
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == before


def test_a_module_whose_code_never_ends_stops_the_command_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "never.py"
    path.write_text(MODULE_LOOPS)
    proc = ginsim_subprocess(
        "match", f"{path}:Never", "simple", "--hands", "2", "--decision-limit", LIMIT, "-q", "--no-plots",
        "--out", str(tmp_path / "run"), timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2
    assert f"strategy '{path}:Never': loading it gave no answer within {LIMIT}s" in _one_line(proc.stderr)


@pytest.mark.parametrize("command", ["validate", "run"])
def test_validate_and_experiment_files_bound_the_check_too(tmp_path: Path, command: str) -> None:
    spec = _bot(tmp_path)
    if command == "validate":
        args = ["validate", spec, "--hands", "1"]
    else:
        exp = tmp_path / "exp.toml"
        exp.write_text(f'kind = "match"\na = "{spec}"\nb = "simple"\nhands = 2\nout = "{tmp_path / "run"}"\n')
        args = ["run", str(exp), "-q", "--no-plots"]
    proc = ginsim_subprocess(*args, "--decision-limit", LIMIT, timeout=60)
    assert proc.returncode == 2
    assert "Looping': its constructor gave no answer within 0.5s" in _one_line(proc.stderr)


def test_play_and_replay_bound_loading_the_bot_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ginsim play`` and ``ginsim replay`` check their strategies under the watchdog too, at
    the default limit (made short here), in the command's own process; neither has a
    ``--decision-limit``, so the line names the limit, not a flag."""
    import ginsim.engine.guard
    import ginsim.terminal.replay
    from ginsim.cli import main

    spec, out = _bot(tmp_path, stuck=False), tmp_path / "run"
    main(["match", spec, "simple", "--hands", "2", "--jobs", "1", "-q", "--no-plots", "--out", str(out)])
    assert (out / "manifest.json").exists()
    (tmp_path / "stuck").touch()
    monkeypatch.setattr(ginsim.engine.guard, "DEFAULT_DECISION_LIMIT", float(LIMIT))
    monkeypatch.setattr(ginsim.terminal.replay, "DEFAULT_DECISION_LIMIT", float(LIMIT))
    capsys.readouterr()
    for args in (["play", "--vs", spec, "--seed", "1"], ["replay", str(out), "--hand", "0"]):
        with pytest.raises(SystemExit) as e:
            main(args)
        assert e.value.code == 2, args
        err = _one_line(capsys.readouterr().err)
        assert "its constructor gave no answer within 0.5s (the default limit on a decision)" in err, err
