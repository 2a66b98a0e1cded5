"""The compiled hot modules and their sources give the same answers.

An install compiles ginsim's hot modules with mypyc (setup.py); GINSIM_PURE=1 runs the
same sources as plain Python. The brute-force reference tests check whichever form this
process loaded; here a subprocess running the sources must agree with this process on
meld answers and play-outs for many random hands and on every event of many whole hands.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import os
import random
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from ginsim.strategies.aware import Aware
from ginsim.strategies.learned import Learned
from ginsim.strategies.learned_search import LearnedSearch
from ginsim.strategies.random_play import RandomPlay
from ginsim.strategies.sampler import Sampler
from ginsim.strategies.simple import Simple

import ginsim.engine._native as native
from ginsim.engine.layoff import best_layoff
from ginsim.engine.melds import tables_for
from ginsim.engine.playhand import play_hand
from ginsim.engine.playout import Policy, deal_hidden, outs_mask, playout, shuffled_stock
from ginsim.engine.rules import Rules, preset_rules
from ginsim.engine.view import Event
from ginsim.run.seeding import deck_for

ROOT = Path(__file__).resolve().parents[2]


def digests(n_hands: int = 3000, n_games: int = 120) -> dict[str, str]:
    """Hashes of meld answers on random hands and of whole hands' events and results."""
    rng = random.Random(20261201)
    out = {}
    for max_run in (None, 5):
        t = tables_for(max_run)
        h = hashlib.sha256()
        for _ in range(n_hands):
            cards = rng.sample(range(52), 21)
            ten = sum(1 << c for c in cards[:10])
            eleven = ten | 1 << cards[10]
            other = sum(1 << c for c in cards[11:21])
            melds = t.best_melds_mask(ten)
            answers = (
                t.deadwood_mask(ten),
                t.best_discard_mask(eleven),
                melds,
                best_layoff(other, melds.melds, t, t.deadwood_mask(other)) if melds.deadwood <= 10 else None,
            )
            h.update(repr(answers).encode())
        out[f"melds max_run={max_run}"] = h.hexdigest()
    for rules in (Rules(), Rules(knock_limit=7, max_run_length=4, allow_discard_of_drawn_upcard=True)):
        t = tables_for(rules.max_run_length)
        h = hashlib.sha256()
        for i in range(n_hands // 5):
            r = random.Random(i)
            cards = list(range(52))
            r.shuffle(cards)
            me = sum(1 << c for c in cards[:10])
            unseen = cards[10:]
            opp = deal_hidden(t, unseen, 0, 10, i % 6, [0.5] * (rules.knock_limit + 1), r.random)
            stock = shuffled_stock(unseen, opp, r.random)
            pile = [stock.pop()]
            policy = Policy(late_turn=8 + i % 10)
            h.update(
                repr((opp, outs_mask(me), playout(rules, t, policy, me, opp, pile, stock, i % 15, i % 3 - 1))).encode()
            )
        out[f"playouts {rules.knock_limit}"] = h.hexdigest()
    for rules in (Rules(), Rules(big_gin_bonus=31, knock_limit=7, max_run_length=4)):
        h = hashlib.sha256()
        for i in range(n_games):
            log: list[Event] = []
            players = [
                (Simple(), RandomPlay()),
                (Aware(), Simple()),
                (RandomPlay(), Aware()),
                (Sampler(samples=3), Simple()),
                (Learned(), Aware()),
            ][i % 5]
            res = play_hand(rules, players, deck_for(i), i % 2, seeds=(i, i + 1), log=log)
            h.update(repr((log, res)).encode())
        out[f"hands {rules.knock_limit}"] = h.hexdigest()
    h = hashlib.sha256()  # whole hands rebuilt in sampled worlds and played out (ginsim.engine.rollout)
    for i in range(4):
        log: list[Event] = []
        res = play_hand(
            preset_rules("eaai"), (LearnedSearch(search=3), Simple()), deck_for(i), i % 2, (i, i + 1), log=log
        )
        h.update(repr((log, res)).encode())
    out["searched hands"] = h.hexdigest()
    return out


def _run_pure() -> dict[str, object]:
    code = (
        "import json, sys; sys.path[:0] = ['tests/engine', 'tests', '.']\n"
        "import ginsim.engine._native as n, test_native as t\n"
        "print(json.dumps({'status': n.status(), 'digests': t.digests()}))\n"
    )
    env = {**os.environ, "GINSIM_PURE": "1"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.skipif(not native.is_compiled(), reason=f"this install is {native.status()}")
def test_compiled_and_pure_modules_agree() -> None:
    pure = _run_pure()
    assert str(pure["status"]).startswith("pure Python (GINSIM_PURE is set)")
    assert native.status().startswith("compiled")
    assert pure["digests"] == digests()


def test_pure_switch_loads_sources_only() -> None:
    pure = _run_pure()
    assert str(pure["status"]).startswith("pure Python")


def test_an_edited_source_is_never_run_compiled(tmp_path: Path) -> None:
    (tmp_path / "kernel").mkdir()
    for name in native.HOT:
        (tmp_path / native.source_name(name)).write_text(f"# {name}\n")
    digest = hashlib.sha256(b"# melds\n").hexdigest()
    record = {"compiler": "mypyc", "sources": {native.source_name(name): digest for name in native.HOT}}
    stale = native.stale_sources(record, tmp_path)
    assert stale == [native.source_name(name) for name in native.HOT if name != "melds"]
    assert "kernel/loop.py" in stale  # the kernel's modules, in their package's folder
    (tmp_path / "playhand.py").unlink()  # an install without sources: nothing to compare
    assert "playhand.py" not in native.stale_sources(record, tmp_path)
    assert native.stale_sources({"sources": "?"}, tmp_path) == [native.source_name(name) for name in native.HOT]


def test_the_sources_switch_covers_the_kernels_package(tmp_path: Path) -> None:
    """GINSIM_PURE=1 in a regular install (compiled modules beside their sources): the
    engine's folder and the kernel package's folder in it import sources only."""
    (tmp_path / "kernel").mkdir()
    for suffix in (".py", EXTENSION_SUFFIXES[0]):
        (tmp_path / "kernel" / f"bits{suffix}").write_text("")
    folders = [str(tmp_path), os.path.join(str(tmp_path), "kernel")]
    try:
        native._load_sources(folders[:1])
        spec = sys.path_importer_cache[folders[1]].find_spec("ginsim.engine.kernel.bits")  # type: ignore[union-attr]
        assert spec is not None and str(spec.origin).endswith("bits.py")
    finally:
        for folder in folders:
            sys.path_importer_cache.pop(folder, None)


def test_setup_compiles_exactly_the_hot_modules() -> None:
    """The compiled set is written once (``HOT`` of ginsim/engine/_native.py): setup.py's
    ``_hot_modules`` reads that very tuple, and every name is a module of ginsim.engine."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    assert not any(
        isinstance(n, ast.Assign)
        and isinstance(n.value, ast.Tuple)
        and any(getattr(t, "id", "") == "HOT" for t in n.targets)
        for n in tree.body
    )  # no second copy of the list
    func = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_hot_modules")
    namespace: dict[str, object] = {"ast": ast, "ENGINE": ROOT / "ginsim" / "engine"}
    exec(compile(ast.Module(body=[func], type_ignores=[]), "setup.py", "exec"), namespace)
    hot = namespace["_hot_modules"]()  # type: ignore[operator]
    assert tuple(hot) == native.HOT
    for name in hot:
        assert (ROOT / "ginsim" / "engine" / native.source_name(name)).is_file()


def test_an_editable_build_keeps_its_files_out_of_the_sources(tmp_path: Path) -> None:
    """An editable install's compiled modules live under the build folder its record names;
    nothing compiled lies beside the sources. A record naming a folder that holds none makes
    the package run its sources, with the reason."""
    record = native._build_record() or {}
    if isinstance(record.get("folder"), str):
        assert native.is_compiled()
        for name in native.HOT:
            origin = Path(importlib.import_module(f"ginsim.engine.{name}").__file__ or "")
            assert (ROOT / str(record["folder"])) in origin.parents
        assert not list((ROOT / "ginsim").rglob("*.so")) and not list(ROOT.glob("*.so"))
    fake = tmp_path / "engine"
    reason = native._use_build_folder({"folder": str(tmp_path / "nothing")}, [str(fake)])
    assert "no compiled modules" in reason and "pip install -e ." in reason
    assert native._use_build_folder({"compiler": "mypyc"}, [str(fake)]) == ""  # a regular install
