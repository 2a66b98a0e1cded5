"""What a strategy's code is, as a digest: part of a run's identity.

A run folder holds hands played by one version of each strategy. Resuming it, or rerunning
a finished run, after the strategy's code changed would mix two bots in one log (or
reprint old figures as new ones), so the manifest keeps, for every strategy, a SHA-256 of
the code that decides its play:

- ``file.py:Class`` and ``package.module:Class``: the module's source and every local
  module it imports, followed transitively (a module found in the strategy's own folder,
  in the folder the run starts in, or inside the strategy's own top-level package);
  modules of the standard library and of installed third-party packages are not followed;
  and the data files in the module's own folder that a strategy may load (weights and
  tables: ``DATA_SUFFIXES``);
- built-ins (and plugins inside ginsim): ginsim's version and the digest of the sources
  that play a hand (the engine, the plugin surface and the built-in strategies);
- ``java:CLASSPATH:Class``: every class and jar file under the classpath's entries;
- another registered prefix (``rlpolicy:FILE.py:NAME``): the Python target after it.

Nothing is imported or run to compute it (tournament mode's bots are untrusted): sources
are read and their imports parsed with ``ast``. A file that cannot be parsed is still
hashed, its imports not followed. ``digest_specs`` gives each strategy of a plan its
``CodeDigest``; ``changed_files`` names what differs between two of them.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import sys
import sysconfig
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

from ginsim.engine.registry import available, spec_prefixes
from ginsim.engine.spec import StrategySpec
from ginsim.outside import is_outside
from ginsim.runfolder.manifest import Manifest
from ginsim.version import __version__

MAX_FILES = 400  # local modules followed per strategy
MAX_PARSE_BYTES = 4_000_000  # a larger source is hashed, its imports not followed
CLASS_SUFFIXES = (".class", ".jar")
DATA_SUFFIXES = (".npy", ".npz", ".json", ".toml", ".yaml", ".yml", ".pkl", ".pickle", ".pt", ".pth", ".onnx", ".bin")
MAX_DATA_FILES = 50
MAX_DATA_BYTES = 256 * 2**20  # a larger data file is named by its size and time, not hashed
# ginsim/*.py a hand's play reads
SURFACE = ("cards", "view", "strategy", "playout", "sampling", "opponent", "errors", "version")


@dataclass(frozen=True)
class CodeDigest:
    """A strategy's code: ``digest`` (``sha256:...``) over ``files`` (name -> SHA-256 of
    the file's bytes; names are module names, or paths relative to a classpath entry)."""

    digest: str
    files: dict[str, str] = field(default_factory=dict)
    kind: str = "python"  # python, builtin, java, unknown

    def to_dict(self) -> dict[str, Any]:
        return {"digest": self.digest, "kind": self.kind, "files": dict(sorted(self.files.items()))}


def changed_files(old: dict[str, Any] | None, new: CodeDigest) -> list[str]:
    """The files that differ between a manifest's record of a strategy's code and ``new``
    (added, removed or edited), sorted; empty when the record names no files."""
    before = (old or {}).get("files") or {}
    if not isinstance(before, dict):
        return []
    names = sorted(set(before) | set(new.files))
    return [n for n in names if before.get(n) != new.files.get(n)]


def code_changes(manifest: Manifest, digests: dict[str, CodeDigest]) -> str:
    """Which strategies' code differs from what a run folder was played with, for one
    line ("strategy 'B' (b3.py:B; changed: b3.py)"); '' when each is the same, or the folder
    records no code (a run of an older ginsim, refused by its version)."""
    old = manifest.identity.get("code")
    if not isinstance(old, dict):
        return ""
    records = {s.label: s for s in manifest.strategies}
    parts = []
    for label, digest in digests.items():
        if old.get(label, digest.digest) == digest.digest:
            continue
        record = records.get(label)
        files = changed_files(record.code if record else None, digest)
        shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        spec = record.spec if record else label
        parts.append(f"strategy {label!r} ({spec}; changed: {shown})" if shown else f"strategy {label!r} ({spec})")
    return "; ".join(parts)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _combine(files: dict[str, str], *extra: str) -> str:
    h = hashlib.sha256()
    for part in extra:
        h.update(part.encode() + b"\0")
    for name in sorted(files):
        h.update(name.encode() + b"\0" + files[name].encode() + b"\n")
    return "sha256:" + h.hexdigest()


def spec_digest(spec: StrategySpec, cwd: Path | None = None) -> CodeDigest:
    """The code digest of one spec's strategy (nothing of it is imported), with the files
    its parameters name (``learned:model=PATH``: a model retrained in place is new code)."""
    cwd = Path(os.getcwd()) if cwd is None else cwd
    code = _code_digest(spec, cwd)
    named = _named_files(spec, cwd)
    if not named:
        return code
    files = {**code.files, **named}
    return CodeDigest(_combine(files, code.digest), files, code.kind)


def _named_files(spec: StrategySpec, cwd: Path) -> dict[str, str]:
    """``param:NAME`` -> the digest of the file a text parameter names, for each one
    that names an existing file."""
    out: dict[str, str] = {}
    for name, value in sorted(spec.params.items()):
        if not isinstance(value, str) or not value or len(value) > 4096:
            continue
        path = Path(value).expanduser()
        path = path if path.is_absolute() else cwd / path
        try:
            if path.is_file():
                out[f"param:{name}"] = _file_sha(path)
        except OSError:  # a value that is not a usable path
            continue
    return out


def _file_sha(path: Path) -> str:
    """A file's SHA-256, or its size and time when it is past ``MAX_DATA_BYTES``."""
    try:
        st = path.stat()
        return _sha(path.read_bytes()) if st.st_size <= MAX_DATA_BYTES else f"size {st.st_size}, mtime {st.st_mtime_ns}"
    except OSError:
        return "unreadable"


def _code_digest(spec: StrategySpec, cwd: Path) -> CodeDigest:
    target = spec.target
    if is_outside(target):
        return _java_digest(target, cwd)
    head, sep, rest = target.partition(":")
    if sep and head in spec_prefixes():  # e.g. rlpolicy:FILE.py:NAME, a Python target behind a prefix
        target = rest
    module_name = _module_of(target)
    if module_name is None:  # a file.py:Class
        path = Path(target.rpartition(":")[0]).expanduser()
        path = path if path.is_absolute() else cwd / path
        return _python_digest(path.resolve(), path.name, [path.resolve().parent, cwd])
    if module_name == "ginsim" or module_name.startswith("ginsim."):
        return ginsim_digest()
    loaded = sys.modules.get(module_name)
    file = getattr(loaded, "__file__", None) if loaded is not None else None
    origin = Path(file) if file else _find_module(module_name, [cwd, *_search_path()])
    if origin is None:
        return CodeDigest(_combine({}, "unknown", module_name), {}, "unknown")
    return _python_digest(origin.resolve(), module_name, [_package_root(origin.resolve(), module_name), cwd])


def _module_of(target: str) -> str | None:
    """The module a target names (``package.module``), or None for ``file.py:Class``."""
    named = available().get(target)
    if named is not None:
        return named.partition(":")[0]
    module_part = target.rpartition(":")[0]
    if not module_part or module_part.endswith(".py") or "/" in module_part or "\\" in module_part:
        return None
    return module_part


def _search_path() -> list[Path]:
    return [Path(p) for p in sys.path if p and Path(p).is_dir()]


def _package_root(origin: Path, module_name: str) -> Path:
    """Where a module's top-level package lives: the folder its local imports resolve in.
    Inside site-packages or the standard library, the top-level package's own folder."""
    depth = module_name.count(".") + (1 if origin.name == "__init__.py" else 0)
    root = origin.parent
    for _ in range(depth):
        root = root.parent
    if _is_foreign(root):
        top = module_name.partition(".")[0]
        return root / top
    return root


@lru_cache(maxsize=1)
def _foreign_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {paths.get(k, "") for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    return tuple(str(Path(r).resolve()) for r in roots if r)


def _is_foreign(folder: Path) -> bool:
    """Whether ``folder`` is (inside) the standard library or an installed-packages folder."""
    text = str(folder.resolve())
    return any(text == r or text.startswith(r + os.sep) for r in _foreign_roots()) or "site-packages" in folder.parts


def _find_module(name: str, roots: Iterable[Path]) -> Path | None:
    """The source file of module ``name`` under one of ``roots``, found without importing
    (package by package, as the import system would look)."""
    parts = name.split(".")
    for root in roots:
        where = [str(root)]
        found: Path | None = None
        for i, part in enumerate(parts):
            try:
                spec = PathFinder.find_spec(part, where)
            except (ImportError, ValueError, OSError):
                spec = None
            if spec is None or (spec.origin is None and not spec.submodule_search_locations):
                found = None
                break
            if i < len(parts) - 1:
                if not spec.submodule_search_locations:
                    found = None
                    break
                where = list(spec.submodule_search_locations)
            found = Path(spec.origin) if spec.origin and spec.origin not in ("namespace", "built-in") else None
        if found is not None and found.suffix == ".py":
            return found
    return None


def _python_digest(path: Path, name: str, roots: list[Path]) -> CodeDigest:
    """The module at ``path`` and the local modules it imports, transitively."""
    roots = [r for r in dict.fromkeys(roots) if r.is_dir() and not _is_foreign(r)] or [path.parent]
    files: dict[str, str] = {}
    todo: list[tuple[str, Path]] = [(name, path)]
    seen: set[Path] = set()
    while todo and len(files) < MAX_FILES:
        mod, file = todo.pop()
        if file in seen:
            continue
        seen.add(file)
        try:
            data = file.read_bytes()
        except OSError:
            files[mod] = "unreadable"
            continue
        files[mod] = _sha(data)
        if file == path:
            files.update(_data_files(file.parent))
        for imported in _imports(data, mod, file):
            if imported == "ginsim" or imported.startswith("ginsim."):
                continue  # ginsim itself: its version is the run's (manifest.ginsim)
            found = _find_module(imported, roots)
            if found is not None and not _is_foreign(found.parent):
                todo.append((imported, found.resolve()))
    return CodeDigest(_combine(files, "python"), files, "python")


def _data_files(folder: Path) -> dict[str, str]:
    """Data a strategy may load from its own folder (weights, tables: ``DATA_SUFFIXES``),
    not searched below it; named ``data:NAME``."""
    out: dict[str, str] = {}
    try:
        candidates = sorted(p for p in folder.iterdir() if p.suffix.lower() in DATA_SUFFIXES and p.is_file())
    except OSError:
        return out
    for p in candidates[:MAX_DATA_FILES]:
        out[f"data:{p.name}"] = _file_sha(p)
    return out


def _imports(data: bytes, module: str, file: Path) -> list[str]:
    """Module names a source imports (each package on the way, and ``from x import y``'s
    ``x.y`` in case ``y`` is a module); relative imports resolved against ``module``."""
    if len(data) > MAX_PARSE_BYTES:
        return []
    try:
        tree = ast.parse(data, filename=str(file))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    package = module if file.name == "__init__.py" else module.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                keep = len(parts) - (node.level - 1)
                if keep < 0:
                    continue
                base = ".".join([*parts[:keep], *([base] if base else [])])
            if base:
                names.append(base)
            names += [f"{base}.{a.name}" if base else a.name for a in node.names if a.name != "*"]
    out: list[str] = []
    for n in names:
        parts = n.split(".")
        out += [".".join(parts[: i + 1]) for i in range(len(parts))]
    return list(dict.fromkeys(x for x in out if x))


@lru_cache(maxsize=1)
def ginsim_digest() -> CodeDigest:
    """The built-ins' code: ginsim's version and the sources that play a hand (the
    engine, the plugin surface (``SURFACE``) and the built-in strategies, with the data
    files beside them: ``learned``'s model)."""
    package = Path(__file__).resolve().parent.parent  # ginsim/
    files: dict[str, str] = {}
    sources = [package / f"{name}.py" for name in SURFACE] + sorted((package / "engine").rglob("*.py"))
    spec = importlib.util.find_spec("ginsim.strategies")
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            sources += sorted(Path(folder).rglob("*.py"))
    for source in sources:
        try:
            rel = source.relative_to(package).as_posix()
        except ValueError:
            rel = "strategies/" + source.name
        files[rel] = _sha(source.read_bytes())
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            files.update({f"strategies/{k}": v for k, v in _data_files(Path(folder)).items()})
    return CodeDigest(_combine(files, "ginsim", __version__), files, "builtin")


def _java_digest(target: str, cwd: Path) -> CodeDigest:
    """Every class and jar file under the entries of a ``java:`` spec's classpath."""
    body = target[len("java:") :]
    classpath = body.rpartition(":")[0]
    files: dict[str, str] = {}
    for i, entry in enumerate(e for e in classpath.split(os.pathsep) if e):
        path = Path(entry).expanduser()
        path = path if path.is_absolute() else cwd / path
        if path.is_file():
            files[f"{i}:{path.name}"] = _sha(path.read_bytes())
            continue
        if not path.is_dir():
            continue
        for f in sorted(path.rglob("*")):
            if f.suffix in CLASS_SUFFIXES and f.is_file() and len(files) < 20 * MAX_FILES:
                files[f"{i}:{f.relative_to(path).as_posix()}"] = _sha(f.read_bytes())
    return CodeDigest(_combine(files, "java", body.rpartition(":")[2]), files, "java")


def digest_specs(specs: Iterable[tuple[str, StrategySpec]], cwd: Path | None = None) -> dict[str, CodeDigest]:
    """Label -> code digest for each (label, spec), each label once."""
    out: dict[str, CodeDigest] = {}
    for label, spec in specs:
        if label not in out:
            out[label] = spec_digest(spec, cwd)
    return out
