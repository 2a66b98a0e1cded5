"""Improve the knock head of a ``learned`` model by its own play: policy improvement on
the points that knocks and playing on really score.

``learned`` with the model ``--model`` plays ``--games`` games to 100 against each opponent
under each preset; at every knock it could make (not gin) it follows its model but, with
chance ``--explore``, does the other thing. Each such decision is recorded with the points
the hand then scored from its side. Two ridge regressions over the knock features value
knocking now (on the knocks: the points are the knock's own, known at once, so this target
is nearly free of noise) and playing on (on the rest); the new knock head is their
difference, so the strategy knocks where knocking is worth more. The discard and upcard
heads are kept.

    python experiments/training/improve_knocks.py --model build/learned/model-25000.npz \\
        --games 300 --seed 1 --out build/learned/improved.npz
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from ginsim.strategies.learned import HEADS, KNOCK_FEATURES, Learned
from train_learned import MAX_HANDS, OPPONENTS, hands_of, schedule

from ginsim.engine.game import run_game
from ginsim.engine.result import HandResult
from ginsim.engine.rng import SeededRandom
from ginsim.engine.strategy import Strategy
from ginsim.engine.valuemodel import Head, load_heads, save_heads
from ginsim.engine.view import PlayerView


class KnockExplorer(Learned):
    """``learned`` that, with chance ``knock_explore``, answers a knock question against
    its model, and notes every answer with its features. It plays the model's heads under
    every rule set (the knock head it refits is theirs; cheap heads, if any, are not)."""

    def __init__(self, knock_explore: float = 0.3, **params: Any) -> None:
        super().__init__(**params)
        self.cheap_heads = self.heads
        self.cards = self.cheap_cards = None
        self.knock_explore = knock_explore
        self.noted: list[tuple[list[float], bool]] = []

    def knock(self, view: PlayerView) -> bool:
        if view.discard_deadwood == 0:
            return True
        row = self.knock_features(view)
        knock = float(self.heads["knock"].score(np.array([row]))[0]) > 0.0
        if view.rng.random() < self.knock_explore:
            knock = not knock
        self.noted.append((row, knock))
        return knock


def _collect(me: KnockExplorer, seat: int, out: list[tuple[list[float], bool, float]]) -> Callable[[HandResult], None]:
    """After each hand: ``me``'s knock answers with the points the hand scored from ``seat``."""

    def after(res: HandResult) -> None:
        points = 0.0 if res.winner < 0 else float(res.points if res.winner == seat else -res.points)
        out.extend((row, knocked, points) for row, knocked in me.noted)
        me.noted.clear()

    return after


def play_knocks(model: Path, games: int, seed: int, explore: float, opponents: Sequence[str]) -> tuple[list, int]:
    """(row, knocked, points from the knocker-to-be's side) of every knock question, and hands."""
    out: list[tuple[list[float], bool, float]] = []
    rand = SeededRandom(seed)
    hands = 0
    for rules_name, rules, opponent, spec, g in schedule(opponents, games):
        seat = g % 2
        me = KnockExplorer(knock_explore=explore, model=str(model))
        players: list[Strategy] = [spec.build(), spec.build()]
        players[seat] = me

        play = hands_of(rules, players, rand.getrandbits(62), _collect(me, seat, out))
        hands += len(run_game(rules, g % 2, play, MAX_HANDS).hands)
        if g == games - 1:
            print(json.dumps({"opponent": opponent, "rules": rules_name, "decisions": len(out)}), flush=True)
    return out, hands


def fit_knock(decisions: list[tuple[list[float], bool, float]], ridge: float) -> Head:
    """The knock head: the value of knocking less that of playing on, each a ridge
    regression of the points on the (scaled) knock features."""
    rows = np.array([r for r, _, _ in decisions], dtype=np.float64)
    knocked = np.array([k for _, k, _ in decisions])
    y = np.array([p for _, _, p in decisions], dtype=np.float64)
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = (rows - mean) / scale
    fits = []
    for side in (True, False):
        xs, ys = x[knocked == side], y[knocked == side]
        centre = xs.mean(axis=0)
        xc = xs - centre
        a = xc.T @ xc + ridge * len(ys) * np.eye(x.shape[1])
        w = np.linalg.solve(a, xc.T @ (ys - ys.mean()))
        fits.append((w, float(ys.mean() - centre @ w)))
    (wk, bk), (wp, bp) = fits
    return Head(KNOCK_FEATURES, wk - wp, bk - bp, mean, scale)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--games", type=int, default=300, help="games per opponent and preset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--explore", type=float, default=0.3)
    ap.add_argument("--ridge", type=float, default=1e-3)
    ap.add_argument("--opponent", action="append", default=None, help="an opponent spec (repeatable)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    start = time.perf_counter()
    decisions, hands = play_knocks(args.model, args.games, args.seed, args.explore, args.opponent or OPPONENTS)
    heads, meta = load_heads(args.model, HEADS, widen=True)
    heads["knock"] = fit_knock(decisions, args.ridge)
    seconds = time.perf_counter() - start
    meta = {**meta, "improve_hands": hands, "improve_seconds": round(seconds, 1), "improve_seed": args.seed}
    save_heads(args.out, heads, meta)
    print(json.dumps({"hands": hands, "decisions": len(decisions), "seconds": round(seconds, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
