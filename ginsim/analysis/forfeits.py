"""Forfeits made loud: which strategy forfeited how many hands, the first reason, and
the hand numbers to give ``ginsim replay DIR --hand N`` (the row numbers of the hand
log, chunk files in name order, rows in file order, as ginsim.terminal.replay counts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ginsim.errors import one_line
from ginsim.runfolder.records import OUTCOME_CODE, PairingRecord, outcome_codes, read_chunk

SHOWN = 5
"""How many hand numbers a report lists per forfeiting strategy."""


@dataclass
class Forfeiter:
    """One strategy's forfeits over a run."""

    strategy: str
    count: int = 0
    first_reason: str = ""
    hands: list[int] = field(default_factory=list)  # the first SHOWN hand numbers

    def replay_hint(self, folder: Path) -> str:
        more = f" (first {len(self.hands)} of {self.count:,})" if self.count > len(self.hands) else ""
        numbers = ", ".join(str(h) for h in self.hands)
        return f"hands {numbers}{more}: ginsim replay {folder} --hand {self.hands[0]}"


def forfeiters(files: list[Path], pairings: list[PairingRecord]) -> list[Forfeiter]:
    """Each strategy that forfeited, most forfeits first, read one chunk file at a time."""
    labels = {p.index: (p.label_a, p.label_b) for p in pairings}
    found: dict[str, Forfeiter] = {}
    offset = 0
    cols = ["pairing", "seat_a", "outcome", "forfeit_seat", "forfeit_reason"]
    for f in files:
        df = read_chunk(f, cols)
        n = len(df)
        rows = np.flatnonzero(outcome_codes(df["outcome"]) == OUTCOME_CODE["forfeit"])
        if len(rows):
            pairing = df["pairing"].to_numpy()
            seat_a = df["seat_a"].to_numpy()
            fseat = df["forfeit_seat"].to_numpy()
            reason = df["forfeit_reason"].to_numpy(dtype=object)
            for i in rows:
                a, b = labels.get(int(pairing[i]), ("?", "?"))
                name = a if int(fseat[i]) == int(seat_a[i]) else b
                rec = found.setdefault(name, Forfeiter(name, first_reason=str(reason[i])))
                rec.count += 1
                if len(rec.hands) < SHOWN:
                    rec.hands.append(offset + int(i))
        offset += n
    return sorted(found.values(), key=lambda r: (-r.count, r.strategy))


def forfeit_lines(recs: list[Forfeiter], folder: Path) -> list[str]:
    """The terminal's forfeit notice, one line per forfeiting strategy (none: no lines)."""
    out = []
    for r in recs:
        out.append(
            f"FORFEITS: {one_line(r.strategy)} forfeited {r.count:,} hand{'s' if r.count != 1 else ''} "
            "(each scored as the opponent's worst-case win, docs/METRICS.md); "
            f"first: {one_line(r.first_reason)[:200]}; "
            f"{r.replay_hint(folder)}"
        )
    return out
