"""The rulebook (the package ginsim.engine.kernel): one source, compiled by mypyc and by
numba alike.

The reference tests hold the kernel's answers to brute force (tests/engine/test_reference.py);
here each function as numba compiles it (``fastjit``) gives the same answers as the form
the engine runs (mypyc's, or the sources under GINSIM_PURE=1), the sources keep to what
both compilers take, and every module of the kernel is compiled by both.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ginsim.engine import _native, fastjit
from ginsim.engine.kernel import discard, layoffs, meldsearch, policies, scoring, splitmix, steps, table
from ginsim.engine.melds import tables_for

needs_numba = pytest.mark.skipif(not fastjit.installed(), reason="numba is not installed (pip install 'ginsim[jit]')")
SOURCES = Path(fastjit.__file__).with_name("kernel")
"""The kernel's sources, in the package's folder (a compiled kernel may load from elsewhere:
an editable install keeps it under build/editable)."""
MODULES = sorted(p.stem for p in SOURCES.glob("*.py") if p.name != "__init__.py")
RUN_LIMITS = (None, 3, 4, 5)


def _twin(module: object) -> object:
    jk = fastjit.jitted(module)  # type: ignore[arg-type]
    assert jk is not None
    return jk


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
    """No method of int (numba has none) and no import but typing's and the names of
    sibling kernel modules (``from ginsim.engine.kernel.x import f``, which fastjit points
    at the jitted forms): every function is plain arithmetic over ints, tuples, lists and
    indexing."""
    for name in MODULES:
        allowed = {"__future__", "typing"} | {f"ginsim.engine.kernel.{m}" for m in MODULES if m != name}
        tree = ast.parse((SOURCES / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("bit_count", "bit_length", "to_bytes", "from_bytes"), (name, node.lineno)
            if isinstance(node, ast.ImportFrom):
                assert node.module in allowed, (name, node.module)
            assert not isinstance(node, ast.Import), (name, node.lineno)


def test_every_kernel_module_is_compiled_by_mypyc_in_one_group() -> None:
    """Each module of the kernel is hot (``_native.HOT``: mypyc compiles the hot modules as
    one group, so calls between them are native), and nothing else lives in the package."""
    assert len(MODULES) >= 10
    assert {f"kernel.{m}" for m in MODULES} == {n for n in _native.HOT if n.startswith("kernel.")}
    assert (SOURCES / "__init__.py").is_file()
    init = ast.parse((SOURCES / "__init__.py").read_text(encoding="utf-8"))
    assert all(isinstance(n, ast.Expr) for n in init.body)  # its docstring only: no re-exports


@needs_numba
def test_numba_compiles_every_kernel_module_from_its_own_source() -> None:
    """fastjit's functions are the kernel's, jitted: each comes from its module's source
    (no second copy of any rule), every function of every kernel module is there, and a
    module's imports of its siblings' functions are their jitted forms."""
    own_functions = 0
    for name in MODULES:
        real = importlib.import_module(f"ginsim.engine.kernel.{name}")
        twin = _twin(real)
        for attr, value in vars(real).items():
            if not (inspect.isfunction(value) or type(value).__name__ == "builtin_function_or_method"):
                continue
            home = getattr(value, "__module__", "")
            if not home.startswith("ginsim.engine.kernel."):
                continue
            f = getattr(twin, attr)
            assert type(f).__name__ == "CPUDispatcher", (name, attr)
            source = SOURCES / f"{home.rpartition('.')[2]}.py"
            assert Path(f.py_func.__code__.co_filename).resolve() == source.resolve(), (name, attr)
            if home == real.__name__:
                own_functions += 1
            else:  # imported from a sibling: the sibling's own jitted function
                assert f is getattr(_twin(importlib.import_module(home)), value.__name__), (name, attr)
    assert own_functions >= 40
    for module, names in ((meldsearch, ("deadwood", "best_melds")), (scoring, ("score",)), (steps, ("step_tables",))):
        assert all(type(getattr(_twin(module), n)).__name__ == "CPUDispatcher" for n in names)


def test_stale_numba_caches_are_dropped(tmp_path: Path) -> None:
    """numba checks a cached function against its own file only: when any kernel source
    changed since a cache folder was written, every kernel function's cache there is
    flushed before use, and the folder records the sources it now holds."""

    class Store:
        def __init__(self, folder: Path) -> None:
            self.cache_path = str(folder)
            self.flushed = 0

        def flush(self) -> None:
            self.flushed += 1

    class Fn:
        def __init__(self, store: Store | None) -> None:
            self._cache = store

    stores = [Store(tmp_path), Store(tmp_path)]
    fns = [Fn(s) for s in stores] + [Fn(None)]  # a function numba does not cache: left alone
    fastjit._drop_stale_caches(fns, "one")  # no record yet
    assert [s.flushed for s in stores] == [1, 1] and (tmp_path / fastjit._RECORD).read_text() == "one"
    fastjit._drop_stale_caches(fns, "one")  # the same sources: the caches are kept
    assert [s.flushed for s in stores] == [1, 1]
    fastjit._drop_stale_caches(fns, "two")  # a kernel source changed
    assert [s.flushed for s in stores] == [2, 2] and (tmp_path / fastjit._RECORD).read_text() == "two"


_PROBE = """
import sys
from pathlib import Path
import numpy as np
from ginsim.engine import fastjit
from ginsim.engine.kernel import meldsearch
from ginsim.engine.melds import tables_for
fastjit._SOURCES = Path(sys.argv[1])
jm = fastjit.jitted(meldsearch)
print(jm.deadwood(np.asarray(tables_for(None).flat, dtype=np.int64), int(sys.argv[2])))
"""


@needs_numba
def test_an_edited_kernel_source_is_never_run_from_a_stale_cache(tmp_path: Path) -> None:
    """numba's cache of ``deadwood`` (meldsearch.py, unchanged) holds the machine code of
    ``low_index`` (bits.py): when bits.py changes, the next process compiles ``deadwood``
    again instead of loading the stale code (a copy of the sources, edited in a subprocess)."""
    folder = tmp_path / "kernel"
    folder.mkdir()
    for path in SOURCES.glob("*.py"):
        (folder / path.name).write_bytes(path.read_bytes())
    aces = 1 | 1 << 13 | 1 << 26 | 1 << 5 | 1 << 18  # three aces, 6C, 6D: one rank of three
    run = [sys.executable, "-c", _PROBE, str(folder), str(aces)]
    assert subprocess.run(run, capture_output=True, text=True, check=True).stdout.split() == ["12"]
    bits = folder / "bits.py"
    text = bits.read_text(encoding="utf-8")
    assert "return n + 1 - (m & 1)" in text
    bits.write_text(text.replace("return n + 1 - (m & 1)", "return n + 2 - (m & 1)"), encoding="utf-8")
    assert subprocess.run(run, capture_output=True, text=True, check=True).stdout.split() == ["15"]


@needs_numba
def test_the_kernels_cache_folder_names_its_sources() -> None:
    jk = _twin(meldsearch)
    folder = Path(jk.deadwood._cache.cache_path)  # type: ignore[attr-defined]
    paths = sorted(SOURCES.glob("*.py"))
    assert (folder / fastjit._RECORD).read_text() == fastjit._digest([p for p in paths if p.name != "__init__.py"])


@needs_numba
@pytest.mark.parametrize("mrl", RUN_LIMITS)
def test_numba_and_engine_agree_on_every_meld_function(mrl: int | None) -> None:
    jm, jd, jl = _twin(meldsearch), _twin(discard), _twin(layoffs)
    t = tables_for(mrl)
    TB = t.flat
    TBa = np.asarray(TB, dtype=np.int64)
    rng = random.Random(4100 + (mrl or 0))
    for h in _hands(rng, 1500, 10) + _hands(rng, 1500, 11):
        assert jm.deadwood(TBa, h) == meldsearch.deadwood(TB, h)
        assert tuple(jd.best_discard(TBa, h)) == discard.best_discard(TB, h)
        legal = h & ~(1 << rng.randrange(52))
        assert tuple(jd.least_discards(TBa, h, legal)) == discard.least_discards(TB, h, legal)
        buf, bufa = [0] * 18, np.zeros(18, dtype=np.int64)
        n, dw = meldsearch.best_melds(TB, h, buf, 0)
        assert tuple(jm.best_melds(TBa, h, bufa, 0)) == (n, dw) and bufa[:n].tolist() == buf[:n]
        card = rng.randrange(52)
        assert jm.melds_with(card, h) == meldsearch.melds_with(card, h)
        if n and dw <= 10:  # a knock: the opponent's lay-offs on these melds
            other = _hands(rng, 1, 10)[0] & ~h
            room = n + layoffs.LAYOFF_ROOM * n
            lay, laya = buf[:n] + [0] * room, np.zeros(n + room, dtype=np.int64)
            laya[:n] = buf[:n]
            before = meldsearch.deadwood(TB, other)
            want = layoffs.layoff_search(TB, other, lay, 0, n, t.max_run, before, -1)
            assert tuple(jl.layoff_search(TBa, other, laya, 0, n, t.max_run, before, -1)) == want


@needs_numba
def test_numba_and_engine_draw_the_same_stream() -> None:
    jk = _twin(splitmix)
    rng = random.Random(9)
    for _ in range(200):
        seed = rng.getrandbits(64)
        st = [seed >> 32, seed & 0xFFFFFFFF, 0, 0]
        sta = np.array(st, dtype=np.int64)
        for _ in range(5):
            mask = rng.getrandbits(52) | 1
            assert jk.pick_bit(sta, 0, mask) == splitmix.pick_bit(st, 0, mask)
            assert jk.rand_float(sta, 0) == splitmix.rand_float(st, 0)


def test_score_follows_the_rules() -> None:
    """R15, R18-R22, R28, R30 in the one place they are written."""
    from ginsim.engine.rules import Rules, rule_facts

    f = rule_facts(Rules(big_gin_bonus=31))
    assert scoring.score(f, 0, 0, 40, 40, True, 2) == (scoring.BIG_GIN, 0, 142)
    assert scoring.score(f, 1, 0, 40, 40, False, 1) == (scoring.GIN, 1, 60)
    assert scoring.score(f, 0, 5, 30, 12, False, 1) == (scoring.KNOCK, 0, 7)
    assert scoring.score(f, 0, 8, 30, 8, False, 1) == (scoring.UNDERCUT, 1, 10)  # a tie is an undercut
    assert scoring.score(f, 0, 8, 30, 3, False, 2) == (scoring.UNDERCUT, 1, 30)
    no_tie = rule_facts(Rules(undercut_on_tie=False))
    assert scoring.score(no_tie, 0, 8, 30, 8, False, 1) == (scoring.KNOCK, -1, 0)


def _stepped_tables(rules, policy, compiled: bool, n: int, n_steps: int, seed: int) -> list[list[int]]:  # type: ignore[no-untyped-def]
    """``n`` tables dealt from seeded decks and stepped ``n_steps`` times by random
    actions (mostly legal, now and then one that is not), in the mypyc form over lists or
    the numba form over arrays; the state, piles and features after every step."""
    from ginsim.engine.rules import rule_facts

    rng = np.random.default_rng(seed)
    W, FW = table.TABLE_WIDTH, steps.FEATURE_WIDTH
    jk = None if compiled else fastjit.jitted(steps)
    kinds, knock_at = [policy[0]] * 2, [policy[1]] * 2
    chances = [policy[2], policy[3]] * 2
    if jk is None:
        args: tuple = (rule_facts(rules), tables_for(rules.max_run_length).flat, kinds, knock_at, chances)
        mod: object = steps
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
    scratch = np.zeros(scoring.SCRATCH, np.int64)

    def call(fn: str, extra: np.ndarray, *tail: int) -> None:
        if jk is not None:
            getattr(mod, fn)(*args, decks, S, piles, extra, F, scratch, *tail)
            return
        lists = [decks.tolist(), S.tolist(), piles.tolist(), F.tolist()]
        getattr(mod, fn)(*args, *lists[:3], extra.tolist(), lists[3], scratch.tolist(), *tail)
        decks[:], S[:], piles[:], F[:] = lists

    def deal(which: np.ndarray) -> None:
        for i in which:
            S[W * i + table.T_DST_HI], S[W * i + table.T_DST_LO] = rng.integers(2**32, size=2)
        call("start_tables", which, int(rng.integers(-1, 2)))

    out = []
    deal(np.arange(n))
    for _ in range(n_steps):
        over = np.flatnonzero(S.reshape(n, W)[:, table.T_PHASE] == table.PH_OVER)
        if len(over):
            deal(over)
        acts = np.empty(n, np.int64)
        for i in range(n):
            f = F[FW * i : FW * i + FW]
            legal = [c for c in range(52) if f[steps.F_DISCARDS] >> c & 1]
            legal += [52 + c for c in range(52) if f[steps.F_KNOCKS] >> c & 1]
            legal += [104 + k for k in range(4) if f[steps.F_TAIL] >> k & 1]
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
    for k, policy in enumerate(((policies.SIMPLE, 8, 0.5, 0.5), (policies.RANDOM, 0, 0.3, 0.6))):
        a = _stepped_tables(rules, policy, True, 24, 60, seed=k + len(variant))
        b = _stepped_tables(rules, policy, False, 24, 60, seed=k + len(variant))
        assert a == b
        W = table.TABLE_WIDTH
        codes |= {s[W * i + table.T_CODE] for s in a for i in range(24)}
    assert {scoring.KNOCK, scoring.GIN, scoring.DRAWN, scoring.FORFEIT} & codes  # hands end, some by each way
    assert scoring.FORFEIT in codes
