"""The contract every strategy passes: ``ginsim.testing`` (shipped in the package, so a
user's own pytest can use it too), imported here under the name the suite's tests use."""

from ginsim.testing import DECISIONS, HOOKS, VARIANTS, Guard, Record, StrategyContract

__all__ = ["DECISIONS", "HOOKS", "VARIANTS", "Guard", "Record", "StrategyContract"]
