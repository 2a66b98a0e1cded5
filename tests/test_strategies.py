"""Every built-in strategy passes the contract (tests/strategy_contract.py).

A new built-in adds one class here; a built-in without one fails
``test_every_builtin_has_a_contract``.
"""

from __future__ import annotations

import inspect
import sys

from ginsim.registry import BUILTINS, describe_all, parse_spec
from tests.strategy_contract import StrategyContract


class TestRandom(StrategyContract):
    spec = "random"


class TestSimple(StrategyContract):
    spec = "simple"


class TestThreshold(StrategyContract):
    spec = "threshold:knock_at=4"


def contract_classes() -> list[type[StrategyContract]]:
    module = sys.modules[__name__]
    return [
        c
        for _, c in inspect.getmembers(module, inspect.isclass)
        if issubclass(c, StrategyContract) and c is not StrategyContract
    ]


def test_every_builtin_has_a_contract() -> None:
    covered = {parse_spec(c.spec).target for c in contract_classes()}
    missing = sorted(set(BUILTINS) - covered)
    assert not missing, f"built-ins without a contract class in tests/test_strategies.py: {missing}"


def test_every_builtin_describes_itself() -> None:
    for entry in describe_all():
        if entry["name"] in BUILTINS:
            assert entry["description"], f"{entry['name']} has no description"
            assert not entry["description"].startswith("cannot load"), entry["description"]
