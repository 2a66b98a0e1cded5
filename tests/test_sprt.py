"""The sequential probability ratio test (issue 8): the LLR against hand calculations, the
decision and the hand log independent of --jobs, resume, outputs and bad --sprt text."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ginsim.analysis.sprt import (
    PAIR_SCORES,
    SPRT,
    SPRTError,
    elo_estimate,
    elo_of,
    llr,
    llr_logistic,
    llr_normal,
    logistic,
    pentanomial,
    regularize,
)
from ginsim.run.records import chunk_files

KEY = ["pairing", "deal", "copy", "game_hand"]


def hand_log(folder: Path) -> pd.DataFrame:
    df = pd.concat([pd.read_parquet(f) for f in chunk_files(folder)], ignore_index=True)
    df["outcome"] = df["outcome"].astype(str)
    df["forfeit_reason"] = df["forfeit_reason"].astype(str)
    return df.sort_values(KEY, ignore_index=True)


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


# -- the statistics, by hand ---------------------------------------------------------------
def test_bounds_are_wald_bounds() -> None:
    t = SPRT(0, 5, alpha=0.05, beta=0.1)
    assert t.lower == pytest.approx(math.log(0.1 / 0.95))
    assert t.upper == pytest.approx(math.log(0.9 / 0.05))
    assert SPRT(0, 5).upper == pytest.approx(math.log(19)) == pytest.approx(-SPRT(0, 5).lower)


def test_logistic_elo() -> None:
    assert logistic(0) == 0.5
    assert logistic(400) == pytest.approx(10 / 11)
    assert elo_of(10 / 11) == pytest.approx(400)
    assert elo_of(1.0) == math.inf and elo_of(0.0) == -math.inf


def test_llr_on_two_outcomes_is_the_classic_binomial_sprt() -> None:
    # 30 losses and 70 wins: the mean constraint fixes the distribution, so the GSPRT is the
    # textbook SPRT: N·[p·ln(s1/s0) + (1−p)·ln((1−s1)/(1−s0))]
    s0, s1 = logistic(0), logistic(50)
    hand = 70 * math.log(s1 / s0) + 30 * math.log((1 - s1) / (1 - s0))
    assert llr([30, 70], s0, s1, values=(0.0, 1.0)) == pytest.approx(hand, rel=1e-9)


def _max_dual(counts: list[float], s: float) -> float:
    """max over λ of Σ cᵢ·ln(1 + λ·(xᵢ − s)), by golden-section search: the constrained
    maximum log-likelihood is Σ cᵢ·ln(pᵢ) minus this (an independent route to the LLR)."""
    d = [x - s for x in PAIR_SCORES]
    lo, hi = -1 / max(d) + 1e-12, -1 / min(d) - 1e-12

    def g(lam: float) -> float:
        return sum(c * math.log(1 + lam * di) for c, di in zip(counts, d, strict=True))

    r = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        a, b = hi - r * (hi - lo), lo + r * (hi - lo)
        if g(a) > g(b):
            hi = b
        else:
            lo = a
    return g((lo + hi) / 2)


@pytest.mark.parametrize(
    "counts",
    [[12, 30, 61, 35, 14], [3, 40, 100, 41, 2], [50, 0, 10, 0, 80], [0, 0, 37, 0, 0], [0, 0, 0, 0, 25]],
)
@pytest.mark.parametrize(("elo0", "elo1"), [(0, 5), (-10, 20), (0, 100)])
def test_pentanomial_llr_against_the_likelihood_maximized_by_hand(counts, elo0, elo1) -> None:
    c = regularize(counts)
    s0, s1 = logistic(elo0), logistic(elo1)
    expected = _max_dual(c, s0) - _max_dual(c, s1)  # LL(s1) − LL(s0)
    assert llr_logistic(counts, elo0, elo1) == pytest.approx(expected, rel=1e-6, abs=1e-9)


def test_pentanomial_llr_numbers() -> None:
    # worked cases: a mean exactly at s0 leaves H0's distribution unchanged (λ = 0); all
    # pairs won at 0/5 Elo is the binomial-like ratio ln(s1/s0) per pair (Fishtest's 1e-3 prior)
    counts = [10, 20, 40, 20, 10]  # mean 0.5 = L(0)
    assert llr_logistic(counts, 0, 0.001) == pytest.approx(0.0, abs=1e-4)
    assert llr_logistic([0, 0, 0, 0, 100], 0, 5) == pytest.approx(100 * math.log(logistic(5) / 0.5), rel=2e-3)
    # large counts near the hypotheses: the exact LLR agrees with its normal approximation
    big = [1000, 4000, 10000, 4500, 1200]
    assert llr_logistic(big, 0, 5) == pytest.approx(llr_normal(big, 0, 5), rel=5e-3)
    assert llr_logistic(big, 0, 5) == pytest.approx(20.7482, abs=1e-3)
    # the normal approximation by hand: N·(s1 − s0)·(2ŝ − s0 − s1) / (2σ²)
    n = sum(big)
    mean = sum(c * x for c, x in zip(big, PAIR_SCORES, strict=True)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(big, PAIR_SCORES, strict=True)) / n
    s0, s1 = 0.5, logistic(5)
    assert llr_normal(big, 0, 5) == pytest.approx(n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var))


def test_elo_estimate_by_hand() -> None:
    # mean pair score (0·1 + ¼·2 + ½·3 + ¾·4 + 1·5) / 15 = 2/3, which is 400·log10(2) Elo
    elo, lo, hi = elo_estimate([1, 2, 3, 4, 5])
    assert elo == pytest.approx(400 * math.log10(2))
    var = sum(c * (x - 2 / 3) ** 2 for c, x in zip([1, 2, 3, 4, 5], PAIR_SCORES, strict=True)) / 15
    half = 1.959963984540054 * math.sqrt(var / 15)
    assert lo == pytest.approx(elo_of(2 / 3 - half)) and hi == pytest.approx(elo_of(2 / 3 + half))
    assert elo_estimate([0, 0, 9, 0, 0]) == (0.0, 0.0, 0.0)
    assert all(math.isnan(v) for v in elo_estimate([0, 0, 0, 0, 0]))


def test_pentanomial_counts_from_the_log() -> None:
    # deal: (seat_a, winner) of its two hands; A wins where winner == seat_a, -1 is a draw
    rows = {
        0: [(0, 0), (1, 1)],  # won both: WW
        1: [(0, 1), (1, 0)],  # lost both: LL
        2: [(0, 0), (1, 0)],  # won one, lost one: ½
        3: [(0, -1), (1, -1)],  # two draws: ½
        4: [(0, -1), (1, 1)],  # draw, win: ¾
        5: [(1, -1), (0, 1)],  # draw, loss: ¼
        6: [(1, 1), (0, 0)],  # WW again, A in seat 1 first
    }
    log = {"deal": [], "seat_a": [], "winner": []}
    for deal, hands in rows.items():
        for seat_a, winner in hands:
            log["deal"].append(deal)
            log["seat_a"].append(seat_a)
            log["winner"].append(winner)
    assert pentanomial(log).tolist() == [1, 1, 2, 1, 2]
    with pytest.raises(Exception, match="both hands"):
        pentanomial({"deal": [0], "seat_a": [0], "winner": [0]})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("elo0=5,elo1=0", "elo1 (0) must be greater than elo0 (5)"),
        ("elo0=0,elo1=0", "must be greater"),
        ("elo0=0,elo1=5,alpha=1.5", "alpha must be between 0 and 1"),
        ("elo0=0,elo1=5,beta=0", "beta must be between 0 and 1"),
        ("elo0=0,elo1=5,gamma=1", "unknown key 'gamma'"),
        ("elo0=0", "elo1 missing"),
        ("elo0=x,elo1=5", "elo0 must be a number"),
        ("elo0=0,elo1=5,elo1=6", "given twice"),
        ("elo0 0 elo1 5", "expected elo0=E0,elo1=E1"),
        ("elo0=0,elo1=nan", "finite number"),
    ],
)
def test_bad_sprt_text(text: str, message: str) -> None:
    with pytest.raises(SPRTError, match=message.replace("(", r"\(").replace(")", r"\)")):
        SPRT.parse(text)


def test_parse() -> None:
    assert SPRT.parse("elo0=0,elo1=5") == SPRT(0, 5, 0.05, 0.05)
    assert SPRT.parse(" elo1=10 , elo0=-2,alpha=0.1,beta=0.2") == SPRT(-2, 10, 0.1, 0.2)


# -- the command ------------------------------------------------------------------------------
BASE = ["match", "--seed", "3", "-q"]


@pytest.mark.parametrize(
    "args",
    [
        ["--sprt", "elo0=5,elo1=0"],
        ["--sprt", "elo0=0,elo1=5,alpha=2"],
        ["--sprt", "elo0=0,elo1=5,gamma=1"],
        ["--sprt", "elo0=0,elo1=5", "--games", "10"],
        ["--sprt", "elo0=0,elo1=5", "--no-duplicate"],
    ],
)
def test_bad_sprt_option_is_one_line_and_exit_2(args: list[str], run_cli, tmp_path: Path) -> None:
    r = run_cli("match", "simple", "random", *args, "--out", str(tmp_path / "x"))
    assert r.code == 2
    assert r.err.startswith("ginsim: error: ") and r.err.count("\n") == 1, r.err
    assert "sprt" in r.err.lower()
    assert not (tmp_path / "x").exists()


def test_simple_against_random_accepts_h1_within_a_few_hundred_hands(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "h1"
    r = run_cli("match", "simple", "random", "--sprt", "elo0=0,elo1=5", "--jobs", "1", "--out", str(out))
    assert r.code == 0, r.err
    m = manifest(out)
    s = m["stopped"]
    assert m["status"] == "stopped" and s["decision"] == "H1 accepted"
    assert s["hands"] <= 1000 and s["llr"] >= s["upper"] == pytest.approx(math.log(19), abs=1e-6)
    assert s["hands"] == len(hand_log(out)) == 2 * s["pairs"] == 2 * sum(s["pentanomial"])
    assert s["pentanomial"] == pentanomial(hand_log(out)).tolist()
    assert float(s["elo"]) > 300
    # terminal digest, summary.csv, sprt.csv, report.md and the chart
    assert "SPRT (elo0=0, elo1=5, alpha=0.05, beta=0.05): H1 accepted after" in r.out
    summary = pd.read_csv(out / "summary.csv")
    a_row = summary[summary["strategy"] == "simple"].iloc[0]
    assert a_row["sprt_decision"] == "H1 accepted" and a_row["sprt_llr"] == pytest.approx(s["llr"], rel=1e-5)
    assert a_row["sprt_lower"] == pytest.approx(s["lower"], rel=1e-5) and a_row["sprt_pairs"] == s["pairs"]
    assert {"sprt_elo", "sprt_elo_lo", "sprt_elo_hi", "sprt_upper"} <= set(summary.columns)
    trace = pd.read_csv(out / "sprt.csv")
    assert trace["hands"].iloc[-1] == s["hands"] and trace["llr"].iloc[-1] == pytest.approx(s["llr"], rel=1e-5)
    assert (trace["llr"].iloc[1:-1] < s["upper"]).all()  # it stopped at the first chunk past the bound
    report = (out / "report.md").read_text()
    assert "## Sequential test" in report and "**H1 accepted**" in report
    assert "![sprt](charts/sprt.png)" in report and "log-likelihood ratio after each chunk" in report
    png = (out / "charts" / "sprt.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5000


def test_a_strategy_against_itself_accepts_h0(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "h0"
    r = run_cli("match", "simple", "simple", "--sprt", "elo0=0,elo1=20", "--jobs", "1", "--no-plots", "--out", str(out))
    assert r.code == 0, r.err
    s = manifest(out)["stopped"]
    assert s["decision"] == "H0 accepted" and s["llr"] <= s["lower"]
    assert s["hands"] <= 2000 and len(hand_log(out)) == s["hands"]
    assert float(s["elo_lo"]) < 0 < float(s["elo_hi"])
    assert "H0 accepted after" in r.out


def test_same_decision_hands_and_log_for_any_jobs(run_cli, tmp_path: Path) -> None:
    base = ["match", "simple", "simple", "--sprt", "elo0=0,elo1=20", "--chunk", "15", "--seed", "9", "-q", "--no-plots"]
    one = run_cli(*base, "--jobs", "1", "--out", str(tmp_path / "one"))
    two = run_cli(*base, "--jobs", "2", "--out", str(tmp_path / "two"))
    assert one.code == 0 and two.code == 0, one.err + two.err
    s1, s2 = manifest(tmp_path / "one")["stopped"], manifest(tmp_path / "two")["stopped"]
    assert s1["decision"] == s2["decision"] == "H0 accepted"
    assert s1 == s2 and s1["chunks"] >= 2  # a decision a few chunks in: --jobs 2 played past it
    assert [f.name for f in chunk_files(tmp_path / "one")] == [f.name for f in chunk_files(tmp_path / "two")]
    pd.testing.assert_frame_equal(hand_log(tmp_path / "one"), hand_log(tmp_path / "two"))
    assert len(chunk_files(tmp_path / "two")) == s2["chunks"]
    pd.testing.assert_frame_equal(
        pd.read_csv(tmp_path / "one" / "summary.csv"), pd.read_csv(tmp_path / "two" / "summary.csv")
    )


def test_resume_continues_the_test_on_the_existing_prefix(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "r"
    args = [
        "match",
        "simple",
        "random",
        "--sprt",
        "elo0=0,elo1=5",
        "--chunk",
        "40",
        "--jobs",
        "1",
        "-q",
        "--no-plots",
        "--out",
        str(out),
    ]
    assert run_cli(*args).code == 0
    first, log = manifest(out)["stopped"], hand_log(out)
    names = [f.name for f in chunk_files(out)]
    assert len(names) >= 3
    # a finished test reruns to the same decision without playing
    assert run_cli(*args).code == 0
    assert manifest(out)["stopped"] == first and manifest(out)["status"] == "stopped"
    # a gap (chunk 0) and a missing tail (the last chunk): replayed, same decision and log
    chunk_files(out)[0].unlink()
    chunk_files(out)[-1].unlink()
    assert run_cli(*args).code == 0
    assert manifest(out)["stopped"] == first and len(manifest(out)["resumed"]) == 2
    assert [f.name for f in chunk_files(out)] == names
    pd.testing.assert_frame_equal(hand_log(out), log)
    # looser bounds decide earlier on the same deals: the chunks past that point are deleted
    looser = [a if a != "elo0=0,elo1=5" else "elo0=0,elo1=50" for a in args]
    assert run_cli(*looser).code == 0
    s = manifest(out)["stopped"]
    assert s["decision"] == "H1 accepted" and s["chunks"] < first["chunks"]
    assert [f.name for f in chunk_files(out)] == names[: s["chunks"]]
    pd.testing.assert_frame_equal(hand_log(out), log.iloc[: s["hands"]].reset_index(drop=True))


def test_no_decision_within_the_budget(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "budget"
    r = run_cli(
        "match",
        "simple",
        "simple",
        "--sprt",
        "elo0=0,elo1=2",
        "--hands",
        "120",
        "--chunk",
        "20",
        "--jobs",
        "2",
        "--no-plots",
        "--out",
        str(out),
    )
    assert r.code == 0, r.err
    m = manifest(out)
    assert m["status"] == "complete" and m["stopped"]["decision"] == "no decision"
    assert m["stopped"]["hands"] == 120 == len(hand_log(out))
    assert "no decision after 120 hands" in r.out
    assert "**no decision**" in (out / "report.md").read_text()


def test_trace_is_the_llr_after_each_chunk_in_order(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "t"
    assert (
        run_cli(
            "match",
            "simple",
            "random",
            "--sprt",
            "elo0=0,elo1=5",
            "--chunk",
            "50",
            "--jobs",
            "1",
            "-q",
            "--no-plots",
            "--out",
            str(out),
        ).code
        == 0
    )
    trace = pd.read_csv(out / "sprt.csv")
    counts = np.zeros(5, dtype=np.int64)
    for i, f in enumerate(chunk_files(out)):
        counts += pentanomial(pd.read_parquet(f))
        assert trace["llr"].iloc[i + 1] == pytest.approx(llr_logistic(counts, 0, 5), rel=1e-5)
        assert trace["hands"].iloc[i + 1] == 100 * (i + 1)
