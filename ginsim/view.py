"""Plugin surface: ``ginsim.view`` is ``ginsim.engine.view`` (the documented path for strategy
authors, kept stable whatever moves inside the package)."""

from ginsim.engine.view import *  # noqa: F403
