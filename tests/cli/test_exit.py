"""A Ctrl-C or SIGTERM after a command is done (as the worker pool shuts down and the
interpreter exits) ends the process quietly with the command's own status."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# the command, then an interrupt sent from the interpreter's last steps: the first of the
# threading module's exit calls (which shut loky's pool down, joining its threads)
SCRIPT = """
import os, signal, sys, threading
from joblib.externals.loky import process_executor  # noqa: F401  (registers the pool's exit call)

def interrupt():
    os.kill(os.getpid(), signal.{sig})
    os.kill(os.getpid(), signal.{sig})

threading._register_atexit(interrupt)
sys.argv = ["ginsim", "match", "simple", "simple", "--hands", "400", "--jobs", "2", "-q", "--no-plots",
            "--out", sys.argv[1]]
from ginsim.cli import main
main()
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_an_interrupt_as_a_parallel_run_ends_is_quiet(sig: str, tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(sig=sig), str(out)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    assert (out / "report.md").exists()
