"""The twenty-first attempt's tools: ``knock_search_player.py`` (``learned_search`` whose knocks
are played out too) and ``default_probes.py`` (three changes to how ``learned`` plays, with no
retraining)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from ginsim.strategies.aware import last_discard
from ginsim.strategies.learned import Learned
from support.learned import hand_moves
from support.training import training_module

from ginsim import tables_for
from ginsim.engine.cards import VALUE_OF
from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.view import PlayerView
from ginsim.run.seeding import deck_for


def _knock_search(**kw: Any) -> Any:
    return training_module("knock_search_player").KnockSearch(search=3, **kw)


def test_untrusted_play_outs_leave_learneds_moves_knocks_included() -> None:
    me = _knock_search(confidence=1e9)  # no play-out is ever trusted: discards, knocks, upcards
    me.judge.confidence = me.judge.hunter_confidence = 1e9
    for h in range(8):
        assert hand_moves(me, "simple", "default", 300, h) == hand_moves(Learned(), "simple", "default", 300, h)
    assert me.knock_searched > 0 and me.knock_overridden == 0 and me.overridden == 0


def test_the_other_knock_is_offered_exactly_where_the_hand_can_knock_without_gin() -> None:
    me = _knock_search()
    asked: list[tuple[int, int, list[tuple[int, bool]]]] = []
    evaluate = me.judge.evaluate

    def noted(view: PlayerView, options: list[tuple[int, bool]]) -> list[list[float]]:
        asked.append((view.hand, view.knock_limit, list(options)))
        return evaluate(view, options)

    me.judge.evaluate = noted
    for h in range(8):
        hand_moves(me, "simple", "default", 320, h)
    flips = 0
    for hand, limit, options in asked:
        for card, knocks in options:
            rest = hand & ~(1 << card)
            dw = _deadwood(rest)
            both = (card, not knocks) in options
            assert both == (0 < dw <= limit), (card, dw, options)
            flips += both
        assert len({c for c, _ in options}) <= 3  # the discards searched are learned_search's
    assert flips > 0


def _deadwood(mask: int) -> int:
    return int(tables_for(None).deadwood_mask(mask))


def test_a_knock_the_play_outs_settle_on_is_the_knock_made() -> None:
    answers: list[tuple[bool, bool]] = []

    class Noted(training_module("knock_search_player").KnockSearch):  # type: ignore[misc]
        def knock(self, view: PlayerView) -> bool:
            answer = super().knock(view)
            plan = self._plan
            if plan is not None and plan[:3] == (view.hand, view.turn, view.discard_choice) and view.discard_deadwood:
                answers.append((plan[3], answer))
            return answer

    me = Noted(search=3)

    def flip(rows: list[list[float]], _confidence: float | None = None) -> int:
        return len(rows[0]) - 1  # the last option: the other knock whenever one is offered

    me.judge.settle = flip
    for h in range(10):
        hand_moves(me, "simple", "default", 340, h)
    assert me.knock_overridden > 0
    assert answers and all(planned == made for planned, made in answers)
    assert any(made for _, made in answers) and not all(made for _, made in answers)


@pytest.mark.parametrize(
    "name, params",
    [("GameAware", {"mine": 0, "theirs": 0}), ("Scaled", {"factor": 1.0}), ("Threat", {"beta": 0.0})],
)
def test_each_probe_at_its_neutral_setting_plays_as_learned(name: str, params: dict[str, Any]) -> None:
    probe = getattr(training_module("default_probes"), name)(**params)
    for h in range(4):
        assert hand_moves(probe, "simple", "default", 360, h) == hand_moves(Learned(), "simple", "default", 360, h)


def test_game_aware_knocks_whenever_legal_near_the_target() -> None:
    asked: list[tuple[int, bool]] = []

    class Noted(training_module("default_probes").GameAware):  # type: ignore[misc]
        def knock(self, view: PlayerView) -> bool:
            answer = super().knock(view)
            asked.append((view.discard_deadwood, answer))
            return answer

    rules = preset_rules("default")
    for h in range(12):
        seats = [Noted(mine=15), parse_spec("simple").build()]
        play_hand(rules, seats, deck_for(380 + h), h % 2, (86, 40), (h, h + 1))
    assert asked and all(answer for dw, answer in asked if dw <= rules.knock_limit)


def test_scaled_multiplies_the_card_value() -> None:
    scaled = training_module("default_probes").Scaled(factor=2.0)
    plain = Learned()
    assert plain.cheap_cards is not None and scaled.cheap_cards is not None
    nums = np.random.default_rng(5).normal(size=(3, len(plain.cheap_cards.names)))
    args = ((1 << 10) - 1, [10, 11, 12], [1 << 30, 1 << 40, 1 << 45], nums)
    assert np.array_equal(scaled.cheap_cards.afterstates(*args), 2 * plain.cheap_cards.afterstates(*args))


def test_threat_lowers_each_discard_by_the_deadwood_it_keeps() -> None:
    seen = 0

    class Noted(training_module("default_probes").Threat):  # type: ignore[misc]
        def discard_values(self, view: PlayerView, ctx: Any, cards: list[int], rows: list[list[float]]) -> np.ndarray:
            nonlocal seen
            mine = super().discard_values(view, ctx, cards, rows)
            base = Learned.discard_values(self, view, ctx, cards, rows)
            last = last_discard(view)
            threat = 0.0 if last is None or view.turn < 3 else max(0.0, (11 - VALUE_OF[last]) / 10)
            assert np.allclose(base - mine, [0.5 * threat * row[0] for row in rows])
            seen += threat > 0
            return mine

    probe = Noted(beta=0.5, at=11)  # every discard but a ten or a face card counts
    for h in range(6):
        hand_moves(probe, "simple", "default", 400, h)
    assert seen > 0
