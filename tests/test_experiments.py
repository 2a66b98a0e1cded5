"""Experiment files and ``ginsim run``: every shipped experiment file loads, a
representative few run with few hands, and a bad file is one line naming the file and the
key, with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ginsim.engine.registry import BUILTINS
from ginsim.engine.rules import preset_rules
from ginsim.run.config import load_experiment
from ginsim.run.describe import RoundRobinRun, SweepRun

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "experiments"
EXPERIMENTS = sorted(SHIPPED.rglob("*.toml"))
FOLDERS = {"": "the README's analyses", "tuning": "tuning records", "studies": "studies", "java": "Java players"}
"""Every folder of experiments/ (relative path) and what its files are for."""
REPRESENTATIVE = [
    "roundrobin_builtins.toml",  # the quick start's main job: a round-robin of every built-in, games
    "knock_sweep_house.toml",  # a sweep in hands with a [rules] table
    "knock_sweep_palace.toml",  # a sweep in games under a preset named by string
    "tuning/tune_aware_outs.toml",  # a tuning record
    "studies/patient_thinking_time_default.toml",  # a study of the strongest built-in
]
"""The files played (with few hands) by the suite; the rest are loaded and checked only."""
JAVA_PLAYER = "java:build/classes:MARJJ_v5"
"""The spec of the Java player the files in experiments/java/ name (compile_marjj.sh builds it)."""


def test_every_file_is_in_a_folder_whose_readme_says_what_it_answers() -> None:
    assert {p.parent.relative_to(SHIPPED).as_posix().replace(".", "") for p in EXPERIMENTS} == set(FOLDERS)
    for folder in FOLDERS:
        readme = (SHIPPED / folder / "README.md").read_text(encoding="utf-8")
        for path in (SHIPPED / folder).glob("*.toml"):
            assert f"`{path.name}`" in readme, f"{folder or '.'}/README.md does not describe {path.name}"
    assert {p.stem for p in SHIPPED.glob("*.toml")} >= {"roundrobin_builtins", "knock_sweep", "knock_sweep_house"}


@pytest.mark.parametrize("path", EXPERIMENTS, ids=[p.relative_to(SHIPPED).as_posix() for p in EXPERIMENTS])
def test_every_shipped_experiment_loads(path: Path, tmp_path: Path) -> None:
    """Each file parses and names valid strategies, values and rules (nothing is played).
    The Java player, which ginsim does not ship, stands in as a built-in when it is not
    compiled (experiments/java/README.md)."""
    text = path.read_text(encoding="utf-8")
    if JAVA_PLAYER in text and not (ROOT / "build" / "classes").is_dir():
        path = tmp_path / path.name
        path.write_text(text.replace(JAVA_PLAYER, "threshold:knock_at=9"), encoding="utf-8")
    exp = load_experiment(path)
    data = tomllib.loads(text)
    assert exp.kind == data["kind"] and exp.seed == data.get("seed", 0)
    assert data.get("out", "") == f"results/{path.stem}", "a shipped run writes to results/<file name>"


def test_roundrobin_lists_every_builtin_strategy() -> None:
    exp = load_experiment(SHIPPED / "roundrobin_builtins.toml")
    assert isinstance(exp.run, RoundRobinRun) and exp.kind == "roundrobin"
    assert sorted(exp.run.strategies) == sorted(BUILTINS)


@pytest.mark.parametrize("name", ["roundrobin_marjj_eaai.toml", "roundrobin_marjj_default.toml"])
def test_java_roundrobins_list_every_builtin_and_the_java_player(name: str) -> None:
    """The champion-line round-robins set MARJJ_v5 against every built-in, so a built-in
    added to ginsim is added to them too."""
    data = tomllib.loads((SHIPPED / "java" / name).read_text(encoding="utf-8"))
    assert data["kind"] == "roundrobin"
    assert sorted(data["strategies"]) == sorted([*BUILTINS, JAVA_PLAYER])


def test_knock_sweeps_differ_only_in_the_house_rules() -> None:
    plain = load_experiment(SHIPPED / "knock_sweep.toml")
    house = load_experiment(SHIPPED / "knock_sweep_house.toml")
    for exp in (plain, house):
        assert exp.kind == "sweep"
        assert exp.run == SweepRun("threshold", "knock_at=0:10", ("simple",))
    assert plain.rules.differences() == {}
    assert house.rules.differences() == {"gin_bonus": 25, "undercut_bonus": 25}
    assert (plain.hands, plain.seed) == (house.hands, house.seed)


@pytest.mark.parametrize("name", REPRESENTATIVE)
def test_representative_experiments_run_with_few_hands(name: str, tmp_path: Path, run_cli) -> None:
    path = SHIPPED / name
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    size = ["--games", "2"] if "games" in data else ["--hands", "10"]
    out = tmp_path / "run"
    r = run_cli("run", str(path), *size, "--out", str(out), "--jobs", "1", "-q", "--no-plots")
    assert r.code == 0, r.err
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["kind"] == data["kind"] and manifest["status"] == "complete"
    assert manifest["command"] == f"ginsim run {path} {' '.join(size)} --out {out}"
    rules = data.get("rules", {})  # a [rules] table, or a preset's name (R27)
    want = preset_rules(rules).differences() if isinstance(rules, str) else rules
    assert manifest["rules_differ"] == want
    assert manifest["seed"] == data.get("seed", 0)
    assert (out / "summary.csv").is_file() and (out / "report.md").is_file()


def _write(tmp_path: Path, text: str, name: str = "exp.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_run_draws_charts_and_names_its_folder(tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    p = _write(
        tmp_path, 'kind = "match"\na = "simple"\nb = "threshold:knock_at=6"\nhands = 200\nseed = 3\n', "mine.toml"
    )
    r = run_cli("run", str(p), "--hands", "20", "--jobs", "1", "-q")
    assert r.code == 0, r.err
    folder = tmp_path / "results" / "mine-hands20"  # a quick try never lands in the full run's folder
    assert sorted(c.stem for c in (folder / "charts").glob("*.png")) == ["knock_deadwood", "outcomes", "turns"]
    assert "charts/outcomes.png" in (folder / "report.md").read_text(encoding="utf-8")
    r = run_cli("run", str(p), "--hands", "20", "--jobs", "1", "--no-plots")  # rerun: resumes, nothing to play
    assert r.code == 0, r.err
    assert "match in results/mine-hands20" in r.out


def test_run_with_games_and_rules(tmp_path: Path, run_cli) -> None:
    p = _write(
        tmp_path,
        f'kind = "sweep"\ndescription = "tiny"\nstrategy = "threshold"\nparam = "knock_at"\nvalues = [2, 9]\n'
        f'vs = "simple"\ngames = 2\nduplicate = false\nout = "{tmp_path / "sw"}"\n[rules]\ntarget_score = 50\n',
    )
    r = run_cli("run", str(p), "--jobs", "1", "--no-plots")
    assert r.code == 0, r.err
    assert "tiny" in r.out
    m = json.loads((tmp_path / "sw" / "manifest.json").read_text(encoding="utf-8"))
    assert [pp["value"] for pp in m["pairings"]] == [2, 9]
    assert m["games"] == 2 and m["duplicate"] is False and m["rules_differ"] == {"target_score": 50}


GOOD = 'kind = "match"\na = "simple"\nb = "random"\nhands = 10\n'
SWEEP = 'kind = "sweep"\nstrategy = "threshold"\nparam = "knock_at"\nvs = ["simple"]\nhands = 10\n'
BAD = {
    "unknown key": (GOOD + "colour = 1\n", "colour"),
    "key of another kind": ('kind = "roundrobin"\nstrategies = ["simple", "random"]\na = "x"\nhands = 10\n', "'a'"),
    "bad kind": ('kind = "duel"\nhands = 10\n', "kind"),
    "no kind": ("hands = 10\n", "kind"),
    "negative hands": (GOOD.replace("hands = 10", "hands = -3"), "hands"),
    "float hands": (GOOD.replace("hands = 10", "hands = 1e4"), "hands"),
    "hands and games": (GOOD + "games = 5\n", "games"),
    "no size": (GOOD.replace("hands = 10\n", ""), "hands"),
    "bad seed": (GOOD + "seed = -1\n", "seed"),
    "bad duplicate": (GOOD + 'duplicate = "yes"\n', "duplicate"),
    "bad out": (GOOD + "out = 3\n", "out"),
    "missing b": ('kind = "match"\na = "simple"\nhands = 10\n', "'b'"),
    "unknown strategy": (GOOD.replace('"random"', '"nosuch"'), "'b'"),
    "bad strategies": ('kind = "roundrobin"\nstrategies = "simple"\nhands = 10\n', "strategies"),
    "strategy twice": ('kind = "roundrobin"\nstrategies = ["simple", "simple"]\nhands = 10\n', "strategies"),
    "bad values": (SWEEP + 'values = "0:x"\n', "values"),
    "values out of range": (SWEEP + 'values = "0:30"\n', "values"),
    "unknown param": (SWEEP.replace('"knock_at"', '"knock"') + 'values = "0:3"\n', "param"),
    "missing values": (SWEEP, "values"),
    "bad rule value": (GOOD + "[rules]\ngin_bonus = -5\n", "gin_bonus"),
    "unknown rule": (GOOD + "[rules]\nginbonus = 25\n", "ginbonus"),
    "rules not a table": (GOOD.replace('kind = "match"', 'rules = 3\nkind = "match"'), "rules"),
    "bad TOML": ('kind = "match"\na = \n', "TOML"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_experiment_file_is_one_line_naming_file_and_key(case: str, tmp_path: Path, run_cli) -> None:
    text, key = BAD[case]
    p = _write(tmp_path, text)
    r = run_cli("run", str(p), "--jobs", "1", "-q", "--out", str(tmp_path / "out"))
    assert r.code == 2
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, r.err
    assert str(p) in lines[0] and key in lines[0], lines[0]
    assert "Traceback" not in r.err
    assert not (tmp_path / "out").exists()


def test_unreadable_experiment_files(tmp_path: Path, run_cli) -> None:
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00kind")
    for path, says in ((tmp_path / "missing.toml", "no such"), (tmp_path, "folder"), (binary, "UTF-8")):
        r = run_cli("run", str(path))
        assert r.code == 2
        assert len(r.err.strip().splitlines()) == 1 and str(path) in r.err and says in r.err


def test_bad_experiment_in_a_real_process(tmp_path: Path) -> None:
    p = _write(tmp_path, GOOD + "colour = 1\n")
    done = subprocess.run([sys.executable, "-m", "ginsim", "run", str(p)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"ginsim: error: {p}: key 'colour': unknown key for kind = 'match' "
        "(known keys: kind, description, hands, games, seed, duplicate, out, rules, a, b)"
    )


def test_run_help_has_examples(run_cli) -> None:
    r = run_cli("run", "--help")
    assert r.code == 0 and "ginsim run experiments/knock_sweep.toml" in r.out
