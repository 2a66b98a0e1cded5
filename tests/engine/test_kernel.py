"""The rulebook (ginsim.engine.kernel): one source, compiled by mypyc and by numba alike.

The reference tests hold the kernel's answers to brute force (tests/engine/test_reference.py);
here each function as numba compiles it (``fastjit``) gives the same answers as the form
the engine runs (mypyc's, or the sources under GINSIM_PURE=1), and the source keeps to
what both compilers take.
"""

from __future__ import annotations

import ast
import inspect
import random
from pathlib import Path

import numpy as np
import pytest

from ginsim.engine import fastjit, kernel
from ginsim.engine.melds import tables_for

needs_numba = pytest.mark.skipif(not fastjit.installed(), reason="numba is not installed (pip install 'ginsim[jit]')")
SOURCE = Path(fastjit.__file__).with_name("kernel.py")
"""The kernel's source, in the package's folder (a compiled kernel may load from elsewhere:
an editable install keeps it under build/editable)."""
RUN_LIMITS = (None, 3, 4, 5)


def _hands(rng: random.Random, n: int, size: int) -> list[int]:
    """Random hands rich in groups and runs (the cases the tables' shortcuts split on)."""
    out = []
    for _ in range(n):
        cards: set[int] = set()
        while len(cards) < size:
            base = rng.randrange(52)
            if rng.random() < 0.4:  # a stretch of a suit
                cards.update(base // 13 * 13 + min(12, base % 13 + i) for i in range(rng.randint(2, 5)))
            elif rng.random() < 0.5:  # cards of one rank
                cards.update((base % 13) + 13 * s for s in rng.sample(range(4), rng.randint(2, 4)))
            else:
                cards.add(base)
        mask = 0
        for c in list(cards)[:size]:
            mask |= 1 << c
        out.append(mask)
    return out


def test_the_source_keeps_to_what_both_compilers_take() -> None:
    """No method of int (numba has none) and no import but typing's: every function is
    plain arithmetic over ints, tuples, lists and indexing."""
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            assert node.attr not in ("bit_count", "bit_length", "to_bytes", "from_bytes"), node.lineno
        if isinstance(node, ast.ImportFrom):
            assert node.module in ("__future__", "typing"), node.module
        assert not isinstance(node, ast.Import), node.lineno


@needs_numba
def test_numba_compiles_the_kernels_own_source() -> None:
    """fastjit's functions are the kernel's, jitted: each comes from kernel.py's source
    (no second copy of any rule), and every function of the kernel is there."""
    jitted = fastjit._kernel()
    assert jitted is not None
    names = [
        n for n, v in vars(kernel).items() if inspect.isfunction(v) or type(v).__name__ == "builtin_function_or_method"
    ]
    own = [n for n in names if getattr(getattr(kernel, n), "__module__", "") == kernel.__name__]
    assert {"deadwood", "best_discard", "best_melds", "layoff_search", "score", "play_rows"} <= set(own)
    for name in own:
        f = getattr(jitted, name)
        assert type(f).__name__ == "CPUDispatcher", name
        assert Path(f.py_func.__code__.co_filename).resolve() == SOURCE.resolve(), name


@needs_numba
@pytest.mark.parametrize("mrl", RUN_LIMITS)
def test_numba_and_engine_agree_on_every_meld_function(mrl: int | None) -> None:
    jk = fastjit._kernel()
    assert jk is not None
    t = tables_for(mrl)
    TB = t.flat
    TBa = np.asarray(TB, dtype=np.int64)
    rng = random.Random(4100 + (mrl or 0))
    for h in _hands(rng, 1500, 10) + _hands(rng, 1500, 11):
        assert jk.deadwood(TBa, h) == kernel.deadwood(TB, h)
        assert tuple(jk.best_discard(TBa, h)) == kernel.best_discard(TB, h)
        legal = h & ~(1 << rng.randrange(52))
        assert tuple(jk.least_discards(TBa, h, legal)) == kernel.least_discards(TB, h, legal)
        buf, bufa = [0] * 18, np.zeros(18, dtype=np.int64)
        n, dw = kernel.best_melds(TB, h, buf, 0)
        assert tuple(jk.best_melds(TBa, h, bufa, 0)) == (n, dw) and bufa[:n].tolist() == buf[:n]
        card = rng.randrange(52)
        assert jk.melds_with(card, h) == kernel.melds_with(card, h)
        if n and dw <= 10:  # a knock: the opponent's lay-offs on these melds
            other = _hands(rng, 1, 10)[0] & ~h
            room = n + kernel.LAYOFF_ROOM * n
            lay, laya = buf[:n] + [0] * room, np.zeros(n + room, dtype=np.int64)
            laya[:n] = buf[:n]
            before = kernel.deadwood(TB, other)
            want = kernel.layoff_search(TB, other, lay, 0, n, t.max_run, before, -1)
            assert tuple(jk.layoff_search(TBa, other, laya, 0, n, t.max_run, before, -1)) == want


@needs_numba
def test_numba_and_engine_draw_the_same_stream() -> None:
    jk = fastjit._kernel()
    assert jk is not None
    rng = random.Random(9)
    for _ in range(200):
        seed = rng.getrandbits(64)
        st = [seed >> 32, seed & 0xFFFFFFFF, 0, 0]
        sta = np.array(st, dtype=np.int64)
        for _ in range(5):
            mask = rng.getrandbits(52) | 1
            assert jk.pick_bit(sta, 0, mask) == kernel.pick_bit(st, 0, mask)
            assert jk.rand_float(sta, 0) == kernel.rand_float(st, 0)


def test_score_follows_the_rules() -> None:
    """R15, R18-R22, R28, R30 in the one place they are written."""
    from ginsim.engine.rules import Rules, rule_facts

    f = rule_facts(Rules(big_gin_bonus=31))
    assert kernel.score(f, 0, 0, 40, 40, True, 2) == (kernel.BIG_GIN, 0, 142)
    assert kernel.score(f, 1, 0, 40, 40, False, 1) == (kernel.GIN, 1, 60)
    assert kernel.score(f, 0, 5, 30, 12, False, 1) == (kernel.KNOCK, 0, 7)
    assert kernel.score(f, 0, 8, 30, 8, False, 1) == (kernel.UNDERCUT, 1, 10)  # a tie is an undercut
    assert kernel.score(f, 0, 8, 30, 3, False, 2) == (kernel.UNDERCUT, 1, 30)
    no_tie = rule_facts(Rules(undercut_on_tie=False))
    assert kernel.score(no_tie, 0, 8, 30, 8, False, 1) == (kernel.KNOCK, -1, 0)


def _stepped_tables(rules, policy, compiled: bool, n: int, steps: int, seed: int) -> list[list[int]]:  # type: ignore[no-untyped-def]
    """``n`` tables dealt from seeded decks and stepped ``steps`` times by random
    actions (mostly legal, now and then one that is not), in the mypyc form over lists or
    the numba form over arrays; the state, piles and features after every step."""
    from ginsim.engine.rules import rule_facts

    rng = np.random.default_rng(seed)
    W, FW = kernel.TABLE_WIDTH, kernel.FEATURE_WIDTH
    jk = None if compiled else fastjit.jitted()
    kinds, knock_at = [policy[0]] * 2, [policy[1]] * 2
    chances = [policy[2], policy[3]] * 2
    if jk is None:
        args: tuple = (rule_facts(rules), tables_for(rules.max_run_length).flat, kinds, knock_at, chances)
        mod: object = kernel
    else:
        args = (fastjit.facts_array(rules), fastjit.tables_array(rules.max_run_length),
                np.array(kinds), np.array(knock_at), np.array(chances, dtype=np.float64))  # fmt: skip
        mod = jk
    S, decks, piles, F = (
        np.zeros(n * W, np.int64),
        np.zeros(n * 52, np.int64),
        np.zeros(n * 52, np.int64),
        np.zeros(n * FW, np.int64),
    )
    scratch = np.zeros(kernel.SCRATCH, np.int64)

    def call(fn: str, extra: np.ndarray, *tail: int) -> None:
        if jk is not None:
            getattr(mod, fn)(*args, decks, S, piles, extra, F, scratch, *tail)
            return
        lists = [decks.tolist(), S.tolist(), piles.tolist(), F.tolist()]
        getattr(mod, fn)(*args, *lists[:3], extra.tolist(), lists[3], scratch.tolist(), *tail)
        decks[:], S[:], piles[:], F[:] = lists

    def deal(which: np.ndarray) -> None:
        for i in which:
            S[W * i + kernel.T_DST_HI], S[W * i + kernel.T_DST_LO] = rng.integers(2**32, size=2)
        call("start_tables", which, int(rng.integers(-1, 2)))

    out = []
    deal(np.arange(n))
    for _ in range(steps):
        over = np.flatnonzero(S.reshape(n, W)[:, kernel.T_PHASE] == kernel.PH_OVER)
        if len(over):
            deal(over)
        acts = np.empty(n, np.int64)
        for i in range(n):
            f = F[FW * i : FW * i + FW]
            legal = [c for c in range(52) if f[kernel.F_DISCARDS] >> c & 1]
            legal += [52 + c for c in range(52) if f[kernel.F_KNOCKS] >> c & 1]
            legal += [104 + k for k in range(4) if f[kernel.F_TAIL] >> k & 1]
            acts[i] = rng.choice(legal) if legal and rng.random() > 0.01 else rng.integers(-2, 110)
        call("step_tables", acts)
        out.append(S.tolist() + piles.tolist() + F.tolist() + decks.tolist())
    return out


@needs_numba
@pytest.mark.parametrize(
    "variant", ["default", "big gin", "oklahoma", "discard of the drawn upcard", "max_run_length 3"]
)
def test_numba_and_engine_step_tables_alike(variant: str) -> None:
    """The tables the vectorised environment steps (``start_tables``, ``step_tables``):
    numba's form and the engine's give the same states, piles and features, step by
    step, against ``simple``-like and ``random`` policies."""
    from ginsim.engine.rules import Rules

    rules = {
        "default": Rules(),
        "big gin": Rules(big_gin_bonus=31),
        "oklahoma": Rules(oklahoma=True, oklahoma_spades=True),
        "discard of the drawn upcard": Rules(allow_discard_of_drawn_upcard=True),
        "max_run_length 3": Rules(max_run_length=3),
    }[variant]
    codes: set[int] = set()
    for k, policy in enumerate(((kernel.SIMPLE, 8, 0.5, 0.5), (kernel.RANDOM, 0, 0.3, 0.6))):
        a = _stepped_tables(rules, policy, True, 24, 60, seed=k + len(variant))
        b = _stepped_tables(rules, policy, False, 24, 60, seed=k + len(variant))
        assert a == b
        W = kernel.TABLE_WIDTH
        codes |= {s[W * i + kernel.T_CODE] for s in a for i in range(24)}
    assert {kernel.KNOCK, kernel.GIN, kernel.DRAWN, kernel.FORFEIT} & codes  # hands end, some by each way
    assert kernel.FORFEIT in codes
