"""The fast path (ginsim.engine.fastplay): the same hand log, column for column
and byte for byte, as the general engine under every preset and variant, in hand mode
and game mode; chosen only for the exact built-in classes, never under a clock or when
forced off."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from ginsim.strategies.random_play import RandomPlay
from ginsim.strategies.simple import Simple
from ginsim.strategies.threshold import Threshold
from support.fastpath import PAIRS, VARIANTS, chunk_task, policy_of

from ginsim.engine.fastplay import play_fast_hand
from ginsim.engine.kernel.splitmix import pick_bit, rand_float
from ginsim.engine.playhand import play_hand
from ginsim.engine.policy import RANDOM, SIMPLE, FastPolicy
from ginsim.engine.rng import SeededRandom, splitmix64
from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.run import fastchunk
from ginsim.run.fastchunk import fast_path_reason
from ginsim.run.options import Engine
from ginsim.run.recheck import REPLAY_CHECK
from ginsim.run.seeding import check_decks, deal_seeds, decks_for
from ginsim.run.worker import ChunkTask, play_chunk


def _both_ways(task: ChunkTask) -> tuple[dict, dict]:
    """The chunk through the fast path and the general engine; the fast path both with
    numba's kernel (when installed: ``engine="auto"``) and without (``"compiled"``)."""
    fast = play_chunk(task)
    _assert_same(play_chunk(dataclasses.replace(task, engine=Engine.COMPILED)), fast)
    general = play_chunk(dataclasses.replace(task, engine=Engine.GENERAL))
    return fast, general


def _assert_same(fast: dict[str, np.ndarray], general: dict[str, np.ndarray]) -> None:
    general = {k: v for k, v in general.items() if k not in (REPLAY_CHECK, "timing")}  # the general engine's extras
    assert fast.keys() == general.keys()
    for name in general:
        f, g = fast[name], general[name]
        assert f.dtype == g.dtype and f.shape == g.shape, name
        if g.dtype == object:
            assert f.tolist() == g.tolist(), name
        else:
            assert f.tobytes() == g.tobytes(), name


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_hand_mode_columns_identical(variant: str) -> None:
    rules = VARIANTS[variant]
    for i, (a, b) in enumerate(PAIRS):
        task = chunk_task(rules, a, b, "hands", 100 * i, 100 * i + 150)
        fast, general = _both_ways(task)
        assert len(general["outcome"]) == 300
        _assert_same(fast, general)


@pytest.mark.parametrize(
    "variant", ["preset default", "preset eaai", "preset palace", "oklahoma with spades", "big gin"]
)
def test_game_mode_columns_identical(variant: str) -> None:
    rules = VARIANTS[variant]
    for a, b in PAIRS[:2]:
        fast, general = _both_ways(chunk_task(rules, a, b, "games", 0, 6))
        assert any(name.startswith("game_") for name in general)
        _assert_same(fast, general)


def _general(spec: str) -> object:
    s = parse_spec(spec)
    return s.load_class()(**s.params)


def test_every_result_field_identical() -> None:
    """HandResult itself, hands, melds and lay-off masks included, for random seeds."""
    seeds = deal_seeds(99, 0, 400)
    decks = check_decks(decks_for(seeds)).tolist()
    rng = random.Random(4)
    outcomes = set()
    for rules in (Rules(), Rules(big_gin_bonus=25, undercut_on_tie=False), Rules(oklahoma=True, max_run_length=4)):
        for a, b in (*PAIRS, ("random:take_chance=0.9,knock_chance=0.2", "random")):
            fast = (policy_of(a), policy_of(b))
            for i, deck in enumerate(decks):
                ss = (rng.getrandbits(64), rng.getrandbits(63))
                g = play_hand(rules, (_general(a), _general(b)), deck, i % 2, (0, 0), ss, checked=True)  # type: ignore[arg-type]
                f = play_fast_hand(rules, fast, deck, i % 2, ss)
                assert f == g, (rules, a, b, i)
                outcomes.add(g.outcome)
    assert {"knock", "undercut", "gin", "big_gin", "draw"} <= outcomes


def _textbook_splitmix64(state: int) -> tuple[int, int]:
    """splitmix64 as published, on Python's big ints: (the next state, its output)."""
    m64 = 2**64 - 1
    s = (state + 0x9E3779B97F4A7C15) & m64
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & m64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m64
    return s, z ^ (z >> 31)


def test_random_stream_is_seeded_random() -> None:
    """The kernel's stream on 32-bit halves (what the fast path and numba draw) is
    ``SeededRandom``'s, and both are splitmix64 as published."""
    rng = random.Random(8)
    for _ in range(300):
        seed = rng.getrandbits(64)
        ref = SeededRandom(seed)
        st = [seed >> 32, seed & 0xFFFFFFFF, 0, 0]
        state = seed
        for _ in range(4):
            state, z = _textbook_splitmix64(state)
            assert SeededRandom(state - 0x9E3779B97F4A7C15 & 2**64 - 1)._next64() == z
            mask = rng.getrandbits(52) | 1
            assert pick_bit(st, 0, mask) == ref.pick_bit(mask)
            assert rand_float(st, 0) == ref.random()
    assert splitmix64(12345) == _textbook_splitmix64(12345)[1]


def test_chosen_only_for_the_exact_built_ins() -> None:
    rules = Rules()
    auto = Engine.AUTO
    assert fast_path_reason(rules, Simple, Threshold, auto) == ""
    assert fast_path_reason(rules, RandomPlay, Simple, Engine.COMPILED) == ""

    class Mine(Simple):
        pass

    assert "not a built-in" in fast_path_reason(rules, Mine, Simple, auto)
    assert "not a built-in" in fast_path_reason(rules, Simple, parse_spec("aware").load_class(), auto)
    assert "clock" in fast_path_reason(dataclasses.replace(rules, time_per_hand=5.0), Simple, Simple, auto)
    assert "--engine general" in fast_path_reason(rules, Simple, Simple, Engine.GENERAL)
    assert fastchunk.fast_policy(Mine, {}) is None


def test_bad_parameters_still_refused() -> None:
    with pytest.raises(ValueError, match="knock_at"):
        fastchunk.fast_policy(Threshold, {"knock_at": 11})


def test_fast_seat_kind_checked() -> None:
    with pytest.raises(ValueError, match="kind"):
        FastPolicy(7)
    assert FastPolicy(SIMPLE).kind == SIMPLE


def test_each_built_in_offers_its_own_fast_policy() -> None:
    """``Strategy.fast_policy``: the built-ins' policies for their own class, with the
    parameters as built; a subclass, the base class and a tournament factory get none."""
    from ginsim.engine.policy import ALWAYS
    from ginsim.engine.strategy import Strategy

    assert Simple.fast_policy({}) == FastPolicy(SIMPLE, ALWAYS)
    assert Threshold.fast_policy({"knock_at": 4}) == FastPolicy(SIMPLE, 4)
    assert RandomPlay.fast_policy({"take_chance": 1, "knock_chance": 0}) == FastPolicy(RANDOM, ALWAYS, 1.0, 0.0)
    policy = RandomPlay.fast_policy({"take_chance": 1})
    assert policy is not None and isinstance(policy.take_chance, float)

    class MyThreshold(Threshold):
        pass

    class MyRandom(RandomPlay):
        pass

    assert MyThreshold.fast_policy({}) is None and MyRandom.fast_policy({}) is None
    assert Strategy.fast_policy({}) is None
    assert fastchunk.fast_policy(lambda **_: Simple(), {}) is None  # a factory, as tournament mode passes
    with pytest.raises(ValueError, match="take_chance"):
        RandomPlay.fast_policy({"take_chance": 2.0})
    with pytest.raises(TypeError):
        Simple.fast_policy({"knock_at": 3})
