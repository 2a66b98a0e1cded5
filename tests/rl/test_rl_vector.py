"""ginsim.rl: the vectorised environment and the cross-play conversions."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from ginsim.engine.cards import parse_cards, to_mask  # noqa: E402
from ginsim.engine.rules import Rules  # noqa: E402
from ginsim.rl import crossplay  # noqa: E402
from ginsim.rl.encoding import BIG_GIN, DRAW_STOCK, KNOCK_BASE, PASS, TAKE  # noqa: E402
from ginsim.rl.single import GinRummyEnv  # noqa: E402
from ginsim.rl.vector import GinRummyVectorEnv, make_vector  # noqa: E402


def _same_as_singles(vec, singles, steps: int, seed: int, illegal: float = 0.0) -> int:  # type: ignore[no-untyped-def]
    """Step ``vec`` and its single-agent twins with the same random actions (legal but
    for a share ``illegal`` of them); every observation, mask, reward and end agrees.
    How many episodes ended."""
    n = len(singles)
    obs, _ = vec.reset(seed=seed)
    sobs = [e.reset(seed=seed + i)[0] for i, e in enumerate(singles)]
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(steps):
        assert obs["action_mask"].any(axis=1).all()  # never an empty mask, even at auto-reset
        for i in range(n):
            assert np.array_equal(obs["observation"][i], sobs[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], sobs[i]["action_mask"])
        acts = [int(rng.choice(np.flatnonzero(obs["action_mask"][i]))) for i in range(n)]
        acts = [int(rng.integers(-1, 110)) if rng.random() < illegal else a for a in acts]
        obs, rewards, terms, truncs, infos = vec.step(np.array(acts))
        for i in range(n):
            o, r, t, tr, info = singles[i].step(acts[i])
            assert (r, t, tr) == (rewards[i], terms[i], truncs[i])
            if t or tr:
                ended += 1
                assert infos["_final_obs"][i]
                if isinstance(vec, GinRummyVectorEnv):
                    assert not infos["final_obs"]["action_mask"][i].any()
                    assert np.array_equal(infos["final_obs"]["observation"][i], o["observation"])
                    for key in ("outcome", "winner", "points", "seat"):
                        assert infos["final_info"][key][i] == info[key], key
                o, _ = singles[i].reset()
            sobs[i] = o
    return ended


@pytest.mark.parametrize("opponent", ["simple", "random", "threshold:knock_at=4", "aware"])
def test_vector_equals_single_for_the_same_seeds(opponent: str) -> None:
    n = 3
    vec = make_vector(n, opponent)
    assert isinstance(vec, GinRummyVectorEnv) == (opponent != "aware")
    singles = [GinRummyEnv(opponent) for _ in range(n)]
    assert _same_as_singles(vec, singles, 150 if opponent != "aware" else 40, seed=10) > 0


VARIANTS = {
    "big gin, scaled": ({"rules": Rules(big_gin_bonus=31), "reward": "scaled"}, "simple"),
    "oklahoma, seat 1": ({"rules": Rules(oklahoma=True, oklahoma_spades=True), "seat": 1}, "random"),
    "upcard back, win": ({"rules": Rules(allow_discard_of_drawn_upcard=True), "reward": "win"}, "threshold:knock_at=2"),
    "eaai, seat 0": ({"rules": "eaai", "seat": 0}, "random:take_chance=0.9,knock_chance=0.9"),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("engine", ["numba", "mypyc"])
def test_vector_equals_single_under_every_variant(variant: str, engine: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The kernel's tables (numba's form, or mypyc's when numba is absent) play as the
    engine's ``Hand`` does: rules variants, a fixed seat, the reward options, and
    illegal actions (a forfeit) now and then."""
    from ginsim.engine import fastjit

    if engine == "mypyc":
        monkeypatch.setattr(fastjit, "jitted", lambda _module: None)
    elif not fastjit.installed():
        pytest.skip("numba is not installed")
    kwargs, opponent = VARIANTS[variant]
    n = 4
    vec = GinRummyVectorEnv(n, opponent, **kwargs)
    singles = [GinRummyEnv(opponent, **kwargs) for _ in range(n)]
    assert _same_as_singles(vec, singles, 120, seed=40, illegal=0.01) > 0


def test_compiled_encoding_equals_the_numpy_pass() -> None:
    """The observations and masks numba writes table by table are the NumPy pass's, for
    every table of a batch over many steps (finished hands' rows included)."""
    from ginsim.engine import fastjit
    from ginsim.rl import batch

    if not fastjit.installed():
        pytest.skip("numba is not installed")
    n = 64
    vec = GinRummyVectorEnv(n, "random", rules=Rules(big_gin_bonus=31))
    obs, _ = vec.reset(seed=3)
    rng = np.random.default_rng(3)
    kb = vec.kernel
    assert kb is not None
    for _ in range(60):
        want_obs = np.full((n, obs["observation"].shape[1]), 7, dtype=np.float32)
        want_mask = np.full((n, obs["action_mask"].shape[1]), 7, dtype=np.int8)
        batch._observe_numpy(kb.F, want_obs, want_mask)
        got_obs, got_mask = np.full_like(want_obs, 9), np.full_like(want_mask, 9)
        kb.observe(got_obs, got_mask)
        assert np.array_equal(got_obs, want_obs) and np.array_equal(got_mask, want_mask)
        rows = np.array([1, 5, 40])
        some = np.full_like(want_obs, 9)
        kb.observe(some, None, rows)
        assert np.array_equal(some[rows], want_obs[rows]) and (np.delete(some, rows, axis=0) == 9).all()
        mask = obs["action_mask"].astype(bool)
        obs, *_ = vec.step(np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1))


def test_vector_refuses_what_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="no built-in parametric policy"):
        GinRummyVectorEnv(2, "aware")
    with pytest.raises(ValueError, match="num_envs"):
        GinRummyVectorEnv(0)


def test_card_numbers_are_bijections_and_keep_ranks() -> None:
    for table, back in ((crossplay.TO_OPENSPIEL_CARD, crossplay.FROM_OPENSPIEL_CARD),
                        (crossplay.TO_RLCARD_CARD, crossplay.FROM_RLCARD_CARD)):  # fmt: skip
        assert sorted(table) == list(range(52))
        assert all(back[table[c]] == c and table[c] % 13 == c % 13 for c in range(52))
    # OpenSpiel: spades 0-12, clubs 13-25; RLCard: spades 0-12, hearts 13-25, clubs 39-51
    (ace_spades,) = parse_cards("AS")
    (two_clubs,) = parse_cards("2C")
    (king_hearts,) = parse_cards("KH")
    assert crossplay.TO_OPENSPIEL_CARD[ace_spades] == 0 and crossplay.TO_OPENSPIEL_CARD[two_clubs] == 14
    assert crossplay.TO_RLCARD_CARD[ace_spades] == 0 and crossplay.TO_RLCARD_CARD[king_hearts] == 25
    assert crossplay.TO_RLCARD_CARD[two_clubs] == 40


def test_openspiel_meld_ids_cover_its_185_melds() -> None:
    ids = set()
    for rank in range(13):
        cards = [s * 13 + rank for s in range(4)]
        ids.add(crossplay.openspiel_meld_id(sum(1 << c for c in cards)))
        for skip in cards:
            ids.add(crossplay.openspiel_meld_id(sum(1 << c for c in cards if c != skip)))
    for n in (3, 4, 5):
        for suit in range(4):
            for low in range(14 - n):
                ids.add(crossplay.openspiel_meld_id(sum(1 << (suit * 13 + low + k) for k in range(n))))
    assert ids == set(range(185))
    # OpenSpiel's own example: 2c 2d 2h (the 2s missing) is rank 1's first group
    assert crossplay.openspiel_meld_id(to_mask("2C 2D 2H")) == 5
    assert crossplay.openspiel_meld_id(to_mask("AS 2S 3S")) == 65 + 0
    with pytest.raises(ValueError):
        crossplay.openspiel_meld_id(to_mask("AS 2S 4S"))
    six = to_mask("4H 5H 6H 7H 8H 9H")
    assert len(crossplay.openspiel_melds((six,))) == 2


def test_action_conversions_round_trip() -> None:
    for card in range(52):
        (os_card,) = crossplay.to_openspiel(card)
        assert crossplay.from_openspiel(os_card) == card
        seq = crossplay.to_openspiel(KNOCK_BASE + card, (to_mask("AS 2S 3S"),))
        assert seq[0] == crossplay.OS_KNOCK and seq[-1] == crossplay.OS_PASS and seq[2] == crossplay.OS_MELD_BASE + 65
        assert crossplay.from_openspiel(seq[1], knocking=True) == KNOCK_BASE + card
        assert crossplay.from_rlcard(crossplay.to_rlcard(card)) == card
        assert crossplay.from_rlcard(crossplay.to_rlcard(KNOCK_BASE + card)) == KNOCK_BASE + card
        gin = crossplay.to_rlcard(KNOCK_BASE + card, gin=True)
        assert crossplay.from_rlcard(gin, gin_discard=card) == KNOCK_BASE + card
    for a in (TAKE, DRAW_STOCK, PASS):
        (os_a,) = crossplay.to_openspiel(a)
        assert crossplay.from_openspiel(os_a) == a
    assert crossplay.from_rlcard(crossplay.to_rlcard(TAKE)) == TAKE
    assert crossplay.from_rlcard(crossplay.to_rlcard(DRAW_STOCK)) == DRAW_STOCK
    for a in (PASS, BIG_GIN):
        with pytest.raises(ValueError):
            crossplay.to_rlcard(a)
    assert crossplay.from_rlcard(0) is None and crossplay.from_openspiel(crossplay.OS_KNOCK) is None


def test_bench_rl_reports_every_figure(run_cli) -> None:
    import json

    r = run_cli("bench", "--rl", "--seconds", "0.2", "--reps", "1", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    figures = ("aec_steps_per_s", "single_steps_per_s", "vector_steps_per_s")
    for key in (*figures, *(f + "_cpu" for f in figures), "first_use_s"):
        assert isinstance(data[key], float) and data[key] > 0, key
    r = run_cli("bench", "--rl", "--seconds", "0.1", "--reps", "1")
    assert r.code == 0 and "vector_steps_per_s" in r.out and "batch 1024" in r.out


def test_a_java_player_is_an_opponent_like_any_spec(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shutil
    import subprocess
    from pathlib import Path

    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("no JDK: javac is not on the PATH")
    sources = sorted(str(p) for p in (Path(__file__).parents[1] / "java").rglob("*.java"))
    subprocess.run([javac, "-nowarn", "-d", str(tmp_path), *sources], check=True, capture_output=True)
    env = GinRummyEnv(opponent=f"java:{tmp_path}:SimplePort", rules="eaai")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    hands = 0
    while hands < 3:
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            assert info["outcome"] != "forfeit"  # the learner keeps to its mask: the Java player plays on
            hands += 1
            obs, _ = env.reset()
    env.close()


def test_the_benchmarks_random_choice_is_uniform_over_legal_actions() -> None:
    """``random_legal_rows`` picks only legal actions, each of a row's k with frequency
    near 1/k (rows of 1, 2, 3 and 11 legal actions, int8 and bool masks)."""
    from ginsim.rl.bench import random_legal_rows

    legal_sets = [[104], [105, 104], [0, 51, 107], list(range(3, 14))]
    mask = np.zeros((len(legal_sets), 108), dtype=np.int8)
    for row, legal in zip(mask, legal_sets, strict=True):
        row[legal] = 1
    rng = np.random.default_rng(11)
    for m in (mask, mask.astype(bool)):
        picks = np.array([random_legal_rows(rng, m) for _ in range(6000)])
        for r, legal in enumerate(legal_sets):
            values, counts = np.unique(picks[:, r], return_counts=True)
            assert values.tolist() == sorted(legal)
            assert np.abs(counts / 6000 - 1 / len(legal)).max() < 0.02


def test_copy_false_returns_the_same_values_in_reused_arrays() -> None:
    """``copy=False`` hands out the environment's own arrays (the next step overwrites
    them) with the values ``copy=True`` returns, final observations included."""
    envs = [GinRummyVectorEnv(16, "simple", copy=c) for c in (True, False)]
    outs = [e.reset(seed=8)[0] for e in envs]
    rng = np.random.default_rng(8)
    first = outs[1]["observation"]
    ended = 0
    kept = [(outs[0], {k: v.copy() for k, v in outs[0].items()})]  # held arrays never change
    for _ in range(80):
        mask = outs[0]["action_mask"].astype(bool)
        acts = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        (a, *ra, ia), (b, *rb, ib) = (e.step(acts) for e in envs)
        assert b["observation"] is first and a["observation"] is not outs[0]["observation"]
        for key in ("observation", "action_mask"):
            assert np.array_equal(a[key], b[key])
        assert all(np.array_equal(x, y) for x, y in zip(ra, rb, strict=True))
        assert ia.keys() == ib.keys()
        if "final_obs" in ia:
            ended += 1
            for key in ("observation", "action_mask"):
                assert np.array_equal(ia["final_obs"][key], ib["final_obs"][key])
        outs = [a, b]
        if len(kept) < 5:
            kept.append((a, {k: v.copy() for k, v in a.items()}))
        for held, snapshot in kept:
            assert all(np.array_equal(held[k], snapshot[k]) for k in snapshot)
    assert ended > 0


def test_recycled_arrays_are_reused_only_when_nobody_holds_them() -> None:
    from ginsim.rl.arrays import Recycled

    pool = Recycled((4, 3), np.float32)
    a = pool.take()
    b = pool.take()
    assert a is not b
    view = a[1:]
    box = {"b": b}
    del a, b
    c = pool.take()  # a is held by a view, b by a dict
    assert c is not view.base and c is not box["b"]
    held_c = id(c)
    del c
    assert id(pool.take()) == held_c  # nothing holds c now: handed out again
    del view
    box.clear()
    assert len({id(pool.take()) for _ in range(3)}) == 1
