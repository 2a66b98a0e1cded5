"""Plugin surface: ``ginsim.cards`` is ``ginsim.engine.cards`` (the documented path for strategy
authors, kept stable whatever moves inside the package)."""

from ginsim.engine.cards import *  # noqa: F403
