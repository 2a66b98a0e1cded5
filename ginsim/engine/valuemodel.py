"""A small learned evaluation: named heads, each a linear map or a one-hidden-layer
network over a row of features, scored in NumPy (no deep-learning library).

A strategy builds a row of numbers per option it weighs (a discard, the upcard, a knock)
and asks a head what the option is worth; ``score`` does that for all the options of a
decision in one matrix product. The heads and the feature names they expect are stored in
one ``.npz`` file (``save_heads`` / ``load_heads``), so a trained model ships as data
beside the strategy that reads it, and the file says which features it was trained on: a
strategy whose rows no longer match refuses to load it instead of playing nonsense.

``reference_score`` is the same arithmetic written out element by element, slowly: the
tests check the fast path against it.

``CardValue`` is the other kind of evaluation a model file may hold: a network over card sets
(52 zeros and ones each) and a few named numbers, two ReLU layers deep. ``afterstates``
values every discard of one decision at the cost of one small product (the options share
all their inputs but the kept hand, the card let go and their own numbers);
``reference_card_value`` is its slow yardstick.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ginsim.errors import GinsimError


class ModelFileError(GinsimError):
    """A model file that cannot be read or does not fit the features asked for."""


class Head:
    """One head: ``value = w . x + b`` (linear), or ``w2 . relu(W1 x + b1) + b2`` (a hidden
    layer of ``W1``'s rows). Rows are scaled first: ``x = (row - mean) / scale``."""

    __slots__ = ("names", "mean", "scale", "w1", "b1", "w2", "b2", "_raw")

    def __init__(
        self,
        names: Sequence[str],
        w2: np.ndarray,
        b2: float,
        mean: np.ndarray | None = None,
        scale: np.ndarray | None = None,
        w1: np.ndarray | None = None,
        b1: np.ndarray | None = None,
    ) -> None:
        n = len(names)
        self.names = tuple(names)
        self.mean = np.zeros(n) if mean is None else np.asarray(mean, dtype=np.float64)
        self.scale = np.ones(n) if scale is None else np.asarray(scale, dtype=np.float64)
        self.w1 = None if w1 is None else np.asarray(w1, dtype=np.float64)
        self.b1 = None if b1 is None else np.asarray(b1, dtype=np.float64)
        self.w2 = np.asarray(w2, dtype=np.float64)
        self.b2 = float(b2)
        inner = n if self.w1 is None else self.w1.shape[0]
        if self.mean.shape != (n,) or self.scale.shape != (n,) or self.w2.shape != (inner,):
            raise ModelFileError(f"a head over {n} features has weights of the wrong shape")
        if self.w1 is not None and (self.w1.shape != (inner, n) or self.b1 is None or self.b1.shape != (inner,)):
            raise ModelFileError(f"a head over {n} features has a hidden layer of the wrong shape")
        # a linear head folds its scaling into the weights: one product per decision
        self._raw = None
        if self.w1 is None:
            w = self.w2 / self.scale
            self._raw = (w, self.b2 - float(self.mean @ w))

    def widened(self, names: Sequence[str]) -> Head:
        """This head over ``names``: its own features first, then new ones it gives no weight
        (so it scores every row as before, whatever the new features hold)."""
        if tuple(names[: len(self.names)]) != self.names:
            raise ModelFileError("a head can only be widened by features after its own")
        extra = len(names) - len(self.names)
        mean = np.concatenate([self.mean, np.zeros(extra)])
        scale = np.concatenate([self.scale, np.ones(extra)])
        if self.w1 is None:
            return Head(names, np.concatenate([self.w2, np.zeros(extra)]), self.b2, mean, scale)
        w1 = np.concatenate([self.w1, np.zeros((self.w1.shape[0], extra))], axis=1)
        return Head(names, self.w2, self.b2, mean, scale, w1, self.b1)

    def weighs(self, names: Sequence[str]) -> bool:
        """Whether any of the features ``names`` can change this head's score."""
        idx = [self.names.index(n) for n in names if n in self.names]
        if not idx:
            return False
        w = self.w2 if self.w1 is None else self.w1.T
        return bool(np.any(w[idx] != 0.0))

    def score(self, rows: np.ndarray) -> np.ndarray:
        """The value of each row of ``rows`` (shape (options, features))."""
        if self._raw is not None:
            return rows @ self._raw[0] + self._raw[1]
        x = (rows - self.mean) / self.scale
        if self.w1 is not None:
            x = np.maximum(x @ self.w1.T + self.b1, 0.0)
        return x @ self.w2 + self.b2


def reference_score(head: Head, row: Sequence[float]) -> float:
    """``head.score`` of one row, element by element in plain Python (the tests' yardstick)."""
    x = [(float(v) - float(m)) / float(s) for v, m, s in zip(row, head.mean, head.scale, strict=True)]
    if head.w1 is not None and head.b1 is not None:
        hidden = []
        for j in range(head.w1.shape[0]):
            z = float(head.b1[j]) + math.fsum(float(head.w1[j, i]) * x[i] for i in range(len(x)))
            hidden.append(z if z > 0.0 else 0.0)
        x = hidden
    return float(head.b2) + math.fsum(float(w) * v for w, v in zip(head.w2, x, strict=True))


class CardValue:
    """A value over ``masks`` card sets and the numbers ``names``: ``w3 . relu(W2 relu(W1 x +
    b1) + b2) + b3``, where ``x`` is each card set's 52 bits (card ``c`` of set ``k`` is input
    ``52 k + c``) followed by the numbers scaled as ``(number - mean) / scale``."""

    __slots__ = ("names", "masks", "mean", "scale", "w1", "b1", "w2", "b2", "w3", "b3", "_swap", "_wn", "_bn")

    def __init__(
        self,
        names: Sequence[str],
        masks: int,
        mean: np.ndarray,
        scale: np.ndarray,
        w1: np.ndarray,
        b1: np.ndarray,
        w2: np.ndarray,
        b2: np.ndarray,
        w3: np.ndarray,
        b3: float,
    ) -> None:
        # float64 unless the weights are float32 (a network trained in float32 plays in it)
        dt = np.result_type(np.asarray(w1).dtype, np.float32)
        self.names = tuple(names)
        self.masks = int(masks)
        self.mean, self.scale = np.asarray(mean, dtype=dt), np.asarray(scale, dtype=dt)
        self.w1, self.b1 = np.asarray(w1, dtype=dt), np.asarray(b1, dtype=dt)
        self.w2, self.b2 = np.asarray(w2, dtype=dt), np.asarray(b2, dtype=dt)
        self.w3, self.b3 = np.asarray(w3, dtype=dt), dt.type(b3)
        n, width = len(self.names), self.masks * 52 + len(self.names)
        h1, h2 = self.b1.shape[0], self.b2.shape[0]
        shapes = (self.mean.shape, self.scale.shape, self.w1.shape, self.b1.shape, self.w2.shape, self.w3.shape)
        if self.masks < 2 or shapes != ((n,), (n,), (width, h1), (h1,), (h1, h2), (h2,)):
            raise ModelFileError(f"a card value of {self.masks} card sets and {n} numbers: weights of the wrong shape")
        if np.any(self.scale == 0.0):
            raise ModelFileError("a card value has a number scaled by zero")
        # for ``afterstates``: a card moved from the first set to the second, and the numbers'
        # scaling folded into their weights
        numbers = self.w1[52 * self.masks :]
        self._swap = self.w1[52:104] - self.w1[:52]
        self._wn = numbers / self.scale[:, None]
        self._bn = self.b1 - (self.mean / self.scale) @ numbers

    def scaled(self, factor: float) -> CardValue:
        """This value times ``factor`` (its last layer scaled, in its own precision)."""
        return CardValue(
            self.names, self.masks, self.mean, self.scale, self.w1, self.b1, self.w2, self.b2,
            self.w3 * factor, self.b3 * factor,
        )  # fmt: skip

    def values(self, masks: np.ndarray, nums: np.ndarray) -> np.ndarray:
        """The value of each row: ``masks`` (rows, ``self.masks``) card sets as ints, ``nums``
        (rows, numbers)."""
        masks = np.asarray(masks, dtype=np.int64)
        bits = ((masks[:, :, None] >> np.arange(52, dtype=np.int64)) & 1).reshape(len(masks), -1)
        x = np.concatenate([bits.astype(np.float64), (np.asarray(nums) - self.mean) / self.scale], axis=1)
        return self._top(np.maximum(x @ self.w1 + self.b1, 0.0))

    def afterstates(self, hand: int, cards: Sequence[int], shared: Sequence[int], nums: np.ndarray) -> np.ndarray:
        """The value of letting each of ``cards`` go from ``hand``: card sets ``hand`` without
        the card, the card alone, then ``shared`` (the same for every option), and each
        option's row of ``nums``. The first layer adds the rows of the cards held and shared
        once, then each option changes two rows and its numbers: one small product."""
        if len(shared) != self.masks - 2:
            raise ValueError(f"a card value over {self.masks} card sets takes {self.masks - 2} shared ones")
        idx: list[int] = []
        for offset, m in zip(range(0, 52 * self.masks, 52), (hand, 0, *shared), strict=True):
            while m:
                low = m & -m
                m ^= low
                idx.append(offset + low.bit_length() - 1)
        base = self._bn + self.w1[idx].sum(axis=0)
        pre = base + self._swap[np.asarray(cards, dtype=np.int64)] + np.asarray(nums, dtype=self.w1.dtype) @ self._wn
        return self._top(np.maximum(pre, 0.0))

    def _top(self, a1: np.ndarray) -> np.ndarray:
        return np.maximum(a1 @ self.w2 + self.b2, 0.0) @ self.w3 + self.b3

    def arrays(self, key: str) -> dict[str, np.ndarray]:
        """This value's arrays under ``key`` in a model file."""
        out = {f"{key}.names": np.array(self.names), f"{key}.masks": np.asarray(float(self.masks))}
        for part in _CARD_PARTS:
            out[f"{key}.{part}"] = np.asarray(getattr(self, part))  # float32 stays float32
        return out


def reference_card_value(value: CardValue, masks: Sequence[int], nums: Sequence[float]) -> float:
    """``value``'s value of one row, element by element in plain Python (the tests' yardstick)."""
    x = [float(m >> c & 1) for m in masks for c in range(52)]
    x += [(float(v) - float(mu)) / float(s) for v, mu, s in zip(nums, value.mean, value.scale, strict=True)]
    layer = x
    for w, b in ((value.w1, value.b1), (value.w2, value.b2)):
        layer = [
            max(0.0, float(b[j]) + math.fsum(float(w[i, j]) * layer[i] for i in range(len(layer))))
            for j in range(len(b))
        ]
    return float(value.b3) + math.fsum(float(w) * v for w, v in zip(value.w3, layer, strict=True))


_PARTS = ("mean", "scale", "w1", "b1", "w2", "b2")
_CARD_PARTS = ("mean", "scale", "w1", "b1", "w2", "b2", "w3", "b3")


def save_heads(
    path: str | Path,
    heads: Mapping[str, Head],
    meta: Mapping[str, float] | None = None,
    cards: Mapping[str, CardValue] | None = None,
) -> None:
    """Write ``heads`` (and a few named numbers, ``meta``, and card values, ``cards``) to one
    ``.npz`` file."""
    arrays: dict[str, np.ndarray] = {}
    for key, value in (cards or {}).items():
        arrays.update(value.arrays(key))
    for key, head in heads.items():
        arrays[f"{key}.names"] = np.array(head.names)
        for part in _PARTS:
            value = getattr(head, part)
            if value is not None:
                arrays[f"{key}.{part}"] = np.asarray(value, dtype=np.float64)
    for key, number in (meta or {}).items():
        arrays[f"meta.{key}"] = np.asarray(float(number))
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)


def load_heads(
    path: str | Path, expected: Mapping[str, Sequence[str]], required: bool = True, widen: bool = False
) -> tuple[dict[str, Head], dict[str, float]]:
    """The heads of the model file ``path`` and its named numbers. ``expected`` names each
    head that must be there and the features, in order, its rows will hold; with
    ``required`` false, a head the file does not have at all is left out; with ``widen``, a
    head trained on the first of those features only is read as giving the others no weight
    (``Head.widened``: a file older than a strategy's newest features plays as it did)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            stored = {key: data[key] for key in data.files}
    except (OSError, ValueError) as e:
        raise ModelFileError(f"model file {path}: cannot be read ({e})") from None
    heads = {}
    for key, names in expected.items():
        found = stored.get(f"{key}.names")
        if found is None and not required:
            continue
        own = () if found is None else tuple(str(n) for n in found)
        prefix = widen and 0 < len(own) < len(names) and own == tuple(names[: len(own)])
        if found is None or (own != tuple(names) and not prefix):
            raise ModelFileError(f"model file {path}: head {key!r} was not trained on these features")
        parts = {p: stored.get(f"{key}.{p}") for p in _PARTS}
        if parts["w2"] is None or parts["b2"] is None:
            raise ModelFileError(f"model file {path}: head {key!r} has no weights")
        head = Head(own, parts["w2"], float(parts["b2"]), parts["mean"], parts["scale"], parts["w1"], parts["b1"])
        heads[key] = head.widened(names) if prefix else head
    meta = {key[5:]: float(value) for key, value in stored.items() if key.startswith("meta.")}
    return heads, meta


def load_card_value(path: str | Path, key: str, names: Sequence[str]) -> CardValue | None:
    """The card value under ``key`` in the model file ``path``, over the numbers ``names``
    in that order; None when the file has none there."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if f"{key}.names" not in data.files:
                return None
            stored = {k: data[k] for k in data.files if k.startswith(key + ".")}
    except (OSError, ValueError) as e:
        raise ModelFileError(f"model file {path}: cannot be read ({e})") from None
    if tuple(str(n) for n in stored[f"{key}.names"]) != tuple(names):
        raise ModelFileError(f"model file {path}: card value {key!r} was not trained on these numbers")
    parts = [stored.get(f"{key}.{p}") for p in ("masks", *_CARD_PARTS)]
    if any(part is None for part in parts):
        raise ModelFileError(f"model file {path}: card value {key!r} lacks some of its weights")
    masks, mean, scale, w1, b1, w2, b2, w3, b3 = parts
    return CardValue(names, int(masks), mean, scale, w1, b1, w2, b2, w3, float(b3))  # type: ignore[arg-type]
