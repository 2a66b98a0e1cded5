"""ginsim.valuemodel: the learned heads score as the slow reference does, and a model file
that does not fit is refused with one clear error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ginsim.engine.valuemodel import Head, ModelFileError, load_heads, reference_score, save_heads

NAMES = ("a", "b", "c")


def _heads(rng: np.random.Generator) -> dict[str, Head]:
    linear = Head(NAMES, rng.normal(size=3), 0.5, rng.normal(size=3), rng.uniform(0.5, 2, size=3))
    hidden = Head(NAMES, rng.normal(size=4), -0.2, None, None, rng.normal(size=(4, 3)), rng.normal(size=4))
    return {"lin": linear, "mlp": hidden}


def test_the_batched_score_matches_the_reference_row_by_row() -> None:
    rng = np.random.default_rng(3)
    rows = rng.normal(size=(7, 3)) * 5
    for head in _heads(rng).values():
        fast = head.score(rows)
        assert fast.shape == (7,)
        for row, value in zip(rows, fast, strict=True):
            assert value == pytest.approx(reference_score(head, list(row)), rel=1e-12, abs=1e-12)


def test_heads_survive_a_round_trip_through_a_file(tmp_path: Path) -> None:
    heads = _heads(np.random.default_rng(4))
    path = tmp_path / "m.npz"
    save_heads(path, heads, {"hands": 12})
    loaded, meta = load_heads(path, {"lin": NAMES, "mlp": NAMES})
    assert meta == {"hands": 12.0}
    rows = np.arange(9.0).reshape(3, 3)
    for key, head in heads.items():
        assert np.allclose(loaded[key].score(rows), head.score(rows))


def test_a_model_for_other_features_or_no_model_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.npz"
    save_heads(path, _heads(np.random.default_rng(5)))
    with pytest.raises(ModelFileError, match="not trained on these features"):
        load_heads(path, {"lin": ("a", "b", "x")})
    with pytest.raises(ModelFileError, match="not trained on these features"):
        load_heads(path, {"missing": NAMES})
    (tmp_path / "bad.npz").write_text("not a model")
    with pytest.raises(ModelFileError, match="cannot be read"):
        load_heads(tmp_path / "bad.npz", {"lin": NAMES})


def test_weights_of_the_wrong_shape_are_refused() -> None:
    with pytest.raises(ModelFileError, match="wrong shape"):
        Head(NAMES, np.zeros(2), 0.0)
    with pytest.raises(ModelFileError, match="hidden layer"):
        Head(NAMES, np.zeros(4), 0.0, w1=np.zeros((4, 2)), b1=np.zeros(4))
