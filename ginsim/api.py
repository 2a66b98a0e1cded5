"""Runs from Python: ``ginsim.match``, ``ginsim.roundrobin``, ``ginsim.sweep`` and
``ginsim.open_run``, each giving a ``Run`` with the tables as pandas frames (ginsim.results).

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ginsim.engine.guard import DEFAULT_DECISION_LIMIT, checking
from ginsim.engine.rules import Rules, load_rules
from ginsim.engine.spec import StrategySpec, parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.errors import RulesError, RunError
from ginsim.launch import RunSettings, launch
from ginsim.results import Run as Run
from ginsim.results import open_run as open_run  # the run functions' API: ginsim.open_run
from ginsim.run.describe import GauntletRun, MatchRun, RoundRobinRun, RunDescription, SweepRun
from ginsim.run.options import Engine, resolve_engine

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
