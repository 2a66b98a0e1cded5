"""``ginsim plot``: the charts of a run folder, drawn from its hand log and summary."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--svg", is_flag=True, help="Also write each chart as SVG.")
@click.option("--quiet", "-q", is_flag=True, help="Write the files, print nothing.")
def plot(folder: Path, svg: bool, quiet: bool) -> None:
    """(Re)draw the charts of a run folder into FOLDER/charts/ and rewrite its report.md.

    Charts come from the hand log and the summary only: no hand is played again.

    \b
    Examples:
      ginsim plot results/roundrobin-20261129-101500
      ginsim plot results/knock_sweep --svg
    """
    from ginsim.analysis.plots import draw_all
    from ginsim.analysis.report import write_tables
    from ginsim.analysis.tables import REPORT, analyze

    analysis = analyze(folder)
    written = draw_all(analysis, svg=svg)
    write_tables(analysis)
    if not quiet:
        for path in written:
            click.echo(f"wrote {path}")
        if not written:
            click.echo(f"no charts: {folder} holds no finished hands yet")
        click.echo(f"wrote {folder / REPORT}")


COMMANDS = [plot]
