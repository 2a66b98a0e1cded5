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

Each set of heads has a discard partner with no teacher: a *card value* (``CHEAP_CARDS``
beside the cheap heads, ``CARDS`` beside the others), a network of two ReLU layers (256 and
128 units) over the cards themselves - the ten kept, the card let go, the opponent's known
cards, those it let go or passed on, the pile (``CARD_SETS``) - and a few numbers
(``CARD_NUMBERS``: the stage, the stock, the opponent's kind, the scores, the deal and the
discard's own row), trained to predict the points the hand then scored for the seat. Its
value of each discard is added to the head's (``discard_values``, ``cards_for``). Each
learned from outcomes of real deals, not from a teacher's sampled worlds, over rounds of
policy iteration under the rules of its heads: ``learned`` and ``learned`` judged by the
previous round's network played against ``simple``, ``aware``, a gin hunter and itself, and
each round's network was fitted on everything so far (``experiments/training/card_value.py``;
five rounds and 15 million discards under the default rules, four rounds and 12 million
under the EAAI rules). The EAAI rules' network was then refitted on the same discards with
targets of less noise: each discard's target is the mean of its hand's next discard's value,
by the fourth round's network, and that next discard's own target, a hand's last discard
keeping its points (TD(0.5), ``experiments/training/value_targets.py``); it gained about two
games in 100 against the gin hunter GinRummyAndTonic_Player. A network over the cards can
tell the deal from the option where the features cannot, and since the options of one
decision share everything but the card let go and their rows, its error about the deal moves
every option alike and changes no choice. It costs about a quarter of the speed: ``learned``
plays at about three times ``patient``'s speed. The model is ``learned.npz`` beside this file
(``model`` names another; a file without cheap heads plays its heads and their card value
under every rule set, one without a card value its heads alone); docs/notes/2026-12-learned.md
has the measurements.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import NamedTuple

import numpy as np
from ginsim.strategies.learned_rows import (
    CARD_NUMBERS,
    CARD_SETS,
    DISCARD_FEATURES,
    KNOCK_FEATURES,
    KNOCK_WORLDS,
    SAMPLED_KNOCK,
    TAKE_FEATURES,
    Context,
    card_numbers,
    card_scalars,
    card_sets,
    discard_row,
    discard_rows,
    knock_row,
    next_draw,
    out_worth,
    sampled_knock,
    take_row,
)
from ginsim.strategies.patient import HUNTER_EVIDENCE, hand_ending

from ginsim import Rules
from ginsim.cards import Card, Mask
from ginsim.sampling import GameEvidence, chance, keeper_evidence
from ginsim.strategy import Strategy
from ginsim.valuemodel import CardValue, Head, ModelFileError, load_card_value, load_heads
from ginsim.view import PlayerView

__all__ = [  # the strategy, its model, and the rows it weighs (``learned_rows``)
    "CARDS",
    "CARD_NUMBERS",
    "CARD_SETS",
    "CHEAP",
    "CHEAP_CARDS",
    "CHEAP_HEADS",
    "CHEAP_MODEL",
    "CHEAP_UNDERCUT",
    "DISCARD_FEATURES",
    "HEADS",
    "KNOCK_FEATURES",
    "KNOCK_WORLDS",
    "MODEL",
    "MODEL_FILE",
    "SAMPLED_KNOCK",
    "SHIPPED",
    "TAKE_FEATURES",
    "Context",
    "Learned",
    "Model",
    "card_numbers",
    "card_sets",
    "discard_row",
    "discard_rows",
    "knock_row",
    "model_heads",
    "next_draw",
    "out_worth",
    "plays_cheap",
    "read_model",
    "sampled_knock",
    "take_row",
]  # fmt: skip

MODEL_FILE = Path(__file__).with_name("learned.npz")
"""The shipped model: the heads below, written by experiments/training/train_learned.py."""

HEADS = {"discard": DISCARD_FEATURES, "take": TAKE_FEATURES, "knock": KNOCK_FEATURES}
"""Every head of the model and the features of its rows: ``discard`` values each discard
(the best-valued is played), ``take`` and ``knock`` are the log odds of taking the upcard
and of knocking."""

CHEAP_UNDERCUT = 10
"""Where an undercut is worth this or less (the default and classic presets), a model's
``cheap`` heads play, if its file has them (the shipped model's do); its other heads play
elsewhere."""


def plays_cheap(rules: Rules) -> bool:
    """Whether a model's cheap heads, and the card value beside them, play under ``rules``: an
    undercut worth ``CHEAP_UNDERCUT`` or less."""
    return rules.undercut_bonus <= CHEAP_UNDERCUT


CHEAP = "cheap."
"""The prefix of the cheap heads' keys in a model file."""
CHEAP_HEADS = {CHEAP + key: names for key, names in HEADS.items()}
CARDS = "cards"
"""The key of the card value added to the discard head of the heads, if the file has one."""
CHEAP_CARDS = CHEAP + CARDS
"""The key of the card value added to the cheap discard head, if the file has one."""


class Model(NamedTuple):
    """A model file's heads and card values, by the rules they play under."""

    heads: dict[str, Head]
    """Played where undercuts cost more than ``CHEAP_UNDERCUT``, and everywhere when the file
    has no cheap heads."""
    cheap: dict[str, Head]
    """Played where they cost that or less (``heads`` when the file has no cheap ones)."""
    cards: CardValue | None
    """Added to the discard head of ``heads``, if the file has one (``CARDS``)."""
    cheap_cards: CardValue | None
    """Added to the cheap discard head (``CHEAP_CARDS``; ``cards`` when the file has no cheap
    heads)."""


def _card_value(path: str | Path, key: str) -> CardValue | None:
    cards = load_card_value(path, key, CARD_NUMBERS)
    if cards is not None and cards.masks != CARD_SETS:
        raise ModelFileError(f"model file {path}: card value {key!r} needs {CARD_SETS} card sets")
    return cards


def read_model(path: str | Path) -> tuple[Model, dict[str, float]]:
    """The heads and card values of the model file ``path``, and its named numbers."""
    heads, meta = load_heads(path, HEADS, widen=True)
    cheap = load_heads(path, CHEAP_HEADS, required=False, widen=True)[0]
    if cheap and len(cheap) != len(HEADS):
        raise ModelFileError(f"model file {path}: it has some cheap heads but not all")
    cards, cheap_cards = _card_value(path, CARDS), _card_value(path, CHEAP_CARDS)
    if cheap_cards is not None and not cheap:
        raise ModelFileError(f"model file {path}: card value {CHEAP_CARDS!r} needs cheap heads")
    if not cheap:
        return Model(heads, heads, cards, cards), meta
    return Model(heads, {key[len(CHEAP) :]: head for key, head in cheap.items()}, cards, cheap_cards), meta


SHIPPED, MODEL_META = read_model(MODEL_FILE)
MODEL, CHEAP_MODEL = SHIPPED.heads, SHIPPED.cheap
_OTHER_MODELS: dict[str, Model] = {}  # model files named by ``model``, read once each


def model_heads(path: str) -> Model:
    """The heads and card values of the model file ``path`` ("": the shipped model), read once."""
    if not path:
        return SHIPPED
    if path not in _OTHER_MODELS:
        _OTHER_MODELS[path] = read_model(path)[0]
    return _OTHER_MODELS[path]


def _hunter_read(old: PlayerView, new: PlayerView) -> float:
    ending = hand_ending(old, new.scores)
    return 0.0 if ending is None else HUNTER_EVIDENCE[ending]


def _keeper_read(old: PlayerView, _new: PlayerView) -> float:
    return keeper_evidence(old.history, old.seat)


class Learned(Strategy):
    """Scores every discard, the upcard and every knock with a small learned model over
    features of its view (deadwood, live outs, danger, stage, undercut cost, the
    opponent's kind) and plays the best-valued option; where an undercut costs 10 points or
    less, the model's cheap heads score instead (``heads_for``); a discard has the card value
    of those heads added (``cards_for``, ``discard_values``). ``explore`` (for training) takes that
    share of decisions the other way (a discard: the second or third best); ``model`` is a
    model file to play instead of the shipped one."""

    name = "learned"
    description = (
        "fast learned evaluation: a small model, distilled from patient and improved by play"
        " (evolution strategies), weighs deadwood, live outs, danger, stage, undercut cost and whether"
        " the opponent hunts gin; where undercuts are cheap, heads distilled from patient's stronger setting;"
        " and under every rule set a value of the kept cards learned from the points hands scored"
    )

    def __init__(self, hunter_prior: float = 0.3, explore: float = 0.0, model: str = "") -> None:
        if not 0.0 < hunter_prior < 1.0:
            raise ValueError(f"hunter_prior must be in (0, 1), not {hunter_prior!r}")
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"explore must be in [0, 1], not {explore!r}")
        self.hunter_prior = hunter_prior
        self.explore = explore
        self.model = model
        self.heads, self.cheap_heads, self.cards, self.cheap_cards = model_heads(model)
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
        return self.cheap_heads if plays_cheap(view.rules) else self.heads

    def cards_for(self, view: PlayerView) -> CardValue | None:
        """The card value added to the discard head under ``view``'s rules, if any."""
        return self.cheap_cards if plays_cheap(view.rules) else self.cards

    def _explores(self, view: PlayerView) -> bool:
        return self.explore > 0.0 and view.rng.random() < self.explore

    def take_upcard(self, view: PlayerView) -> bool:
        if view.upcard is None:
            return False
        row = take_row(view, self.context(view))
        take = float(self.heads_for(view)["take"].score(np.array([row]))[0]) > 0.0
        return take != self._explores(view)

    def discard_values(self, view: PlayerView, ctx: Context, cards: list[Card], rows: list[list[float]]) -> np.ndarray:
        """The value of letting each of ``cards`` go (their discard rows ``rows``): the discard
        head's, plus the card value's where the model has one for these rules (``cards_for``)."""
        table = np.array(rows)
        values = self.heads_for(view)["discard"].score(table)
        value = self.cards_for(view)
        if value is not None:
            scalars = np.array(card_scalars(view, ctx))
            nums = np.concatenate([np.broadcast_to(scalars, (len(rows), len(scalars))), table], axis=1)
            values = values + value.afterstates(view.hand, cards, card_sets(view), nums)
        return values

    def weighed(self, view: PlayerView) -> tuple[Context, list[Card], np.ndarray | None]:
        """A discard question's context, the discards worth weighing and their values
        (``discard_values``; None when there is only one to play)."""
        hand = view.hand
        ctx = self.context(view)
        cards, rows = discard_rows(ctx, hand, hand & ~view.legal_discards())
        if len(cards) == 1:
            return ctx, cards, None
        return ctx, cards, self.discard_values(view, ctx, cards, rows)

    def discard(self, view: PlayerView) -> Card:
        _, cards, values = self.weighed(view)
        if values is None:
            return cards[0]
        order = np.argsort(-values)
        pick = 0
        if self._explores(view):
            pick = 1 + view.rng.below(min(2, len(cards) - 1))
        return cards[int(order[pick])]

    def model_knocks(self, view: PlayerView, ctx: Context, rest: Mask, dw: int) -> bool:
        """Whether the knock head would knock after keeping ``rest`` (deadwood ``dw``), asked at
        the discard with its context ``ctx`` (a search plays each discard with this knock)."""
        if dw == 0:
            return True
        if dw > ctx.limit:
            return False
        head = self.heads_for(view)["knock"]
        row = knock_row(view, ctx, dw, rest, head.weighs(SAMPLED_KNOCK))
        return float(head.score(np.array([row]))[0]) > 0.0

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
