"""Reading a finished (or partial) run folder: statistics with intervals, ratings, the
sequential test's figures, tables, report.md and charts; never plays a hand.

Of ``ginsim.run`` it imports ``records`` (the run-folder format) and ``atomic`` (to write
its own files into the folder) only, and it imports no terminal, top module or cli: the
import contract of pyproject.toml, checked by tests/test_layers.py. The hand log's counts
(``logcounts``) are apart from the charts that draw them (``plots``)."""
