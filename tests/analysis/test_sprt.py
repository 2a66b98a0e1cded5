"""The sequential probability ratio test: the LLR against hand calculations, the
decision and the hand log independent of --jobs, resume, outputs and bad --sprt text."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from support.runs import hand_log

from ginsim.analysis.sprt import (
    SPRT,
    SPRTError,
    llr_normal,
    pair_sums,
    points_estimate,
)
from ginsim.runfolder.chunks import chunk_files


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def sums_of(values: list[float]) -> list[float]:
    return [len(values), sum(values), sum(v * v for v in values)]


# -- the statistics, by hand ---------------------------------------------------------------
def test_bounds_are_wald_bounds() -> None:
    t = SPRT(0, 0.5, alpha=0.05, beta=0.1)
    assert t.lower == pytest.approx(math.log(0.1 / 0.95))
    assert t.upper == pytest.approx(math.log(0.9 / 0.05))
    assert SPRT(0, 5).upper == pytest.approx(math.log(19)) == pytest.approx(-SPRT(0, 5).lower)


@pytest.mark.parametrize(
    "values", [[3.0, -1.5, 12.0, 0.0, -20.5, 7.0], [0.5, 0.5, 1.0, -0.5], [-30.0, 25.0, 40.0, -12.5, 1.0, 2.0, 3.0]]
)
@pytest.mark.parametrize(("p0", "p1"), [(0, 0.5), (-1, 2), (0, 10)])
def test_llr_is_the_normal_likelihood_ratio_with_the_variance_estimated(values, p0, p1) -> None:
    # an independent route: Σ log N(x; p1, σ̂²) − log N(x; p0, σ̂²) over the pair values
    n = len(values)
    mean = sum(values) / n
    var = sum((x - mean) ** 2 for x in values) / n
    expected = sum(((x - p0) ** 2 - (x - p1) ** 2) / (2 * var) for x in values)
    assert llr_normal(sums_of(values), p0, p1) == pytest.approx(expected, rel=1e-9)


def test_llr_sign_and_size() -> None:
    # a mean exactly between p0 and p1 is no evidence; above it favours H1, below H0
    assert llr_normal(sums_of([0.0, 1.0, 0.5, 0.5]), 0, 1) == pytest.approx(0.0)
    assert llr_normal(sums_of([1.0, 2.0, 1.5, 1.5]), 0, 1) > 0 > llr_normal(sums_of([-1.0, 0.0, -0.5, -0.5]), 0, 1)
    # fewer than two pairs: no variance, no evidence
    assert llr_normal(sums_of([5.0]), 0, 1) == 0.0 == llr_normal([0, 0, 0], 0, 1)


def test_points_estimate_by_hand() -> None:
    values = [4.0, -2.0, 10.0, 0.0]
    mean, lo, hi = points_estimate(sums_of(values))
    sd = math.sqrt(sum((x - 3.0) ** 2 for x in values) / 3)
    assert mean == 3.0
    assert hi - mean == pytest.approx(1.959963984540054 * sd / 2) == pytest.approx(mean - lo)
    assert all(math.isnan(v) for v in points_estimate([0, 0, 0]))


def test_pair_sums_from_the_log() -> None:
    # deal: (seat_a, winner, points) of its two hands; A's net is + when winner == seat_a
    rows = {
        0: [(0, 0, 12), (1, 1, 30)],  # A won both: (12 + 30) / 2 = 21
        1: [(0, 1, 10), (1, 0, 25)],  # lost both: −17.5
        2: [(0, 0, 4), (1, 0, 20)],  # won 4, lost 20: −8
        3: [(0, -1, 0), (1, 1, 7)],  # a draw and a win: 3.5
    }
    log: dict[str, list[int]] = {"deal": [], "seat_a": [], "winner": [], "points": []}
    for deal, hands in rows.items():
        for seat_a, winner, points in hands:
            log["deal"].append(deal)
            log["seat_a"].append(seat_a)
            log["winner"].append(winner)
            log["points"].append(points)
    x = [21.0, -17.5, -8.0, 3.5]
    assert pair_sums(log).tolist() == pytest.approx(sums_of(x))
    with pytest.raises(Exception, match="both hands"):
        pair_sums({"deal": [0], "seat_a": [0], "winner": [0], "points": [3]})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("p0=5,p1=0", "p1 (0) must be greater than p0 (5)"),
        ("p0=0,p1=0", "must be greater"),
        ("p0=0,p1=5,alpha=1.5", "alpha must be between 0 and 1"),
        ("p0=0,p1=5,beta=0", "beta must be between 0 and 1"),
        ("p0=0,p1=5,gamma=1", "unknown key 'gamma'"),
        ("p0=0", "p1 missing"),
        ("p0=x,p1=5", "p0 must be a number"),
        ("p0=0,p1=5,p1=6", "given twice"),
        ("p0 0 p1 5", "expected p0=P0,p1=P1"),
        ("p0=0,p1=nan", "finite number"),
        ("elo0=0,elo1=5", "elo0 is gone: the test is on points per hand now"),
    ],
)
def test_bad_sprt_text(text: str, message: str) -> None:
    with pytest.raises(SPRTError, match=message.replace("(", r"\(").replace(")", r"\)")):
        SPRT.parse(text)


def test_parse() -> None:
    assert SPRT.parse("p0=0,p1=0.5") == SPRT(0, 0.5, 0.05, 0.05)
    assert SPRT.parse(" p1=10 , p0=-2,alpha=0.1,beta=0.2") == SPRT(-2, 10, 0.1, 0.2)


# -- the command ------------------------------------------------------------------------------
BASE = ["match", "--seed", "3", "-q"]


@pytest.mark.parametrize(
    "args",
    [
        ["--sprt", "p0=5,p1=0"],
        ["--sprt", "p0=0,p1=5,alpha=2"],
        ["--sprt", "p0=0,p1=5,gamma=1"],
        ["--sprt", "elo0=0,elo1=5"],
        ["--sprt", "p0=0,p1=1", "--games", "10"],
        ["--sprt", "p0=0,p1=1", "--no-duplicate"],
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
    r = run_cli("match", "simple", "random", "--sprt", "p0=0,p1=2", "--jobs", "1", "--out", str(out))
    assert r.code == 0, r.err
    m = manifest(out)
    s = m["stopped"]
    assert m["status"] == "stopped" and s["decision"] == "H1 accepted"
    assert s["hands"] <= 1000 and s["llr"] >= s["upper"] == pytest.approx(math.log(19), abs=1e-6)
    assert s["hands"] == len(hand_log(out)) == 2 * s["pairs"] == 2 * s["sums"][0]
    assert s["sums"] == pytest.approx(pair_sums(hand_log(out)).tolist())
    # the test's estimate is the match's points per hand for A
    summary = pd.read_csv(out / "summary.csv")
    a_row = summary[summary["strategy"] == "simple"].iloc[0]
    assert float(s["points"]) == pytest.approx(a_row["points_per_hand"]) and float(s["points"]) > 10
    # terminal digest, summary.csv, sprt.csv, report.md and the chart
    assert "SPRT (p0=0, p1=2 points per hand, alpha=0.05, beta=0.05): H1 accepted after" in r.out
    assert a_row["sprt_decision"] == "H1 accepted" and a_row["sprt_llr"] == pytest.approx(s["llr"], rel=1e-5)
    assert a_row["sprt_lower"] == pytest.approx(s["lower"], rel=1e-5) and a_row["sprt_pairs"] == s["pairs"]
    assert {"sprt_p0", "sprt_p1", "sprt_points", "sprt_points_lo", "sprt_points_hi", "sprt_upper"} <= set(
        summary.columns
    )
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
    r = run_cli("match", "simple", "simple", "--sprt", "p0=0,p1=3", "--jobs", "1", "--no-plots", "--out", str(out))
    assert r.code == 0, r.err
    s = manifest(out)["stopped"]
    assert s["decision"] == "H0 accepted" and s["llr"] <= s["lower"]
    assert s["hands"] <= 2000 and len(hand_log(out)) == s["hands"]
    assert float(s["points_lo"]) < 0 < float(s["points_hi"])
    assert "H0 accepted after" in r.out


def test_same_decision_hands_and_log_for_any_jobs(run_cli, tmp_path: Path) -> None:
    base = ["match", "simple", "simple", "--sprt", "p0=0,p1=3", "--chunk", "15", "--seed", "9", "-q", "--no-plots"]
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
        "p0=0,p1=0.1",
        "--chunk",
        "10",
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
    looser = [a if a != "p0=0,p1=0.1" else "p0=0,p1=5" for a in args]
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
        "p0=0,p1=0.5",
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
            "p0=0,p1=0.1",
            "--chunk",
            "10",
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
    counts = np.zeros(3)
    assert len(chunk_files(out)) >= 3
    for i, f in enumerate(chunk_files(out)):
        counts += pair_sums(pd.read_parquet(f))
        assert trace["llr"].iloc[i + 1] == pytest.approx(llr_normal(counts, 0, 0.1), rel=1e-5)
        assert trace["hands"].iloc[i + 1] == 20 * (i + 1)
        assert trace["points"].iloc[i + 1] == pytest.approx(points_estimate(counts)[0], rel=1e-5)
