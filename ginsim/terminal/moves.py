"""Move logs (``ginsim moves``, ``Run.moves``): every decision of the chosen hands of a run,
one row each, replayed from the seeds and checked against the hand log.

Each hand is rebuilt and played again exactly as ``ginsim replay`` does
(``ginsim.terminal.replay.replay_hand``: a hand that does not replay as logged is an
error, never a silent row); a stand-in for each seat notes, at each of its decisions,
what the seat could see and what it answered. Rows are written to Parquet (or CSV) in
batches as hands are replayed, so memory stays flat however many hands are chosen."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from ginsim.engine.cards import FULL_DECK, format_card, format_cards
from ginsim.engine.strategy import DECISIONS, Strategy, bound_entry, overrides
from ginsim.engine.view import PlayerView
from ginsim.errors import RunError
from ginsim.runfolder.atomic import atomic_path
from ginsim.terminal.recording import Recorder
from ginsim.terminal.replay import replay_hand
from ginsim.terminal.runlog import RunLog

MOVE_COLUMNS: dict[str, str] = {
    "hand": "int64",  # the hand's row in the hand log (as ginsim replay --hand N)
    "pairing": "int32",
    "deal": "int64",  # deal index (hand mode) or game index (game mode)
    "copy": "int8",
    "game_hand": "int32",
    "decision": "int32",  # the decision's number within the hand, from 0
    "turn": "int32",  # draw actions so far, the first-turn offer counting as one
    "seat": "int8",
    "strategy": "string",  # the seat's strategy label
    "phase": "string",  # offer, draw, discard, knock (the view's phase)
    "action": "string",  # take, pass, draw (the stock), discard, knock, play_on, big_gin, no_big_gin
    "card": "string",  # the upcard (offer, draw), the discard, the knock's discard; empty for the stock
    "deadwood_after": "int32",  # the seat's deadwood after the decision (-1: unknown, after a stock draw)
    "stock_size": "int32",  # cards in the stock at the decision
    "hand_cards": "string",  # the seat's cards at the decision
    "seen_cards": "string",  # every card the seat could see: its own, the pile, the opponent's known ones
    "hand_mask": "int64",  # the same as 52-bit masks (bit = suit * 13 + rank)
    "seen_mask": "int64",
}
"""The move log's columns and their types (docs/python.md, "Move logs")."""
BATCH = 4096
"""Rows written at a time: the memory a move log takes, whatever its length."""


def _row(view: PlayerView, method: str, answer: object) -> dict[str, Any]:
    """One decision's facts, read from the seat's own view (nothing it could not see)."""
    hand = view.hand
    seen = hand | view.pile_mask | view.opp_known
    card: str = ""
    deadwood = -1
    if method == "take_upcard":
        took = answer is True
        action = ("take" if took else "pass") if view.phase == "offer" else ("take" if took else "draw")
        card = format_card(view.upcard) if view.upcard is not None and action != "draw" else ""
        if took and view.upcard is not None:  # then its best discard (never the upcard, R12)
            with_up = hand | 1 << view.upcard
            deadwood = min(view.deadwood(with_up & ~(1 << c)) for c in range(52) if hand >> c & 1)
        elif view.phase == "offer":
            deadwood = view.deadwood()
    elif method == "discard":
        action = "discard"
        if isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < 52:
            card, deadwood = format_card(answer), view.deadwood_after(answer)
    elif method == "knock":
        action = "knock" if answer is True else "play_on"
        if view.discard_choice is not None:
            card = format_card(view.discard_choice)
        deadwood = view.discard_deadwood
    else:  # take_big_gin
        action = "big_gin" if answer is not False else "no_big_gin"
        deadwood = 0 if answer is not False else view.deadwood()
    return {
        "turn": view.turn,
        "seat": view.seat,
        "phase": str(view.phase),
        "action": action,
        "card": card,
        "deadwood_after": int(deadwood),
        "stock_size": view.stock_size,
        "hand_cards": format_cards(hand),
        "seen_cards": format_cards(seen & FULL_DECK),
        "hand_mask": hand,
        "seen_mask": seen,
    }


def noting(inner: Strategy, seat: int, rec: Recorder, rows: list[dict[str, Any]]) -> Strategy:
    """A stand-in for ``inner`` that adds a row to ``rows`` at each of its decisions while
    ``rec.active`` (the hand chosen). It overrides exactly the hooks ``inner`` overrides,
    so the engine treats both alike and the hand plays out the same."""

    def decision(name: str) -> Any:
        call = bound_entry(inner, name)

        def method(_self: Strategy, view: PlayerView) -> object:
            answer = call(view)
            if rec.active:
                rows.append(_row(view, name, answer))
            return answer

        return method

    cls = type(inner)
    ns: dict[str, Any] = {"name": inner.name, "description": inner.description}
    for name in (*DECISIONS, "take_big_gin", "choose_melds", "choose_layoffs"):
        if name in DECISIONS or overrides(cls, name):
            ns[name] = decision(name) if name in (*DECISIONS, "take_big_gin") else _passing(inner, name)
    if overrides(cls, "observe"):
        ns["observe"] = lambda _self, view, event: bound_entry(inner, "observe")(view, event)
    del seat  # the view says the seat
    return type(f"Noting{cls.__name__}", (Strategy,), ns)()  # type: ignore[no-any-return]


def _noting_into(rows: list[dict[str, Any]], inner: Strategy, seat: int, rec: Recorder) -> Strategy:
    return noting(inner, seat, rec, rows)


def _passing(inner: Strategy, name: str) -> Callable[..., object]:
    return lambda _self, view: bound_entry(inner, name)(view)


def pick_hands(run: RunLog, hands: str | None, where: str | None) -> Iterator[int]:
    """The rows chosen: ``hands`` (``A:B`` for rows A..B-1, ``N`` or ``N,M,...``), or the
    rows whose hand-log columns satisfy ``where`` (a pandas query, chunk by chunk), or
    every row; in log order."""
    total = len(run)
    if hands is not None and where is not None:
        raise RunError("--hands or --where, not both")
    if hands is not None:
        yield from _parse_rows(hands, total)
        return
    if where is None:
        yield from range(total)
        return
    import pandas as pd
    import pyarrow.parquet as pq

    first = 0
    for f, count in zip(run.files, run.counts, strict=True):
        frame = pq.read_table(f).to_pandas()
        try:
            picked = frame.eval(where)
        except Exception as e:  # noqa: BLE001 - any query mistake is one line
            raise RunError(
                f"--where {where!r}: {type(e).__name__}: {e} (columns: {', '.join(frame.columns)})"
            ) from None
        if not isinstance(picked, pd.Series) or not pd.api.types.is_bool_dtype(picked.dtype):
            raise RunError(f"--where {where!r}: not a condition (true or false for each hand)")
        yield from (first + int(i) for i in picked.to_numpy().nonzero()[0])
        first += count


def _parse_rows(text: str, total: int) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        try:
            if ":" in part:
                a, _, b = part.partition(":")
                lo, hi = int(a or 0), int(b) if b else total
                out.extend(range(lo, min(hi, total)))
            else:
                out.append(int(part))
        except ValueError:
            raise RunError(f"--hands {text!r}: rows are N, N,M,... or A:B (A to B-1)") from None
    bad = [n for n in out if not 0 <= n < total]
    if bad:
        raise RunError(f"--hands: row {bad[0]} is not in the hand log (rows 0 to {total - 1})")
    return out


def move_rows(folder: Path, hands: str | None = None, where: str | None = None) -> Iterator[list[dict[str, Any]]]:
    """Batches of move-log rows of the chosen hands, each hand replayed and checked."""
    run = RunLog(folder)
    labels = {p.index: (p.label_a, p.label_b) for p in run.manifest.pairings}
    batch: list[dict[str, Any]] = []
    for n in pick_hands(run, hands, where):
        noted: list[dict[str, Any]] = []
        replay = replay_hand(run, n, wrap=partial(_noting_into, noted))
        row = replay.row
        seat_a = int(row["seat_a"])
        names = labels[int(row["pairing"])]
        for i, d in enumerate(noted):
            batch.append(
                {"hand": n, "pairing": row["pairing"], "deal": row["deal"], "copy": row["copy"],
                 "game_hand": row["game_hand"], "decision": i, **d,
                 "strategy": names[0] if d["seat"] == seat_a else names[1]}
            )  # fmt: skip
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def write_moves(folder: Path, out: Path, hands: str | None = None, where: str | None = None) -> int:
    """Write the move log of the chosen hands of run ``folder`` to ``out`` (Parquet, or
    CSV when its name ends in .csv), atomically; returns the number of rows."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    schema = pa.schema(
        [(name, pa.string() if t == "string" else pa.from_numpy_dtype(t)) for name, t in MOVE_COLUMNS.items()]
    )
    rows = 0
    csv = out.suffix.lower() == ".csv"
    with atomic_path(out) as tmp:
        writer: Any = (
            pacsv.CSVWriter(str(tmp), schema) if csv else pq.ParquetWriter(str(tmp), schema, compression="zstd")
        )
        try:
            for batch in move_rows(folder, hands, where):
                table = pa.Table.from_pylist(batch, schema=schema)
                writer.write_table(table)
                rows += table.num_rows
        finally:
            writer.close()
    return rows
