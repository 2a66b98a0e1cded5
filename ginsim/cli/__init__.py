"""The ``ginsim`` command line (click). ``main`` is the console script's entry point."""

from ginsim.cli.group import cli, main

__all__ = ["cli", "main"]
