"""The engine's command line: check, strategies, strategy specs, rules files, and bad
input as one line with exit status 2."""

from __future__ import annotations

import json
import re
import sys

import pytest

from ginsim.cli import cli
from ginsim.engine import registry
from ginsim.engine.spec import parse_spec
from ginsim.errors import StrategySpecError


def test_check_ten_cards(run_cli):
    r = run_cli("check", "7H", "8H", "9H", "7C", "7D", "7S", "2C", "3D", "KS", "QS")
    assert r.code == 0
    assert "[7H 8H 9H]" in r.out and "[7C 7D 7S]" in r.out
    assert "deadwood  25" in r.out and "knock     no" in r.out


def test_check_json_ten_cards(run_cli):
    r = run_cli("check", "AS 2S 3S 4S 7C 7D 7H KH QH JH", "--json")
    data = json.loads(r.out)
    assert data["deadwood"] == 0 and data["gin"] is True and data["can_knock"] is True
    assert sorted(map(sorted, data["melds"])) == sorted(
        map(sorted, [["AS", "2S", "3S", "4S"], ["7C", "7D", "7H"], ["JH", "QH", "KH"]])
    )


def test_check_eleven_cards_shows_best_discards(run_cli):
    r = run_cli("check", "7H 8H 9H 7C 7D 7S 2C 3D KS QS 4C", "--json")
    data = json.loads(r.out)
    assert data["best_discards"] == ["QS", "KS"]
    assert data["deadwood_after"] == 19 and data["can_knock"] is False
    r = run_cli("check", "AS 2S 3S 7C 7D 7H KH QH JH 5D 9C")
    assert "discard   9C" in r.out and "knock     yes" in r.out


def test_check_gin_and_big_gin(run_cli):
    r = run_cli("check", "AS 2S 3S 4S 7C 7D 7H KH QH JH 5S", "--json", "--rule", "big_gin_bonus=31")
    data = json.loads(r.out)
    assert data["gin"] is True and data["big_gin"] is True and data["deadwood"] == 0


def test_check_respects_rules(run_cli):
    hand = "AS 2S 3S 4S 5S 6S 7S TH JH QH"
    assert json.loads(run_cli("check", hand, "--json").out)["deadwood"] == 0
    data = json.loads(run_cli("check", hand, "--json", "--rule", "max_run_length=3").out)
    assert data["deadwood"] == 1  # seven in a row make two runs of three; the ace is left over
    data = json.loads(run_cli("check", "AS 2S 3S 7C 7D 7H KH QH JH 5D", "--json", "--rule", "knock_limit=4").out)
    assert data["deadwood"] == 5 and data["can_knock"] is False


def test_check_accepts_card_text_variants(run_cli):
    r = run_cli("check", "10d", "jD", "qd", "A♠", "2♠", "3♠", "--json")
    assert json.loads(r.out)["deadwood"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "7H", "8X"], "bad card '8X'"),
        (["check", "7H", "7h"], "card 7H appears twice"),
        (["check", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"], "1 to 11 cards, not 12"),
        (["check", "7H", "--rule", "knock_limit=eleven"], "expected a whole number"),
        (["check", "7H", "--rule", "max_run_length=2"], "max_run_length must be 3..13"),
        (["check", "7H", "--rule", "next_dealer=nobody"], "next_dealer must be one of"),
        (["check", "7H", "--rules", "/nonexistent.toml"], "cannot read it"),
        (["nosuchcommand"], "No such command"),
        (["match", "simple", "random", "--jobs", "0"], "0 is not in the range x>=1"),
        (["sweep", "threshold", "--param", "knock_at=1:2", "--vs", "simple", "-j", "-1"], "-1 is not in the range"),
        (["run", "experiments/knock_sweep.toml", "--jobs", "0"], "0 is not in the range x>=1"),
        (["check"], "Missing argument"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, message, run_cli):
    r = run_cli(*args)
    assert r.code == 2
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.err
    assert r.out == ""


def test_rules_file(tmp_path, run_cli):
    good = tmp_path / "house.toml"
    good.write_text("[rules]\nknock_limit = 4\ngin_bonus = 25\nbig_gin_bonus = 31\n")
    data = json.loads(run_cli("check", "AS 2S 3S 7C 7D 7H KH QH JH 5D", "--json", "--rules", str(good)).out)
    assert data["knock_limit"] == 4 and data["can_knock"] is False
    cases = {
        "[rules]\nknock_limit = 12\n": "knock_limit must be 0..10",
        "[rules]\nknok_limit = 3\n": "unknown rule 'knok_limit'",
        "[rules]\ngin_bonus = 'lots'\n": "gin_bonus must be a whole number",
        "[rules\n": "not valid TOML",
        "[other]\nx = 1\n": "unknown table or key 'other'",
        "[rules]\nallow_discard_of_drawn_upcard = 1\n": "must be true or false",
    }
    for text, message in cases.items():
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        r = run_cli("check", "7H", "--rules", str(bad))
        assert r.code == 2 and message in r.err and str(bad) in r.err, (text, r.err)
        assert len(r.err.strip().splitlines()) == 1


def test_strategies_lists_builtins_with_parameters(run_cli):
    r = run_cli("strategies")
    assert r.code == 0
    for name in ("random", "simple", "threshold"):
        assert name in r.out
    assert "knock_at=10" in r.out
    rows = json.loads(run_cli("strategies", "--json").out)
    by_name = {row["name"]: row for row in rows}
    assert by_name["threshold"]["parameters"] == {"knock_at": 10}


def test_every_command_has_help_with_an_example(run_cli):
    for name, command in cli.commands.items():
        r = run_cli(name, "--help")
        assert r.code == 0, name
        assert "Example" in r.out, f"{name} --help has no example"
        assert command.help


def test_help_and_version_are_instant_and_light(ginsim_proc):
    r = ginsim_proc("--help")
    assert r.returncode == 0 and "check" in r.stdout
    code = "import sys, ginsim.cli; print('pandas' in sys.modules, 'matplotlib' in sys.modules)"
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.split() == ["False", "False"]
    r = ginsim_proc("--version")
    assert r.returncode == 0 and "ginsim" in r.stdout
    assert "engine compiled" in r.stdout or "engine pure Python" in r.stdout


def test_error_from_the_installed_command_has_no_traceback(ginsim_proc):
    r = ginsim_proc("check", "ZZ")
    assert r.returncode == 2
    assert r.stderr.strip() == "ginsim: error: bad card 'ZZ': expected a rank (A 2-9 T/10 J Q K) and a suit (C D H S)"


# -- strategy specs ------------------------------------------------------------------------
PLUGIN = """
from ginsim import Strategy


class Lazy(Strategy):
    name = "lazy"

    def __init__(self, patience: int = 3, greedy: bool = False) -> None:
        if patience < 0:
            raise ValueError("patience must be >= 0")
        self.patience = patience
        self.greedy = greedy

    def take_upcard(self, view):
        return False

    def discard(self, view):
        return view.best_discards()[1].bit_length() - 1
"""


def test_spec_parameters_are_typed():
    spec = parse_spec("threshold:knock_at=4")
    assert spec.params == {"knock_at": 4} and spec.build().knock_at == 4
    assert parse_spec("random:knock_chance=0.25").build().knock_chance == 0.25
    assert parse_spec("threshold").canonical == parse_spec("threshold:knock_at=10").canonical


def test_spec_from_a_file(tmp_path):
    f = tmp_path / "lazy.py"
    f.write_text(PLUGIN)
    spec = parse_spec(f"{f}:Lazy:patience=5,greedy=yes")
    s = spec.build()
    assert (s.patience, s.greedy) == (5, True)
    with pytest.raises(StrategySpecError, match="patience must be >= 0"):
        parse_spec(f"{f}:Lazy:patience=-1")
    with pytest.raises(StrategySpecError, match="has no 'Nope'"):
        parse_spec(f"{f}:Nope")
    with pytest.raises(StrategySpecError, match="no file"):
        parse_spec(f"{tmp_path / 'missing.py'}:Lazy")


def test_spec_from_a_module(tmp_path, monkeypatch):
    pkg = tmp_path / "mybots"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "lazy.py").write_text(PLUGIN)
    (pkg / "broken.py").write_text("import nonexistent_thing\n")
    (pkg / "notastrategy.py").write_text("class Lazy:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert parse_spec("mybots.lazy:Lazy").build().patience == 3
    with pytest.raises(StrategySpecError, match=re.escape("cannot import 'mybots.broken'")):
        parse_spec("mybots.broken:Lazy")
    with pytest.raises(StrategySpecError, match=re.escape("'Lazy' is not a subclass of ginsim.Strategy")):
        parse_spec("mybots.notastrategy:Lazy")


def test_spec_from_an_entry_point(tmp_path, monkeypatch):
    (tmp_path / "epbots.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "plugin_targets", lambda: {"lazy": "epbots:Lazy"})
    assert "lazy" in registry.available()
    assert parse_spec("lazy:patience=7").build().patience == 7
    assert any(row["name"] == "lazy" for row in registry.describe_all())


def test_plugin_runs_in_a_match(tmp_path, run_cli):
    f = tmp_path / "lazy.py"
    f.write_text(PLUGIN)
    r = run_cli(
        "match", f"{f}:Lazy", "simple", "--hands", "10", "--jobs", "2", "--no-plots", "--out", str(tmp_path / "run")
    )
    assert r.code == 0, r.err
    assert "lazy  " in r.out  # its own name labels it, not the class name


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuch", "unknown strategy 'nosuch'"),
        ("", "empty strategy spec"),
        ("threshold:knock_at", "expected key=value"),
        ("threshold:knock_at=ten", "expects int"),
        ("threshold:nope=1", "unknown parameter 'nope'"),
        ("threshold:knock_at=11", "knock_at must be a whole number 0..10"),
        ("random:knock_chance=2", "knock_chance must be between 0 and 1"),
        ("no_such_module_xyz:Thing", "cannot import 'no_such_module_xyz'"),
        ("threshold:knock_at=4,knock_at=5", "parameter 'knock_at' given twice"),
        ("my_bot.py", "name the class too, as my_bot.py:ClassName"),
        (":Thing", "expected package.module:Class or path/to/file.py:Class"),
        ("json:JSONDecoder", r"'JSONDecoder' is not a subclass of ginsim\.Strategy"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(StrategySpecError, match=message):
        parse_spec(spec)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuch", "unknown strategy 'nosuch'"),
        ("threshold:knock_at=11", "knock_at must be a whole number 0..10"),
        ("threshold:knock_at=4,knock_at=5", "given twice"),
        ("nofile.py:Thing", "no file 'nofile.py'"),
    ],
)
def test_bad_specs_through_the_cli_write_nothing(spec, message, run_cli, tmp_path):
    out = tmp_path / "run"
    r = run_cli("match", spec, "simple", "--hands", "10", "--jobs", "1", "--out", str(out))
    assert r.code == 2 and r.out == ""
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.err
    assert not out.exists()


def test_spec_from_an_installed_entry_point(tmp_path, monkeypatch, run_cli):
    """A real distribution on sys.path (dist-info with entry_points.txt), as pip installs it."""
    (tmp_path / "epreal.py").write_text(PLUGIN)
    info = tmp_path / "epreal-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: epreal\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[ginsim.strategies]\nlazybot = epreal:Lazy\nbrokenbot = epreal_missing:Lazy\nsimple = epreal:Lazy\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.plugin_targets.cache_clear()
    try:
        assert parse_spec("lazybot:patience=2").build().patience == 2
        assert registry.load_class("simple").__name__ == "Simple"  # a plugin cannot shadow a built-in
        r = run_cli("strategies")
        assert r.code == 0
        lines = r.out.splitlines()
        i = next(n for n, line in enumerate(lines) if line.startswith("lazybot"))
        assert "patience=3, greedy=False" in lines[i + 1]
        j = next(n for n, line in enumerate(lines) if line.startswith("brokenbot"))
        assert "cannot load" in lines[j] and "epreal_missing" in lines[j]
        assert j + 1 == len(lines) or not lines[j + 1].strip().startswith("parameters")
        r = run_cli(
            "match",
            "lazybot",
            "simple",
            "--hands",
            "4",
            "--jobs",
            "1",
            "--no-plots",
            "--quiet",
            "--out",
            str(tmp_path / "run"),
        )
        assert r.code == 0, r.err
    finally:
        registry.plugin_targets.cache_clear()
