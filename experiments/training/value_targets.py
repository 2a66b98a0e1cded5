"""What a card value is fitted on besides the points each hand scored (``card_value.py fit
--target``; the fifteenth attempt in docs/notes/2026-12-learned.md): the change a hand made to
the chance to win the game (``equity``), or the points bootstrapped from a network's value of
the seat's next discard in the same hand (``bootstrapped``).

**Equity.** What a hand's points are worth in games: the chance to win a game to ``target``
from each score, and a hand's points turned into the change of that chance.

``learned``'s card value is fitted on the points a hand scored, but a game to 100 is won by
reaching 100 first, and a point is not worth the same at every score: at 20 to 95 the hand
decides the game whatever its points, at 0 to 0 every point counts alike. ``table`` gives
``E[a, b]``, the chance that the seat with ``a`` points wins against ``b`` if every hand from
there scores as the hands of ``points`` did (independent hands, a hand with no points
changing nothing), and ``equity`` the change of that chance that each sample's hand made,
scaled to the spread of the points, so that a network fitted on them values a discard by the
games it wins rather than by its points (``card_value.py fit --target equity``).

**Bootstrapped.** A hand's points spread about five times as far as a card value explains: the
draws still to come. The value of the seat's next discard in the same hand, by a network
already fitted, has most of that spread averaged away, and on average it is the hand's points
(it is fitted on them). ``bootstrapped`` gives TD(lambda) targets: each discard's target is
``(1 - lam)`` times the network's value of the next discard's afterstate plus ``lam`` times
that discard's own target, the last discard of a hand its points (``lam=1``: the points).
"""

from __future__ import annotations

import numpy as np
from ginsim.strategies.learned import CARD_NUMBERS

from ginsim.engine.rules import Rules

MINE, THEIRS, DEALER = (CARD_NUMBERS.index(k) for k in ("own_score", "opp_score", "dealer"))
"""The columns of a sample's numbers that hold the scores over the target and the deal."""
CAP = 200
"""Points a hand is counted with at most (the table's reach past the target)."""


def hand_points(nums: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The points of each hand among collected samples: one value for each run of
    consecutive samples with the same points, scores and deal (a hand's discards are noted
    one after another), so that long hands count once like short ones."""
    return points[hands(nums, points)]


def _chances(points: np.ndarray, target: int) -> np.ndarray:
    """``table`` with its reach past the target: rows from ``target`` on are 1 (the seat
    reached it), columns from ``target`` on 0 (the opponent did), up to ``CAP`` past it."""
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
    e[target:, :] = 1.0  # the seat has reached the target (the other had not: a hand scores for one side)
    e[:target, target:] = 0.0
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            e[a, b] = pg @ e[a + gains, b] + pl @ e[a, b + losses]
    return e


def table(points: np.ndarray, target: int) -> np.ndarray:
    """``E[a, b]`` for scores below ``target``: the chance to reach ``target`` first from
    ``a`` to ``b`` when every hand scores as a draw from ``points`` (the seat's side)."""
    return _chances(points, target)[:target, :target]


def equity(nums: np.ndarray, points: np.ndarray, rules: Rules, scale: float | None = None) -> np.ndarray:
    """Each sample's hand as the change of the chance to win the game it made (``table`` of
    the samples' own hands), times ``scale`` (None: the factor that gives the changes the
    points' spread). ``nums``' columns ``MINE`` and ``THEIRS`` are the scores over the target."""
    target = rules.target_score
    e = _chances(hand_points(nums, points), target)
    mine = np.clip(np.rint(nums[:, MINE] * target).astype(np.int64), 0, target - 1)
    theirs = np.clip(np.rint(nums[:, THEIRS] * target).astype(np.int64), 0, target - 1)
    won = np.clip(np.rint(points).astype(np.int64), -CAP, CAP)
    after = e[mine + np.maximum(won, 0), theirs + np.maximum(-won, 0)]
    change = after - e[mine, theirs]
    if scale is None:
        spread = float(change.std())
        scale = float(points.std()) / spread if spread > 0 else 1.0
    return (change * scale).astype(np.float32)


def hands(nums: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Where each sample's hand starts: True at the first of each run of consecutive samples
    with the same points, scores and deal (``hand_points``)."""
    key = np.column_stack([points, nums[:, MINE], nums[:, THEIRS], nums[:, DEALER]])
    new = np.ones(len(points), dtype=bool)
    new[1:] = np.any(key[1:] != key[:-1], axis=1)
    return new


def bootstrapped(values: np.ndarray, nums: np.ndarray, points: np.ndarray, lam: float) -> np.ndarray:
    """TD(``lam``) targets of the samples, ``values`` a network's values of them: a hand's last
    sample its points; each earlier one ``(1 - lam) * values[next] + lam * target[next]``."""
    if not 0.0 <= lam <= 1.0:
        raise ValueError(f"--lam must be in [0, 1], not {lam}")
    starts = hands(nums, points)
    out = points.astype(np.float64).copy()
    n = len(points)
    run = np.cumsum(starts) - 1  # each sample's hand, numbered
    ends = np.append(np.nonzero(starts)[0][1:], n)  # one past each hand's last sample
    back = ends[run] - 1 - np.arange(n)  # samples after this one in its hand
    for k in range(1, int(back.max(initial=0)) + 1):
        i = np.nonzero(back == k)[0]
        out[i] = (1.0 - lam) * values[i + 1] + lam * out[i + 1]
    return out.astype(np.float32)
