"""Shared fixtures: running the CLI the way a user does, in-process or as a subprocess."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from support.runs import ginsim_subprocess

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


@pytest.fixture
def ginsim_proc():
    """``ginsim ARGS`` in a child process, as a user's shell runs it."""
    return ginsim_subprocess
