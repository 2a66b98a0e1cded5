"""The ``ginsim`` command line (click). ``main`` is the console script's entry point.

The top layer: it may import every other (thinly: the work is in the library), and no
module of ginsim but ``ginsim.__main__`` imports it (pyproject.toml's import contract,
checked by tests/test_layers.py)."""

from ginsim.cli.group import cli, main

__all__ = ["cli", "main"]
