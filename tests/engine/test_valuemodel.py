"""ginsim.valuemodel: the learned heads and card values score as the slow references do, and
a model file that does not fit is refused with one clear error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ginsim.engine.valuemodel import (
    CardValue,
    Head,
    ModelFileError,
    load_card_value,
    load_heads,
    reference_card_value,
    reference_score,
    save_heads,
)

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
    with pytest.raises(ModelFileError, match="of the wrong shape"):
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


CARD_NAMES = ("x", "y")


def _card_value(rng: np.random.Generator, sets: int = 4, h1: int = 6, h2: int = 3) -> CardValue:
    width = sets * 52 + len(CARD_NAMES)
    return CardValue(
        CARD_NAMES, sets, rng.normal(size=2), rng.uniform(0.5, 2, size=2), rng.normal(size=(width, h1)) * 0.3,
        rng.normal(size=h1), rng.normal(size=(h1, h2)), rng.normal(size=h2), rng.normal(size=h2), 0.7,
    )  # fmt: skip


def _deal(rng: np.random.Generator, sizes: tuple[int, ...]) -> list[int]:
    deck, out, at = rng.permutation(52), [], 0
    for size in sizes:
        out.append(sum(1 << int(c) for c in deck[at : at + size]))
        at += size
    return out


@pytest.mark.parametrize("seed", range(8))
def test_a_card_values_afterstates_match_the_reference(seed: int) -> None:
    """A decision's discards all at once (the shared first layer) give, option by option, the
    plain forward pass and the element-by-element reference."""
    rng = np.random.default_rng(seed)
    value = _card_value(rng)
    hand, *shared = _deal(rng, (11, 3, int(rng.integers(0, 9))))
    cards = [c for c in range(52) if hand >> c & 1][: int(rng.integers(1, 12))]
    nums = rng.normal(size=(len(cards), 2)) * 3
    masks = np.array([[hand & ~(1 << c), 1 << c, *shared] for c in cards], dtype=np.int64)
    fast = value.afterstates(hand, cards, shared, nums)
    assert np.allclose(fast, value.values(masks, nums), rtol=1e-12, atol=1e-12)
    for i, v in enumerate(fast):
        assert v == pytest.approx(reference_card_value(value, [int(m) for m in masks[i]], nums[i]), rel=1e-9, abs=1e-9)


def test_a_card_value_is_scaled_by_its_last_layer() -> None:
    rng = np.random.default_rng(9)
    value = _card_value(rng)
    masks, nums = np.array([_deal(rng, (10, 1, 4, 2))]), rng.normal(size=(1, 2))
    assert value.scaled(4.0).values(masks, nums)[0] == pytest.approx(4.0 * value.values(masks, nums)[0])


def test_a_card_value_survives_a_round_trip_beside_heads(tmp_path: Path) -> None:
    rng = np.random.default_rng(10)
    value, heads = _card_value(rng), _heads(rng)
    path = tmp_path / "m.npz"
    save_heads(path, heads, {"n": 1}, cards={"cards": value})
    loaded = load_card_value(path, "cards", CARD_NAMES)
    assert loaded is not None and loaded.masks == 4
    masks, nums = np.array([_deal(rng, (10, 1, 4, 2)) for _ in range(5)]), rng.normal(size=(5, 2))
    assert np.array_equal(loaded.values(masks, nums), value.values(masks, nums))
    assert load_heads(path, {"lin": NAMES, "mlp": NAMES})[1] == {"n": 1.0}  # the heads read as before
    assert load_card_value(path, "other", CARD_NAMES) is None  # none under that key


def test_a_card_value_over_other_numbers_or_of_a_wrong_shape_is_refused(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    path = tmp_path / "m.npz"
    save_heads(path, _heads(rng), cards={"cards": _card_value(rng)})
    with pytest.raises(ModelFileError, match="not trained on these numbers"):
        load_card_value(path, "cards", ("x", "z"))
    good = _card_value(rng)
    with pytest.raises(ModelFileError, match="of the wrong shape"):
        CardValue(CARD_NAMES, 3, good.mean, good.scale, good.w1, good.b1, good.w2, good.b2, good.w3, good.b3)
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"no model")
    with pytest.raises(ModelFileError, match="cannot be read"):
        load_card_value(bad, "cards", CARD_NAMES)
