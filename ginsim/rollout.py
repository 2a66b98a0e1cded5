"""Plugin surface: ``ginsim.rollout`` is ``ginsim.engine.rollout`` (a hand rebuilt from a seat's view
in a sampled world and played out; the documented path for strategy authors)."""

from ginsim.engine.rollout import *  # noqa: F403
