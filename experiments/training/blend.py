"""Blend two ``learned`` models: every number the evolution strategies move (``evolve.to_theta``)
becomes the weighted mean of the two models' numbers.

A model found by ``evolve.py`` plays best against the opponents of its run and can lose
elsewhere; its blend with the model it started from keeps part of each. The shipped model is
such a blend, half each (step 4 of ``make_model.sh``; docs/notes/2026-12-learned.md measures it).

    python experiments/training/blend.py build/learned/improved.npz build/learned/evolve/gen-45.npz \\
        --weight 0.5 --out strategies/learned.npz

Both models must share their features and scalings (``evolve.py`` keeps them).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from evolve import from_theta, to_theta
from ginsim.strategies.learned import HEADS

from ginsim.engine.valuemodel import load_heads, save_heads


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("first", type=Path)
    ap.add_argument("second", type=Path)
    ap.add_argument("--weight", type=float, default=0.5, help="the second model's share")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if not 0.0 <= args.weight <= 1.0:
        raise SystemExit(f"blend: --weight must be in [0, 1], not {args.weight}")
    a, meta_a = load_heads(args.first, HEADS, widen=True)
    b, meta_b = load_heads(args.second, HEADS, widen=True)
    for key in HEADS:
        if not (np.array_equal(a[key].mean, b[key].mean) and np.array_equal(a[key].scale, b[key].scale)):
            raise SystemExit(f"blend: the two models scale the {key} head's features differently")
    theta = (1.0 - args.weight) * to_theta(a) + args.weight * to_theta(b)
    save_heads(args.out, from_theta(theta, a), {**meta_a, **meta_b, "blend": args.weight})
    return 0


if __name__ == "__main__":
    sys.exit(main())
