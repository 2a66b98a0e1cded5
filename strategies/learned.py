"""``learned``: a fast evaluation learned from ``patient``'s play and improved by its own.

The idea: most of what ``patient``'s sampling buys can be had from a few numbers a player
works out from its view in microseconds - if it knows how much each is worth, and when. This
strategy computes those numbers for every option of a decision and lets a small model
weigh them:

- a discard (``DISCARD_FEATURES``): the deadwood it leaves, what the live outs of the kept
  hand are worth (each unseen card that would meld, by its chance to be in the stock and the
  deadwood it would remove; ``aware``'s card chances) and how many there are, the danger of
  the card (the chance the opponent melds it), its value, whether the kept hand can knock or
  is gin - each also crossed with the stage of the hand, with what undercuts cost under
  these rules and with the chance that the opponent hunts gin; the outs' worth crossed with
  the chance that the opponent keeps high cards (``sampler``'s evidence); and against a
  likely gin hunter, late, ``patient``'s race term (the least deadwood one of the next draws
  would bring); and the kept hand one stock draw ahead (``next_draw``): its expected
  deadwood then and its chances to be able to knock and to be gin, every unseen card
  counted (a low card that replaces the worst deadwood card as well as an out), crossed
  with the undercut cost and the stage - where undercuts are cheap, the hand that knocks
  first wins the hand;
- the upcard (``TAKE_FEATURES``): the least deadwood after taking it, the hand's now and after
  an average stock draw, the outs' worth either way, whether it melds, its value, the stage,
  the hunter chance and the undercut cost;
- a knock (``KNOCK_FEATURES``): the deadwood, the stage (and whether it is turn 12 or later),
  the undercut bonus, the hunter chance, the stock left, the opponent's pickups, its last
  discard and its low discards, the scores and the outs' worth of playing on; and, for a
  model that weighs them, the knock in ``KNOCK_WORLDS`` deals of the opponent's hand that fit
  what this seat has seen (``sampled_knock``: the points it scores, how often it is undercut,
  the opponent's deadwood and how often it could knock too). The shipped model gives them
  no weight, so it never deals them; a student of ``patient``'s stronger setting follows that
  teacher's knocks better with them and plays no stronger (the notes' ninth attempt).

The opponent's kind is read as ``patient`` reads it (its ``hand_ending`` evidence summed over a
game's hands): an eager knocker or a gin hunter. The model never sees a name or a hidden card.

Each head weighs its features: the discard played is the best-valued one, the upcard is
taken and a knock made when their head's value is positive; a decision costs one small
NumPy product (``ginsim.valuemodel``). The weights were learned in steps
(``experiments/training/``): distilled from ``patient``'s decisions over about 25,000 hands
against eager knockers, a gin hunter and itself under the default and the EAAI rules
(maximum likelihood: the teacher's choice among the options); the knock head refitted on the
points that its own knocks and plays-on scored over 10,000 more hands (policy improvement);
then every weight moved by evolution strategies on the points won in games to 100 against
``simple``, the EAAI champion line's MARJJ_v5, that model and a gin hunter (761,000 hands:
small changes tried both ways on common deals), and the result blended half and half with
the model it started from (alone it gained against MARJJ_v5 and lost elsewhere; the blend
kept the gain). Those heads play where an undercut costs more than 10 points (the EAAI,
modern and palace presets). Where it costs 10 or less (the default and classic presets,
``CHEAP_UNDERCUT``) the model's *cheap* heads play: the same features and decisions, each
head with one hidden layer of 16 units, distilled from ``patient``'s stronger setting
(``samples=128``, four discards within 4 played out, the upcard too) over 26,500 hands under
the default rules only; where undercuts are cheap the race to a knock decides more hands,
and the stronger teacher runs it better than a linear student of the default one learned to.
It plays at about five times ``patient``'s speed. The model is ``learned.npz`` beside this
file (``model`` names another; a file without cheap heads plays its heads under every rule
set); docs/notes/2026-12-learned.md has the measurements.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from ginsim.strategies.aware import discard_candidates, last_discard
from ginsim.strategies.patient import HUNTER_EVIDENCE, hand_ending

from ginsim import tables_for
from ginsim.cards import VALUE_OF, Card, Mask, cards_list
from ginsim.opponent import OpponentModel
from ginsim.playout import outs_mask, score_knock
from ginsim.sampling import GameEvidence, chance, deal_worlds, keeper_evidence
from ginsim.strategy import Strategy
from ginsim.valuemodel import Head, ModelFileError, load_heads
from ginsim.view import PlayerView

MODEL_FILE = Path(__file__).with_name("learned.npz")
"""The shipped model: the heads below, written by experiments/training/train_learned.py."""

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
HEADS = {"discard": DISCARD_FEATURES, "take": TAKE_FEATURES, "knock": KNOCK_FEATURES}
"""Every head of the model and the features of its rows: ``discard`` values each discard
(the best-valued is played), ``take`` and ``knock`` are the log odds of taking the upcard
and of knocking."""

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

CHEAP_UNDERCUT = 10
"""Where an undercut is worth this or less (the default and classic presets), a model's
``cheap`` heads play, if its file has them (the shipped model's do); its other heads play
elsewhere."""
CHEAP = "cheap."
"""The prefix of the cheap heads' keys in a model file."""
CHEAP_HEADS = {CHEAP + key: names for key, names in HEADS.items()}
Model = tuple[dict[str, Head], dict[str, Head]]
"""A model's heads: those played where undercuts cost more than ``CHEAP_UNDERCUT``, and those
played where they cost that or less (the same heads when the file has no cheap ones)."""


def read_model(path: str | Path) -> tuple[Model, dict[str, float]]:
    """The heads of the model file ``path`` and its named numbers."""
    heads, meta = load_heads(path, HEADS, widen=True)
    cheap = load_heads(path, CHEAP_HEADS, required=False, widen=True)[0]
    if cheap and len(cheap) != len(HEADS):
        raise ModelFileError(f"model file {path}: it has some cheap heads but not all")
    return (heads, {key[len(CHEAP) :]: head for key, head in cheap.items()} or heads), meta


(MODEL, CHEAP_MODEL), MODEL_META = read_model(MODEL_FILE)
_OTHER_MODELS: dict[str, Model] = {}  # model files named by ``model``, read once each


def model_heads(path: str) -> Model:
    """Both sets of heads of the model file ``path`` ("": the shipped model), read once."""
    if not path:
        return MODEL, CHEAP_MODEL
    if path not in _OTHER_MODELS:
        _OTHER_MODELS[path] = read_model(path)[0]
    return _OTHER_MODELS[path]


def _hunter_read(old: PlayerView, new: PlayerView) -> float:
    ending = hand_ending(old, new.scores)
    return 0.0 if ending is None else HUNTER_EVIDENCE[ending]


def _keeper_read(old: PlayerView, _new: PlayerView) -> float:
    return keeper_evidence(old.history, old.seat)


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
    dw, nine, moves = ctx.opp.out_moves(rest, ctx.tables)
    if dw == 0:
        return 0.0, 0.0, 0.0, 1.0, 1.0
    total, below, _ = ctx.opp.draw_weights()
    limit = ctx.limit
    hist = [0.0] * (dw + 1)  # weight of the draws by the deadwood they leave
    gain_below = dw - nine
    for v in range(1, 11):
        hist[nine + v if v < gain_below else dw] += below[v + 1] - below[v]
    gain = live = 0.0
    for w, by_value, real in moves:
        hist[by_value] -= w
        hist[real] += w
        live += w
        gain += w * (dw - real)
    expect = knock = 0.0
    for d in range(dw + 1):
        expect += d * hist[d]
        if d <= limit:
            knock += hist[d]
    return gain, live, expect / total, min(1.0, knock / total), max(0.0, hist[0] / total)


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


class Learned(Strategy):
    """Scores every discard, the upcard and every knock with a small learned model over
    features of its view (deadwood, live outs, danger, stage, undercut cost, the
    opponent's kind) and plays the best-valued option; where an undercut costs 10 points or
    less, the model's cheap heads score instead (``heads_for``). ``explore`` (for training) takes that
    share of decisions the other way (a discard: the second or third best); ``model`` is a
    model file to play instead of the shipped one."""

    name = "learned"
    description = (
        "fast learned evaluation: a small model, distilled from patient and improved by play"
        " (evolution strategies), weighs deadwood, live outs, danger, stage, undercut cost and whether"
        " the opponent hunts gin; where undercuts are cheap, heads distilled from patient's stronger setting"
    )

    def __init__(self, hunter_prior: float = 0.3, explore: float = 0.0, model: str = "") -> None:
        if not 0.0 < hunter_prior < 1.0:
            raise ValueError(f"hunter_prior must be in (0, 1), not {hunter_prior!r}")
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"explore must be in [0, 1], not {explore!r}")
        self.hunter_prior = hunter_prior
        self.explore = explore
        self.model = model
        self.heads, self.cheap_heads = model_heads(model)
        self._sampling: dict[Head, bool] = {}  # by knock head: whether it weighs the sampled deals
        self._hunter = GameEvidence(_hunter_read)
        self._keeper = GameEvidence(_keeper_read)

    def context(self, view: PlayerView) -> Context:
        """The decision's shared numbers, this game's evidence about the opponent taken in."""
        logit = math.log(self.hunter_prior / (1.0 - self.hunter_prior)) + self._hunter.update(view)
        keeper = chance(self._keeper.update(view) + keeper_evidence(view.history, view.seat))
        return Context(view, chance(logit), keeper)

    def heads_for(self, view: PlayerView) -> dict[str, Head]:
        """The heads that play under ``view``'s rules (``CHEAP_UNDERCUT``)."""
        return self.cheap_heads if view.rules.undercut_bonus <= CHEAP_UNDERCUT else self.heads

    def _explores(self, view: PlayerView) -> bool:
        return self.explore > 0.0 and view.rng.random() < self.explore

    def take_upcard(self, view: PlayerView) -> bool:
        if view.upcard is None:
            return False
        row = take_row(view, self.context(view))
        take = float(self.heads_for(view)["take"].score(np.array([row]))[0]) > 0.0
        return take != self._explores(view)

    def discard(self, view: PlayerView) -> Card:
        hand = view.hand
        cards, rows = discard_rows(self.context(view), hand, hand & ~view.legal_discards())
        if len(cards) == 1:
            return cards[0]
        values = self.heads_for(view)["discard"].score(np.array(rows))
        order = np.argsort(-values)
        pick = 0
        if self._explores(view):
            pick = 1 + view.rng.below(min(2, len(cards) - 1))
        return cards[int(order[pick])]

    def knock_features(self, view: PlayerView) -> list[float]:
        """The knock head's row for the knock question ``view`` asks."""
        card = view.discard_choice
        rest = view.hand if card is None else view.hand & ~(1 << card)
        head = self.heads_for(view)["knock"]
        sampled = self._sampling.get(head)
        if sampled is None:
            sampled = self._sampling[head] = head.weighs(SAMPLED_KNOCK)
        return knock_row(view, self.context(view), view.discard_deadwood, rest, sampled)

    def knock(self, view: PlayerView) -> bool:
        if view.discard_deadwood == 0:
            return True
        knock = float(self.heads_for(view)["knock"].score(np.array([self.knock_features(view)]))[0]) > 0.0
        return knock != self._explores(view)
