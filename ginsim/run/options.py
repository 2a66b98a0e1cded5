"""The engine a run plays with, a run option like ``jobs``: passed from the CLI's
``--engine`` and the Python API's ``engine=`` through the plan and the runner into every
``ChunkTask``. The environment variables below are the user's overrides; ``resolve_engine``
reads them, once, at the edge (the CLI group, the public run functions), and nothing
below it looks at the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum

from ginsim.errors import RunError


class Engine(StrEnum):
    """What plays a run's hands."""

    AUTO = "auto"
    """The fast path for pairings of built-in policies (numba's kernel for hand-mode
    chunks when ``ginsim[jit]`` is installed), the general engine for the rest."""
    COMPILED = "compiled"
    """The fast path without numba's kernel."""
    GENERAL = "general"
    """Every hand through ``play_hand``."""


ENGINES = tuple(e.value for e in Engine)
GENERAL_ENV = "GINSIM_GENERAL"
"""``GINSIM_GENERAL=1``: the general engine, when the caller did not choose."""
JIT_ENV = "GINSIM_JIT"
"""``GINSIM_JIT=0``: the fast path without numba's kernel, when the caller did not choose."""
PURE_ENV = "GINSIM_PURE"
"""``GINSIM_PURE=1``: the sources run, never compiled code: neither mypyc's modules
(ginsim.engine._native reads it at import) nor numba's kernel."""

_OFF = ("0", "no", "false", "off")


def resolve_engine(engine: Engine | str | None = None, environ: Mapping[str, str] | None = None) -> Engine:
    """The engine of a run: ``engine`` when the caller gave one, else what the
    environment asks for (``GINSIM_GENERAL=1``: general; ``GINSIM_JIT=0``: compiled;
    else auto). Under ``GINSIM_PURE=1`` "auto" becomes "compiled": no compiled code runs.
    RunError naming ``engine`` for a value that is not an engine."""
    env = os.environ if environ is None else environ
    if engine is None:
        if env.get(GENERAL_ENV, "").strip() not in ("", "0"):
            chosen = Engine.GENERAL
        elif env.get(JIT_ENV, "1").strip().lower() in _OFF:
            chosen = Engine.COMPILED
        else:
            chosen = Engine.AUTO
    else:
        try:
            chosen = Engine(engine)
        except ValueError:
            raise RunError.about(
                "{engine} must be one of {known}, not {value!r}", known=", ".join(ENGINES), value=engine
            ) from None
    if chosen is Engine.AUTO and env.get(PURE_ENV, "").strip() not in ("", "0"):
        return Engine.COMPILED
    return chosen
