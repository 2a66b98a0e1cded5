"""A research session from Python, cell by cell (docs/python.md walks through it).

Run it as a script (``python docs/examples/research.py``) or paste the cells into a
notebook. It plays a match and a sweep, reads the hand log with the strategies' names,
and draws a chart of the run next to one of its own on the same matplotlib figure.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # as a script: draw to files (a notebook shows figures inline)
import matplotlib.pyplot as plt

import ginsim


def main(hands: int = 4000, jobs: int | None = None, out_dir: Path = Path(".")) -> dict[str, object]:
    # %% a match: threshold knocking at 4 or less, against simple
    with ginsim.match("threshold:knock_at=4", "simple", hands=hands, seed=1, jobs=jobs) as run:
        print(run)
        print(run.summary[["strategy", "opponent", "hands", "win_rate", "points_per_hand"]])

        # the hand log: one row per hand, with names and each side's points
        log = run.hands
        by_outcome = log.groupby("outcome", observed=True)["points_a"].agg(["size", "mean"])
        print(by_outcome)  # how threshold:knock_at=4 fares by how the hand ended
        print(log.groupby("winner_name", observed=True).size())
        match_pph = float(log["points_a"].mean())  # equals the summary's points_per_hand
    # leaving the with block deleted the run's temporary folder

    # %% a sweep: knock_at from 0 to 10 against simple
    sweep = ginsim.sweep("threshold", "knock_at", range(0, 11, 2), vs=["simple"], hands=hands, seed=2, jobs=jobs)
    print(sweep.charts)

    # %% one of the run's charts and one of our own, on one figure
    fig, (left, right) = plt.subplots(2, 1, figsize=(8.5, 9), layout="constrained")
    sweep.plot("sweep_points_per_hand", ax=left)
    log = sweep.hands
    ours = log[log["strategy_a"].str.startswith("threshold")]
    gin = ours.assign(gin=ours["outcome"] == "gin").groupby("value")["gin"].mean()
    right.plot(gin.index, 100 * gin.to_numpy(), marker="o")
    right.set_xlabel("knock_at")
    right.set_ylabel("hands ending in gin (%)")
    right.set_title("Gin rate by knock limit, from the hand log")
    chart = Path(out_dir) / "research.png"
    fig.savefig(chart, dpi=100)
    plt.close(fig)

    # %% keep the sweep's folder (it is temporary until saved)
    kept = sweep.save(Path(out_dir) / "knock-sweep")
    sweep.close()
    return {"match_points_per_hand": match_pph, "gin_by_knock_at": gin, "chart": chart, "kept": kept.folder}


if __name__ == "__main__":
    main()
