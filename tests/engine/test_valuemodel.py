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


def test_a_widened_head_scores_every_row_as_before_whatever_its_new_features_hold() -> None:
    rng = np.random.default_rng(6)
    rows = rng.normal(size=(6, 3)) * 3
    wide_rows = np.concatenate([rows, rng.normal(size=(6, 2)) * 50], axis=1)
    for head in _heads(rng).values():
        wide = head.widened((*NAMES, "d", "e"))
        assert wide.names == (*NAMES, "d", "e") and not wide.weighs(("d", "e")) and wide.weighs(("a",))
        assert np.allclose(wide.score(wide_rows), head.score(rows), rtol=1e-12, atol=1e-12)
        with pytest.raises(ModelFileError, match="after its own"):
            head.widened(("b", "a", "c", "d"))


def test_an_older_file_is_read_widened_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "m.npz"
    heads = _heads(np.random.default_rng(7))
    save_heads(path, heads)
    wider = {"lin": (*NAMES, "d"), "mlp": (*NAMES, "d")}
    with pytest.raises(ModelFileError, match="not trained on these features"):
        load_heads(path, wider)
    loaded, _ = load_heads(path, wider, widen=True)
    rows = np.arange(12.0).reshape(3, 4)
    for key, head in heads.items():
        assert loaded[key].names == wider[key]
        assert np.allclose(loaded[key].score(rows), head.score(rows[:, :3]), rtol=1e-12, atol=1e-12)
    # a head over other features is refused, widened or not
    with pytest.raises(ModelFileError, match="not trained on these features"):
        load_heads(path, {"lin": ("a", "x", "c", "d")}, widen=True)
