"""The mean of several card value networks, written as one wider network (the notes'
seventeenth attempt: the EAAI rules' TD networks of successive rounds together).

Each network's hidden units sit side by side in the first layer, its second layer is a
block of a block-diagonal second layer, and its output weights are divided by the number of
networks, so the merged network's value of any row is the mean of theirs, exactly up to
float32 rounding. The networks may differ in width; their numbers' scaling is folded into
their first layers so the merged one scales by the first network's. It plays as any card
value does (``card_value.py ship --value OUT``) and costs as much as the networks together.

    python experiments/training/merge_values.py --out mean.npz vTDe.npz vTDeF.npz vTDeG.npz
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from card_value import ValueNet, load_value, save_value


def merged(nets: Sequence[ValueNet]) -> ValueNet:
    """One network whose value of every row is the mean of ``nets``' values."""
    if not nets:
        raise ValueError("no network to merge")
    mean0 = nets[0].p["mean"].astype(np.float64)
    scale0 = nets[0].p["scale"].astype(np.float64)
    numbers = len(mean0)
    w1s, b1s = [], []
    for net in nets:
        p = {k: v.astype(np.float64) for k, v in net.p.items()}
        rows = p["w1"][-numbers:]  # the numbers' rows, as this network scales them
        # (n - mean) / scale written in the first network's scaling u = (n - mean0) / scale0
        b1s.append(p["b1"] + ((mean0 - p["mean"]) / p["scale"]) @ rows)
        w1s.append(np.concatenate([p["w1"][:-numbers], rows * (scale0 / p["scale"])[:, None]]))
    h1 = [net.p["b1"].shape[0] for net in nets]
    h2 = [net.p["b2"].shape[0] for net in nets]
    w2 = np.zeros((sum(h1), sum(h2)))
    r = c = 0
    for net, a, b in zip(nets, h1, h2, strict=True):
        w2[r : r + a, c : c + b] = net.p["w2"]
        r, c = r + a, c + b
    k = len(nets)
    params = {
        "mean": mean0,
        "scale": scale0,
        "w1": np.concatenate(w1s, axis=1),
        "b1": np.concatenate(b1s),
        "w2": w2,
        "b2": np.concatenate([net.p["b2"] for net in nets]),
        "w3": np.concatenate([net.p["w3"] for net in nets]) / k,
        "b3": np.array([sum(float(net.p["b3"][0]) for net in nets) / k]),
    }
    return ValueNet({key: value.astype(np.float32) for key, value in params.items()})


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; an unreadable network is one line on stderr and status 2."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("values", nargs="+", type=Path, help="card value networks (card_value.py fit --out)")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    try:
        nets = [load_value(path) for path in a.values]
        save_value(a.out, merged(nets), {"merged": [str(path) for path in a.values]})
    except (ValueError, OSError) as e:
        print(f"merge_values.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
