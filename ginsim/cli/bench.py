"""The ``bench`` command."""

from __future__ import annotations

import json

import click


@click.command()
@click.option(
    "--seconds", type=float, default=3.0, show_default=True, help="Time budget for each figure (more is steadier)."
)
@click.option("--jobs", "-j", type=int, default=None, help="Processes for hands_per_s_all (default: every core).")
@click.option("--reps", type=int, default=3, show_default=True, help="Repetitions per figure; the median is reported.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option("--sweep", is_flag=True, help="Time the full knock sweep (1.1M hands), not a scaled-down one.")
def bench(seconds: float, jobs: int | None, reps: int, as_json: bool, sweep: bool) -> None:
    """Measure the speed of the engine and the runner on this machine.

    Meld figures use a fixed, seeded set of in-game hands; the runner figures play
    simple vs simple into a temporary folder exactly as a real run does, through the
    general engine and through the fast path (without numba's kernel under ginsim
    --engine compiled); sweep_s times experiments/knock_sweep.toml end to end (scaled
    down unless --sweep).

    \b
    Examples:
      ginsim bench
      ginsim bench --seconds 10 --json > bench.json
      ginsim bench --sweep
    """
    from ginsim.cli.options import run_engine
    from ginsim.errors import RunError
    from ginsim.run.bench import format_bench, run_bench

    if not seconds > 0:
        raise RunError(f"--seconds must be positive, not {seconds}")
    if reps < 1:
        raise RunError(f"--reps must be at least 1, not {reps}")
    if jobs is not None and jobs < 1:
        raise RunError(f"--jobs must be at least 1, not {jobs}")
    busy = busy_note()
    if busy:
        click.echo(busy, err=True)
    say = None if as_json else (lambda m: click.echo(m, err=True))
    result = run_bench(seconds=seconds, jobs=jobs, reps=reps, say=say, sweep=sweep, engine=run_engine())
    click.echo(json.dumps(result) if as_json else format_bench(result))


def busy_note(load: float | None = None, cpus: int | None = None) -> str:
    """A warning when other work already keeps this machine busy (the figures would then
    measure a share of it), else ''."""
    import os

    if load is None:
        try:
            load = os.getloadavg()[0]
        except (AttributeError, OSError):  # no load average on this platform
            return ""
    cpus = cpus or os.cpu_count() or 1
    if load < 0.5:
        return ""
    return (
        f"warning: load average {load:.1f} on {cpus} cpus before the bench: other work is running "
        "and the figures will be lower than this machine can do"
    )


COMMANDS = [bench]
