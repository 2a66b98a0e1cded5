"""Cells and short texts shared by the terminal digest, report.md and the charts' titles:
one way to print a rate with its interval, points with theirs, a table, a run."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from ginsim.errors import one_line
from ginsim.runfolder.records import Manifest, RunKind

if TYPE_CHECKING:
    import pandas as pd


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
    """The swept strategy without the swept parameters: ``threshold`` for a knock_at sweep."""
    if not m.pairings:
        return "the swept strategy"
    name, _, params = str(m.pairings[0].label_a).partition(":")
    swept = tuple(f"{n}=" for n in str(m.param).split(","))
    keep = [kv for kv in params.split(",") if kv and not kv.startswith(swept)]
    return name + (":" + ",".join(keep) if keep else "")


def describe_run(manifest: Manifest, complete: bool = True) -> str:
    """What was played, in one line: who, how many hands or games, rules that differ."""
    m = manifest
    pairings = m.pairings
    if m.kind == RunKind.MATCH and pairings:
        who = f"{pairings[0].label_a} vs {pairings[0].label_b}"
    elif m.kind == RunKind.SWEEP and pairings:
        opponents = ", ".join(dict.fromkeys(p.label_b for p in pairings))
        if isinstance(pairings[0].value, list):  # a grid: each parameter's values
            names = str(m.param).split(",")
            axes = [list(dict.fromkeys(p.value[i] for p in pairings)) for i in range(len(names))]
            grid = " × ".join(f"{n} ({_values_text(v)})" for n, v in zip(names, axes, strict=True))
            who = f"{sweep_base(m)}, {grid} vs {opponents}"
        else:
            values = list(dict.fromkeys(p.value for p in pairings))
            who = f"{sweep_base(m)}, {m.param} = {_values_text(values)} vs {opponents}"
    elif m.kind == RunKind.GAUNTLET and pairings:
        who = f"{pairings[0].label_a} against " + ", ".join(p.label_b for p in pairings)
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
    """How many games a game-mode run plays per pairing, said right with duplicate deals
    (half as many deals, each played twice, seats swapped), in any run-folder format."""
    target = m.rules["target_score"]
    played = m.games_played or 0
    if not m.duplicate:
        return f"{played:,} games to {target} per pairing"
    return f"{played:,} games to {target} per pairing ({m.units:,} deals played twice, seats swapped)"


def played_text(m: Manifest, summary: pd.DataFrame, asked: bool = True) -> str:
    """What was played: the hands (and games) played in all, which a partial run or a game
    run (hands per game vary) cannot say in advance, then (``asked``) the count per pairing."""
    per = games_size(m) if m.games is not None else f"{m.hands:,} hands per pairing"
    if m.duplicate and m.games is None:
        per += f" ({m.units:,} deals played twice, seats swapped)"
    hands = int(summary["hands"].sum()) // 2 if not summary.empty else 0  # a row for either side of a pairing
    games = int(summary["games"].sum()) // 2 if "games" in summary and not summary.empty else None
    done = f"{hands:,} hands" + (f" and {games:,} games" if games is not None else "")
    return f"{done} in all" + (f"; {per}" if asked else "")


def reproducibility_note(m: Manifest) -> str:
    """Why a run's hands may not play again as logged ('' when they do): chunks whose
    replay differed (ginsim.run.recheck), or an outside player's unseeded randomness."""
    if m.reproducible:
        return ""
    if m.unreproduced:
        names: list[str] = []
        for u in m.unreproduced:
            names += [str(n) for n in u.get("strategies", []) if str(n) not in names]
        who = " or ".join(names)
        return (
            f"not reproducible: {len(m.unreproduced)} chunk(s) did not replay as logged under the same seed "
            f"({who} plays differently each time); the figures are as played, a rerun gives others"
        )
    return "not reproducible: an outside player's randomness could not be seeded (manifest.json, strategies[].outside)"


def pairwise_rows(table: Any) -> list[dict[str, str]]:
    """The pairwise table (ginsim.analysis.pairwise) as display strings, one dict per
    meeting: who, how many, head to head with intervals, the likelihood of superiority."""
    games = "game_win_rate" in table
    rows = []
    for r in table.itertuples(index=False):
        row = {"strategy": str(r.strategy), "opponent": str(r.opponent)}
        row["games" if games else "hands"] = f"{int(r.games if games else r.hands):,}"
        if games:
            row["game_win_rate"] = fmt_rate(r, "game_win_rate")
        row["points_per_hand"] = fmt_points(r)
        if not games:
            row["win_rate"] = fmt_rate(r, "win_rate")
        row["los"] = "—" if math.isnan(r.los) else f"{100 * r.los:.1f}%"
        row["verdict"] = str(r.verdict)
        rows.append(row)
    return rows
