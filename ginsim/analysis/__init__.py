"""Reading a finished (or partial) run folder: statistics with intervals, ratings, the
sequential test's figures, tables, report.md and charts; never plays a hand.

It reads run folders through ``ginsim.runfolder`` (the run-folder format; ``atomic`` writes
its own files into the folder), imports nothing of the runner ``ginsim.run``, and no
terminal, top module or cli: the import contract of pyproject.toml, checked by
tests/test_layers.py. The hand log's counts
(``logcounts``) are apart from the charts that draw them (``logcharts``)."""
