"""ginsim.rl: the AEC and single-agent environments, their encodings and PolicyStrategy."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from ginsim.strategies.simple import Simple  # noqa: E402

import ginsim.rl  # noqa: E402
from ginsim.engine.cards import FULL_DECK  # noqa: E402
from ginsim.engine.hand import Hand  # noqa: E402
from ginsim.engine.playhand import play_hand  # noqa: E402
from ginsim.engine.presets import PRESET_NAMES  # noqa: E402
from ginsim.engine.result import forfeit_points  # noqa: E402
from ginsim.engine.rules import Rules, preset_rules  # noqa: E402
from ginsim.engine.view import DISCARD, KNOCK, OFFER  # noqa: E402
from ginsim.rl.aec import observe_seat  # noqa: E402
from ginsim.rl.encoding import DRAW_STOCK, KNOCK_BASE, N_ACTIONS, OBS_SIZE, PASS, TAKE  # noqa: E402
from ginsim.rl.policy import PolicyStrategy  # noqa: E402
from ginsim.rl.table import Table  # noqa: E402


def test_pettingzoo_api_seed_and_benchmark(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from pettingzoo.test import api_test, performance_benchmark, seed_test

    bench_module = importlib.import_module("pettingzoo.test.performance_benchmark")

    api_test(ginsim.rl.env(), num_cycles=100)
    for preset in PRESET_NAMES:
        api_test(ginsim.rl.env(rules=preset, game=True), num_cycles=30)
    seed_test(lambda: ginsim.rl.env(rules="eaai"), num_cycles=100)
    # the benchmark runs for five seconds of its clock: a clock that jumps keeps it short
    clock = iter(range(0, 10**6, 2))
    monkeypatch.setattr(bench_module.time, "time", lambda: float(next(clock)))
    performance_benchmark(ginsim.rl.env())


@pytest.mark.parametrize("rules", ["default", "eaai"])
def test_gymnasium_check_env_and_registered_id(rules: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(ginsim.rl.ENV_ID, opponent="simple", rules=rules)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=5)
    assert obs["observation"].shape == (OBS_SIZE,)
    assert env.unwrapped.action_masks().dtype == bool and env.unwrapped.action_masks().any()


def _simple_action(hand: Hand, simple: Simple) -> int:
    """The action ``simple`` takes, asked through the mover's view as play_hand asks it."""
    seat = hand.to_move
    view = hand.views[seat]
    if hand.phase is OFFER or hand.phase != DISCARD:
        take = simple.take_upcard(view)
        return TAKE if take else PASS if hand.phase is OFFER else DRAW_STOCK
    card = simple.discard(view)
    dw = view.deadwood_after(card)
    if dw <= hand.knock_limit:
        view.phase = KNOCK
        if simple.knock(view):
            return KNOCK_BASE + card
    return card


@pytest.mark.parametrize("rules", ["default", "eaai", "classic"])
def test_a_hand_stepped_by_simple_equals_play_hand(rules: str) -> None:
    for seed in range(25):
        env = ginsim.rl.env(rules=rules)
        env.reset(seed=seed)
        table = env.table
        hand = table.hand
        deck, dealer, seeds = list(hand.deck), hand.dealer, table.seeds
        players = (Simple(), Simple())
        while not table.over:
            env.step(_simple_action(table.hand, players[table.to_move]))
        got = table.last
        want = play_hand(env.rules, [Simple(), Simple()], deck, dealer, seeds=seeds)
        assert got is not None and got._replace(turns=0) == want._replace(turns=0) and got.turns == want.turns
        if got.winner >= 0:
            assert env.rewards[f"player_{got.winner}"] == got.points
            assert env.rewards[f"player_{1 - got.winner}"] == -got.points


def _random_prefix(rng: random.Random, table: Table, steps: int) -> list[int]:
    """Random legal actions, never a knock or big gin, while the hand goes on."""
    actions = []
    for _ in range(steps):
        if table.over:
            break
        mask = observe_seat(table, table.to_move)["action_mask"]
        legal = [a for a in np.flatnonzero(mask).tolist() if not KNOCK_BASE <= a < KNOCK_BASE + 52 and a != 107]
        a = rng.choice(legal)
        table.act(a)
        actions.append(a)
    return actions


def test_permuting_the_opponents_hidden_cards_never_changes_an_observation() -> None:
    rng = random.Random(11)
    rules = Rules()
    checked = 0
    for seed in range(300):
        table = Table(rules)
        table.reset(np.random.default_rng(seed))
        hand = table.hand
        deck, dealer, seeds = list(hand.deck), hand.dealer, table.seeds
        actions = _random_prefix(rng, table, rng.randrange(0, 60))
        if table.over:
            continue
        seat = rng.randrange(2)
        want = observe_seat(table, seat)
        view = table.hand.views[seat]
        hidden = FULL_DECK & ~view.hand & ~view.pile_mask & ~view.opp_known
        where = [i for i, c in enumerate(deck) if hidden >> c & 1]
        cards = [deck[i] for i in where]
        rng.shuffle(cards)
        other = list(deck)
        for i, c in zip(where, cards, strict=True):
            other[i] = c
        again = Table(rules)
        again.hand = Hand(rules, other, dealer, (0, 0), seeds)
        for a in actions:
            again.act(a)
        assert not again.over
        got = observe_seat(again, seat)
        assert np.array_equal(got["observation"], want["observation"])
        assert np.array_equal(got["action_mask"], want["action_mask"])
        checked += 1
    assert checked > 200


def test_the_agent_not_to_move_sees_its_own_view_and_no_legal_action() -> None:
    env = ginsim.rl.env()
    env.reset(seed=3)
    mover = env.agent_selection
    other = next(a for a in env.agents if a != mover)
    seat = int(other[-1])
    obs = env.observe(other)
    assert not obs["action_mask"].any()
    hand_plane = obs["observation"][:52]
    assert {c for c in range(52) if hand_plane[c]} == {c for c in range(52) if env.table.hand.hands[seat] >> c & 1}


@pytest.mark.parametrize("bad", [0, 999, -1, "take", 2.0, None])
def test_an_illegal_action_forfeits_the_hand(bad: object) -> None:
    env = ginsim.rl.env()
    env.reset(seed=1)
    mover = env.agent_selection
    mask = env.observe(mover)["action_mask"]
    if bad == 0 and mask[0]:
        bad = 51 if not mask[51] else 50
    env.step(bad)
    assert all(env.terminations.values())
    points = forfeit_points(env.rules)
    assert env.rewards[mover] == -points
    assert sum(env.rewards.values()) == 0
    assert env.infos[mover]["outcome"] == "forfeit"
    assert env.table.last is not None and env.table.last.forfeit_kind == "illegal"
    single = ginsim.rl.GinRummyEnv()
    single.reset(seed=2)
    *_, terminated, _, info = single.step(bad if bad != 0 else 999)
    assert terminated and info["outcome"] == "forfeit"
    with pytest.raises(RuntimeError, match="reset"):
        single.step(105)


def test_an_illegal_action_ends_the_game_in_game_mode() -> None:
    env = ginsim.rl.env(game=True)
    env.reset(seed=9)
    mover = env.agent_selection
    env.step(999)
    game = env.table.game
    assert all(env.terminations.values()) and game is not None and game.ended == "forfeit"
    assert game.winner == 1 - int(mover[-1])


def test_rewards_scaled_and_win_and_game_mode() -> None:
    for reward in ("scaled", "win"):
        env = ginsim.rl.env(reward=reward)
        env.reset(seed=2)
        env.step(1000)
        assert set(env.rewards.values()) == ({-1.0, 1.0})
    env = ginsim.rl.env(game=True, reward="win")
    env.reset(seed=4)
    rng = random.Random(0)
    hands = 0
    while not all(env.terminations.values()):
        obs = env.observe(env.agent_selection)
        before = env.table.hands_played
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        hands += env.table.hands_played - before
        if not all(env.terminations.values()):
            assert set(env.rewards.values()) == {0.0}
    game = env.table.game
    assert game is not None and game.over and hands == env.table.hands_played > 1
    assert env.rewards[f"player_{game.winner}"] == 1.0


def test_single_agent_seeded_and_against_a_strategy_object_equals_the_fast_opponent() -> None:
    """simple asked through its view plays exactly as the kernel's simple."""
    for seed in range(10):
        fast = ginsim.rl.GinRummyEnv(opponent="simple")
        slow = ginsim.rl.GinRummyEnv(opponent=Simple())
        o1, _ = fast.reset(seed=seed)
        o2, _ = slow.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            assert np.array_equal(o1["observation"], o2["observation"])
            a = rng.choice(np.flatnonzero(o1["action_mask"]).tolist())
            o1, r1, t1, _, _ = fast.step(a)
            o2, r2, t2, _, _ = slow.step(a)
            assert (r1, t1) == (r2, t2)
            if t1:
                o1, _ = fast.reset()
                o2, _ = slow.reset()


def test_policy_strategy_plays_through_the_engine(tmp_path: Path) -> None:
    from ginsim.engine.spec import parse_spec

    calls = []

    def greedy(obs: np.ndarray, mask: np.ndarray) -> int:
        assert obs.shape == (OBS_SIZE,) and mask.shape == (N_ACTIONS,)
        calls.append(1)
        legal = np.flatnonzero(mask)
        knocks = legal[(legal >= KNOCK_BASE) & (legal < KNOCK_BASE + 52)]
        return int(knocks[0]) if len(knocks) else int(legal[-1] if mask[DRAW_STOCK] or mask[PASS] else legal[0])

    deck = list(range(52))
    random.Random(3).shuffle(deck)
    res = play_hand(preset_rules("default"), [PolicyStrategy(greedy), Simple()], deck, 0)
    assert calls and res.forfeit_seat == -1
    bad = play_hand(Rules(), [PolicyStrategy(lambda _o, _m: 999), Simple()], deck, 1)
    assert bad.outcome == "forfeit" and bad.forfeit_seat == 0 and "not a legal action" in bad.forfeit_reason
    src = tmp_path / "agent.py"
    src.write_text("import numpy as np\ndef act(obs, mask):\n    return int(np.flatnonzero(mask)[0])\n")
    spec = parse_spec(f"rlpolicy:{src}:act")
    assert spec.label == "act"
    assert isinstance(spec.build(), PolicyStrategy)


def test_rlpolicy_spec_errors_are_one_line(run_cli, tmp_path: Path) -> None:
    src = tmp_path / "agent.py"
    src.write_text("def act(obs, mask):\n    return 105\n")
    r = run_cli("match", f"rlpolicy:{src}:missing", "simple", "--hands", "4")
    assert r.code == 2 and "has no callable 'missing'" in r.err and len(r.err.strip().splitlines()) == 1
    r = run_cli("match", f"rlpolicy:{tmp_path}/nope.py:act", "simple", "--hands", "4")
    assert r.code == 2 and "no such file" in r.err


def _replay(rules: Rules, deck: list[int], dealer: int, seeds: tuple[int, int], actions: list[int]) -> Table:
    table = Table(rules)
    table.hand = Hand(rules, deck, dealer, (0, 0), seeds)
    for a in actions:
        table.act(a)
    return table


@pytest.mark.parametrize("rules", [Rules(), Rules(big_gin_bonus=31, allow_discard_of_drawn_upcard=True, knock_limit=5)])
def test_the_mask_is_exactly_what_the_engine_accepts(rules: Rules) -> None:
    rng = random.Random(4)
    states = knockable = 0
    for seed in range(60):
        table = Table(rules)
        table.reset(np.random.default_rng(seed))
        hand = table.hand
        deck, dealer, seeds = list(hand.deck), hand.dealer, table.seeds
        players = (Simple(), Simple())  # simple's moves reach the low deadwood where knocks are legal
        actions = []
        for _ in range(rng.randrange(0, 40)):
            if table.over:
                break
            a = _simple_action(table.hand, players[table.to_move])
            if KNOCK_BASE <= a < KNOCK_BASE + 52:
                a -= KNOCK_BASE  # play on: the states stay in progress
            table.act(a)
            actions.append(a)
        if table.over:
            continue
        mask = observe_seat(table, table.to_move)["action_mask"]
        knockable += bool(mask[KNOCK_BASE : KNOCK_BASE + 52].any())
        legal = set(np.flatnonzero(mask).tolist())
        tried = sorted(legal | set(rng.sample(range(N_ACTIONS), 12)))
        for a in tried:
            again = _replay(rules, deck, dealer, seeds, actions)
            again.act(a)
            last = again.last
            refused = last is not None and last.outcome == "forfeit"
            assert refused == (a not in legal), (seed, a)
        states += 1
    assert states > 25 and knockable > 3


def _big_gin_deck() -> list[int]:
    """Seat 0 (non-dealer) dealt AC-4C, 5D-7D, 8H-TH, the upcard JH: eleven melded cards."""
    from ginsim.engine.cards import parse_cards

    mine = parse_cards("AC 2C 3C 4C 5D 6D 7D 8H 9H TH")
    up = parse_cards("JH")[0]
    rest = [c for c in range(52) if c not in mine and c != up]
    deck = []
    for i in range(10):
        deck += [mine[i], rest.pop(0)]
    return [*deck, up, *rest]


@pytest.mark.parametrize("bonus", [31, None])
def test_big_gin_is_an_action_only_where_the_rules_have_it(bonus: int | None) -> None:
    from ginsim.rl.encoding import BIG_GIN

    rules = Rules(big_gin_bonus=bonus)
    table = Table(rules)
    table.hand = Hand(rules, _big_gin_deck(), 1)
    table.act(TAKE)
    assert observe_seat(table, 0)["action_mask"][BIG_GIN] == (bonus is not None)
    rewards = table.act(BIG_GIN)
    assert table.last is not None
    if bonus is None:
        assert table.last.outcome == "forfeit" and table.last.forfeit_seat == 0
    else:
        assert table.last.outcome == "big_gin" and rewards[0] == table.last.points > bonus
