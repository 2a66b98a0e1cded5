"""``merge_values.py``: the merged network's value of any row is the mean of its networks'
values, whatever their widths and scalings, and it ships as a card value; an unreadable
network is one line and status 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from support.training import fresh_network, training_module


def _net(hidden: int, seed: int) -> Any:  # card_value.ValueNet, its module loaded by path
    cv = training_module("card_value")
    rand = np.random.default_rng(seed)
    width = cv.WIDTH - cv.MASKS * 52
    mean, scale = rand.normal(size=width) * 3.0, rand.uniform(0.5, 4.0, size=width)
    net = cv.ValueNet.fresh(mean, scale, hidden, rand)
    net.p["b1"] = rand.normal(size=hidden).astype(np.float32)  # biases too, so folding them is checked
    net.p["b3"] = np.array([rand.normal()], dtype=np.float32)
    return net


def test_the_merged_value_is_the_mean_of_the_networks() -> None:
    cv, mv = training_module("card_value"), training_module("merge_values")
    nets = [_net(8, 1), _net(6, 2), _net(10, 3)]
    rand = np.random.default_rng(7)
    masks = rand.integers(0, 1 << 52, size=(200, cv.MASKS), dtype=np.int64)
    nums = (rand.normal(size=(200, cv.WIDTH - cv.MASKS * 52)) * 5.0).astype(np.float32)
    want = np.mean([net.value(masks, nums) for net in nets], axis=0)
    got = mv.merged(nets).value(masks, nums)
    assert np.allclose(got, want, atol=1e-4 * (1.0 + np.abs(want).max()))
    assert not np.allclose(nets[0].value(masks, nums), want)  # the mean, not any one of them


def test_the_command_writes_a_network_that_ships(tmp_path: Path) -> None:
    cv, mv = training_module("card_value"), training_module("merge_values")
    a, b = fresh_network(tmp_path / "a.npz", hidden=8, seed=1), fresh_network(tmp_path / "b.npz", hidden=4, seed=2)
    out = tmp_path / "mean.npz"
    assert mv.main(["--out", str(out), str(a), str(b)]) == 0
    net = cv.load_value(out)
    assert net.p["w1"].shape[1] == 12 and net.p["w2"].shape == (12, 6)
    ship = ["ship", "--value", str(out), "--weight", "4", "--preset", "eaai", "--out", str(tmp_path / "m.npz")]
    assert cv.main(ship) == 0


def test_an_unreadable_network_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mv = training_module("merge_values")
    bad = tmp_path / "bad.npz"
    bad.write_text("not a network", encoding="utf-8")
    assert mv.main(["--out", str(tmp_path / "x.npz"), str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.npz" in err[0]
    assert not (tmp_path / "x.npz").exists()
