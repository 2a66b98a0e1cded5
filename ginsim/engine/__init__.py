"""The engine: cards as ints and hands as masks, melds and lay-offs, the rules, the hand
state machine, what a seat may see (``PlayerView``), the play loop, games, play-outs and
the strategy registry.

Nothing here imports pandas, matplotlib or any other layer of ginsim. The hot modules
(``_native.HOT``) are compiled with mypyc when installed; ``_native`` decides, before any
of them loads, whether the compiled form or the sources run.
"""

from ginsim.engine import _native  # noqa: F401  (first: it decides how the hot modules load)
