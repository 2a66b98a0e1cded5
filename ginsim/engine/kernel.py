"""The rulebook's arithmetic, written once: melds, discards, lay-offs, the score, the
built-in policies and the fast turn loop, over ints and flat tables.

Every rule the engine computes lives here, as plain functions of ints (cards, 52-bit
masks, 13-bit suit patterns) and flat integer tables (``MeldTables``' arrays, built once
in ``melds``). The general engine (``hand``), the fast path (``fastplay``), the play-outs
(``playout``) and the terminal's score lines call these functions; nothing else holds a
copy of a rule.

One source, two compilers:

- mypyc compiles this module with the other hot modules (``_native.HOT``); tables are
  tuples and buffers lists, and every value is a short int (below 2**62).
- numba compiles the same functions from this file's source when it is installed
  (``fastjit`` loads the source a second time and jits each function); tables and
  buffers are then int64 arrays.

So the code keeps to what both compile alike: ints, floats, bools, tuples of them, lists
of ints, arrays or tuples indexed by int, and no method of ``int`` (no ``bit_count``, no
``bit_length``): ``count`` and ``low_index`` do those. Every intermediate value stays
below 2**62, so no product ever needs more than 64 bits: splitmix64 runs on 32-bit
halves, its products taken in 16-bit pieces (``_mul``).

Outcome codes are indices in ``hand.OUTCOMES`` (checked there at import).
"""

from __future__ import annotations

from typing import Final, NamedTuple

KNOCK: Final = 0
UNDERCUT: Final = 1
GIN: Final = 2
BIG_GIN: Final = 3
DRAWN: Final = 4
FORFEIT: Final = 5

SIMPLE: Final = 0
"""The policy kind of ``simple`` and ``threshold`` (``policy.FastPolicy``): take a melding
upcard, discard to least deadwood (ties at random), knock at deadwood <= ``knock_at``."""
RANDOM: Final = 1
"""The policy kind of ``random``: take with ``take_chance``, a uniform legal discard, knock
with ``knock_chance``."""

MAX_TURNS: Final = 500
"""A hand where the stock stops shrinking because both players keep taking each other's
discards could go on forever; at this many turns it ends as a draw. Ordinary hands end
within about 60 turns, so the cap never touches them."""

FORFEIT_DEADWOOD: Final = 100
"""A forfeited hand scores for the opponent as a gin against this much deadwood (no ten
cards count more: ten cards of at most 10 each), with the rules' largest bonus and the
hand's multiplier, so forfeiting never scores better than any legal end of the hand
(docs/METRICS.md)."""

ROW_WIDTH: Final = 19
"""Ints per hand written by ``play_rows``: the hand log's twelve fields (``fastplay.ROW_FIELDS``),
then the two final hands, the cards laid off and the knocker's melds (up to four, 0 after
the last)."""

LAYOFF_ROOM: Final = 67
"""Scratch ints ``layoff_search`` needs per knocker meld (beyond the melds themselves)."""
SCRATCH: Final = 4 + 4 * LAYOFF_ROOM
"""Scratch ints ``play_hand`` needs: a ten-card knocker shows at most three melds (room
for four), each with ``LAYOFF_ROOM`` for the lay-off search."""

# The meld tables, one flat array ``TB`` (``MeldTables.flat``), indexed by 13-bit suit
# patterns p: at 0 the least run-only deadwood of p; at _RN its cards that lie in a stretch
# of three or more (so may join a run); at _P its run deadwood (bits 0-7), the most one
# removal saves offset by 1024 (8-18) and that removal's cards (19-31), one lookup a suit;
# at _DELTA + 8192 r the run deadwood saved when p's rank-r card leaves it; at _COVER + 4p
# the runs of p's least cover (up to four, 0 after the last).
_RN: Final = 8192
_P: Final = 2 * 8192
_DELTA: Final = 3 * 8192
_COVER: Final = 16 * 8192
TABLES_SIZE: Final = 20 * 8192

_SUIT: Final = 8191
_RANK_BITS: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
_BIG: Final = 1 << 30
_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
_GOLDEN_HI: Final = 0x9E3779B9  # splitmix64's constants, as 32-bit halves
_GOLDEN_LO: Final = 0x7F4A7C15
_C1_HI: Final = 0xBF58476D
_C1_LO: Final = 0x1CE4E5B9
_C2_HI: Final = 0x94D049BB
_C2_LO: Final = 0x133111EB
_UNIT: Final = 1.0 / 9007199254740992.0  # 2**-53


class RuleFacts(NamedTuple):
    """What the rules decide for a hand, read once from a ``Rules`` (``rules.rule_facts``):
    the knock limit and score multiplier of each possible first upcard (R14, R29, R30)
    and the scoring and discard rules as plain numbers."""

    limits: tuple[int, ...]
    mults: tuple[int, ...]
    big_gin: bool
    big_gin_bonus: int
    gin_bonus: int
    undercut_bonus: int
    undercut_on_tie: bool
    no_back: bool
    max_run: int  # max_run_length, -1 for none


# -- bits ----------------------------------------------------------------------------


def count(m: int) -> int:
    """How many cards the mask ``m`` holds."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def low_index(m: int) -> int:
    """The index of the lowest set bit of a non-zero mask (the lowest card), by halving."""
    n = 0
    if not m & _M32:
        n = 32
        m >>= 32
    if not m & _M16:
        n += 16
        m >>= 16
    if not m & 255:
        n += 8
        m >>= 8
    if not m & 15:
        n += 4
        m >>= 4
    if not m & 3:
        n += 2
        m >>= 2
    return n + 1 - (m & 1)


def melds_with(card: int, hand: int) -> bool:
    """Whether ``card`` added to ``hand`` lies in some meld of the result (a group of 3+
    or a run of 3+, R04-R05)."""
    h = hand | 1 << card
    rank = card % 13
    x = h >> rank
    if (x & 1) + (x >> 13 & 1) + (x >> 26 & 1) + (x >> 39 & 1) >= 3:
        return True
    p = h >> (card - rank) & _SUIT
    three = p & (p >> 1) & (p >> 2)
    return (three | three << 1 | three << 2) >> rank & 1 != 0


# -- splitmix64 on 32-bit halves (``SeededRandom``'s stream) ---------------------------


def _mul(xh: int, xl: int, ch: int, cl: int) -> tuple[int, int]:
    """The low 64 bits of x * c for 64-bit x and c given as 32-bit halves, as halves,
    multiplied in 16-bit pieces so that no product passes 2**62."""
    x0 = xl & _M16
    x1 = xl >> 16
    x2 = xh & _M16
    x3 = xh >> 16
    c0 = cl & _M16
    c1 = cl >> 16
    c2 = ch & _M16
    c3 = ch >> 16
    t1 = x0 * c1 + x1 * c0
    low = x0 * c0 + ((t1 & _M16) << 16)
    t3 = x0 * c3 + x1 * c2 + x2 * c1 + x3 * c0
    high = (low >> 32) + (t1 >> 16) + x0 * c2 + x1 * c1 + x2 * c0 + ((t3 & _M16) << 16)
    return high & _M32, low & _M32


def mix64(hi: int, lo: int) -> tuple[int, int]:
    """splitmix64's finaliser of the 64-bit value ``hi:lo``, as halves."""
    hi, lo = _mul(hi ^ (hi >> 30), lo ^ (((hi << 2) & _M32) | (lo >> 30)), _C1_HI, _C1_LO)
    hi, lo = _mul(hi ^ (hi >> 27), lo ^ (((hi << 5) & _M32) | (lo >> 27)), _C2_HI, _C2_LO)
    return hi ^ (hi >> 31), lo ^ (((hi << 1) & _M32) | (lo >> 31))


def next64(st: list[int], i: int) -> tuple[int, int]:
    """Advance stream ``i`` of ``st`` (its state's halves at ``st[2i]``, ``st[2i+1]``) and
    return its next 64-bit output as halves."""
    lo = st[2 * i + 1] + _GOLDEN_LO
    hi = (st[2 * i] + _GOLDEN_HI + (lo >> 32)) & _M32
    lo &= _M32
    st[2 * i] = hi
    st[2 * i + 1] = lo
    return mix64(hi, lo)


def rand_float(st: list[int], i: int) -> float:
    """``SeededRandom.random()``: a uniform float in [0, 1) from stream ``i``."""
    zh, zl = next64(st, i)
    return ((zh << 21) | (zl >> 11)) * _UNIT


def below(st: list[int], i: int, k: int) -> int:
    """``SeededRandom.below(k)``: (z * k) >> 64 for the next output z, 0 < k < 2**16."""
    zh, zl = next64(st, i)
    low = (zl & _M16) * k + (((zl >> 16) * k) << 16)
    return ((zh & _M16) * k + (((zh >> 16) * k) << 16) + (low >> 32)) >> 32


def pick_bit(st: list[int], i: int, mask: int) -> int:
    """``SeededRandom.pick_bit``: one card of ``mask``, uniformly, with one draw."""
    n = below(st, i, count(mask))
    for _ in range(n):
        mask &= mask - 1
    return low_index(mask)


# -- melds and deadwood (R04-R07) -------------------------------------------------------


def runs(TB: tuple[int, ...], a: int, b: int, c: int, d: int) -> tuple[int, int, int]:
    """Suit patterns a..d finished with runs only: their run deadwood, the most one
    discard saves and the discards that save it (the packed table: one lookup a suit)."""
    pa = TB[_P + a]
    pb = TB[_P + b]
    pc = TB[_P + c]
    pd = TB[_P + d]
    ga = (pa >> 8 & 2047) - 1024
    gb = (pb >> 8 & 2047) - 1024
    gc = (pc >> 8 & 2047) - 1024
    gd = (pd >> 8 & 2047) - 1024
    top = ga
    if gb > top:
        top = gb
    if gc > top:
        top = gc
    if gd > top:
        top = gd
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


def runs_only(TB: tuple[int, ...], h: int) -> int:
    """Least deadwood of a hand using runs only."""
    return TB[h & _SUIT] + TB[h >> 13 & _SUIT] + TB[h >> 26 & _SUIT] + TB[h >> 39]


def group_count(ranks: int, four: int) -> int:
    """How many choices of groups there are among ``ranks`` (bits): per rank none or all
    its cards, and for ranks in ``four`` each three of its four as well."""
    n = 1
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        n *= 6 if four & low else 2
    return n


def group_choice(rest: int, ranks: int, four: int, k: int, total: int) -> int:
    """The ``k``-th of the ``total`` choices of groups among ``ranks`` of ``rest`` (the
    cards grouped), lowest rank most significant: per rank none, all its cards, then
    without its lowest card, its second lowest, ... Computed, not listed."""
    x = 0
    div = total
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        m = 6 if four & low else 2
        div //= m
        opt = (k // div) % m
        if opt:
            g = rest & _RANK_BITS << low_index(low)
            if opt == 1:
                x |= g
            else:
                q = g
                for _ in range(opt - 2):
                    q &= q - 1
                x |= g ^ (q & -q)
    return x


def deadwood(TB: tuple[int, ...], h: int) -> int:
    """Least deadwood of a hand mask (R07)."""
    a = h & _SUIT
    b = h >> 13 & _SUIT
    c = h >> 26 & _SUIT
    d = h >> 39
    t3 = (a & b | c & d) & (a | b) & (c | d)  # ranks with 3+ cards
    if not t3:
        return TB[a] + TB[b] + TB[c] + TB[d]
    if t3 & (t3 - 1):
        # several such ranks: a group no run could use is simply kept whole
        free = t3 & ~(TB[_RN + a] | TB[_RN + b] | TB[_RN + c] | TB[_RN + d])
        if free:
            keep = ~free
            a &= keep
            b &= keep
            c &= keep
            d &= keep
            t3 ^= free
            if not t3:
                return TB[a] + TB[b] + TB[c] + TB[d]
        if t3 & (t3 - 1):
            rest = a | b << 13 | c << 26 | d << 39
            four = a & b & c & d
            total = group_count(t3, four)
            best = _BIG
            for k in range(total):
                v = runs_only(TB, rest & ~group_choice(rest, t3, four, k, total))
                if v < best:
                    best = v
            return best
    # one rank with 3+ cards: the savings of moving each card into the group add up
    base = _DELTA + 8192 * low_index(t3)
    da = TB[base + a]
    db = TB[base + b]
    dc = TB[base + c]
    dd = TB[base + d]
    save = da + db + dc + dd
    if a & b & c & d & t3:
        low = min(da, db, dc, dd)
        if low < 0:
            save -= low  # a group of three, leaving the card a run needs
    return TB[a] + TB[b] + TB[c] + TB[d] - (save if save > 0 else 0)


def _one_rank(TB: tuple[int, ...], a: int, b: int, c: int, d: int, bit: int) -> tuple[int, int]:
    """The best discard when one rank (``bit``) holds 3+ cards a run could use: its cards
    out of a group, in a group, and (with four) each group of three."""
    keep = ~bit
    aq = a & keep
    bq = b & keep
    cq = c & keep
    dq = d & keep
    total, top, cards = runs(TB, a, b, c, d)
    best = total - top
    total, top, m = runs(TB, aq, bq, cq, dq)
    v = total - top
    if v < best:
        best, cards = v, m
    elif v == best:
        cards |= m
    if a & b & c & d & bit:
        for i in range(4):
            total, top, m = runs(TB, a if i == 0 else aq, b if i == 1 else bq, c if i == 2 else cq, d if i == 3 else dq)
            v = total - top
            if v < best:
                best, cards = v, m
            elif v == best:
                cards |= m
    return best, cards


def _group_discard(TB: tuple[int, ...], a: int, b: int, c: int, d: int, ranks: int) -> tuple[int, int]:
    """The best discard over every choice of groups among the ranks that hold 3+ cards a
    run could use (each rank's cards out of a group, in one, or with four each group of
    three); the union of the discards reaching it."""
    rest = a | b << 13 | c << 26 | d << 39
    best = _BIG
    best_cards = 0
    four = a & b & c & d
    choices = group_count(ranks, four)
    for k in range(choices):
        r = rest & ~group_choice(rest, ranks, four, k, choices)
        total, top, cards = runs(TB, r & _SUIT, r >> 13 & _SUIT, r >> 26 & _SUIT, r >> 39)
        v = total - top
        if v < best:
            best, best_cards = v, cards
        elif v == best:
            best_cards |= cards
    return best, best_cards


def best_discard(TB: tuple[int, ...], h: int) -> tuple[int, int]:
    """For a hand that must discard one card: the least deadwood after the discard and
    the mask of every discard that reaches it."""
    a = h & _SUIT
    b = h >> 13 & _SUIT
    c = h >> 26 & _SUIT
    d = h >> 39
    t3 = (a & b | c & d) & (a | b) & (c | d)  # ranks with 3+ cards
    if not t3:
        total, top, cards = runs(TB, a, b, c, d)
        return total - top, cards
    # Groups no run could use ("free") are kept whole: the best discard is then from the
    # rest, or a card of a free group (from four at no cost, from three leaving two
    # deadwood cards of its value).
    free = t3 & ~(TB[_RN + a] | TB[_RN + b] | TB[_RN + c] | TB[_RN + d])
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
            r = low_index(low)
            penalty = 2 * (r + 1 if r < 9 else 10)
            ranks = free & (low if r < 9 else 0x1E00)  # the ranks of the same value
    group = h & (ranks | ranks << 13 | ranks << 26 | ranks << 39)
    if not conflict:
        total, top, cards = runs(TB, a, b, c, d)
        if penalty > -top:
            return total - top, cards
        if penalty < -top:
            return total + penalty, group
        return total - top, cards | group
    if conflict & (conflict - 1):
        best, cards = _group_discard(TB, a, b, c, d, conflict)
    else:
        best, cards = _one_rank(TB, a, b, c, d, conflict)
    if not free:
        return best, cards
    w = deadwood(TB, a | b << 13 | c << 26 | d << 39) + penalty
    if w < best:
        return w, group
    if w == best:
        cards |= group
    return best, cards


def least_discards(TB: tuple[int, ...], held: int, legal: int) -> tuple[int, int]:
    """Among the discards ``legal`` from ``held``, one by one: the least deadwood after
    the discard and every discard that reaches it (for when ``best_discard``'s are barred)."""
    best = _BIG
    cards = 0
    q = legal
    while q:
        low = q & -q
        q ^= low
        v = deadwood(TB, held & ~low)
        if v < best:
            best, cards = v, low
        elif v == best:
            cards |= low
    return best, cards


def best_melds(TB: tuple[int, ...], h: int, buf: list[int], o: int) -> tuple[int, int]:
    """A least-deadwood arrangement of ``h``: its melds (masks) into ``buf[o:o+n]`` (room
    for 18), and (n, its deadwood). Deterministic: a group no run could use is kept whole;
    among the other choices of groups the first of least run deadwood (``group_choice``'s
    order); then each suit's runs (its pattern's least cover), then the groups by their
    lowest card."""
    a = h & _SUIT
    b = h >> 13 & _SUIT
    c = h >> 26 & _SUIT
    d = h >> 39
    t3 = (a & b | c & d) & (a | b) & (c | d)
    groups = 0
    if t3:
        free = t3 & ~(TB[_RN + a] | TB[_RN + b] | TB[_RN + c] | TB[_RN + d])
        groups = h & (free | free << 13 | free << 26 | free << 39)
        conflict = t3 & ~free
        if conflict:
            rest = h & ~groups
            four = (rest & _SUIT) & (rest >> 13 & _SUIT) & (rest >> 26 & _SUIT) & (rest >> 39)
            total = group_count(conflict, four)
            best = _BIG
            best_g = 0
            for k in range(total):
                g = group_choice(rest, conflict, four, k, total)
                v = runs_only(TB, rest & ~g)
                if v < best:
                    best, best_g = v, g
            groups |= best_g
    rest = h & ~groups
    n = 0
    for suit in range(4):
        base = 4 * (rest >> (13 * suit) & _SUIT)
        for j in range(4):
            run = TB[_COVER + base + j]
            if run == 0:
                break
            buf[o + n] = run << (13 * suit)
            n += 1
    while groups:
        grp = groups & _RANK_BITS << (low_index(groups) % 13)
        buf[o + n] = grp
        n += 1
        groups &= ~grp
    return n, runs_only(TB, rest)


# -- lay-offs (R17) -------------------------------------------------------------------


def layoff_choices(defender: int, meld: int, max_run: int, buf: list[int], o: int) -> int:
    """The sets of the defender's cards that can be laid off on one knocker meld, into
    ``buf[o:]`` (0 first; room for 64); how many. The fourth card of a group of three,
    and stretches that extend a run at either end (a chain: after 9S goes on 6S-7S-8S, TS
    may follow) within ``max_run`` (-1: no limit)."""
    n = count(meld)
    low = low_index(meld)
    rank_cards = _RANK_BITS << (low % 13)
    buf[o] = 0
    k = 1
    if meld & rank_cards == meld:  # a group
        fourth = rank_cards & ~meld & defender
        if n == 3 and fourth:
            buf[o + 1] = fourth
            k = 2
        return k
    lowest = low - low % 13
    room = max_run - n if max_run >= 0 else 13
    below_n = 0
    c = low - 1
    ext = 0
    while c >= lowest and defender >> c & 1 and below_n < room:
        ext |= 1 << c
        buf[o + k] = ext
        k += 1
        below_n += 1
        c -= 1
    above_n = 0
    c = low + n
    ext = 0
    while c <= lowest + 12 and defender >> c & 1 and above_n < room:
        ext |= 1 << c
        buf[o + k] = ext
        k += 1
        above_n += 1
        c += 1
    for i in range(below_n):
        for j in range(above_n):
            both = buf[o + 1 + i] | buf[o + 1 + below_n + j]
            if count(both) <= room:
                buf[o + k] = both
                k += 1
    return k


def attach_cards(buf: list[int], mo: int, nm: int) -> int:
    """Cards that could start a lay-off on the melds ``buf[mo:mo+nm]``: the missing card
    of each group of three and the card just past each end of each run. No lay-off is
    possible without one of them."""
    out = 0
    for i in range(nm):
        meld = buf[mo + i]
        n = count(meld)
        low = low_index(meld)
        rank_cards = _RANK_BITS << (low % 13)
        if meld & rank_cards == meld:
            if n == 3:
                out |= rank_cards & ~meld
            continue
        if low % 13:
            out |= 1 << (low - 1)
        high = low + n - 1
        if high % 13 != 12:
            out |= 1 << (high + 1)
    return out


def layoff_search(
    TB: tuple[int, ...],
    defender: int,
    buf: list[int],
    mo: int,
    nm: int,
    max_run: int,
    before: int,
    target: int,
) -> tuple[int, int]:
    """Every set of the defender's cards that can be laid off at once on the knocker's
    melds ``buf[mo:mo+nm]`` (each meld takes one of its ``layoff_choices``, no card
    twice), walked in order (the first meld's choice most significant), with scratch
    ``buf[mo+nm:]`` (``LAYOFF_ROOM`` ints a meld).

    With ``target`` < 0, the defender's best lay-off: the least deadwood after laying off
    and the cards laid off to reach it (ties: the fewest cards, then the first met;
    ``before``: the deadwood with none). Otherwise: (1, 0) when exactly the cards
    ``target`` can be laid off, else (0, 0)."""
    if target < 0 and not defender & attach_cards(buf, mo, nm):
        return before, 0  # no card could start a lay-off
    w = mo + nm  # choices of level i at w + 64 i; their count, index and union so far after
    cnt = w + 64 * nm
    idx = cnt + nm
    acc = idx + nm
    levels = 0
    for i in range(nm):
        k = layoff_choices(defender, buf[mo + i], max_run, buf, w + 64 * levels)
        if k > 1:
            buf[cnt + levels] = k
            levels += 1
    if levels == 0:
        return (1 if target == 0 else 0, 0) if target >= 0 else (before, 0)
    best = before
    best_cards = 0
    best_n = 0
    level = 0
    buf[idx] = 0
    buf[acc] = 0
    while True:
        j = buf[idx + level]
        if j == buf[cnt + level]:  # this level's choices are done
            if level == 0:
                break
            level -= 1
            buf[idx + level] += 1
            continue
        ch = buf[w + 64 * level + j]
        x = buf[acc + level]
        if x & ch:
            buf[idx + level] = j + 1
            continue
        laid = x | ch
        if level + 1 < levels:
            level += 1
            buf[idx + level] = 0
            buf[acc + level] = laid
            continue
        buf[idx + level] = j + 1
        if target >= 0:
            if laid == target:
                return 1, 0
        elif laid:
            v = deadwood(TB, defender & ~laid)
            n = count(laid)
            if v < best or (v == best and best_n and n < best_n):
                best, best_cards, best_n = v, laid, n
    return (0, 0) if target >= 0 else (best, best_cards)


# -- the score (R15, R18-R22, R28, R30) --------------------------------------------------


def score(facts: RuleFacts, k: int, kd: int, before: int, after: int, big: bool, mult: int) -> tuple[int, int, int]:
    """A showdown's outcome code, winner and points: seat ``k`` knocked with deadwood
    ``kd`` (or went big gin), the defender's deadwood ``before`` and ``after`` its
    lay-offs, the hand's multiplier ``mult``. Gin and big gin take no lay-offs and are
    never undercut; a tie is an undercut unless the rules say otherwise (R28)."""
    if big:
        return BIG_GIN, k, (facts.big_gin_bonus + before) * mult
    if kd == 0:
        return GIN, k, (facts.gin_bonus + before) * mult
    if kd < after:
        return KNOCK, k, (after - kd) * mult
    if kd == after and not facts.undercut_on_tie:
        return KNOCK, -1, 0
    return UNDERCUT, 1 - k, (kd - after + facts.undercut_bonus) * mult


def showdown(
    facts: RuleFacts,
    TB: tuple[int, ...],
    k: int,
    kd: int,
    defender: int,
    buf: list[int],
    mo: int,
    nm: int,
    before: int,
    mult: int,
) -> tuple[int, int, int, int, int]:
    """Seat ``k`` knocked with deadwood ``kd`` on the melds ``buf[mo:mo+nm]`` (scratch
    after them, as ``layoff_search`` takes it): the defender lays off optimally, never
    after gin (R18), and the hand is scored. (code, winner, points, the defender's
    deadwood after its lay-offs, the cards laid off)."""
    after = before
    laid = 0
    if kd > 0:
        after, laid = layoff_search(TB, defender, buf, mo, nm, facts.max_run, before, -1)
    code, winner, points = score(facts, k, kd, before, after, False, mult)
    return code, winner, points, after, laid


def forfeit_points(facts: RuleFacts, mult: int) -> int:
    """What the opponent of a forfeiting seat scores (R25, R26): a gin against
    ``FORFEIT_DEADWOOD`` with the largest of the rules' bonuses, times the hand's
    multiplier (R30). No legal showdown scores more."""
    bonus = max(facts.gin_bonus, facts.undercut_bonus, facts.big_gin_bonus)
    return (bonus + FORFEIT_DEADWOOD) * mult


# -- the built-in policies (ginsim.engine.policy) ----------------------------------------


def policy_takes(kinds: list[int], chances: list[float], st: list[int], seat: int, up: int, held: int) -> bool:
    """Whether ``seat``'s policy takes the upcard ``up`` into ``held``."""
    if kinds[seat] == RANDOM:
        return rand_float(st, seat) < chances[2 * seat]
    return melds_with(up, held)


def policy_discard(
    TB: tuple[int, ...],
    kinds: list[int],
    st: list[int],
    seat: int,
    held: int,
    drawn: int,
    from_pile: bool,
    no_back: bool,
) -> tuple[int, int]:
    """The card ``seat``'s policy discards from its 11 cards ``held``, and the deadwood
    after it. ``simple`` never throws back an upcard it just took, whatever the rules
    allow, and breaks ties among its least-deadwood discards at random."""
    if kinds[seat] == RANDOM:
        legal = held & ~(1 << drawn) if from_pile and no_back else held
        c = pick_bit(st, seat, legal)
        return c, deadwood(TB, held & ~(1 << c))
    legal = held & ~(1 << drawn) if from_pile else held
    dw, cards = best_discard(TB, held)
    cards &= legal
    if not cards:
        dw, cards = least_discards(TB, held, legal)
    if cards & (cards - 1) == 0:
        return low_index(cards), dw
    return pick_bit(st, seat, cards), dw


def policy_knocks(
    kinds: list[int], knock_at: list[int], chances: list[float], st: list[int], seat: int, dw: int
) -> bool:
    """Whether ``seat``'s policy knocks at deadwood ``dw`` (asked only when it may)."""
    if kinds[seat] == RANDOM:
        return rand_float(st, seat) < chances[2 * seat + 1]
    return dw <= knock_at[seat]


# -- the fast turn loop ------------------------------------------------------------------


def deal(decks: list[int], d0: int) -> tuple[int, int]:
    """R08: ten cards each, one at a time from the top of ``decks[d0:]``, the non-dealer
    first: (the non-dealer's hand, the dealer's). The 21st card is the upcard."""
    h_nd = 0
    h_d = 0
    for i in range(0, 20, 2):
        h_nd |= 1 << decks[d0 + i]
        h_d |= 1 << decks[d0 + i + 1]
    return h_nd, h_d


def stock_done(next_stock: int, turn: int) -> bool:
    """Whether a turn that ended without a knock ends the hand as a draw: the stock is
    down to two (R23: ``next_stock`` is the deck index of its top) or the hand has run
    ``MAX_TURNS`` turns."""
    return next_stock >= 50 or turn >= MAX_TURNS


def hand_end(
    facts: RuleFacts, TB: tuple[int, ...], k: int, big: bool, kh: int, dh: int, mult: int, scratch: list[int]
) -> tuple[int, int, int, int, int, int, int, int]:
    """The end of a hand that seat ``k`` (holding ``kh``) knocked or, with ``big``, went
    big gin on (R22), the defender holding ``dh``: the knocker shows ``best_melds`` (into
    ``scratch[0:nm]``, the lay-off search after them), the defender lays off optimally
    (none after gin or big gin) and the hand is scored (``showdown``, ``score``).
    (code, winner, points, the knocker's deadwood, the defender's before and after its
    lay-offs, the cards laid off, nm)."""
    nm, kd = best_melds(TB, kh, scratch, 0)
    before = deadwood(TB, dh)
    if big:
        code, winner, points = score(facts, k, 0, before, before, True, mult)
        return code, winner, points, 0, before, before, 0, nm
    code, winner, points, after, laid = showdown(facts, TB, k, kd, dh, scratch, 0, nm, before, mult)
    return code, winner, points, kd, before, after, laid, nm


def play_hand(
    facts: RuleFacts,
    TB: tuple[int, ...],
    kinds: list[int],
    knock_at: list[int],
    chances: list[float],
    decks: list[int],
    d0: int,
    dealer: int,
    st: list[int],
    out: list[int],
    o: int,
    scratch: list[int],
) -> None:
    """One hand of two built-in policies: the deck ``decks[d0:d0+52]`` (top first) dealt
    by ``dealer``, the seats' streams in ``st``; the ``ROW_WIDTH`` ints from ``out[o]``;
    ``scratch`` (``SCRATCH`` ints) for the showdown.

    The deal (R08), the first-turn offer (R09: non-dealer, then dealer; both pass: the
    non-dealer draws), draw or take (R10), discard and knock within the hand's limit
    (R11-R14), big gin right after a draw (R22), a draw at a stock of two (R23) or at
    ``MAX_TURNS``, then the showdown: the knocker shows ``best_melds``, the defender lays
    off and the hand is scored (``showdown``). Only the top of the discard pile matters
    to these policies: a card taken is replaced at once by a discard."""
    nd = 1 - dealer
    h_nd, h_d = deal(decks, d0)
    h0 = h_nd if nd == 0 else h_d
    h1 = h_d if nd == 0 else h_nd
    up = decks[d0 + 20]
    limit = facts.limits[up]
    mult = facts.mults[up]
    next_stock = 21
    turn = 1
    seat = nd
    from_pile = True
    if policy_takes(kinds, chances, st, nd, up, h_nd):
        pass
    elif policy_takes(kinds, chances, st, dealer, up, h_d):
        seat = dealer
    else:
        from_pile = False
        up = decks[d0 + 21]
        next_stock = 22
    drawn = up
    if seat == 0:
        h0 |= 1 << up
    else:
        h1 |= 1 << up
    end = DRAWN
    while True:
        held = h0 if seat == 0 else h1
        if facts.big_gin and deadwood(TB, held) == 0:
            end = BIG_GIN
            break
        c, dw = policy_discard(TB, kinds, st, seat, held, drawn, from_pile, facts.no_back)
        knock = dw <= limit and policy_knocks(kinds, knock_at, chances, st, seat, dw)
        if seat == 0:
            h0 = held & ~(1 << c)
        else:
            h1 = held & ~(1 << c)
        if knock:
            end = KNOCK
            break
        if stock_done(next_stock, turn):
            break
        seat = 1 - seat
        turn += 1
        if policy_takes(kinds, chances, st, seat, c, h0 if seat == 0 else h1):
            drawn = c
            from_pile = True
        else:
            drawn = decks[d0 + next_stock]
            next_stock += 1
            from_pile = False
        if seat == 0:
            h0 |= 1 << drawn
        else:
            h1 |= 1 << drawn
    code = DRAWN
    knocker = -1
    winner = -1
    points = 0
    kd = 0
    before = 0
    after = 0
    laid = 0
    for j in range(4):
        out[o + 15 + j] = 0
    if end != DRAWN:
        knocker = seat
        kh = h0 if seat == 0 else h1
        dh = h1 if seat == 0 else h0
        big = end == BIG_GIN
        code, winner, points, kd, before, after, laid, nm = hand_end(facts, TB, seat, big, kh, dh, mult, scratch)
        for j in range(nm):
            out[o + 15 + j] = scratch[j]
    out[o] = code
    out[o + 1] = dealer
    out[o + 2] = knocker
    out[o + 3] = winner
    out[o + 4] = points
    out[o + 5] = kd
    out[o + 6] = before
    out[o + 7] = after
    out[o + 8] = count(laid)
    out[o + 9] = turn
    out[o + 10] = 52 - next_stock
    out[o + 11] = -1  # forfeit_seat: these policies never forfeit
    out[o + 12] = h0
    out[o + 13] = h1
    out[o + 14] = laid


def play_rows(
    facts: RuleFacts,
    TB: tuple[int, ...],
    kinds: list[int],
    knock_at: list[int],
    chances: list[float],
    decks: list[int],
    dealers: list[int],
    seeds: list[int],
    out: list[int],
    scratch: list[int],
) -> None:
    """``play_hand`` over a batch: hand ``n`` is ``decks[52n:52n+52]`` dealt by
    ``dealers[n]``, the seats' streams seeded from ``seeds[4n:4n+4]`` (each seed as its
    high and low halves, seat 0 first); its row at ``out[ROW_WIDTH * n]``. ``scratch``
    holds the showdown's melds and lay-off search (``SCRATCH`` ints)."""
    st = [0, 0, 0, 0]
    for n in range(len(dealers)):
        st[0] = seeds[4 * n]
        st[1] = seeds[4 * n + 1]
        st[2] = seeds[4 * n + 2]
        st[3] = seeds[4 * n + 3]
        play_hand(
            facts, TB, kinds, knock_at, chances, decks, 52 * n, dealers[n], st, out, ROW_WIDTH * n,
            scratch,
        )  # fmt: skip


# -- tables stepped decision by decision (the vectorised environment) --------------------
#
# A batch of tables, each a learner's seat against a built-in policy, held in flat int
# arrays so that a whole batch steps in one call. ``TABLE_WIDTH`` ints a table in ``S``
# (the ``T_*`` offsets), its deck at ``decks[52 i:]``, its discard pile (bottom first) at
# ``piles[52 i:]``. The moves are the engine's (``hand.Hand``: the same deal, offer,
# draw, take, discard, knock, showdown and score); the opponent decides as ``play_hand``
# lets a policy decide; the learner's view (R13) is kept beside the hand: what the
# opponent took and still holds, passed on, discarded, and the card the learner drew.

TABLE_WIDTH: Final = 28
T_PHASE: Final = 0  # PH_*
T_MOVER: Final = 1  # the seat to move
T_DEALER: Final = 2
T_SEAT: Final = 3  # the learner's seat
T_H0: Final = 4  # seat 0's hand; seat 1's at T_H0 + 1
T_NEXT: Final = 6  # the deck index of the top of the stock
T_TURN: Final = 7
T_DRAWN: Final = 8  # the mover's card drawn or taken this turn, -1 for none
T_FROM_PILE: Final = 9  # 1 when it came from the pile
T_PASSES: Final = 10  # first-turn offers passed
T_LIMIT: Final = 11  # this hand's knock limit (R14, R29)
T_MULT: Final = 12  # this hand's score multiplier (R30)
T_PILE_N: Final = 13  # cards in the discard pile
T_PILE: Final = 14  # the discard pile as a mask
T_KNOWN: Final = 15  # the learner's view: cards the opponent took and still holds
T_PASSED: Final = 16  # ... upcards the opponent passed on or left on the pile
T_DISCARDS: Final = 17  # ... cards the opponent discarded
T_LDRAWN: Final = 18  # ... the card the learner drew this turn, -1 for none
T_LFROM: Final = 19  # ... 1 when it came from the pile
T_ST_HI: Final = 20  # the opponent's random stream (its state's halves)
T_ST_LO: Final = 21
T_CODE: Final = 22  # once over: the outcome code, the winner (-1: none), the points
T_WINNER: Final = 23
T_POINTS: Final = 24
T_DST_HI: Final = 25  # the table's dealing stream: each deal's seat, dealer, deck, seeds
T_DST_LO: Final = 26

PH_OFFER: Final = 0
PH_DRAW: Final = 1
PH_DISCARD: Final = 2
PH_OVER: Final = 3

ACT_KNOCK: Final = 52
"""Action ids (``ginsim.rl.encoding``): 0-51 discard, 52-103 discard and knock."""
ACT_TAKE: Final = 104
ACT_DRAW: Final = 105
ACT_PASS: Final = 106
ACT_BIG_GIN: Final = 107
N_ACTS: Final = 108

FEATURE_WIDTH: Final = 18
"""Ints a table written by ``table_features``: the learner's eight observation planes as
masks (hand, upcard, pile below it, opponent known, passed, discarded, unseen, drawn),
the phase it decides in (0 when not to move, 1 offer, 2 draw, 3 discard), to move, the
stock size, the knock limit, the turn, dealer, drawn from the pile; then its legal
actions: discards, knocks (masks) and bits for take, draw, pass and big gin."""
F_DISCARDS: Final = 15
F_KNOCKS: Final = 16
F_TAIL: Final = 17
_FULL: Final = (1 << 52) - 1


def table_deal(facts: RuleFacts, decks: list[int], S: list[int], piles: list[int], i: int) -> None:
    """Deal table ``i``'s hand from its deck (R08) to the first-turn offer (R09); its
    dealer, learner seat and the opponent's stream are set."""
    b = TABLE_WIDTH * i
    d0 = 52 * i
    dealer = S[b + T_DEALER]
    h_nd, h_d = deal(decks, d0)
    S[b + T_H0] = h_d if dealer == 0 else h_nd
    S[b + T_H0 + 1] = h_nd if dealer == 0 else h_d
    up = decks[d0 + 20]
    S[b + T_LIMIT] = facts.limits[up]
    S[b + T_MULT] = facts.mults[up]
    piles[d0] = up
    S[b + T_PILE_N] = 1
    S[b + T_PILE] = 1 << up
    S[b + T_NEXT] = 21
    S[b + T_TURN] = 1
    S[b + T_PHASE] = PH_OFFER
    S[b + T_MOVER] = 1 - dealer
    S[b + T_DRAWN] = -1
    S[b + T_LDRAWN] = -1
    for j in (T_FROM_PILE, T_PASSES, T_KNOWN, T_PASSED, T_DISCARDS, T_LFROM, T_POINTS):
        S[b + j] = 0
    S[b + T_CODE] = -1
    S[b + T_WINNER] = -1


def _table_over(S: list[int], b: int, code: int, winner: int, points: int) -> None:
    S[b + T_PHASE] = PH_OVER
    S[b + T_CODE] = code
    S[b + T_WINNER] = winner
    S[b + T_POINTS] = points


def table_move(
    facts: RuleFacts, TB: tuple[int, ...], decks: list[int], S: list[int], piles: list[int], i: int, a: int,
    scratch: list[int],
) -> None:  # fmt: skip
    """Table ``i``'s mover plays the legal action ``a``, as ``Hand`` plays it: take (R10),
    pass (R09: both pass and the non-dealer draws), draw, big gin (R22), discard (R11,
    R12) and knock, then the showdown with the knocker's ``best_melds`` and optimal
    lay-offs (R16-R21), or a draw at a stock of two or at ``MAX_TURNS`` (R23)."""
    b = TABLE_WIDTH * i
    p0 = 52 * i
    seat = S[b + T_MOVER]
    me = S[b + T_SEAT]
    n = S[b + T_PILE_N]
    if a == ACT_TAKE:
        card = piles[p0 + n - 1]
        bit = 1 << card
        S[b + T_PILE_N] = n - 1
        S[b + T_PILE] &= ~bit
        S[b + T_H0 + seat] |= bit
        S[b + T_DRAWN] = card
        S[b + T_FROM_PILE] = 1
        S[b + T_PHASE] = PH_DISCARD
        if seat == me:
            S[b + T_LDRAWN] = card
            S[b + T_LFROM] = 1
        else:
            S[b + T_KNOWN] |= bit
        return
    if a == ACT_PASS:
        if seat != me:
            S[b + T_PASSED] |= 1 << piles[p0 + n - 1]
        S[b + T_PASSES] += 1
        if S[b + T_PASSES] == 1:
            S[b + T_MOVER] = 1 - seat
            return
        seat = 1 - S[b + T_DEALER]  # both passed: the non-dealer draws
        S[b + T_MOVER] = seat
        a = ACT_DRAW
    if a == ACT_DRAW:
        if seat != me and n:
            S[b + T_PASSED] |= 1 << piles[p0 + n - 1]
        k = S[b + T_NEXT]
        card = decks[p0 + k]
        S[b + T_NEXT] = k + 1
        S[b + T_H0 + seat] |= 1 << card
        S[b + T_DRAWN] = card
        S[b + T_PHASE] = PH_DISCARD
        if seat == me:
            S[b + T_LDRAWN] = card
            S[b + T_LFROM] = 0
        return
    dh = S[b + T_H0 + 1 - seat]
    if a == ACT_BIG_GIN:
        kh = S[b + T_H0 + seat]
        code, winner, points, _, _, _, _, _ = hand_end(facts, TB, seat, True, kh, dh, S[b + T_MULT], scratch)
        _table_over(S, b, code, winner, points)
        return
    c = a - ACT_KNOCK if a >= ACT_KNOCK else a
    bit = 1 << c
    held = S[b + T_H0 + seat] & ~bit
    S[b + T_H0 + seat] = held
    piles[p0 + n] = c
    S[b + T_PILE_N] = n + 1
    S[b + T_PILE] |= bit
    if seat != me:
        S[b + T_DISCARDS] |= bit
        S[b + T_KNOWN] &= ~bit
    if a >= ACT_KNOCK:
        code, winner, points, _, _, _, _, _ = hand_end(facts, TB, seat, False, held, dh, S[b + T_MULT], scratch)
        _table_over(S, b, code, winner, points)
        return
    if stock_done(S[b + T_NEXT], S[b + T_TURN]):
        _table_over(S, b, DRAWN, -1, 0)
        return
    S[b + T_MOVER] = 1 - seat
    S[b + T_TURN] += 1
    S[b + T_PHASE] = PH_DRAW
    S[b + T_DRAWN] = -1
    S[b + T_FROM_PILE] = 0
    if seat == me:
        S[b + T_LDRAWN] = -1
        S[b + T_LFROM] = 0


def table_policy(
    facts: RuleFacts, TB: tuple[int, ...], kinds: list[int], knock_at: list[int], chances: list[float],
    st: list[int], S: list[int], piles: list[int], i: int,
) -> int:  # fmt: skip
    """The action of table ``i``'s mover by the built-in policy (stream ``st``), as
    ``play_hand`` plays it: big gin when all eleven cards meld and the rules have it, the
    policy's discard and knock, or take, pass or draw."""
    b = TABLE_WIDTH * i
    seat = S[b + T_MOVER]
    held = S[b + T_H0 + seat]
    phase = S[b + T_PHASE]
    if phase == PH_DISCARD:
        if facts.big_gin and deadwood(TB, held) == 0:
            return ACT_BIG_GIN
        from_pile = S[b + T_FROM_PILE] != 0
        c, dw = policy_discard(TB, kinds, st, seat, held, S[b + T_DRAWN], from_pile, facts.no_back)
        if dw <= S[b + T_LIMIT] and policy_knocks(kinds, knock_at, chances, st, seat, dw):
            return ACT_KNOCK + c
        return c
    n = S[b + T_PILE_N]
    if n and policy_takes(kinds, chances, st, seat, piles[52 * i + n - 1], held):
        return ACT_TAKE
    return ACT_PASS if phase == PH_OFFER else ACT_DRAW


def table_features(facts: RuleFacts, TB: tuple[int, ...], S: list[int], piles: list[int], i: int, F: list[int]) -> None:
    """Table ``i`` as its learner sees it (``FEATURE_WIDTH`` ints at ``F[FEATURE_WIDTH
    i]``): the view's planes and scalars and, when the learner is to move, its legal
    actions (the engine's: R12's barred discard, a knock only within the limit, R22)."""
    b = TABLE_WIDTH * i
    f = FEATURE_WIDTH * i
    me = S[b + T_SEAT]
    hand = S[b + T_H0 + me]
    n = S[b + T_PILE_N]
    up = 1 << piles[52 * i + n - 1] if n else 0
    pile = S[b + T_PILE]
    known = S[b + T_KNOWN]
    drawn = S[b + T_LDRAWN]
    phase = S[b + T_PHASE]
    moving = phase != PH_OVER and S[b + T_MOVER] == me
    F[f] = hand
    F[f + 1] = up
    F[f + 2] = pile & ~up
    F[f + 3] = known
    F[f + 4] = S[b + T_PASSED]
    F[f + 5] = S[b + T_DISCARDS]
    F[f + 6] = _FULL & ~hand & ~pile & ~known
    F[f + 7] = 1 << drawn if drawn >= 0 else 0
    F[f + 8] = phase + 1 if moving else 0
    F[f + 9] = 1 if moving else 0
    F[f + 10] = 52 - S[b + T_NEXT]
    F[f + 11] = S[b + T_LIMIT]
    F[f + 12] = S[b + T_TURN]
    F[f + 13] = 1 if S[b + T_DEALER] == me else 0
    F[f + 14] = S[b + T_LFROM]
    discards = 0
    knocks = 0
    tail = 0
    if moving:
        if phase == PH_OFFER:
            tail = 5  # take, pass
        elif phase == PH_DRAW:
            tail = 3 if n else 2  # take, draw
        else:
            discards = hand & ~(1 << drawn) if S[b + T_LFROM] and facts.no_back else hand
            limit = S[b + T_LIMIT]
            least, _ = best_discard(TB, hand)
            if least <= limit:
                m = discards
                while m:
                    low = m & -m
                    m ^= low
                    if deadwood(TB, hand & ~low) <= limit:
                        knocks |= low
            if facts.big_gin and deadwood(TB, hand) == 0:
                tail = 8
    F[f + F_DISCARDS] = discards
    F[f + F_KNOCKS] = knocks
    F[f + F_TAIL] = tail


def _table_advance(
    facts: RuleFacts, TB: tuple[int, ...], kinds: list[int], knock_at: list[int], chances: list[float],
    decks: list[int], S: list[int], piles: list[int], i: int, st: list[int], scratch: list[int],
) -> None:  # fmt: skip
    """Play table ``i``'s opponent until the learner is to move or the hand is over."""
    b = TABLE_WIDTH * i
    opp = 1 - S[b + T_SEAT]
    st[2 * opp] = S[b + T_ST_HI]
    st[2 * opp + 1] = S[b + T_ST_LO]
    while S[b + T_PHASE] != PH_OVER and S[b + T_MOVER] == opp:
        a = table_policy(facts, TB, kinds, knock_at, chances, st, S, piles, i)
        table_move(facts, TB, decks, S, piles, i, a, scratch)
    S[b + T_ST_HI] = st[2 * opp]
    S[b + T_ST_LO] = st[2 * opp + 1]


def start_tables(
    facts: RuleFacts, TB: tuple[int, ...], kinds: list[int], knock_at: list[int], chances: list[float],
    decks: list[int], S: list[int], piles: list[int], which: list[int], F: list[int], scratch: list[int],
    seat_choice: int,
) -> None:  # fmt: skip
    """Deal each table of ``which`` a new hand from its dealing stream (``T_DST_*``): the
    learner's seat (drawn, unless ``seat_choice`` is 0 or 1), the dealer, the deck and the
    seats' seeds (``deal_from_stream``); play it to its learner's first decision. A deal
    the opponent ends before that (a knock on the first turn) is passed over for the
    stream's next. Their features into ``F``."""
    st = [0, 0, 0, 0]
    ds = [0, 0]
    seeds = [0, 0]
    for j in range(len(which)):
        i = which[j]
        b = TABLE_WIDTH * i
        ds[0] = S[b + T_DST_HI]
        ds[1] = S[b + T_DST_LO]
        while True:
            seat = below(ds, 0, 2) if seat_choice < 0 else seat_choice
            S[b + T_SEAT] = seat
            S[b + T_DEALER] = below(ds, 0, 2)
            deal_from_stream(ds, 0, decks, 52 * i, seeds)
            S[b + T_ST_HI] = seeds[1 - seat] >> 32
            S[b + T_ST_LO] = seeds[1 - seat] & _M32
            table_deal(facts, decks, S, piles, i)
            _table_advance(facts, TB, kinds, knock_at, chances, decks, S, piles, i, st, scratch)
            if S[b + T_PHASE] != PH_OVER:
                break
        S[b + T_DST_HI] = ds[0]
        S[b + T_DST_LO] = ds[1]
        table_features(facts, TB, S, piles, i, F)


def step_tables(
    facts: RuleFacts, TB: tuple[int, ...], kinds: list[int], knock_at: list[int], chances: list[float],
    decks: list[int], S: list[int], piles: list[int], actions: list[int], F: list[int], scratch: list[int],
) -> None:  # fmt: skip
    """Every table not over plays its learner's action ``actions[i]``, then its opponent
    until the learner's next decision or the hand's end; the features into ``F``. An
    action the learner may not take now (``F``'s legal actions, as the last call wrote
    them) forfeits the hand (R26): the opponent scores ``forfeit_points``."""
    st = [0, 0, 0, 0]
    for i in range(len(actions)):
        b = TABLE_WIDTH * i
        if S[b + T_PHASE] == PH_OVER:
            continue
        a = actions[i]
        f = FEATURE_WIDTH * i
        legal = False
        if 0 <= a < ACT_KNOCK:
            legal = F[f + F_DISCARDS] >> a & 1 != 0
        elif ACT_KNOCK <= a < ACT_TAKE:
            legal = F[f + F_KNOCKS] >> (a - ACT_KNOCK) & 1 != 0
        elif ACT_TAKE <= a < N_ACTS:
            legal = F[f + F_TAIL] >> (a - ACT_TAKE) & 1 != 0
        if legal:
            table_move(facts, TB, decks, S, piles, i, a, scratch)
            _table_advance(facts, TB, kinds, knock_at, chances, decks, S, piles, i, st, scratch)
        else:
            opp = 1 - S[b + T_SEAT]
            _table_over(S, b, FORFEIT, opp, forfeit_points(facts, S[b + T_MULT]))
        table_features(facts, TB, S, piles, i, F)


# -- dealing from a stream (the environments' tables) ----------------------------------

_SEED_HI: Final = (1 << 30) - 1


def shuffle_deck(st: list[int], i: int, decks: list[int], d0: int) -> None:
    """A uniformly shuffled deck into ``decks[d0:d0+52]`` (top first) from stream ``i``:
    Fisher-Yates from the bottom, one ``below`` draw a card."""
    for k in range(52):
        decks[d0 + k] = k
    for k in range(51, 0, -1):
        j = below(st, i, k + 1)
        c = decks[d0 + k]
        decks[d0 + k] = decks[d0 + j]
        decks[d0 + j] = c


def deal_from_stream(st: list[int], i: int, decks: list[int], d0: int, seeds: list[int]) -> None:
    """A hand's deck (``shuffle_deck``) and the two seats' random seeds (62 bits each,
    into ``seeds[0]``, ``seeds[1]``) from stream ``i``; the dealer is drawn before it
    (``below(st, i, 2)``), and a learner's seat before that when it is drawn."""
    shuffle_deck(st, i, decks, d0)
    for s in range(2):
        hi, lo = next64(st, i)
        seeds[s] = (hi & _SEED_HI) << 32 | lo
