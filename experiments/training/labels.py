"""The records of a labelling run: ``learned``'s rows for each of a teacher's decisions, and
the log of every decision the teacher made, so the rows can be worked out again.

A teacher (``patient``) is slow: 256 worlds a hard decision take a labelling run the better
part of an hour. The rows are fast. So every records file also keeps, game by game, the
game's seed, the teacher's seat and each answer it gave (``Noting.log``); ``Replayer`` plays
those answers back in the same games against the same opponent (the engine is seeded, so
the games are the same, checked by their final scores) and notes the rows that ``learned``'s
features give *now*. A new feature is tried on the teacher's decisions in minutes, not in
another labelling run: ``relabel.py``.

A records file (``records-PRESET-K.npz``) holds, by head, the rows of every decision's
options (``KEY.rows``), their count a decision (``KEY.sizes``) and the option taken
(``KEY.chosen``); ``hands`` and ``seconds`` of play; and the log: ``log.seeds``,
``log.dealers`` (each game's first dealer), ``log.seats``, ``log.sizes`` (answers a game and
seat), ``log.answers`` (take and knock as 0/1, a discard as its card), ``log.scores`` (each
game's final scores) and ``log.meta`` (JSON: the preset, the opponent's spec, the teacher's
parameters). Files written before the log existed have no ``log.*`` arrays and cannot be
replayed.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from ginsim.strategies.learned import HEADS, Context, Learned, discard_rows, knock_row, take_row

from ginsim.engine.cards import Card
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView

Records = dict[str, list[tuple[list[list[float]], int]]]
"""By head: (the rows of a decision's options, the index of the one taken)."""


Columns = Callable[[str, PlayerView, Context, int], list[float]]
"""Extra columns for a row (a feature being tried, ``feature_trial.py``): given the head
(``discard``, ``take``, ``knock``), the view, ``learned``'s context and the option (the 10
cards a discard keeps, the upcard, the 10 cards a knock keeps), the numbers to append."""


class Noting:
    """Notes ``learned``'s rows for each decision with the answer given (each row lengthened
    by ``columns``, if given), and logs every answer."""

    def start_noting(self, columns: Columns | None = None) -> None:
        self.student = Learned()
        self.records: Records = {key: [] for key in HEADS}
        self.log: list[int] = []
        self.columns = columns

    def note_take(self, view: PlayerView, take: bool) -> None:
        self.log.append(int(take))
        if view.upcard is not None:
            ctx = self.student.context(view)
            row = take_row(view, ctx)
            if self.columns is not None:
                row += self.columns("take", view, ctx, view.upcard)
            self.records["take"].append(([row], int(take)))

    def note_discard(self, view: PlayerView, card: Card) -> None:
        self.log.append(card)
        hand = view.hand
        ctx = self.student.context(view)
        cards, rows = discard_rows(ctx, hand, hand & ~view.legal_discards())
        if len(cards) > 1 and card in cards:
            if self.columns is not None:
                extra = self.columns
                rows = [row + extra("discard", view, ctx, hand & ~(1 << c)) for c, row in zip(cards, rows, strict=True)]
            self.records["discard"].append((rows, cards.index(card)))

    def note_knock(self, view: PlayerView, knock: bool) -> None:
        self.log.append(int(knock))
        dw = view.discard_deadwood
        if dw:
            card = view.discard_choice
            rest = view.hand if card is None else view.hand & ~(1 << card)
            ctx = self.student.context(view)
            row = knock_row(view, ctx, dw, rest)
            if self.columns is not None:
                row += self.columns("knock", view, ctx, rest)
            self.records["knock"].append(([row], int(knock)))


class Noted(Noting):
    """Mixed in before a strategy's class (``class Teacher(Noted, Patient)``): the strategy
    answers as its class does, and each answer is noted with ``learned``'s rows."""

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.start_noting()

    def take_upcard(self, view: PlayerView) -> bool:
        take: bool = super().take_upcard(view)  # type: ignore[misc]
        self.note_take(view, take)
        return take

    def discard(self, view: PlayerView) -> Card:
        card: Card = super().discard(view)  # type: ignore[misc]
        self.note_discard(view, card)
        return card

    def knock(self, view: PlayerView) -> bool:
        knock: bool = super().knock(view)  # type: ignore[misc]
        self.note_knock(view, knock)
        return knock


class ReplayError(RuntimeError):
    """A replayed game left its log: the rows of a feature are not the run's decisions."""


class Replayer(Noting, Strategy):
    """Gives a logged teacher's answers back, in order, and notes the rows of the features
    as they are now."""

    name = "replayer"

    def __init__(self, answers: Sequence[int], columns: Columns | None = None) -> None:
        self.start_noting(columns)
        self._answers = list(answers)
        self._next = 0

    def _answer(self) -> int:
        if self._next >= len(self._answers):
            raise ReplayError("the game asked more than the log holds")
        self._next += 1
        return self._answers[self._next - 1]

    def finished(self) -> bool:
        """Whether every logged answer was given."""
        return self._next == len(self._answers)

    def take_upcard(self, view: PlayerView) -> bool:
        take = bool(self._answer())
        self.note_take(view, take)
        return take

    def discard(self, view: PlayerView) -> Card:
        card = self._answer()
        if not view.legal_discards() >> card & 1:
            raise ReplayError(f"the log's discard {card} is not legal here")
        self.note_discard(view, card)
        return card

    def knock(self, view: PlayerView) -> bool:
        knock = bool(self._answer())
        self.note_knock(view, knock)
        return knock


class GameLog:
    """The answers of a file's teachers, game by game, as they are saved."""

    def __init__(self, meta: dict[str, Any]) -> None:
        self.meta = meta
        self.seeds: list[int] = []
        self.seats: list[int] = []
        self.dealers: list[int] = []
        self.answers: list[list[int]] = []
        self.scores: list[tuple[int, int]] = []

    def add(self, seed: int, dealer: int, seat: int, answers: list[int], scores: tuple[int, int]) -> None:
        """Game ``seed`` (first dealer ``dealer``): the teacher at ``seat`` gave ``answers``."""
        self.seeds.append(seed)
        self.dealers.append(dealer)
        self.seats.append(seat)
        self.answers.append(answers)
        self.scores.append(scores)

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "log.seeds": np.array(self.seeds, dtype=np.int64),
            "log.seats": np.array(self.seats, dtype=np.int64),
            "log.dealers": np.array(self.dealers, dtype=np.int64),
            "log.sizes": np.array([len(a) for a in self.answers], dtype=np.int64),
            "log.answers": np.array([x for a in self.answers for x in a], dtype=np.int64),
            "log.scores": np.array(self.scores, dtype=np.int64).reshape(-1, 2),
            "log.meta": np.array(json.dumps(self.meta, sort_keys=True)),
        }

    @classmethod
    def read(cls, path: Path) -> GameLog:
        try:
            return cls._read(path)
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
            raise ReplayError(f"cannot be read ({err})") from None

    @classmethod
    def _read(cls, path: Path) -> GameLog:
        with np.load(path) as d:
            if "log.meta" not in d:
                raise ReplayError("no log of the teacher's answers (written before logs were kept)")
            log = cls(json.loads(str(d["log.meta"])))
            ends = np.cumsum(d["log.sizes"])
            answers = d["log.answers"].tolist()
            games = zip(d["log.seeds"].tolist(), d["log.dealers"].tolist(), d["log.seats"].tolist(), strict=True)
            for i, (seed, dealer, seat) in enumerate(games):
                start = int(ends[i - 1]) if i else 0
                scores = d["log.scores"][i].tolist()
                log.add(seed, dealer, seat, answers[start : int(ends[i])], (scores[0], scores[1]))
        return log


def save_records(path: Path, records: Records, hands: int, seconds: float, log: GameLog | None = None) -> None:
    arrays: dict[str, np.ndarray] = {"hands": np.array(hands), "seconds": np.array(seconds)}
    for key, items in records.items():
        width = len(items[0][0][0]) if items else len(HEADS[key])  # wider with a trial's columns
        arrays[f"{key}.rows"] = np.array([r for rows, _ in items for r in rows], dtype=np.float64).reshape(-1, width)
        arrays[f"{key}.sizes"] = np.array([len(rows) for rows, _ in items], dtype=np.int64)
        arrays[f"{key}.chosen"] = np.array([c for _, c in items], dtype=np.int64)
    if log is not None:
        arrays.update(log.arrays())
    np.savez_compressed(path, **arrays)


def load_records(
    paths: Sequence[Path], share: float = 1.0, heads: Sequence[str] = tuple(HEADS)
) -> tuple[dict[str, tuple[np.ndarray, ...]], int]:
    """The records of ``paths`` for ``heads`` (the first ``share`` of each file's decisions),
    and the hands they came from. Files whose other heads have other features may be mixed."""
    out: dict[str, list[tuple[np.ndarray, ...]]] = {key: [] for key in heads}
    hands = 0.0
    for path in paths:
        with np.load(path) as d:
            hands += float(d["hands"]) * share
            for key in heads:
                sizes, chosen, rows = d[f"{key}.sizes"], d[f"{key}.chosen"], d[f"{key}.rows"]
                if rows.shape[1] != len(HEADS[key]):
                    raise ValueError(
                        f"{path}: its {key} rows have {rows.shape[1]} features, learned has {len(HEADS[key])}"
                        " (relabel.py works them out again from the file's log)"
                    )
                n = int(len(sizes) * share)
                out[key].append((rows[: int(sizes[:n].sum())], sizes[:n], chosen[:n]))
    joined = {key: tuple(np.concatenate([part[i] for part in parts]) for i in range(3)) for key, parts in out.items()}
    return joined, int(hands)
