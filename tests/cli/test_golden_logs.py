"""Hand logs recorded by an earlier build (tests/fixtures/golden) are played again here,
column for column: moving code between modules must never change a deck, a random
choice or a score. A deliberate change of the seeding re-records them (docs/changes.md
says so)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pandas as pd
import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"
COMMANDS: dict[str, str] = json.loads((GOLDEN / "commands.json").read_text())
KEYS = ["pairing", "deal", "copy", "game_hand"]


def _log(folder: Path) -> pd.DataFrame:
    df = pd.read_parquet(folder / "hands").sort_values(KEYS).reset_index(drop=True)
    df["outcome"] = df["outcome"].astype(str)
    df["forfeit_reason"] = df["forfeit_reason"].astype(str).replace("None", "")
    return df


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_hand_log_matches_recording(name: str, run_cli, tmp_path: Path) -> None:
    out = tmp_path / name
    args = [*shlex.split(COMMANDS[name]), "--jobs", "1", "--quiet", "--no-plots", "--out", str(out)]
    r = run_cli(*args)
    assert r.code == 0, r.err
    got = _log(out)
    want = pd.read_csv(GOLDEN / f"{name}.csv", keep_default_na=False)
    assert list(got.columns) == list(want.columns)
    for col in want.columns:
        assert got[col].astype(str).tolist() == want[col].astype(str).tolist(), col


def record() -> None:
    """Re-record the fixtures (after a deliberate change of the seeding, said in
    docs/changes.md): ``python tests/cli/test_golden_logs.py``."""
    import tempfile

    from ginsim.cli import main

    for name, command in COMMANDS.items():
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / name
            args = [*shlex.split(command), "--jobs", "1", "--quiet", "--no-plots", "--out", str(out)]
            try:
                main(args)
            except SystemExit as e:
                if e.code:
                    raise
            _log(out).to_csv(GOLDEN / f"{name}.csv", index=False)


if __name__ == "__main__":
    record()
