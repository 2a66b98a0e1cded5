"""The manifest of a run folder (``manifest.json``): what was played, by which command,
on what machine, and how far it got, as a typed ``Manifest`` checked as a whole on read.
Part of the run-folder format: ginsim.runfolder.records re-exports every name, and the rest of
ginsim reads and writes manifests through it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

from ginsim.errors import RunError
from ginsim.runfolder import integrity
from ginsim.runfolder.atomic import describe_os_error, write_text_atomic

MANIFEST = "manifest.json"


class RunKind(StrEnum):
    MATCH = "match"
    ROUNDROBIN = "roundrobin"
    SWEEP = "sweep"
    GAUNTLET = "gauntlet"  # one candidate against each of a list of opponents


class RunStatus(StrEnum):
    RUNNING = "running"
    COMPLETE = "complete"
    STOPPED = "stopped"  # a sequential test decided before the last chunk
    INTERRUPTED = "interrupted"
    FAILED = "failed"


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    write_text_atomic(path, json.dumps(data, indent=2, default=str) + "\n")


@dataclass(frozen=True)
class PairingRecord:
    """One pairing as the manifest keeps it (``a`` and ``b`` are canonical specs)."""

    index: int
    a: str
    b: str
    label_a: str
    label_b: str
    param: str | None = None
    value: Any = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"index": self.index, "a": self.a, "b": self.b, "label_a": self.label_a}
        d["label_b"] = self.label_b
        if self.param is not None:
            d["param"] = self.param
            d["value"] = self.value
        return d


@dataclass(frozen=True)
class StrategyRecord:
    """A strategy of the run: its label, the spec as given, where it loads from, and every
    parameter (defaults included)."""

    label: str
    spec: str
    target: str
    parameters: dict[str, Any]
    outside: dict[str, Any] | None = None  # an outside player (ginsim.outside): how reproducible it is
    code: dict[str, Any] | None = None  # its code: digest, kind and files (ginsim.run.codedigest)

    def to_dict(self) -> dict[str, Any]:
        d = {"label": self.label, "spec": self.spec, "target": self.target, "parameters": self.parameters}
        if self.outside is not None:
            d["outside"] = self.outside
        if self.code is not None:
            d["code"] = self.code
        return d


@dataclass
class Manifest:
    """What a run folder holds: the plan that fixes its hand log (``identity``), how and
    where it was played, and how far it got. ``to_dict`` is manifest.json."""

    ginsim: str
    command: str
    kind: RunKind
    started: str
    status: RunStatus
    strategies: list[StrategyRecord]
    pairings: list[PairingRecord]
    rules: dict[str, Any]
    seed: int
    hands: int | None
    games: int | None
    duplicate: bool
    chunk: int
    chunks: int
    identity: dict[str, Any]
    finished: str | None = None
    rules_differ: dict[str, Any] = field(default_factory=dict)
    clock: bool = False
    jobs: int | None = None
    backend: str = "loky"
    scheduler: str | None = None  # the dask scheduler's address; None: a local cluster (or loky)
    cwd: str = ""  # where relative paths (a file.py:Class strategy) are read from
    platform: dict[str, Any] = field(default_factory=dict)
    param: str | None = None  # sweeps: the swept parameter
    base: str | None = None  # sweeps: the swept strategy's canonical spec
    resumed: list[str] = field(default_factory=list)
    sessions: list[dict[str, Any]] = field(default_factory=list)
    stopped: dict[str, Any] | None = None  # a sequential test's result, when one ran
    elapsed_s: float | None = None
    reproducible: bool = True  # False when an outside player's randomness could not be seeded, or a hand did not replay
    unreproduced: list[dict[str, Any]] = field(default_factory=list)  # chunks whose replay differed (run.recheck)
    preset: str = "default"  # the rule preset the rules start from (R27)
    isolate: bool = False  # tournament mode: strategies in their own processes, decks mixed with the run's secret
    format: int = 1  # the run-folder format (integrity.FORMAT); absent in folders of format 1
    extensions: list[dict[str, Any]] = field(default_factory=list)  # each time the run grew: when, from what, to what

    @property
    def labels(self) -> list[str]:
        return [s.label for s in self.strategies]

    @property
    def mode(self) -> str:
        return "hands" if self.hands is not None else "games"

    @property
    def units(self) -> int:
        """Deals (hand mode) or games (game mode) per pairing."""
        return integrity.units_per_pairing(self.hands, self.games, self.duplicate, self.format)

    @property
    def bounds(self) -> list[int]:
        """A grown run's earlier units per pairing (its chunks restart at each), else []."""
        return list(self.identity.get("bounds", []))

    @property
    def games_played(self) -> int | None:
        """Games played per pairing (game mode), whatever the folder's format."""
        if self.games is None:
            return None
        return self.units * (2 if self.duplicate else 1)

    @property
    def target_score(self) -> int:
        return int(self.rules.get("target_score", 100))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if (f.name in _OPTIONAL and not v) or (f.name == "format" and v == 1):
                continue  # absent keys stay absent, as manifests always had them
            if f.name in ("strategies", "pairings"):
                v = [x.to_dict() for x in v]
            elif isinstance(v, StrEnum):
                v = str(v)
            d[f.name] = v
        order = [k for k in _KEY_ORDER if k in d] + [k for k in d if k not in _KEY_ORDER]
        return {k: d[k] for k in order}

    @classmethod
    def from_dict(cls, data: Any, where: str = MANIFEST) -> Manifest:
        """Check a manifest as a whole: RunError with one line per problem."""
        if not isinstance(data, dict) or "identity" not in data or "ginsim" not in data:
            raise RunError(f"{where}: not a ginsim manifest")
        problems: list[str] = []
        values: dict[str, Any] = {}
        for name, (types, required) in _SCHEMA.items():
            if name not in data:
                if required:
                    problems.append(f"{name}: missing")
                continue
            v = data[name]
            if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
                problems.append(f"{name}: expected {_type_names(types)}, found {type(v).__name__} {v!r:.40}")
                continue
            values[name] = v
        if not problems:
            problems += integrity.record_problems("pairings", values["pairings"])
            problems += integrity.record_problems("strategies", values["strategies"])
        if not problems:
            problems += integrity.identity_problems(values)
            try:
                values["kind"] = RunKind(values["kind"])
                values["status"] = RunStatus(values["status"])
            except ValueError as e:
                problems.append(str(e))
            values["pairings"] = _records(PairingRecord, values.get("pairings", []), "pairings", problems)
            values["strategies"] = _records(StrategyRecord, values.get("strategies", []), "strategies", problems)
        if problems:
            raise RunError(f"{where}: not a valid manifest: " + "; ".join(problems))
        return cls(**values)


def _records(cls: type, items: list[Any], name: str, problems: list[str]) -> list[Any]:
    out = []
    for i, item in enumerate(items):
        try:
            out.append(cls(**item))
        except TypeError:
            problems.append(f"{name}[{i}]: expected an object with the keys of a {cls.__name__}, found {item!r:.60}")
    return out


def _type_names(types: tuple[type, ...]) -> str:
    return " or ".join("null" if t is type(None) else t.__name__ for t in types)


_N = type(None)
_SCHEMA: dict[str, tuple[tuple[type, ...], bool]] = {
    "ginsim": ((str,), True),
    "command": ((str,), True),
    "kind": ((str,), True),
    "started": ((str,), True),
    "status": ((str,), True),
    "strategies": ((list,), True),
    "pairings": ((list,), True),
    "rules": ((dict,), True),
    "seed": ((int,), True),
    "hands": ((int, _N), True),
    "games": ((int, _N), True),
    "duplicate": ((bool,), True),
    "chunk": ((int,), True),
    "chunks": ((int,), True),
    "identity": ((dict,), True),
    "finished": ((str, _N), False),
    "rules_differ": ((dict,), False),
    "clock": ((bool,), False),
    "jobs": ((int, _N), False),
    "backend": ((str,), False),
    "scheduler": ((str, _N), False),
    "cwd": ((str,), False),
    "platform": ((dict,), False),
    "param": ((str, _N), False),
    "base": ((str, _N), False),
    "resumed": ((list,), False),
    "sessions": ((list,), False),
    "stopped": ((dict, _N), False),
    "elapsed_s": ((float, int, _N), False),
    "reproducible": ((bool,), False),
    "unreproduced": ((list,), False),
    "preset": ((str,), False),
    "isolate": ((bool,), False),
    "format": ((int,), False),
    "extensions": ((list,), False),
}
_OPTIONAL = {"unreproduced", "isolate", "param", "base", "resumed", "sessions", "stopped", "elapsed_s", "extensions"}
_KEY_ORDER = [
    "ginsim",
    "format",
    "command",
    "kind",
    "started",
    "finished",
    "status",
    "strategies",
    "reproducible",
    "unreproduced",
    "pairings",
    "preset",
    "rules",
    "rules_differ",
    "clock",
    "seed",
    "hands",
    "games",
    "duplicate",
    "chunk",
    "chunks",
    "jobs",
    "backend",
    "scheduler",
    "cwd",
    "platform",
    "identity",
    "isolate",
    "param",
    "base",
    "resumed",
    "extensions",
    "sessions",
    "stopped",
    "elapsed_s",
]


def read_manifest(folder: Path) -> Manifest:
    """The manifest of a run folder; RunError if the folder is not a readable run."""
    path = folder / MANIFEST
    if not folder.exists():
        raise RunError(f"{folder}: no such results folder")
    if not folder.is_dir():
        raise RunError(f"{folder}: not a folder")
    if not path.is_file():
        raise RunError(f"{folder}: not a ginsim results folder (no {MANIFEST})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise RunError(f"{path}: cannot read it ({describe_os_error(e)})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RunError(f"{path}: not a valid manifest ({e})") from None
    return Manifest.from_dict(data, str(path))


def write_manifest(folder: Path, manifest: Manifest) -> None:
    write_json_atomic(folder / MANIFEST, manifest.to_dict())
