"""Running plans: seeds of every deal, pairings and chunk plans, workers and backends, the
runner that writes chunks as they finish (in the format of ``ginsim.runfolder``), the
sequential-stop hook, experiment files and the benchmark.

Imports the engine, ``ginsim.runfolder`` and ``ginsim.outside`` (the processes tournament mode starts, an
outside player's manifest notes) and no layer above (analysis, terminal, the top modules,
cli): pyproject.toml's import contract, checked by tests/test_layers.py. The fast path is
chosen by asking each strategy class for its ``fast_policy``, never by importing one."""
