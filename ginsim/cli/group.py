"""The ``ginsim`` command line: one click group, thin commands, logic in the library.

Each command family is a module of this package listing its click commands in
``COMMANDS``; shared options live in ginsim.cli.options. Heavy imports (pandas,
matplotlib, joblib) happen inside the commands that need them so ``ginsim --help`` stays
instant. Every input mistake is one line on stderr and exit 2.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import warnings
from typing import Any

import click

from ginsim.cli import bench, charts, info, play, rules, runs, validate, web
from ginsim.cli.options import EXIT_USAGE, error_line, set_argv
from ginsim.engine import _native as native
from ginsim.errors import GinsimError, Interrupted
from ginsim.run.options import ENGINES, resolve_engine
from ginsim.version import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="ginsim", message=f"%(prog)s %(version)s, engine {native.status()}")
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default=None,
    show_default="auto",
    help="auto: built-in policies play through the fast path (numba's kernel when installed); "
    "compiled: the fast path without numba; general: every hand through play_hand. "
    "Unset: GINSIM_GENERAL=1 means general, GINSIM_JIT=0 compiled.",
)
@click.pass_context
def cli(ctx: click.Context, engine: str | None) -> None:
    """ginsim: play millions of seeded bot-vs-bot Gin Rummy hands and turn them into
    tables and charts.

    \b
    Examples:
      ginsim check 7H 8H 9H 7C 7D 7S 2C 3D KS QS
      ginsim strategies
      ginsim --engine general run experiments/knock_sweep.toml
    """
    ctx.obj = resolve_engine(engine)  # the commands pass it to the runner, which tells every worker


for _module in (info, rules, runs, charts, play, bench, validate, web):
    for _command in _module.COMMANDS:
        cli.add_command(_command)


def _one_line_warning(message: Warning | str, *_: Any, **__: Any) -> None:
    """Warnings (a damaged or foreign file in a run folder, ...) as one line on stderr."""
    click.echo(f"ginsim: warning: {message}", err=True)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI; input errors and environment failures become one line
    and exit status 2; an interruption (Ctrl-C or SIGTERM, at any stage) one line and 130.
    As the process's own entry (``argv`` None), it exits when the command is done even if
    a strategy left threads running (they would keep the interpreter alive)."""
    if argv is not None:
        _main(argv)
        return
    try:
        _main(None)
        code: Any = 0
    except SystemExit as e:
        code = e.code
    status = code if isinstance(code, int) else (0 if code is None else 1)
    _finish(status)
    if _lingering():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(code)


def _finish(status: int) -> None:
    """The command is done and everything written. The worker pool is shut down now, deaf
    to Ctrl-C and SIGTERM, rather than at the interpreter's exit (where an interrupt would
    show loky's traceback): its workers are idle, so this is quick, and none outlives the
    command (a strategy's thread may keep one alive: it is killed). From then on an
    interrupt only ends the process at once, with the command's own ``status``."""

    def now(_signum: int, _frame: Any) -> None:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(status)

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to guard
        return
    loky = sys.modules.get("joblib.externals.loky.reusable_executor")
    executor = getattr(loky, "_executor", None)
    if executor is not None:
        try:
            executor.shutdown(wait=True, kill_workers=True)
        except Exception:  # noqa: BLE001 - a pool that will not shut down: its workers are killed
            for proc in list(getattr(executor, "_processes", {}).values()):
                with contextlib.suppress(OSError, ValueError, AttributeError):
                    os.kill(proc.pid, signal.SIGKILL)
    signal.signal(signal.SIGINT, now)
    signal.signal(signal.SIGTERM, now)


def _lingering() -> bool:
    """Whether threads other than ginsim's (a strategy's) would keep the process alive."""
    main = threading.main_thread()
    return any(t.is_alive() and not t.daemon and not _pools(t) for t in threading.enumerate() if t is not main)


_POOL_MODULES = ("joblib.", "concurrent.futures", "multiprocessing.", "distributed.", "tornado.")


def _pools(thread: threading.Thread) -> bool:
    """Whether ``thread`` is the process pool's own (loky's executor manager, a queue
    feeder, Dask's): those end with the pool at exit and keep nothing alive of a strategy's."""
    target = getattr(thread, "_target", None)
    modules = (type(thread).__module__ + ".", (getattr(target, "__module__", None) or "") + ".")
    return any(m.startswith(_POOL_MODULES) for m in modules)


def _main(argv: list[str] | None) -> None:
    from ginsim.run.interrupt import EXIT_INTERRUPTED, sigterm_as_interrupt

    args = list(argv) if argv is not None else sys.argv[1:]
    set_argv(args)
    if not args:  # plain ``ginsim``: its help on stdout and exit 0, as ``ginsim --help``
        with cli.make_context("ginsim", ["--help"], resilient_parsing=True) as ctx:
            click.echo(ctx.get_help())
        sys.exit(0)
    warnings.showwarning = _one_line_warning
    try:
        with sigterm_as_interrupt():
            cli.main(args=argv, prog_name="ginsim", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except (click.Abort, KeyboardInterrupt):
        click.echo("ginsim: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as e:
        click.echo(f"ginsim: error: {e.format_message()}", err=True)
        sys.exit(EXIT_USAGE)
    except Interrupted as e:
        click.echo(f"ginsim: {error_line(e)}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except GinsimError as e:
        click.echo(f"ginsim: error: {error_line(e)}", err=True)
        sys.exit(EXIT_USAGE)
    except OSError as e:  # the environment: a read-only or full disk, a path too long, ...
        from ginsim.runfolder.atomic import describe_os_error

        where = f"{e.filename}: " if e.filename else ""
        click.echo(f"ginsim: error: {where}{describe_os_error(e)}", err=True)
        sys.exit(EXIT_USAGE)
    except MemoryError:
        click.echo("ginsim: error: out of memory", err=True)
        sys.exit(EXIT_USAGE)
