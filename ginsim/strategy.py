"""Plugin surface: ``ginsim.strategy`` is ``ginsim.engine.strategy`` (the documented path for strategy
authors, kept stable whatever moves inside the package), with the fast path's policy data of
``ginsim.engine.policy`` that ``Strategy.fast_policy`` returns."""

from ginsim.engine.policy import ALWAYS as ALWAYS
from ginsim.engine.policy import RANDOM as RANDOM
from ginsim.engine.policy import SIMPLE as SIMPLE
from ginsim.engine.policy import FastPolicy as FastPolicy
from ginsim.engine.strategy import *  # noqa: F403
