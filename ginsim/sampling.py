"""Plugin surface: ``ginsim.sampling`` is ``ginsim.engine.sampling`` (the documented path for
strategy authors, kept stable whatever moves inside the package)."""

from ginsim.engine.sampling import *  # noqa: F403
