"""What a hand's points are worth in games: the chance to win a game to ``target`` from each
score, and a hand's points turned into the change of that chance (the fifteenth attempt in
docs/notes/2026-12-learned.md).

``learned``'s card value is fitted on the points a hand scored, but a game to 100 is won by
reaching 100 first, and a point is not worth the same at every score: at 20 to 95 the hand
decides the game whatever its points, at 0 to 0 every point counts alike. ``table`` gives
``E[a, b]``, the chance that the seat with ``a`` points wins against ``b`` if every hand from
there scores as the hands of ``points`` did (independent hands, a hand with no points
changing nothing), and ``targets`` the change of that chance that each sample's hand made,
scaled to the spread of the points, so that a network fitted on them values a discard by the
games it wins rather than by its points (``card_value.py fit --target equity``).
"""

from __future__ import annotations

import numpy as np

from ginsim.engine.rules import Rules

CAP = 200
"""Points a hand is counted with at most (the table's reach past the target)."""


def hand_points(nums: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The points of each hand among collected samples: one value for each run of
    consecutive samples with the same points, scores and deal (a hand's discards are noted
    one after another), so that long hands count once like short ones."""
    key = np.column_stack([points, nums[:, 4], nums[:, 5], nums[:, 6]])
    new = np.ones(len(points), dtype=bool)
    new[1:] = np.any(key[1:] != key[:-1], axis=1)
    return points[new]


def table(points: np.ndarray, target: int) -> np.ndarray:
    """``E[a, b]`` for scores below ``target``: the chance to reach ``target`` first from
    ``a`` to ``b`` when every hand scores as a draw from ``points`` (the seat's side)."""
    won = np.clip(np.rint(points).astype(np.int64), -CAP, CAP)
    counts = np.bincount(won + CAP, minlength=2 * CAP + 1).astype(float)
    counts[CAP] = 0.0  # a hand with no points leaves the scores as they were
    if counts.sum() == 0:
        raise ValueError("no hand scored any points")
    p = counts / counts.sum()
    gains = np.nonzero(p[CAP + 1 :])[0] + 1
    losses = np.nonzero(p[:CAP][::-1])[0] + 1
    pg, pl = p[CAP + gains], p[CAP - losses]
    e = np.zeros((target + CAP + 1, target + CAP + 1))
    e[target:, :] = 1.0  # the seat has reached the target (the other had not: see the loop)
    e[:target, target:] = 0.0
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            e[a, b] = pg @ e[a + gains, b] + pl @ e[a, b + losses]
    return e[:target, :target]


def targets(nums: np.ndarray, points: np.ndarray, rules: Rules, scale: float | None = None) -> np.ndarray:
    """Each sample's hand as the change of the chance to win the game it made (``table`` of
    the samples' own hands), times ``scale`` (None: the factor that gives the changes the
    points' spread). ``nums``' fifth and sixth columns are the scores over the target."""
    target = rules.target_score
    e = table(hand_points(nums, points), target)
    full = np.ones((target + CAP + 1, target + CAP + 1))
    full[:, target:] = 0.0
    full[:target, :target] = e
    mine = np.clip(np.rint(nums[:, 4] * target).astype(np.int64), 0, target - 1)
    theirs = np.clip(np.rint(nums[:, 5] * target).astype(np.int64), 0, target - 1)
    won = np.clip(np.rint(points).astype(np.int64), -CAP, CAP)
    after = full[mine + np.maximum(won, 0), theirs + np.maximum(-won, 0)]
    change = after - e[mine, theirs]
    if scale is None:
        spread = float(change.std())
        scale = float(points.std()) / spread if spread > 0 else 1.0
    return (change * scale).astype(np.float32)
