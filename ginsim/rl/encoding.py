"""The environments' encodings: what an agent observes and the actions it may take.

Observations are read from one seat's ``PlayerView`` only (R13), never from the hand: a
flat float32 vector of ``N_PLANES`` planes over the 52 cards (``suit * 13 + rank``, as
ginsim numbers them) followed by ``N_SCALARS`` scalars (docs/rl.md lists both). Actions
are one ``Discrete(N_ACTIONS)`` space: discard a card, discard a card and knock, take the
upcard, draw from the stock, pass the first upcard, big gin. The legal actions come from
the view's own legality helpers (the engine's rules); nothing here decides a rule.

This module needs NumPy only (no Gymnasium), so a policy wrapped as a strategy
(``ginsim.rl.policy``) encodes exactly as the environments do.
"""

from __future__ import annotations

import struct
from typing import Final

import numpy as np

from ginsim.engine.view import DISCARD, DRAW, KNOCK, OFFER, PlayerView

DISCARD_BASE: Final = 0
"""Actions 0..51: discard that card (no knock)."""
KNOCK_BASE: Final = 52
"""Actions 52..103: discard card ``a - 52`` and knock (gin when no deadwood is left)."""
TAKE: Final = 104
"""Take the upcard (the first-turn offer or the top of the discard pile)."""
DRAW_STOCK: Final = 105
"""Draw the top card of the stock."""
PASS: Final = 106
"""Pass the first-turn upcard (R09)."""
BIG_GIN: Final = 107
"""End the hand with all eleven cards melded (R22); legal only when the rules set a big
gin bonus."""
N_ACTIONS: Final = 108

PLANES: Final = (
    "hand",
    "upcard",
    "pile_below",
    "opp_known",
    "opp_passed",
    "opp_discards",
    "unseen",
    "drawn",
)
"""The card planes, in order (docs/rl.md says what each holds)."""
SCALARS: Final = (
    "phase_offer",
    "phase_draw",
    "phase_discard",
    "to_move",
    "stock_size",
    "knock_limit",
    "turn",
    "is_dealer",
    "drawn_from_pile",
    "own_score",
    "opp_score",
)
"""The scalars after the planes, each in [0, 1] (docs/rl.md gives the scaling)."""
N_PLANES: Final = len(PLANES)
N_SCALARS: Final = len(SCALARS)
OBS_SIZE: Final = N_PLANES * 52 + N_SCALARS
_S0: Final = N_PLANES * 52  # where the scalars start
TURN_SCALE: Final = 100  # turn / TURN_SCALE, capped at 1

_BITS: Final = np.uint64(1) << np.arange(52, dtype=np.uint64)


def planes_of(masks: np.ndarray) -> np.ndarray:
    """Card masks (uint64, any shape) as 0/1 planes of 52 float32 (shape + (52,))."""
    return ((masks[..., None] & _BITS) != 0).astype(np.float32)


def view_masks(view: PlayerView) -> tuple[int, ...]:
    """The ``PLANES`` of one seat's view as card masks."""
    up = view.upcard
    upbit = 0 if up is None else 1 << up
    drawn = view.drawn
    return (
        view.hand,
        upbit,
        view.pile_mask & ~upbit,
        view.opp_known,
        view.opp_passed,
        view.opp_discards,
        view.unseen(),
        0 if drawn is None else 1 << drawn,
    )


def scalar_values(view: PlayerView, to_move: bool, target: int) -> tuple[float, ...]:
    """The ``SCALARS`` of one seat's view."""
    phase = view.phase
    offer = draw = discard = 0.0
    if to_move:
        if phase == OFFER:
            offer = 1.0
        elif phase == DRAW:
            draw = 1.0
        elif phase in (DISCARD, KNOCK):
            discard = 1.0
    scores = view.scores
    return (
        offer,
        draw,
        discard,
        1.0 if to_move else 0.0,
        view.stock_size / 31.0,
        view.knock_limit / 10.0,
        min(view.turn, TURN_SCALE) / TURN_SCALE,
        1.0 if view.seat == view.dealer else 0.0,
        1.0 if view.drawn_from_pile else 0.0,
        min(scores[0] / target, 1.0),
        min(scores[1] / target, 1.0),
    )


def view_scalars(view: PlayerView, to_move: bool, target: int, out: np.ndarray) -> None:
    """Write the ``SCALARS`` of one seat's view into ``out`` (``N_SCALARS`` floats)."""
    out[:] = scalar_values(view, to_move, target)


_PACK_SCALARS: Final = struct.Struct(f"<{N_SCALARS}f").pack


_F32_BITS: Final = tuple(np.array([(p >> i) & 1 for i in range(13)], dtype=np.float32).tobytes() for p in range(8192))
"""A 13-bit suit pattern as 13 float32 0/1 values, as bytes: one lookup a suit."""
_I8_BITS: Final = tuple(bytes((p >> i) & 1 for i in range(13)) for p in range(8192))
_SUITS: Final = (0, 13, 26, 39)


def _card_bytes(table: tuple[bytes, ...], masks: tuple[int, ...]) -> list[bytes]:
    return [table[m >> s & 8191] for m in masks for s in _SUITS]


def encode(view: PlayerView, to_move: bool, target: int, out: np.ndarray | None = None) -> np.ndarray:
    """One seat's observation vector (``OBS_SIZE`` float32) from its view alone;
    ``to_move`` says whether the seat is to decide now, ``target`` is the game's target
    score (the scores' scale)."""
    parts = _card_bytes(_F32_BITS, view_masks(view))
    parts.append(_PACK_SCALARS(*scalar_values(view, to_move, target)))
    obs = np.frombuffer(bytearray(b"".join(parts)), dtype=np.float32)
    if out is None:
        return obs
    out[:] = obs
    return out


_NONE: Final = bytes(N_ACTIONS - KNOCK_BASE - 52)
_OFFER_MASK: Final = bytes(KNOCK_BASE + 52) + b"\x01\x00\x01\x00"  # take, draw, pass, big gin
_DRAW_MASK: Final = bytes(KNOCK_BASE + 52) + b"\x01\x01\x00\x00"
_STOCK_MASK: Final = bytes(KNOCK_BASE + 52) + b"\x00\x01\x00\x00"
_EMPTY_MASK: Final = bytes(N_ACTIONS)


def _fixed(mask: bytes, out: np.ndarray | None) -> np.ndarray:
    arr = np.frombuffer(bytearray(mask), dtype=np.int8)
    if out is None:
        return arr
    out[:] = arr
    return out


def legal_mask(view: PlayerView, big_gin: bool, out: np.ndarray | None = None) -> np.ndarray:
    """The legal actions (``N_ACTIONS`` int8, 1 = legal) of the seat to move, read from
    its view: in the first-turn offer take or pass; on a normal turn take or draw; with
    eleven cards each legal discard (R12), each discard that leaves deadwood within the
    hand's knock limit with a knock (R14), and big gin when ``big_gin`` (the rules set
    its bonus) and all eleven cards meld (R22)."""
    phase = view.phase
    tail = _NONE
    discards = knocks = 0
    if phase == OFFER:
        return _fixed(_OFFER_MASK, out)
    if phase == DRAW:
        return _fixed(_DRAW_MASK if view.upcard is not None else _STOCK_MASK, out)
    if phase in (DISCARD, KNOCK):
        discards = view.legal_discards()
        least, _ = view.best_discards()
        limit = view.knock_limit
        if least <= limit:
            m = discards
            while m:
                low = m & -m
                m ^= low
                if view.can_knock(low.bit_length() - 1):
                    knocks |= low
        if big_gin and view.deadwood() == 0:
            tail = b"\x00\x00\x00\x01"
    else:
        return _fixed(_EMPTY_MASK, out)
    mask = np.frombuffer(bytearray(b"".join(_card_bytes(_I8_BITS, (discards, knocks))) + tail), dtype=np.int8)
    if out is None:
        return mask
    out[:] = mask
    return out


def describe_action(action: int) -> str:
    """An action id in words (``discard 7H``, ``knock QS``, ``take``, ...)."""
    from ginsim.engine.cards import CARD_NAMES

    a = int(action)
    if 0 <= a < 52:
        return f"discard {CARD_NAMES[a]}"
    if 52 <= a < 104:
        return f"knock {CARD_NAMES[a - 52]}"
    return {TAKE: "take", DRAW_STOCK: "draw", PASS: "pass", BIG_GIN: "big gin"}.get(a, f"action {a!r}")
