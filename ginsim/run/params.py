"""A sweep's parameters as the user gives them: ``NAME=START:STOP[:STEP]`` (inclusive)
or ``NAME=v1,v2,...``, one or several (several make the Cartesian grid of their values).
Text only: whether the strategy has such a parameter is the plan's to check."""

from __future__ import annotations

import itertools
from typing import Any

from ginsim.errors import RunError

MAX_GRID = 10_000
"""The most combinations of a grid (a sweep's pairings are limited anyway)."""


def parse_param_range(text: str) -> tuple[str, list[Any]]:
    """``knock_at=0:10[:step]`` (inclusive) or ``knock_at=1,4,7`` as (name, values)."""
    name, sep, rng = text.partition("=")
    name = name.strip()
    if not sep or not name or not rng.strip():
        raise RunError.about("{param}: expected NAME=START:STOP[:STEP] or NAME=v1,v2,..., not {text!r}", text=text)
    rng = rng.strip()
    if ":" in rng:
        parts = rng.split(":")
        if len(parts) not in (2, 3):
            raise RunError.about("{param} {text!r}: a range is START:STOP or START:STOP:STEP", text=text)
        try:
            nums = [_number(p) for p in parts]
        except ValueError:
            raise RunError.about("{param} {text!r}: range bounds must be numbers", text=text) from None
        start, stop = nums[0], nums[1]
        step = nums[2] if len(nums) == 3 else 1
        if step <= 0:
            raise RunError.about("{param} {text!r}: the step must be positive", text=text)
        if stop < start:
            raise RunError.about("{param} {text!r}: STOP is below START", text=text)
        values: list[Any] = []
        k = 0
        while True:
            v = start + k * step
            if v > stop + 1e-9 * abs(step):
                break
            values.append(round(v, 10) if isinstance(v, float) else v)
            k += 1
            if k > 10_000:
                raise RunError.about("{param} {text!r}: more than 10000 values", text=text)
        return name, values
    items = [p.strip() for p in rng.split(",")]
    if any(not p for p in items):
        raise RunError.about("{param} {text!r}: empty value in the list", text=text)
    return name, items


def _number(text: str) -> int | float:
    t = text.strip()
    try:
        return int(t)
    except ValueError:
        return float(t)


def param_grid(texts: list[str]) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The parameters' names and every combination of their values (the first parameter
    varying slowest); RunError naming ``param`` for a name given twice or a grid too big."""
    names: list[str] = []
    ranges: list[list[Any]] = []
    for text in texts:
        name, values = parse_param_range(text)
        if name in names:
            raise RunError.about("{param} {name!r} is given twice (one --param per parameter)", name=name)
        names.append(name)
        ranges.append(values)
    size = 1
    for values in ranges:
        size *= len(values)
    if size > MAX_GRID:
        raise RunError.about("{param}: {size:,} combinations; a grid holds at most {most:,}", size=size, most=MAX_GRID)
    return names, list(itertools.product(*ranges))
