"""The ``bench`` command."""

from __future__ import annotations

import json
from collections.abc import Callable

import click


@click.command()
@click.option(
    "--seconds", type=float, default=3.0, show_default=True, help="Time budget for each figure (more is steadier)."
)
@click.option("--jobs", "-j", type=int, default=None, help="Processes for hands_per_s_all (default: every core).")
@click.option("--reps", type=int, default=3, show_default=True, help="Repetitions per figure; the median is reported.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option("--sweep", is_flag=True, help="Time the full knock sweep (1.1M hands), not a scaled-down one.")
@click.option("--rl", is_flag=True, help="Time the reinforcement-learning environments instead (ginsim[rl]).")
def bench(seconds: float, jobs: int | None, reps: int, as_json: bool, sweep: bool, rl: bool) -> None:
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
      ginsim bench --rl
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
    if rl:
        _bench_rl(seconds, reps, as_json, say)
        return
    result = run_bench(seconds=seconds, jobs=jobs, reps=reps, say=say, sweep=sweep, engine=run_engine())
    click.echo(json.dumps(result) if as_json else format_bench(result))


def _bench_rl(seconds: float, reps: int, as_json: bool, say: Callable[[str], None] | None) -> None:
    """``--rl``: the environments' steps per second (ginsim.rl.bench)."""
    from ginsim.errors import RunError

    try:
        import gymnasium  # noqa: F401 - the environments' packages
        import pettingzoo  # noqa: F401

        from ginsim.rl.bench import format_rl_bench, run_rl_bench
    except ImportError as e:
        raise RunError(f"--rl needs the environments' packages: pip install 'ginsim[rl]' ({e})") from None
    result = run_rl_bench(seconds=seconds, reps=reps, say=say)
    click.echo(json.dumps(result) if as_json else format_rl_bench(result))


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
