"""Strength of ``learned`` against the amount of training data: each model the training
script fitted on a share of its records (``model-H.npz``, H hands) plays ``--games`` games
against each opponent, and the game win rates are drawn against H.

    python experiments/training/curve.py --models build/learned --games 300 --seed 4101 \\
        --pairing "simple@default" --pairing "java:/path/to/classes:MARJJ_v5@eaai" \\
        --png docs/images/learned_curve.png

Each pairing is ``OPPONENT@PRESET``. Every match is a plain ``ginsim match`` (its folder
under results/); the figures go to ``--json`` as well as the chart.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def game_win_rate(player: str, pairing: str, games: int, seed: int, jobs: int) -> dict[str, float]:
    """Play one match of ``player`` and read its summary."""
    opponent, _, preset = pairing.rpartition("@")
    out = subprocess.run(
        ["ginsim", "match", player, opponent, "--games", str(games), "--rules", preset,
         "--seed", str(seed), "--jobs", str(jobs)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    folder = re.search(r"match in (\S+)", out.stdout)
    if folder is None:
        raise SystemExit(f"no run folder in the output of the match against {opponent}")
    row = json.loads((Path(folder.group(1)) / "summary.json").read_text())["summary"][0]
    return {k: row[k] for k in ("game_win_rate", "game_win_rate_lo", "game_win_rate_hi", "points_per_hand")}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--models", type=Path, default=Path("build/learned"))
    ap.add_argument("--pairing", action="append", required=True, help="OPPONENT@PRESET")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=4101)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--reference", default=None, help="a strategy drawn as a dashed line (e.g. the teacher)")
    ap.add_argument("--reference-name", default=None, help="the reference's name in the legend (default: its spec)")
    ap.add_argument("--xlabel", default="hands played in training: the teacher's, then its own (log scale)")
    ap.add_argument("--extra", action="append", default=[], help="HANDS=MODEL: a further model at HANDS")
    ap.add_argument("--mark", action="append", default=[], help="HANDS=TEXT: a stage of training, drawn at HANDS")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--png", type=Path, required=True)
    ap.add_argument("--replot", type=Path, default=None, help="draw the figures of an earlier --json, playing nothing")
    args = ap.parse_args(argv)
    if args.replot is not None:
        saved = json.loads(args.replot.read_text())
        marks = marks_of(args.mark) or saved.get("marks", [])
        draw(saved["models"], saved["reference"], args.reference_name or args.reference, args.games, args.png, marks,
             args.xlabel)  # fmt: skip
        return 0
    models = [(int(p.stem.split("-")[1]), p) for p in args.models.glob("model-*.npz")]
    models += [(int(h), Path(m)) for h, _, m in (e.partition("=") for e in args.extra)]
    models.sort()
    figures: dict[str, list[tuple[int, dict[str, float]]]] = {}
    references: dict[str, dict[str, float]] = {}
    for pairing in args.pairing:
        for hands, model in models:
            result = game_win_rate(f"learned:model={model}", pairing, args.games, args.seed, args.jobs)
            figures.setdefault(pairing, []).append((hands, result))
            print(json.dumps({"pairing": pairing, "hands": hands, "model": str(model), **result}), flush=True)
        if args.reference:
            references[pairing] = game_win_rate(args.reference, pairing, args.games, args.seed, args.jobs)
            print(json.dumps({"pairing": pairing, "reference": args.reference, **references[pairing]}), flush=True)
    if args.json is not None:
        saved = {"models": figures, "reference": references, "marks": marks_of(args.mark)}
        args.json.write_text(json.dumps(saved, indent=1) + "\n")
    draw(figures, references, args.reference_name or args.reference, args.games, args.png, marks_of(args.mark),
         args.xlabel)  # fmt: skip
    return 0


def marks_of(texts: Sequence[str]) -> list[tuple[int, str]]:
    """``HANDS=TEXT`` marks as (hands, text)."""
    return [(int(h), text) for h, _, text in (t.partition("=") for t in texts)]


def draw(
    figures: dict[str, list[tuple[int, dict[str, float]]]],
    references: dict[str, dict[str, float]],
    reference: str | None,
    games: int,
    png: Path,
    marks: Sequence[tuple[int, str]] = (),
    xlabel: str = "hands played in training (log scale)",
) -> None:
    """The chart: each pairing's game win rate by training hands, the reference dashed, each
    stage of training (``marks``) a dotted line where it begins."""
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    for pairing, points in figures.items():
        xs = [h for h, _ in points]
        ys = [100 * r["game_win_rate"] for _, r in points]
        lo = [100 * (r["game_win_rate"] - r["game_win_rate_lo"]) for _, r in points]
        hi = [100 * (r["game_win_rate_hi"] - r["game_win_rate"]) for _, r in points]
        opponent, _, preset = pairing.rpartition("@")
        who = opponent.rsplit(":", 1)[-1] if opponent.startswith("java:") else opponent
        label = f"learned against {who}, {preset} rules"
        line = ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=label)
        if pairing in references:
            ref = 100 * references[pairing]["game_win_rate"]
            ax.axhline(ref, color=line[0].get_color(), ls="--", lw=1, label=f"{reference} against {who}, same games")
    for hands, text in marks:
        ax.axvline(hands, color="dimgrey", lw=0.8, ls=":")
        ax.annotate(text, xy=(hands, 41), xytext=(-2, 0), textcoords="offset points", fontsize=7.5, color="dimgrey",
                    ha="right", va="bottom", rotation=90, bbox={"fc": "white", "ec": "none", "pad": 1})  # fmt: skip
    ax.axhline(50, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games won by learned (%)")
    ax.set_title(f"learned: strength against training data ({games} games a point, 95% intervals)")
    ax.legend(fontsize=8, loc="upper left", ncol=2)
    ax.set_ylim(40, 85)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    sys.exit(main())
