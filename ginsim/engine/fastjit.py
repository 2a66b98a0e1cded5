"""The kernel compiled to machine code by numba (optional: ``pip install "ginsim[jit]"``),
for batches of hands of the built-in parametric policies.

``kernel.py`` is one source for two compilers. mypyc compiles it with the engine; here
numba compiles the same source: the file is loaded a second time as a module of its own
(never the mypyc extension), every function in it is replaced by its ``numba.njit``
form, so calls between them stay in machine code, and ``play_rows`` runs over int64
arrays instead of lists and tuples. The hands are the kernel's, so the hand log is the
same whichever compiler ran it (tests/engine/test_fastjit.py compares them under every preset
and variant).

The first use on a machine compiles the kernel (a few seconds) and caches it next to
``kernel.py`` (numba's ``cache=True``); later processes load it from the cache. Whether
this kernel plays a run is the runner's choice (its ``engine``); ``installed()`` says
whether it can.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ginsim.engine import kernel as _compiled_kernel
from ginsim.engine.melds import tables_for
from ginsim.engine.policy import FastPolicy
from ginsim.engine.rules import Rules, rule_facts

ROW_WIDTH = _compiled_kernel.ROW_WIDTH
_SOURCE = Path(__file__).resolve().with_name("kernel.py")
_MODULE = "ginsim.engine._kernel_numba"


@cache
def _kernel() -> types.ModuleType | None:
    """``kernel.py`` loaded from its source with every function jitted, or None when
    numba (or the source: an install without it) is not there."""
    try:
        import numba
    except Exception:  # noqa: BLE001 - any failure to load numba means: no kernel
        return None
    if not _SOURCE.is_file():
        return None
    spec = importlib.util.spec_from_file_location(_MODULE, _SOURCE)
    if spec is None or spec.loader is None:  # pragma: no cover
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[_MODULE] = module  # numba's cache finds functions by their module
    spec.loader.exec_module(module)
    for name, value in list(vars(module).items()):
        if isinstance(value, types.FunctionType) and value.__module__ == _MODULE:
            setattr(module, name, numba.njit(cache=True, nogil=True)(value))
    return module


def jitted() -> types.ModuleType | None:
    """The kernel as numba compiled it (every function of ``kernel.py``, taking int64
    arrays for its lists and tuples), or None when numba is not installed."""
    return _kernel()


def installed() -> bool:
    """Whether numba and the kernel's source load in this process: the worker's check."""
    return _kernel() is not None


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
    k = _kernel()
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
        seeds.reshape(n * 4), out, np.zeros(_compiled_kernel.SCRATCH, dtype=np.int64),
    )  # fmt: skip
    return out.reshape(n, ROW_WIDTH)
