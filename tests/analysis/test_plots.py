"""Charts: every chart is a real image of the data, drawn from small real runs;
the plotting functions are checked on the data they receive against summary.csv,
ratings.csv and the hand log; report.md embeds them with relative links."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest

import ginsim
from ginsim.analysis.logcharts import knock_deadwood_chart, outcome_chart, turns_chart
from ginsim.analysis.logcounts import ALL, OUTCOME_CATEGORIES, read_log_counts
from ginsim.analysis.plots import DPI, draw_all, strategy_order, sweep_rows
from ginsim.analysis.statcharts import heatmap, ratings_chart, sweep_chart
from ginsim.analysis.tables import analyze, matrix
from ginsim.cli import main
from ginsim.engine.playhand import OUTCOMES
from ginsim.runfolder.records import PairingRecord

RR = ["random", "simple", "threshold:knock_at=5"]
COMMON = ["heatmap_", "ratings", "sweep_", "outcomes", "turns", "knock_deadwood"]


def _ginsim(*args: str) -> None:
    try:
        main(list(args))
    except SystemExit as e:
        assert e.code in (0, None), f"ginsim {' '.join(args)} exited {e.code}"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Small real runs of every kind, charts drawn by the commands themselves."""
    base = tmp_path_factory.mktemp("charts")
    out = {k: base / k for k in ("rr", "sweep", "games", "match")}
    q = ["-q", "--jobs", "1"]
    _ginsim("roundrobin", *RR, "--hands", "60", "--out", str(out["rr"]), *q)
    _ginsim(
        "sweep",
        "threshold",
        "--param",
        "knock_at=0:10:5",
        "--vs",
        "simple",
        "--vs",
        "random",
        "--hands",
        "40",
        "--out",
        str(out["sweep"]),
        *q,
    )
    _ginsim(
        "sweep",
        "threshold",
        "--param",
        "knock_at=2:8:6",
        "--vs",
        "simple",
        "--games",
        "6",
        "--rule",
        "gin_bonus=25",
        "--out",
        str(out["games"]),
        *q,
    )
    _ginsim("match", "simple", "threshold", "--hands", "40", "--out", str(out["match"]), *q)
    return out


def log(folder: Path) -> pd.DataFrame:
    return pd.concat([pd.read_parquet(f) for f in sorted((folder / "hands").glob("*.parquet"))], ignore_index=True)


def assert_image(path: Path, size_inches: tuple[float, float]) -> None:
    """A real PNG of the figure's size, with something drawn on it."""
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = mpimg.imread(path)
    w, h = size_inches
    assert abs(img.shape[0] - h * DPI) < 1 and abs(img.shape[1] - w * DPI) < 1  # Agg truncates to whole pixels
    rgb = img[..., :3]
    assert rgb.std() > 0.05
    assert (rgb.mean(axis=2) < 0.9).mean() > 0.02  # more than a blank page with a title


EXPECTED = {
    "rr": ["heatmap_points_per_hand", "heatmap_win_rate", "ratings", "outcomes", "turns", "knock_deadwood"],
    "sweep": ["sweep_points_per_hand", "sweep_win_rate", "sweep_undercut_rate", "outcomes", "turns", "knock_deadwood"],
    "games": [
        "sweep_points_per_hand",
        "sweep_win_rate",
        "sweep_undercut_rate",
        "sweep_game_win_rate",
        "sweep_points_per_game",  # game runs: points per game
        "outcomes",
        "turns",
        "knock_deadwood",
    ],
    "match": ["outcomes", "turns", "knock_deadwood"],
}


@pytest.mark.parametrize("kind", list(EXPECTED))
def test_each_run_draws_its_charts_as_real_images(runs: dict[str, Path], kind: str) -> None:
    folder = runs[kind]
    charts = sorted(p.stem for p in (folder / "charts").glob("*.png"))
    assert charts == sorted(EXPECTED[kind])
    a = analyze(folder)
    counts = read_log_counts(folder, a.manifest.pairings)
    order = strategy_order(a.manifest)
    figures = {
        "outcomes": outcome_chart(counts.frame("outcomes", order)),
        "turns": turns_chart(counts.frame("turns", [ALL, *order])),
        "knock_deadwood": knock_deadwood_chart(counts.frame("deadwood", order)),
    }
    if kind == "rr":
        figures["ratings"] = ratings_chart(a.ratings)
        for fig in ("points_per_hand", "win_rate"):
            figures[f"heatmap_{fig}"] = heatmap(matrix(a, fig), fig)
    if kind in ("sweep", "games"):
        for fig in ("points_per_hand", "win_rate", "undercut_rate", "game_win_rate", "points_per_game"):
            if f"sweep_{fig}" in charts:
                figures[f"sweep_{fig}"] = sweep_chart(sweep_rows(a), "knock_at", fig)
    for stem in charts:
        w, h = figures[stem].get_size_inches()
        assert_image(folder / "charts" / f"{stem}.png", (w, h))


def test_heatmap_cells_are_the_summary_matrix(runs: dict[str, Path]) -> None:
    summary = pd.read_csv(runs["rr"] / "summary.csv")
    a = analyze(runs["rr"])
    for figure in ("points_per_hand", "win_rate"):
        want = summary.pivot(index="strategy", columns="opponent", values=figure).reindex(index=RR, columns=RR)
        fig = heatmap(matrix(a, figure), figure)
        ax = fig.axes[0]
        cells = np.ma.filled(ax.images[0].get_array(), np.nan)
        np.testing.assert_allclose(cells, want.to_numpy(dtype=float), rtol=1e-5, equal_nan=True)
        assert [t.get_text() for t in ax.get_yticklabels()] == RR
        texts = {t.get_text() for t in ax.texts}
        v = want.loc["simple", "random"]
        assert (f"{100 * v:.1f}%" if figure == "win_rate" else f"{v:+.2f}") in texts
        norm = ax.images[0].norm  # diverging, centred on even
        centre = 0.5 if figure == "win_rate" else 0.0
        assert norm.vmin + norm.vmax == pytest.approx(2 * centre)


def test_ratings_points_are_ratings_csv(runs: dict[str, Path]) -> None:
    ratings = pd.read_csv(runs["rr"] / "ratings.csv")
    fig = ratings_chart(ratings)
    ax = fig.axes[0]
    dots = [ln for ln in ax.get_lines() if ln.get_marker() == "o"]
    cut = [ln for ln in ax.get_lines() if ln.get_marker() in ("<", ">")]
    assert len(dots) + len(cut) == len(ratings) and len(cut) <= 1
    shown = sorted(float(ln.get_xdata()[0]) for ln in dots)
    texts = " ".join(t.get_text() for t in ax.texts)
    for v in ratings["rating"]:
        # each rating is a dot at its value, or (one outlier) a marker at the edge labelled with it
        assert any(abs(x - v) < 1e-9 for x in shown) or f"{v:+.2f} (off the scale)" in texts
    ticks = zip(ax.get_yticks(), [t.get_text() for t in ax.get_yticklabels()], strict=True)
    assert [name for _, name in sorted(ticks, reverse=True)] == list(ratings["strategy"])  # best on top
    assert "95%" in ax.get_xlabel() and f"0 = mean of all {len(ratings)} ratings" in ax.get_xlabel().replace("\n", " ")


@pytest.mark.parametrize("kind", ["sweep", "games"])
def test_sweep_curves_are_the_summary_values(runs: dict[str, Path], kind: str) -> None:
    summary = pd.read_csv(runs[kind] / "summary.csv")
    swept = summary[summary["param"] == "knock_at"]
    figures = ["points_per_hand", "win_rate", "undercut_rate"] + (["game_win_rate"] if kind == "games" else [])
    for figure in figures:
        fig = sweep_chart(swept, "knock_at", figure)
        ax = fig.axes[0]
        lines = {ln.get_label(): ln for ln in ax.get_lines() if not ln.get_label().startswith("_")}
        assert set(lines) == set(swept["opponent"])
        for opp, part in swept.groupby("opponent"):
            np.testing.assert_allclose(lines[opp].get_xdata(), part["value"].astype(float))
            np.testing.assert_allclose(lines[opp].get_ydata(), part[figure], equal_nan=True)
        assert len(ax.collections) == len(lines)  # one 95% band per opponent
        band = np.concatenate([p.vertices[:, 1] for p in ax.collections[0].get_paths()])
        first = swept[swept["opponent"] == lines[next(iter(lines))].get_label()]
        lo, hi = first[f"{figure}_lo"].dropna(), first[f"{figure}_hi"].dropna()
        if len(lo):
            assert np.nanmin(band) == pytest.approx(lo.min()) and np.nanmax(band) == pytest.approx(hi.max())
        assert "knock_at" in ax.get_xlabel() and ax.get_ylabel()
    title = fig.axes[0].get_title()
    assert "knock_at" in title


def test_sweep_titles_say_what_was_played(runs: dict[str, Path]) -> None:
    a = analyze(runs["games"])
    fig = sweep_chart(sweep_rows(a), "knock_at", "game_win_rate", played="x")
    assert "Game win rate" in fig.axes[0].get_title()
    from ginsim.analysis.format import describe_run

    text = describe_run(a.manifest)
    assert (
        "threshold" in text
        and "simple" in text
        and "6 games to 100 per pairing (3 deals played twice" in text
        and "gin_bonus=25" in text
    )
    assert "60 hands per pairing" in describe_run(analyze(runs["rr"]).manifest)


def _own_outcomes(df: pd.DataFrame, pairings: list[PairingRecord], label: str) -> dict[str, int]:
    """How ``label``'s hands ended, counted straight from the log (independently of plots)."""
    counts = dict.fromkeys(OUTCOME_CATEGORIES, 0)
    for p in pairings:
        for side, name in enumerate((p.label_a, p.label_b)):
            if name != label:
                continue
            part = df[df["pairing"] == p.index]
            seat = part["seat_a"] if side == 0 else 1 - part["seat_a"]
            mine = part["knocker"] == seat
            out = part["outcome"].astype(str)
            gin = out.isin(["gin", "big_gin"])
            counts["knock won"] += int(((out == "knock") & mine).sum())
            counts["gin"] += int((gin & mine).sum())
            counts["undercut made"] += int(((out == "undercut") & ~mine).sum())
            counts["undercut suffered"] += int(((out == "undercut") & mine).sum())
            counts["lost to a knock"] += int(((out == "knock") & ~mine).sum())
            counts["lost to gin"] += int((gin & ~mine).sum())
            counts["draw"] += int((out == "draw").sum())
            forfeit = out == "forfeit"
            counts["forfeit"] += int((forfeit & (part["forfeit_seat"] == seat)).sum())
            counts["won by forfeit"] += int((forfeit & (part["forfeit_seat"] != seat)).sum())
    return counts


def test_outcome_bars_match_the_hand_log_and_summary(runs: dict[str, Path]) -> None:
    folder = runs["rr"]
    a = analyze(folder)
    df = log(folder)
    assert set(df["outcome"].astype(str)) <= set(OUTCOMES)
    counts = read_log_counts(folder, a.manifest.pairings).frame("outcomes", RR)
    summary = pd.read_csv(folder / "summary.csv")
    for label in RR:
        want = _own_outcomes(df, a.manifest.pairings, label)
        assert counts.loc[label].to_dict() == want
        rows = summary[summary["strategy"] == label]
        n = rows["hands"].sum()
        assert want["gin"] / n == pytest.approx((rows["gin_rate"] * rows["hands"]).sum() / n, rel=1e-4)
        knocks = want["knock won"] + want["undercut suffered"]
        assert knocks / n == pytest.approx((rows["knock_rate"] * rows["hands"]).sum() / n, rel=1e-4)
    fig = outcome_chart(counts)
    ax = fig.axes[0]
    shares = counts.div(counts.sum(axis=1), axis=0)
    used = [c for c in OUTCOME_CATEGORIES if shares[c].any()]
    widths = np.array([b.get_width() for b in ax.patches]).reshape(len(used), len(RR))
    np.testing.assert_allclose(widths, shares[used].to_numpy().T)
    np.testing.assert_allclose(widths.sum(axis=0), 1.0)


def test_turns_histogram_and_knock_deadwood_match_the_log(runs: dict[str, Path]) -> None:
    folder = runs["match"]
    a = analyze(folder)
    df = log(folder)
    counts = read_log_counts(folder, a.manifest.pairings)
    order = strategy_order(a.manifest)
    hist = counts.frame("turns", [ALL, *order])
    fig = turns_chart(hist)
    heights = np.array([b.get_height() for b in fig.axes[0].patches])
    want = np.bincount(df["turns"], minlength=len(heights)) / len(df)
    np.testing.assert_allclose(heights, want)
    dead = counts.frame("deadwood", order)
    for side, label in enumerate(order):
        seat = df["seat_a"] if side == 0 else 1 - df["seat_a"]
        mine = df[(df["knocker"] == seat) & df["outcome"].astype(str).isin(["knock", "undercut", "gin", "big_gin"])]
        got = dead.loc[label]
        assert got.sum() == len(mine)
        assert got.to_dict() == {k: int((mine["knocker_deadwood"] == k).sum()) for k in dead.columns}
    fig = knock_deadwood_chart(dead)
    cells = np.ma.filled(fig.axes[0].images[0].get_array(), np.nan)
    np.testing.assert_allclose(cells, dead.div(dead.sum(axis=1), axis=0).to_numpy())


def test_charts_scale_from_2_to_12_strategies() -> None:
    def square(n: int) -> pd.DataFrame:
        names = [f"threshold:knock_at={i}" for i in range(n)]
        rng = np.random.default_rng(n)
        values = rng.uniform(-5, 5, (n, n))
        np.fill_diagonal(values, np.nan)
        return pd.DataFrame(values, index=names, columns=names)

    small, big = heatmap(square(2), "points_per_hand"), heatmap(square(12), "points_per_hand")
    assert big.get_size_inches()[0] > small.get_size_inches()[0]
    assert big.get_size_inches()[1] > small.get_size_inches()[1]
    for fig in (small, big):
        assert min(t.get_fontsize() for t in fig.axes[0].texts) >= 7
    twelve = pd.DataFrame(
        np.ones((12, len(OUTCOME_CATEGORIES))), index=[f"s{i}" for i in range(12)], columns=list(OUTCOME_CATEGORIES)
    )
    assert outcome_chart(twelve).get_size_inches()[1] > outcome_chart(twelve.iloc[:2]).get_size_inches()[1]


def test_plotting_functions_draw_into_a_given_ax(runs: dict[str, Path]) -> None:
    from matplotlib.figure import Figure

    a = analyze(runs["rr"])
    host = Figure(figsize=(12, 4))
    ax1, ax2 = host.subplots(1, 2)
    assert heatmap(matrix(a, "win_rate"), "win_rate", ax=ax1) is host
    assert ratings_chart(a.ratings, ax=ax2) is host
    assert ax1.images and ax2.lines


def test_charts_in_a_grid_keep_their_titles_and_legends_in_their_column(runs: dict[str, Path]) -> None:
    """Run.plot(name, ax=) in a caller's grid: each title (its "played" line wrapped to
    the column, not to the whole figure) and the outcomes legend stay within the chart's
    own column, so they never run over the neighbours."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run = ginsim.open_run(runs["rr"])
    fig, axes = plt.subplots(1, 3, figsize=(15, 5), layout="constrained")
    try:
        for ax, name in zip(axes, ("outcomes", "turns", "ratings"), strict=True):
            run.plot(name, ax=ax)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
        column = fig.bbox.width / 3
        for ax in axes:
            assert ax.title.get_window_extent(renderer).width <= column, ax.get_title()
        legend = axes[0].get_legend()
        assert legend is not None and legend.get_window_extent(renderer).y1 <= axes[0].get_window_extent(renderer).y0
    finally:
        plt.close(fig)


def test_report_embeds_every_chart_with_relative_links(runs: dict[str, Path], tmp_path: Path) -> None:
    from ginsim.analysis.captions import CHART_CAPTIONS

    for kind, stems in EXPECTED.items():
        text = (runs[kind] / "report.md").read_text(encoding="utf-8")
        for stem in stems:
            link = f"](charts/{stem}.png)"
            assert text.count(link) == 1, (kind, stem)
            after = text.split(link, 1)[1].strip().splitlines()[0]
            assert after.startswith(CHART_CAPTIONS[stem].split("{")[0][:12])
        assert "{param}" not in text and "{base}" not in text
    copy = tmp_path / "copied"
    shutil.copytree(runs["sweep"], copy)
    text = (copy / "report.md").read_text(encoding="utf-8")
    for target in [t.split(")")[0] for t in text.split("](")[1:]]:
        assert (copy / target).is_file()
    assert "of `threshold` at each value of `knock_at`" in text


def test_plot_command_redraws_and_svg(runs: dict[str, Path], tmp_path: Path, run_cli) -> None:
    folder = tmp_path / "m"
    shutil.copytree(runs["match"], folder)
    shutil.rmtree(folder / "charts")
    (folder / "report.md").unlink()
    r = run_cli("plot", str(folder), "--svg")
    assert r.code == 0, r.err
    assert sorted(p.stem for p in (folder / "charts").glob("*.svg")) == sorted(EXPECTED["match"])
    assert "charts/outcomes.png" in (folder / "report.md").read_text(encoding="utf-8")
    assert "wrote" in r.out
    r = run_cli("plot", str(folder), "-q")  # without --svg the old SVGs go: no stale charts
    assert r.code == 0 and r.out == ""
    assert not list((folder / "charts").glob("*.svg"))


def test_plot_command_bad_folder_is_one_line(run_cli, tmp_path: Path) -> None:
    for bad in (tmp_path / "missing", tmp_path):
        r = run_cli("plot", str(bad))
        assert r.code == 2
        assert len(r.err.strip().splitlines()) == 1 and str(bad) in r.err


def test_plot_help_has_an_example(run_cli) -> None:
    r = run_cli("plot", "--help")
    assert r.code == 0 and "ginsim plot results/" in r.out


def test_draw_all_on_an_empty_run_draws_nothing(runs: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    shutil.copytree(runs["match"], folder)
    for f in (folder / "hands").glob("*.parquet"):
        f.unlink()
    assert draw_all(analyze(folder)) == []


def test_charts_use_no_pyplot(tmp_path: Path) -> None:
    """Plotting never touches pyplot's global state (checked in a fresh interpreter)."""
    code = (
        "import sys, numpy as np, pandas as pd; from pathlib import Path;"
        "from ginsim.analysis import plots, statcharts;"
        "m = pd.DataFrame([[np.nan, 1.0], [-1.0, np.nan]], index=['a', 'b'], columns=['a', 'b']);"
        f"plots.save(statcharts.heatmap(m, 'points_per_hand'), Path({str(tmp_path)!r}), 'h');"
        "print('matplotlib.pyplot' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
    assert (tmp_path / "h.png").is_file()


def test_turns_chart_draws_strategy_lines_only_when_they_differ() -> None:
    same = pd.DataFrame([[0, 2, 3], [0, 2, 3], [0, 2, 3]], index=[ALL, "a", "b"], columns=[0, 1, 2])
    assert turns_chart(same).axes[0].get_legend_handles_labels()[1] == ["mean 1.6 turns", ALL]
    differ = pd.DataFrame([[0, 4, 6], [0, 3, 2], [0, 1, 4], [0, 0, 0]], index=[ALL, "a", "b", "c"], columns=[0, 1, 2])
    labels = turns_chart(differ).axes[0].get_legend_handles_labels()[1]
    assert {"a", "b", "c"} <= set(labels)


def test_sweep_titles_name_the_values_played(runs: dict[str, Path]) -> None:
    from ginsim.analysis.format import describe_run

    manifest = analyze(runs["games"]).manifest

    def with_values(values: list[int]) -> str:
        pairings = [dataclasses.replace(manifest.pairings[0], value=v) for v in values]
        return describe_run(dataclasses.replace(manifest, pairings=pairings))

    assert "knock_at = 0…10 vs" in with_values(list(range(11)))
    assert "knock_at = 2, 6, 10 vs" in with_values([2, 6, 10])
    assert "knock_at = 0…20 (11 values) vs" in with_values(list(range(0, 21, 2)))


def test_a_plot_that_fails_keeps_the_old_charts_and_report(runs: dict[str, Path], tmp_path: Path, run_cli) -> None:
    folder = tmp_path / "m"
    shutil.copytree(runs["match"], folder)
    before = {p.name: p.read_bytes() for p in [folder / "report.md", *sorted((folder / "charts").iterdir())]}
    chunk = sorted((folder / "hands").glob("*.parquet"))[-1]
    good = chunk.read_bytes()
    chunk.write_bytes(b"not parquet")  # a damaged hand log
    r = run_cli("plot", str(folder))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "cannot read the hand log" in r.err
    after = {p.name: p.read_bytes() for p in [folder / "report.md", *sorted((folder / "charts").iterdir())]}
    assert after == before
    chunk.write_bytes(good)
    assert run_cli("plot", str(folder), "-q").code == 0


def test_charts_are_replaced_only_once_the_new_ones_are_drawn(
    runs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ginsim.analysis.plots

    folder = tmp_path / "m"
    shutil.copytree(runs["match"], folder)
    before = {p.name: p.read_bytes() for p in sorted((folder / "charts").iterdir())}

    def broken(*_args: object) -> None:
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(ginsim.analysis.plots, "read_log_counts", broken)
    with pytest.raises(RuntimeError):
        draw_all(analyze(folder))
    assert {p.name: p.read_bytes() for p in sorted((folder / "charts").iterdir())} == before


def test_titles_stay_inside_the_figure_with_long_strategy_names() -> None:
    names = ["random:take_chance=0.9,knock_chance=0.1", *[f"threshold:knock_at={i}" for i in range(11)]]
    played = "round-robin of 12 strategies · 40 hands per pairing, duplicate deals · gin_bonus=25"
    rng = np.random.default_rng(3)
    r = np.sort(rng.uniform(-600, 200, 12))[::-1]
    ratings = pd.DataFrame({"strategy": names, "rating": r, "rating_lo": r - 40, "rating_hi": r + 40})
    values = rng.uniform(-5, 5, (12, 12))
    np.fill_diagonal(values, np.nan)
    outcomes = pd.DataFrame(np.ones((12, len(OUTCOME_CATEGORIES))), index=names, columns=list(OUTCOME_CATEGORIES))
    for fig in (
        ratings_chart(ratings, played),
        heatmap(pd.DataFrame(values, index=names, columns=names), "points_per_hand", played),
        outcome_chart(outcomes, played),
    ):
        fig.canvas.draw()
        box = fig.axes[0].title.get_window_extent()
        assert box.x0 >= 0 and box.x1 <= fig.bbox.x1, (fig.axes[0].get_title(), box, fig.bbox)


def test_long_hands_group_into_visible_bars() -> None:
    counts = np.zeros(501)
    counts[[10, 11, 12, 500]] = [5, 3, 2, 90]  # most hands hit the 500-turn cap
    hist = pd.DataFrame([counts], index=[ALL], columns=range(501))
    ax = turns_chart(hist).axes[0]
    bars = ax.patches
    assert len(bars) <= 100 and len(bars) * bars[0].get_width() >= 501
    tallest = max(bars, key=lambda b: b.get_height())
    assert tallest.get_height() == pytest.approx(0.9)
    assert tallest.get_x() <= 500 <= tallest.get_x() + tallest.get_width()
    assert sum(b.get_height() for b in bars) == pytest.approx(1.0)
    assert "bars of 6 turns" in ax.get_xlabel()
    assert "mean 451.1 turns" in ax.get_legend_handles_labels()[1]


class _Crasher(ginsim.Strategy):
    """Plays a few turns, then raises: most of its hands are its own forfeits."""

    def take_upcard(self, view: ginsim.PlayerView) -> bool:
        return False

    def discard(self, view: ginsim.PlayerView) -> int:
        if view.turn > 6:
            raise RuntimeError("boom")
        cards = view.best_discards()[1]
        return (cards & -cards).bit_length() - 1


def test_a_hand_won_by_the_opponents_forfeit_is_no_forfeit_of_ones_own(tmp_path: Path) -> None:
    with ginsim.match(_Crasher, "simple", hands=200, out=tmp_path / "run", jobs=1) as run:
        counts = read_log_counts(run.folder, run.analysis.manifest.pairings).frame("outcomes", ["_Crasher", "simple"])
    crasher, simple = counts.iloc[0], counts.iloc[1]
    assert crasher["forfeit"] > 100 and crasher["won by forfeit"] == 0
    assert simple["forfeit"] == 0 and simple["won by forfeit"] == crasher["forfeit"]
