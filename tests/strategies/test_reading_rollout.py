"""The eighteenth and nineteenth attempts' tools: ``reading_player.py`` (the opponent's hand
replayed through its moves as an eager knocker's), ``world_check.py`` (a referee's measure of
sampled worlds against the real hand) and ``rollout_player.py`` (``learned``'s close choices
played out by ``learned`` itself)."""

from __future__ import annotations

import random

import pytest
from ginsim.strategies.simple import Simple
from support.learned import hand_moves
from support.training import training_module

from ginsim.engine import rollout
from ginsim.engine.hand import Hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.view import DRAW, OFFER, OVER, PlayerView
from ginsim.run.seeding import deal_seeds, decks_for


def _positions(hands: int):  # type: ignore[no-untyped-def]
    """``simple`` against ``simple``: at each of seat 0's discards from turn 3, its view and
    what only a referee knows (seat 1's hand, and the upcards seat 1 was asked about and the
    cards it threw, in order)."""
    for i, deck in enumerate(decks_for(deal_seeds(77, 0, hands))):
        hand = Hand(Rules(), [int(c) for c in deck], i % 2, (0, 0), (i, i + 1))
        players = (Simple(), Simple())
        offered: list[int] = []
        thrown: list[int] = []
        while hand.phase is not OVER:
            seat = hand.to_move
            view = hand.views[seat]
            if hand.phase in (OFFER, DRAW):
                if seat == 1:
                    offered.append(view.upcard)
                take = players[seat].take_upcard(view)
                if hand.phase is OFFER:
                    hand.take() if take else hand.pass_upcard()
                else:
                    hand.take() if take else hand.draw()
                continue
            if seat == 0 and view.turn >= 3:
                yield view, hand.hands[1], list(offered), list(thrown)
            card = players[seat].discard(view)
            if seat == 1:
                thrown.append(card)
            rollout._discard(hand, players[seat], card)


def test_the_opponents_moves_are_read_from_the_history_as_they_were_made() -> None:
    reading = training_module("reading_player")
    checked = 0
    for view, _, offered, thrown in _positions(12):
        steps, taken = reading.opponent_steps(view)
        asked = [c for kind, c, _ in steps if kind in ("pass", "take") or (kind == "decline" and c >= 0)]
        assert asked == offered
        assert [c for kind, c, _ in steps if kind == "discard"] == thrown
        draws = [c for kind, c, _ in steps if kind == "draw"]
        assert all(c in thrown for c in draws)  # each stock draw is tied to the discard of its turn
        assert taken & view.opp_known == view.opp_known
        checked += 1
    assert checked > 20


def test_the_filters_copies_are_hands_the_opponent_can_hold() -> None:
    reading = training_module("reading_player")
    for view, _, _, _ in _positions(6):
        f = reading.OpponentFilter(view, 64, 0.1, random.Random(view.turn))
        reach = view.unseen() | view.opp_known
        for h in f.hands:
            assert h.bit_count() == 10 and h & ~reach == 0 and h & view.opp_known == view.opp_known
        assert sum(f.weights) > 0


def test_an_exact_reading_holds_more_of_the_real_cards_than_a_uniform_deal() -> None:
    """Against ``simple`` the filter's worlds hold more of seat 1's real hidden cards than a
    uniform deal of the unseen cards does; read as any other player's (``eps=1``: every move
    explained), about as many."""
    reading = training_module("reading_player")
    shares = {0.01: 0.0, 1.0: 0.0}
    uniform = 0.0
    n = failed = 0
    for view, real, _, _ in _positions(40):
        hidden = real & view.unseen()
        if not hidden:
            continue
        k = hidden.bit_count()
        uniform += k / view.unseen().bit_count()
        for eps in shares:
            f = reading.OpponentFilter(view, 300, eps, random.Random(view.turn))
            if f.failed:  # no copy fits: counted as a uniform deal would be
                failed += 1
                shares[eps] += k / view.unseen().bit_count()
                continue
            total = sum(f.weights)
            shares[eps] += (
                sum(w * (h & hidden).bit_count() for w, h in zip(f.weights, f.hands, strict=True)) / total / k
            )
        n += 1
    assert n > 100 and failed < 0.05 * n
    assert shares[0.01] / n > uniform / n + 0.04, (shares, uniform, n)
    assert abs(shares[1.0] / n - uniform / n) < 0.03, (shares, uniform, n)


def test_the_reading_judge_deals_worlds_from_the_filter() -> None:
    reading = training_module("reading_player")
    judge = reading.Reading(particles=32, eps=0.1, samples=8)
    for view, _, _, _ in _positions(2):
        worlds = list(judge.worlds(view, 8))
        assert len(worlds) == 8
        for opp, stock in worlds:
            assert opp & view.opp_known == view.opp_known
            assert set(stock) == {c for c in range(52) if (view.unseen() & ~opp) >> c & 1}


def test_world_check_prints_each_dealer_and_refuses_bad_settings(capsys: pytest.CaptureFixture[str]) -> None:
    check = training_module("world_check")
    assert check.main(["--hands", "3", "--particles", "16", "--eps", "0.1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == ["uniform", "patient", "filter"]
    assert check.main(["--hands", "3", "--eps", "0"]) == 2


@pytest.mark.parametrize("preset", ["default", "eaai"])
def test_without_a_confident_rollout_it_plays_as_learned(preset: str) -> None:
    rollout = training_module("rollout_player")
    for h in range(3):
        me = rollout.Rollout(samples=3, margin=50.0, top=3, confidence=1e9, take_margin=50.0, whole=1)
        assert hand_moves(me, "simple", preset, 300, h) == hand_moves(
            parse_spec("learned").build(), "simple", preset, 300, h
        )
        assert me.searched > 0 and me.overridden == 0 and me.take_overridden == 0


def test_rollouts_value_each_option_in_chances_of_winning_the_game() -> None:
    rollout = training_module("rollout_player")
    me = rollout.Rollout(samples=4, margin=50.0, top=3, confidence=0.0, take_margin=50.0, whole=1)
    seen: list[list[list[float]]] = []
    judge = me.judge
    evaluate = judge.evaluate

    def kept(view: PlayerView, options: list[tuple[int, bool]]) -> list[list[float]]:
        rows = evaluate(view, options)
        seen.append(rows)
        return rows

    judge.evaluate = kept  # this test's own instance: the engine never calls the judge
    for h in range(3):
        hand_moves(me, "simple", "default", 300, h)
    assert seen and all(rows for rows in seen)
    for rows in seen:
        assert all(0.0 <= x <= 100.0 for row in rows for x in row) and len({len(r) for r in rows}) == 1
    assert me.searched > 0 and me.overridden > 0  # with no confidence asked, play-outs do override


def test_the_rollout_opponent_is_a_spec_and_a_bad_one_is_refused() -> None:
    rollout = training_module("rollout_player")
    me = parse_spec(f"{rollout.__file__}:Rollout:whole=1,opponent=threshold/knock_at=0").build()
    assert me.judge.opponent().knock_at == 0 and me.judge.hunter is None
    with pytest.raises(Exception, match="nosuch"):
        rollout.Rollout(opponent="nosuch")
