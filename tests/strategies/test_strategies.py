"""Every built-in strategy passes the contract (ginsim.testing).

A new built-in adds one class here; a built-in without one fails
``test_every_builtin_has_a_contract``.
"""

from __future__ import annotations

import inspect
import itertools
import math
import random
import sys
from typing import Any

import pytest
from ginsim.strategies.patient import LATE_KNOCK_TURN, OWN_LATE_TURN, Patient, hand_ending
from ginsim.strategies.simple import Simple

from ginsim.engine.cards import Card, melds_with, parse_card
from ginsim.engine.game import play_game
from ginsim.engine.melds import tables_for
from ginsim.engine.opponent import OpponentModel
from ginsim.engine.playhand import HandResult, play_hand
from ginsim.engine.registry import BUILTINS, describe_all
from ginsim.engine.rules import Rules, preset_rules
from ginsim.engine.sampling import keeper_evidence
from ginsim.engine.spec import parse_spec
from ginsim.engine.view import PlayerView
from ginsim.run.seeding import deck_for
from ginsim.testing import Inspected, Record, StrategyContract


class TestRandom(StrategyContract):
    spec = "random"


class TestSimple(StrategyContract):
    spec = "simple"


class TestThreshold(StrategyContract):
    spec = "threshold:knock_at=4"


class TestAware(StrategyContract):
    spec = "aware"


class TestSampler(StrategyContract):
    """Few samples keep the contract quick; the sampling code paths are the same."""

    spec = "sampler:samples=6"
    hands = 40
    variant_hands = 6
    games = 1
    repro_hands = 6
    max_playouts = 6 * 22  # samples × (11 discards, each with and without a knock)


class TestPatient(StrategyContract):
    """The contract's rule variants include one with undercuts of 25, where it waits."""

    spec = "patient:samples=6"
    hands = 30
    variant_hands = 6
    games = 1
    repro_hands = 6
    max_playouts = 6 * 22


class TestLearned(StrategyContract):
    spec = "learned"


class TestSamplerBudget(StrategyContract):
    """A budget cap must hold even when the sample count alone would not. The cap is
    wall-clock, so the contract gives the sampler a fake clock that advances 5 ms per
    reading: a 20 ms budget then allows 5 worlds whatever the machine's load, where 2000
    samples alone would run 44,000 play-outs (counted, not timed)."""

    spec = "sampler:samples=2000,budget_ms=20,close=3"
    opponents = ("simple",)
    hands = 4
    variant_hands = 1
    games = 0
    fake_clock_ms = 5.0
    max_playouts = 5 * 22
    reproducible = False  # a wall-clock cap makes decisions depend on the machine's speed


def contract_classes() -> list[type[StrategyContract]]:
    module = sys.modules[__name__]
    return [
        c
        for _, c in inspect.getmembers(module, inspect.isclass)
        if issubclass(c, StrategyContract) and c is not StrategyContract
    ]


def test_every_builtin_has_a_contract() -> None:
    covered = {parse_spec(c.spec).target for c in contract_classes()}
    missing = sorted(set(BUILTINS) - covered)
    assert not missing, f"built-ins without a contract class in tests/strategies/test_strategies.py: {missing}"


class _Scribbler(Simple):
    """Plays like simple but writes into the view it is given."""

    def discard(self, view: PlayerView) -> Card:
        view.history.append((view.seat, "discard", None))
        return super().discard(view)


class _Cheat(Simple):
    """Discards a card it does not hold."""

    def discard(self, view: PlayerView) -> Card:
        return next(c for c in range(52) if not view.hand >> c & 1)


@pytest.mark.parametrize(("cls", "field"), [(_Scribbler, "mutations"), (_Cheat, "forfeits")])
def test_the_guard_catches_what_the_contract_forbids(cls: type[Simple], field: str) -> None:
    record = Record()
    pair = (Inspected(cls(), record), Simple())
    result = play_hand(Rules(), pair, deck_for(3), 0, (0, 0), (1, 2))
    record.add_result(result, "self-test")
    assert getattr(record, field), f"the guard missed a {cls.__doc__}"


def test_every_builtin_describes_itself() -> None:
    for entry in describe_all():
        if entry["name"] in BUILTINS:
            assert entry["description"], f"{entry['name']} has no description"
            assert not entry["description"].startswith("cannot load"), entry["description"]


class TestSamplerEvidence(StrategyContract):
    """The not-knocking evidence and the endgame knock rule switched on."""

    spec = "sampler:samples=6,knock_hint=0.1,endgame=20"
    hands = 20
    variant_hands = 4
    games = 1
    repro_hands = 6
    max_playouts = 6 * 22


@pytest.mark.parametrize(
    "spec", ["aware:endgame=-1", "aware:endgame=2.5", "sampler:knock_hint=0", "sampler:knock_hint=1.5"]
)
def test_bad_endgame_and_knock_hint_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match=r"endgame|knock_hint"):
        parse_spec(spec).build()


def test_endgame_drops_the_late_knock_limit_near_the_target() -> None:
    aware = parse_spec("aware:endgame=10").build()
    rules = Rules()

    class _View:
        def __init__(self, scores: tuple[int, int]) -> None:
            self.rules, self.scores, self.turn = rules, scores, 25

    assert aware.knock_limit_now(_View((0, 0))) == aware.late_knock_at
    assert aware.knock_limit_now(_View((91, 0))) == aware.knock_at
    assert aware.knock_limit_now(_View((40, 95))) == aware.knock_at
    assert parse_spec("aware").build().knock_limit_now(_View((95, 95))) == aware.late_knock_at


class _HandView:
    """The few view fields the keeper evidence reads: one hand of a game."""

    def __init__(self, scores: tuple[int, int], discards: list[str], turn: int = 3) -> None:
        self.rules, self.scores, self.seat, self.turn = Rules(), scores, 0, turn
        self.knock_limit = self.rules.knock_limit  # the hand's knock limit (R29)
        self.history = [(1, "discard", parse_card(c)) for c in discards]


def test_keeper_evidence_reads_the_opponents_first_three_discards() -> None:
    high = keeper_evidence([(1, "discard", parse_card(c)) for c in ("KS", "QH", "TD")], 0)
    low = keeper_evidence([(1, "discard", parse_card(c)) for c in ("KS", "5H", "TD")], 0)
    assert high < 0 < low  # simple throws its highest cards; a low one early points to a keeper
    mine = keeper_evidence([(0, "discard", parse_card("2C"))], 0)  # this seat's own discards say nothing
    assert mine == 0.0
    fourth = keeper_evidence([(1, "discard", parse_card(c)) for c in ("KS", "QH", "TD", "2C")], 0)
    assert fourth == high  # only the first three count


def test_keeper_chance_builds_up_over_a_game_and_resets_at_a_new_one() -> None:
    s = parse_spec("sampler").build()
    assert s.keeper_chance(_HandView((0, 0), [])) == 0.5  # no evidence yet: even odds
    first = s.keeper_chance(_HandView((0, 0), ["3S", "4H", "KD"]))
    second = s.keeper_chance(_HandView((12, 0), ["2S"]))  # the game's next hand adds to it
    assert 0.5 < first < second
    assert s.keeper_chance(_HandView((0, 0), [])) == 0.5  # 0-0 again: a new game
    assert s.keeper_chance(_HandView((5, 9), ["KS", "QH", "KD"])) < 0.5


def test_out_weight_moves_towards_keeper_weight_with_the_evidence() -> None:
    aware = parse_spec("aware").build()
    off = parse_spec("sampler:keeper_weight=0.25").build()
    s = parse_spec("sampler:keeper_weight=0.05").build()
    simple_like, keeper_like = _HandView((0, 0), ["KS", "QH", "KD"]), _HandView((0, 0), ["3S", "4H", "2D"])
    assert off.out_weight_now(keeper_like) == aware.out_weight_now(keeper_like)
    w_simple, w_keeper = s.out_weight_now(simple_like), s.out_weight_now(keeper_like)
    assert 0.05 * (1 - 3 / 15) < w_keeper < w_simple < aware.out_weight_now(simple_like)
    assert w_keeper == pytest.approx(0.05 * (1 - 3 / 15), rel=0.03)


def test_bad_keeper_weight_is_refused() -> None:
    with pytest.raises(ValueError, match="keeper_weight"):
        parse_spec("sampler:keeper_weight=-1").build()


def test_knock_belief_follows_the_turn_and_the_opponents_style() -> None:
    s = parse_spec("sampler").build()
    assert s.knock_belief(_HandView((0, 0), ["KS"], turn=5)) == [0.01] * 11
    late = s.knock_belief(_HandView((0, 0), [], turn=25))  # even odds of a keeper so far
    assert late[:7] == [0.01] * 7  # at 6 or less both kinds would have knocked
    assert late[7:] == [pytest.approx(0.01 + 0.99 * 0.5)] * 4  # a keeper plays on at 7-10 late
    assert parse_spec("sampler:knock_hint=1").build().knock_belief(_HandView((0, 0), [], turn=5)) == []


def _mid_hand_view(seed: int) -> PlayerView:
    """Seat 0's view at turn 15, the opponent having drawn from the stock and discarded 12 times."""
    rng = random.Random(seed)
    cards = rng.sample(range(52), 22)
    rules = Rules()
    view = PlayerView(rules, tables_for(None), 0, 1, (0, 0), seed, sum(1 << c for c in cards[:10]), None)
    for c in cards[10:]:
        view.history += [(1, "draw", None), (1, "discard", c)]
        view._pile.append(c)
        view.pile_mask |= 1 << c
        view.opp_discards |= 1 << c
    view.upcard, view.turn, view.stock_size = cards[-1], 15, 7
    return view


def test_deals_believe_the_opponent_did_not_knock() -> None:
    tables = tables_for(None)
    could = {}
    for spec in ("sampler:knock_hint=1", "sampler"):
        s = parse_spec(spec).build()
        hands = [opp for seed in range(10) for opp, _ in s.worlds(_mid_hand_view(seed), 30)]
        could[spec] = sum(tables.deadwood_mask(h) <= 10 for h in hands) / len(hands)
    assert could["sampler:knock_hint=1"] > 0.3  # twelve improvements make most deals knockable
    assert could["sampler"] < 0.1  # but it did not knock


def test_deals_rarely_meld_with_the_cards_the_opponent_passed_on() -> None:
    melding = {}
    for spec in ("sampler:pass_hint=1", "sampler"):
        s = parse_spec(spec).build()
        n = k = 0
        for seed in range(10):
            view = _mid_hand_view(seed)
            declined = view.discard_pile[:4]  # say it passed on the first four cards of the pile
            view.opp_passed = sum(1 << c for c in declined)
            for opp, _ in s.worlds(view, 30):
                n += 1
                k += sum(melds_with(c, opp) for c in declined)
        melding[spec] = k / n
    assert melding["sampler"] < 0.85 * melding["sampler:pass_hint=1"]


@pytest.mark.parametrize("value", ["0", "1.5", "-1"])
def test_bad_pass_hint_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="pass_hint"):
        parse_spec(f"sampler:pass_hint={value}").build()


class _TurnView:
    def __init__(self, rules: Rules, turn: int) -> None:
        self.rules, self.scores, self.turn = rules, (0, 0), turn


def test_patient_knocks_late_only_near_gin_where_undercuts_are_dear() -> None:
    patient = parse_spec("patient").build()
    eaai, palace, default = preset_rules("eaai"), preset_rules("palace"), Rules()
    assert patient.knock_limit_now(_TurnView(eaai, 11)) == 10  # early: aware's limit
    assert patient.knock_limit_now(_TurnView(eaai, 12)) == 1
    assert patient.knock_limit_now(_TurnView(palace, 30)) == 1  # undercut 20
    assert patient.knock_limit_now(_TurnView(default, 12)) == 10  # undercut 10: as sampler
    assert patient.knock_limit_now(_TurnView(default, 25)) == 6
    assert parse_spec("patient:undercut_at=30").build().knock_limit_now(_TurnView(eaai, 25)) == 6


def test_patient_lets_the_samples_veto_a_knock_but_never_add_one() -> None:
    patient = parse_spec("patient").build()
    play_on, knock = (7, False), (7, True)
    rows = [[0.0, 10.0], [1.0, 12.0], [0.5, 11.0]]  # the second option is clearly better
    assert patient.choose(_TurnView(preset_rules("eaai"), 15), [play_on, knock], rows) == 0
    assert patient.choose(_TurnView(Rules(), 15), [play_on, knock], rows) == 1
    assert patient.choose(_TurnView(preset_rules("eaai"), 15), [knock, play_on], rows) == 1
    assert patient.choose(_TurnView(preset_rules("eaai"), 15), [play_on, (9, False)], rows) == 1


def test_patient_trusts_its_samples_less_against_a_likely_hunter() -> None:
    patient = parse_spec("patient").build()
    rows = [[0.0, 1.0], [0.0, 0.5], [0.0, 0.0], [0.0, -0.5]]  # a gain of 0.25: 0.77 standard errors
    assert patient.settle(rows) == 1  # confidence 0.5
    assert patient.settle(rows, 1.0) == 0
    patient.hunting = lambda _view: True  # type: ignore[method-assign]
    assert patient.choose(_TurnView(preset_rules("eaai"), 15), [(7, False), (9, False)], rows) == 0
    patient.hunting = lambda _view: False  # type: ignore[method-assign]
    assert patient.choose(_TurnView(preset_rules("eaai"), 15), [(7, False), (9, False)], rows) == 1


def test_patient_waits_where_undercuts_are_cheap_once_the_opponent_looks_like_a_hunter() -> None:
    patient = parse_spec("patient").build()
    play_on, knock = (7, False), (7, True)
    rows = [[0.0, 10.0], [1.0, 12.0], [0.5, 11.0]]  # the knock is clearly better on the samples
    eager = _mid_game(patient, Rules(), 12, -5.0)
    assert not patient.waits(eager) and not patient.hunting(eager)
    assert patient.knock_limit_now(eager) == 10
    assert patient.choose(eager, [play_on, knock], rows) == 1
    hunter = _mid_game(patient, Rules(), 12, 5.0)  # the game's hands point to a gin hunter
    assert patient.waits(hunter) and patient.hunting(hunter)
    assert patient.knock_limit_now(hunter) == 1
    assert patient.choose(hunter, [play_on, knock], rows) == 0  # sampling may not add the knock
    assert patient.choose(hunter, [knock, play_on], rows) == 1  # but may veto one
    hunter.turn = 11
    assert patient.knock_limit_now(hunter) == 10  # early in a hand: aware's limit


def test_patient_plays_as_sampler_where_undercuts_are_cheap() -> None:
    for i in range(12):
        deck = deck_for(700 + i)
        a = play_hand(Rules(), (parse_spec("patient:samples=6").build(), Simple()), deck, i % 2, (0, 0), (5, 6))
        b = play_hand(
            Rules(), (parse_spec("sampler:samples=6,confidence=0.5").build(), Simple()), deck, i % 2, (0, 0), (5, 6)
        )
        assert a == b


def _decisions_played_out(spec: str, hands: int) -> tuple[list[int], int]:
    """Against ``simple``, the discard decisions that ``spec`` played out (how many cards each
    weighed) and how many upcard decisions it played out, over ``hands`` hands."""
    s = parse_spec(spec).build()
    discards: list[int] = []
    draws = 0
    evaluate, evaluate_draw = s.evaluate, s.evaluate_draw

    def counted(view: PlayerView, options: list[tuple[Card, bool]]) -> list[list[float]]:
        discards.append(len({card for card, _ in options}))
        return evaluate(view, options)

    def counted_draw(view: PlayerView, take: bool) -> list[list[float]]:
        nonlocal draws
        draws += 1
        return evaluate_draw(view, take)

    s.evaluate, s.evaluate_draw = counted, counted_draw  # type: ignore[method-assign]
    for i in range(hands):
        play_hand(Rules(), (s, Simple()), deck_for(900 + i), i % 2, (0, 0), (5, 6))
    return discards, draws


def test_patients_stronger_setting_plays_out_more_of_its_decisions() -> None:
    """The stronger setting of docs/strategies.md (``close=4,candidates=4,take_close=2``):
    the best four discards within 4 points weighed (beside ``aware``'s choice), not three
    within 1, and close upcard decisions played out too."""
    default, default_draws = _decisions_played_out("patient:samples=4", 8)
    strong, strong_draws = _decisions_played_out("patient:samples=4,close=4,candidates=4,take_close=2", 8)
    assert default_draws == 0 and max(default) <= 4
    assert strong_draws > 0 and max(strong) <= 5
    assert len(strong) > len(default) and sum(n >= 4 for n in strong) > sum(n >= 4 for n in default)


@pytest.mark.parametrize("spec", ["patient:undercut_at=-1", "patient:patient_turn=2.5", "patient:patient_knock_at=-2"])
def test_bad_patient_parameters_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match=r"undercut_at|patient_turn|patient_knock_at"):
        parse_spec(spec).build()


class _EndingLog(Patient):
    """``patient`` noting, at each hand's first decision, how it reads the last hand it saw:
    (scores before that hand, scores now, its reading)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.read: list[tuple[tuple[int, int], tuple[int, int], str | None]] = []

    def hunter_chance(self, view: PlayerView) -> float:
        old = self._hunter.view
        if view is not old and old is not None and view.scores != (0, 0):
            self.read.append((old.scores, view.scores, hand_ending(old, view.scores)))
        return super().hunter_chance(view)


def _ending(res: HandResult, me: int) -> str:
    """How a hand ended, as the engine recorded it: ``hand_ending``'s key for seat ``me``."""
    if res.outcome == "draw":
        return "draw"
    gin = res.outcome in ("gin", "big_gin")
    if res.knocker != me:
        return "opp_gin" if gin else "opp_knock_late" if res.turns > LATE_KNOCK_TURN else "opp_knock_early"
    if gin:
        return "own_gin"
    if res.turns <= OWN_LATE_TURN:
        return "own_early"
    d = res.defender_deadwood_after
    return "own_late_near" if d <= 4 else "own_late_mid" if d <= 7 else "own_late_far"


@pytest.mark.parametrize(
    ("opponent", "endings"),
    [
        ("simple", {"opp_knock_late", "opp_knock_early", "opp_gin", "own_early", "own_gin"}),
        ("aware:late_turn=8,late_knock_at=0", {"opp_knock_early", "opp_gin", "own_early", "own_gin", "draw"}),
    ],
    ids=["eager", "gin-hunter"],
)
def test_patient_reads_how_each_hand_ended_from_the_next_hands_scores(opponent: str, endings: set[str]) -> None:
    """R13: the view's history, its own hand and the scores are enough: every reading of a
    hand agrees with the engine's record of it. (A hand in which this seat had no decision,
    the opponent knocking at its first turn, is not seen; the reading after it is skipped.)"""
    rules = preset_rules("eaai")
    seen: set[str] = set()
    checked = 0
    for g in range(12):
        log = _EndingLog(samples=0)
        decks = [deck_for(900 + 50 * g + h) for h in range(50)]
        game = play_game(rules, (log, parse_spec(opponent).build()), decks.__getitem__, g % 2, lambda h: (h, h + 7))
        before = [(0, 0)]
        for res in game.hands:
            won = [0, 0]
            if res.winner >= 0:
                won[res.winner] = res.points
            before.append((before[-1][0] + won[0], before[-1][1] + won[1]))
        for old, new, reading in log.read:
            hands = [i for i in range(len(game.hands)) if before[i] == old and before[i + 1] == new]
            if hands:
                assert reading == _ending(game.hands[hands[-1]], 0), (g, old, new)
                checked += 1
                seen.add(reading)  # type: ignore[arg-type]
    assert checked >= 50
    assert endings <= seen


def test_hunter_chance_builds_up_over_a_game_and_resets_at_a_new_one() -> None:
    p = parse_spec("patient").build()
    rules = preset_rules("eaai")
    tables = tables_for(None)

    def hand(scores: tuple[int, int], events: list[tuple[int, str, int | None]], turn: int, cards: str) -> PlayerView:
        view = PlayerView(rules, tables, 0, 1, scores, 0, sum(1 << parse_card(c) for c in cards.split()), None)
        view.history, view.turn = events, turn
        return view

    first = hand((0, 0), [(1, "draw", None), (1, "knock", parse_card("KS"))], 20, "AC 2C 3C 4D 5D 6D 7H 8H 9H TS")
    assert p.hunter_chance(first) == pytest.approx(0.3)  # the prior
    # the opponent went gin at turn 20: 25 + this seat's 10 deadwood
    second = hand((0, 35), [], 3, "AC 2C 3C 4D 5D 6D 7H 8H 9H TS")
    assert p.hunter_chance(second) > 0.8
    # then it knocked with deadwood at turn 14 (4 points): an eager knocker after all
    second.history, second.turn = [(1, "knock", parse_card("QS"))], 14
    assert p.hunter_chance(hand((0, 39), [], 1, "KS")) < 0.2
    assert p.hunter_chance(hand((0, 0), [], 1, "KS")) == pytest.approx(0.3)  # a new game


def _mid_game(p: Patient, rules: Rules, turn: int, evidence: float) -> Any:
    """A view at ``turn`` of a hand after which ``p``'s game evidence of a hunter is ``evidence``."""
    view = _TurnView(rules, turn)
    view.knock_limit, view.seat, view.history = 10, 0, []  # type: ignore[attr-defined]
    p._hunter.total, p._hunter.view = evidence, view  # type: ignore[assignment]
    return view


def test_a_likely_gin_hunter_is_played_out_as_one() -> None:
    p = parse_spec("patient:hunter_turn=9").build()
    view = _mid_game(p, preset_rules("eaai"), 15, 5.0)
    assert p.playout_policy(view).opp_late_turn == 9
    belief = p.knock_belief(view)
    assert belief[0] == 0.01 and min(belief[1:]) > 0.98
    p._hunter.total = -5.0
    assert p.playout_policy(view).opp_late_turn > 100
    assert max(p.knock_belief(view)[1:]) < 0.05
    cheap = _mid_game(p, Rules(), 15, 5.0)  # undercuts cheap: a likely hunter is one all the same
    assert p.playout_policy(cheap).opp_late_turn == 9
    p._hunter.total = -5.0
    assert p.playout_policy(cheap).opp_late_turn > 100


@pytest.mark.parametrize("spec", ["patient:hunter_prior=0", "patient:hunter_prior=1", "patient:hunter_at=1.5"])
def test_bad_hunter_parameters_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="hunter_"):
        parse_spec(spec).build()


class _DrawCheck(Simple):
    """``simple``, checking at each discard ``aware``'s ``best_of_draws`` of every 10-card
    hand it could keep against the plain sum over all pairs (or triples) of stock draws,
    with and without a premium on gin."""

    def __init__(self) -> None:
        super().__init__()
        self.checked = 0
        self.gins = 0  # checks in which some draw went gin

    def discard(self, view: PlayerView) -> Card:
        model = OpponentModel(view, 2.5, 0.5)
        tables = tables_for(view.rules.max_run_length)
        unseen = [c for c in range(52) if model.unseen >> c & 1]
        weight = {c: 1.0 - model.p[c] for c in unseen}
        total = sum(weight.values())
        for card in [c for c in range(52) if view.hand >> c & 1][:3]:
            rest = view.hand & ~(1 << card)
            left = {c: tables.best_discard_mask(rest | 1 << c)[0] for c in unseen}
            for n in (1, 2, 3) if self.checked < 20 else (1, 2):
                expect = premium = 0.0
                for draws in itertools.product(unseen, repeat=n):
                    w = math.prod(weight[c] for c in draws) / total**n
                    least = min(left[c] for c in draws)
                    expect += w * least
                    premium += w * (least if least else -4.0)  # a gin counted 4 below 0
                assert model.best_of_draws(rest, tables, n) == pytest.approx(expect, abs=1e-9)
                assert model.best_of_draws(rest, tables, n, 4.0) == pytest.approx(premium, abs=1e-9)
                self.gins += premium < expect
            self.checked += 1
        return super().discard(view)


def test_best_of_draws_is_the_expected_least_deadwood_over_the_next_draws() -> None:
    checker = _DrawCheck()
    for i in range(4):
        play_hand(Rules(), (checker, Simple()), deck_for(40 + i), i % 2, (0, 0), (1, 2))
    assert checker.checked >= 30 and checker.gins > 0


def test_patient_races_for_gin_only_against_a_likely_hunter_late_in_a_hand() -> None:
    p = parse_spec("patient:race_weight=2,race_turn=9,race_draws=5,race_gin=3").build()
    view = _mid_game(p, preset_rules("eaai"), 9, 5.0)
    assert p.future_now(view) == (2.0, 5, 3.0)
    view.turn = 8
    assert p.future_now(view) == (0.0, 0, 0.0)
    view.turn, p._hunter.total = 12, -5.0  # an eager knocker
    assert p.future_now(view) == (0.0, 0, 0.0)
    cheap = _mid_game(p, Rules(), 12, 5.0)  # undercuts cheap: the race all the same
    assert p.future_now(cheap) == (2.0, 5, 3.0)
    assert parse_spec("aware").build().future_now(view) == (0.0, 0, 0.0)


@pytest.mark.parametrize(
    "spec",
    [
        "patient:race_weight=-1",
        "patient:race_turn=1.5",
        "patient:race_draws=0",
        "patient:race_gin=-2",
        "patient:hunter_confidence=-1",
    ],
)
def test_bad_race_parameters_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match=r"race_|hunter_confidence"):
        parse_spec(spec).build()


def test_spec_prefixes_go_to_their_registered_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    """``import ginsim`` registers ``java:`` (ginsim.outside); any other prefix a module
    registers gets its specs, and an unknown prefix is one clear line."""
    from ginsim.engine import registry
    from ginsim.engine.spec import imports_outside_code
    from ginsim.errors import StrategySpecError

    assert "java" in registry.spec_prefixes() and "rlpolicy" in registry.spec_prefixes()
    seen: list[tuple[str, str]] = []

    def loader(target: str, where: str) -> type:
        seen.append((target, where))
        return Simple

    monkeypatch.setattr(registry, "_PREFIX_LOADERS", dict(registry._PREFIX_LOADERS))
    registry.register_prefix("demo", loader)
    spec = parse_spec("demo:anything:Here")
    assert spec.build().__class__ is Simple and seen[0] == ("demo:anything:Here", "demo:anything:Here")
    assert not imports_outside_code("demo:anything:Here")
    known = r"\(known prefixes: java:, rlpolicy:, demo:\)"
    with pytest.raises(StrategySpecError, match=r"unknown spec prefix 'nosuch:' " + known):
        parse_spec("nosuch:cp:Cls")
    with pytest.raises(ValueError, match="plain word"):
        registry.register_prefix("a:b", loader)
    with pytest.raises(ValueError, match="built-in"):
        registry.register_prefix("simple", loader)
