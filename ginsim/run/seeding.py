"""Every deck and every strategy's random stream, derived from one master seed.

Deal ``i`` of a run is the same deck whatever the process, the chunk size or the
backend, and the same for every pairing of the run: strategies compared in one run meet
the same deals (common random numbers), so a difference between two pairings is not
deal luck. A deck is the order of 52 splitmix64 keys of the deal's seed; numpy computes
many at once, and ``deck_for`` computes one in plain Python with the same result.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

import numpy as np

from ginsim.engine.rng import splitmix64

_M64 = 0xFFFFFFFFFFFFFFFF
_GOLDEN = 0x9E3779B97F4A7C15
_HANDS_DOMAIN = 0x68616E6473  # "hands"
_GAMES_DOMAIN = 0x67616D6573  # "games"


def text_key(*parts: object) -> int:
    """A 64-bit key of some labels (a pairing's strategy specs, say), stable everywhere."""
    digest = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def deal_seed(master: int, index: int) -> int:
    """The seed of deal ``index`` of a run played in single hands."""
    return splitmix64((splitmix64(master ^ _HANDS_DOMAIN) + index * _GOLDEN) & _M64)


def game_deal_seed(master: int, game: int, hand: int) -> int:
    """The seed of the ``hand``-th deal of game ``game`` of a run played in games."""
    game_key = splitmix64((splitmix64(master ^ _GAMES_DOMAIN) + game * _GOLDEN) & _M64)
    return splitmix64((game_key + hand * _GOLDEN) & _M64)


_STREAM_DOMAIN = b"ginsim strategy stream"
_SECRET_DOMAIN = b"ginsim secret deal"


def _stream_key(pairing_key: int) -> bytes:
    return _STREAM_DOMAIN + (pairing_key & _M64).to_bytes(8, "little")


def strategy_seed(deal: int, pairing_key: int, copy: int, seat: int) -> int:
    """The seed of one seat's random generator for one play of a deal: BLAKE2b keyed with
    the pairing's key over the deal seed, the copy and the seat, so that the seed (and so
    anything the generator draws) determines neither the deal seed nor the deck."""
    msg = (deal & _M64).to_bytes(8, "little") + bytes((copy & 255, seat & 255))
    digest = hashlib.blake2b(msg, digest_size=8, key=_stream_key(pairing_key)).digest()
    return int.from_bytes(digest, "little")


def mix_secret(deal: int, secret: bytes) -> int:
    """A deal seed mixed with a run's secret (tournament mode): the seed its deck and its
    strategy streams are then derived from. Without the secret it cannot be computed."""
    msg = _SECRET_DOMAIN + (deal & _M64).to_bytes(8, "little")
    return int.from_bytes(hashlib.blake2b(msg, digest_size=8, key=secret).digest(), "little")


def pairing_secret(secret: bytes, pairing_key: int) -> bytes:
    """The secret one pairing's decks mix in when each pairing of a tournament is dealt
    decks of its own: a bot that met a deal in one pairing never meets it in another."""
    msg = _SECRET_DOMAIN + b"pairing" + (pairing_key & _M64).to_bytes(8, "little")
    return hashlib.blake2b(msg, digest_size=32, key=secret).digest()


def mix_secrets(deals: np.ndarray, secret: bytes) -> np.ndarray:
    """``mix_secret`` for many deal seeds at once (uint64 array)."""
    seeds = np.asarray(deals, dtype=np.uint64).tolist()
    return np.asarray([mix_secret(d, secret) for d in seeds], dtype=np.uint64)


def deck_for(seed: int) -> list[int]:
    """The deck (card ints, top first) of one deal seed."""
    keys = [splitmix64((seed + (j + 1) * _GOLDEN) & _M64) for j in range(52)]
    return sorted(range(52), key=keys.__getitem__)


def _splitmix64_np(x: np.ndarray) -> np.ndarray:
    z = x + np.uint64(_GOLDEN)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def decks_for(seeds: np.ndarray | list[int]) -> np.ndarray:
    """Decks for many deal seeds at once: an (n, 52) array of card ints, top first."""
    s = np.asarray(seeds, dtype=np.uint64).reshape(-1, 1)
    offsets = (np.arange(1, 53, dtype=np.uint64) * np.uint64(_GOLDEN)).reshape(1, 52)
    with np.errstate(over="ignore"):
        keys = _splitmix64_np(s + offsets)
    # 64-bit keys: a tie (about 1 deck in 10**16) is all that could tell sort kinds apart
    return np.argsort(keys, axis=1).astype(np.int8)


_CARD_ORDER = np.arange(52, dtype=np.int8)
_FULL_MASK = (1 << 52) - 1


def check_decks(decks: np.ndarray) -> np.ndarray:
    """``decks`` itself, after checking that every row holds each card 0..51 once (the
    engine then skips its own per-hand check). ValueError otherwise."""
    if decks.ndim != 2 or decks.shape[1] != 52 or not _all_permutations(decks):
        raise ValueError("a deck must hold each of the 52 cards (ints 0..51) exactly once")
    return decks


def _all_permutations(decks: np.ndarray) -> bool:
    """Whether each row of an (n, 52) array holds 0..51 once. Integer rows: 52 values in
    0..51 whose bits OR to all 52 bits are each card once (no sort needed)."""
    if decks.dtype.kind not in "iu":
        return bool((np.sort(decks, axis=1) == _CARD_ORDER).all())
    if not decks.size:
        return True
    if decks.min() < 0 or decks.max() > 51:
        return False
    bits = np.left_shift(np.int64(1), decks.astype(np.int64))
    return bool((np.bitwise_or.reduce(bits, axis=1) == _FULL_MASK).all())


def deal_seeds(master: int, start: int, stop: int) -> np.ndarray:
    """Seeds of deals ``start..stop-1`` of a run played in single hands (uint64 array;
    element i equals ``deal_seed(master, start + i)``)."""
    base = np.uint64(splitmix64(master ^ _HANDS_DOMAIN))
    idx = np.arange(start, stop, dtype=np.uint64)
    with np.errstate(over="ignore"):
        return _splitmix64_np(base + idx * np.uint64(_GOLDEN))


def strategy_seeds(deals: np.ndarray, pairing_key: int, copy: int, seat: int, jit: bool = False) -> np.ndarray:
    """``strategy_seed`` for many deal seeds at once (uint64 array); by numba's BLAKE2b
    (``ginsim.run._seedjit``) when ``jit`` asks for it (the worker does when its task's
    engine is "auto") and numba imports, else by ``hashlib``: the same seeds either way."""
    kernel = _seed_kernel(jit) if len(deals) >= 64 else None
    if kernel is not None:
        state = kernel.keyed_state(_stream_key(pairing_key))
        return kernel.keyed_digests(state, np.asarray(deals, dtype=np.uint64), (copy & 255) | (seat & 255) << 8)
    return strategy_seeds_hashlib(deals, pairing_key, copy, seat)


def _seed_kernel(jit: bool) -> Any:
    """``ginsim.run._seedjit`` when ``jit`` and numba imports, else None."""
    return _seedjit_module() if jit else None


@cache
def _seedjit_module() -> Any:
    try:
        from ginsim.run import _seedjit
    except Exception:  # noqa: BLE001 - no numba or nowhere to cache it: hashlib computes the seeds
        return None
    return _seedjit


def strategy_seeds_hashlib(deals: np.ndarray, pairing_key: int, copy: int, seat: int) -> np.ndarray:
    """``strategy_seeds`` by ``hashlib``, one message at a time (the reference)."""
    keyed = hashlib.blake2b(digest_size=8, key=_stream_key(pairing_key))  # copied per seed: the key is hashed once
    tail = bytes((copy & 255, seat & 255))
    data = np.asarray(deals, dtype="<u8").tobytes()
    digests = []
    for i in range(0, len(data), 8):
        h = keyed.copy()
        h.update(data[i : i + 8] + tail)
        digests.append(h.digest())
    return np.frombuffer(b"".join(digests), dtype="<u8").astype(np.uint64)
