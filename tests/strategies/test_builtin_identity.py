"""Every built-in's canonical spec is pinned.

A strategy's random stream, and its opponent's, is keyed by both canonical specs: every
parameter with its value, defaults included (docs/strategy-api.md). A parameter added to a
built-in, or a default changed, therefore changes the games of every documented command
that plays it - the round-robins of docs/analyses.md, the reporting runs of
docs/strategies.md - even where its play is unchanged. Changing a pin is deliberate: rerun
the figures the docs quote for that strategy (and for the strategies it met), then update
the pin here.
"""

from __future__ import annotations

import pytest

from ginsim.engine.registry import BUILTINS
from ginsim.engine.spec import parse_spec

PINNED = {
    "random": "random:knock_chance=0.5,take_chance=0.5",
    "simple": "simple",
    "threshold": "threshold:knock_at=10",
    "aware": (
        "aware:cold_factor=0.5,danger_weight=4.0,endgame=0,hot_factor=2.5,knock_at=10,"
        "late_knock_at=6,late_turn=20,out_turns=15,out_weight=0.25,take_margin=1.0,threat_at=0,"
        "value_margin=1.0"
    ),
    "sampler": (
        "sampler:budget_ms=0.0,candidates=3,close=1.0,cold_factor=0.5,confidence=1.0,"
        "danger_weight=4.0,endgame=0,game=1,hint=0.2,hot_factor=2.5,keeper_weight=0.15,"
        "knock_at=10,knock_hint=0.01,late_knock_at=6,late_turn=20,out_turns=15,out_weight=0.25,"
        "pass_hint=0.5,samples=24,selection=1.0,take_close=0.0,take_margin=1.0,threat_at=0,"
        "value_margin=1.0"
    ),
    "patient": (
        "patient:budget_ms=0.0,candidates=3,close=1.0,cold_factor=0.5,confidence=0.5,"
        "danger_weight=4.0,endgame=0,game=1,hint=0.2,hot_factor=2.5,hunter_at=0.8,"
        "hunter_confidence=1.0,hunter_prior=0.3,hunter_turn=8,keeper_weight=0.15,knock_at=10,"
        "knock_hint=0.01,late_knock_at=6,late_turn=20,out_turns=15,out_weight=0.25,pass_hint=0.5,"
        "patient_knock_at=1,patient_turn=12,race_draws=6,race_gin=5.0,race_turn=8,"
        "race_weight=3.0,samples=48,selection=1.0,take_close=0.0,take_margin=1.0,threat_at=0,"
        "undercut_at=20,value_margin=1.0"
    ),
    "learned": "learned:explore=0.0,hunter_prior=0.3,model=",
}


def test_every_builtin_is_pinned() -> None:
    assert set(PINNED) == set(BUILTINS)


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_a_builtins_canonical_spec_is_its_pin(name: str) -> None:
    got = parse_spec(name).canonical
    assert got == PINNED[name], (
        f"{name}'s canonical spec changed: every run of it now plays other games under the same seed. "
        "If that is meant, rerun the figures the docs quote for it, then update the pin."
    )
