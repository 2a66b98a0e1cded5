"""Configuration in code: the engine is a run option that travels from ``ginsim
--engine`` and ``engine=`` to every ChunkTask (the environment's overrides read once, at
the edge, and never written); a run's description is typed and writes the manifest.json
runs have always written; errors name the library's parameters to a Python caller and
the CLI's flags to a CLI user."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pandas as pd
import pytest

import ginsim
from ginsim.engine.rules import Rules, build_rules
from ginsim.errors import RunError
from ginsim.launch import run_experiment
from ginsim.run import folder, runner
from ginsim.run.describe import MatchRun, RoundRobinRun, RunDescription, SweepRun
from ginsim.run.measures import bench_runner
from ginsim.run.options import GENERAL_ENV, JIT_ENV, PURE_ENV, Engine, resolve_engine
from ginsim.run.plan import plan_run
from ginsim.run.runplan import ChunkTask
from ginsim.runfolder.records import Manifest

ROOT = Path(__file__).resolve().parents[2]
MANIFESTS = Path(__file__).resolve().parents[1] / "fixtures" / "manifests"
QUIET = ["-j", "1", "-q", "--no-plots"]


@pytest.fixture
def no_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(GENERAL_ENV, raising=False)
    monkeypatch.delenv(JIT_ENV, raising=False)


@pytest.fixture
def tasks(monkeypatch: pytest.MonkeyPatch) -> list[ChunkTask]:
    """Every ChunkTask the runner plays in this process (``jobs=1``)."""
    seen: list[ChunkTask] = []
    play = runner.play_chunk

    def spy(task: ChunkTask) -> object:
        seen.append(task)
        return play(task)

    monkeypatch.setattr(runner, "play_chunk", spy)
    return seen


def _play_path(folder: Path) -> str:
    return json.loads((folder / "manifest.json").read_text())["platform"]["play_path"]


# -- the engine ---------------------------------------------------------------------------
def test_the_edge_reads_the_overrides_once_the_callers_choice_first() -> None:
    assert resolve_engine(None, {}) is Engine.AUTO
    assert resolve_engine(None, {GENERAL_ENV: "1"}) is Engine.GENERAL
    assert resolve_engine(None, {GENERAL_ENV: "0"}) is Engine.AUTO
    assert resolve_engine(None, {JIT_ENV: "0"}) is Engine.COMPILED
    assert resolve_engine(None, {PURE_ENV: "1"}) is Engine.COMPILED  # sources only: numba's kernel off too
    assert resolve_engine("general", {JIT_ENV: "0"}) is Engine.GENERAL
    assert resolve_engine(Engine.AUTO, {GENERAL_ENV: "1"}) is Engine.AUTO
    assert resolve_engine("auto", {PURE_ENV: "1"}) is Engine.COMPILED
    with pytest.raises(RunError) as e:
        resolve_engine("fast", {})
    assert str(e.value) == "engine must be one of auto, compiled, general, not 'fast'"


@pytest.mark.usefixtures("no_overrides")
def test_python_engine_reaches_every_task_without_the_environment(tasks, tmp_path: Path) -> None:
    before = dict(os.environ)
    general = ginsim.match("simple", "random", hands=60, chunk=10, jobs=1, out=tmp_path / "g", engine="general")
    assert dict(os.environ) == before
    assert len(tasks) == 3 and {t.engine for t in tasks} == {Engine.GENERAL}
    assert _play_path(general.folder).startswith("general (the general engine was asked for")
    tasks.clear()
    compiled = ginsim.match("simple", "random", hands=60, chunk=10, jobs=1, out=tmp_path / "c", engine="compiled")
    assert {t.engine for t in tasks} == {Engine.COMPILED}
    assert _play_path(compiled.folder) == "fast (ginsim.engine.fastplay)"
    assert dict(os.environ) == before
    pd.testing.assert_frame_equal(pd.read_parquet(general.folder / "hands"), pd.read_parquet(compiled.folder / "hands"))


@pytest.mark.usefixtures("no_overrides")
def test_cli_engine_reaches_every_task_without_the_environment(tasks, run_cli, tmp_path: Path) -> None:
    before = dict(os.environ)
    r = run_cli(
        "--engine", "general", "match", "simple", "random", "--hands", "40", *QUIET, "--out", str(tmp_path / "m")
    )
    assert r.code == 0, r.err
    assert dict(os.environ) == before
    assert tasks and {t.engine for t in tasks} == {Engine.GENERAL}
    assert _play_path(tmp_path / "m").startswith("general (")
    tasks.clear()
    sweep = str(ROOT / "experiments" / "knock_sweep.toml")
    r = run_cli("--engine", "general", "run", sweep, "--hands", "20", *QUIET, "--out", str(tmp_path / "s"))
    assert r.code == 0, r.err
    assert dict(os.environ) == before
    assert tasks and {t.engine for t in tasks} == {Engine.GENERAL}


def test_the_environment_still_overrides_at_the_edge(monkeypatch, tasks, run_cli, tmp_path: Path) -> None:
    monkeypatch.setenv(GENERAL_ENV, "1")
    run = ginsim.match("simple", "random", hands=20, jobs=1, out=tmp_path / "py")
    assert {t.engine for t in tasks} == {Engine.GENERAL} and _play_path(run.folder).startswith("general (")
    tasks.clear()
    r = run_cli("match", "simple", "random", "--hands", "20", *QUIET, "--out", str(tmp_path / "cli"))
    assert r.code == 0, r.err
    assert {t.engine for t in tasks} == {Engine.GENERAL}
    tasks.clear()
    run_experiment(
        ROOT / "experiments" / "knock_sweep.toml", hands=20, jobs=1, quiet=True, plots=False, out=tmp_path / "x"
    )
    assert tasks and {t.engine for t in tasks} == {Engine.GENERAL}
    tasks.clear()
    r = run_cli(
        "--engine", "compiled", "match", "simple", "random", "--hands", "20", *QUIET, "--out", str(tmp_path / "c")
    )
    assert r.code == 0, r.err
    assert {t.engine for t in tasks} == {Engine.COMPILED}  # the caller's choice wins
    assert _play_path(tmp_path / "c").startswith("fast (")


@pytest.mark.usefixtures("no_overrides")
def test_bench_runs_with_the_engine_it_is_given(tasks) -> None:
    bench_runner(1, 20, 1, engine=Engine.COMPILED)
    assert tasks and {t.engine for t in tasks} == {Engine.COMPILED}
    tasks.clear()
    bench_runner(1, 20, 1)
    assert {t.engine for t in tasks} == {Engine.GENERAL}


# -- typed run descriptions ------------------------------------------------------------------
RECORDED: dict[str, tuple[RunDescription, dict[str, object]]] = {
    # manifests written before run descriptions were typed, by these runs
    "match.json": (MatchRun("simple", "random:take_chance=0.3"), {"games": 6, "seed": 9}),
    "roundrobin.json": (
        RoundRobinRun(("random", "simple", "threshold:knock_at=4", "aware")),
        {"hands": 20, "seed": 3},
    ),
    "sweep.json": (
        SweepRun("threshold", "knock_at=0:10:5", ("simple",)),
        {"hands": 30, "seed": 4, "rules": build_rules(None, ["gin_bonus=25"])},
    ),
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_manifest_reads_and_writes_byte_for_byte(name: str) -> None:
    text = (MANIFESTS / name).read_text()
    manifest = Manifest.from_dict(json.loads(text))
    assert json.dumps(manifest.to_dict(), indent=2, default=str) + "\n" == text


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_typed_description_plans_the_recorded_identity(name: str) -> None:
    data = json.loads((MANIFESTS / name).read_text())
    run, kw = RECORDED[name]
    plan = plan_run(run, **{"rules": Rules(), **kw})  # type: ignore[arg-type]
    assert plan.kind == run.kind == data["kind"]
    identity = json.dumps(folder.normalize(plan.identity()), indent=2)
    assert identity == json.dumps(data["identity"], indent=2)
    assert [p.record().to_dict() for p in plan.pairings] == data["pairings"]
    swept = (plan.swept.param, plan.swept.base) if plan.swept is not None else (None, None)
    assert swept == (data.get("param"), data.get("base"))


def test_tournament_mode_keeps_its_place_in_the_identity() -> None:
    plan = plan_run(SweepRun("threshold", "knock_at=1,2", ("simple",)), rules=Rules(), hands=10, isolate=True)
    assert list(plan.identity()["extra"].items()) == [
        ("param", "knock_at"),
        ("base", "threshold:knock_at=10"),
        ("isolate", True),
        ("decks", "per pairing"),  # each pairing its own decks; --shared-decks leaves the entry out
    ]
    shared = plan_run(
        SweepRun("threshold", "knock_at=1,2", ("simple",)), rules=Rules(), hands=10, isolate=True, shared_decks=True
    )
    assert "decks" not in shared.identity()["extra"]
    assert "extra" not in plan_run(MatchRun("simple", "random"), rules=Rules(), hands=10).identity()


def test_descriptions_name_their_strategies_and_command() -> None:
    sweep = SweepRun("threshold", "knock_at=0:4", ("simple", "random"))
    assert sweep.specs() == ("threshold", "simple", "random")
    assert sweep.args() == ["sweep", "threshold", "--param", "knock_at=0:4", "--vs", "simple", "--vs", "random"]
    assert RoundRobinRun(("a", "b")).args() == ["roundrobin", "a", "b"]
    assert MatchRun("a", "b").specs() == ("a", "b") and MatchRun("a", "b").kind == "match"
    with pytest.raises(RunError, match="not a run's description"):
        plan_run({"a": "simple", "b": "random"}, rules=Rules())  # type: ignore[arg-type]


# -- errors name the parameters ----------------------------------------------------------------
PYTHON_ERRORS = [
    ({"hands": -3}, "hands must be a positive whole number, not -3"),
    ({"hands": 4, "games": 4}, "give either hands or games"),
    (
        {"games": 2_000_000_000},
        "games 2000000000: at most 1,000,000,000 per pairing (split a bigger study into runs by seed)",
    ),
    ({"seed": -1}, "seed must be a whole number from 0 to 2**63-1, not -1"),
    ({"chunk": 0}, "chunk must be from 1 to 1,000,000,000, not 0"),
    ({"games": 10, "sprt": "p0=0,p1=1"}, "sprt works on duplicate deal pairs: use hands (the most to play), not games"),
    ({"duplicate": False, "sprt": "p0=0,p1=1"}, "sprt scores duplicate deal pairs: duplicate must stay on"),
    ({"scheduler": "tcp://x:1"}, "a scheduler address (scheduler) is only for the dask backend: set backend to dask"),
    ({"engine": "fast"}, "engine must be one of auto, compiled, general, not 'fast'"),
    ({"sprt": "p0=5,p1=0"}, "sprt: p1 (0) must be greater than p0 (5)"),
]
CLI_ERRORS = [
    (["--sprt", "p0=5,p1=0"], "--sprt: p1 (0) must be greater than p0 (5)"),
    (["--hands", "-3"], "--hands must be a positive whole number, not -3"),
    (["--hands", "4", "--games", "4"], "give either --hands or --games"),
    (["--chunk", "0"], "--chunk must be from 1 to 1,000,000,000, not 0"),
    (
        ["--games", "10", "--sprt", "p0=0,p1=1"],
        "--sprt works on duplicate deal pairs: use --hands (the most to play), not --games",
    ),
    (["--no-duplicate", "--sprt", "p0=0,p1=1"], "--sprt scores duplicate deal pairs: --duplicate must stay on"),
    (
        ["--scheduler", "tcp://x:1"],
        "a scheduler address (--scheduler) is only for the dask backend: set --backend to dask",
    ),
]


@pytest.mark.parametrize(("kw", "message"), PYTHON_ERRORS, ids=[m for _, m in PYTHON_ERRORS])
def test_python_errors_name_the_parameter(kw: dict[str, object], message: str, tmp_path: Path) -> None:
    with pytest.raises(RunError) as e:
        ginsim.match("simple", "random", out=tmp_path / "x", **kw)  # type: ignore[arg-type]
    assert str(e.value) == message
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(("args", "message"), CLI_ERRORS, ids=[m for _, m in CLI_ERRORS])
def test_cli_errors_name_the_flag(args: list[str], message: str, run_cli, tmp_path: Path) -> None:
    r = run_cli("match", "simple", "random", *args, "--out", str(tmp_path / "x"))
    assert r.code == 2
    assert r.err == f"ginsim: error: {message}\n"
    assert "Traceback" not in r.err and not r.out


def test_sweep_and_roundrobin_errors_both_ways(run_cli, tmp_path: Path) -> None:
    cases = [
        (lambda: ginsim.sweep("threshold", "knock_at=5:1", vs="simple"), "param 'knock_at=5:1': STOP is below START"),
        (lambda: ginsim.sweep("threshold", "nothere", [1], vs="simple"), "param: threshold has no parameter 'nothere'"),
        (lambda: ginsim.sweep("threshold", "knock_at=1:2", vs=["simple", "simple"]), "vs 'simple' is listed twice"),
        (lambda: ginsim.sweep("threshold", "knock_at", [], vs="simple"), "values: no values to sweep knock_at"),
        (
            lambda: ginsim.roundrobin(["simple", "random"], sprt="p0=0,p1=1"),
            "sprt: only a match runs a sequential test",
        ),
    ]
    for call, message in cases:
        with pytest.raises(RunError) as e:
            call()
        assert str(e.value).startswith(message), str(e.value)
    sweep = ["sweep", "threshold", "--out", str(tmp_path / "x")]
    r = run_cli(*sweep, "--param", "knock_at=5:1", "--vs", "simple")
    assert (r.code, r.err) == (2, "ginsim: error: --param 'knock_at=5:1': STOP is below START\n")
    r = run_cli(*sweep, "--param", "knock_at=1:2", "--vs", "simple", "--vs", "simple")
    assert (r.code, r.err) == (2, "ginsim: error: --vs 'simple' is listed twice\n")


def test_experiment_errors_name_the_option_or_the_files_key(run_cli, tmp_path: Path) -> None:
    sweep = ROOT / "experiments" / "knock_sweep.toml"
    with pytest.raises(RunError) as e:
        run_experiment(sweep, hands=-1, out=tmp_path / "x")
    assert str(e.value) == "hands must be a positive whole number, not -1"
    r = run_cli("run", str(sweep), "--hands", "-1", "--out", str(tmp_path / "x"))
    assert (r.code, r.err) == (2, "ginsim: error: --hands must be a positive whole number, not -1\n")
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'kind = "sweep"\nstrategy = "threshold"\nparam = "knock_at"\nvalues = "5:1"\nvs = ["simple"]\nhands = 10\n'
    )
    r = run_cli("run", str(bad), "--out", str(tmp_path / "y"))
    assert (r.code, r.err) == (2, f"ginsim: error: {bad}: key 'values': values 'knock_at=5:1': STOP is below START\n")


def test_a_named_error_crosses_processes() -> None:
    e = RunError.about("{hands} must be a positive whole number, not {n}", n=-3)
    again = pickle.loads(pickle.dumps(e))
    assert str(again) == "hands must be a positive whole number, not -3"
    assert again.message({"hands": "--hands"}) == "--hands must be a positive whole number, not -3"
    assert again.params == ("hands",)
    assert RunError("plain").message({"hands": "--hands"}) == "plain"
