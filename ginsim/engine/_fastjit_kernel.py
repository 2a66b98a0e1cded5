"""The numba kernel behind ``ginsim.engine.fastjit`` (imported only when numba is).

Every function mirrors one of ``fastseat`` / ``fastplay`` / ``melds`` step for step, on
int64 card masks (52 bits) and uint64 random states; the docstrings name the original.
Tables come in as arrays (``fastjit._tables``), so one compiled kernel serves every
``max_run_length``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ginsim.engine.fastseat import RANDOM
from ginsim.engine.hand import BIG_GIN, GIN, KNOCK_WON, MAX_TURNS, OUTCOMES, UNDERCUT
from ginsim.engine.hand import DRAWN as DRAWN_OUTCOME

_jit = nb.njit(cache=True, nogil=True)

DRAWN = 0  # how a hand ended
KNOCK = 1
BIG = 2
C_KNOCK, C_UNDERCUT, C_GIN, C_BIG_GIN, C_DRAWN = 0, 1, 2, 3, 4  # outcome codes: indices in OUTCOMES
if OUTCOMES[:5] != (KNOCK_WON, UNDERCUT, GIN, BIG_GIN, DRAWN_OUTCOME):  # pragma: no cover
    raise ImportError("fastjit: the outcome codes do not match OUTCOMES")

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_C1 = np.uint64(0xBF58476D1CE4E5B9)
_C2 = np.uint64(0x94D049BB133111EB)
_M32 = np.uint64(0xFFFFFFFF)
_U11 = np.uint64(11)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_U58 = np.uint64(58)
_SCALE = 1.0 / 9007199254740992.0
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_TZ = np.zeros(64, dtype=np.int64)  # _TZ[(2**i * _DEBRUIJN) >> 58] = i
for _i in range(64):
    _TZ[((1 << _i) * 0x03F79D71B4CB0A89 & (2**64 - 1)) >> 58] = _i
_BIG = 1 << 30
_SUIT = 8191
_RANK_BITS = 1 | 1 << 13 | 1 << 26 | 1 << 39


@_jit
def _low_index(m: int) -> int:
    """Index of the lowest set bit of a non-zero mask (``(m & -m).bit_length() - 1``)."""
    low = np.uint64(m & -m)
    return _TZ[(low * _DEBRUIJN) >> _U58]


@_jit
def _count(m: int) -> int:
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@_jit
def _next64(state: np.ndarray, i: int) -> np.uint64:
    """``SeededRandom._next64`` (``FastSeat._next``): splitmix64."""
    s = state[i] + _GOLDEN
    state[i] = s
    z = (s ^ (s >> _U30)) * _C1
    z = (z ^ (z >> _U27)) * _C2
    return z ^ (z >> _U31)


@_jit
def _random(state: np.ndarray, i: int) -> float:
    return np.float64(_next64(state, i) >> _U11) * _SCALE


@_jit
def _pick_bit(state: np.ndarray, i: int, mask: int) -> int:
    """``SeededRandom.pick_bit``: one draw, (z * count) >> 64, that many bits dropped."""
    z = _next64(state, i)
    k = np.uint64(_count(mask))
    hi = (z >> _U32) * k + (((z & _M32) * k) >> _U32)
    n = np.int64(hi >> _U32)
    for _ in range(n):
        mask &= mask - 1
    return _low_index(mask)


@_jit
def _melds_with(card: int, hand: int, RR: np.ndarray) -> bool:
    """``fastseat.melds_with_fast``."""
    h = hand | 1 << card
    rank = card % 13
    x = h >> rank
    if (x & 1) + (x >> 13 & 1) + (x >> 26 & 1) + (x >> 39 & 1) >= 3:
        return True
    return (RR[h >> (card - rank) & _SUIT] >> rank & 1) != 0


@_jit
def _runs(P: np.ndarray, a: int, b: int, c: int, d: int) -> tuple[int, int, int]:
    """``fastseat._runs`` over the packed table ``P`` (``fastjit._tables``: each suit
    pattern's run deadwood, best removal's gain and its cards in one word, one lookup)."""
    pa = P[a]
    pb = P[b]
    pc = P[c]
    pd = P[d]
    ga = (pa >> 8 & 2047) - 1024
    gb = (pb >> 8 & 2047) - 1024
    gc = (pc >> 8 & 2047) - 1024
    gd = (pd >> 8 & 2047) - 1024
    top = max(ga, gb, gc, gd)
    cards = 0
    if ga == top:
        cards = pa >> 19
    if gb == top:
        cards |= (pb >> 19) << 13
    if gc == top:
        cards |= (pc >> 19) << 26
    if gd == top:
        cards |= (pd >> 19) << 39
    return (pa & 255) + (pb & 255) + (pc & 255) + (pd & 255), top, cards


@_jit
def _one_rank(P: np.ndarray, a: int, b: int, c: int, d: int, bit: int) -> tuple[int, int]:
    """``fastseat._one_rank``."""
    keep = ~bit
    aq = a & keep
    bq = b & keep
    cq = c & keep
    dq = d & keep
    total, top, cards = _runs(P, a, b, c, d)
    best = total - top
    total, top, m = _runs(P, aq, bq, cq, dq)
    v = total - top
    if v < best:
        best, cards = v, m
    elif v == best:
        cards |= m
    if a & b & c & d & bit:
        for i in range(4):
            total, top, m = _runs(P, a if i == 0 else aq, b if i == 1 else bq, c if i == 2 else cq, d if i == 3 else dq)
            v = total - top
            if v < best:
                best, cards = v, m
            elif v == best:
                cards |= m
    return best, cards


@_jit
def _group_combos(rest: int, ranks: int, four: int) -> np.ndarray:
    """Every choice of groups among ``ranks`` (bits) of ``rest``: per rank none, all its
    cards or (ranks in ``four``) each three of its four (``melds.group_choices``)."""
    combos = np.zeros(1, dtype=np.int64)
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        g = rest & _RANK_BITS << _low_index(low)
        k = 2 + (4 if four & low else 0)
        opts = np.zeros(k, dtype=np.int64)
        opts[1] = g
        if four & low:
            q = g
            j = 2
            while q:
                one = q & -q
                q ^= one
                opts[j] = g ^ one
                j += 1
        nxt = np.empty(len(combos) * k, dtype=np.int64)
        for x in range(len(combos)):
            for o in range(k):
                nxt[x * k + o] = combos[x] | opts[o]
        combos = nxt
    return combos


@_jit
def _several_ranks(P: np.ndarray, a: int, b: int, c: int, d: int, ranks: int) -> tuple[int, int]:
    """``fastseat._several_ranks``."""
    rest = a | b << 13 | c << 26 | d << 39
    best = _BIG
    best_cards = 0
    for x in _group_combos(rest, ranks, a & b & c & d):
        r = rest & ~x
        total, top, cards = _runs(P, r & _SUIT, r >> 13 & _SUIT, r >> 26 & _SUIT, r >> 39)
        v = total - top
        if v < best:
            best, best_cards = v, cards
        elif v == best:
            best_cards |= cards
    return best, best_cards


@_jit
def _deadwood(T: np.ndarray, RN: np.ndarray, DELTA: np.ndarray, h: int) -> int:
    """``melds``' ``deadwood_mask`` (R07)."""
    a = h & _SUIT
    b = h >> 13 & _SUIT
    c = h >> 26 & _SUIT
    d = h >> 39
    t3 = (a & b | c & d) & (a | b) & (c | d)
    if not t3:
        return T[a] + T[b] + T[c] + T[d]
    if t3 & (t3 - 1):
        free = t3 & ~(RN[a] | RN[b] | RN[c] | RN[d])
        if free:
            keep = ~free
            a &= keep
            b &= keep
            c &= keep
            d &= keep
            t3 ^= free
            if not t3:
                return T[a] + T[b] + T[c] + T[d]
        if t3 & (t3 - 1):
            rest = a | b << 13 | c << 26 | d << 39
            best = _BIG
            for g in _group_combos(rest, t3, a & b & c & d):
                r = rest & ~g
                v = T[r & _SUIT] + T[r >> 13 & _SUIT] + T[r >> 26 & _SUIT] + T[r >> 39]
                if v < best:
                    best = v
            return best
    D = DELTA[_low_index(t3)]
    da = D[a]
    db = D[b]
    dc = D[c]
    dd = D[d]
    save = da + db + dc + dd
    if a & b & c & d & t3:
        low = min(da, db, dc, dd)
        if low < 0:
            save -= low
    return T[a] + T[b] + T[c] + T[d] - (save if save > 0 else 0)


@_jit
def _best_discard(T: np.ndarray, RN: np.ndarray, P: np.ndarray, DELTA: np.ndarray, h: int) -> tuple[int, int]:
    """``fastseat._best_discard``: the least deadwood after one discard, and the discards."""
    a = h & _SUIT
    b = h >> 13 & _SUIT
    c = h >> 26 & _SUIT
    d = h >> 39
    t3 = (a & b | c & d) & (a | b) & (c | d)
    if not t3:
        total, top, cards = _runs(P, a, b, c, d)
        return total - top, cards
    free = t3 & ~(RN[a] | RN[b] | RN[c] | RN[d])
    conflict = t3 ^ free
    penalty = 0
    ranks = 0
    if free:
        keep = ~free
        four = a & b & c & d & free
        a &= keep
        b &= keep
        c &= keep
        d &= keep
        if four:
            ranks = four
        else:
            low = free & -free
            r = _low_index(low)
            penalty = 2 * (r + 1 if r < 9 else 10)
            ranks = free & (low if r < 9 else 0x1E00)
    group = h & (ranks | ranks << 13 | ranks << 26 | ranks << 39)
    if not conflict:
        total, top, cards = _runs(P, a, b, c, d)
        if penalty > -top:
            return total - top, cards
        if penalty < -top:
            return total + penalty, group
        return total - top, cards | group
    if conflict & (conflict - 1):
        best, cards = _several_ranks(P, a, b, c, d, conflict)
    else:
        best, cards = _one_rank(P, a, b, c, d, conflict)
    if not free:
        return best, cards
    w = _deadwood(T, RN, DELTA, a | b << 13 | c << 26 | d << 39) + penalty
    if w < best:
        return w, group
    if w == best:
        cards |= group
    return best, cards


@_jit
def _runs_only(T: np.ndarray, h: int) -> int:
    return T[h & _SUIT] + T[h >> 13 & _SUIT] + T[h >> 26 & _SUIT] + T[h >> 39]


@_jit
def _best_melds(T: np.ndarray, RN: np.ndarray, RUNS: np.ndarray, h: int, melds: np.ndarray) -> tuple[int, int]:
    """``MeldTables.best_melds_mask``: the same arrangement (groups no run could use kept
    whole; among the other group choices the first of least run deadwood, in
    ``group_choices``' order; then each suit's runs) into ``melds``; (count, deadwood)."""
    a = h & _SUIT
    b = h >> 13 & _SUIT
    c = h >> 26 & _SUIT
    d = h >> 39
    t3 = (a & b | c & d) & (a | b) & (c | d)
    groups = 0
    if t3:
        free = t3 & ~(RN[a] | RN[b] | RN[c] | RN[d])
        groups = h & (free | free << 13 | free << 26 | free << 39)
        conflict = t3 & ~free
        if conflict:
            rest = h & ~groups
            best = _BIG
            best_g = 0
            q = rest
            four = (q & _SUIT) & (q >> 13 & _SUIT) & (q >> 26 & _SUIT) & (q >> 39)
            for g in _group_combos(rest, conflict, four):
                v = _runs_only(T, rest & ~g)
                if v < best:
                    best, best_g = v, g
            groups |= best_g
    rest = h & ~groups
    n = 0
    for suit in range(4):
        row = RUNS[rest >> (13 * suit) & _SUIT]
        for j in range(len(row)):
            if row[j] == 0:
                break
            melds[n] = row[j] << (13 * suit)
            n += 1
    while groups:
        low = groups & -groups
        grp = groups & _RANK_BITS << (_low_index(low) % 13)
        melds[n] = grp
        n += 1
        groups &= ~grp
    return n, _runs_only(T, rest)


@_jit
def _layoff_choices(defender: int, meld: int, room_max: int, out: np.ndarray) -> int:
    """``layoff.layoff_choices`` into ``out`` (0 first); how many."""
    n = _count(meld)
    low = _low_index(meld)
    rank_cards = _RANK_BITS << (low % 13)
    out[0] = 0
    if meld & rank_cards == meld:
        fourth = rank_cards & ~meld & defender
        if n == 3 and fourth:
            out[1] = fourth
            return 2
        return 1
    lowest = low - low % 13
    highest = lowest + 12
    room = room_max - n if room_max >= 0 else 13
    k = 1
    nb_below = 0
    c = low - 1
    ext = 0
    while c >= lowest and defender >> c & 1 and nb_below < room:
        ext |= 1 << c
        out[k] = ext
        k += 1
        nb_below += 1
        c -= 1
    nb_above = 0
    c = low + n
    ext = 0
    while c <= highest and defender >> c & 1 and nb_above < room:
        ext |= 1 << c
        out[k] = ext
        k += 1
        nb_above += 1
        c += 1
    for i in range(nb_below):
        for j in range(nb_above):
            both = out[1 + i] | out[1 + nb_below + j]
            if _count(both) <= room:
                out[k] = both
                k += 1
    return k


@_jit
def _attach(melds: np.ndarray, n: int) -> int:
    """``layoff.attach_mask``."""
    out = 0
    for i in range(n):
        meld = melds[i]
        k = _count(meld)
        low = _low_index(meld)
        rank_cards = _RANK_BITS << (low % 13)
        if meld & rank_cards == meld:
            if k == 3:
                out |= rank_cards & ~meld
            continue
        if low % 13:
            out |= 1 << (low - 1)
        high = low + k - 1
        if high % 13 != 12:
            out |= 1 << (high + 1)
    return out


@_jit
def _best_layoff(
    T: np.ndarray,
    RN: np.ndarray,
    DELTA: np.ndarray,
    defender: int,
    melds: np.ndarray,
    n: int,
    room_max: int,
    before: int,
) -> tuple[int, int]:
    """``layoff.best_layoff``: the least deadwood after laying off and how many cards
    reach it (the fewest among the best: the one figure the hand log keeps)."""
    if not defender & _attach(melds, n):
        return before, 0
    combos = np.zeros(1, dtype=np.int64)
    choices = np.empty(64, dtype=np.int64)
    for i in range(n):
        k = _layoff_choices(defender, melds[i], room_max, choices)
        if k > 1:
            nxt = np.empty(len(combos) * k, dtype=np.int64)
            m = 0
            for x in combos:
                for j in range(k):
                    if not x & choices[j]:
                        nxt[m] = x | choices[j]
                        m += 1
            combos = nxt[:m]
    best = before
    best_n = 0
    for k in range(len(combos)):
        laid = int(combos[k])
        if laid:
            v = _deadwood(T, RN, DELTA, defender & ~laid)
            cnt = _count(laid)
            if v < best or (v == best and best_n and cnt < best_n):
                best, best_n = v, cnt
    return best, best_n


@_jit
def _takes(
    kinds: np.ndarray, chances: np.ndarray, state: np.ndarray, i: int, up: int, held: int, RR: np.ndarray
) -> bool:
    """``FastSeat.takes``."""
    if kinds[i] == RANDOM:
        return _random(state, i) < chances[i, 0]
    return _melds_with(up, held, RR)


@_jit
def _discard(
    kinds: np.ndarray,
    state: np.ndarray,
    i: int,
    held: int,
    drawn: int,
    from_pile: bool,
    no_back: bool,
    T: np.ndarray,
    RN: np.ndarray,
    P: np.ndarray,
    DELTA: np.ndarray,
) -> tuple[int, int]:
    """``FastSeat.discard`` and the deadwood after it: (card, deadwood)."""
    if kinds[i] == RANDOM:
        legal = held & ~(1 << drawn) if from_pile and no_back else held
        c = _pick_bit(state, i, legal)
        return c, _deadwood(T, RN, DELTA, held & ~(1 << c))
    legal = held & ~(1 << drawn) if from_pile else held
    dw, cards = _best_discard(T, RN, P, DELTA, held)
    cards &= legal
    if not cards:
        dw = _BIG
        q = legal
        while q:
            low = q & -q
            q ^= low
            v = _deadwood(T, RN, DELTA, held & ~low)
            if v < dw:
                dw = v
                cards = low
            elif v == dw:
                cards |= low
    if cards & (cards - 1) == 0:
        return _low_index(cards), dw
    return _pick_bit(state, i, cards), dw


@_jit
def _score(
    k: int, h0: int, h1: int, big: bool, mult: int, bonuses: np.ndarray, room_max: int, tables: tuple, row: np.ndarray
) -> None:
    """``fastplay._finish``: big gin, gin, or the showdown with lay-offs; the row's
    outcome, knocker, winner, points and deadwood fields."""
    T, RN, _, DELTA, _, RUNS = tables
    kh = h0 if k == 0 else h1
    dh = h1 if k == 0 else h0
    melds = np.empty(8, dtype=np.int64)
    n, kd = _best_melds(T, RN, RUNS, kh, melds)
    before = _deadwood(T, RN, DELTA, dh)
    row[2] = k  # knocker
    row[3] = k  # winner
    row[6] = before
    row[7] = before  # after
    row[8] = 0  # cards laid off
    if big:
        row[0] = C_BIG_GIN
        row[4] = (bonuses[0] + before) * mult
        row[5] = 0
        return
    row[5] = kd
    if kd == 0:
        row[0] = C_GIN
        row[4] = (bonuses[1] + before) * mult
        return
    after, laid = _best_layoff(T, RN, DELTA, dh, melds, n, room_max, before)
    row[7] = after
    row[8] = laid
    if kd < after:
        row[0] = C_KNOCK
        row[4] = (after - kd) * mult
    elif kd == after and not bonuses[3]:
        row[0] = C_KNOCK
        row[3] = -1
        row[4] = 0
    else:
        row[0] = C_UNDERCUT
        row[3] = 1 - k
        row[4] = (kd - after + bonuses[2]) * mult


@_jit
def play_batch(
    decks: np.ndarray,
    dealers: np.ndarray,
    seeds0: np.ndarray,
    seeds1: np.ndarray,
    kinds: np.ndarray,
    knock_at: np.ndarray,
    chances: np.ndarray,
    limits: np.ndarray,
    mults: np.ndarray,
    flags: np.ndarray,
    bonuses: np.ndarray,
    tables: tuple,
    out: np.ndarray,
) -> None:
    """``fastplay.fast_rows`` for each hand: ``fastplay.ROW_FIELDS`` into ``out``.
    ``flags``: big gin on, discarding a taken upcard barred, max_run_length (-1: none);
    ``bonuses``: big gin, gin, undercut, undercut on a tie (0/1)."""
    T, RN, P, DELTA, RR, _ = tables
    big_gin = flags[0] != 0
    no_back = flags[1] != 0
    room_max = flags[2]
    state = np.zeros(2, dtype=np.uint64)
    for n in range(len(decks)):
        deck = decks[n]
        dealer = dealers[n]
        state[0] = seeds0[n]
        state[1] = seeds1[n]
        nd = 1 - dealer
        h_nd = 0
        h_d = 0
        for i in range(0, 20, 2):
            h_nd |= 1 << deck[i]
            h_d |= 1 << deck[i + 1]
        h0 = h_nd if nd == 0 else h_d
        h1 = h_d if nd == 0 else h_nd
        up = deck[20]
        limit = limits[up]
        mult = mults[up]
        next_stock = 21
        turn = 1
        seat = nd
        from_pile = True
        if _takes(kinds, chances, state, nd, up, h_nd, RR):
            pass
        elif _takes(kinds, chances, state, dealer, up, h_d, RR):
            seat = dealer
        else:
            from_pile = False
            up = deck[21]
            next_stock = 22
        drawn = up
        if seat == 0:
            h0 |= 1 << up
        else:
            h1 |= 1 << up
        end = DRAWN
        while True:
            held = h0 if seat == 0 else h1
            if big_gin and _deadwood(T, RN, DELTA, held) == 0:
                end = BIG
                break
            c, dw = _discard(kinds, state, seat, held, drawn, from_pile, no_back, T, RN, P, DELTA)
            knock = False
            if dw <= limit:
                if kinds[seat] == RANDOM:
                    knock = _random(state, seat) < chances[seat, 1]
                else:
                    knock = dw <= knock_at[seat]
            if seat == 0:
                h0 = held & ~(1 << c)
            else:
                h1 = held & ~(1 << c)
            if knock:
                end = KNOCK
                break
            if next_stock >= 50 or turn >= MAX_TURNS:
                break
            seat = 1 - seat
            turn += 1
            if _takes(kinds, chances, state, seat, c, h0 if seat == 0 else h1, RR):
                drawn = c
                from_pile = True
            else:
                drawn = deck[next_stock]
                next_stock += 1
                from_pile = False
            if seat == 0:
                h0 |= 1 << drawn
            else:
                h1 |= 1 << drawn
        row = out[n]
        row[1] = dealer
        if end == DRAWN:
            row[0] = C_DRAWN
            row[2] = -1
            row[3] = -1
            row[4:9] = 0
        else:
            _score(seat, h0, h1, end == BIG, mult, bonuses, room_max, tables, row)
        row[9] = turn
        row[10] = 52 - next_stock
        row[11] = -1
