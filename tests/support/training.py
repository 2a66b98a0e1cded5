"""The experiment scripts of experiments/training/, imported by name for their tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

TRAINING = Path(__file__).resolve().parents[2] / "experiments" / "training"


def training_module(name: str) -> ModuleType:
    """``experiments/training/NAME.py`` as a module (its folder on the path, for its own imports)."""
    if str(TRAINING) not in sys.path:
        sys.path.insert(0, str(TRAINING))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TRAINING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def fresh_network(path: Path, hidden: int = 8, seed: int = 1) -> Path:
    """An untrained card value network of ``card_value.py`` (numbers unscaled, ``hidden``
    units, weights drawn by ``seed``) written to ``path``."""
    cv = training_module("card_value")
    width = cv.WIDTH - cv.MASKS * 52
    cv.save_value(path, cv.ValueNet.fresh(np.zeros(width), np.ones(width), hidden, np.random.default_rng(seed)), {})
    return path
