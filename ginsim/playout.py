"""Plugin surface: ``ginsim.playout`` is ``ginsim.engine.playout`` (the documented path for strategy
authors, kept stable whatever moves inside the package)."""

from ginsim.engine.playout import *  # noqa: F403
