"""``ginsim bench`` runs and reports every figure (a smoke test: no speed threshold)."""

from __future__ import annotations

import json

from ginsim.engine import fastjit
from ginsim.run.bench import KEYS
from ginsim.run.measures import in_game_hands
from ginsim.run.options import Engine, resolve_engine


def test_bench_json_has_every_key_with_a_positive_number(run_cli):
    r = run_cli("bench", "--seconds", "0.2", "--reps", "1", "--jobs", "2", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    jit = resolve_engine() == Engine.AUTO and fastjit.installed()  # GINSIM_PURE=1 or GINSIM_JIT=0: no kernel
    for key in KEYS:
        if key.startswith("jit_") and not jit:
            assert data[key] is None, key
            continue
        if key.startswith("tournament_") and data.get("tournament_note"):  # bots cannot be started here
            assert data[key] is None and "--isolate" in data["tournament_note"], key
            continue
        assert isinstance(data[key], float) and data[key] > 0, key
    assert data["jobs"] == 2
    for key in ("python", "ginsim", "platform"):
        assert data[key]
    assert data["engine"].startswith(("compiled", "pure Python", "partly compiled"))


def test_bench_table(run_cli):
    r = run_cli("bench", "--seconds", "0.1", "--reps", "1", "--jobs", "1")
    assert r.code == 0, r.err
    for key in KEYS:
        assert key in r.out
    assert "; engine " in r.out.splitlines()[0]


def test_bench_hands_are_in_game_and_fixed():
    ten, eleven = in_game_hands(500)
    assert len(ten) == len(eleven) == 500
    assert all(h.bit_count() == 10 for h in ten) and all(h.bit_count() == 11 for h in eleven)
    assert in_game_hands(500) == (ten, eleven)


def test_bench_bad_options(run_cli):
    for args, message in (
        (["--seconds", "0"], "--seconds must be positive"),
        (["--reps", "0"], "--reps"),
        (["--jobs", "0"], "--jobs must be at least 1"),
    ):
        r = run_cli("bench", *args)
        assert r.code == 2 and message in r.err and len(r.err.strip().splitlines()) == 1


def test_bench_warns_when_the_machine_is_already_busy():
    from ginsim.cli.bench import busy_note

    assert busy_note(load=0.1, cpus=2) == ""
    note = busy_note(load=2.9, cpus=2)
    assert note.startswith("warning: load average 2.9 on 2 cpus") and "lower" in note
