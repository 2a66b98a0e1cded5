"""Running plans: seeds of every deal, pairings and chunk plans, workers and backends, the
runner that writes chunks as they finish, the run-folder format (``records``), the
sequential-stop hook, experiment files and the benchmark. Imports the engine only."""
