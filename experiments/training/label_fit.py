"""How well can ``learned``'s heads follow a labelling run's teacher? A gate before any game.

    python experiments/training/label_fit.py --records build/search-a --records build/search-b

For the discard and upcard heads, on the last ``--holdout`` of each records file's decisions
(the first part fits): the share of decisions on which each head picks the teacher's option
and the mean log-likelihood of the teacher's choices, for the shipped model's heads (its
cheap heads under the default and classic rules' labels, ``--preset``), a linear head and a
head with ``--hidden`` units fitted afresh, and the shipped heads fitted further on the
labels (``--tune`` Adam steps; ``train_learned.fine_tune``). A head that does not follow its
teacher better than the shipped one on held-out decisions will not play better for it (the
notes' tenth attempt).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from feature_trial import log_likelihood, split
from ginsim.strategies.learned import CHEAP_MODEL, HEADS, MODEL, plays_cheap
from train_learned import agreement, fine_tune, fit_choice, fit_hidden

from ginsim.engine.rules import preset_rules
from ginsim.engine.valuemodel import Head
from ginsim.errors import GinsimError


def scores(head: Head, data: tuple) -> dict[str, float]:
    return {
        "held_out_agreement": round(agreement(head, *data), 4),
        "held_out_log_likelihood": round(log_likelihood(head.score(data[0]), data[1], data[2]), 4),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--records", type=Path, action="append", required=True, help="a folder of records files")
    ap.add_argument("--preset", default="default", help="the rules the labels were played under")
    ap.add_argument("--holdout", type=float, default=0.2, help="the share of each file held out (the last)")
    ap.add_argument("--hidden", type=int, default=16, help="hidden units of the head fitted afresh")
    ap.add_argument("--steps", type=int, default=400, help="Adam steps of the head fitted afresh")
    ap.add_argument("--tune", type=int, default=200, help="Adam steps fitting the shipped heads further")
    args = ap.parse_args(argv)
    if not 0.0 < args.holdout < 1.0:
        ap.error(f"--holdout must be between 0 and 1, not {args.holdout}")
    paths = [p for folder in args.records for p in sorted(folder.glob("records-*.npz"))]
    if not paths:
        print("label_fit: no records files in " + ", ".join(map(str, args.records)), file=sys.stderr)
        return 2
    try:
        rules = preset_rules(args.preset)
    except (GinsimError, KeyError, ValueError) as err:
        print(f"label_fit: --preset: {err}", file=sys.stderr)
        return 2
    shipped = CHEAP_MODEL if plays_cheap(rules) else MODEL
    for head in ("discard", "take"):
        train, test = split(paths, head, args.holdout)
        linear = fit_choice(list(HEADS[head]), *train, 1e-4)
        fits = {"shipped": shipped[head], "linear": linear}
        fits[f"{args.hidden} units"] = fit_hidden(linear, *train, args.hidden, args.steps, seed=0)
        if shipped[head].w1 is not None and args.tune:
            fits[f"shipped, {args.tune} steps more"] = fine_tune(shipped[head], *train, args.tune)
        for name, fitted in fits.items():
            row = {"head": head, "fit": name, **scores(fitted, test), "decisions": [len(train[1]), len(test[1])]}
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
