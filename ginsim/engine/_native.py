"""Compiled or plain: which form of the engine's hot modules this process runs.

The hot modules of ``ginsim.engine`` (``HOT`` below, the one list of them: setup.py
reads it from this file; the kernel's are modules of the package ``ginsim.engine.kernel``)
are plain, typed Python. An install compiles them with mypyc when it can (setup.py), and
the compiled module then loads in place of its source: the same code, about three times as
fast. This module, imported by ``ginsim/engine/__init__.py`` before any of them, makes the
package load the sources instead when

- ``GINSIM_PURE=1`` is set (to profile with py-spy or cProfile, to debug, or to check
  that both forms agree; worker processes inherit it), or
- a source was edited after the build (an editable checkout): a stale compiled module
  is never run; ``status()`` says so.

``status()`` says which form is running, for ``ginsim bench`` and run manifests.

An editable install (``pip install -e .``) keeps its compiled modules out of the source
folders, under ``build/editable`` of the checkout (setup.py); the build record names
that folder, and this module puts it first on the package's path, so the compiled
modules load from there. A regular install has them beside the installed sources.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import MutableSequence
from importlib.machinery import (
    BYTECODE_SUFFIXES,
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    SourceFileLoader,
    SourcelessFileLoader,
)
from pathlib import Path

HOT = (
    "kernel.bits",
    "kernel.splitmix",
    "kernel.meldsearch",
    "kernel.discard",
    "kernel.layoffs",
    "kernel.facts",
    "kernel.scoring",
    "kernel.policies",
    "kernel.loop",
    "kernel.table",
    "kernel.steps",
    "cards",
    "melds",
    "layoff",
    "view",
    "result",
    "handend",
    "hand",
    "calls",
    "playhand",
    "playout",
    "fastplay",
    "opponent",
    "rollout",
)
"""The hot modules, named under ``ginsim.engine``: every module of the kernel's package, then
the modules that call it most. mypyc compiles them as one group, so calls between them are
native."""
SUBPACKAGES = tuple(dict.fromkeys(name.rpartition(".")[0] for name in HOT if "." in name))
"""The packages under ``ginsim.engine`` that hold hot modules (the kernel's)."""
_HERE = Path(__file__).resolve().parent
_RECORD = _HERE / "_compiled.json"


def _build_record() -> dict[str, object] | None:
    try:
        record = json.loads(_RECORD.read_text())
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def source_name(name: str) -> str:
    """A hot module's source file, relative to ginsim/engine (``kernel.bits``: ``kernel/bits.py``)."""
    return name.replace(".", "/") + ".py"


def stale_sources(record: dict[str, object], folder: Path = _HERE) -> list[str]:
    """The sources in ``folder`` that differ from the ones the build record compiled."""
    sources = record.get("sources")
    if not isinstance(sources, dict):
        return [source_name(name) for name in HOT]
    out = []
    for name, digest in sources.items():
        try:
            now = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        except OSError:
            continue  # an install without sources runs the compiled module, nothing to compare
        if now != digest:
            out.append(name)
    return out


def _load_sources(package_path: list[str]) -> None:
    """Make the package's own folders (its hot subpackages' too) import ``.py`` files only,
    never extensions."""
    folders = [*package_path, *(os.path.join(entry, sub) for entry in package_path for sub in SUBPACKAGES)]
    for entry in folders:
        sys.path_importer_cache[entry] = FileFinder(
            entry, (SourceFileLoader, SOURCE_SUFFIXES), (SourcelessFileLoader, BYTECODE_SUFFIXES)
        )


def _decide() -> str:
    """Why this process runs the sources, or "" to let compiled modules load."""
    if os.environ.get("GINSIM_PURE", "") not in ("", "0"):
        return "GINSIM_PURE is set"
    record = _build_record()
    if record is None:
        return "not compiled"
    stale = stale_sources(record)
    if stale:
        # silent (a command's stderr stays its own); ``ginsim bench`` and manifests say it
        return f"{', '.join(stale)} edited since the build; pip install -e . compiles again"
    return ""


def _use_build_folder(record: dict[str, object], package_path: MutableSequence[str]) -> str:
    """Load an editable install's compiled modules from the build folder its record names.

    The shared library of the compiled group (``ginsim__mypyc``, a top-level module) is
    loaded from there by hand, and the folder's copy of this package goes first on the
    package's path, and so do its copies of the hot subpackages on theirs (each is
    imported here: a package whose ``__init__`` lies in the sources would not look in the
    build folder). Returns why the sources must run instead, or "" when all is in place.
    """
    folder = record.get("folder")
    if not isinstance(folder, str):
        return ""  # a regular install: the compiled modules sit beside their sources
    root = (_HERE.parent.parent / folder).resolve()
    engine = root / "ginsim" / "engine"
    shared = [root / f"ginsim__mypyc{suffix}" for suffix in EXTENSION_SUFFIXES]
    found = [path for path in shared if path.is_file()]
    if not engine.is_dir() or not found:
        return f"no compiled modules in {root}; pip install -e . compiles again"
    if "ginsim__mypyc" not in sys.modules:
        spec = importlib.util.spec_from_file_location("ginsim__mypyc", found[0])
        if spec is None or spec.loader is None:
            return f"cannot load {found[0]}"
        module = importlib.util.module_from_spec(spec)
        sys.modules["ginsim__mypyc"] = module
        spec.loader.exec_module(module)
    if str(engine) not in package_path:
        package_path.insert(0, str(engine))
    for sub in SUBPACKAGES:
        sub_path: MutableSequence[str] = importlib.import_module(f"ginsim.engine.{sub}").__path__
        if str(engine / sub) not in sub_path:
            sub_path.insert(0, str(engine / sub))
    return ""


_PACKAGE_PATH: MutableSequence[str] = sys.modules["ginsim.engine"].__path__
_REASON = _decide()
if not _REASON:
    _REASON = _use_build_folder(_build_record() or {}, _PACKAGE_PATH)
if _REASON:
    _load_sources(list(_PACKAGE_PATH))


def compiled_modules() -> list[str]:
    """The hot modules this process loads as compiled extensions (importing any not yet loaded)."""
    out = []
    for name in HOT:
        module = importlib.import_module(f"ginsim.engine.{name}")
        origin = getattr(module, "__file__", None) or ""
        if origin and not origin.endswith((".py", ".pyc")):
            out.append(name)
    return out


def status() -> str:
    """One line: which form of the hot modules runs here, and why."""
    done = compiled_modules()
    if len(done) == len(HOT):
        record = _build_record() or {}
        return f"compiled ({record.get('compiler', 'mypyc')})"
    if done:
        return f"partly compiled ({', '.join(done)})"
    return f"pure Python ({_REASON or 'no compiled modules found'})"


def is_compiled() -> bool:
    return len(compiled_modules()) == len(HOT)
