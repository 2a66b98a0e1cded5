"""The strategy registry: the names strategies go by, and the classes they load.

A name is a built-in or an entry point of the group ``ginsim.strategies``; outside code is
``package.module:Class`` or ``path/to/file.py:Class``. A target that starts with a registered
prefix goes to that prefix's loader: ginsim.outside registers ``java:`` (an EAAI Java player,
``java:CLASSPATH:ClassName``) when it is imported, which ``import ginsim`` does; the engine
never imports the modules that register prefixes. A class is checked as it loads: a subclass
of Strategy that answers every decision. Spec text, a target with its parameters, is read by
ginsim.engine.spec. Every mistake is a StrategySpecError that names the strategy and what is
wrong.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable
from difflib import get_close_matches
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

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


def prefix_of(target: str) -> str | None:
    """The registered prefix ``target`` starts with (``java`` for ``java:...``), else None."""
    head, sep, _ = target.partition(":")
    return head if sep and head in _PREFIX_LOADERS else None


@lru_cache(maxsize=1)
def plugin_targets() -> dict[str, str]:
    """The installed plugins' names (the ``ginsim.strategies`` entry point group, built-ins
    excepted): name -> ``module:Class``."""
    try:
        eps = entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # noqa: BLE001 - a broken environment must not stop the built-ins
        return {}
    return {ep.name: ep.value for ep in eps if ep.name not in BUILTINS}


def defined_targets() -> dict[str, str]:
    """The process-defined names whose class can be found again by ``module:Class`` (a
    class made inside a function, or a stand-in, cannot) and that no built-in or
    installed plugin already uses: name -> ``module:Class``."""
    taken = {**BUILTINS, **plugin_targets(), **dict.fromkeys(_PREFIX_LOADERS, "")}  # spec prefixes are no names
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
    return {**defined_targets(), **BUILTINS, **plugin_targets()}


def did_you_mean(word: str, choices: list[str] | tuple[str, ...] | dict[str, Any]) -> str:
    """`` (did you mean 'x'?)`` when ``word`` is close to one of ``choices``, else ''."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def load_class(target: str, spec: str | None = None) -> type[Strategy]:
    """The Strategy class a target names."""
    where = spec or target
    prefix = prefix_of(target)
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
