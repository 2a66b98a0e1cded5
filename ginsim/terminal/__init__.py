"""Text front-ends: the hand checker, playing against a bot, replaying a logged hand,
and the text rendering they share.

Above the engine and ``ginsim.run`` (play and replay deal from ``ginsim.run.seeding``; a
replay reads its folder through ``ginsim.runfolder`` and seats the strategies as the
worker does), beside the analysis, which it does not import, and below the top modules
and the cli that call it: pyproject.toml's import contract, checked by tests/test_layers.py."""
