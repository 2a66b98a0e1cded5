"""What a forfeit leaves for its author: the strategy, the hand, the decision, the view at
that moment and the full traceback.

The engine (compiled) keeps only a one-line reason. When a hand of a chunk ends in a
forfeit, the worker plays that hand again (the same deck, seeds and fresh instances, so
the same moves) with each seat's strategy behind a ``Tracer`` that notes every decision
and, when one raises, its traceback; the forfeiting seat's last decision becomes the
record, stored beside the chunk in ``forfeits/`` (ginsim.runfolder.forfeit_files). A clock forfeit
depends on the machine and may not happen again: the record then says so.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from typing import Any

from ginsim.engine.cards import format_card, format_cards
from ginsim.engine.playhand import FORFEIT, HandResult
from ginsim.engine.strategy import DECISIONS, HOOKS, Strategy, bound_entry, overrides
from ginsim.engine.view import PlayerView, format_event

MAX_PER_CHUNK = 20
"""Forfeits traced per chunk; later ones keep only the hand log's reason."""

_MASKS = ("hand", "opp_known", "opp_passed", "opp_discards", "pile_mask", "knocker_deadwood_cards")
_CARDS = ("upcard", "drawn", "discard_choice")


def view_text(view: PlayerView) -> str:
    """A view as readable lines, cards by name."""
    snap = view.snapshot()
    lines = []
    for key, value in snap.items():
        if key == "rules":
            continue
        if key in _MASKS:
            text = format_cards(value) or "-"
        elif key in _CARDS:
            text = "-" if value is None else format_card(value)
        elif key == "discard_pile":
            text = " ".join(format_card(c) for c in value) or "-"
        elif key == "knocker_melds":
            text = " | ".join(format_cards(m) for m in value) or "-"
        elif key == "history":
            text = "; ".join(format_event(e) for e in value) or "-"
        else:
            text = str(value)
        lines.append(f"{key}: {text}")
    return "\n".join(lines)


class _Seat:
    """What one seat's tracer saw last."""

    def __init__(self) -> None:
        self.method = ""
        self.view = ""
        self.answer = ""
        self.traceback = ""


def tracing(inner: Strategy, seat: _Seat) -> Strategy:
    """A stand-in for ``inner`` that notes each decision (the view as text before it is
    asked, the answer, a traceback if it raises) and then behaves exactly like it: it
    overrides the optional hooks ``inner`` overrides and no others."""

    def decision(name: str) -> Callable[..., Any]:
        def method(_self: Strategy, view: PlayerView, *args: Any) -> Any:
            seat.method, seat.view, seat.answer, seat.traceback = name, view_text(view), "", ""
            try:
                out = bound_entry(inner, name)(view, *args)
            except Exception as e:
                tb = e.__traceback__
                frames = tb.tb_next if tb is not None else None  # from the strategy's own frame on
                seat.traceback = "".join(traceback.format_exception(type(e), e, frames))
                # tournament mode: the traceback the bot's own process reported (its file, its line)
                seat.traceback = getattr(e, "remote_traceback", "") or seat.traceback
                raise
            seat.answer = repr(out)
            return out

        return method

    cls = type(inner)
    ns: dict[str, Any] = {"name": "", "description": inner.description}
    for name in (*DECISIONS, *HOOKS):
        if name in DECISIONS or overrides(cls, name):
            ns[name] = decision(name)
    return type(f"Tracing{cls.__name__}", (Strategy,), ns)()  # type: ignore[no-any-return]


def traced_replay(
    strategies: tuple[Strategy, Strategy], play: Callable[[tuple[Strategy, Strategy]], HandResult]
) -> tuple[HandResult, tuple[_Seat, _Seat]]:
    """Play again through tracers: ``play`` plays the hand (or the game up to it) with the
    strategies it is given."""
    seats = (_Seat(), _Seat())
    traced = (tracing(strategies[0], seats[0]), tracing(strategies[1], seats[1]))
    return play(traced), seats


def forfeit_record(
    logged: HandResult,
    replayed: HandResult | None,
    seats: tuple[_Seat, _Seat] | None,
    where: dict[str, Any],
    specs: tuple[str, str],
) -> str:
    """One forfeit as a JSON line: ``where`` (pairing, deal, copy, game_hand, chunk_row),
    the strategy and seat, the reason, and what the tracer saw (the decision, the view,
    the answer or the traceback)."""
    s = logged.forfeit_seat
    rec: dict[str, Any] = {**where, "seat": s, "strategy": specs[s], "opponent": specs[1 - s]}
    rec.update(kind=logged.forfeit_kind, reason=logged.forfeit_reason)
    if seats is None:
        rec["note"] = f"not traced: more than {MAX_PER_CHUNK} forfeits in this chunk"
    else:
        seen = seats[s]
        rec.update(decision=seen.method, view=seen.view, answer=seen.answer, traceback=seen.traceback)
        same = replayed is not None and replayed.outcome == FORFEIT and replayed.forfeit_reason == logged.forfeit_reason
        if not same:
            rec["note"] = "the replay did not forfeit the same way (a clock forfeit depends on the machine)"
    if "hard_limit_call" in where:  # ginsim.run.hardlimit: that call was not asked again
        method = (logged.forfeit_reason or "").partition(":")[0]
        rec.update(decision=method, view="", answer="", traceback="")
        rec["note"] = (
            f"its process was ended while {method} ran past the hard limit; played again, that call (number "
            f"{where['hard_limit_call']} of the hand) timed out without reaching the strategy"
        )
    return json.dumps(rec)
