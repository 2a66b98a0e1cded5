"""Sequential probability ratio test (SPRT): stop a match as soon as the answer is known.

The unit is a duplicate deal pair: one deck played twice with the seats swapped. The test
is on points, the figure that decides strength in hand mode (docs/METRICS.md):
a pair's value ``x`` is A's net points per hand over its two hands (A the match's first
strategy: + what A scored, − what B scored, a forfeit at its forfeit points), so the mean
of ``x`` over pairs is A's ``points_per_hand`` against B.

H0 says A's mean points per hand against B is ``p0``, H1 says ``p1`` (``p1 > p0``). Pair
values are independent and, summed over hundreds of pairs, close to normal, so the test
is the normal-approximation generalized SPRT: its log-likelihood ratio after N pairs with
mean x̄ and variance σ̂² is

    LLR = N · (p1 − p0) · (2·x̄ − p0 − p1) / (2·σ̂²)

(the log ratio of the two normal likelihoods with the variance estimated). It accepts H1
once the LLR reaches ``ln((1 − β) / α)`` and H0 once it falls to ``ln(β / (1 − α))``.
A chunk is reduced to three sums (pairs, Σx, Σx²), so the state is exact and small.

``SPRT`` is a ``StopRule`` of ginsim.run.sequential, which plays the chunks and reads
them in order, so the decision is the same whatever ``--jobs`` or the backend.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ginsim.analysis.stats import Z95
from ginsim.errors import RunError
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import RunKind, chunk_path, read_chunk

if TYPE_CHECKING:
    import pandas as pd

SPRT_CHUNK = 100
"""Deals (so 200 hands) per chunk of an SPRT run unless ``--chunk`` says otherwise:
small, so the test can stop soon after it decides."""
LOG_COLUMNS = ["deal", "seat_a", "winner", "points"]
H0_ACCEPTED = "H0 accepted"
H1_ACCEPTED = "H1 accepted"
UNDECIDED = "no decision"
MIN_VARIANCE = 1e-9
"""Floor of the pair values' variance (only reached when every pair scored alike)."""
KEYS = ("p0", "p1", "alpha", "beta")
LEGACY_KEYS = ("elo0", "elo1")


class SPRTError(RunError):
    """A ``--sprt`` text that cannot be used."""


# -- the statistics ----------------------------------------------------------------------
def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR bounds (lower: accept H0, upper: accept H1)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def moments(counts: Sequence[float]) -> tuple[float, float, float]:
    """(pairs, mean, variance over pairs, the 1/N form) of the sums (N, Σx, Σx²)."""
    n, sx, sxx = (float(c) for c in counts)
    if n <= 0:
        return 0.0, math.nan, math.nan
    mean = sx / n
    return n, mean, max(sxx / n - mean * mean, 0.0)


def llr_normal(counts: Sequence[float], p0: float, p1: float) -> float:
    """The normal GSPRT log-likelihood ratio of mean ``p1`` against ``p0`` for the pair
    sums ``counts`` = (N, Σx, Σx²): ``N·(p1 − p0)·(2x̄ − p0 − p1) / (2σ̂²)``; 0 below 2 pairs."""
    n, mean, var = moments(counts)
    if n < 2:
        return 0.0
    return n * (p1 - p0) * (2 * mean - p0 - p1) / (2 * max(var, MIN_VARIANCE))


def points_estimate(counts: Sequence[float]) -> tuple[float, float, float]:
    """A's points per hand against B (the mean pair value) with a 95% interval, mean ±
    1.96·SE over pairs (SE with the N − 1 variance); nan without pairs."""
    n, mean, var = moments(counts)
    if n <= 0:
        return math.nan, math.nan, math.nan
    if n < 2:
        return mean, math.nan, math.nan
    half = Z95 * math.sqrt(var * n / (n - 1) / n)
    return mean, mean - half, mean + half


def pair_sums(log: Mapping[str, Any]) -> np.ndarray:
    """(pairs, Σx, Σx²) of hand-log rows (columns ``deal``, ``seat_a``, ``winner``,
    ``points``; both hands of each deal present), x a pair's mean net points for A."""
    deal = np.asarray(log["deal"], dtype=np.int64)
    if len(deal) == 0:
        return np.zeros(3, dtype=np.float64)
    seat_a = np.asarray(log["seat_a"], dtype=np.int64)
    winner = np.asarray(log["winner"], dtype=np.int64)
    points = np.asarray(log["points"], dtype=np.float64)
    net = np.where(winner == seat_a, points, np.where(winner < 0, 0.0, -points))
    _, inverse, sizes = np.unique(deal, return_inverse=True, return_counts=True)
    if (sizes != 2).any():
        raise RunError("the SPRT needs both hands of every deal pair (duplicate deals)")
    x = np.bincount(inverse, weights=net) / 2.0
    return np.array([float(len(x)), float(x.sum()), float((x * x).sum())])


# -- the test ----------------------------------------------------------------------------
@dataclass(frozen=True)
class SPRT:
    """H0: A nets ``p0`` points per hand against B; H1: ``p1``; error rates α, β."""

    p0: float = 0.0
    p1: float = 0.5
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in KEYS:
            v = getattr(self, name)
            if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v):
                raise SPRTError.about("{sprt}: {name} must be a finite number, not {v!r}", name=name, v=v)
        if self.p1 <= self.p0:
            raise SPRTError.about("{sprt}: p1 ({p1:g}) must be greater than p0 ({p0:g})", p1=self.p1, p0=self.p0)
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            if not 0 < v < 1:
                raise SPRTError.about("{sprt}: {name} must be between 0 and 1 (exclusive), not {v:g}", name=name, v=v)
        if self.alpha + self.beta >= 1:
            raise SPRTError.about("{sprt}: alpha + beta must be below 1, not {v:g}", v=self.alpha + self.beta)
        if abs(self.p0) > 200 or abs(self.p1) > 200:
            raise SPRTError.about("{sprt}: p0 and p1 (points per hand) must lie within ±200")

    @classmethod
    def parse(cls, text: str) -> SPRT:
        """``p0=0,p1=0.5[,alpha=0.05,beta=0.05]`` (points per hand); SPRTError says what
        is wrong, and the old hand-win keys ``elo0``/``elo1`` are refused by name."""
        values: dict[str, float] = {}
        for item in text.split(","):
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep or not key or not value.strip():
                raise SPRTError.about(
                    "{sprt}: expected p0=P0,p1=P1[,alpha=A,beta=B] (points per hand), not {text!r}", text=text
                )
            if key in LEGACY_KEYS:
                raise SPRTError.about(
                    "{sprt}: {key} is gone: the test is on points per hand now, not hand-win Elo "
                    "(give p0=P0,p1=P1, e.g. {sprt} p0=0,p1=0.5; docs/sprt.md)",
                    key=key,
                )
            if key not in KEYS:
                raise SPRTError.about("{sprt}: unknown key {key!r} (keys: {keys})", key=key, keys=", ".join(KEYS))
            if key in values:
                raise SPRTError.about("{sprt}: {key} is given twice", key=key)
            try:
                values[key] = float(value)
            except ValueError:
                raise SPRTError.about("{sprt}: {key} must be a number, not {v!r}", key=key, v=value.strip()) from None
        missing = [k for k in ("p0", "p1") if k not in values]
        if missing:
            raise SPRTError.about("{sprt}: {missing} missing (e.g. {sprt} p0=0,p1=0.5)", missing=" and ".join(missing))
        return cls(**values)

    @property
    def lower(self) -> float:
        return bounds(self.alpha, self.beta)[0]

    @property
    def upper(self) -> float:
        return bounds(self.alpha, self.beta)[1]

    def hypotheses(self) -> str:
        return f"p0={self.p0:g}, p1={self.p1:g} points per hand, alpha={self.alpha:g}, beta={self.beta:g}"

    def llr(self, counts: Sequence[float]) -> float:
        return llr_normal(counts, self.p0, self.p1)

    def decide(self, value: float) -> str:
        if value >= self.upper:
            return H1_ACCEPTED
        if value <= self.lower:
            return H0_ACCEPTED
        return UNDECIDED

    def evaluate(self, counts: Sequence[float], chunks: int = 0) -> dict[str, Any]:
        """The state of the test after ``counts`` (what the manifest keeps as "stopped")."""
        value = self.llr(counts)
        decision = self.decide(value)
        pts, lo, hi = points_estimate(counts)
        pairs = int(counts[0])
        return {
            "test": "sprt",
            "model": "normal GSPRT on the mean net points per hand of duplicate deal pairs",
            "hypotheses": self.hypotheses(),
            "p0": self.p0,
            "p1": self.p1,
            "alpha": self.alpha,
            "beta": self.beta,
            "decision": decision,
            "stopped": decision != UNDECIDED,
            "chunks": chunks,
            "pairs": pairs,
            "hands": 2 * pairs,
            "sums": [float(c) for c in counts],
            "llr": round(value, 6),
            "lower": round(self.lower, 6),
            "upper": round(self.upper, 6),
            "points": _json_float(pts),
            "points_lo": _json_float(lo),
            "points_hi": _json_float(hi),
        }

    @classmethod
    def from_result(cls, result: Mapping[str, Any]) -> SPRT:
        return cls(float(result["p0"]), float(result["p1"]), float(result["alpha"]), float(result["beta"]))

    # -- the runner's StopRule (ginsim.run.sequential) ----------------------------------
    def check_plan(self, plan: PlanShape) -> None:
        check_plan(plan)

    def empty_counts(self) -> np.ndarray:
        return np.zeros(3, dtype=np.float64)

    def chunk_counts(self, arrays: Mapping[str, np.ndarray]) -> np.ndarray:
        return pair_sums(arrays)

    def file_counts(self, path: Path) -> np.ndarray:
        return read_chunk_counts(path)

    def decided(self, counts: np.ndarray) -> bool:
        return self.decide(self.llr(counts)) != UNDECIDED

    def status(self, counts: np.ndarray) -> str:
        return f"LLR {self.llr(counts):+.2f} [{self.lower:.2f}, {self.upper:.2f}]"


def is_points_test(result: Mapping[str, Any]) -> bool:
    """Whether a manifest's test is this one (runs of earlier versions tested hand wins)."""
    return "p0" in result and "p1" in result


class PlanShape(Protocol):
    """What ``check_plan`` reads of a run's plan (a ``ginsim.run.runplan.RunPlan``, which the
    analysis does not import: it reads runs through ``ginsim.runfolder`` only)."""

    @property
    def kind(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def duplicate(self) -> bool: ...
    @property
    def pairings(self) -> Sized: ...


def check_plan(plan: PlanShape) -> None:
    if plan.kind != RunKind.MATCH or len(plan.pairings) != 1:
        raise SPRTError.about("{sprt} is for a match of two strategies")
    if plan.mode != "hands":
        raise SPRTError.about("{sprt} works on duplicate deal pairs: use {hands} (the most to play), not {games}")
    if not plan.duplicate:
        raise SPRTError.about("{sprt} scores duplicate deal pairs: {duplicate} must stay on")


def read_chunk_counts(path: Path) -> np.ndarray:
    return pair_sums(read_chunk(path, LOG_COLUMNS))


def trace(folder: Path, result: Mapping[str, Any]) -> pd.DataFrame | None:
    """The test after each chunk of a run folder, in chunk order: chunk, hands, pairs,
    llr, points, points_lo, points_hi (what the LLR chart and sprt.csv show); None for a
    run whose test was on hand wins (in earlier versions)."""
    import pandas as pd

    if not is_points_test(result):
        return None
    test = SPRT.from_result(result)
    counts = test.empty_counts()
    nan = math.nan
    rows = [{"chunk": -1, "hands": 0, "pairs": 0, "llr": 0.0, "points": nan, "points_lo": nan, "points_hi": nan}]
    for i, path in enumerate(chunk_files(folder)):
        if path.name != chunk_path(folder, 0, i).name:
            break  # a gap: only the contiguous prefix counts
        counts = counts + read_chunk_counts(path)
        pts, lo, hi = points_estimate(counts)
        pairs = int(counts[0])
        rows.append(
            {
                "chunk": i,
                "hands": 2 * pairs,
                "pairs": pairs,
                "llr": test.llr(counts),
                "points": pts,
                "points_lo": lo,
                "points_hi": hi,
            }
        )
    return pd.DataFrame(rows)


def summary_columns(result: Mapping[str, Any]) -> dict[str, Any]:
    """The ``sprt_*`` columns that summary.csv gives the row of A (the tested strategy)."""
    if not is_points_test(result):
        return {"sprt_decision": result.get("decision", "")}
    return {
        "sprt_p0": result["p0"],
        "sprt_p1": result["p1"],
        "sprt_alpha": result["alpha"],
        "sprt_beta": result["beta"],
        "sprt_decision": result["decision"],
        "sprt_pairs": result["pairs"],
        "sprt_llr": result["llr"],
        "sprt_lower": result["lower"],
        "sprt_upper": result["upper"],
        "sprt_points": as_float(result["points"]),
        "sprt_points_lo": as_float(result["points_lo"]),
        "sprt_points_hi": as_float(result["points_hi"]),
    }


def describe(result: Mapping[str, Any]) -> str:
    """The test's outcome in one line (terminal digest)."""
    if not is_points_test(result):
        return f"SPRT on hand wins (a run of an earlier version): {result.get('decision', '')}"
    return (
        f"SPRT ({result['hypotheses']}): {result['decision']} after {result['hands']:,} hands "
        f"({result['pairs']:,} deal pairs); LLR {result['llr']:.3f} in [{result['lower']:.3f}, "
        f"{result['upper']:.3f}]; points per hand {as_float(result['points']):+.2f} "
        f"(95% {as_float(result['points_lo']):+.2f} to {as_float(result['points_hi']):+.2f})"
    )


def _json_float(v: float) -> float | str | None:
    """A float for strict JSON: infinities as ``"inf"``/``"-inf"``, nan as null."""
    if math.isnan(v):
        return None
    return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")


def as_float(v: Any) -> float:
    """A float back from the manifest (null is nan, "inf" is inf)."""
    return math.nan if v is None else float(v)
