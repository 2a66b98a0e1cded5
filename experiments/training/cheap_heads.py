"""Give a ``learned`` model the heads it plays where undercuts are cheap.

``learned`` plays a model file's ``cheap.*`` heads where an undercut is worth 10 or less (the
default and classic presets; ``CHEAP_UNDERCUT`` in ``strategies/learned.py``) and its other
heads elsewhere. This writes OUT with BASE's heads and, as its cheap heads, CHEAP's (any
cheap heads BASE had are replaced). The shipped model is made so (step 5 of
``make_model.sh``):

    python experiments/training/cheap_heads.py build/learned/blend.npz build/learned/cheap.npz \\
        --out strategies/learned.npz

A model written before a head's newest features is read widened (those features weigh
nothing); a head that CHEAP lacks (``train_learned.py --heads``) stays BASE's cheap head;
``--knock`` takes the cheap knock head from another model.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ginsim.strategies.learned import CHEAP, HEADS

from ginsim.engine.valuemodel import load_heads, save_heads


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("base", type=Path, help="the model whose heads play where undercuts are dear")
    ap.add_argument("cheap", type=Path, help="the model whose heads play where undercuts are cheap")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--knock", type=Path, default=None, help="take the cheap knock head from this model instead")
    args = ap.parse_args(argv)
    base, meta = load_heads(args.base, HEADS, widen=True)
    cheap, cheap_meta = load_heads(args.cheap, HEADS, required=False, widen=True)
    missing = [key for key in HEADS if key not in cheap]
    if missing:  # heads CHEAP lacks stay BASE's cheap ones
        kept = load_heads(args.base, {CHEAP + key: HEADS[key] for key in missing}, widen=True)[0]
        cheap.update({key[len(CHEAP) :]: head for key, head in kept.items()})
    cheap_meta = {CHEAP + key: value for key, value in cheap_meta.items()}
    if args.knock is not None:
        knock, knock_meta = load_heads(args.knock, {"knock": HEADS["knock"]})
        cheap["knock"] = knock["knock"]
        cheap_meta.update({CHEAP + "knock." + key: value for key, value in knock_meta.items()})
    heads = {**base, **{CHEAP + key: head for key, head in cheap.items()}}
    save_heads(args.out, heads, {**meta, **cheap_meta})
    return 0


if __name__ == "__main__":
    sys.exit(main())
