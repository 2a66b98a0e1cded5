"""The kept hand two stock draws ahead, exactly: the columns of the ninth attempt's first
trial (``feature_trial.py --columns experiments/training/two_draws.py:columns``; the notes).

``two_draws`` answers: if this 10-card hand drew twice from the stock, each draw followed by
its best discard (the lowest card among equally good ones), what deadwood would it hold then,
how likely could it knock and how likely would it be gin? Every unseen card may be either
draw, weighted by its chance to be in the stock (``aware``'s card chances; the second draw
never repeats the first).

Done plainly it is a best-discard search for each of about 1,500 pairs of draws
(``plain_two_draws``, the tests' yardstick). This takes about a tenth of that, exactly, from
three facts about a card ``c`` that melds with no two cards of the hand (not an *out*): it is
deadwood wherever it goes, so the hand it leaves after its best discard is known without a
search (the hand itself when ``c`` is no lower than the worst deadwood card, else the hand
with that card replaced by ``c``), and so is that hand's deadwood; a second card melds with
``c`` only if it is *near* it (same rank, or same suit within two ranks), so every other
second card scores as it would without ``c``, worked out once per hand; and a second card
that melds with nothing scores by its value. Only the outs need real searches. Still about
half a millisecond a kept hand here, about 70 microseconds compiled with the engine (tried so,
once): too slow for ``learned``'s 500 hands a second all the same, and the
teacher does not follow it (the notes).
"""

from __future__ import annotations

from typing import Any

from ginsim.engine.cards import VALUE_OF
from ginsim.engine.kernel.discard import best_discard
from ginsim.engine.kernel.meldsearch import deadwood
from ginsim.engine.opponent import near_mask
from ginsim.engine.playout import outs_mask


def _hist(
    TB: tuple[int, ...],
    hand: int,
    dw: int,
    nine: int,
    pool: int,
    q: list[float],
    wv: list[float],
    skip: int,
    later: tuple[int, list[int], list[int]] | None = None,
) -> list[float]:
    """The weight of the second draws into the 10-card ``hand`` (deadwood ``dw``, best nine
    cards ``nine``) from ``pool`` without the card ``skip`` (-1: none), by the deadwood they
    leave. With ``later`` (``skip``'s near cards and ``_later``'s lists), ``hand`` holds
    ``skip`` as a card that melds with nothing, and the outs not near it are looked up."""
    gb = dw - nine
    hist = [0.0] * (dw + 1)
    sv = VALUE_OF[skip] if skip >= 0 else 0
    for v in range(1, 11):
        w = wv[v] - q[skip] if v == sv else wv[v]
        hist[nine + v if v < gb else dw] += w
    outs = outs_mask(hand) & pool
    if skip >= 0:
        outs &= ~(1 << skip)
    while outs:
        o = outs & -outs
        outs ^= o
        c = o.bit_length() - 1
        v = VALUE_OF[c]
        w = q[c]
        hist[nine + v if v < gb else dw] -= w
        if later is None or o & later[0]:
            hist[best_discard(TB, hand | o)[0]] += w
        else:
            drop, kept = later[1][c], sv + later[2][c]
            hist[drop if drop < kept else kept] += w
    return hist


def _sums(hist: list[float], limit: int) -> tuple[float, float, float]:
    """Weight x deadwood, the weight that can knock (deadwood ``limit`` or less), gin's weight."""
    e = k = 0.0
    for d in range(len(hist)):
        e += d * hist[d]
        if d <= limit:
            k += hist[d]
    return e, k, hist[0]


def _stock(pool: int, q: list[float]) -> list[float]:
    """The weight of the pool's cards by value (index 1..10), their total at index 0."""
    wv = [0.0] * 11
    m = pool
    while m:
        o = m & -m
        m ^= o
        c = o.bit_length() - 1
        wv[VALUE_OF[c]] += q[c]
    for v in range(1, 11):
        wv[0] += wv[v]
    return wv


def two_draws(TB: tuple[int, ...], rest: int, pool: int, q: list[float], limit: int) -> tuple[float, float, float]:
    """The 10-card hand ``rest`` after two draws from ``pool`` (the unseen cards, card ``c``
    weighted ``q[c]``), each followed by the best discard: its expected deadwood, the chance
    it can knock (deadwood ``limit`` or less) and the chance it is gin."""
    memo: dict[int, tuple[float, float, float]] = {}
    return _two(TB, rest, pool, q, _stock(pool, q), limit, memo)


def two_draws_each(
    TB: tuple[int, ...], hand: int, cards: list[int], pool: int, q: list[float], limit: int
) -> list[tuple[float, float, float]]:
    """``two_draws`` of the hand ``hand`` without each of ``cards`` (a decision's discards):
    the hands the first draws leave are often the same for two discards (the order of two
    discards does not matter two draws on), and each is worked out once."""
    wv = _stock(pool, q)
    memo: dict[int, tuple[float, float, float]] = {}
    return [_two(TB, hand & ~(1 << card), pool, q, wv, limit, memo) for card in cards]


def _two(
    TB: tuple[int, ...],
    rest: int,
    pool: int,
    q: list[float],
    wv: list[float],
    limit: int,
    memo: dict[int, tuple[float, float, float]],
) -> tuple[float, float, float]:
    dw = deadwood(TB, rest)
    total = wv[0]
    if dw == 0 or total <= 0.0:
        return float(dw), 1.0 if dw <= limit else 0.0, 1.0 if dw == 0 else 0.0
    nine, drops = best_discard(TB, rest)
    gb = dw - nine
    base = rest & ~(drops & -drops)  # the hand without its worst card: nine cards
    eight = -1  # the best eight of ``base``, when first needed
    outs = outs_mask(rest) & pool
    # the hand kept as it is (a first draw no lower than its worst deadwood card)
    e_r, k_r, g_r = _sums(_hist(TB, rest, dw, nine, pool, q, wv, -1), limit)
    # second draws that meld in ``base``: with a first card that is deadwood and not near
    # them, they leave the better of dropping that card and keeping it (when first needed)
    drop_first: list[int] = []
    keep_first: list[int] = []
    e = k = g = 0.0
    m = pool
    while m:
        o = m & -m
        m ^= o
        c = o.bit_length() - 1
        w = q[c]
        rest_t = total - w
        if w <= 0.0:
            continue
        v = VALUE_OF[c]
        searched = (outs & o) != 0 or v == gb
        if v > gb and not searched:  # drawn and let go: the hand as it is, without c to draw again
            if rest_t <= 0.0:
                e += w * dw
                k += w if dw <= limit else 0.0
                continue
            e += w * (e_r - w * dw) / rest_t
            k += w * (k_r - (w if dw <= limit else 0.0)) / rest_t
            g += w * g_r / rest_t
            continue
        if searched:  # an out, or a tie with the worst card: searched
            dw1, d1 = best_discard(TB, rest | o)
            h1 = (rest | o) & ~(d1 & -d1)
        else:  # deadwood, lower than the worst card: it takes that card's place
            h1 = base | o
            dw1 = nine + v
        key = h1 << 6 | c
        found = memo.get(key)
        if found is None:
            if dw1 == 0:
                found = (0.0, 1.0, 1.0)
            elif rest_t <= 0.0:
                found = (float(dw1), 1.0 if dw1 <= limit else 0.0, 0.0)
            else:
                if searched:
                    hist = _hist(TB, h1, dw1, best_discard(TB, h1)[0], pool, q, wv, c)
                else:
                    if eight < 0:
                        eight = best_discard(TB, base)[0]
                        drop_first, keep_first = _later(TB, base, pool)
                    nine1 = nine if nine < v + eight else v + eight
                    hist = _hist(TB, h1, dw1, nine1, pool, q, wv, c, (near_mask(o), drop_first, keep_first))
                s_e, s_k, s_g = _sums(hist, limit)
                found = (s_e / rest_t, s_k / rest_t, s_g / rest_t)
            memo[key] = found
        e += w * found[0]
        k += w * found[1]
        g += w * found[2]
    return e / total, k / total, g / total


def _later(TB: tuple[int, ...], base: int, pool: int) -> tuple[list[int], list[int]]:
    """For each second draw that melds in the nine cards ``base``: the deadwood of ``base``
    with it, and of its best nine then (a first card kept beside them adds its value)."""
    drop_first = [0] * 52
    keep_first = [0] * 52
    later = outs_mask(base) & pool
    while later:
        o = later & -later
        later ^= o
        c = o.bit_length() - 1
        drop_first[c] = deadwood(TB, base | o)
        keep_first[c] = best_discard(TB, base | o)[0]
    return drop_first, keep_first


def plain_two_draws(
    TB: tuple[int, ...], rest: int, pool: int, q: list[float], limit: int
) -> tuple[float, float, float]:
    """``two_draws`` written out: every first draw, its best discard (the lowest among
    equals), every second draw and its best discard, searched one by one."""
    cards = [c for c in range(52) if pool >> c & 1 and q[c] > 0.0]
    total = sum(q[c] for c in cards)
    e = k = g = 0.0
    for c in cards:
        drops = best_discard(TB, rest | 1 << c)[1]
        h1 = (rest | 1 << c) & ~(drops & -drops)
        seconds = [x for x in cards if x != c]
        t2 = sum(q[x] for x in seconds)
        for c2 in seconds:
            dw2 = best_discard(TB, h1 | 1 << c2)[0]
            w = q[c] / total * q[c2] / t2
            e += w * dw2
            k += w if dw2 <= limit else 0.0
            g += w if dw2 == 0 else 0.0
    return e, k, g


def columns(head: str, _view: Any, ctx: Any, kept: int) -> list[float]:
    """The trial's columns (``labels.Columns``): for a discard, the hand it keeps two draws
    ahead (expected deadwood, chance to knock, chance of gin); nothing for the other heads."""
    if head != "discard":
        return []
    q = [1.0 - p for p in ctx.opp.p]
    return list(two_draws(ctx.tables.flat, kept, ctx.opp.unseen, q, ctx.limit))
