"""R26: a strategy that raises or answers illegally forfeits,
each proved by rule id with explicit hands (support.rulebook has the seat convention
and deck layout)."""

from __future__ import annotations

import pytest
from support.deals import (
    Script,
    make_deck,
    mask,
)
from support.rulebook import (
    BIG_GIN_DEFENDER,
    BIG_GIN_HAND,
    DEALER,
    DEFAULT,
    LAYOFF_KNOCKER,
    NONDEALER,
    Observer,
    PerHand,
    play,
    simple,
)

from ginsim import (
    Rules,
    parse_card,
    play_game,
    play_hand,
)
from ginsim.engine.result import forfeit_points
from ginsim.engine.strategy import Strategy
from ginsim.run.seeding import deck_for

# == R26 forfeits ===========================================================================


class _Raiser(Strategy):
    def __init__(self, method, inner=None):
        self.method = method
        self.inner = inner or simple()

    def _maybe(self, name):
        if name == self.method:
            raise RuntimeError(f"boom in {name}")

    def take_upcard(self, view):
        self._maybe("take_upcard")
        return self.inner.take_upcard(view)

    def discard(self, view):
        self._maybe("discard")
        return self.inner.discard(view)

    def knock(self, view):
        self._maybe("knock")
        return self.inner.knock(view)


PATHS = [DEFAULT, Rules(time_per_hand=3600.0)]
PATH_IDS = ["fast", "careful"]


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
@pytest.mark.parametrize("method", ["take_upcard", "discard", "knock"])
def test_r26_strategy_that_raises_forfeits(rules, method):
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="KH")
    raiser = _Raiser(method, Script(["take", "knock 5D"]))
    res = play(deck, raiser, simple(), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.winner == 1
    assert res.points == forfeit_points(rules, rules.hand_multiplier(parse_card("4S")))
    assert res.forfeit_kind == "raised"
    assert method in res.forfeit_reason and "RuntimeError" in res.forfeit_reason
    assert f"boom in {method}" in res.forfeit_reason


def test_r26_observe_that_raises_forfeits():
    class BadObserver(Observer):
        def observe(self, view, event):
            raise KeyError("nope")

    res = play_hand(DEFAULT, [simple(), BadObserver()], deck_for(3), dealer=0)
    assert res.outcome == "forfeit" and res.forfeit_seat == 1 and res.forfeit_kind == "raised"
    assert "observe" in res.forfeit_reason and "KeyError" in res.forfeit_reason


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
@pytest.mark.parametrize(
    ("moves", "kind", "words"),
    [
        (["pass", "KC"], "illegal", ["KC", "not in the hand"]),  # the dealer's card
        (["take", "4S"], "illegal", ["4S", "R12"]),
        (["pass", "7H"], "illegal", ["7H", "not in the hand"]),  # text, not a card int
        (["pass", 52], "illegal", ["52", "a discard must be a card"]),
        (["pass", True], "illegal", ["True", "a discard must be a card"]),
        (["pass", None], "illegal", ["None"]),
        (["yes"], "illegal", ["take_upcard returned 'yes'", "True or False"]),
        ([1], "illegal", ["take_upcard returned 1"]),
        ([None], "illegal", ["take_upcard returned None"]),
    ],
)
def test_r26_illegal_answers_forfeit_with_reason(rules, moves, kind, words):
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="KH 2H")
    res = play(deck, Script(moves), Script(["pass"]), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.winner == 1
    assert res.forfeit_kind == kind
    for w in words:
        assert w in res.forfeit_reason, res.forfeit_reason


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
@pytest.mark.parametrize("answer", ["yes", 1, None])
def test_r26_knock_answer_that_is_not_a_bool_forfeits(rules, answer):
    class BadKnock(Script):
        def knock(self, view):
            return answer

    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="KH 2H")
    res = play(deck, BadKnock(["pass", "5D"]), Script(["pass"]), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.forfeit_kind == "illegal"
    assert f"knock returned {answer!r}" in res.forfeit_reason


def test_r26_discard_of_a_string_names_the_value():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="KH 2H")

    class TextDiscard(Script):
        def discard(self, view):
            return "5D"

    res = play(deck, TextDiscard(["pass"]), Script(["pass"]))
    assert res.outcome == "forfeit" and res.forfeit_kind == "illegal"
    assert "'5D'" in res.forfeit_reason and "a discard must be a card" in res.forfeit_reason


class _Melder(Script):
    def __init__(self, moves, melds):
        super().__init__(moves)
        self.melds = melds

    def choose_melds(self, view):
        return self.melds


class _Layer(Script):
    def __init__(self, moves, layoff):
        super().__init__(moves)
        self.layoff = layoff

    def choose_layoffs(self, view):
        return self.layoff


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
def test_r26_illegal_melds_forfeit_the_knocker(rules):
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    res = play(deck, _Melder(["pass", "knock KH"], [mask("AS 2S 6H")]), Script(["pass"]), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.forfeit_kind == "illegal"
    assert "choose_melds" in res.forfeit_reason and "not a meld" in res.forfeit_reason


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
def test_r26_illegal_layoff_forfeits_the_defender(rules):
    deck = make_deck(nondealer=LAYOFF_KNOCKER, dealer="9S TS 2S 5H 5D 7C 8C 4D 4H KC", upcard="KH", stock="9C")
    res = play(deck, Script(["pass", "knock 9C"]), _Layer(["pass"], mask("TS")), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 1 and res.forfeit_kind == "illegal"
    assert "TS" in res.forfeit_reason and "laid off" in res.forfeit_reason


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
def test_r26_knocker_melds_over_the_limit_blame_the_knocker_even_when_the_defender_chooses_layoffs(rules):
    # the knocker shows no melds at all (legal melds, but deadwood 41 > 10); the defender
    # answers choose_layoffs with 0 ("lay off nothing"), which is a legal answer
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    res = play(deck, _Melder(["pass", "knock KH"], []), _Layer(["pass"], 0), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_kind == "illegal"
    assert "knock limit" in res.forfeit_reason
    assert res.forfeit_seat == 0, f"the defender was blamed for the knocker's melds: {res.forfeit_reason!r}"


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
@pytest.mark.parametrize("answer", [5, "AS 2S 3S", object()], ids=["int", "str", "object"])
def test_r26_choose_melds_returning_a_non_list_forfeits(rules, answer):
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    res = play(deck, _Melder(["pass", "knock KH"], answer), Script(["pass"]), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.forfeit_kind == "illegal"


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
@pytest.mark.parametrize("answer", ["9S", [parse_card("9S")], 1.5], ids=["str", "list", "float"])
def test_r26_choose_layoffs_returning_a_non_mask_forfeits(rules, answer):
    deck = make_deck(nondealer=LAYOFF_KNOCKER, dealer="9S TS 2S 5H 5D 7C 8C 4D 4H KC", upcard="KH", stock="9C")
    res = play(deck, Script(["pass", "knock 9C"]), _Layer(["pass"], answer), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 1 and res.forfeit_kind == "illegal"


def test_r26_forfeit_loses_the_game_whatever_the_score():
    class RaiseOnSecondHand(PerHand):
        def __init__(self):
            super().__init__(Script(["take", "knock 5D"]), _Raiser("take_upcard"))

    # hand 0: seat 0 (non-dealer) goes gin at once (+20+5); hand 1: seat 0 raises
    deck0 = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="KH")
    game = play_game(
        DEFAULT, [RaiseOnSecondHand(), simple()], lambda h: deck0 if h == 0 else deck_for(h), 1, lambda h: (h, h)
    )
    assert game.hands[0].outcome == "gin" and game.hands[0].winner == 0
    assert len(game.hands) == 2
    last = game.hands[1]
    assert last.outcome == "forfeit" and last.forfeit_seat == 0 and last.forfeit_kind == "raised"
    assert game.winner == 1
    # the forfeit scores for the opponent and ends the game at once
    assert game.scores == (25, forfeit_points(DEFAULT))


def test_r26_illegal_move_in_a_game_loses_the_game():
    game = play_game(DEFAULT, [simple(), Script(["maybe"])], lambda h: deck_for(h), 0, lambda h: (h, h))
    assert len(game.hands) == 1 and game.winner == 0
    assert game.hands[0].forfeit_seat == 1 and "take_upcard returned 'maybe'" in game.hands[0].forfeit_reason


def test_r26_big_gin_answer_that_is_not_a_bool():
    # a non-bool answer to take_big_gin should be treated like any other bad answer
    class BadBigGin(Script):
        def take_big_gin(self, view):
            return "yes"

    deck = make_deck(nondealer=BIG_GIN_HAND, dealer=BIG_GIN_DEFENDER, upcard="5C", stock="KC")
    res = play(deck, BadBigGin(["pass", "knock KC"]), Script(["pass"]), rules=Rules(big_gin_bonus=31))
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.forfeit_kind == "illegal", res
