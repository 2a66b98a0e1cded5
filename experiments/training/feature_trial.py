"""Try a new feature on a labelling run's decisions before any game: does the teacher follow it?

    python experiments/training/feature_trial.py --records build/t1a --records build/t1b \\
        --columns experiments/training/two_draws.py:columns --head discard --out-dir build/trial

replays the logged games of each ``--records`` folder (``relabel.py``), appends to each row of
the head the numbers that ``--columns`` gives (``labels.Columns``: a function of the head, the
view, ``learned``'s context and the option), and fits the head with and without them on the
first share of each file's decisions (``--holdout``: the last fifth is held out; the
decisions are in the order of the games). It prints, for the linear head and the head with
``--hidden`` units, the share of held-out decisions in which it picks the teacher's option
and the mean log-likelihood of the teacher's choices: a feature the teacher does not follow
is not worth a model, nor an afternoon of games. Only a gate, not a verdict: a feature can
be followed and win nothing (the notes' ninth attempt, the knock's sampled deals).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from ginsim.strategies.learned import HEADS
from labels import Columns, ReplayError
from relabel import relabel_file
from train_learned import agreement, fit_choice, fit_hidden

from ginsim.errors import GinsimError

Split = tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]


def load_columns(text: str) -> Columns:
    """``FILE.py:NAME`` or ``MODULE:NAME``: the function that gives the extra columns."""
    where, _, name = text.rpartition(":")
    if not where or not name:
        raise ValueError(f"--columns must be FILE.py:NAME or MODULE:NAME, not {text!r}")
    if where.endswith(".py"):
        spec = importlib.util.spec_from_file_location(Path(where).stem, where)
        if spec is None or spec.loader is None:
            raise ValueError(f"--columns: cannot load {where}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    found = getattr(module, name, None)
    if not callable(found):
        raise ValueError(f"--columns: {where} has no function {name!r}")
    return found  # type: ignore[no-any-return]


def split(paths: Sequence[Path], head: str, holdout: float) -> Split:
    """The head's decisions of ``paths``: (rows, sizes, chosen) of each file's first share,
    and of its last ``holdout``."""
    train, test = [], []
    for path in paths:
        with np.load(path) as d:
            rows, sizes, chosen = d[f"{head}.rows"], d[f"{head}.sizes"], d[f"{head}.chosen"]
        n = int(len(sizes) * (1.0 - holdout))
        cut = int(sizes[:n].sum())
        train.append((rows[:cut], sizes[:n], chosen[:n]))
        test.append((rows[cut:], sizes[n:], chosen[n:]))
    joined = tuple(tuple(np.concatenate([part[i] for part in parts]) for i in range(3)) for parts in (train, test))
    return joined[0], joined[1]


def log_likelihood(scores: np.ndarray, sizes: np.ndarray, chosen: np.ndarray) -> float:
    """The mean log-likelihood of the teacher's choices under ``scores`` (a conditional
    logit over each decision's options; a logistic yes/no when each has one row)."""
    if (sizes == 1).all():
        signed = np.where(chosen == 1, scores, -scores)
        return float(-np.logaddexp(0.0, -signed).mean())
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    group = np.repeat(np.arange(len(sizes)), sizes)
    u = scores - np.maximum.reduceat(scores, starts)[group]
    return float((u[starts + chosen] - np.log(np.add.reduceat(np.exp(u), starts))).mean())


def compare(data: Split, head: str, hidden: int, steps: int) -> list[dict[str, object]]:
    """The head fitted without and with the extra columns: held-out agreement and likelihood."""
    (train, test), base = data, len(HEADS[head])
    width = train[0].shape[1]
    names = [*HEADS[head], *(f"new{i}" for i in range(width - base))]
    out = []
    for label, cols in (("without", list(range(base))), ("with", list(range(width)))):
        tr = (train[0][:, cols], train[1], train[2])
        te = (test[0][:, cols], test[1], test[2])
        linear = fit_choice([names[c] for c in cols], *tr, 1e-4)
        fits = [("linear", linear)]
        if hidden:
            fits.append((f"{hidden} units", fit_hidden(linear, *tr, hidden, steps, seed=0)))
        for kind, fitted in fits:
            out.append(
                {
                    "columns": label,
                    "head": kind,
                    "held_out_agreement": round(agreement(fitted, *te), 4),
                    "held_out_log_likelihood": round(log_likelihood(fitted.score(te[0]), te[1], te[2]), 4),
                    "decisions": [len(tr[1]), len(te[1])],
                }
            )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--records", type=Path, action="append", required=True, help="a folder of logged records")
    ap.add_argument("--columns", required=True, help="FILE.py:NAME or MODULE:NAME giving the extra columns")
    ap.add_argument("--head", choices=tuple(HEADS), default="discard")
    ap.add_argument("--out-dir", type=Path, required=True, help="where the lengthened records go")
    ap.add_argument("--holdout", type=float, default=0.2, help="the share of each file held out (the last)")
    ap.add_argument("--hidden", type=int, default=16, help="hidden units of the second fit (0: linear only)")
    ap.add_argument("--steps", type=int, default=400)
    args = ap.parse_args(argv)
    if not 0.0 < args.holdout < 1.0:
        ap.error(f"--holdout must be between 0 and 1, not {args.holdout}")
    try:
        columns = load_columns(args.columns)
    except (ValueError, OSError, ImportError) as err:
        print(f"feature_trial: {err}", file=sys.stderr)
        return 2
    written = []
    for k, folder in enumerate(args.records):
        paths = sorted(folder.glob("records-*.npz"))
        if not paths:
            print(f"feature_trial: no records files in {folder}", file=sys.stderr)
            return 2
        out = args.out_dir / f"{k}"
        out.mkdir(parents=True, exist_ok=True)
        for path in paths:
            try:
                relabel_file(path, out / path.name, columns)
            except (ReplayError, GinsimError) as err:
                print(f"feature_trial: {path}: {err}", file=sys.stderr)
                return 2
            written.append(out / path.name)
    for line in compare(split(written, args.head, args.holdout), args.head, args.hidden, args.steps):
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
