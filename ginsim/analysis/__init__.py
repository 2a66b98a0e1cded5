"""Reading a finished (or partial) run folder: statistics with intervals, ratings, the
sequential test's figures, tables, report.md and charts. Reads run folders only through
``ginsim.run.records``; never plays a hand."""
