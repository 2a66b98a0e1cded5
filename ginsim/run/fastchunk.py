"""The fast path's side of a chunk: whether a pairing is played by the built-in policies'
kernel (``ginsim.engine.fastplay``, or numba's ``fastjit``) rather than the general engine,
and a hand-mode chunk's columns played that way, a whole copy at a time."""

from __future__ import annotations

from typing import Any

import numpy as np

from ginsim.engine import fastjit
from ginsim.engine.fastplay import ROW_FIELDS, ROW_WIDTH, fast_rows
from ginsim.engine.policy import FastPolicy
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec
from ginsim.engine.strategy import Strategy
from ginsim.errors import RunError
from ginsim.run.options import GENERAL_ENV, Engine
from ginsim.run.runplan import ChunkTask
from ginsim.runfolder.records import COLUMNS


def fast_policy(cls: object, params: dict[str, Any]) -> FastPolicy | None:
    """The fast form a strategy class offers for ``params`` (``Strategy.fast_policy``: the
    built-in parametric policies, checked by exact class, so a subclass, a user's strategy
    or an outside player is always played by the general engine). Anything that is not a
    Strategy subclass, such as tournament mode's factories, has none."""
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        return None
    return cls.fast_policy(params)


def fast_path_reason(rules: Rules, cls_a: type[Strategy], cls_b: type[Strategy], engine: Engine) -> str:
    """Why a pairing is played by the general engine under ``engine``, or "" when the
    fast path plays it."""
    if engine == Engine.GENERAL:
        return f"the general engine was asked for ({GENERAL_ENV}=1 or --engine general)"
    if rules.time_per_hand is not None:
        return "the rules set a clock (time_per_hand)"
    for cls in (cls_a, cls_b):
        if fast_policy(cls, {}) is None:
            return f"{getattr(cls, 'name', '') or cls.__name__} is not a built-in policy the fast path plays"
    return ""


def fast_seats(task: ChunkTask, cls_a: type[Strategy], cls_b: type[Strategy]) -> tuple[FastPolicy, FastPolicy] | None:
    """The two seats' fast policies (strategy a's first) when the fast path plays this chunk."""
    if fast_path_reason(task.rules, cls_a, cls_b, task.engine):
        return None
    a = fast_policy(cls_a, task.spec_a.params)
    b = fast_policy(cls_b, task.spec_b.params)
    if a is None or b is None:  # pragma: no cover - fast_path_reason said both are built-ins
        raise RunError("fast path: a seat is not a built-in policy")
    return a, b


def fast_hand_columns(
    task: ChunkTask,
    fast: tuple[FastPolicy, FastPolicy],
    decks: np.ndarray,
    streams: list[tuple[int, np.ndarray, np.ndarray]],
) -> dict[str, np.ndarray]:
    """A hand-mode chunk through the fast path (``fastjit``'s kernel when numba is there,
    else ``fastplay.fast_rows``), its columns built a whole copy at a time (the same
    arrays, row for row, as the general loop and ``Columns``)."""
    n = len(decks)
    units = np.arange(task.start, task.stop, dtype=np.int64)
    dealers = units % 2  # first_dealer
    ncopy = len(streams)
    jit = task.engine == "auto" and fastjit.installed()
    if not jit:
        deck_list = decks.reshape(n * 52).tolist()
        dealer_list = dealers.tolist()
    by_copy: list[dict[str, np.ndarray]] = []
    for copy, s0, s1 in streams:  # each copy's two seat seeds per deal
        seats = fast if copy == 0 else (fast[1], fast[0])
        if jit:
            table = fastjit.jit_rows(task.rules, seats, decks, dealers, s0, s1)
        else:
            flat = fast_rows(task.rules, seats, deck_list, dealer_list, s0.tolist(), s1.tolist())
            table = np.asarray(flat, dtype=np.int64).reshape(n, ROW_WIDTH)
        cols = {name: table[:, j] for j, name in enumerate(ROW_FIELDS)}
        cols["seat_a"] = np.full(n, copy, dtype=np.int64)
        cols["copy"] = np.full(n, copy, dtype=np.int64)
        by_copy.append(cols)
    out: dict[str, np.ndarray] = {}
    rows = n * ncopy
    for name, dtype in COLUMNS.items():
        if name in by_copy[0]:
            # unit-major rows: deal 0 copy 0, deal 0 copy 1, deal 1 copy 0, ...
            out[name] = np.stack([c[name] for c in by_copy], axis=1).reshape(rows).astype(dtype)
        elif name == "deal":
            out[name] = np.repeat(units, ncopy).astype(dtype)
        elif name == "pairing":
            out[name] = np.full(rows, task.pairing, dtype=dtype)
        elif name == "game_winner":
            out[name] = np.full(rows, -1, dtype=dtype)
        else:  # game_hand, score_0, score_1, game_end: zero in hand mode
            out[name] = np.zeros(rows, dtype=dtype)
    out["forfeit_reason"] = np.full(rows, "", dtype=object)
    return out


def fast_kernel(engine: Engine) -> str:
    """What plays the fast path's hand-mode chunks under ``engine``: numba's kernel
    (``fastjit``) or compiled Python (``fastplay``)."""
    if engine == Engine.AUTO and fastjit.version() is not None:
        return f"ginsim.engine.fastjit, {fastjit.status()}"
    return "ginsim.engine.fastplay"


def play_path(rules: Rules, pairings: list[tuple[StrategySpec, StrategySpec]], engine: Engine) -> str:
    """Which engine plays a run's pairings under ``engine``, for its manifest and
    ``ginsim bench``: "fast", "general (why)", or how many pairings take each."""
    reasons = [fast_path_reason(rules, a.load_class(), b.load_class(), engine) for a, b in pairings]
    slow = [r for r in reasons if r]
    if not slow:
        return f"fast ({fast_kernel(engine)})"
    if len(slow) == len(reasons):
        return f"general ({slow[0]})"
    return f"fast for {len(reasons) - len(slow)} of {len(reasons)} pairings, general for the rest ({slow[0]})"
