"""How often does a sampling teacher give the same discard twice? Ask it again at logged decisions.

    python experiments/training/teacher_agreement.py --records build/t1a --every 8

replays the logged games of every records file in ``--records`` (``relabel.py``: the same
games against the same opponents) and, at about one discard decision in ``--every`` (chosen
by the hand, the turn and the seat, so the same ones each time), asks a fresh teacher
(``patient`` with ``--teacher``'s parameters: T1 of the notes by default) for its discard.
Its worlds are dealt afresh: one draw of the seat's generator is taken first, so they are not
the logged run's. It prints the share of the asked decisions on which the teacher gives the
logged answer again.

That share is about the most a student of one answer a decision can agree with the teacher
on held-out decisions (a student that learned the teacher's likeliest answer could do
somewhat better): the notes' tenth attempt measured it before trying more features.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from ginsim.strategies.learned import Context
from ginsim.strategies.patient import Patient
from labels import ReplayError
from mixed_player import STRONG
from relabel import relabel_file

from ginsim.cards import Card, Mask
from ginsim.engine.spec import parse_spec
from ginsim.engine.view import PlayerView
from ginsim.errors import GinsimError

NOT_ASKED = -1.0


def asked(view: PlayerView, every: int) -> bool:
    """Whether this discard decision is one of those asked again (a fixed hash of the hand,
    the turn and the seat)."""
    key = (view.hand * 0x9E3779B97F4A7C15 + view.turn * 0x85EBCA6B + view.seat) & (2**64 - 1)
    return (key >> 29) % every == 0


class Asker:
    """Extra columns for ``relabel_file``: at an asked discard decision, 1 for the option the
    fresh teacher keeps and 0 for the others; ``NOT_ASKED`` elsewhere. One teacher a seat, so
    each keeps its own evidence of the opponent's kind over a game."""

    def __init__(self, teacher: str, every: int) -> None:
        self.spec = parse_spec(f"patient:{teacher}")
        self.every = every
        self.teachers: dict[int, Patient] = {}
        self._last: tuple[int, Mask, int] | None = None
        self._answer: Card | None = None

    def teacher(self, seat: int) -> Patient:
        if seat not in self.teachers:
            made = self.spec.build()
            assert isinstance(made, Patient)
            self.teachers[seat] = made
        return self.teachers[seat]

    def __call__(self, head: str, view: PlayerView, _ctx: Context, option: int) -> list[float]:
        teacher = self.teacher(view.seat)
        if head != "discard":
            teacher.hunter_chance(view)  # its evidence of the opponent, read at every decision
            return [NOT_ASKED]
        key = (id(view), view.hand, view.turn)
        if key != self._last:  # the first of this decision's options
            teacher.hunter_chance(view)
            self._last, self._answer = key, None
            if asked(view, self.every):
                view.rng.getrandbits(64)
                self._answer = teacher.discard(view)
        if self._answer is None:
            return [NOT_ASKED]
        return [1.0 if option == view.hand & ~(1 << self._answer) else 0.0]


def agreement(path: Path) -> tuple[int, int]:
    """(decisions asked, of which the teacher gave the logged answer) in a relabelled file."""
    with np.load(path) as d:
        rows, sizes, chosen = d["discard.rows"], d["discard.sizes"], d["discard.chosen"]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int)
    flags = rows[starts + chosen, -1]
    mask = flags != NOT_ASKED
    return int(mask.sum()), int((flags[mask] == 1.0).sum())


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--records", type=Path, required=True, help="a folder of logged records files")
    ap.add_argument("--teacher", default=STRONG, help="patient's parameters (the logged run's teacher)")
    ap.add_argument("--every", type=int, default=8, help="ask about one discard decision in this many")
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error(f"--every must be at least 1, not {args.every}")
    paths = sorted(args.records.glob("records-*.npz"))
    if not paths:
        print(f"teacher_agreement: no records files in {args.records}", file=sys.stderr)
        return 2
    try:
        asker = Asker(args.teacher, args.every)
    except (ValueError, GinsimError) as err:
        print(f"teacher_agreement: --teacher: {err}", file=sys.stderr)
        return 2
    total = same = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            out = Path(tmp) / path.name
            try:
                relabel_file(path, out, asker)
            except (ReplayError, GinsimError, OSError) as err:
                print(f"teacher_agreement: {path}: {err}", file=sys.stderr)
                return 2
            n, k = agreement(out)
            total, same = total + n, same + k
    share = same / total if total else float("nan")
    print(json.dumps({"asked": total, "same": same, "share": round(share, 4), "teacher": args.teacher}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
