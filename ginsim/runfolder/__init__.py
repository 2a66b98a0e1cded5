"""The run-folder format: what a run folder holds and how it is written and read. The
typed manifest (``manifest``); the hand and game columns, outcome codes, a chunk's files
and reading them (``records``); which chunk files count, each verified against the plan
(``chunks``); writing a chunk (``writing``); checksums and the format's version
(``integrity``); atomic writes (``atomic``); a tournament run's secret (``secret``);
decision times (``timing``); each forfeit's record (``forfeit_records``) and the files
that keep them (``forfeit_files``); the folder's lock (``lock``). The runner writes through
it; statistics, reports, charts and replays read through it and never import the runner.

The one module family the analysis reads. It imports the engine (outcome codes, cards,
views) and nothing of ``ginsim.run`` or above: pyproject.toml's import contract, checked by
tests/test_layers.py."""
