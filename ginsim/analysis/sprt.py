"""Sequential probability ratio test (SPRT): stop a match as soon as the answer is known.

The unit is a duplicate deal pair: one deck played twice with the seats swapped. Each
hand is scored from the side of A (the match's first strategy): 1 if A won it (``winner``
is A's seat ``seat_a``; a forfeit by B counts), 0 if B won it, ½ otherwise (a draw, R23).
A pair's score is the mean of its two hands, so a pair is one of five outcomes

    0 (both lost) · ¼ (one lost, one drawn) · ½ (both drawn, or one won and one lost)
    · ¾ (one won, one drawn) · 1 (both won)

counted as the pentanomial ``[n0, n1, n2, n3, n4]``. The Elo model is logistic Elo of
the per-hand score: an expected score ``s`` is ``400·log10(s / (1 − s))`` Elo, so the mean
pair score estimates A's score and its Elo against B.

The test is the generalized SPRT used by chess engine testing (Fishtest's
``LLR_logistic``, after M. Van den Bergh): H0 says A's score is ``L(elo0)``, H1 says
``L(elo1)`` (``L`` the logistic curve). Its log-likelihood ratio is
``N · Σ pᵢ · ln(p1ᵢ / p0ᵢ)``, where ``p`` is the empirical distribution of the N pairs over
the five outcomes (an empty cell counts as 0.001 pairs, Fishtest's regularization) and
``p0``, ``p1`` are the maximum-likelihood distributions on the same outcomes whose mean
is ``L(elo0)``, ``L(elo1)``: ``pᵢ / (1 + λ·(xᵢ − s))`` with λ solving the constraint. The
test accepts H1 once the LLR reaches ``ln((1 − β) / α)`` and H0 once it falls to
``ln(β / (1 − α))``.

``SPRT`` is a ``StopRule`` of ginsim.run.sequential, which plays the chunks and reads
them in order, so the decision is the same whatever ``--jobs`` or the backend.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ginsim.errors import RunError
from ginsim.run.records import chunk_files, chunk_path, read_chunk

if TYPE_CHECKING:
    import pandas as pd

    from ginsim.run.plan import RunPlan

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The pair score of each pentanomial outcome (A's mean score over the two hands)."""
OUTCOME_NAMES = ("LL", "LD", "DD+WL", "WD", "WW")
EPSILON = 1e-3  # pairs counted in an empty cell (Fishtest's regularization)
SPRT_CHUNK = 100
"""Deals (so 200 hands) per chunk of an SPRT run unless ``--chunk`` says otherwise:
small, so the test can stop soon after it decides."""
Z95 = 1.959963984540054
LOG_COLUMNS = ["deal", "seat_a", "winner"]
H0_ACCEPTED = "H0 accepted"
H1_ACCEPTED = "H1 accepted"
UNDECIDED = "no decision"


class SPRTError(RunError):
    """A ``--sprt`` text that cannot be used."""


# -- the statistics ----------------------------------------------------------------------
def logistic(elo: float) -> float:
    """Expected score at ``elo`` logistic Elo."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(score: float) -> float:
    """Logistic Elo of an expected score (±inf at 1 and 0, nan outside [0, 1])."""
    if not 0.0 <= score <= 1.0 or math.isnan(score):
        return math.nan
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR bounds (lower: accept H0, upper: accept H1)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def regularize(counts: Sequence[float]) -> list[float]:
    """Counts with every empty cell set to ``EPSILON``."""
    return [float(c) if c > 0 else EPSILON for c in counts]


def mle_expected(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution on ``values`` closest in likelihood to ``probs`` whose mean is ``s``:
    ``probs[i] / (1 + λ·(values[i] − s))``, λ found by bisection on the secular equation
    ``Σ probs[i]·(values[i] − s) / (1 + λ·(values[i] − s)) = 0`` (its left side falls with λ).
    Needs ``min(values) < s < max(values)`` and every prob > 0."""
    d = [v - s for v in values]
    lo, hi = -1.0 / max(d), -1.0 / min(d)  # the poles: 1 + λ·d must stay > 0

    def f(lam: float) -> float:
        return sum(p * di / (1.0 + lam * di) for p, di in zip(probs, d, strict=True))

    while hi - lo > 1e-15:
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = 0.5 * (lo + hi)
    return [p / (1.0 + lam * di) for p, di in zip(probs, d, strict=True)]


def llr(counts: Sequence[float], s0: float, s1: float, values: Sequence[float] = PAIR_SCORES) -> float:
    """Generalized log-likelihood ratio of mean score ``s1`` against ``s0`` for ``counts``
    observations of ``values`` (already regularized: every count > 0)."""
    n = float(sum(counts))
    probs = [c / n for c in counts]
    p0 = mle_expected(values, probs, s0)
    p1 = mle_expected(values, probs, s1)
    return n * sum(p * math.log(b / a) for p, a, b in zip(probs, p0, p1, strict=True))


def llr_logistic(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The pentanomial GSPRT LLR of H1 (``elo1``) against H0 (``elo0``), logistic Elo."""
    return llr(regularize(counts), logistic(elo0), logistic(elo1))


def llr_normal(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The normal approximation of the same LLR: ``N·(s1 − s0)·(2ŝ − s0 − s1) / (2σ̂²)``,
    ŝ and σ̂² the mean and variance of the (regularized) pair scores."""
    c = regularize(counts)
    n = sum(c)
    mean = sum(ci * x for ci, x in zip(c, PAIR_SCORES, strict=True)) / n
    var = sum(ci * (x - mean) ** 2 for ci, x in zip(c, PAIR_SCORES, strict=True)) / n
    s0, s1 = logistic(elo0), logistic(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def elo_estimate(counts: Sequence[float]) -> tuple[float, float, float]:
    """A's logistic Elo from the mean pair score, with a 95% interval (mean ± 1.96·SE over
    pairs, each end put through the logistic transform); nan without pairs."""
    n = float(sum(counts))
    if n <= 0:
        return math.nan, math.nan, math.nan
    mean = sum(c * x for c, x in zip(counts, PAIR_SCORES, strict=True)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PAIR_SCORES, strict=True)) / n
    half = Z95 * math.sqrt(var / n)
    return elo_of(mean), elo_of(max(0.0, mean - half)), elo_of(min(1.0, mean + half))


def pentanomial(log: Mapping[str, Any]) -> np.ndarray:
    """The pentanomial counts of hand-log rows (columns ``deal``, ``seat_a``, ``winner``;
    both hands of each deal present): how many deal pairs A scored 0, ¼, ½, ¾, 1 in."""
    deal = np.asarray(log["deal"], dtype=np.int64)
    if len(deal) == 0:
        return np.zeros(5, dtype=np.int64)
    seat_a = np.asarray(log["seat_a"], dtype=np.int64)
    winner = np.asarray(log["winner"], dtype=np.int64)
    half_points = np.where(winner == seat_a, 2, np.where(winner < 0, 1, 0))  # 2·score of one hand
    _, inverse, sizes = np.unique(deal, return_inverse=True, return_counts=True)
    if (sizes != 2).any():
        raise RunError("the SPRT needs both hands of every deal pair (duplicate deals)")
    pair = np.bincount(inverse, weights=half_points).astype(np.int64)  # 0..4
    return np.bincount(pair, minlength=5).astype(np.int64)


# -- the test ----------------------------------------------------------------------------
@dataclass(frozen=True)
class SPRT:
    """H0: A is ``elo0`` logistic Elo stronger than B; H1: ``elo1``; error rates α, β."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            v = getattr(self, name)
            if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v):
                raise SPRTError(f"--sprt: {name} must be a finite number, not {v!r}")
        if self.elo1 <= self.elo0:
            raise SPRTError(f"--sprt: elo1 ({self.elo1:g}) must be greater than elo0 ({self.elo0:g})")
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            if not 0 < v < 1:
                raise SPRTError(f"--sprt: {name} must be between 0 and 1 (exclusive), not {v:g}")
        if self.alpha + self.beta >= 1:
            raise SPRTError(f"--sprt: alpha + beta must be below 1, not {self.alpha + self.beta:g}")
        if abs(self.elo0) > 2000 or abs(self.elo1) > 2000:
            raise SPRTError("--sprt: elo0 and elo1 must lie within ±2000")

    @classmethod
    def parse(cls, text: str) -> SPRT:
        """``elo0=0,elo1=5[,alpha=0.05,beta=0.05]``; SPRTError says what is wrong."""
        keys = ("elo0", "elo1", "alpha", "beta")
        values: dict[str, float] = {}
        for item in text.split(","):
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep or not key or not value.strip():
                raise SPRTError(f"--sprt: expected elo0=E0,elo1=E1[,alpha=A,beta=B], not {text!r}")
            if key not in keys:
                raise SPRTError(f"--sprt: unknown key {key!r} (keys: {', '.join(keys)})")
            if key in values:
                raise SPRTError(f"--sprt: {key} is given twice")
            try:
                values[key] = float(value)
            except ValueError:
                raise SPRTError(f"--sprt: {key} must be a number, not {value.strip()!r}") from None
        missing = [k for k in ("elo0", "elo1") if k not in values]
        if missing:
            raise SPRTError(f"--sprt: {' and '.join(missing)} missing (e.g. --sprt elo0=0,elo1=5)")
        return cls(**values)

    @property
    def lower(self) -> float:
        return bounds(self.alpha, self.beta)[0]

    @property
    def upper(self) -> float:
        return bounds(self.alpha, self.beta)[1]

    def hypotheses(self) -> str:
        return f"elo0={self.elo0:g}, elo1={self.elo1:g}, alpha={self.alpha:g}, beta={self.beta:g}"

    def llr(self, counts: Sequence[float]) -> float:
        return llr_logistic(counts, self.elo0, self.elo1) if sum(counts) > 0 else 0.0

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
        elo, lo, hi = elo_estimate(counts)
        pairs = int(sum(counts))
        return {
            "test": "sprt",
            "model": "pentanomial GSPRT on duplicate deal pairs, logistic Elo of the per-hand score",
            "hypotheses": self.hypotheses(),
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "decision": decision,
            "stopped": decision != UNDECIDED,
            "chunks": chunks,
            "pairs": pairs,
            "hands": 2 * pairs,
            "pentanomial": [int(c) for c in counts],
            "llr": round(value, 6),
            "lower": round(self.lower, 6),
            "upper": round(self.upper, 6),
            "elo": _json_float(elo),
            "elo_lo": _json_float(lo),
            "elo_hi": _json_float(hi),
        }

    @classmethod
    def from_result(cls, result: Mapping[str, Any]) -> SPRT:
        return cls(float(result["elo0"]), float(result["elo1"]), float(result["alpha"]), float(result["beta"]))

    # -- the runner's StopRule (ginsim.run.sequential) ----------------------------------
    def check_plan(self, plan: RunPlan) -> None:
        check_plan(plan)

    def empty_counts(self) -> np.ndarray:
        return np.zeros(5, dtype=np.int64)

    def chunk_counts(self, arrays: Mapping[str, np.ndarray]) -> np.ndarray:
        return pentanomial(arrays)

    def file_counts(self, path: Path) -> np.ndarray:
        return read_chunk_counts(path)

    def decided(self, counts: np.ndarray) -> bool:
        return self.decide(self.llr(counts)) != UNDECIDED

    def status(self, counts: np.ndarray) -> str:
        return f"LLR {self.llr(counts):+.2f} [{self.lower:.2f}, {self.upper:.2f}]"


def check_plan(plan: RunPlan) -> None:
    if plan.kind != "match" or len(plan.pairings) != 1:
        raise SPRTError("--sprt is for a match of two strategies")
    if plan.mode != "hands":
        raise SPRTError("--sprt works on duplicate deal pairs: use --hands (the most to play), not --games")
    if not plan.duplicate:
        raise SPRTError("--sprt scores duplicate deal pairs: drop --no-duplicate")


def read_chunk_counts(path: Path) -> np.ndarray:
    return pentanomial(read_chunk(path, LOG_COLUMNS))


def trace(folder: Path, result: Mapping[str, Any]) -> pd.DataFrame:
    """The test after each chunk of a run folder, in chunk order: chunk, hands, pairs,
    llr, elo, elo_lo, elo_hi (what the LLR chart and sprt.csv show)."""
    import pandas as pd

    test = SPRT.from_result(result)
    counts = np.zeros(5, dtype=np.int64)
    rows = [{"chunk": -1, "hands": 0, "pairs": 0, "llr": 0.0, "elo": math.nan, "elo_lo": math.nan, "elo_hi": math.nan}]
    for i, path in enumerate(chunk_files(folder)):
        if path.name != chunk_path(folder, 0, i).name:
            break  # a gap: only the contiguous prefix counts
        counts = counts + read_chunk_counts(path)
        elo, lo, hi = elo_estimate(counts)
        pairs = int(counts.sum())
        rows.append(
            {
                "chunk": i,
                "hands": 2 * pairs,
                "pairs": pairs,
                "llr": test.llr(counts),
                "elo": elo,
                "elo_lo": lo,
                "elo_hi": hi,
            }
        )
    return pd.DataFrame(rows)


def summary_columns(result: Mapping[str, Any]) -> dict[str, Any]:
    """The ``sprt_*`` columns that summary.csv gives the row of A (the tested strategy)."""
    return {
        "sprt_elo0": result["elo0"],
        "sprt_elo1": result["elo1"],
        "sprt_alpha": result["alpha"],
        "sprt_beta": result["beta"],
        "sprt_decision": result["decision"],
        "sprt_pairs": result["pairs"],
        "sprt_llr": result["llr"],
        "sprt_lower": result["lower"],
        "sprt_upper": result["upper"],
        "sprt_elo": as_float(result["elo"]),
        "sprt_elo_lo": as_float(result["elo_lo"]),
        "sprt_elo_hi": as_float(result["elo_hi"]),
        "sprt_pentanomial": " ".join(str(c) for c in result.get("pentanomial", [])),
    }


def describe(result: Mapping[str, Any]) -> str:
    """The test's outcome in one line (terminal digest)."""
    return (
        f"SPRT ({result['hypotheses']}): {result['decision']} after {result['hands']:,} hands "
        f"({result['pairs']:,} deal pairs); LLR {result['llr']:.3f} in [{result['lower']:.3f}, "
        f"{result['upper']:.3f}]; Elo {as_float(result['elo']):+.1f} "
        f"(95% {as_float(result['elo_lo']):+.1f} to {as_float(result['elo_hi']):+.1f})"
    )


def _json_float(v: float) -> float | str | None:
    """A float for strict JSON: infinities as ``"inf"``/``"-inf"``, nan as null."""
    if math.isnan(v):
        return None
    return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")


def as_float(v: Any) -> float:
    """A float back from the manifest (null is nan, "inf" is inf)."""
    return math.nan if v is None else float(v)
