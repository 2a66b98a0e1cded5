"""``python -m ginsim``: the same as the ``ginsim`` command."""

from ginsim.cli import main

main()
