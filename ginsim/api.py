"""Runs from Python: ``ginsim.match``, ``ginsim.roundrobin``, ``ginsim.sweep`` and
``ginsim.open_run``, each giving a ``Run`` with the tables as pandas frames.

Built on ginsim.launch (the same ``launch`` the ``ginsim match/roundrobin/sweep`` commands
call), so a run from Python and the command with the same arguments write the same
folder. Strategies may be given as names or spec text, as ``Strategy`` subclasses or as
instances: a class stands for ``module:Class`` (its own ``name``, if it sets one, labels
it), an instance for its class built with the parameters it reports
(``Strategy.params()``: the constructor's keyword parameters read back from attributes
of the same name; other state is not carried, as every hand gets a fresh instance). A
class defined in ``__main__`` (a notebook or a script) cannot be imported by worker
processes, so such runs play in this process (``jobs=1``); asking for more jobs is an
error. A run without ``out`` goes to a temporary folder the ``Run`` owns and deletes on
``close()``, at the end of a ``with`` block, or when it is garbage collected;
``Run.save(path)`` keeps a copy.
"""

from __future__ import annotations

import shlex
import shutil
import tempfile
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ginsim.engine.guard import DEFAULT_DECISION_LIMIT, checking
from ginsim.engine.rules import Rules, load_rules
from ginsim.engine.spec import StrategySpec, parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.errors import RulesError, RunError
from ginsim.launch import RunSettings, launch
from ginsim.run.describe import GauntletRun, MatchRun, RoundRobinRun, RunDescription, SweepRun
from ginsim.run.options import Engine, resolve_engine

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ginsim.analysis.tables import Analysis
    from ginsim.runfolder.records import Manifest

StrategyLike = str | type[Strategy] | Strategy
"""What the run functions take as a strategy: spec text, a class or an instance."""
RulesLike = Rules | str | Path | dict[str, Any] | None
"""A ``Rules``, a preset name, a TOML file's path, a dict of rule values (on the default
rules) or None (the default rules)."""

_MAIN = "__main__"


# -- arguments -------------------------------------------------------------------------
def spec_text(strategy: StrategyLike) -> str:
    """The spec text a strategy argument stands for (see the module docstring)."""
    if isinstance(strategy, str):
        return strategy
    if isinstance(strategy, type) and issubclass(strategy, Strategy):
        return _class_target(strategy)
    if isinstance(strategy, Strategy):
        cls = type(strategy)
        defaults = cls.parameters()
        changed = {k: v for k, v in strategy.params().items() if k in defaults and v != defaults[k]}
        base = _class_target(cls)
        if not changed:
            return base
        return base + ":" + ",".join(f"{k}={_value(v)}" for k, v in changed.items())
    raise RunError(f"a strategy is a name, a spec, a Strategy subclass or instance, not {strategy!r:.60}")


def _value(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _class_target(cls: type[Strategy]) -> str:
    """A class as spec text: its built-in or plugin name when that is what the name
    loads, else ``module:Class`` (``path/file.py:Class`` for a class loaded from a file)."""
    from ginsim.engine.registry import BUILTINS, load_class, plugin_targets

    own = cls.__dict__.get("name")
    if isinstance(own, str) and (own in BUILTINS or own in plugin_targets()):
        try:
            if load_class(own) is cls:
                return own
        except Exception:  # noqa: BLE001 - then the module path below names it
            pass
    if "<locals>" in cls.__qualname__:
        raise RunError(f"strategy class {cls.__qualname__}: defined inside a function, it cannot be found by name")
    module = cls.__module__
    if module.startswith("ginsim_plugin_"):  # loaded from a file by a file.py:Class spec
        import sys

        file = getattr(sys.modules.get(module), "__file__", None)
        if file:
            return f"{file}:{cls.__qualname__}"
    return f"{module}:{cls.__qualname__}"


def build_rules_arg(rules: RulesLike) -> Rules:
    """``rules`` as a ``Rules`` (see ``RulesLike``)."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, dict):
        return Rules().with_values(dict(rules), "rules")
    if isinstance(rules, str | Path):
        return load_rules(rules)
    raise RulesError(f"rules: expected a Rules, a preset name, a TOML path or a dict, not {rules!r:.60}")


def _in_main(specs: Iterable[StrategySpec]) -> list[str]:
    return [s.text for s in specs if s.target.split(":", 1)[0] == _MAIN]


# -- the run functions -----------------------------------------------------------------
def match(
    a: StrategyLike,
    b: StrategyLike,
    *,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    rules: RulesLike = None,
    duplicate: bool = True,
    jobs: int | None = None,
    out: str | Path | None = None,
    sprt: str | None = None,
    engine: Engine | str | None = None,
    **options: Any,
) -> Run:
    """Play ``a`` against ``b`` (``ginsim match A B``); 10,000 hands unless ``hands`` or
    ``games`` says otherwise. ``sprt="p0=0,p1=0.5"`` stops once the sequential test
    decides (``hands`` is then the most to play). ``engine`` is "auto", "compiled" or
    "general" (``ginsim --engine``; the same hand log from each); None (the default)
    lets ``GINSIM_GENERAL=1`` or ``GINSIM_JIT=0`` choose, else "auto". Further
    ``options``: ``chunk``, ``backend``, ``scheduler``, ``quiet`` (default True),
    ``plots`` (write the chart files; default False: ``Run.plot`` draws on demand), ``svg``,
    ``decision_limit`` (``--decision-limit``: seconds; 0 plays without a watchdog, in this
    very process when ``jobs=1``)."""
    run = MatchRun(spec_text(a), spec_text(b))
    kw = dict(hands=hands, games=games, seed=seed, rules=rules, duplicate=duplicate, jobs=jobs, out=out)
    return _start(run, sprt=sprt, engine=engine, **kw, **options)


def roundrobin(strategies: Sequence[StrategyLike], **kw: Any) -> Run:
    """Play every pair of ``strategies`` and rate them (``ginsim roundrobin``); keyword
    arguments as for ``match``."""
    return _start(RoundRobinRun(tuple(spec_text(s) for s in strategies)), **kw)


def sweep(
    strategy: StrategyLike,
    param: str | Mapping[str, Any] | Sequence[str],
    values: str | Iterable[Any] | range | None = None,
    *,
    vs: Sequence[StrategyLike] | StrategyLike,
    **kw: Any,
) -> Run:
    """Sweep parameters of ``strategy`` against the opponents ``vs`` (``ginsim sweep``).
    ``param`` is ``"knock_at=0:10:2"`` (as ``--param``) with ``values`` None, or a
    parameter's name with ``values`` a list, a ``range`` or range text ``"0:10"``. A grid
    of several parameters: ``param`` a dict of name to values (``{"late_knock_at": [2, 6],
    "late_turn": "10:20:5"}``) or a list of ``--param`` texts."""
    if isinstance(param, Mapping):
        texts = [_param_text(name, v) for name, v in param.items()]
    elif isinstance(param, str):
        texts = [param if values is None else _param_text(param, values)]
    else:
        texts = list(param)
    if not texts:
        raise RunError.about("{param}: no parameter to sweep")
    versus = [vs] if isinstance(vs, str | Strategy | type) else list(vs)
    run = SweepRun(spec_text(strategy), texts[0], tuple(spec_text(v) for v in versus), tuple(texts[1:]))
    return _start(run, **kw)


def _param_text(name: str, values: str | Iterable[Any]) -> str:
    """``NAME=...`` (as ``--param``) of a parameter's values: range text or a list."""
    if isinstance(values, str):
        return f"{name}={values}"
    items = list(values)
    if not items:
        raise RunError.about("{values}: no values to sweep {name}", name=name)
    return f"{name}=" + ",".join(_value(v) for v in items)


def gauntlet(candidate: StrategyLike, vs: Sequence[StrategyLike] | StrategyLike, **kw: Any) -> Run:
    """Play ``candidate`` against each of ``vs`` (``ginsim gauntlet CANDIDATE --vs ...``);
    keyword arguments as for ``match``."""
    versus = [vs] if isinstance(vs, str | Strategy | type) else list(vs)
    return _start(GauntletRun(spec_text(candidate), tuple(spec_text(v) for v in versus)), **kw)


def _command(run: RunDescription, s: RunSettings, sprt: str | None) -> str:
    """The command line that plays the same run, for the manifest."""
    args = run.args() + s.rules.cli_args()
    args += ["--hands", str(s.hands)] if s.hands is not None else []
    args += ["--games", str(s.games)] if s.games is not None else []
    args += ["--seed", str(s.seed)] + ([] if s.duplicate else ["--no-duplicate"])
    args += ["--sprt", sprt] if sprt else []
    return "ginsim " + shlex.join(args) + "  # from Python (ginsim.api)"


def _start(
    run: RunDescription,
    *,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    rules: RulesLike = None,
    duplicate: bool = True,
    jobs: int | None = None,
    out: str | Path | None = None,
    chunk: int | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    quiet: bool = True,
    plots: bool = False,
    svg: bool = False,
    sprt: str | None = None,
    engine: Engine | str | None = None,
    decision_limit: float | None = DEFAULT_DECISION_LIMIT,
    echo: Callable[[str], None] = print,
) -> Run:
    from ginsim.launch import sprt_settings

    settings = RunSettings(
        rules=build_rules_arg(rules),
        seed=seed,
        hands=hands,
        games=games,
        duplicate=duplicate,
        chunk=chunk,
        out=Path(out) if out is not None else None,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        quiet=quiet,
        plots=plots,
        svg=svg,
        engine=resolve_engine(engine),
        decision_limit=decision_limit,
    )
    if sprt is not None:
        if not isinstance(run, MatchRun):
            raise RunError.about("{sprt}: only a match runs a sequential test")
        sprt_settings(settings, sprt)
    settings.command = _command(run, settings, sprt)
    with checking(decision_limit):  # a constructor that never returns: one line, as in a run
        specs = [parse_spec(t) for t in run.specs()]
    local = _in_main(specs)
    if local:
        if settings.jobs not in (None, 1) or settings.backend != "loky":
            raise RunError(
                f"strategy {local[0]!r} is defined in __main__ (a notebook or script), which worker "
                "processes cannot import: use jobs=1, or move the class into a module"
            )
        settings.jobs = 1
    tmp = None
    if settings.out is None:
        tmp = tempfile.mkdtemp(prefix=f"ginsim-{run.kind}-")
        settings.out = Path(tmp) / "run"
    try:
        folder = launch(run, settings, echo=echo)
    except BaseException:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Run(folder, _owned=Path(tmp) if tmp is not None else None)


def open_run(folder: str | Path) -> Run:
    """A finished (or partly finished) run folder as a ``Run``; the folder is not owned
    (never deleted)."""
    from ginsim.runfolder.records import read_manifest

    path = Path(folder)
    read_manifest(path)  # one clear line if it is not a run folder
    return Run(path)


# -- the run ---------------------------------------------------------------------------
class Run:
    """A run folder and what the statistics make of it. ``summary``, ``ratings``,
    ``pairwise`` and ``hands`` are pandas frames; ``manifest`` is the typed manifest; ``plot(name, ax)``
    draws one chart (``charts`` lists them); ``report()`` is report.md's text."""

    def __init__(self, folder: Path, _owned: Path | None = None) -> None:
        self.folder = Path(folder)
        self._owned = _owned
        self._cleanup = weakref.finalize(self, shutil.rmtree, str(_owned), True) if _owned is not None else None

    def __repr__(self) -> str:
        m = self.manifest
        names = ", ".join(m.labels)
        size = f"{m.hands} hands" if m.hands is not None else f"{m.games_played} games"
        return f"<Run {m.kind} of {names}: {size} per pairing, seed {m.seed}, in {self.folder}>"

    # -- life --------------------------------------------------------------------------
    @property
    def temporary(self) -> bool:
        """Whether the folder is a temporary one this ``Run`` deletes when closed."""
        return self._owned is not None

    def close(self) -> None:
        """Delete the folder if this ``Run`` owns it (a run made without ``out``)."""
        if self._cleanup is not None:
            self._cleanup()

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def save(self, path: str | Path) -> Run:
        """Copy the run folder to ``path`` (which must not exist); the copy as a ``Run``."""
        dest = Path(path)
        if dest.exists():
            raise RunError(f"save: {dest} already exists")
        shutil.copytree(self.folder, dest)
        return Run(dest)

    # -- tables ------------------------------------------------------------------------
    @cached_property
    def analysis(self) -> Analysis:
        from ginsim.analysis.tables import analyze

        if not self.folder.is_dir():
            raise RunError(f"{self.folder}: the run folder is gone (closed?)")
        return analyze(self.folder)

    @property
    def manifest(self) -> Manifest:
        return self.analysis.manifest

    @property
    def summary(self) -> pd.DataFrame:
        """One row per strategy and opponent (summary.csv)."""
        return self.analysis.summary

    @property
    def ratings(self) -> pd.DataFrame | None:
        """Round-robins' ratings, best first (ratings.csv; None for other runs): points per
        hand in hand mode, Bradley-Terry on game wins in game mode."""
        return self.analysis.ratings

    @property
    def pairwise(self) -> pd.DataFrame | None:
        """Round-robins' head-to-head table (pairwise.csv; None for other runs): each
        meeting, the higher-rated strategy first, with its intervals and ``los``, the
        likelihood that it is the stronger of the two (docs/METRICS.md)."""
        return self.analysis.pairwise

    @cached_property
    def hands(self) -> pd.DataFrame:
        """The hand log with names (see ``ginsim.analysis.handlog.named_hands``)."""
        from ginsim.analysis.handlog import read_named_hands

        return read_named_hands(self.folder, self.manifest)

    @cached_property
    def games(self) -> pd.DataFrame:
        """Game mode: one row per game played (empty in hand mode)."""
        from ginsim.runfolder.chunks import chunk_files
        from ginsim.runfolder.records import read_games

        return read_games(chunk_files(self.folder))

    @property
    def forfeits(self) -> pd.DataFrame:
        """Each forfeit's record (forfeits/ in the folder): ``row`` of the hand log, the
        strategy and seat, kind and reason, the decision, the view as text, the traceback."""
        import pandas as pd

        from ginsim.runfolder.forfeit_files import read_forfeit_details

        return pd.DataFrame(read_forfeit_details(self.folder))

    def moves(
        self, hands: str | None = None, where: str | None = None, out: str | Path | None = None
    ) -> pd.DataFrame | Path:
        """Every decision of the chosen hands (``ginsim moves``): ``hands`` as ``"0:100"``
        or ``"3,17"`` (rows of the hand log), or ``where`` a pandas condition over the hand
        log's columns; every hand when neither. Each hand is replayed from the seeds and
        checked against the log. With ``out`` the log streams to that file (Parquet, or CSV
        for a .csv name) and its path is returned; without, a DataFrame."""
        from ginsim.terminal.moves import write_moves

        if out is not None:
            write_moves(self.folder, Path(out), hands, where)
            return Path(out)
        import pandas as pd

        with tempfile.TemporaryDirectory(prefix="ginsim-moves-") as tmp:
            path = Path(tmp) / "moves.parquet"
            write_moves(self.folder, path, hands, where)
            return pd.read_parquet(path)

    def report(self, path: bool = False) -> str | Path:
        """report.md's text (its path with ``path=True``)."""
        from ginsim.analysis.tables import REPORT

        p = self.folder / REPORT
        return p if path else p.read_text(encoding="utf-8")

    # -- charts ------------------------------------------------------------------------
    @property
    def charts(self) -> list[str]:
        """The names of this run's charts (as the files under charts/ are named)."""
        return list(self._makers)

    @cached_property
    def _makers(self) -> dict[str, Callable[[Axes | None], Figure]]:
        from ginsim.analysis.plots import chart_makers

        return chart_makers(self.analysis)

    def plot(self, name: str, ax: Axes | None = None) -> Figure:
        """Draw chart ``name`` on ``ax`` (a new figure when None); returns the figure."""
        from ginsim.engine.registry import did_you_mean

        make = self._makers.get(name)
        if make is None:
            known = ", ".join(self._makers) or "none"
            raise RunError(f"no chart {name!r} in this run (charts: {known}){did_you_mean(name, self._makers)}")
        return make(ax)
