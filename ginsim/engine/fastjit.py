"""The kernel compiled to machine code by numba (optional: ``pip install "ginsim[jit]"``),
for batches of hands of the built-in parametric policies.

The kernel (the package ``ginsim.engine.kernel``) is one source for two compilers. mypyc
compiles it with the engine; here numba compiles the same source: each of its modules is
loaded a second time from its file as a module of its own (never the mypyc extension,
``_twins``), every function in it is replaced by its ``numba.njit`` form, and each
module's imports of its siblings' functions are pointed at their jitted forms, so calls
between them stay in machine code (numba reads a function's globals when it first
compiles it, after this). ``loop.play_rows`` then runs over int64 arrays instead of lists
and tuples. The hands are the kernel's, so the hand log is the same whichever compiler ran
it (tests/engine/test_fastjit.py compares them under every preset and variant).

The first use on a machine compiles the kernel (a few seconds) and caches it next to its
sources (numba's ``cache=True``); later processes load it from the cache. numba checks a
cached function against its own file only, while its machine code holds the functions it
calls in sibling files, so the cache folder records the digest of all the kernel's sources
and is emptied of the kernel's functions when they change (``_drop_stale_caches``).
Whether this kernel plays a run is the runner's choice (its ``engine``); ``installed()``
says whether it can.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import types
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ginsim.engine.kernel import loop
from ginsim.engine.kernel.scoring import SCRATCH
from ginsim.engine.melds import tables_for
from ginsim.engine.policy import FastPolicy
from ginsim.engine.rules import Rules, rule_facts

ROW_WIDTH = loop.ROW_WIDTH
_PACKAGE = "ginsim.engine.kernel"
_SOURCES = Path(__file__).resolve().with_name("kernel")
_TWINS = "ginsim.engine._kernel_numba"
"""The jitted modules' names: ``ginsim.engine._kernel_numba.bits`` for ``kernel/bits.py``."""
_RECORD = "ginsim-kernel.sha256"
"""The file, in numba's cache folder, that names the kernel sources its caches were built from."""


def _load(path: Path, name: str) -> types.ModuleType:
    """The source at ``path`` run as a new module ``name`` (never the compiled extension)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover
        raise ImportError(f"fastjit: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cache finds functions by their module
    spec.loader.exec_module(module)
    return module


@cache
def _twins() -> dict[str, types.ModuleType] | None:
    """Each kernel module (by its name) loaded from its source with every function jitted,
    or None when numba (or the sources: an install without them) is not there."""
    try:
        import numba
    except Exception:  # noqa: BLE001 - any failure to load numba means: no kernel
        return None
    paths = sorted(p for p in _SOURCES.glob("*.py") if p.name != "__init__.py")
    if not paths:
        return None
    twins: dict[str, types.ModuleType] = {}
    jitted: dict[tuple[str, str], Any] = {}  # (kernel module, function name) -> its jitted form
    for path in paths:
        module = _load(path, f"{_TWINS}.{path.stem}")
        for name, value in list(vars(module).items()):
            if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
                jitted[(f"{_PACKAGE}.{path.stem}", name)] = fn = numba.njit(cache=True, nogil=True)(value)
                setattr(module, name, fn)
        twins[f"{_PACKAGE}.{path.stem}"] = module
    for module in twins.values():  # a sibling's function, imported (compiled or plain): its jitted form
        for name, value in list(vars(module).items()):
            key = (getattr(value, "__module__", None), getattr(value, "__name__", None))
            if key in jitted:
                setattr(module, name, jitted[key])
    _drop_stale_caches(jitted.values(), _digest(paths))
    return twins


def _digest(paths: Iterable[Path]) -> str:
    """The kernel's sources, hashed together (names and contents)."""
    h = hashlib.sha256()
    for path in paths:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _drop_stale_caches(dispatchers: Iterable[Any], digest: str) -> None:
    """Empty numba's caches of the kernel's functions in each cache folder whose record
    names other sources than ``digest``, then record it: numba checks a cached function
    against its own file only, and a kernel function's machine code holds the functions
    (and constants) of sibling files it calls. Before the first call, so nothing compiled
    or loaded from the cache is stale."""
    folders: dict[Path, list[Any]] = {}
    for fn in dispatchers:
        store = getattr(fn, "_cache", None)  # numba's FunctionCache (a NullCache has no folder)
        folder = getattr(store, "cache_path", None)
        if isinstance(folder, str):
            folders.setdefault(Path(folder), []).append(store)
    for folder, stores in folders.items():
        record = folder / _RECORD
        try:
            if record.read_text(encoding="ascii") == digest:
                continue
        except (OSError, ValueError):
            pass
        tmp = folder / f"{_RECORD}.{os.getpid()}"
        try:
            for store in stores:
                store.flush()
            tmp.write_text(digest, encoding="ascii")
            os.replace(tmp, record)
        except OSError:  # pragma: no cover - a folder numba writes to but we cannot: emptied each time
            pass


def jitted(module: types.ModuleType) -> types.ModuleType | None:
    """The kernel module ``module`` (``ginsim.engine.kernel.loop``, ...) as numba compiled
    it: its every function jitted, taking int64 arrays for its lists and tuples; None when
    numba is not installed."""
    twins = _twins()
    return None if twins is None else twins[module.__name__]


def installed() -> bool:
    """Whether numba and the kernel's sources load in this process: the worker's check."""
    return _twins() is not None


@cache
def version() -> str | None:
    """numba's installed version without importing it (the runner's label for its
    manifest: the parent process never plays a fast-path chunk), or None."""
    from importlib import metadata, util

    if util.find_spec("numba") is None:
        return None
    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return None


def status() -> str:
    """One line for ``ginsim bench`` and manifests."""
    v = version()
    return "not installed (pip install 'ginsim[jit]')" if v is None else f"numba {v}"


@cache
def tables_array(max_run_length: int | None) -> np.ndarray:
    """The flat meld tables as an int64 array (the jitted kernel's ``TB``)."""
    return np.asarray(tables_for(max_run_length).flat, dtype=np.int64)


def facts_array(rules: Rules) -> Any:
    """The rule facts with their per-upcard tuples as arrays (the jitted kernel's ``facts``)."""
    f = rule_facts(rules)
    return f._replace(limits=np.asarray(f.limits, dtype=np.int64), mults=np.asarray(f.mults, dtype=np.int64))


def jit_rows(
    rules: Rules,
    seats: tuple[FastPolicy, FastPolicy] | list[FastPolicy],
    decks: np.ndarray,
    dealers: np.ndarray,
    seeds0: np.ndarray,
    seeds1: np.ndarray,
) -> np.ndarray:
    """``fastplay.fast_rows`` as an (n, ``ROW_WIDTH``) int64 array: hand ``i`` is
    ``decks[i]`` ((n, 52) card ints, checked by the caller) dealt by ``dealers[i]`` with
    seat seeds ``(seeds0[i], seeds1[i])``."""
    k = jitted(loop)
    if k is None:
        raise RuntimeError("fastjit: numba is not installed (pip install 'ginsim[jit]')")
    n = len(decks)
    kinds = np.array([s.kind for s in seats], dtype=np.int64)
    knock_at = np.array([s.knock_at for s in seats], dtype=np.int64)
    chances = np.array([x for s in seats for x in (s.take_chance, s.knock_chance)], dtype=np.float64)
    seeds = np.empty((n, 4), dtype=np.int64)
    for j, s in enumerate((seeds0, seeds1)):
        u = np.asarray(s, dtype=np.uint64)
        seeds[:, 2 * j] = (u >> np.uint64(32)).astype(np.int64)
        seeds[:, 2 * j + 1] = (u & np.uint64(0xFFFFFFFF)).astype(np.int64)
    out = np.empty(n * ROW_WIDTH, dtype=np.int64)
    k.play_rows(
        facts_array(rules), tables_array(rules.max_run_length), kinds, knock_at, chances,
        np.ascontiguousarray(decks, dtype=np.int64).reshape(n * 52),
        np.ascontiguousarray(dealers, dtype=np.int64),
        seeds.reshape(n * 4), out, np.zeros(SCRATCH, dtype=np.int64),
    )  # fmt: skip
    return out.reshape(n, ROW_WIDTH)
