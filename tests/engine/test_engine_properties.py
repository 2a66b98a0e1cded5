"""Properties of the engine over thousands of hands: card conservation, zero-sum scoring,
determinism, and illegal moves refused with IllegalMoveError in every phase."""

from __future__ import annotations

import random

import pytest
from support.deals import StockDrawer, apply, check_conservation, make_deck, random_move, stock_cards

from ginsim import IllegalMoveError, Rules, parse_spec, play_hand, tables_for
from ginsim.engine.cards import CARD_NAMES, FULL_DECK, cards_list
from ginsim.engine.layoff import layoff_is_legal
from ginsim.engine.playhand import OUTCOMES, Hand
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import DISCARD, DRAW, KNOCK, LAYOFF, OFFER, OVER, PlayerView
from ginsim.run.seeding import deal_seed, deck_for

RULE_VARIANTS = [
    Rules(),
    Rules(knock_limit=0),
    Rules(knock_limit=4, gin_bonus=25, undercut_bonus=25),
    Rules(big_gin_bonus=31),
    Rules(allow_discard_of_drawn_upcard=True),
    Rules(max_run_length=4),
    Rules(max_run_length=3, big_gin_bonus=50, allow_discard_of_drawn_upcard=True),
]

SPECS = ["random", "simple", "threshold:knock_at=3", "random:take_chance=0.1,knock_chance=0.9"]


_SPECS = {}


def build(spec: str) -> Strategy:
    """A new strategy of ``spec`` (the parsed spec is kept)."""
    if spec not in _SPECS:
        _SPECS[spec] = parse_spec(spec)
    return _SPECS[spec].build()


def _view_state(v: PlayerView):
    return v.snapshot()


def _hand_state(h: Hand):
    return (
        h.phase,
        h.to_move,
        h.turn,
        tuple(h.hands),
        tuple(h.pile),
        h.next_stock,
        h.drawn,
        h.drawn_from_pile,
        h.result,
        h.knocker,
        tuple(_view_state(v) for v in h.views),
    )


# -- card conservation --------------------------------------------------------------


def _check_views(h: Hand) -> None:
    pile_mask = 0
    for c in h.pile:
        pile_mask |= 1 << c
    for seat, v in enumerate(h.views):
        assert v.hand == h.hands[seat]
        assert v.discard_pile == tuple(h.pile)
        assert v.pile_mask == pile_mask
        assert v.upcard == (h.pile[-1] if h.pile else None)
        assert v.stock_size == len(stock_cards(h))
        # what a seat knows of the opponent is in the opponent's hand
        assert v.opp_known & ~h.hands[1 - seat] == 0
        assert v.unseen() & (v.hand | v.pile_mask) == 0


def test_card_conservation_driving_hand_with_random_legal_moves():
    rng = random.Random(2024)
    moves = 0
    for i in range(800):
        rules = RULE_VARIANTS[i % len(RULE_VARIANTS)]
        deck = deck_for(deal_seed(99, i))
        h = Hand(rules, deck, dealer=i % 2)
        check_conservation(h)
        _check_views(h)
        while h.phase is not OVER:
            random_move(h, rng, knock_chance=0.4)
            moves += 1
            check_conservation(h)
            _check_views(h)
        assert h.result is not None and h.result.outcome in OUTCOMES
    assert moves > 8000


class _ConservationWatcher(Strategy):
    """Plays like ``inner`` and checks, at each decision, that its view accounts for all
    52 cards: its hand, the pile, the stock and the opponent's 10 cards."""

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner
        self.checks = 0

    def _check(self, view: PlayerView, mine: int) -> None:
        self.checks += 1
        assert view.hand.bit_count() == mine
        assert len(view.discard_pile) == view.pile_mask.bit_count()
        assert view.hand & view.pile_mask == 0
        assert view.hand | view.pile_mask | view.unseen() | view.opp_known == FULL_DECK
        assert view.hand.bit_count() + len(view.discard_pile) + view.stock_size + 10 == 52
        assert view.opp_known & (view.hand | view.pile_mask) == 0

    def take_upcard(self, view: PlayerView) -> bool:
        self._check(view, 10)
        assert view.phase in (OFFER, DRAW)
        return self.inner.take_upcard(view)

    def discard(self, view: PlayerView) -> int:
        self._check(view, 11)
        assert view.phase is DISCARD
        card = self.inner.discard(view)
        assert view.legal_discards() >> card & 1
        return card

    def knock(self, view: PlayerView) -> bool:
        self._check(view, 11)
        assert view.phase is KNOCK
        assert view.deadwood_after(view.discard_choice) == view.discard_deadwood <= view.rules.knock_limit
        return self.inner.knock(view)


def test_card_conservation_seen_from_the_views():
    checks = 0
    for i in range(1200):
        rules = RULE_VARIANTS[i % len(RULE_VARIANTS)]
        a, b = SPECS[i % 4], SPECS[(i // 4) % 4]
        w = [_ConservationWatcher(build(a)), _ConservationWatcher(build(b))]
        res = play_hand(rules, w, deck_for(deal_seed(7, i)), i % 2, seeds=(i, ~i & 0xFFFF))
        assert res.outcome != "forfeit", res.forfeit_reason
        hands = res.hands
        assert hands[0] & hands[1] == 0
        checks += w[0].checks + w[1].checks
    assert checks > 20000


# -- zero-sum scoring and result consistency -------------------------------------------


def _check_result(rules: Rules, res) -> None:
    tables = tables_for(rules.max_run_length)
    assert res.outcome in OUTCOMES
    gains = [0, 0]
    if res.winner >= 0:
        gains[res.winner] += res.points
    if res.outcome == "draw":
        assert res.winner == -1 and res.points == 0 and res.knocker == -1 and res.stock_left == 2
        return
    assert res.winner in (0, 1), res
    assert sorted(gains) == [0, res.points]  # exactly one seat gains, the other nothing
    assert res.points >= 0
    if res.outcome == "forfeit":
        assert res.forfeit_seat == 1 - res.winner
        return
    k = res.knocker
    d = 1 - k
    kh, dh = res.hands
    kh, dh = (kh, dh) if k == 0 else (dh, kh)
    assert res.defender_deadwood_before == tables.deadwood_mask(dh)
    if res.outcome == "big_gin":
        assert rules.big_gin_bonus is not None
        assert kh.bit_count() == 11 and tables.deadwood_mask(kh) == 0
        assert res.winner == k and res.points == rules.big_gin_bonus + res.defender_deadwood_before
        return
    assert kh.bit_count() == dh.bit_count() == 10
    kd = tables.check_melds(kh, res.knocker_melds)
    assert kd == res.knocker_deadwood <= rules.knock_limit
    if res.outcome == "gin":
        assert kd == 0 and res.layoff == 0 and res.winner == k
        assert res.defender_deadwood_after == res.defender_deadwood_before
        assert res.points == rules.gin_bonus + res.defender_deadwood_before
        return
    assert kd > 0
    assert res.layoff & ~dh == 0 and res.layoff.bit_count() == res.layoff_cards
    assert res.layoff == 0 or layoff_is_legal(res.layoff, res.knocker_melds, tables)
    assert res.defender_deadwood_after == tables.deadwood_mask(dh & ~res.layoff)
    assert res.defender_deadwood_after <= res.defender_deadwood_before
    if res.outcome == "knock":
        assert kd < res.defender_deadwood_after and res.winner == k
        assert res.points == res.defender_deadwood_after - kd > 0
    else:
        assert res.outcome == "undercut" and res.winner == d
        assert kd >= res.defender_deadwood_after
        assert res.points == kd - res.defender_deadwood_after + rules.undercut_bonus


def test_zero_sum_scoring_over_thousands_of_hands():
    seen: dict[str, int] = {}
    totals = [0, 0]
    n = 0
    for i in range(4000):
        rules = RULE_VARIANTS[i % len(RULE_VARIANTS)]
        a, b = SPECS[i % 4], SPECS[(i // 7) % 4]
        res = play_hand(rules, [build(a), build(b)], deck_for(deal_seed(2, i)), (i // 2) % 2, seeds=(3 * i, 3 * i + 1))
        _check_result(rules, res)
        assert res.outcome != "forfeit", res.forfeit_reason
        seen[res.outcome] = seen.get(res.outcome, 0) + 1
        if res.winner >= 0:
            totals[res.winner] += res.points
        n += 1
    for outcome in ("knock", "undercut", "gin", "draw"):
        assert seen.get(outcome, 0) > 5, seen
    assert seen.get("big_gin", 0) > 0, seen
    assert sum(seen.values()) == n


def test_zero_sum_scoring_random_vs_random_default_rules():
    for i in range(1000):
        res = play_hand(Rules(), [build("random"), build("random")], deck_for(deal_seed(3, i)), i % 2, seeds=(i, i + 1))
        _check_result(Rules(), res)


# -- determinism -------------------------------------------------------------------


class _Observed(Strategy):
    """Plays like ``inner``; having an ``observe`` hook makes the engine use its careful loop."""

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner

    def take_upcard(self, view):
        return self.inner.take_upcard(view)

    def discard(self, view):
        return self.inner.discard(view)

    def knock(self, view):
        return self.inner.knock(view)

    def observe(self, view, event):
        pass


def test_determinism_same_deck_and_seeds_same_result_and_log():
    for i in range(400):
        rules = RULE_VARIANTS[i % len(RULE_VARIANTS)]
        a, b = SPECS[i % 4], SPECS[(i // 4) % 4]
        deck = deck_for(deal_seed(11, i))
        seeds = (i * 17 + 1, i * 31 + 2)
        runs = []
        for how in ("fast", "fast", "observe", "clock"):
            s = [build(a), build(b)]
            r = rules
            if how == "observe":
                s = [_Observed(x) for x in s]
            elif how == "clock":
                r = Rules(**{**rules.to_dict(), "time_per_hand": 3600.0})
            log: list = []
            res = play_hand(r, s, list(deck), i % 2, seeds=seeds, log=log)
            runs.append((res, log))
        first_res, first_log = runs[0]
        assert first_log, "no moves logged"
        for res, log in runs[1:]:
            assert res == first_res
            assert log == first_log  # move for move


def test_determinism_seeds_matter_for_random_strategies():
    differ = 0
    for i in range(50):
        deck = deck_for(deal_seed(12, i))
        logs = []
        for seeds in ((1, 2), (3, 4)):
            log: list = []
            play_hand(Rules(), [build("random"), build("random")], deck, 0, seeds=seeds, log=log)
            logs.append(log)
        differ += logs[0] != logs[1]
    assert differ > 40


def test_determinism_does_not_use_the_global_random_module():
    state = random.getstate()
    a: list = []
    play_hand(Rules(), [build("random"), build("simple")], deck_for(5), 0, seeds=(1, 2), log=a)
    assert random.getstate() == state
    random.seed(12345)
    b: list = []
    play_hand(Rules(), [build("random"), build("simple")], deck_for(5), 0, seeds=(1, 2), log=b)
    assert a == b


# -- illegal moves in each phase ------------------------------------------------------


NONDEALER = "AS 2S 3S 6H 6D 6C 9C TC JC 5D"
DEALER = "8H 8S 8D QD QS QH KD KS KC 5H"


def _fresh(rules: Rules | None = None) -> Hand:
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH 2H 3H")
    return Hand(rules or Rules(), deck, dealer=1)


def _refused(h: Hand, move, *words: str) -> None:
    """``move(h)`` raises IllegalMoveError (a ValueError) naming ``words``; nothing changes."""
    before = _hand_state(h)
    with pytest.raises(IllegalMoveError) as err:
        move(h)
    assert isinstance(err.value, ValueError)
    for w in words:
        assert w in str(err.value), str(err.value)
    assert _hand_state(h) == before


def test_illegal_moves_in_the_offer_phase():
    h = _fresh()
    assert h.phase is OFFER
    _refused(h, lambda h: h.draw(), "first-turn offer")
    _refused(h, lambda h: h.discard(h.views[0].hand.bit_length() - 1), "cannot discard now", "offer")
    _refused(h, lambda h: h.show(), "no knock to show")
    _refused(h, lambda h: h.big_gin(), "big gin is off")
    apply(h, "pass")
    _refused(h, lambda h: h.draw(), "first-turn offer")  # the dealer's offer: still no stock
    _refused(h, lambda h: h.discard(0), "cannot discard now")


def test_illegal_moves_in_the_draw_phase():
    h = _fresh()
    apply(h, "pass; pass; discard KH")
    assert h.phase is DRAW
    _refused(h, lambda h: h.pass_upcard(), "only for the first-turn offer")
    _refused(h, lambda h: h.discard(h.views[1].hand.bit_length() - 1), "cannot discard now", "draw")
    _refused(h, lambda h: h.discard(h.views[1].hand.bit_length() - 1, knock=True), "cannot discard now")
    _refused(h, lambda h: h.show(), "no knock to show")
    h2 = _fresh(Rules(big_gin_bonus=31))
    apply(h2, "pass; pass; discard KH")
    _refused(h2, lambda h: h.big_gin(), "right after drawing")


def test_illegal_moves_in_the_discard_phase():
    h = _fresh()
    apply(h, "take")
    assert h.phase is DISCARD
    seven = h.drawn
    _refused(h, lambda h: h.take(), "cannot take the upcard now", "discard")
    _refused(h, lambda h: h.draw(), "cannot draw now")
    _refused(h, lambda h: h.pass_upcard(), "only for the first-turn offer")
    _refused(h, lambda h: h.show(), "no knock to show")
    _refused(h, lambda h: h.discard(seven), "R12")
    king = CARD_NAMES.index("KC")
    _refused(h, lambda h: h.discard(king), "KC", "not in the hand")
    for bad in (52, -1, True, False, "5D", None, 5.0):
        _refused(h, lambda h, bad=bad: h.discard(bad), "a discard must be a card", repr(bad))
    _refused(h, lambda h: h.discard(CARD_NAMES.index("9C"), knock=True), "over the knock limit")
    assert not h.can_discard(seven) and h.can_discard(CARD_NAMES.index("5D"))


def test_illegal_moves_in_the_layoff_phase():
    h = _fresh()
    apply(h, "pass; pass; knock KH")
    assert h.phase is LAYOFF
    for move in (Hand.take, Hand.draw, Hand.pass_upcard, Hand.big_gin):
        _refused(h, move)
    _refused(h, lambda h: h.discard(CARD_NAMES.index("5D")), "cannot discard now")
    _refused(h, lambda h: h.show(layoff=1 << CARD_NAMES.index("AC")), "not in the hand")
    aces = (1 << CARD_NAMES.index("AS")) | (1 << CARD_NAMES.index("2S"))
    _refused(h, lambda h: h.show(melds=[aces]), "not a meld")


def test_illegal_moves_when_the_hand_is_over():
    h = _fresh()
    apply(h, "pass; pass; knock KH; show")
    assert h.phase is OVER and h.result is not None
    for move in (Hand.take, Hand.draw, Hand.pass_upcard, Hand.big_gin, Hand.show):
        _refused(h, move)
    _refused(h, lambda h: h.discard(CARD_NAMES.index("5D")), "cannot discard now")


def test_illegal_moves_refused_at_random_points_of_random_hands():
    """At every point of many random hands, each move the phase does not allow is refused
    with IllegalMoveError and leaves the hand unchanged."""
    rng = random.Random(55)
    allowed = {
        OFFER: {"take", "pass"},
        DRAW: {"take", "draw"},
        DISCARD: {"discard"},
        LAYOFF: {"show"},
        OVER: set(),
    }
    moves = {
        "take": Hand.take,
        "pass": Hand.pass_upcard,
        "draw": Hand.draw,
        "show": Hand.show,
        "discard": lambda h: h.discard(cards_list(h.hands[h.to_move])[0]),
    }
    for i in range(60):
        h = Hand(RULE_VARIANTS[i % len(RULE_VARIANTS)], deck_for(deal_seed(5, i)), dealer=i % 2)
        while True:
            for name, move in moves.items():
                if name not in allowed[h.phase]:
                    _refused(h, move)
            if h.phase is OVER:
                break
            # a card the mover does not hold is never a legal discard
            if h.phase is DISCARD:
                other = cards_list(h.hands[1 - h.to_move])[0]
                _refused(h, lambda h, c=other: h.discard(c), "not in the hand")
            random_move(h, rng)


def test_stockdrawer_pair_never_changes_hands():
    # a sanity check of the helper used by the R13 tests
    deck = make_deck(fill_seed=31)
    log: list = []
    res = play_hand(Rules(), [StockDrawer(), StockDrawer()], deck, 0, log=log)
    dealt = [sum(1 << deck[j] for j in range(1, 20, 2)), sum(1 << deck[j] for j in range(0, 20, 2))]
    assert res.outcome == "draw" and list(res.hands) == dealt
