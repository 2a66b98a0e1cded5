"""One exception type per kind of mistake; each is a ValueError that says what and with which value.

An error about a parameter of the library names it as the Python caller wrote it
(``hands must be a positive whole number, not -3``); the CLI names the same error by its
flag (``--hands must be ...``). Such an error is made by ``about`` from a template whose
``{name}`` fields are the parameters it names; ``message`` renders it with other names."""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any, Self


def one_line(text: Any) -> str:
    """Text from outside (a label, a bot's message) safe to print on one terminal line:
    whitespace runs (newlines, tabs, ...) as one space, control characters (escape
    sequences) dropped, as report.md shows it."""
    s = "".join(ch if ch.isprintable() or ch.isspace() else "" for ch in str(text))
    return " ".join(s.split())


class GinsimError(ValueError):
    """Base of every ginsim input error; the CLI prints its message as one line and exits 2."""

    params: tuple[str, ...] = ()
    """The library parameters the message names (in the order it names them)."""
    _template: str | None = None
    _values: Mapping[str, Any] = {}

    @classmethod
    def about(cls, template: str, **values: Any) -> Self:
        """An error naming parameters: every field of ``template`` not given in ``values``
        is a parameter's name, written as the parameter itself (``"{hands} must be ...,
        not {n}"`` with ``n=-3`` says ``hands must be ..., not -3``)."""
        fields = [f for _, f, _, _ in Formatter().parse(template) if f]
        params = tuple(dict.fromkeys(f for f in fields if f not in values))
        error = cls(template.format(**{p: p for p in params}, **values))
        error.params = params
        error._template = template
        error._values = values
        return error

    def message(self, names: Mapping[str, str]) -> str:
        """The message with each parameter named as ``names`` says (a parameter missing
        from ``names`` keeps its own name): the CLI passes its table of flags."""
        if self._template is None:
            return str(self)
        return self._template.format(**{p: names.get(p, p) for p in self.params}, **self._values)


class CardError(GinsimError):
    """Bad card text, a duplicate card or a bad hand."""


class RulesError(GinsimError):
    """A rules value, key or file that is not valid."""


class StrategySpecError(GinsimError):
    """An unknown strategy, a bad parameter, or a plugin that cannot be loaded."""


class IllegalMoveError(GinsimError):
    """A move the rules do not allow at this point of the hand."""


class RunError(GinsimError):
    """A results folder, experiment file or run option that cannot be used."""


class Interrupted(GinsimError):
    """A run or command stopped by Ctrl-C or SIGTERM; the CLI prints it as one line and
    exits 130 (whatever the stage: startup, play or charts)."""
