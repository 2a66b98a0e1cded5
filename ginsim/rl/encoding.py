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


def view_scalars(view: PlayerView, to_move: bool, target: int, out: np.ndarray) -> None:
    """Write the ``SCALARS`` of one seat's view into ``out`` (``N_SCALARS`` floats)."""
    phase = view.phase
    out[:] = 0.0
    if to_move:
        if phase == OFFER:
            out[0] = 1.0
        elif phase == DRAW:
            out[1] = 1.0
        elif phase in (DISCARD, KNOCK):
            out[2] = 1.0
        out[3] = 1.0
    out[4] = view.stock_size / 31.0
    out[5] = view.knock_limit / 10.0
    out[6] = min(view.turn, TURN_SCALE) / TURN_SCALE
    out[7] = 1.0 if view.seat == view.dealer else 0.0
    out[8] = 1.0 if view.drawn_from_pile else 0.0
    out[9] = min(view.scores[0] / target, 1.0)
    out[10] = min(view.scores[1] / target, 1.0)


def encode(view: PlayerView, to_move: bool, target: int, out: np.ndarray | None = None) -> np.ndarray:
    """One seat's observation vector (``OBS_SIZE`` float32) from its view alone;
    ``to_move`` says whether the seat is to decide now, ``target`` is the game's target
    score (the scores' scale)."""
    if out is None:
        out = np.empty(OBS_SIZE, dtype=np.float32)
    masks = np.array(view_masks(view), dtype=np.uint64)
    out[:_S0] = planes_of(masks).reshape(-1)
    view_scalars(view, to_move, target, out[_S0:])
    return out


def legal_mask(view: PlayerView, big_gin: bool, out: np.ndarray | None = None) -> np.ndarray:
    """The legal actions (``N_ACTIONS`` int8, 1 = legal) of the seat to move, read from
    its view: in the first-turn offer take or pass; on a normal turn take or draw; with
    eleven cards each legal discard (R12), each discard that leaves deadwood within the
    hand's knock limit with a knock (R14), and big gin when ``big_gin`` (the rules set
    its bonus) and all eleven cards meld (R22)."""
    if out is None:
        out = np.zeros(N_ACTIONS, dtype=np.int8)
    else:
        out[:] = 0
    phase = view.phase
    if phase == OFFER:
        out[TAKE] = 1
        out[PASS] = 1
    elif phase == DRAW:
        out[TAKE] = view.upcard is not None
        out[DRAW_STOCK] = 1
    elif phase in (DISCARD, KNOCK):
        legal = view.legal_discards()
        out[:52] = planes_of(np.array(legal, dtype=np.uint64))
        least, _ = view.best_discards()
        limit = view.knock_limit
        if least <= limit:
            m = legal
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                if view.deadwood_after(c) <= limit:
                    out[KNOCK_BASE + c] = 1
        if big_gin and view.deadwood() == 0:
            out[BIG_GIN] = 1
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
