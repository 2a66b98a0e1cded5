"""``ginsim plot`` and ``ginsim run``: the charts of a run folder, and runs described by
experiment files. Registered by ginsim.cli through ``COMMANDS``; heavy imports stay inside."""

from __future__ import annotations

from pathlib import Path

import click

from ginsim.cli_isolate import isolate_options


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
    from ginsim.plots import draw_all
    from ginsim.report import REPORT, analyze, write_tables

    analysis = analyze(folder)
    written = draw_all(analysis, svg=svg)
    write_tables(analysis)
    if not quiet:
        for path in written:
            click.echo(f"wrote {path}")
        if not written:
            click.echo(f"no charts: {folder} holds no finished hands yet")
        click.echo(f"wrote {folder / REPORT}")


@click.command()
@click.argument("experiment", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Run folder (default: the file's out key).")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Processes (default: every core; 1 runs in this process).",
)
@click.option("--hands", type=int, default=None, help="Play N hands per pairing instead (a quick try; own folder).")
@click.option("--games", type=int, default=None, help="Play N games per pairing instead (a quick try; own folder).")
@click.option(
    "--backend",
    type=click.Choice(["loky", "dask"]),
    default="loky",
    show_default=True,
    help="Local processes (loky) or a Dask cluster.",
)
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler address (default: a local cluster).")
@click.option("--plots/--no-plots", default=True, show_default=True, help="Draw the charts at the end.")
@click.option("--svg", is_flag=True, help="Also write each chart as SVG.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
@isolate_options
def run(
    experiment: Path,
    out: Path | None,
    jobs: int | None,
    hands: int | None,
    games: int | None,
    backend: str,
    scheduler: str | None,
    plots: bool,
    svg: bool,
    quiet: bool,
    isolate: bool,
    decision_limit: float | None,
) -> None:
    """Run the experiment described by a TOML file (see experiments/README.md).

    The file names the kind (match, roundrobin, sweep), the strategies, hands or games,
    seed, rules and output folder (default results/<file name>). Rerun it to resume.
    With --hands or --games the run goes to <out>-hands<N> (or -games<N>), so a quick
    try never collides with the full run.

    \b
    Examples:
      ginsim run experiments/knock_sweep.toml
      ginsim run experiments/roundrobin_builtins.toml --hands 2000 --jobs 2
    """
    from ginsim.experiment import run_experiment

    run_experiment(
        experiment,
        out=out,
        jobs=jobs,
        quiet=quiet,
        plots=plots,
        svg=svg,
        hands=hands,
        games=games,
        backend=backend,
        scheduler=scheduler,
        echo=click.echo,
        isolate=isolate,
        decision_limit=decision_limit,
    )


COMMANDS = [plot, run]
