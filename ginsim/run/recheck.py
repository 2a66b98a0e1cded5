"""Reproducibility, checked: each chunk's first deal (or game) is played again with fresh
strategies and compared with what the chunk logged.

A run's figures are only worth their seed if every hand can be played again as logged: a
strategy that draws on the global ``random`` module, the clock, a file or state kept in
its module plays differently the second time. The worker replays the first deal of every
chunk it plays by the general engine (both copies with duplicate deals; the first game,
copy 0, in game mode) right after the chunk, in the same process; the runner records a
mismatch in the manifest (``reproducible: false`` and ``unreproduced``), names the
strategies that may be at fault and prints one warning. The figures stay as played.

Not replayed: chunks of the fast path (the built-in policies, deterministic by
construction and held to the general engine by the test suite), and hands that ended by
the watchdog's or the rules' clock (a time limit is the machine's, not the seed's).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ginsim.engine.playhand import HandResult
from ginsim.engine.registry import BUILTINS
from ginsim.runfolder.records import RESULT_COLUMNS

REPLAY_CHECK = "__replay_check__"
"""The key of a worker's chunk columns that carries its ``ReplayCheck`` (an object array
of one), which the runner takes out before the chunk is written."""

COMPARED = RESULT_COLUMNS  # every per-hand field the log keeps of a result
_TIMED = ("DecisionTimeout", "no answer within")  # a forfeit the clock decided


@dataclass(frozen=True)
class ReplayCheck:
    """What replaying a chunk's first deal found: hands compared, and the first
    difference ('' when every compared hand replayed as logged)."""

    compared: int
    difference: str = ""


def timed_out(r: HandResult) -> bool:
    """Whether a hand ended by a time limit (the rules' clock or the watchdog)."""
    reason = r.forfeit_reason or ""
    return r.forfeit_kind == "clock" or any(t in reason for t in _TIMED)


def difference(logged: HandResult, replayed: HandResult) -> str | None:
    """How a replayed hand differs from the logged one ('' for none); None when the
    comparison says nothing (either ended by a time limit)."""
    if timed_out(logged) or timed_out(replayed):
        return None
    for name in COMPARED:
        a, b = getattr(logged, name), getattr(replayed, name)
        if a != b:
            return f"{name} {a} logged, {b} replayed"
    return ""


def compare(
    logged: Sequence[tuple[str, HandResult, tuple[int, int]]],
    replayed: Sequence[tuple[str, HandResult, tuple[int, int]]],
) -> ReplayCheck:
    """Compare logged and replayed hands, each ``(where, result, scores before)``, in order."""
    compared = 0
    if len(logged) != len(replayed):
        return ReplayCheck(0, f"{len(logged)} hands logged, {len(replayed)} replayed")
    for (where, a, sa), (_, b, sb) in zip(logged, replayed, strict=True):
        diff = difference(a, b)
        if diff is None:
            continue
        compared += 1
        if not diff and sa != sb:
            diff = f"scores before the hand {sa} logged, {sb} replayed"
        if diff:
            return ReplayCheck(compared, f"{where}: {diff}")
    return ReplayCheck(compared)


def check_rows(rows: Sequence[tuple[Any, ...]], again: Callable[[], Sequence[tuple[Any, ...]]]) -> ReplayCheck:
    """Compare a chunk's first logged rows (the worker's row tuples: pairing, deal, copy,
    game_hand, seat_a, result, scores, ...) with the rows ``again`` plays afresh."""
    fresh = list(again())
    logged = [(_where(r), r[5], tuple(r[6])) for r in rows[: len(fresh)]]
    return compare(logged, [(_where(r), r[5], tuple(r[6])) for r in fresh])


def _where(row: tuple[Any, ...]) -> str:
    _, deal, copy, game_hand, *_ = row
    return f"deal {deal}, copy {copy}" + (f", hand {game_hand + 1} of its game" if game_hand else "")


def suspects(target_a: str, label_a: str, target_b: str, label_b: str) -> list[str]:
    """The strategies of a pairing that may have made a hand replay differently: those
    that are not built-ins (the built-ins draw only on their seeded streams); both when
    both are built-ins, which would be a bug of ginsim's."""
    named = [label for target, label in ((target_a, label_a), (target_b, label_b)) if target not in BUILTINS]
    return named or [label_a, label_b]


def warning(unreproduced: Sequence[dict[str, Any]]) -> str:
    """The one warning a run with hands that did not replay prints."""
    names: list[str] = []
    for u in unreproduced:
        names += [n for n in u.get("strategies", []) if n not in names]
    first = unreproduced[0]
    who = " or ".join(repr(n) for n in names)
    return (
        f"{len(unreproduced)} chunk(s) did not replay as logged (first: pairing {first.get('pairing')}, "
        f"chunk {first.get('chunk')}, {first.get('difference')}): {who} plays differently under the same seed "
        "(the global random module, the clock, a file, state kept between hands?); the figures stand, the "
        "manifest says reproducible: false"
    )
