"""Finding strategies by name and building them from spec text.

A spec is ``name`` or ``name:key=value,key=value`` for a built-in or an entry point of the
group ``ginsim.strategies``; outside code is ``package.module:Class`` or
``path/to/file.py:Class``, either optionally followed by ``:key=value,...``. A spec that
starts with a registered prefix goes to that prefix's loader: ginsim.outside registers
``java:`` (an EAAI Java player, ``java:CLASSPATH:ClassName``) when it is imported, which
``import ginsim`` does; the engine never imports the modules that register prefixes. Values
are converted to the type of the parameter's default. Every mistake is a StrategySpecError
that names the spec and what is wrong.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from ginsim.engine.guard import DecisionTimeout, watched
from ginsim.engine.strategy import DEFINED, Strategy, missing_decisions
from ginsim.errors import StrategySpecError

BUILTINS: dict[str, str] = {
    "random": "ginsim.strategies.random_play:RandomPlay",
    "simple": "ginsim.strategies.simple:Simple",
    "threshold": "ginsim.strategies.threshold:Threshold",
    "aware": "ginsim.strategies.aware:Aware",
    "sampler": "ginsim.strategies.sampler:Sampler",
    "patient": "ginsim.strategies.patient:Patient",
    "learned": "ginsim.strategies.learned:Learned",
}
"""Built-in strategies: name -> ``module:Class``."""

ENTRY_POINT_GROUP = "ginsim.strategies"
_FILE_MODULE = "ginsim_plugin_"  # the module name prefix of a file.py:Class plugin

PrefixLoader = Callable[[str, str], type]
"""A spec prefix's loader: ``(target, where) -> Strategy subclass`` (checked here),
``where`` the spec as written, for its errors (a StrategySpecError of one line)."""

_PREFIX_LOADERS: dict[str, PrefixLoader] = {}


def register_prefix(prefix: str, loader: PrefixLoader) -> None:
    """Send every spec ``prefix:...`` to ``loader`` (as ginsim.outside does for ``java``).
    Registering a prefix again replaces its loader; a prefix is a plain word, and never the
    name of a built-in strategy."""
    if not prefix.isidentifier():
        raise ValueError(f"spec prefix {prefix!r}: expected a plain word such as 'java'")
    if prefix in BUILTINS:
        raise ValueError(f"spec prefix {prefix!r} is the name of a built-in strategy")
    _PREFIX_LOADERS[prefix] = loader


def spec_prefixes() -> tuple[str, ...]:
    """The registered spec prefixes, in the order they were registered."""
    return tuple(_PREFIX_LOADERS)


def _prefix_of(target: str) -> str | None:
    """The registered prefix ``target`` starts with (``java`` for ``java:...``), else None."""
    head, sep, _ = target.partition(":")
    return head if sep and head in _PREFIX_LOADERS else None


@lru_cache(maxsize=1)
def _entry_points() -> dict[str, str]:
    try:
        eps = entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # noqa: BLE001 - a broken environment must not stop the built-ins
        return {}
    return {ep.name: ep.value for ep in eps if ep.name not in BUILTINS}


def _defined() -> dict[str, str]:
    """The process-defined names whose class can be found again by ``module:Class`` (a
    class made inside a function, or a stand-in, cannot) and that no built-in or
    installed plugin already uses: name -> ``module:Class``."""
    taken = {**BUILTINS, **_entry_points(), **dict.fromkeys(_PREFIX_LOADERS, "")}  # spec prefixes are no names
    out = {}
    for name, classes in DEFINED.items():
        if name in taken:
            continue
        for cls in reversed(classes):
            module = sys.modules.get(cls.__module__)
            if module is None or getattr(module, cls.__qualname__, None) is not cls:
                continue
            file = module.__file__ if cls.__module__.startswith(_FILE_MODULE) else None
            out[name] = f"{file or cls.__module__}:{cls.__qualname__}"
            break
    return out


def available() -> dict[str, str]:
    """Every strategy that has a name: built-ins, installed plugins, then the classes
    defined in this process that set their own ``name``."""
    return {**_defined(), **BUILTINS, **_entry_points()}


def did_you_mean(word: str, choices: list[str] | tuple[str, ...] | dict[str, Any]) -> str:
    """`` (did you mean 'x'?)`` when ``word`` is close to one of ``choices``, else ''."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


@dataclass(frozen=True)
class SpecFacts:
    """What a spec checked in a process of its own (tournament mode: ginsim.tournament.spec_check)
    says about its class, so that the referee never imports the class itself."""

    defaults: dict[str, Any]  # the constructor's parameters and defaults
    name: str  # the label's first part (``base_name``)
    outside: dict[str, Any] | None = None  # an outside player's manifest notes


@dataclass(frozen=True)
class StrategySpec:
    """A parsed strategy spec: where the class is and the parameters to build it with.
    ``facts`` is set when the spec was checked in another process (tournament mode):
    then nothing here loads the class."""

    text: str  # as the user wrote it
    target: str  # a registered name, ``package.module:Class`` or ``file.py:Class``
    params: dict[str, Any] = field(default_factory=dict)
    facts: SpecFacts | None = field(default=None, compare=False, repr=False)

    @property
    def base_name(self) -> str:
        """The label without parameters: the name, or for outside code its class's own
        ``name`` (else the class name)."""
        if self.facts is not None:
            return self.facts.name
        base = self.target
        if ":" in base:  # outside code: its own ``name``, else the class name
            base = base.rsplit(":", 1)[1]
            own = _own_name(self.target)
            if own:
                base = own
        return base

    @property
    def label(self) -> str:
        """A short name for tables and charts: ``threshold:knock_at=4``."""
        base = self.base_name
        if not self.params:
            return base
        return base + ":" + ",".join(f"{k}={_fmt(v)}" for k, v in self.params.items())

    def defaults(self) -> dict[str, Any]:
        """The class's constructor parameters and their defaults."""
        return dict(self.facts.defaults) if self.facts is not None else self.load_class().parameters()

    @property
    def canonical(self) -> str:
        """The same text for the same strategy: target and every parameter, sorted
        (``threshold`` and ``threshold:knock_at=10`` are one strategy)."""
        values = {**self.defaults(), **self.params}
        if not values:
            return self.target
        return self.target + ":" + ",".join(f"{k}={_fmt(values[k])}" for k in sorted(values))

    def with_params(self, changes: dict[str, Any]) -> StrategySpec:
        """This spec with some parameters set (values converted as on the command line).
        A spec checked in another process is not built here: check the new one there
        too (ginsim.tournament.spec_check)."""
        defaults = self.defaults()
        params = dict(self.params)
        for key, value in changes.items():
            if key not in defaults:
                hint = did_you_mean(key, defaults)
                raise StrategySpecError(f"strategy {self.text!r}: unknown parameter {key!r}{hint}")
            params[key] = convert_value(self.text, key, str(value), defaults[key]) if isinstance(value, str) else value
        text = self.target + ":" + ",".join(f"{k}={_fmt(v)}" for k, v in params.items())
        spec = StrategySpec(text, self.target, params, self.facts)
        if self.facts is None:
            spec.build()
        return spec

    def load_class(self) -> type[Strategy]:
        return load_class(self.target, self.text)

    def build(self) -> Strategy:
        """A new strategy instance (a constructor the watchdog ends, when it is armed:
        StrategySpecError, ``limited``)."""
        cls = self.load_class()
        with limited(self.text, "its constructor"):
            try:
                return cls(**self.params)
            except (TypeError, ValueError) as e:
                raise StrategySpecError(f"strategy {self.text!r}: {e}") from None


@contextmanager
def limited(where: str, what: str) -> Iterator[None]:
    """Strategy code run to check or build a spec (``what``: loading its module, its
    constructor) as a call the watchdog watches when it is armed (ginsim.engine.guard:
    ``checking`` before a run, ``guarded`` during one): one it ends is a
    StrategySpecError naming the strategy, the problem and the limit."""
    with watched() as counted:
        try:
            yield
        except DecisionTimeout as e:
            if not counted:  # inside a call watched already (a strategy building another): that call's
                raise
            raise no_answer(where, what, e.limit) from None


def no_answer(where: str, what: str, limit: float) -> StrategySpecError:
    """The error of strategy ``where`` whose ``what`` (loading it, its constructor) ran
    past the decision limit of ``limit`` seconds."""
    return StrategySpecError.about(
        "strategy {where!r}: {what} gave no answer within {limit}s ({decision_limit})",
        where=where,
        what=what,
        limit=f"{limit:g}",
    )


def imports_outside_code(text: str) -> bool:
    """Whether checking spec ``text`` would import code from outside ginsim: a plugin,
    ``package.module:Class`` or ``file.py:Class`` (not a built-in, a spec with a registered
    prefix such as a Java player, or a class this process already defined). Tournament mode
    checks those elsewhere."""
    target, _ = _split(text.strip())
    if target in BUILTINS or _prefix_of(target) is not None or target in _defined():
        return False
    module = _entry_points().get(target, target).rpartition(":")[0]
    return not (module == "ginsim" or module.startswith("ginsim."))


def _own_name(target: str) -> str:
    """The ``name`` a loaded outside class sets on itself ('' if none, or not loadable)."""
    if _prefix_of(target) is not None:
        return ""
    try:
        cls = load_class(target)
    except StrategySpecError:
        return ""
    own = cls.__dict__.get("name")
    return own if isinstance(own, str) else ""


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _split(text: str) -> tuple[str, str]:
    """Split a spec into its target and its ``key=value`` part."""
    head, sep, rest = text.partition(":")
    if sep and head in available():
        return head, rest  # a named strategy: everything after the colon is parameters
    parts = text.split(":")
    if len(parts) >= 2 and "=" in parts[-1]:
        return ":".join(parts[:-1]), parts[-1]
    if len(parts) >= 2 and parts[-1] == "":
        return ":".join(parts[:-1]), ""
    return text, ""


def parse_spec(text: str) -> StrategySpec:
    """Parse and check a spec (the class is loaded and the parameters validated)."""
    raw = text.strip()
    if not raw:
        raise StrategySpecError("empty strategy spec")
    target, param_text = _split(raw)
    target = _defined().get(target, target)  # a process-defined name is its module:Class
    with limited(raw, "loading it"):  # its module's code runs here the first time
        cls = load_class(target, raw)
    defaults = cls.parameters()
    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in param_text.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise StrategySpecError(f"strategy {raw!r}: expected key=value, not {item!r}")
        if key not in defaults:
            known = ", ".join(defaults) or "none"
            hint = did_you_mean(key, defaults)
            raise StrategySpecError(f"strategy {raw!r}: unknown parameter {key!r} (parameters: {known}){hint}")
        if key in params:
            raise StrategySpecError(f"strategy {raw!r}: parameter {key!r} given twice")
        params[key] = convert_value(raw, key, value.strip(), defaults[key])
    spec = StrategySpec(raw, target, params)
    spec.build()  # constructor checks (ranges) fail here, once, with the spec named
    return spec


def convert_value(spec: str, key: str, text: str, default: Any) -> Any:
    """Convert parameter text to the type of its default."""
    try:
        if isinstance(default, bool):
            low = text.lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise ValueError
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            return float(text)
        if isinstance(default, str):
            return text
    except ValueError:
        kind = type(default).__name__
        raise StrategySpecError(f"strategy {spec!r}: parameter {key} expects {kind}, not {text!r}") from None
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def load_class(target: str, spec: str | None = None) -> type[Strategy]:
    """The Strategy class a target names."""
    where = spec or target
    prefix = _prefix_of(target)
    if prefix is not None:  # e.g. java: (an EAAI Java player), registered by ginsim.outside
        return _check_class(_PREFIX_LOADERS[prefix](target, where), where, target)
    registered = available()
    if target in registered:
        module_name, _, cls_name = registered[target].partition(":")
        return _import_class(module_name, cls_name, where)
    if ":" not in target:
        if target.endswith(".py"):
            raise StrategySpecError(f"strategy {where!r}: name the class too, as {target}:ClassName")
        names = ", ".join(registered)
        hint = did_you_mean(target, registered)
        raise StrategySpecError(
            f"unknown strategy {target!r} (available: {names}; or package.module:Class, file.py:Class){hint}"
        )
    module_part, _, cls_name = target.rpartition(":")
    if not module_part or not cls_name:
        raise StrategySpecError(f"strategy {where!r}: expected package.module:Class or path/to/file.py:Class")
    if module_part.endswith(".py") or "/" in module_part or "\\" in module_part:
        return _file_class(module_part, cls_name, where)
    if ":" in module_part:  # no module's name holds a colon: the spec starts with a prefix nobody registered
        known = ", ".join(f"{p}:" for p in _PREFIX_LOADERS) or "none"
        head = target.partition(":")[0] + ":"
        raise StrategySpecError(f"strategy {where!r}: unknown spec prefix {head!r} (known prefixes: {known})")
    return _import_class(module_part, cls_name, where)


def _check_class(obj: Any, where: str, name: str) -> type[Strategy]:
    if not (inspect.isclass(obj) and issubclass(obj, Strategy)):
        raise StrategySpecError(f"strategy {where!r}: {name!r} is not a subclass of ginsim.Strategy")
    check_decisions(obj, where)
    return obj


def check_decisions(cls: type[Strategy], where: str) -> None:
    """StrategySpecError naming the decisions ``cls`` does not define (and the method
    that looks like a misspelling of one), so a class that cannot play is refused when
    it loads, not forfeited hand after hand."""
    missing = missing_decisions(cls)
    if not missing:
        return
    own = {n for k in cls.__mro__ if k is not Strategy and k is not object for n in vars(k) if not n.startswith("_")}
    hints = [
        f"{m[0]!r} looks like {wanted!r}" for wanted in missing if (m := get_close_matches(wanted, sorted(own), 1, 0.7))
    ]
    hint = f" ({'; '.join(hints)})" if hints else ""
    raise StrategySpecError(
        f"strategy {where!r}: {cls.__name__} does not define {' or '.join(missing)}; a strategy answers "
        f"take_upcard, discard and knock (docs/strategy-api.md){hint}"
    )


def _cwd_on_path() -> None:
    """Make modules of the folder ginsim runs in importable, as ``python -m`` does (a
    user's ``strategies/mybot.py`` is then ``strategies.mybot:Bot``)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
        importlib.invalidate_caches()


def _import_class(module_name: str, cls_name: str, where: str) -> type[Strategy]:
    _cwd_on_path()
    try:
        module = importlib.import_module(module_name)
    except Exception as e:  # noqa: BLE001 - report any import failure as one line
        raise StrategySpecError(
            f"strategy {where!r}: cannot import {module_name!r} ({type(e).__name__}: {e})"
        ) from None
    obj = getattr(module, cls_name, None)
    if obj is None:
        raise StrategySpecError(f"strategy {where!r}: module {module_name!r} has no {cls_name!r}")
    return _check_class(obj, where, cls_name)


def _file_class(path_text: str, cls_name: str, where: str) -> type[Strategy]:
    path = Path(path_text).expanduser().resolve()
    if not path.is_file():
        raise StrategySpecError(f"strategy {where!r}: no file {path_text!r}")
    _cwd_on_path()  # so the file may import its neighbours by package path
    module_name = _FILE_MODULE + "".join(ch if ch.isalnum() else "_" for ch in str(path))
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise StrategySpecError(f"strategy {where!r}: cannot load {path_text!r}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException as e:
            del sys.modules[module_name]  # a half-run module is not loaded: the next try runs it again
            if not isinstance(e, Exception):  # the watchdog's timeout, the user's Ctrl-C: passed on
                raise
            raise StrategySpecError(
                f"strategy {where!r}: {path_text} failed to load ({type(e).__name__}: {e})"
            ) from None
    obj = getattr(module, cls_name, None)
    if obj is None:
        raise StrategySpecError(f"strategy {where!r}: {path_text} has no {cls_name!r}")
    return _check_class(obj, where, cls_name)


def describe_all() -> list[dict[str, Any]]:
    """Name, description and parameters (with defaults) of every named strategy."""
    out = []
    for name, target in available().items():
        try:
            cls = load_class(name)
        except StrategySpecError as e:
            out.append(
                {"name": name, "target": target, "description": f"cannot load: {e}", "parameters": {}, "error": str(e)}
            )
            continue
        doc = cls.description or (inspect.getdoc(cls) or "").split("\n")[0]
        out.append({"name": name, "target": target, "description": doc, "parameters": cls.parameters()})
    return out
