"""Strategy specs: the text that names a strategy and its parameters, read and checked into
a ``StrategySpec``, apart from the registry (ginsim.engine.registry) that finds the classes.

A spec is ``name`` or ``name:key=value,key=value`` for a named strategy; outside code is
``package.module:Class`` or ``path/to/file.py:Class``, either optionally followed by
``:key=value,...`` (ginsim.engine.registry finds and checks the class). Values are converted
to the type of the parameter's default, and the strategy's own code (loading its module, its
constructor) runs as a call the watchdog watches when it is armed (``limited``). Every
mistake is a StrategySpecError that names the spec and what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ginsim.engine.guard import DecisionTimeout, watched
from ginsim.engine.registry import (
    BUILTINS,
    available,
    defined_targets,
    did_you_mean,
    load_class,
    plugin_targets,
    prefix_of,
)
from ginsim.engine.strategy import Strategy
from ginsim.errors import StrategySpecError


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
    if target in BUILTINS or prefix_of(target) is not None or target in defined_targets():
        return False
    module = plugin_targets().get(target, target).rpartition(":")[0]
    return not (module == "ginsim" or module.startswith("ginsim."))


def _own_name(target: str) -> str:
    """The ``name`` a loaded outside class sets on itself ('' if none, or not loadable)."""
    if prefix_of(target) is not None:
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
    target = defined_targets().get(target, target)  # a process-defined name is its module:Class
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
