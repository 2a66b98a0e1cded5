"""Reinforcement-learning environments for Gin Rummy, played by ginsim's engine.

- ``ginsim.rl.env(rules=..., game=False, reward="points")``: a PettingZoo AEC
  environment for two agents (``ginsim.rl.aec``);
- ``gymnasium.make("ginsim/GinRummy-v0", opponent="simple", rules="default")``: the
  learner against any strategy spec (``ginsim.rl.single``);
- ``ginsim.rl.make_vector(num_envs, opponent=...)``: a batch of tables in one
  ``gymnasium.vector.VectorEnv`` (``ginsim.rl.vector``);
- ``ginsim.rl.PolicyStrategy``: a callable ``(observation, mask) -> action`` as a ginsim
  strategy, and the spec ``rlpolicy:FILE.py:NAME`` (``ginsim.rl.policy``);
- the encodings (``ginsim.rl.encoding``) and the conversions to OpenSpiel's and RLCard's
  action numbers (``ginsim.rl.crossplay``). docs/rl.md documents them all.

The environments need ``pip install "ginsim[rl]"`` (Gymnasium, PettingZoo); the encodings
and ``PolicyStrategy`` need NumPy only. Importing this package registers
``ginsim/GinRummy-v0`` with Gymnasium when Gymnasium is installed.

The layer, as the import contract of pyproject.toml checks (tests/test_layers.py): beside
``ginsim.analysis`` and ``ginsim.terminal``; it plays through the engine (the ``Hand``
state machine, the views, the kernel's built-in policies) and finds opponents through the
engine's registry, and re-implements no rule.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

ENV_ID: Final = "ginsim/GinRummy-v0"

_LAZY: Final = {
    "env": "ginsim.rl.aec",
    "GinRummyAEC": "ginsim.rl.aec",
    "GinRummyEnv": "ginsim.rl.single",
    "GinRummyVectorEnv": "ginsim.rl.vector",
    "make_vector": "ginsim.rl.vector",
    "PolicyStrategy": "ginsim.rl.policy",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ginsim.rl' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


def _register_gymnasium() -> None:
    """Register ``ENV_ID`` with Gymnasium, when it is installed."""
    try:
        import gymnasium
    except ImportError:
        return
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="ginsim.rl.single:GinRummyEnv")


_register_gymnasium()

__all__ = ["ENV_ID", *sorted(_LAZY)]
