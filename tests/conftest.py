"""Shared fixtures: running the CLI the way a user does, in-process or as a subprocess."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from ginsim.cli import main

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]):
    """Run ``ginsim ARGS`` in this process through the real entry point (errors become
    one line and exit 2 exactly as for a user)."""

    def run(*args: str) -> Result:
        capsys.readouterr()
        code = 0
        try:
            main(list(args))
        except SystemExit as e:
            code = int(e.code or 0)
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def ginsim_subprocess(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the installed ``ginsim`` command in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "ginsim", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture
def ginsim_proc():
    """``ginsim ARGS`` in a child process, as a user's shell runs it."""
    return ginsim_subprocess
