"""Plugin surface: ``ginsim.valuemodel`` is ``ginsim.engine.valuemodel`` (the documented path for
strategy authors, kept stable whatever moves inside the package)."""

from ginsim.engine.valuemodel import *  # noqa: F403
