"""Runs as the tests meet them: a run folder's hand log in one frame, and ``ginsim`` in
a child process as a user's shell runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd

from ginsim.runfolder.chunks import chunk_files

KEY = ["pairing", "deal", "copy", "game_hand"]


def hand_log(folder: Path) -> pd.DataFrame:
    """The whole hand log of the run in ``folder``, in a canonical order (pairing, deal,
    copy, hand of the game), its text columns as plain strings so frames compare equal
    whichever backend or resume wrote the chunks."""
    df = pd.concat([pd.read_parquet(f) for f in chunk_files(folder)], ignore_index=True)
    df["outcome"] = df["outcome"].astype(str)
    df["forfeit_reason"] = df["forfeit_reason"].astype(str)
    return df.sort_values(KEY, ignore_index=True)


def ginsim_subprocess(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the installed ``ginsim`` command in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "ginsim", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )
