"""Tournament run folders are tamper-evident (chunk records keyed with the run's secret),
and a tournament folder is resumed only with the decks it was dealt."""

from __future__ import annotations

import hashlib
import json
import secrets
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ginsim.runfolder.integrity import sum_path

ARGS = ["match", "simple", "random", "--hands", "8", "--chunk", "2", "--jobs", "1", "-q", "--no-plots"]


@pytest.fixture(autouse=True)
def bots_as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINSIM_BOT_USER", "root")  # this machine's Python may not be runnable by other users


@pytest.fixture
def tournament(tmp_path: Path, run_cli: Any) -> Path:
    out = tmp_path / "run"
    assert run_cli(*ARGS, "--isolate", "--out", str(out)).code == 0
    return out


def test_a_chunk_edited_with_its_sha256_recomputed_is_refused(tournament: Path, run_cli: Any) -> None:
    chunk = sorted((tournament / "hands").iterdir())[0]
    table = pq.read_table(chunk)
    df = table.to_pandas()
    df["points"] = df["points"] + 25  # a better result for somebody
    pq.write_table(pa.Table.from_pandas(df, schema=table.schema, preserve_index=False), chunk, compression="zstd")
    record_file = sum_path(chunk)
    record = json.loads(record_file.read_text())
    record["hands_sha256"] = hashlib.sha256(chunk.read_bytes()).hexdigest()
    record_file.write_text(json.dumps(record) + "\n")
    res = run_cli(*ARGS, "--isolate", "--out", str(tournament))
    assert res.code == 0, res.err
    assert "keyed checksum differs" in res.err and chunk.name in res.err  # named, and played again
    assert sorted(pd.read_parquet(chunk)["points"]) != sorted(df["points"])


def test_a_replaced_secret_is_refused(tournament: Path, run_cli: Any) -> None:
    (tournament / "secret").write_bytes(secrets.token_bytes(32))
    res = run_cli(*ARGS, "--isolate", "--out", str(tournament))
    assert res.code == 2 and res.err.count("\n") == 1
    assert "not the secret this run's chunks were written with" in res.err
    assert len(list((tournament / "hands").iterdir())) == 2  # nothing deleted, nothing played


def test_a_folder_of_shared_decks_is_resumed_only_with_shared_decks(tmp_path: Path, run_cli: Any) -> None:
    out = tmp_path / "run"
    assert run_cli(*ARGS, "--isolate", "--shared-decks", "--out", str(out)).code == 0
    res = run_cli(*ARGS, "--isolate", "--out", str(out))
    assert res.code == 2 and "add --shared-decks to resume it" in res.err
    assert run_cli(*ARGS, "--isolate", "--shared-decks", "--out", str(out)).code == 0
