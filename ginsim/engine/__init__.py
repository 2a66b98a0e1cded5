"""The engine: cards as ints and hands as masks, melds and lay-offs, the rules, the hand
state machine, what a seat may see (``PlayerView``), the play loop, games, play-outs,
the strategy registry and strategy specs.

The bottom layer (it imports only ``ginsim.errors`` of the rest of ginsim): nothing here
imports another layer (outside, run, analysis, terminal, the top modules, cli), the
plugins' surface (``ginsim.cards``, ``ginsim.view``, ``ginsim.strategy``,
``ginsim.playout``, ``ginsim.sampling``, ``ginsim.opponent``, ``ginsim.valuemodel``) or the
root package, so no plugin either (the registry finds them by name, and spec prefixes such
as ``java:`` are registered from above), nor pandas or matplotlib: pyproject.toml's import
contract says so and tests/test_layers.py checks it.
The hot modules
(``_native.HOT``) are compiled with mypyc when installed; ``_native`` decides, before any
of them loads, whether the compiled form or the sources run.
"""

from ginsim.engine import _native  # noqa: F401  (first: it decides how the hot modules load)
