"""Experiment files: one TOML file names one run (what plays whom, how many hands or games,
seed, rules, output folder), so an analysis is reproduced by ``ginsim run FILE``.

Schema (top-level keys; the kind decides which of the "who" keys apply)::

    kind = "match" | "roundrobin" | "sweep" | "gauntlet"
    description = "what the experiment asks"          # optional
    a = "simple"                                      # match
    b = "threshold:knock_at=5"                        # match
    strategies = ["random", "simple", "threshold"]    # roundrobin
    strategy = "threshold"                            # sweep: the strategy swept
    param = "knock_at"                                # sweep: its parameter
    values = "0:10"  or  [0, 2, 4]                    # sweep: START:STOP[:STEP] (inclusive) or a list
    vs = ["simple"]                                   # sweep, gauntlet: the opponents
    params = { late_knock_at = [2, 6], late_turn = "10:20:5" }  # sweep: a grid (instead of param, values)
    candidate = "my_bot.py:MyBot"                     # gauntlet: played against each of vs
    hands = 100000  or  games = 2000                  # played per pairing (exactly one; with
                                                      # duplicate deals, half as many deals twice)
    seed = 1                                          # default 0
    duplicate = true                                  # default true
    out = "results/knock_sweep"                       # default results/<file stem>
    [rules]                                           # optional, as in RULES.md
    gin_bonus = 25
    # or: rules = "eaai" (a preset, R27), or preset = "eaai" inside [rules] with changes


Every mistake is a RunError naming the file and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ginsim.engine.rng import MAX_SEED
from ginsim.engine.rules import Rules, rules_from_table
from ginsim.errors import GinsimError, RunError
from ginsim.run.describe import GauntletRun, MatchRun, RoundRobinRun, RunDescription, SweepRun
from ginsim.run.plan import KINDS, plan_run
from ginsim.runfolder.records import RunKind
from ginsim.tournament.spec_check import parse_specs

COMMON_KEYS = ("kind", "description", "hands", "games", "seed", "duplicate", "out", "rules")
KIND_KEYS: dict[str, tuple[str, ...]] = {
    "match": ("a", "b"),
    "roundrobin": ("strategies",),
    "sweep": ("strategy", "param", "values", "params", "vs"),
    "gauntlet": ("candidate", "vs"),
}


@dataclass(frozen=True)
class Experiment:
    """A checked experiment file: the run it describes, ready for ``launch``."""

    path: Path
    run: RunDescription
    hands: int | None
    games: int | None
    seed: int = 0
    duplicate: bool = True
    rules: Rules = field(default_factory=Rules)
    out: Path = Path("results")
    description: str = ""

    @property
    def kind(self) -> RunKind:
        return self.run.kind


def _bad(path: Path, key: str, problem: str) -> RunError:
    return RunError(f"{path}: key {key!r}: {problem}")


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RunError(f"{path}: no such experiment file") from None
    except IsADirectoryError:
        raise RunError(f"{path}: is a folder, not an experiment file") from None
    except OSError as e:
        raise RunError(f"{path}: cannot read it ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise RunError(f"{path}: not UTF-8 text") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RunError(f"{path}: not valid TOML ({e})") from None


def _text(path: Path, data: dict[str, Any], key: str) -> str:
    if key not in data:
        raise _bad(path, key, f"missing (a {data['kind']} needs {', '.join(KIND_KEYS[data['kind']])})")
    v = data[key]
    if not isinstance(v, str) or not v.strip():
        raise _bad(path, key, f"must be a non-empty string, not {v!r}")
    return v.strip()


def _texts(path: Path, data: dict[str, Any], key: str, least: int) -> list[str]:
    if key not in data:
        raise _bad(path, key, f"missing (a {data['kind']} needs {', '.join(KIND_KEYS[data['kind']])})")
    v = data[key]
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list) or not all(isinstance(s, str) and s.strip() for s in v):
        raise _bad(path, key, f"must be a list of strategy names, not {v!r}")
    if len(v) < least:
        raise _bad(path, key, f"needs at least {least} strategies, not {len(v)}")
    return [s.strip() for s in v]


def _count(path: Path, data: dict[str, Any], key: str) -> int | None:
    v = data.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        raise _bad(path, key, f"must be a positive whole number, not {v!r}")
    return v


def _values(path: Path, v: Any, key: str = "values") -> str:
    """The ``values`` key (or a value of ``params``) as the text after ``NAME=`` of ``--param``."""
    if isinstance(v, str):
        parts = v.split(":")
        ok = len(parts) in (2, 3)
        for p in parts:
            try:
                float(p)
            except ValueError:
                ok = False
        if not ok:
            raise _bad(path, key, f'expected "START:STOP" or "START:STOP:STEP" or a list, not {v!r}')
        return v.strip()
    if not isinstance(v, list) or not v:
        raise _bad(path, key, f'expected "START:STOP[:STEP]" or a non-empty list, not {v!r}')
    out = []
    for item in v:
        if isinstance(item, bool):
            out.append("true" if item else "false")
        elif isinstance(item, int | float) or (isinstance(item, str) and item.strip() and "," not in item):
            out.append(str(item).strip())
        else:
            raise _bad(path, key, f"list items must be numbers, true/false or plain words, not {item!r}")
    return ",".join(out)


def _description(path: Path, data: dict[str, Any], isolate: bool = False) -> RunDescription:
    """Who plays, checked (``isolate``: bots' specs checked in processes of their own,
    ginsim.tournament.spec_check)."""
    kind = data["kind"]
    run: RunDescription
    if kind == RunKind.MATCH:
        run = MatchRun(_text(path, data, "a"), _text(path, data, "b"))
        specs = {"a": [run.a], "b": [run.b]}
    elif kind == RunKind.ROUNDROBIN:
        run = RoundRobinRun(tuple(_texts(path, data, "strategies", 2)))
        specs = {"strategies": list(run.strategies)}
    elif kind == RunKind.GAUNTLET:
        run = GauntletRun(_text(path, data, "candidate"), tuple(_texts(path, data, "vs", 1)))
        specs = {"candidate": [run.candidate], "vs": list(run.versus)}
    else:
        texts = _sweep_params(path, data)
        run = SweepRun(_text(path, data, "strategy"), texts[0], tuple(_texts(path, data, "vs", 1)), tuple(texts[1:]))
        specs = {"strategy": [run.strategy], "vs": list(run.versus)}
    for key, texts in specs.items():
        try:
            parsed = parse_specs(texts, isolate)
        except GinsimError as e:
            raise _bad(path, key, str(e)) from None
        if key == "strategy" and isinstance(run, SweepRun):
            for spec in parsed:
                known = spec.defaults()
                for text in run.params:
                    param = text.partition("=")[0]
                    if param not in known:
                        raise _bad(
                            path,
                            "params" if "params" in data else "param",
                            f"{spec.label} has no parameter {param!r} (parameters: {', '.join(known) or 'none'})",
                        )
    return run


def _sweep_params(path: Path, data: dict[str, Any]) -> list[str]:
    """A sweep's parameters as ``--param`` texts: ``param`` and ``values``, or a ``params``
    table of name = values (a grid when it names several)."""
    if "params" in data:
        if "param" in data or "values" in data:
            raise _bad(path, "params", "give params (a grid) or param and values, not both")
        table = data["params"]
        if not isinstance(table, dict) or not table:
            raise _bad(
                path, "params", 'must be a table of name = values, e.g. { knock_at = "0:10", late_turn = [10, 20] }'
            )
        return [f"{name}={_values(path, v, f'params.{name}')}" for name, v in table.items()]
    param = _text(path, data, "param")
    if "=" in param or ":" in param:
        raise _bad(path, "param", f"must be a parameter name such as knock_at, not {param!r}")
    if "values" not in data:
        raise _bad(path, "values", "missing (a sweep needs strategy, param, values, vs; or params for a grid)")
    return [f"{param}={_values(path, data['values'])}"]


_FILE_KEYS = {"param": "values", "vs": "vs", "hands": "hands", "games": "games", "seed": "seed"}
"""The experiment file's key for each parameter a plan's error may name."""


def load_experiment(path: str | Path, isolate: bool = False) -> Experiment:
    """Read and check an experiment file; RunError (file and key named) on any mistake.
    ``isolate`` (tournament mode): bots' specs are checked in processes of their own."""
    p = Path(path)
    data = _read(p)
    kind = data.get("kind")
    if "kind" not in data:
        raise _bad(p, "kind", f"missing (one of {', '.join(KINDS)})")
    if kind not in KINDS:
        raise _bad(p, "kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
    allowed = COMMON_KEYS + KIND_KEYS[kind]
    for key in data:
        if key not in allowed:
            other = [k for k, keys in KIND_KEYS.items() if key in keys]
            hint = f"it belongs to kind = {other[0]!r}" if other else f"known keys: {', '.join(allowed)}"
            raise _bad(p, key, f"unknown key for kind = {kind!r} ({hint})")
    hands, games = _count(p, data, "hands"), _count(p, data, "games")
    if hands is not None and games is not None:
        raise _bad(p, "games", "give hands or games, not both")
    if hands is None and games is None:
        raise _bad(p, "hands", "missing: say how many per pairing with hands = N or games = N")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise _bad(p, "seed", f"must be a whole number from 0 to 2**63-1, not {seed!r}")
    duplicate = data.get("duplicate", True)
    if not isinstance(duplicate, bool):
        raise _bad(p, "duplicate", f"must be true or false, not {duplicate!r}")
    out = data.get("out", str(Path("results") / p.stem))
    if not isinstance(out, str) or not out.strip():
        raise _bad(p, "out", f"must be a folder path (a string), not {out!r}")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise _bad(p, "description", f"must be a string, not {description!r}")
    table = data.get("rules", {})
    if isinstance(table, str):  # rules = "eaai": a preset (R27)
        table = {"preset": table}
    if not isinstance(table, dict):
        raise _bad(p, "rules", "must be a preset's name or a [rules] table of key = value lines")
    try:
        rules = rules_from_table(table, f"{p}: [rules]")
    except GinsimError as e:
        raise RunError(str(e)) from None
    run = _description(p, data, isolate)
    exp = Experiment(p, run, hands, games, seed, duplicate, rules, Path(out.strip()), description.strip())
    try:  # what only the whole plan can tell: a strategy listed twice, a sweep value out of range
        plan_run(run, rules=rules, seed=seed, hands=hands, games=games, duplicate=duplicate)
    except GinsimError as e:
        problem = e.message(_FILE_KEYS)
        match run:
            case RoundRobinRun():
                raise _bad(p, "strategies", problem) from None
            case SweepRun():
                raise _bad(p, "params" if "params" in data else "values", problem) from None
            case GauntletRun():
                raise _bad(p, "vs", problem) from None
        raise RunError(f"{p}: {problem}") from None
    return exp
