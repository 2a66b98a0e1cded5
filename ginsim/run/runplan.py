"""What a run plays: its pairings and how their deals are cut into chunks.

A ``RunPlan`` is the identity of a run: two runs with equal plans write identical hand
logs, which is what lets a killed run resume into the same folder and what a different
command against that folder is refused by. ``--jobs``, the backend and ``--quiet`` are
not part of it: they change how fast, never what. The planners that build a plan are
``ginsim.run.plan``'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ginsim.engine.guard import DEFAULT_DECISION_LIMIT
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec
from ginsim.errors import one_line
from ginsim.run.options import Engine
from ginsim.run.seeding import text_key
from ginsim.runfolder.integrity import chunk_span, chunks_per_pairing
from ginsim.runfolder.records import PairingRecord, RunKind

PER_PAIRING = "per pairing"
"""A tournament run's ``identity.extra.decks``: each pairing dealt decks of its own
(``seeding.pairing_secret``); a run with ``--shared-decks`` has no such entry."""


@dataclass(frozen=True)
class ChunkPlan(Sequence[tuple[int, int, int, int]]):
    """Every chunk of a plan as (pairing index, chunk index, first unit, end unit),
    computed on demand: memory stays flat however many hands are asked for."""

    pairings: tuple[int, ...]  # the pairings' indices
    units: int
    chunk: int
    bounds: tuple[int, ...] = ()  # a grown run: the counts it was played to before (integrity.chunk_span)

    @property
    def per_pairing(self) -> int:
        return chunks_per_pairing(self.units, self.chunk, self.bounds)

    def span(self, ci: int) -> tuple[int, int]:
        """Chunk ``ci``'s first and end unit (the same in every pairing)."""
        return chunk_span(self.units, self.chunk, self.bounds, ci)

    def __len__(self) -> int:
        return self.per_pairing * len(self.pairings)

    def __getitem__(self, i: int) -> tuple[int, int, int, int]:  # type: ignore[override]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        i %= len(self)
        pi, ci = divmod(i, self.per_pairing)
        return self.pairings[pi], ci, *self.span(ci)

    def __iter__(self) -> Iterator[tuple[int, int, int, int]]:
        per = self.per_pairing
        for p in self.pairings:
            for ci in range(per):
                yield p, ci, *self.span(ci)


@dataclass(frozen=True)
class Pairing:
    """One pairing: strategy ``a`` against strategy ``b`` (sweeps add the parameter)."""

    index: int
    a: StrategySpec
    b: StrategySpec
    label_a: str
    label_b: str
    param: str | None = None
    value: Any = None

    @property
    def key(self) -> int:
        """The seed key of this pairing's strategy random streams."""
        return text_key("pairing", self.a.canonical, self.b.canonical)

    def record(self) -> PairingRecord:
        """This pairing as the run folder keeps it (canonical specs)."""
        return PairingRecord(
            self.index, self.a.canonical, self.b.canonical, self.label_a, self.label_b, self.param, self.value
        )

    def to_dict(self) -> dict[str, Any]:
        return self.record().to_dict()


@dataclass(frozen=True)
class ChunkTask:
    """Everything a process needs to play one chunk (plain, picklable data)."""

    rules: Rules
    spec_a: StrategySpec
    spec_b: StrategySpec
    pairing: int
    pairing_key: int
    seed: int
    mode: str  # "hands" or "games"
    duplicate: bool
    start: int
    stop: int
    chunk: int  # chunk index, for naming
    decision_limit: float | None = DEFAULT_DECISION_LIMIT  # hard seconds per decision (ginsim.engine.guard)
    isolate: bool = False  # tournament mode: each strategy in its own process (ginsim.tournament.referee)
    secret: bytes = b""  # tournament mode: the run's secret, mixed into every deal seed
    engine: Engine = Engine.AUTO  # the run's engine (ginsim.run.options): the worker plays as it says
    keep: tuple[bool, bool] = (False, False)  # lifetime "match" of strategy a, b: one instance per seat for the chunk
    bot_limits: tuple[tuple[str, int], ...] = ()  # tournament mode: each bot process's limits (tournament.confine)


def playing(task: ChunkTask) -> str:
    """The pairing a chunk task plays, for one line: ``'a.py:A' vs 'simple'``."""
    return f"{one_line(task.spec_a.text)!r} vs {one_line(task.spec_b.text)!r}"


@dataclass(frozen=True)
class SweptParam:
    """A sweep's parameter and the canonical spec of the strategy it varies."""

    param: str
    base: str


@dataclass(frozen=True)
class RunPlan:
    """Everything that decides a run's hand log."""

    kind: RunKind
    pairings: tuple[Pairing, ...]
    rules: Rules
    seed: int
    hands: int | None  # hands played per pairing (single-hand mode)
    games: int | None  # games played per pairing (game mode)
    duplicate: bool
    chunk: int  # deals (or games) per chunk
    swept: SweptParam | None = None  # sweeps only
    isolate: bool = False  # tournament mode: other decks (the run's secret), other rules of play
    bounds: tuple[int, ...] = ()  # a grown run: the units per pairing it was played to before
    keep: tuple[str, ...] = ()  # labels of the strategies with lifetime "match" (one instance per chunk)
    chunk_given: bool = False  # the caller chose the chunk size (a grown run keeps its own otherwise)
    shared_decks: bool = False  # tournament mode: every pairing dealt the same decks (else each its own)

    def extra(self) -> dict[str, Any]:
        """The identity's ``extra`` object as manifests have always written it: a sweep's
        ``param`` and ``base``, then ``isolate`` in tournament mode; empty otherwise."""
        out: dict[str, Any] = {}
        if self.swept is not None:
            out.update(param=self.swept.param, base=self.swept.base)
        if self.isolate:
            out["isolate"] = True
            if not self.shared_decks:
                out["decks"] = PER_PAIRING
        return out

    @property
    def units(self) -> int:
        """Deals (hand mode) or games (game mode) per pairing: with duplicate deals each
        is played twice, so half the hands (games) counted."""
        n = self.hands if self.hands is not None else self.games
        assert n is not None
        return math.ceil(n / 2) if self.duplicate else n

    @property
    def mode(self) -> str:
        return "hands" if self.hands is not None else "games"

    def chunks(self) -> ChunkPlan:
        """Every chunk as (pairing index, chunk index, first unit, end unit), lazily."""
        return ChunkPlan(tuple(p.index for p in self.pairings), self.units, self.chunk, self.bounds)

    def hands_per_unit(self) -> int:
        """Hands per deal in hand mode (2 with duplicate deals)."""
        return 2 if self.duplicate else 1

    def identity(self) -> dict[str, Any]:
        """What must match for a folder to be resumed by this plan."""
        return {
            "kind": str(self.kind),
            "pairings": [p.to_dict() for p in self.pairings],
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "hands": self.hands,
            "games": self.games,
            "duplicate": self.duplicate,
            "chunk": self.chunk,
            **({"extra": extra} if (extra := self.extra()) else {}),
            **({"bounds": list(self.bounds)} if self.bounds else {}),
            **({"keep": list(self.keep)} if self.keep else {}),
        }
