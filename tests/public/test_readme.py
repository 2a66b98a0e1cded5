"""Every command of the README works as a new user would type it, at a small size.

The commands are read from the README's code blocks, not copied here: a command added
to the README is run by this test. Sizes shrink (``--hands 20``), placeholders take real
values (``results/<run>`` a run folder made first, ``my_bot.py`` the README's own
``Cautious``), and the few that cannot run in a test say why in ``NOT_RUN``."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginsim.cli import cli

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SIZED = ("match", "roundrobin", "sweep", "gauntlet", "run")
NOT_RUN = {
    "web": "a server that runs until stopped (tests/web start it)",
    "bench": "a measurement of a few seconds per figure (tests/run/test_bench.py runs it small)",
}


def blocks(lang: str | None = None) -> list[str]:
    """The README's fenced code blocks (of ``lang``, or every one)."""
    found = re.findall(r"^```(\w*)\n(.*?)^```", README, re.M | re.S)
    return [body for kind, body in found if lang is None or kind == lang]


def commands() -> list[str]:
    """Each ``ginsim ...`` line of the README's code blocks, comments dropped."""
    out = []
    for body in blocks():
        for line in body.splitlines():
            line = line.removeprefix("$ ").strip()
            if line.startswith("ginsim "):
                out.append(line.split("  #")[0].strip())
    return list(dict.fromkeys(out))


def shrunk(args: list[str], folder: Path, n: int) -> list[str]:
    """The command at test size: counts replaced, placeholders filled, its own output folder."""
    out: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("--hands", "--games") and args[0] in SIZED:
            skip = True
            continue
        a = a.replace("results/<run>", str(folder / "base")).replace("my_bot.py:MyBot", "my_bot.py:Cautious")
        out.append(str(ROOT / a) if a.startswith("experiments/") else a)
    if args[0] in SIZED:
        out += ["--hands", "20", "--jobs", "1", "--out", str(folder / f"run{n}")]
        if args[0] != "run":
            out.append("--no-plots")
    return out


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("readme")
    bot = next(b for b in blocks("python") if b.startswith("# my_bot.py"))
    (folder / "my_bot.py").write_text(bot, encoding="utf-8")
    result = CliRunner().invoke(cli, ["match", "aware", "simple", "--hands", "20", "-q", "--out", str(folder / "base")])
    assert result.exit_code == 0, result.output
    return folder


def test_the_readme_shows_every_main_command() -> None:
    names = {c.split()[1] for c in commands()}
    for name in ("check", "match", "roundrobin", "sweep", "run", "replay", "play", "validate", "strategies", "rules"):
        assert name in names, name


@pytest.mark.parametrize("n,line", list(enumerate(commands())))
def test_a_readme_command_runs(n: int, line: str, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args = shlex.split(line)[1:]
    if args[0] in NOT_RUN:
        pytest.skip(f"ginsim {args[0]}: {NOT_RUN[args[0]]}")
    monkeypatch.chdir(workdir)
    typed = "quit\n" if args[0] == "play" else None
    result = CliRunner().invoke(cli, shrunk(args, workdir, n), input=typed)
    assert result.exit_code == 0, f"{line}\n{result.output}"


def test_the_readmes_check_example_prints_what_the_readme_shows() -> None:
    body = next(b for b in blocks("") if b.startswith("$ ginsim check"))
    line, *shown = body.rstrip("\n").splitlines()
    result = CliRunner().invoke(cli, shlex.split(line.removeprefix("$ "))[1:])
    assert result.exit_code == 0
    assert [s.rstrip() for s in result.output.rstrip("\n").splitlines()] == [s.rstrip() for s in shown]


def test_the_readmes_python_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = next(b for b in blocks("python") if b.startswith("import ginsim"))
    small = re.sub(r"hands=\d+", "hands=20", code).replace("hands=20)", "hands=20, jobs=1)")
    assert small != code
    monkeypatch.chdir(tmp_path)
    exec(compile(small, "README.md", "exec"), {})
