"""One exception type per kind of mistake; each is a ValueError that says what and with which value."""

from __future__ import annotations


class GinsimError(ValueError):
    """Base of every ginsim input error; the CLI prints its message as one line and exits 2."""


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
