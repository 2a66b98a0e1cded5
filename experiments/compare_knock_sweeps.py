"""The knock sweeps of every rule preset side by side, as a Markdown table.

Run the five sweeps first (``ginsim run experiments/knock_sweep_<preset>.toml`` for each
preset), then ``python experiments/compare_knock_sweeps.py [RESULTS]``. Each cell is
``threshold``'s points per game against ``simple`` at that ``knock_at`` (with every
end-of-game bonus of the preset, ± the 95% half-width) and its game win rate; the last
row names the best ``knock_at`` by points per game and by game win rate.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

PRESETS = ("default", "eaai", "modern", "classic", "palace")


def sweep_rows(results: Path, preset: str) -> pd.DataFrame:
    """The swept strategy's rows of one preset's summary, indexed by knock_at."""
    s = pd.read_csv(results / f"knock_sweep_{preset}" / "summary.csv")
    s = s[s["param"] == "knock_at"].copy()
    s["knock_at"] = s["value"].astype(int)
    return s.set_index("knock_at").sort_index()


def table(results: Path) -> str:
    sweeps = {p: sweep_rows(results, p) for p in PRESETS}
    lines = ["| `knock_at` | " + " | ".join(f"`{p}`" for p in PRESETS) + " |", "|---|" + "---|" * len(PRESETS)]
    for k in range(11):
        cells = []
        for p in PRESETS:
            r = sweeps[p].loc[k]
            half = (r["points_per_game_hi"] - r["points_per_game_lo"]) / 2
            cells.append(f"{r['points_per_game']:+.1f} ± {half:.1f} ({100 * r['game_win_rate']:.1f}%)")
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    best = []
    for p in PRESETS:
        s = sweeps[p]
        best.append(f"{int(s['points_per_game'].idxmax())} / {int(s['game_win_rate'].idxmax())}")
    lines.append("| best (points / wins) | " + " | ".join(best) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("results")))
