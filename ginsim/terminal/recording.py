"""Recording a seat's decisions in a replayed hand: a stand-in that notes the seat's view
and answer at each decision, for ``ginsim replay --seat`` and the move logs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ginsim.engine.strategy import DECISIONS, Strategy, bound_entry, overrides
from ginsim.engine.view import PlayerView


@dataclass
class Decision:
    """One decision of the watched seat: the method, its view then, and its answer."""

    method: str
    seen: dict[str, Any]
    answer: object = None


@dataclass
class Recorder:
    """The decisions recorded while ``active`` (the hand being replayed, not a game's earlier hands)."""

    active: bool = False
    decisions: list[Decision] = field(default_factory=list)


def recording(inner: Strategy, rec: Recorder) -> Strategy:
    """A stand-in for ``inner`` that records ``view.snapshot()`` at each decision. It
    overrides exactly the optional hooks ``inner`` overrides, so the engine treats both
    alike and the hand plays out the same."""

    def decision(name: str) -> Any:
        def method(_self: Strategy, view: PlayerView) -> object:
            d = Decision(name, view.snapshot())
            if rec.active:
                rec.decisions.append(d)
            try:
                d.answer = bound_entry(inner, name)(view)
            except Exception as e:
                d.answer = f"raised {type(e).__name__}: {e}"
                raise
            return d.answer

        return method

    cls = type(inner)
    ns: dict[str, Any] = {"name": inner.name, "description": inner.description}
    for name in (*DECISIONS, "take_big_gin", "choose_melds", "choose_layoffs"):
        if name in (*DECISIONS, "take_big_gin") or overrides(cls, name):
            ns[name] = decision(name)
    if overrides(cls, "observe"):
        ns["observe"] = lambda _self, view, event: bound_entry(inner, "observe")(view, event)
    return type(f"Recording{cls.__name__}", (Strategy,), ns)()  # type: ignore[no-any-return]
