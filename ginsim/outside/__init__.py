"""Strategies that run outside Python: EAAI Java players (``java:CLASSPATH:ClassName``).

Importing this package registers the spec prefix ``java`` with the engine's registry
(``ginsim.engine.registry.register_prefix``), so every spec parser sees Java players while
the engine imports nothing from here; ``import ginsim`` imports it. ``load(target, where)``
builds the strategy class of such a spec; ``manifest_fields`` says what a run's manifest
should record about a strategy class (how reproducible it is).

The layer, as the import contract of pyproject.toml checks (tests/test_layers.py): above
the engine, below ``ginsim.tournament`` (whose bots' processes may host a Java player) and
``ginsim.run``; nothing here imports either or any layer above them.
"""

from __future__ import annotations

from typing import Any

from ginsim.engine.registry import register_prefix
from ginsim.errors import StrategySpecError

PREFIX = "java:"


def is_outside(target: str) -> bool:
    return target.startswith(PREFIX)


def load(target: str, where: str) -> type:
    """The strategy class of an outside spec; StrategySpecError (one line) if it cannot be had."""
    from ginsim.outside.java import java_class
    from ginsim.outside.jvm import JavaError

    try:
        return java_class(target)
    except JavaError as e:
        raise StrategySpecError(f"strategy {where!r}: {e}") from None


def manifest_fields(cls: type) -> dict[str, Any]:
    """For an outside strategy: ``{"outside": {...}}`` with its reproducibility notes."""
    info = getattr(cls, "outside_info", None)
    return {"outside": info()} if callable(info) else {}


register_prefix(PREFIX.rstrip(":"), load)
