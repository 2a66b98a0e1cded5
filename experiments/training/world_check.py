"""How close do a search's sampled worlds come to the opponent's real hand?

A referee's measurement, outside any strategy: ``simple`` plays ``simple`` on the decks of a
master seed (``ginsim.engine.hand.Hand`` driven move by move here), and at each of seat 0's
discards from turn ``--from-turn`` the worlds that ``patient`` and the filter of
``reading_player.py`` deal from seat 0's view alone are compared with the hand seat 1 really
holds, which only this script sees. Printed for each dealer of worlds: the share of seat 1's
real hidden cards a world holds (a uniform deal of the unseen cards holds ``uniform``), the mean
error of a world's deadwood and its mean bias (world minus real). The notes' nineteenth attempt
quotes it:

    python experiments/training/world_check.py --hands 600 --particles 1000 --eps 0.01
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from ginsim.strategies.patient import Patient
from ginsim.strategies.simple import Simple

from ginsim.engine.hand import Hand
from ginsim.engine.melds import MeldTables, tables_for
from ginsim.engine.rules import Rules
from ginsim.engine.view import PlayerView
from ginsim.run.seeding import deal_seeds, decks_for

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reading_player import OpponentFilter

from ginsim.rollout import finish

WORLDS = 64


class Tally:
    """Running sums of one dealer's comparisons."""

    def __init__(self) -> None:
        self.n = self.failed = 0
        self.share = self.error = self.bias = 0.0

    def add(self, worlds: list[int], real: int, hidden: int, tables: MeldTables) -> None:
        dwm = tables.deadwood_mask
        k = hidden.bit_count()
        true_dw = dwm(real)
        dws = [dwm(w) for w in worlds]
        self.share += sum((w & hidden).bit_count() for w in worlds) / len(worlds) / k
        mean_dw = sum(dws) / len(dws)
        self.error += abs(mean_dw - true_dw)
        self.bias += mean_dw - true_dw
        self.n += 1

    def line(self, name: str) -> str:
        n = max(1, self.n)
        share, error, bias = self.share / n, self.error / n, self.bias / n
        failed = f"  ({self.failed} with no copy that fits: patient's worlds)" if self.failed else ""
        return f"{name:10s} {self.n:6d} share {share:.4f}  deadwood error {error:.2f}  bias {bias:+.2f}{failed}"


def measure(view: PlayerView, real: int, tallies: dict[str, Tally], particles: int, eps: float, seed: int) -> None:
    """Compare the worlds dealt from ``view`` with ``real``; the seat's random stream is
    given back as it was, so measuring changes no move of the games."""
    state = view.rng.getstate()
    try:
        _measure(view, real, tallies, particles, eps, seed)
    finally:
        view.rng.setstate(state)


def _measure(view: PlayerView, real: int, tallies: dict[str, Tally], particles: int, eps: float, seed: int) -> None:
    hidden = real & view.unseen()
    if not hidden:
        return
    tables = tables_for(view.rules.max_run_length)
    tallies["uniform"].share += hidden.bit_count() / view.unseen().bit_count()
    tallies["uniform"].n += 1
    tallies["patient"].add([w for w, _ in Patient(samples=WORLDS).worlds(view, WORLDS)], real, hidden, tables)
    f = OpponentFilter(view, particles, eps, random.Random(seed))
    if f.failed:  # no copy fits: ``Reading`` deals patient's worlds instead, and so does this
        tallies["filter"].failed += 1
        tallies["filter"].add([w for w, _ in Patient(samples=WORLDS).worlds(view, WORLDS)], real, hidden, tables)
    else:
        tallies["filter"].add([f.pick() for _ in range(WORLDS)], real, hidden, tables)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0, help="master seed of the decks")
    ap.add_argument("--particles", type=int, default=1000)
    ap.add_argument("--eps", type=float, default=0.01)
    ap.add_argument("--from-turn", type=int, default=4)
    a = ap.parse_args(argv)
    if a.hands < 1 or a.particles < 8 or not 0.0 < a.eps <= 1.0:
        print("world_check: --hands >= 1, --particles >= 8 and --eps in (0, 1] are needed", file=sys.stderr)
        return 2
    rules = Rules()
    tallies = {name: Tally() for name in ("uniform", "patient", "filter")}
    decks = decks_for(deal_seeds(a.seed, 0, a.hands))
    for i, deck in enumerate(decks):
        hand = Hand(rules, list(deck), i % 2, (0, 0), (2 * i + 1, 2 * i + 2))

        def look(hand: Hand, i: int = i) -> None:
            view = hand.views[0]
            if hand.to_move == 0 and view.turn >= a.from_turn:
                measure(view, hand.hands[1], tallies, a.particles, a.eps, i * 1000 + view.turn)

        finish(hand, (Simple(), Simple()), look)
    for name, t in tallies.items():
        print(t.line(name) if name != "uniform" else f"{'uniform':10s} {t.n:6d} share {t.share / max(1, t.n):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
