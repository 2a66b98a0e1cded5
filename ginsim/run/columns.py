"""A chunk's hand records as the worker gathers them: rows (one append per hand), turned
into the run folder's columns (ginsim.runfolder.records) once at the end; each forfeit's
traced replay noted with its row, at once or, for one table's part of a tournament chunk
(ginsim.tournament.tables), when the part joins the chunk's rows in order."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ginsim.engine.playhand import HandResult
from ginsim.runfolder.forfeit_files import FORFEIT_DETAILS
from ginsim.runfolder.records import COLUMNS, GAME_COLUMNS, GAME_PREFIX, OUTCOME_CODE, RESULT_COLUMNS

Note = Callable[["Columns", int], None]
"""Records a forfeit of row ``int`` of the columns (its traced replay)."""


class Columns:
    """Hand records of a chunk, kept as rows (one append per hand) and turned into
    columns once at the end. ``traced``: its forfeits are replayed and recorded (not in a
    replay's scratch columns); ``deferred``: one table's part of the chunk
    (ginsim.tournament.tables), its forfeits traced once it joins the chunk's columns."""

    def __init__(self, traced: bool = False, deferred: bool = False) -> None:
        self.rows: list[tuple[Any, ...]] = []
        self.games: list[tuple[Any, ...]] = []  # game mode: one row per game (GAME_COLUMNS)
        self.forfeits: list[str] = []  # each forfeit's record (ginsim.runfolder.forfeit_records), JSON text
        self.traced = traced
        self.deferred: list[tuple[int, Note]] | None = [] if deferred else None

    def later(self, note: Note) -> None:
        """Trace the forfeit of the last row added: now, or when this part joins the chunk."""
        if not self.traced:
            return
        row = len(self.rows) - 1
        if self.deferred is None:
            note(self, row)
        else:
            self.deferred.append((row, note))

    def absorb(self, part: Columns) -> None:
        """Append one table's part, then trace its forfeits (their rows as they are here)."""
        base = len(self.rows)
        self.rows += part.rows
        self.games += part.games
        for row, note in part.deferred or ():
            note(self, base + row)

    def add(
        self,
        pairing: int,
        deal: int,
        copy: int,
        game_hand: int,
        seat_a: int,
        r: HandResult,
        scores: tuple[int, int],
        game_end: bool,
        game_winner: int,
    ) -> None:
        self.rows.append((pairing, deal, copy, game_hand, seat_a, r, scores, game_end, game_winner))

    def arrays(self) -> dict[str, np.ndarray]:
        n = len(self.rows)
        values: dict[str, Any] = {name: () for name in COLUMNS}
        reasons: tuple[str, ...] = ()
        if n:
            pairing, deal, copy, game_hand, seat_a, results, scores, game_end, game_winner = zip(
                *self.rows, strict=True
            )
            values.update(pairing=pairing, deal=deal, copy=copy, game_hand=game_hand, seat_a=seat_a)
            values.update(game_end=game_end, game_winner=game_winner)
            values["score_0"], values["score_1"] = zip(*scores, strict=True)
            by_field = zip(*map(_READ_RESULT, results), strict=True)
            values.update(zip(RESULT_COLUMNS, by_field, strict=True))
            values["outcome"] = [OUTCOME_CODE[o] for o in values["outcome"]]
            reasons = tuple(r.forfeit_reason for r in results)
        out = {name: np.asarray(values[name], dtype=dtype) for name, dtype in COLUMNS.items()}
        out["forfeit_reason"] = np.asarray(reasons, dtype=object).reshape(n)
        if self.forfeits:
            out[FORFEIT_DETAILS] = np.asarray(self.forfeits, dtype=object)
        if self.games:
            columns = list(zip(*self.games, strict=True))
            for (name, dtype), values in zip(GAME_COLUMNS.items(), columns, strict=True):
                out[GAME_PREFIX + name] = np.asarray(values, dtype=dtype)
        return out


_READ_RESULT = operator.attrgetter(*RESULT_COLUMNS)
