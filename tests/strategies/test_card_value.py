"""``card_value.py`` and ``card_value_player.py``: a value of the kept hand over the cards,
learned from the points hands scored, and ``learned`` judging its discards by it too. The
samples hold only what the seat's view holds; a suit permutation moves every mask of a
sample alike; the fast first layer gives the network's own values; a fit learns a target
the cards decide; with weight 0 the player is ``learned``; a bad network file is refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from support.learned import hand_moves, heads_only
from support.training import fresh_network, training_module

from ginsim.engine.view import Event


def _moves(strategy: object, h: int) -> list[Event]:
    return hand_moves(strategy, "aware", "default", 500, h)


def test_collected_samples_are_the_discards_made_with_their_hands_points() -> None:
    cv = training_module("card_value")
    run = cv.collect(2, 7, 0.2, opponents=("simple",))
    masks, nums, points = run["masks"], run["nums"], run["points"]
    assert len(points) > 20 and masks.shape == (len(points), cv.MASKS) and nums.shape[1] == cv.WIDTH - cv.MASKS * 52
    kept, gone = masks[:, 0], masks[:, 1]
    assert all(bin(int(k)).count("1") == 10 for k in kept) and all(bin(int(g)).count("1") == 1 for g in gone)
    assert not np.any(kept & gone) and not np.any(kept & masks[:, 2])  # nothing kept is the opponent's
    # a hand's samples share its points, and points change only between hands
    assert len(np.unique(points)) > 1 and np.all(
        points[:-1][points[:-1] != points[1:]] != points[1:][points[:-1] != points[1:]]
    )


def test_collect_plays_the_opponents_it_is_given(tmp_path: Path) -> None:
    cv = training_module("card_value")
    seed = cv.SeededRandom(11).getrandbits(62)  # job 0's games
    argv = ["collect", "--games", "1", "--seed", "11", "--opponent", "simple", "--opponent", "threshold:knock_at=0"]
    assert cv.main([*argv, "--out-dir", str(tmp_path)]) == 0
    with np.load(tmp_path / "samples-0.npz") as written:
        run = cv.collect(1, seed, 0.1, opponents=("simple", "threshold:knock_at=0"))
        assert np.array_equal(written["masks"], run["masks"]) and np.array_equal(written["points"], run["points"])
    only_simple = cv.collect(1, seed, 0.1, opponents=("simple",))
    assert 0 < len(only_simple["points"]) < len(run["points"])


def test_a_suit_permutation_moves_every_mask_of_a_sample_alike() -> None:
    cv = training_module("card_value")
    rand = np.random.default_rng(3)
    masks = np.array([[1 << 0 | 1 << 14, 1 << 27, 1 << 40 | 1 << 2]] * 50, dtype=np.int64)
    out = cv.permute(masks, rand)
    assert len({tuple(r) for r in out}) > 3  # several permutations drawn
    for row in out:
        ranks = [[(int(m) >> (13 * s)) & 8191 for s in range(4)] for m in row]
        # every mask keeps its size; the ace of mask 0 and the three of mask 2 share a suit still
        assert sorted(bin(int(m)).count("1") for m in row) == [1, 2, 2]
        ace_suit = [s for s in range(4) if ranks[0][s] & 1]
        assert ace_suit == [s for s in range(4) if ranks[2][s] & 4]


def test_the_fast_first_layer_gives_the_networks_own_values() -> None:
    cv = training_module("card_value")
    rand = np.random.default_rng(5)
    net = cv.ValueNet.fresh(np.zeros(cv.WIDTH - cv.MASKS * 52), np.ones(cv.WIDTH - cv.MASKS * 52), 16, rand)
    deck = rand.permutation(52)
    hand = sum(1 << int(c) for c in deck[:11])
    shared = [sum(1 << int(c) for c in deck[11:13]), sum(1 << int(c) for c in deck[13:17]), 1 << int(deck[20])]
    cards = [int(c) for c in deck[:5]]
    nums = rand.standard_normal((5, cv.WIDTH - cv.MASKS * 52)).astype(np.float32)
    masks = np.array([[hand & ~(1 << c), 1 << c, *shared] for c in cards], dtype=np.int64)
    fast = net.discard_values(hand, cards, shared, nums)
    assert np.allclose(fast, net.value(masks, nums), atol=1e-4)
    assert np.allclose(net.card_value().afterstates(hand, cards, shared, nums), fast, atol=1e-4)


def test_a_fit_learns_a_value_the_cards_decide() -> None:
    cv = training_module("card_value")
    rand = np.random.default_rng(11)
    n = 6000
    masks = np.zeros((n, cv.MASKS), dtype=np.int64)
    for i in range(n):
        masks[i, 0] = sum(1 << int(c) for c in rand.choice(52, 10, replace=False))
    nums = rand.standard_normal((n, cv.WIDTH - cv.MASKS * 52)).astype(np.float32)
    # the number of aces kept (bit 0 of each suit) decides the value, whatever the suits
    points = np.array([sum(int(m) >> (13 * s) & 1 for s in range(4)) for m in masks[:, 0]], dtype=np.float32) * 10
    logs: list[dict] = []
    cv.fit(masks, nums, points, 32, 6, 1, batch=64, rate=3e-3, log=logs.append)
    assert logs[-1]["held_mse"] < 0.3 * logs[-1]["held_base"], logs[-1]


def test_with_weight_zero_it_plays_as_learned(tmp_path: Path) -> None:
    player = training_module("card_value_player")
    path = fresh_network(tmp_path / "v.npz")
    changed = 0
    for h in range(6):
        # Valued's network stands in for the shipped card value
        assert _moves(player.Valued(value=str(path), weight=0.0), h) == _moves(heads_only(), h)
        changed += _moves(player.Valued(value=str(path), weight=50.0), h) != _moves(heads_only(), h)
    assert changed > 0  # a network that weighs much moves some discards


def test_a_bad_network_file_is_refused(tmp_path: Path) -> None:
    player = training_module("card_value_player")
    bad = tmp_path / "bad.npz"
    bad.write_text("not a network")
    for path in (str(bad), str(tmp_path / "missing.npz"), ""):
        with pytest.raises(ValueError, match="value"):
            player.Valued(value=path)


def test_bad_input_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv = training_module("card_value")
    bad = tmp_path / "bad.npz"
    bad.write_text("not samples")
    out = tmp_path / "out"
    for argv, said in (
        (["fit", "--samples", str(bad), "--seed", "1", "--out", str(tmp_path / "v.npz")], "cannot be read"),
        (["fit", "--samples", str(bad), "--seed", "1", "--hidden", "1", "--out", str(tmp_path / "v.npz")], "--hidden"),
        (["collect", "--games", "1", "--seed", "1", "--preset", "nope", "--out-dir", str(out)], "unknown preset"),
        (["collect", "--games", "1", "--seed", "1", "--value", str(bad), "--out-dir", str(out)], "value network"),
        (["collect", "--games", "0", "--seed", "1", "--out-dir", str(out)], "--games"),
        (["collect", "--games", "1", "--seed", "1", "--opponent", "nosuch", "--out-dir", str(out)], "unknown strategy"),
        (["collect", "--games", "1", "--seed", "1", "--opponent", "aware:bogus=1", "--out-dir", str(out)], "bogus"),
    ):
        assert cv.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err
    assert not out.exists()  # nothing was played or written
