"""``learned``'s improvement by evolution strategies (experiments/training/evolve.py): the
model's numbers go into one vector and back unchanged, a candidate plays exactly the heads
it was given, a run is reproducible from its seed, and a blend of two models is their mean."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from ginsim.strategies.learned import HEADS, MODEL, MODEL_FILE
from support.training import training_module as _module

from ginsim.engine.valuemodel import Head, load_heads, save_heads


def test_theta_round_trip_keeps_every_head() -> None:
    evolve = _module("evolve")
    theta = evolve.to_theta(MODEL)
    back = evolve.from_theta(theta, MODEL)
    for key, head in MODEL.items():
        assert np.array_equal(back[key].w2, head.w2)
        assert back[key].b2 == head.b2
        assert np.array_equal(back[key].mean, head.mean) and np.array_equal(back[key].scale, head.scale)
    # the discard head's bias is not moved; the other two heads' are
    assert len(theta) == sum(len(h.w2) for h in MODEL.values()) + 2


def test_a_candidate_plays_its_heads() -> None:
    evolve = _module("evolve")
    theta = evolve.to_theta(MODEL)
    same = evolve.play_pairing([theta, theta.copy()], MODEL, "simple@default", [11, 12])
    assert np.array_equal(same[0], same[1])
    assert same[0, 1] >= 4  # hands: two deals, both seats, games to 100
    # a model that never knocks plays other games than the shipped one
    never = theta.copy()
    never[-1] = -1e6  # the knock head's bias
    other = evolve.play_pairing([never], MODEL, "simple@default", [11, 12])
    assert not np.array_equal(other[0], same[0])


def test_a_run_is_reproducible(tmp_path: Path) -> None:
    evolve = _module("evolve")
    args = ["--model", str(MODEL_FILE), "--seed", "4", "--generations", "2", "--pairs", "1", "--deals", "1"]
    args += ["--opponent", "simple@default", "--jobs", "1"]
    for name in ("a", "b"):
        assert evolve.main([*args, "--out", str(tmp_path / name)]) == 0
    a, _ = load_heads(tmp_path / "a" / "gen-2.npz", HEADS)
    b, _ = load_heads(tmp_path / "b" / "gen-2.npz", HEADS)
    assert all(np.array_equal(a[k].w2, b[k].w2) and a[k].b2 == b[k].b2 for k in HEADS)
    assert not np.array_equal(a["discard"].w2, MODEL["discard"].w2)  # it moved
    lines = [json.loads(x) for x in (tmp_path / "a" / "log.jsonl").read_text().splitlines()]
    assert [x["gen"] for x in lines] == [1, 2]


def test_pairings_are_weighed_as_written() -> None:
    evolve = _module("evolve")
    pairings, weights = evolve.weighed(["simple@default*2", "java:/a/b:C@eaai", "aware:late_turn=8@eaai*0.5"])
    assert pairings == ["simple@default", "java:/a/b:C@eaai", "aware:late_turn=8@eaai"]
    assert weights.tolist() == [2.0, 1.0, 0.5]
    totals = np.zeros((1, 3, 3))
    totals[0, :, 0] = (30.0, 0.0, -12.0)  # net points: +3, 0, -1.2 a hand over 10 hands
    totals[0, :, 1] = 10.0
    assert np.isclose(evolve.fitness(totals, weights)[0], (2 * 3.0 + 0.0 + 0.5 * -1.2) / 3.5)
    assert np.isclose(evolve.fitness(totals, np.ones(3))[0], (3.0 + 0.0 - 1.2) / 3)


def test_a_blend_is_the_mean_of_its_models(tmp_path: Path) -> None:
    evolve = _module("evolve")
    blend = _module("blend")
    theta = evolve.to_theta(MODEL)
    moved = theta + np.linspace(-1.0, 1.0, len(theta))
    other = tmp_path / "other.npz"
    save_heads(other, evolve.from_theta(moved, MODEL), {"evolve_seed": 7.0})
    for weight, expected in ((0.0, theta), (1.0, moved), (0.5, (theta + moved) / 2)):
        out = tmp_path / f"blend-{weight}.npz"
        assert blend.main([str(MODEL_FILE), str(other), "--weight", str(weight), "--out", str(out)]) == 0
        heads, meta = load_heads(out, HEADS)
        assert np.allclose(evolve.to_theta(heads), expected)
        assert meta["blend"] == weight and meta["evolve_seed"] == 7.0
    # a model whose features are scaled otherwise is refused, not blended
    rescaled = {k: Head(h.names, h.w2, h.b2, h.mean, h.scale * 2.0) for k, h in MODEL.items()}
    save_heads(tmp_path / "rescaled.npz", rescaled)
    with pytest.raises(SystemExit, match="scale"):
        blend.main([str(MODEL_FILE), str(tmp_path / "rescaled.npz"), "--out", str(tmp_path / "x.npz")])


def _rows(names: tuple[str, ...], undercut: float, rand: np.random.Generator) -> np.ndarray:
    """Random feature rows of a head whose ``undercut`` crossings agree with ``undercut``."""
    rows = rand.uniform(0.0, 5.0, size=(40, len(names)))
    for i, name in enumerate(names):
        if name == "bias":
            rows[:, i] = 1.0
        elif name == "undercut":
            rows[:, i] = undercut
        elif name.endswith("_undercut"):
            rows[:, i] = rows[:, names.index(name.removesuffix("_undercut"))] * undercut
    return rows


@pytest.mark.parametrize("undercut", [1.0, 0.4])
def test_cheap_undercut_directions_move_play_only_where_undercuts_are_cheap(undercut: float) -> None:
    evolve = _module("evolve")
    basis, names, steps = evolve.cheap_undercut_basis(MODEL)
    assert basis.shape == (len(evolve.to_theta(MODEL)), len(names)) and len(steps) == len(names)
    rand = np.random.default_rng(3)
    moved = evolve.from_theta(evolve.to_theta(MODEL) + basis @ (3.0 * steps), MODEL)
    for key, head in MODEL.items():
        rows = _rows(head.names, undercut, rand)
        change = moved[key].score(rows) - head.score(rows)
        if key == "discard":  # only the differences among a decision's discards count
            change -= change[0]
        if undercut == 1.0:  # the EAAI rules' undercut of 25: every choice as before
            assert np.allclose(change, 0.0, atol=1e-9)
        else:
            assert not np.allclose(change, 0.0)
