"""From policy to strategy: any callable ``(observation, mask) -> action`` plays as a
ginsim strategy, so a trained agent is judged like any bot (``match``, ``roundrobin``,
``validate``, ``--isolate``).

``PolicyStrategy(policy)`` wraps a callable; it is asked with the observation vector and
the legal-action mask the environments give (``ginsim.rl.encoding``, from the seat's
``PlayerView`` only) and answers with an action id. Melds and lay-offs are the engine's
optimal ones, as in the environments. An answer that is not a legal action here raises,
and the engine records the forfeit (R26).

The spec ``rlpolicy:FILE.py:NAME`` (or ``rlpolicy:package.module:NAME``) names such a
callable in a file or module: ``ginsim match rlpolicy:agent.py:act simple``. Importing
``ginsim`` registers the prefix (the loader imports this module on first use), so worker
processes and ``--isolate``'s sandboxes load it as the command line does.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import operator
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import numpy as np

from ginsim.engine.cards import Card
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.errors import StrategySpecError
from ginsim.rl.encoding import BIG_GIN, DRAW_STOCK, KNOCK_BASE, PASS, TAKE, describe_action, encode, legal_mask

PREFIX: Final = "rlpolicy"

Policy = Callable[[np.ndarray, np.ndarray], Any]
"""A policy: the observation vector and the int8 legal-action mask in, an action id out."""


class PolicyStrategy(Strategy):
    """A callable ``(observation, mask) -> action`` playing as a strategy."""

    name = "policy"
    description = "a reinforcement-learning policy: (observation, mask) -> action, asked through its view"

    policy: Policy | None = None  # a class-level policy: rlpolicy: specs, or a subclass's ``staticmethod``

    def __init__(self, policy: Policy | None = None) -> None:
        if policy is not None:
            self.policy = policy
        if self.policy is None or not callable(self.policy):
            raise ValueError("PolicyStrategy needs a callable (observation, mask) -> action")
        self._pending = -1  # a discard-phase answer given when asked about big gin
        self._knock = False

    @classmethod
    def parameters(cls) -> dict[str, Any]:
        return {}

    def params(self) -> dict[str, Any]:
        return {}

    def _ask(self, view: PlayerView) -> tuple[int, np.ndarray]:
        rules = view.rules
        obs = encode(view, True, rules.target_score)
        mask = legal_mask(view, rules.big_gin_bonus is not None)
        fn = self.policy
        assert fn is not None
        answer = fn(obs, mask)
        try:
            a = operator.index(answer)
        except TypeError:
            a = int(np.asarray(answer).item()) if np.ndim(answer) == 0 else -1
        if not 0 <= a <= BIG_GIN or not mask[a]:
            raise ValueError(f"the policy chose {describe_action(a)}, not a legal action here")
        return a, mask

    def take_upcard(self, view: PlayerView) -> bool:
        a, _ = self._ask(view)
        if a == TAKE:
            return True
        if a in (PASS, DRAW_STOCK):
            return False
        raise ValueError(f"the policy chose {describe_action(a)} where it takes the upcard or not")

    def take_big_gin(self, view: PlayerView) -> bool:
        a, _ = self._ask(view)
        if a == BIG_GIN:
            return True
        self._pending = a
        return False

    def discard(self, view: PlayerView) -> Card:
        a = self._pending
        self._pending = -1
        if a < 0:
            a, _ = self._ask(view)
        if a < KNOCK_BASE:
            self._knock = False
            return a
        if a < KNOCK_BASE + 52:
            self._knock = True
            return a - KNOCK_BASE
        raise ValueError(f"the policy chose {describe_action(a)} where it discards")

    def knock(self, view: PlayerView) -> bool:
        return self._knock


def _module_of(path_or_module: str, where: str) -> Any:
    if path_or_module.endswith(".py"):
        path = Path(path_or_module).expanduser().resolve()
        if not path.is_file():
            raise StrategySpecError(f"strategy {where!r}: no such file {path_or_module!r}")
        mod_name = "ginsim_rlpolicy_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
        if mod_name in sys.modules:
            return sys.modules[mod_name]
        spec = importlib.util.spec_from_file_location(mod_name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as e:  # noqa: BLE001 - whatever the file raises, one line names it
            del sys.modules[mod_name]
            what = f"importing {path_or_module} raised {type(e).__name__}: {e}"
            raise StrategySpecError(f"strategy {where!r}: {what}") from None
        return module
    try:
        return importlib.import_module(path_or_module)
    except ImportError as e:
        raise StrategySpecError(f"strategy {where!r}: cannot import {path_or_module!r} ({e})") from None


def load(target: str, where: str) -> type[PolicyStrategy]:
    """The strategy class of ``rlpolicy:FILE.py:NAME`` or ``rlpolicy:package.module:NAME``
    (the registry's prefix loader); StrategySpecError (one line) when it cannot be had."""
    body = target[len(PREFIX) + 1 :] if target.startswith(PREFIX + ":") else target
    path, sep, attr = body.rpartition(":")
    if not sep or not path or not attr:
        raise StrategySpecError(f"strategy {where!r}: expected rlpolicy:FILE.py:NAME or rlpolicy:package.module:NAME")
    module = _module_of(path, where)
    fn = getattr(module, attr, None)
    if fn is None or not callable(fn):
        raise StrategySpecError(f"strategy {where!r}: {path} has no callable {attr!r}")
    name = attr if attr.isidentifier() else "policy"
    return type(f"Policy_{name}", (PolicyStrategy,), {"name": name, "policy": staticmethod(fn), "__module__": __name__})
