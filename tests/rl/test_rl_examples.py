"""docs/examples/train_numpy.py: it trains (a moment), saves its weights, and its ``act``
plays through ``rlpolicy:`` as a strategy."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "examples" / "train_numpy.py"


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_numpy_example", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_numpy_example_learns_and_plays_as_a_strategy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli
) -> None:
    m = _module()
    out = tmp_path / "w.npy"
    summary = m.main(["--hands", "64", "--envs", "32", "--out", str(out)])
    assert summary["hands"] >= 64  # trained by hands, not by the clock: the same on a loaded machine
    w = np.load(out)
    assert w.shape == (m.N_FEATURES,) and np.any(w != 0)  # the updates moved the weights
    # a policy that knocks and keeps its melds: features agree with the hand
    obs = np.zeros((1, 427), dtype=np.float32)
    for c in (0, 1, 2, 13 + 9):  # AC 2C 3C and TD
        obs[0, c] = 1.0
    f = m.features(obs)[0]
    assert f[0, 1] == 1.0 and f[22, 1] == 0.0 and f[22, 0] == 1.0 and f[22 + 52, 3] == 1.0
    monkeypatch.setenv("GINSIM_POLICY", str(out))
    monkeypatch.chdir(tmp_path)
    r = run_cli("match", f"rlpolicy:{SCRIPT}:act", "random", "--hands", "20", "--jobs", "1", "--out", "run")
    assert r.code == 0, r.err
