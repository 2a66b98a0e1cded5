"""Cells and short texts shared by the terminal digest, report.md and the charts' titles:
one way to print a rate with its interval, points with theirs, a table, a run."""

from __future__ import annotations

import math
import re
from typing import Any

from ginsim.errors import one_line
from ginsim.run.records import Manifest, RunKind


def fmt_rate(row: Any, name: str) -> str:
    v = getattr(row, name, math.nan)
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    lo = getattr(row, f"{name}_lo", math.nan)
    hi = getattr(row, f"{name}_hi", math.nan)
    if isinstance(lo, float) and math.isnan(lo):
        return f"{100 * v:.1f}%"
    return f"{100 * v:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def fmt_points(row: Any, name: str = "points_per_hand") -> str:
    v = getattr(row, name)
    if isinstance(v, float) and math.isnan(v):
        return "—"
    lo, hi = getattr(row, f"{name}_lo"), getattr(row, f"{name}_hi")
    if isinstance(lo, float) and math.isnan(lo):
        return f"{v:+.2f}"
    return f"{v:+.2f} ± {(hi - lo) / 2:.2f}"


def num(v: Any, digits: int = 2) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:.{digits}f}"


def text_table(rows: list[dict[str, str]], columns: list[str] | None = None) -> str:
    if not rows:
        return "(no hands yet)"
    rows = [{k: one_line(v) for k, v in r.items()} for r in rows]  # labels from outside: one line each
    cols = columns or list(dict.fromkeys(k for r in rows for k in r))
    widths = {c: max(len(c), *(len(r.get(c, "")) for r in rows)) for c in cols}
    head = "  ".join(c.ljust(widths[c]) for c in cols)
    lines = [head, "  ".join("-" * widths[c] for c in cols)]
    for r in rows:
        lines.append("  ".join(r.get(c, "").ljust(widths[c]) for c in cols))
    return "\n".join(lines)


def cell(v: Any, digits: int = 3) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
MD_TEXT_MAX = 200


_one_line = one_line


def md_code(text: Any) -> str:
    """Text from outside (a strategy's label, a command) as an inline code span that stays
    one table cell: one line, ``|`` escaped, a fence longer than any backtick run inside.
    Markdown and HTML inside a code span are shown, not rendered."""
    s = _one_line(text).replace("|", "\\|")
    if "`" not in s:
        return f"`{s}`"
    fence = "`" * (max(len(run) for run in re.findall(r"`+", s)) + 1)
    return f"{fence} {s} {fence}"


def md_text(text: Any, limit: int = MD_TEXT_MAX) -> str:
    """Text from outside (a forfeit reason, a parameter value) as plain text in markdown:
    one line, at most ``limit`` characters, HTML and markdown syntax escaped."""
    s = _one_line(text)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", s)


def md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def md_rate(r: Any, name: str) -> str:
    v = getattr(r, name, math.nan)
    if isinstance(v, float) and math.isnan(v):
        return "—"
    lo, hi = getattr(r, f"{name}_lo"), getattr(r, f"{name}_hi")
    return f"{100 * v:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def md_points(r: Any, name: str = "points_per_hand", digits: int = 3) -> str:
    v = getattr(r, name)
    if isinstance(v, float) and math.isnan(v):
        return "—"
    lo, hi = getattr(r, f"{name}_lo"), getattr(r, f"{name}_hi")
    if isinstance(lo, float) and math.isnan(lo):
        return f"{v:+.{digits}f}"
    return f"{v:+.{digits}f} ({lo:+.{digits}f} to {hi:+.{digits}f})"


def sweep_base(m: Manifest) -> str:
    """The swept strategy without the swept parameter: ``threshold`` for a knock_at sweep."""
    if not m.pairings:
        return "the swept strategy"
    name, _, params = str(m.pairings[0].label_a).partition(":")
    keep = [kv for kv in params.split(",") if kv and not kv.startswith(f"{m.param}=")]
    return name + (":" + ",".join(keep) if keep else "")


def describe_run(manifest: Manifest, complete: bool = True) -> str:
    """What was played, in one line: who, how many hands or games, rules that differ."""
    m = manifest
    pairings = m.pairings
    if m.kind == RunKind.MATCH and pairings:
        who = f"{pairings[0].label_a} vs {pairings[0].label_b}"
    elif m.kind == RunKind.SWEEP and pairings:
        values = list(dict.fromkeys(p.value for p in pairings))
        opponents = ", ".join(dict.fromkeys(p.label_b for p in pairings))
        who = f"{sweep_base(m)}, {m.param} = {_values_text(values)} vs {opponents}"
    else:
        who = f"round-robin of {len(m.strategies)} strategies"
    stopped = m.stopped if m.status == "stopped" else None
    if stopped:
        size = f"{stopped['hands']:,} hands (the SPRT stopped; at most {m.hands:,})"
    elif m.hands is not None:
        size = f"{m.hands:,} hands per pairing"
    else:
        size = games_size(m)
    if m.duplicate and m.games is None:
        size += ", duplicate deals"
    rules = ", ".join(f"{k}={v}" for k, v in (m.rules_differ or {}).items()) or "default rules"
    return " · ".join([who, size, rules]) + ("" if complete or stopped else " · partial run")


def _values_text(values: list[Any]) -> str:
    """A sweep's values: ``0…10`` for every whole number between, else the list (``2, 6, 10``)."""
    if len(values) <= 2:
        return ", ".join(str(v) for v in values)
    whole = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
    if whole and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}…{values[-1]}"
    if len(values) <= 6:
        return ", ".join(str(v) for v in values)
    return f"{values[0]}…{values[-1]} ({len(values)} values)"


def games_size(m: Manifest) -> str:
    """How many games a game-mode run plays per pairing, said right with duplicate deals:
    the manifest's ``games`` counts deals, each played twice (seats swapped)."""
    target = m.rules["target_score"]
    if not m.duplicate:
        return f"{m.games:,} games to {target} per pairing"
    return f"{2 * (m.games or 0):,} games to {target} per pairing ({m.games:,} deals played twice, seats swapped)"
