"""report.md: the run's tables (and charts, when drawn), readable on its own.

Assembles the header, the sections (ginsim.analysis.sections) and the charts with their
captions (ginsim.analysis.captions); links are relative (``charts/...``), so the folder
can be copied anywhere."""

from __future__ import annotations

from ginsim.analysis.captions import SWEEP_CHARTS, caption_values, chart_links, embed
from ginsim.analysis.format import games_size, md_code, md_text, played_text, reproducibility_note
from ginsim.analysis.sections import (
    forfeit_section,
    gauntlet_table,
    matrix_sections,
    pairwise_section,
    ratings_section,
    sprt_text,
    summary_section,
    sweep_tables,
    thinking_section,
)
from ginsim.analysis.tables import Analysis
from ginsim.runfolder.forfeit_files import forfeit_note
from ginsim.runfolder.records import RunKind


def header_lines(a: Analysis) -> list[str]:
    m = a.manifest
    if m.status == "stopped" and m.stopped:
        size = f"at most {m.hands:,} hands; the sequential test stopped the run after {m.stopped['hands']:,}"
    elif m.hands is not None:
        size = f"{m.hands:,} hands per pairing"
    else:
        size = games_size(m)
    dup = "duplicate deals (each deck played twice, seats swapped)" if m.duplicate else "single deals"
    if m.games is not None and m.duplicate:
        dup = "duplicate deals"
    rules = ", ".join(f"{k}={v}" for k, v in (m.rules_differ or {}).items()) or "default rules (RULES.md)"
    lines = [
        f"# ginsim {m.kind}",
        "",
        f"- command: {md_code(m.command or '(library call)')}",
        f"- strategies: {', '.join(md_code(s.label) for s in m.strategies)}",
        f"- size: {size}, {dup}, master seed {m.seed}",
        f"- played: {played_text(m, a.summary, asked=False)}",
        f"- rules: {rules}",
        f"- status: {m.status}, {a.chunks_done} of {a.chunks_total} chunks"
        + (
            " (the sequential test decided: figures cover the hands it used)"
            if m.status == "stopped"
            else ""
            if a.complete
            else " (partial: figures cover the finished chunks only)"
        ),
        f"- ginsim {m.ginsim}, started {m.started}, finished {m.finished or '—'}",
    ]
    for e in m.extensions:  # a run that grew (ginsim.run.grow)
        counts = e.get(m.mode, [])
        grew = (
            f"{counts[0]:,} → {counts[1]:,} {m.mode} per pairing" if len(counts) == 2 and counts[0] != counts[1] else ""
        )
        pairs = e.get("pairings", [])
        if len(pairs) == 2 and pairs[0] != pairs[1]:
            grew += ("; " if grew else "") + f"{pairs[0]} → {pairs[1]} pairings"
        lines.append(f"- grown on {e.get('at', '?')}: {grew or 'resumed'}")
    if m.clock:
        lines.append("- **played with a clock** (`time_per_hand`): results depend on the machine that ran them")
    if note := reproducibility_note(m):
        lines.append(f"- **{md_text(note)}**")
    return lines


def report_markdown(a: Analysis) -> str:
    """The whole report.md of an analysed run."""
    m = a.manifest
    out = header_lines(a)
    out += [
        "",
        "Figures are defined in METRICS.md; intervals are 95% (Wilson for rates; mean ± 1.96·SE",
        "for points per hand, the SE over deal pairs with duplicate deals).",
        "",
    ]
    if note := forfeit_note(a.folder):  # tracebacks of the forfeits (ginsim.runfolder.forfeit_files)
        out += [f"**Forfeits.** {note.replace(str(a.folder) + '/', '')}.", ""]
    charts = chart_links(a)
    fill = caption_values(a)
    out += forfeit_section(a)
    if m.stopped:
        out += ["## Sequential test", "", sprt_text(m.stopped, (m.pairings or [None])[0]), ""]
        out += embed(charts, ("sprt",), fill)
    if a.ratings is not None:
        out += ratings_section(a.ratings, charts, fill)
        out += pairwise_section(a)
        out += matrix_sections(a, charts, fill)
    if m.kind == RunKind.SWEEP:
        out += sweep_tables(a)
        out += embed(charts, SWEEP_CHARTS, fill)
        out += embed(charts, tuple(c for c in charts if c.startswith("grid_")), fill)
    if m.kind == RunKind.GAUNTLET:
        out += gauntlet_table(a)
        out += embed(charts, tuple(c for c in charts if c.startswith("gauntlet_")), fill)
    out += summary_section(a)
    out += embed(charts, ("outcomes", "knock_deadwood", "turns"), fill)
    out += thinking_section(a)
    out += [
        "Files: `summary.csv` (these figures, intervals as `<name>_lo`/`<name>_hi`), "
        + ("`ratings.csv`, `pairwise.csv`, " if a.ratings is not None else "")
        + ("`sprt.csv` (the sequential test after each chunk), " if m.stopped else "")
        + "`manifest.json` (what was played and how), `hands/*.parquet` (the hand log).",
        "",
    ]
    return "\n".join(out)
