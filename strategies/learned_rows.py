"""The rows of numbers ``learned`` weighs: what its heads read of a discard, the upcard and a
knock (``DISCARD_FEATURES``, ``TAKE_FEATURES``, ``KNOCK_FEATURES``), and what its card value
reads of a discard (``CARD_SETS``, ``CARD_NUMBERS``), each worked out from the player's view
alone. ``strategies/learned.py`` tells what they are for and how they were learned."""

from __future__ import annotations

from ginsim.strategies.aware import discard_candidates, last_discard

from ginsim import tables_for
from ginsim.cards import VALUE_OF, Card, Mask, cards_list
from ginsim.opponent import OpponentModel
from ginsim.playout import outs_mask, score_knock
from ginsim.sampling import deal_worlds
from ginsim.view import PlayerView

DISCARD_FEATURES = (
    "dw", "gain", "live", "danger", "value",
    "dw_late", "gain_late", "live_late", "danger_late",
    "dw_hunter", "gain_hunter", "live_hunter", "danger_hunter",
    "dw_undercut", "gain_undercut", "danger_undercut",
    "can_knock", "gin", "can_knock_late", "can_knock_hunter", "can_knock_undercut",
    "gain_keeper", "race",
    "next_dw", "next_knock", "next_gin", "next_dw_undercut", "next_knock_undercut", "next_knock_late",
)  # fmt: skip
"""What a discard is judged by (all about the kept 10-card hand and the card let go)."""
TAKE_FEATURES = (
    "bias", "dw_take", "dw_keep", "dw_stock", "gain_take", "gain_keep", "melds", "value",
    "late", "hunter", "undercut", "stock", "dw_gap_late", "dw_gap_hunter",
)  # fmt: skip
"""What the upcard decision is judged by: the least deadwood after taking it, the hand's
now and after an average stock draw, the outs' worth either way, whether it melds, its
value; and the stage, hunter chance and undercut cost."""
KNOCK_FEATURES = (
    "bias", "dw", "late", "dw_late", "undercut", "dw_undercut", "hunter", "dw_hunter",
    "late_hunter", "late_undercut", "stock", "opp_known", "opp_last", "need", "opp_need", "gain",
    "dw2", "late12", "dw_late12", "late12_undercut", "late12_hunter", "opp_low", "keeper",
    "sampled_points", "sampled_undercut_share", "sampled_opp_dw", "sampled_opp_knock",
)  # fmt: skip
"""What a knock is judged by."""
SAMPLED_KNOCK = KNOCK_FEATURES[-4:]
"""The knock's features from sampled deals of the opponent's hand (``sampled_knock``)."""

PRUNE = 10
"""Discards leaving this much more deadwood than the least are not weighed."""
LATE_TURNS = 20
"""The stage of a hand is its turn over this, at most 1."""
HOT, COLD = 2.5, 0.5
"""``aware``'s card chances: near the opponent's pickups, near its discards and passes."""
RACE_AT, RACE_TURN, RACE_DRAWS, RACE_GIN = 0.5, 6, 6, 5.0
"""The race for gin (``patient``'s): against an opponent that hunts gin by a chance of
``RACE_AT`` or more, from turn ``RACE_TURN``, a kept hand is also judged by the least
deadwood one of the next ``RACE_DRAWS`` draws would bring, a gin counting ``RACE_GIN`` below 0."""
LATE_TURN = 12
"""From this turn a knock is a late one (``patient``'s patience begins here)."""

KNOCK_WORLDS = 8
"""Deals of the opponent's hand a knock is scored in (``sampled_knock``)."""
WORLD_HINT, WORLD_PASS_HINT, WORLD_KNOCK_HINT = 0.2, 0.5, 0.01
"""How those deals read the opponent's play (``ginsim.sampling.deal_worlds``; ``sampler``'s
defaults): a hand that would not have thrown its last discard is kept with chance 0.2, one
that melds with k cards it passed on with 0.5 ** k, one that could have knocked with 0.01."""

CARD_SETS = 5
"""The card sets a card value reads: the ten cards kept, the card let go, the opponent's
known cards, the cards it let go or passed on, and the discard pile."""
CARD_NUMBERS = ("turn", "stock", "hunter", "keeper", "own_score", "opp_score", "dealer", *DISCARD_FEATURES)
"""The numbers a card value reads besides the card sets (``card_numbers``)."""


class Context:
    """The numbers a decision's rows share: stage, undercut cost, hunter chance, limit."""

    __slots__ = ("late", "undercut", "hunter", "keeper", "race", "limit", "opp", "tables")

    def __init__(self, view: PlayerView, hunter: float, keeper: float) -> None:
        self.tables = tables_for(view.rules.max_run_length)
        self.keeper = keeper
        self.race = hunter >= RACE_AT and view.turn >= RACE_TURN
        self.late = min(view.turn, LATE_TURNS) / LATE_TURNS
        self.undercut = view.rules.undercut_bonus / 25.0
        self.hunter = hunter
        self.limit = view.knock_limit
        self.opp = OpponentModel(view, HOT, COLD)


def out_worth(ctx: Context, rest: Mask, dw: int) -> tuple[float, float]:
    """The live outs of the 10-card hand ``rest`` (deadwood ``dw``): the deadwood they would
    remove, each by its chance to be in the stock, and that chance summed (``aware``'s)."""
    gain = live = 0.0
    if dw:
        best_discard = ctx.tables.best_discard_mask
        p = ctx.opp.p
        outs = outs_mask(rest) & ctx.opp.unseen
        while outs:
            o = outs & -outs
            outs ^= o
            in_stock = 1.0 - p[o.bit_length() - 1]
            live += in_stock
            gain += in_stock * (dw - best_discard(rest | o)[0])
    return gain, live


def next_draw(ctx: Context, rest: Mask) -> tuple[float, float, float, float, float]:
    """The 10-card hand ``rest`` one stock draw (and its best discard) ahead: the outs'
    worth and weight as ``out_worth`` gives them, then the expected deadwood after the draw
    and the chances that it can knock and that it is gin. Every unseen card may be the
    draw, by its chance to be in the stock: an out by the deadwood it really leaves, any
    other card by replacing the worst deadwood card when it is lower. Under cheap undercuts
    the hand that knocks first wins the hand, and a low card drawn is as good as an out."""
    return ctx.opp.draw_ahead(rest, ctx.tables, ctx.limit)


def discard_row(ctx: Context, rest: Mask, card: Card, dw: int) -> list[float]:
    """The features of keeping the 10-card hand ``rest`` (deadwood ``dw``) after letting
    ``card`` go."""
    gain, live, next_dw, next_knock, next_gin = next_draw(ctx, rest)
    danger = ctx.opp.danger(card)
    late, hunter, undercut = ctx.late, ctx.hunter, ctx.undercut
    knock = 1.0 if dw <= ctx.limit else 0.0
    return [
        dw, gain, live, danger, VALUE_OF[card],
        dw * late, gain * late, live * late, danger * late,
        dw * hunter, gain * hunter, live * hunter, danger * hunter,
        dw * undercut, gain * undercut, danger * undercut,
        knock, 1.0 if dw == 0 else 0.0, knock * late, knock * hunter, knock * undercut,
        gain * ctx.keeper, ctx.opp.best_of_draws(rest, ctx.tables, RACE_DRAWS, RACE_GIN) if ctx.race else 0.0,
        next_dw, next_knock, next_gin, next_dw * undercut, next_knock * undercut, next_knock * late,
    ]  # fmt: skip


def discard_rows(ctx: Context, hand: Mask, banned: Mask) -> tuple[list[Card], list[list[float]]]:
    """The discards from the 11-card ``hand`` worth weighing (not ``banned``; at most
    ``PRUNE`` deadwood above the least) and their rows."""
    cards, rows = [], []
    for dw, low in discard_candidates(ctx.tables.deadwood_mask, hand, banned, PRUNE):
        card = low.bit_length() - 1
        cards.append(card)
        rows.append(discard_row(ctx, hand ^ low, card, dw))
    return cards, rows


def card_scalars(view: PlayerView, ctx: Context) -> list[float]:
    """The first numbers of ``CARD_NUMBERS``, the same for every discard of a decision: the
    stage, the stock, the opponent's kind, the scores and the deal."""
    mine, theirs = view.scores
    target = float(view.rules.target_score)
    return [
        min(view.turn, 30) / 20.0, view.stock_size / 31.0, ctx.hunter, ctx.keeper,
        mine / target, theirs / target, 1.0 if view.is_dealer else 0.0,
    ]  # fmt: skip


def card_numbers(view: PlayerView, ctx: Context, row: list[float]) -> list[float]:
    """The numbers (``CARD_NUMBERS``) a card value reads of a discard whose discard head row
    is ``row``."""
    return [*card_scalars(view, ctx), *row]


def card_sets(view: PlayerView) -> tuple[int, int, int]:
    """The card sets a card value reads that every discard of a decision shares: the
    opponent's known cards, those it let go or passed on, and the pile."""
    return view.opp_known, view.opp_passed | view.opp_discards, view.pile_mask


def take_row(view: PlayerView, ctx: Context) -> list[float]:
    """The features of taking the upcard (against drawing from the stock)."""
    up = view.upcard
    assert up is not None
    tables = ctx.tables
    hand = view.hand
    taken = hand | 1 << up
    dwm = tables.deadwood_mask
    # the least deadwood after taking it and letting another card go (never the upcard itself:
    # where the rules allow that, it is the stock's side of the choice)
    dw_take, rest = min((dwm(taken & ~(1 << c)), taken & ~(1 << c)) for c in cards_list(hand))
    dw_keep = tables.deadwood_mask(hand)
    gain_take = out_worth(ctx, rest, dw_take)[0]
    gain_keep = out_worth(ctx, hand, dw_keep)[0]
    dw_stock = ctx.opp.after_draw(hand, tables)
    late, hunter = ctx.late, ctx.hunter
    return [
        1.0, dw_take, dw_keep, dw_stock, gain_take, gain_keep, 1.0 if view.would_meld(up) else 0.0, VALUE_OF[up],
        late, hunter, ctx.undercut, view.stock_size / 31.0, (dw_stock - dw_take) * late, (dw_stock - dw_take) * hunter,
    ]  # fmt: skip


def sampled_knock(view: PlayerView, dw: int, rest: Mask) -> list[float]:
    """The knock at deadwood ``dw`` keeping ``rest``, in ``KNOCK_WORLDS`` deals of the
    opponent's hand that fit what this seat has seen: the mean points it scores (lay-offs
    included; negative when undercut), the share of deals in which it is undercut, the
    opponent's mean deadwood and the share of deals in which it could knock too."""
    tables = tables_for(view.rules.max_run_length)
    limit = view.knock_limit
    belief = [WORLD_KNOCK_HINT] * (limit + 1)
    # a generator of the knock question's own: the same deals for the same question, whatever
    # the seat drew before (a teacher noting these rows draws for its own search first)
    rand = view.rng_for(view.turn << 6 | (63 if view.discard_choice is None else view.discard_choice)).random
    worlds = deal_worlds(
        view, KNOCK_WORLDS, rand, last_discard(view), belief, selection=1.0, hint=WORLD_HINT,
        pass_hint=WORLD_PASS_HINT,
    )  # fmt: skip
    points = undercut = opp_dw = opp_knock = 0.0
    for opp, _stock in worlds:
        pts = score_knock(view.rules, tables, rest, dw, opp)
        d = tables.deadwood_mask(opp)
        points += pts
        undercut += pts < 0
        opp_dw += d
        opp_knock += d <= limit
    n = float(KNOCK_WORLDS)
    return [points / n, undercut / n, opp_dw / n, opp_knock / n]


def knock_row(view: PlayerView, ctx: Context, dw: int, rest: Mask, sampled: bool = True) -> list[float]:
    """The features of knocking at deadwood ``dw`` now, keeping ``rest`` (those of
    ``sampled_knock`` as zeros unless ``sampled``: a head that gives them no weight)."""
    late, undercut, hunter = ctx.late, ctx.undercut, ctx.hunter
    last = last_discard(view)
    target = view.rules.target_score
    mine, theirs = view.scores
    late12 = 1.0 if view.turn >= LATE_TURN else 0.0
    me = view.seat
    opp_low = float(
        sum(
            1
            for seat, action, card in view.history
            if seat != me and action == "discard" and card is not None and VALUE_OF[card] <= 4
        )
    )
    return [
        1.0, dw, late, dw * late, undercut, dw * undercut, hunter, dw * hunter,
        late * hunter, late * undercut, view.stock_size / 31.0,
        float(view.opp_known.bit_count()), 0.0 if last is None else VALUE_OF[last],
        max(0, target - mine) / target, max(0, target - theirs) / target, out_worth(ctx, rest, dw)[0],
        dw * dw / 10.0, late12, dw * late12, late12 * undercut, late12 * hunter, opp_low, ctx.keeper,
        *(sampled_knock(view, dw, rest) if sampled else (0.0, 0.0, 0.0, 0.0)),
    ]  # fmt: skip
