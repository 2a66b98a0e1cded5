"""Improve a ``learned`` model by search over its own play (expert iteration).

``learned`` with the model ``--model`` plays ``--games`` games to 100 against each opponent
under each preset. At a share ``--label`` of its decisions every option is valued by
``--worlds`` worlds of the unseen cards, each played to the end of the hand (``rollouts.py``);
the same worlds serve every option of a decision. The worlds are ``patient``'s deals from
the seat's view, or with ``--truth`` the opponent's real hand with the stock reshuffled (the
harness's knowledge at training time: the strategy never sees it, and the fit below only
learns what its own features show). The play-outs are played by ``learned`` on both sides,
or, for an opponent named by ``--own-rollouts``, by that opponent itself (so that the values
are those against the way it plays). The discard head is then refitted so that its values'
differences among a decision's options follow the play-outs' (a ridge regression on the
options' rows, centred per decision), the upcard and knock heads so that their values follow
the play-outs' gain of taking and of knocking. ``--keep`` blends each new head with the old
one (after both are scaled to points), the share of the old.

    python experiments/training/expert_iteration.py --model strategies/learned.npz \\
        --games 20 --seed 5 --out build/learned/expert.npz
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
from ginsim.strategies.learned import HEADS, Learned, discard_rows, take_row
from ginsim.strategies.patient import Patient
from train_learned import MAX_HANDS, OPPONENTS, schedule

from ginsim.engine.game import run_game
from ginsim.engine.hand import Hand
from ginsim.engine.playhand import play_hand
from ginsim.engine.result import HandResult
from ginsim.engine.rng import SeededRandom
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import Strategy
from ginsim.engine.valuemodel import Head, load_heads, save_heads
from ginsim.engine.view import PlayerView
from ginsim.rollout import Option, option_value, rebuild_deck
from ginsim.run.seeding import deck_for

Labels = dict[str, list[tuple[list[list[float]], list[float]]]]
"""By head: (the rows of a decision's options, each option's mean play-out points)."""
TOP = 4
"""A discard is searched among the model's best this many."""


class Searcher(Learned):
    """``learned`` that plays its model and, at a share of its decisions, values every
    option by play-outs in sampled worlds and notes the rows with the values."""

    def __init__(
        self, rules: Rules, label: float, worlds: int, seed: int, model: str = "", truth: bool = False
    ) -> None:
        super().__init__(model=model)
        self.cards = self.cheap_cards = None  # the heads alone, as this was measured (no card value)
        self.truth = truth
        self.rollout_opponent: Callable[[], Strategy] | None = None  # set by the harness
        self.deck: list[int] = []  # the hand's deck, set by the harness (``truth`` only)
        self.rules = rules
        self.label = label
        self.n_worlds = worlds
        self.rand = random.Random(seed)
        self.dealer = Patient(samples=worlds)
        self.labels: Labels = {key: [] for key in HEADS}

    def _players(self, view: PlayerView) -> Callable[[Hand], list[Strategy]]:
        """The play-outs' seats: this model (with the game's evidence so far) and the
        opponent's stand-in (``learned`` unless ``rollout_opponent`` builds another)."""
        me = view.seat

        def players_for(hand: Hand) -> list[Strategy]:
            mine = Learned(model=self.model)
            mine._hunter.total, mine._keeper.total = self._hunter.total, self._keeper.total
            mine._hunter.view = mine._keeper.view = hand.views[me]
            if self.rollout_opponent is None:
                theirs: Strategy = Learned(model=self.model)
                theirs._hunter.view = theirs._keeper.view = hand.views[1 - me]  # type: ignore[attr-defined]
            else:
                theirs = self.rollout_opponent()
            return [mine, theirs] if me == 0 else [theirs, mine]

        return players_for

    def values(self, view: PlayerView, options: Sequence[Option]) -> list[float] | None:
        """Each option's mean points over the same sampled worlds (None: no world fitted)."""
        sums = [0.0] * len(options)
        n = 0
        players_for = self._players(view)
        for deck in self._decks(view):
            n += 1
            for i, option in enumerate(options):
                sums[i] += option_value(self.rules, view, deck, option, players_for)  # type: ignore[arg-type]
        return None if n == 0 else [s / n for s in sums]

    def _decks(self, view: PlayerView) -> Iterator[list[int]]:
        """The worlds' decks: ``patient``'s deals from the view, or (``truth``) the hand's own
        deck with the stock left shuffled, the opponent's hand being the one it holds."""
        if self.truth:
            used = 52 - view.stock_size
            for _ in range(self.n_worlds):
                stock = self.deck[used:]
                self.rand.shuffle(stock)
                yield self.deck[:used] + stock
            return
        for opp, stock in self.dealer.worlds(view, self.n_worlds):
            deck = rebuild_deck(view, opp, stock, self.rand.random)
            if deck is not None:
                yield deck

    def _labels_now(self) -> bool:
        return self.rand.random() < self.label

    def take_upcard(self, view: PlayerView) -> bool:
        take = super().take_upcard(view)
        if view.upcard is not None and self._labels_now():
            row = take_row(view, self.context(view))
            vals = self.values(view, [("take", True), ("take", False)])
            if vals is not None:
                self.labels["take"].append(([row], [vals[0] - vals[1]]))
        return take

    def discard(self, view: PlayerView) -> int:
        if not self._labels_now():
            return super().discard(view)
        hand = view.hand
        cards, rows = discard_rows(self.context(view), hand, hand & ~view.legal_discards())
        if len(cards) == 1:
            return cards[0]
        order = np.argsort(-self.heads_for(view)["discard"].score(np.array(rows)))[:TOP]
        picked = [int(i) for i in order]
        vals = self.values(view, [("discard", cards[i]) for i in picked])
        if vals is not None:
            self.labels["discard"].append(([rows[i] for i in picked], vals))
        return cards[picked[0]]

    def knock(self, view: PlayerView) -> bool:
        knock = super().knock(view)
        if view.discard_deadwood and self._labels_now():
            row = self.knock_features(view)
            vals = self.values(view, [("knock", True), ("knock", False)])
            if vals is not None:
                self.labels["knock"].append(([row], [vals[0] - vals[1]]))
        return knock


def _hands(
    rules: Rules, players: list[Strategy], me: Searcher, game_seed: int
) -> Callable[[int, int, tuple[int, int]], HandResult]:
    """``hands_of``'s hand player, telling ``me`` each hand's deck first."""

    def one(h: int, dealer: int, scores: tuple[int, int]) -> HandResult:
        hand_seed = (game_seed + 7919 * (h + 1)) % (1 << 62)
        me.deck = deck_for(hand_seed)
        return play_hand(rules, players, me.deck, dealer, scores, (hand_seed ^ 1, hand_seed ^ 2))

    return one


def play_labels(
    model: str,
    games: int,
    seed: int,
    label: float,
    worlds: int,
    opponents: Sequence[str],
    truth: bool = False,
    own_rollouts: Sequence[str] = (),
) -> tuple[Labels, int]:
    """The labelled decisions of ``learned``'s games against ``opponents``, and the hands."""
    labels: Labels = {key: [] for key in HEADS}
    rand = SeededRandom(seed)
    hands = 0
    for rules_name, rules, opponent, spec, g in schedule(opponents, games):
        me = Searcher(rules, label, worlds, rand.getrandbits(62), model=model, truth=truth)
        players: list[Strategy] = [spec.build(), spec.build()]
        players[g % 2] = me
        if opponent in own_rollouts:
            me.rollout_opponent = spec.build
        hands += len(run_game(rules, g % 2, _hands(rules, players, me, rand.getrandbits(62)), MAX_HANDS).hands)
        for key in HEADS:
            labels[key].extend(me.labels[key])
        if g == games - 1:
            counts = {key: len(v) for key, v in labels.items()}
            print(json.dumps({"opponent": opponent, "rules": rules_name, "hands": hands, **counts}), flush=True)
    return labels, hands


def _ridge(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    return np.linalg.solve(x.T @ x + ridge * len(y) * np.eye(x.shape[1]), x.T @ y)


def fit_head(
    old: Head, decisions: list[tuple[list[list[float]], list[float]]], ridge: float, keep: float, centred: bool
) -> Head:
    """``old``'s features refitted to the play-out values, in ``old``'s scaling; ``centred``:
    only differences among a decision's options count (the discard head)."""
    xs, ys = [], []
    for rows, vals in decisions:
        x = (np.array(rows, dtype=np.float64) - old.mean) / old.scale
        y = np.array(vals, dtype=np.float64)
        if centred:
            x, y = x - x.mean(axis=0), y - y.mean()
        xs.append(x)
        ys.append(y)
    x, y = np.vstack(xs), np.concatenate(ys)
    if centred:
        w, b = _ridge(x, y, ridge), 0.0
    else:
        xe = np.hstack([x, np.ones((len(y), 1))])
        wb = _ridge(xe, y, ridge)
        w, b = wb[:-1], float(wb[-1])
    if keep > 0.0:
        # the old head in points: its values regressed on the new one's over the same rows
        old_v = x @ old.w2 + (0.0 if centred else old.b2)
        new_v = x @ w + b
        k = float(new_v @ old_v / max(old_v @ old_v, 1e-12))
        w = (1 - keep) * w + keep * k * old.w2
        b = (1 - keep) * b + keep * k * (0.0 if centred else old.b2)
    if centred:
        b = 0.0
    return Head(old.names, w, b, old.mean, old.scale)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--games", type=int, default=20, help="games per opponent and preset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--label", type=float, default=0.3, help="share of decisions searched")
    ap.add_argument("--worlds", type=int, default=4)
    ap.add_argument(
        "--truth",
        action="store_true",
        help="play out the opponent's real hand with the stock reshuffled (the harness's knowledge,"
        " never the strategy's) instead of patient's deals from the view",
    )
    ap.add_argument("--ridge", type=float, default=1e-3)
    ap.add_argument("--keep", type=float, default=0.0, help="share of the old head kept in each new one")
    ap.add_argument("--heads", default="discard,take,knock", help="the heads refitted")
    ap.add_argument(
        "--own-rollouts",
        action="append",
        default=[],
        help="an opponent (of --opponent's) that plays itself in the play-outs (repeatable; by default"
        " learned stands in for every opponent)",
    )
    ap.add_argument("--opponent", action="append", default=None, help="an opponent spec (repeatable)")
    ap.add_argument("--labels", type=Path, default=None, help="save (or, if it exists, reuse) the labels here")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    start = time.perf_counter()
    heads, meta = load_heads(args.model, HEADS, widen=True)
    if args.labels is not None and args.labels.exists():
        saved = json.loads(args.labels.read_text())
        labels, hands = saved["labels"], saved["hands"]
    else:
        opponents = args.opponent or [*OPPONENTS, "learned"]
        labels, hands = play_labels(
            str(args.model), args.games, args.seed, args.label, args.worlds, opponents, args.truth, args.own_rollouts
        )
        if args.labels is not None:
            args.labels.parent.mkdir(parents=True, exist_ok=True)
            args.labels.write_text(json.dumps({"labels": labels, "hands": hands}))
    for key in args.heads.split(","):
        heads[key] = fit_head(heads[key], labels[key], args.ridge, args.keep, centred=key == "discard")
    seconds = time.perf_counter() - start
    meta = {**meta, "search_hands": hands, "search_seconds": round(seconds, 1), "search_seed": args.seed}
    save_heads(args.out, heads, meta)
    counts = {key: len(v) for key, v in labels.items()}
    print(json.dumps({"hands": hands, **counts, "seconds": round(seconds, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
