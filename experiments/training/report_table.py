"""The rows of a reporting table, pooled over seeds, from the run folders that played them.

A strategy's figures in docs/strategies.md are one command played on two reporting seeds,
pooled. Given the run folders (``ginsim match ... --seed S --out DIR``), this groups those of
the same pairing, rules and size, and prints one Markdown row per group: the pairing, the
preset, the games, the pooled game win rate of the first strategy with its Wilson interval,
each seed's game win rate (with its interval) and points per hand, and the command without
its seed and output options. Only the run folders are read (``ginsim.open_run``).

    python experiments/training/report_table.py RUNS/*-640201 RUNS/*-640202
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

import ginsim
from ginsim.analysis.stats import wilson
from ginsim.errors import GinsimError

PER_RUN = {"--seed": 1, "--out": 1, "--jobs": 1, "-q": 0, "--quiet": 0, "--no-plots": 0}
"""Options of a command that differ between the seeds of one row (with how many values)."""


def command_of(text: str) -> str:
    """A run's command without the options that differ from seed to seed."""
    words, out, skip = shlex.split(text, comments=True), [], 0
    for word in words:
        if skip:
            skip -= 1
        elif word in PER_RUN:
            skip = PER_RUN[word]
        else:
            out.append(word)
    return shlex.join(out)


def _rate(x: float, lo: float, hi: float) -> str:
    """A rate and its interval as the docs write them: ``56.1% (54.5-57.6)``."""
    return f"{100 * x:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"


def rows(folders: Sequence[str | Path]) -> list[str]:
    """One Markdown row per group of runs of one pairing, rules and size, in the order met."""
    groups: dict[tuple[str, str, str, str, int], list[tuple[int, str, pd.Series]]] = {}
    for folder in folders:
        run = ginsim.open_run(folder)
        m = run.manifest
        if m.kind != "match" or len(m.pairings) != 1:
            raise GinsimError(f"{folder}: not a match of one pairing")
        pairing = m.pairings[0]
        rules = json.dumps(m.rules, sort_keys=True)
        group = groups.setdefault((pairing.a, pairing.b, m.preset or "custom", rules, int(m.games or m.hands or 0)), [])
        if any(seed == m.seed for seed, _, _ in group):
            raise GinsimError(f"{folder}: seed {m.seed} of this pairing is given twice")
        group.append((int(m.seed), command_of(m.command), run.summary.iloc[0]))
    out = []
    for (_, _, preset, _, _), runs in groups.items():
        runs.sort(key=lambda r: r[0])
        firsts = [r[2] for r in runs]
        games = sum(int(s["games"]) for s in firsts)
        wins = sum(round(float(s["game_win_rate"]) * int(s["games"])) for s in firsts)
        lo, hi = wilson(wins, games)
        per = " / ".join(
            f"{_rate(s.game_win_rate, s.game_win_rate_lo, s.game_win_rate_hi)}, {float(s.points_per_hand):+.2f}"
            for s in firsts
        )
        s0 = firsts[0]
        seeds = ", ".join(str(r[0]) for r in runs)
        commands = "; ".join(f"`{c}`" for c in dict.fromkeys(r[1] for r in runs))
        out.append(
            f"| {s0['strategy']} | {s0['opponent']} | {preset} | {games:,} | "
            f"**{_rate(wins / games, lo, hi)}** | {per} | {seeds}: {commands} |"
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", help="run folders of `ginsim match`, one per seed")
    args = ap.parse_args(argv)
    try:
        table = rows(args.folders)
    except (GinsimError, OSError) as e:
        print(f"report_table: {e}", file=sys.stderr)
        return 2
    print("| strategy | opponent | rules | games | game win rate | per seed, points per hand | seeds, command |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
