"""``seeding.strategy_seeds`` compiled by numba (imported only when numba is): BLAKE2b
(RFC 7693) keyed with the pairing's stream key, 8-byte digest, over each deal seed and the
copy and seat bytes, for a whole chunk's deals in one call.

``hashlib`` does the same hash one message at a time, and the Python around each call
(copy the keyed state, build the message, take the digest) costs more than the hash. Here
the keyed state after the key block is computed once (``keyed_state``) and each seed is
one compression of its ten-byte final block. tests/run/test_seeding.py compares the two on
thousands of keys, seeds, copies and seats.
"""

from __future__ import annotations

import numba as nb
import numpy as np

_jit = nb.njit(cache=True, nogil=True)

_IV = np.array(
    [
        0x6A09E667F3BCC908,
        0xBB67AE8584CAA73B,
        0x3C6EF372FE94F82B,
        0xA54FF53A5F1D36F1,
        0x510E527FADE682D1,
        0x9B05688C2B3E6C1F,
        0x1F83D9ABFB41BD6B,
        0x5BE0CD19137E2179,
    ],
    dtype=np.uint64,
)
_SIGMA = np.array(
    [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ],
    dtype=np.int64,
)
_MIX = np.array([[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15],
                 [0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]], dtype=np.int64)  # fmt: skip


@nb.njit(cache=True, inline="always")
def _rot(x: np.uint64, n: int) -> np.uint64:
    return (x >> np.uint64(n)) | (x << np.uint64(64 - n))


@nb.njit(cache=True, inline="always")
def _g(
    a: np.uint64, b: np.uint64, c: np.uint64, d: np.uint64, x: np.uint64, y: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """BLAKE2b's G on four state words and two message words."""
    a = a + b + x
    d = _rot(d ^ a, 32)
    c = c + d
    b = _rot(b ^ c, 24)
    a = a + b + y
    d = _rot(d ^ a, 16)
    c = c + d
    b = _rot(b ^ c, 63)
    return a, b, c, d


@nb.njit(cache=True, inline="always")
def _word(k: int, m0: np.uint64, m1: np.uint64) -> np.uint64:
    """Message word ``k`` of a final block holding two words (the rest are zero)."""
    return m0 if k == 0 else (m1 if k == 1 else np.uint64(0))


@_jit
def _compress(h: np.ndarray, m: np.ndarray, t: int, last: bool) -> None:
    """BLAKE2b's F: mix the 128-byte block ``m`` (16 words) into state ``h`` after ``t``
    bytes, ``last`` for the final block."""
    v = np.empty(16, dtype=np.uint64)
    for i in range(8):
        v[i] = h[i]
        v[i + 8] = _IV[i]
    v[12] ^= np.uint64(t)
    if last:
        v[14] = ~v[14]
    for r in range(12):
        s = _SIGMA[r % 10]
        for g in range(8):
            a, b, c, d = _MIX[g, 0], _MIX[g, 1], _MIX[g, 2], _MIX[g, 3]
            v[a], v[b], v[c], v[d] = _g(v[a], v[b], v[c], v[d], m[s[2 * g]], m[s[2 * g + 1]])
    for i in range(8):
        h[i] ^= v[i] ^ v[i + 8]


def keyed_state(key: bytes, digest_size: int = 8) -> np.ndarray:
    """The BLAKE2b state after the key block, for a key of at most 64 bytes."""
    if not 0 < len(key) <= 64:
        raise ValueError("a BLAKE2b key holds 1 to 64 bytes")
    h = _IV.copy()
    h[0] ^= np.uint64(0x01010000 ^ (len(key) << 8) ^ digest_size)
    block = np.frombuffer(key.ljust(128, b"\0"), dtype="<u8").astype(np.uint64)
    _compress(h, block, 128, False)
    return h


@_jit
def keyed_digests(state: np.ndarray, words: np.ndarray, tail: int) -> np.ndarray:
    """The first 8 digest bytes, as a little-endian word, of each ten-byte message
    ``words[i]`` (little-endian) + ``tail`` (two bytes, little-endian) after the key:
    ``_compress`` of the final block (t = 138), unrolled into local words for a block whose
    words 2-15 are zero (the one hot loop here)."""
    out = np.empty(len(words), dtype=np.uint64)
    m1 = np.uint64(tail)
    iv = _IV
    S = _SIGMA
    for i in range(len(words)):
        m0 = words[i]
        v0, v1, v2, v3, v4, v5, v6, v7 = state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
        v8, v9, v10, v11 = iv[0], iv[1], iv[2], iv[3]
        v12 = iv[4] ^ np.uint64(138)
        v13 = iv[5]
        v14 = ~iv[6]
        v15 = iv[7]
        for r in range(12):
            s = S[r % 10]
            v0, v4, v8, v12 = _g(v0, v4, v8, v12, _word(s[0], m0, m1), _word(s[1], m0, m1))
            v1, v5, v9, v13 = _g(v1, v5, v9, v13, _word(s[2], m0, m1), _word(s[3], m0, m1))
            v2, v6, v10, v14 = _g(v2, v6, v10, v14, _word(s[4], m0, m1), _word(s[5], m0, m1))
            v3, v7, v11, v15 = _g(v3, v7, v11, v15, _word(s[6], m0, m1), _word(s[7], m0, m1))
            v0, v5, v10, v15 = _g(v0, v5, v10, v15, _word(s[8], m0, m1), _word(s[9], m0, m1))
            v1, v6, v11, v12 = _g(v1, v6, v11, v12, _word(s[10], m0, m1), _word(s[11], m0, m1))
            v2, v7, v8, v13 = _g(v2, v7, v8, v13, _word(s[12], m0, m1), _word(s[13], m0, m1))
            v3, v4, v9, v14 = _g(v3, v4, v9, v14, _word(s[14], m0, m1), _word(s[15], m0, m1))
        out[i] = state[0] ^ v0 ^ v8
    return out
