"""Plugin surface: ``ginsim.strategy`` is ``ginsim.engine.strategy`` (the documented path for strategy
authors, kept stable whatever moves inside the package)."""

from ginsim.engine.strategy import *  # noqa: F403
