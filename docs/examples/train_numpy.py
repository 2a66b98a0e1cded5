"""Train a Gin Rummy policy with NumPy alone, on ginsim's vectorised environment.

A linear softmax policy over a few features of each legal action, read from the
observation alone (the hand and upcard planes, the action's kind): how much a discard
costs in deadwood points, whether the card lies in a meld or half of one, whether the
upcard would join one. It starts as a uniformly random player (every weight zero) and
learns by REINFORCE with a running baseline, one update per finished hand, against
``random``. docs/rl.md shows the commands and the results.

    python docs/examples/train_numpy.py --seconds 180 --out numpy_policy.npy
    GINSIM_POLICY=numpy_policy.npy ginsim match rlpolicy:docs/examples/train_numpy.py:act random --hands 2000
    GINSIM_POLICY=numpy_policy.npy ginsim match rlpolicy:docs/examples/train_numpy.py:act simple --hands 2000

``--hands N`` trains until N hands have ended instead: the same weights on any machine.
``act`` is the trained policy as a ginsim strategy (``rlpolicy:FILE.py:act``): it reads
its weights from the file named by ``GINSIM_POLICY`` (default ``numpy_policy.npy``).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

N_ACTIONS = 108
KNOCK_BASE, TAKE, DRAW, PASS, BIG_GIN = 52, 104, 105, 106, 107
VALUES = np.minimum(np.arange(13) + 1, 10).astype(np.float32)  # R02: ace 1 .. king 10
FEATURES = (
    "discard_value",  # the card's points / 10 (discards and knocks)
    "discard_in_meld",  # the card lies in a group or run of the hand
    "discard_half_meld",  # a pair of its rank, or a suit neighbour within two
    "knock",  # the action knocks
    "take_melds",  # take: the upcard joins a group or run of the hand
    "take_half",  # take: the upcard makes a pair or a suit neighbour within two
    "take",  # the action takes the upcard
    "draw_or_pass",  # the action draws from the stock or passes
)
N_FEATURES = len(FEATURES)


def _meld_marks(h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For hands ``h`` (n, 4, 13) of 0/1: which cards lie in a meld (a group of three or
    more, or a run of three), and which in half of one (a pair, or a suit neighbour at
    one or two ranks)."""
    ranks = h.sum(axis=1, keepdims=True)
    in_group = (ranks >= 3) & (h > 0)
    run = h[:, :, :-2] * h[:, :, 1:-1] * h[:, :, 2:]
    covered = np.zeros_like(h)
    covered[:, :, :-2] += run
    covered[:, :, 1:-1] += run
    covered[:, :, 2:] += run
    in_meld = in_group | (covered > 0)
    near = np.zeros_like(h)
    for d in (1, 2):
        near[:, :, d:] += h[:, :, :-d]
        near[:, :, :-d] += h[:, :, d:]
    half = ((ranks >= 2) | (near > 0)) & (h > 0)
    return in_meld.astype(np.float32), half.astype(np.float32)


def features(obs: np.ndarray) -> np.ndarray:
    """Per-action features (n, N_ACTIONS, N_FEATURES) of a batch of observations."""
    n = obs.shape[0]
    hand = obs[:, :52].reshape(n, 4, 13)
    up = obs[:, 52:104].reshape(n, 4, 13)
    f = np.zeros((n, N_ACTIONS, N_FEATURES), dtype=np.float32)
    in_meld, half = _meld_marks(hand)
    value = np.broadcast_to(VALUES / 10.0, (n, 4, 13)).reshape(n, 52)
    for base in (0, KNOCK_BASE):
        f[:, base : base + 52, 0] = value
        f[:, base : base + 52, 1] = in_meld.reshape(n, 52)
        f[:, base : base + 52, 2] = half.reshape(n, 52)
    f[:, KNOCK_BASE : KNOCK_BASE + 52, 3] = 1.0
    with_up = np.clip(hand + up, 0, 1)
    up_meld, up_half = _meld_marks(with_up)
    f[:, TAKE, 4] = (up_meld * up).sum(axis=(1, 2))
    f[:, TAKE, 5] = (up_half * up).sum(axis=(1, 2))
    f[:, TAKE, 6] = 1.0
    f[:, DRAW, 7] = 1.0
    f[:, PASS, 7] = 1.0
    f[:, BIG_GIN, 3] = 1.0
    return f


def policy(w: np.ndarray, feats: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Action probabilities (n, N_ACTIONS) of the linear softmax over the legal actions."""
    logits = feats @ w
    logits = np.where(mask > 0, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def train(
    seconds: float | None = 180.0, num_envs: int = 256, seed: int = 0, lr: float = 0.05, hands: int | None = None
) -> tuple[np.ndarray, dict[str, float]]:
    """REINFORCE against ``random`` for ``seconds``, or until ``hands`` hands have ended
    (then the weights depend on ``seed`` alone, not on the machine's speed); the weights and
    a summary."""
    if seconds is None and hands is None:
        raise ValueError("train: give seconds or hands (or both), not neither")
    from ginsim.rl.vector import GinRummyVectorEnv

    env = GinRummyVectorEnv(num_envs, opponent="random", reward="scaled")
    rng = np.random.default_rng(seed)
    w = np.zeros(N_FEATURES, dtype=np.float64)
    grads = np.zeros((num_envs, N_FEATURES))  # each table's sum of grad log pi this hand
    baseline, ended, recent = 0.0, 0, []
    obs, _ = env.reset(seed=seed)
    start = time.perf_counter()
    while (hands is None or ended < hands) and (seconds is None or time.perf_counter() - start < seconds):
        feats = features(obs["observation"])
        p = policy(w, feats, obs["action_mask"])
        u = rng.random((num_envs, 1))
        actions = (p.cumsum(axis=1) < u).sum(axis=1).clip(0, N_ACTIONS - 1)
        chosen = feats[np.arange(num_envs), actions]
        grads += chosen - np.einsum("na,naf->nf", p, feats)
        obs, rewards, terms, truncs, _ = env.step(actions)
        done = np.flatnonzero(terms | truncs)
        if len(done):
            r = rewards[done]
            w += lr * ((r - baseline)[:, None] * grads[done]).mean(axis=0)
            baseline += 0.01 * (r.mean() - baseline)
            grads[done] = 0.0
            ended += len(done)
            recent.extend((r > 0).tolist())
            recent = recent[-5000:]
    return w, {"hands": ended, "win_share_last_5000": float(np.mean(recent)) if recent else 0.0}


_WEIGHTS: dict[str, np.ndarray] = {}


def act(observation: np.ndarray, mask: np.ndarray) -> int:
    """The trained policy as a ginsim strategy (``rlpolicy:train_numpy.py:act``): the most
    likely legal action under the weights in ``GINSIM_POLICY`` (default numpy_policy.npy)."""
    path = os.environ.get("GINSIM_POLICY", "numpy_policy.npy")
    w = _WEIGHTS.get(path)
    if w is None:
        w = _WEIGHTS[path] = np.load(path)
    p = policy(w, features(observation[None, :]), mask[None, :])
    return int(p[0].argmax())


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=None, help="training time (default 180 unless --hands)")
    parser.add_argument("--hands", type=int, default=None, help="train until this many hands have ended (reproducible)")
    parser.add_argument("--envs", type=int, default=256, help="tables stepped together (default 256)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("numpy_policy.npy"), help="where the weights go")
    args = parser.parse_args(argv)
    if args.hands is not None and args.hands < 1:
        parser.error(f"--hands must be at least 1, not {args.hands}")
    seconds = 180.0 if args.seconds is None and args.hands is None else args.seconds
    w, summary = train(seconds, args.envs, args.seed, hands=args.hands)
    np.save(args.out, w)
    print(f"{summary['hands']:,} hands; hands won of the last 5,000: {summary['win_share_last_5000']:.1%}")
    print("weights:", ", ".join(f"{name} {v:+.2f}" for name, v in zip(FEATURES, w, strict=True)))
    print(f"wrote {args.out}")
    return summary


if __name__ == "__main__":
    main()
