"""What the statistics make of a run folder: the ``Analysis`` (manifest, summary table,
ratings, the sequential test's trace) and the round-robin matrix. Reads the folder
through ginsim.runfolder only; never plays a hand."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ginsim.analysis.digest import RunDigest
from ginsim.analysis.forfeits import Forfeiter, forfeiters
from ginsim.analysis.games import add_game_figures
from ginsim.analysis.pairwise import pairwise
from ginsim.analysis.ratings import ratings as fit_ratings
from ginsim.analysis.sprt import summary_columns, trace
from ginsim.analysis.stats import read_sums, summarize
from ginsim.analysis.thinking import THINK_COLUMNS, add_thinking, thinking_table
from ginsim.errors import RunError
from ginsim.runfolder.chunks import RunFolderWarning, chunk_files
from ginsim.runfolder.lock import run_in_progress
from ginsim.runfolder.records import Manifest, RunKind, read_manifest

SUMMARY = "summary.csv"
SUMMARY_JSON = "summary.json"  # the same rows, with what was played, for programs
RATINGS = "ratings.csv"
REPORT = "report.md"
SPRT_TRACE = "sprt.csv"

FIGURE_ORDER = (
    "win_rate",
    "points_per_hand",
    "knock_rate",
    "gin_rate",
    "undercut_rate",
    "undercuts_made_rate",
    "draw_rate",
    "mean_knock_deadwood",
    "mean_turns",
    "game_win_rate",
    "points_per_game",
    "hands_per_game",
    "shutouts",
)


@dataclass
class Analysis:
    """What the stats make of a run folder."""

    folder: Path
    manifest: Manifest
    summary: pd.DataFrame
    ratings: pd.DataFrame | None
    chunks_done: int
    chunks_total: int
    sprt: pd.DataFrame | None = None  # the sequential test after each chunk (runs with --sprt)
    forfeits: list[Forfeiter] = field(default_factory=list)  # each forfeiting strategy
    digest: RunDigest | None = None  # per-chunk parts taken as the run was played (ginsim.analysis.digest)
    pairwise: pd.DataFrame | None = None  # round-robins: each meeting head to head (ginsim.analysis.pairwise)
    thinking: pd.DataFrame | None = None  # thinking time per decision and strategy (machine-dependent)

    @property
    def complete(self) -> bool:
        return self.chunks_done >= self.chunks_total

    @property
    def names(self) -> list[str]:
        return [s.label for s in self.manifest.strategies]


def analyze(folder: Path, digest: RunDigest | None = None) -> Analysis:
    """Read a (finished or partly finished) run folder and compute every figure; chunks
    the ``digest`` took as they were written are not read again."""
    manifest = read_manifest(folder)
    files = chunk_files(folder)
    writer = run_in_progress(folder)
    if writer is not None:  # read what is finished; the run rewrites the tables when it ends
        warnings.warn(
            f"{folder}: a run is still writing it ({writer}): figures cover the {len(files)} chunks finished so far",
            RunFolderWarning,
            stacklevel=2,
        )
    try:
        sums, reasons = read_sums(files, digest)
    except Exception as e:  # noqa: BLE001 - a damaged chunk file is one clear line
        raise RunError(f"{folder}: cannot read the hand log ({type(e).__name__}: {e})") from None
    summary = summarize(sums, reasons, manifest.pairings)
    if manifest.games:
        summary = add_game_figures(summary, files)  # points_per_game (METRICS.md)
    summary = add_thinking(summary, files, manifest.pairings)  # machine-dependent (ginsim.analysis.thinking)
    if not summary.empty:
        summary = _ordered(summary, grid_params(manifest))
    ratings = heads = None
    if manifest.kind == RunKind.ROUNDROBIN and sums:
        names = [s.label for s in manifest.strategies]
        ratings = fit_ratings(sums, manifest.pairings, names, games=bool(manifest.games))
        heads = pairwise(sums, manifest.pairings, list(ratings["strategy"]), games=bool(manifest.games))
    sprt = None
    if manifest.stopped:
        sprt = trace(folder, manifest.stopped)  # None for a test on hand wins (in earlier versions)
        if not summary.empty:  # the test's figures go on the row of A, the tested strategy
            for name, value in summary_columns(manifest.stopped).items():
                summary[name] = [value] + [None] * (len(summary) - 1)
    lost = forfeiters(files, manifest.pairings) if any(s["forfeits"] for s in sums.values()) else []
    total = manifest.chunks
    thinking = thinking_table(files, manifest.pairings)
    return Analysis(folder, manifest, summary, ratings, len(files), total, sprt, lost, digest, heads, thinking)


def grid_params(m: Manifest) -> list[str]:
    """A grid sweep's parameters (``param`` lists them joined by commas); [] otherwise."""
    if m.kind != RunKind.SWEEP or not m.param or "," not in m.param:
        return []
    return m.param.split(",")


def _ordered(summary: pd.DataFrame, grid: list[str]) -> pd.DataFrame:
    cols = ["strategy", "opponent"]
    if "param" in summary:
        cols += ["param", "value", *grid]
    cols.append("hands")
    if "games" in summary:
        cols.append("games")
    for name in FIGURE_ORDER:
        if name not in summary:
            continue
        cols.append(name)
        if f"{name}_lo" in summary:
            cols += [f"{name}_lo", f"{name}_hi"]
    cols += ["forfeits", "forfeit_reasons", *THINK_COLUMNS]
    cols += [c for c in summary if c.startswith("sprt_")]
    return summary[[c for c in cols if c in summary]]


def matrix(a: Analysis, figure: str) -> pd.DataFrame:
    """Round-robin matrix: cell (row A, column B) holds A's figure against B."""
    names = a.names
    m = pd.DataFrame(index=names, columns=names, dtype=float)
    for r in a.summary.itertuples(index=False):
        m.loc[r.strategy, r.opponent] = getattr(r, figure)
    return m
