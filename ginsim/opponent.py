"""Plugin surface: ``ginsim.opponent`` is ``ginsim.engine.opponent`` (the documented path for
strategy authors, kept stable whatever moves inside the package)."""

from ginsim.engine.opponent import *  # noqa: F403
