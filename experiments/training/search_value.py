"""A card value fitted on a search's values of the discards instead of the points hands scored
(the fourteenth attempt in docs/notes/2026-12-learned.md).

``card_value.py`` fits a network over the cards to the points each hand then scored: a Monte
Carlo target whose spread (the draws still to come) is five times what the network explains,
so fifteen million discards teach it the deal only roughly. A sampling search values the
same discards with that spread mostly averaged away: ``patient``'s ``evaluate`` plays each
discard out in ``samples`` deals of the unseen cards that fit what the seat has seen, all the
discards in the same deals. Where the tenth attempt taught heads over ``learned``'s few numbers
to follow such a search's *choices* (they could not: the numbers describe a deal only on
average), this teaches the network over the cards the search's *values*.

``label``: ``learned`` (the installed model, as it plays) plays games to 100 against
``card_value.OPPONENTS`` (or ``--opponent``), letting go its second or third best discard with
chance ``explore``; at each of its discards its ``top`` best discards (its own values) are
each valued by a ``patient:samples=S`` seat of its own (its reads of the opponent kept over
the game, as ``patient`` keeps them): the mean points of the discard played out, with the
better of knocking and playing on where the kept hand may knock. Each is noted as
``card_value.sample_of`` notes it, with that value as its ``points``, so ``card_value.py fit``
fits the network as it fits the outcome one (``group`` numbers the decisions). Only what the
seat's view holds is read.

    python experiments/training/search_value.py label --games 300 --seed S --jobs 2 --out-dir DIR
    python experiments/training/card_value.py fit --samples DIR/samples-0.npz ... --hidden 256 --out V.npz
    ginsim match experiments/training/search_value_player.py:Both:value=V.npz,weight=1 simple
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from card_value import OPPONENTS, sample_of
from ginsim.strategies.learned import Learned, discard_rows
from ginsim.strategies.patient import Patient
from joblib import Parallel, delayed
from train_learned import MAX_HANDS, hands_of

from ginsim import tables_for
from ginsim.engine.cards import Card
from ginsim.engine.game import run_game
from ginsim.engine.rng import SeededRandom
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.errors import StrategySpecError


class Labeller(Learned):
    """``learned`` that notes its ``top`` best discards at each decision with ``searcher``'s
    values of them (``values``); it plays its own choice (or, with chance ``explore_discards``,
    its second or third best)."""

    def __init__(self, samples: int, top: int, explore_discards: float, **params: Any) -> None:
        super().__init__(**params)
        self.searcher = Patient(samples=samples, game=0)
        self.top = top
        self.explore_discards = explore_discards
        self.noted: list[tuple[list[int], list[float], float, int]] = []
        self.decisions = 0

    def take_upcard(self, view: PlayerView) -> bool:
        self.searcher.hunter_chance(view)  # the searcher reads the opponent from every view it sees
        return super().take_upcard(view)

    def values(self, view: PlayerView, cards: list[Card]) -> list[float]:
        """The searcher's mean points of letting each of ``cards`` go: played on, or knocked
        where the kept hand may knock (the better of the two on average), gin knocked."""
        s = self.searcher
        s.hunter_chance(view)
        tables = tables_for(view.rules.max_run_length)
        options: list[tuple[Card, bool]] = []
        owner: list[int] = []
        for i, card in enumerate(cards):
            dw = tables.deadwood_mask(view.hand & ~(1 << card))
            for knock in (False, True):
                if (knock and dw <= view.knock_limit) or (not knock and dw > 0):
                    options.append((card, knock))
                    owner.append(i)
        means = np.mean(np.array(s.evaluate(view, options), dtype=np.float64), axis=0)
        best = [-np.inf] * len(cards)
        for j, i in enumerate(owner):
            best[i] = max(best[i], float(means[j]))
        return best

    def discard(self, view: PlayerView) -> Card:
        hand = view.hand
        ctx = self.context(view)
        cards, rows = discard_rows(ctx, hand, hand & ~view.legal_discards())
        if len(cards) == 1:
            return cards[0]
        order = [int(i) for i in np.argsort(-self.discard_values(view, ctx, cards, rows))]
        pick = 0
        if self.explore_discards and view.rng.random() < self.explore_discards:
            pick = 1 + view.rng.below(min(2, len(cards) - 1))
        chosen = order[: self.top]
        for i, value in zip(chosen, self.values(view, [cards[i] for i in chosen]), strict=True):
            masks, nums = sample_of(view, ctx, hand & ~(1 << cards[i]), cards[i], rows[i])
            self.noted.append((masks, nums, value, self.decisions))
        self.decisions += 1
        return cards[order[pick]]


def label(
    games: int, seed: int, samples: int, top: int, explore: float, preset: str = "default",
    opponents: Sequence[str] = OPPONENTS, job: int = 0,
) -> dict[str, Any]:  # fmt: skip
    """``games`` games to 100 against each opponent, the labeller's discards noted with the
    search's values (both seats where the opponent is ``learned``)."""
    rules = preset_rules(preset)
    rand = SeededRandom(seed)
    out: list[tuple[list[int], list[float], float, int]] = []
    hands = 0
    start = time.perf_counter()
    base = job << 40  # decision numbers unique across the jobs' files
    for opponent in opponents:
        spec = parse_spec(opponent)
        for g in range(games):
            seat = g % 2
            players: list[Strategy] = [spec.build(), spec.build()]
            labellers = [(Labeller(samples, top, explore), seat)]
            if opponent == "learned":
                labellers.append((Labeller(samples, top, explore), 1 - seat))
            for me, s in labellers:
                players[s] = me
            hands += len(run_game(rules, g % 2, hands_of(rules, players, rand.getrandbits(62)), MAX_HANDS).hands)
            for me, _ in labellers:  # each seat's decisions numbered after the last seat's
                out.extend((m, x, v, base + d) for m, x, v, d in me.noted)
                base += me.decisions
    return {
        "masks": np.array([m for m, _, _, _ in out], dtype=np.int64),
        "nums": np.array([x for _, x, _, _ in out], dtype=np.float32),
        "points": np.array([v for _, _, v, _ in out], dtype=np.float32),
        "group": np.array([d for _, _, _, d in out], dtype=np.int64),
        "hands": hands,
        "seconds": time.perf_counter() - start,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; a bad setting or strategy is one line on stderr and status 2."""
    try:
        return _main(argv)
    except (ValueError, OSError, StrategySpecError) as e:
        print(f"search_value.py: {e}", file=sys.stderr)
        return 2


def _main(argv: Sequence[str] | None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("label", help="play and note discards with the search's values")
    c.add_argument("--games", type=int, required=True, help="games to 100 against each opponent, per job")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--jobs", type=int, default=1)
    c.add_argument("--samples", type=int, default=64, help="the searcher's deals a decision")
    c.add_argument("--top", type=int, default=4, help="discards valued a decision (learned's best)")
    c.add_argument("--explore", type=float, default=0.1)
    c.add_argument("--preset", default="default")
    c.add_argument("--opponent", action="append", default=[], help=f"whom it plays (default: {', '.join(OPPONENTS)})")
    c.add_argument("--out-dir", type=Path, required=True)
    a = parser.parse_args(argv)
    if a.games < 1 or a.jobs < 1 or a.samples < 2 or a.top < 2 or not 0.0 <= a.explore <= 1.0:
        raise ValueError("--games and --jobs must be at least 1, --samples and --top at least 2, --explore in [0, 1]")
    preset_rules(a.preset)  # an unknown preset: one line before anything is played
    opponents = tuple(a.opponent) or OPPONENTS
    for opponent in opponents:
        parse_spec(opponent).build()  # an unknown strategy or parameter: one line
    a.out_dir.mkdir(parents=True, exist_ok=True)
    seeds = [SeededRandom(a.seed).getrandbits(62) ^ j for j in range(a.jobs)]
    import search_value  # by its module's name, so that the workers find the classes

    runs = Parallel(n_jobs=a.jobs)(
        delayed(search_value.label)(a.games, s, a.samples, a.top, a.explore, a.preset, opponents, j)
        for j, s in enumerate(seeds)
    )
    for j, run in enumerate(runs):
        hands, seconds = run.pop("hands"), run.pop("seconds")
        np.savez(a.out_dir / f"samples-{j}.npz", **run)
        print(json.dumps({"job": j, "hands": hands, "samples": len(run["points"]), "seconds": round(seconds, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
