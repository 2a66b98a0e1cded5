"""What a run plays: its pairings and how their deals are cut into chunks.

A ``RunPlan`` is the identity of a run: two runs with equal plans write identical hand
logs, which is what lets a killed run resume into the same folder and what a different
command against that folder is refused by. ``--jobs``, the backend and ``--quiet`` are
not part of it: they change how fast, never what.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ginsim.engine.guard import DEFAULT_DECISION_LIMIT
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec
from ginsim.engine.strategy import HAND, LIFETIMES, MATCH
from ginsim.errors import RunError, one_line
from ginsim.run.describe import GauntletRun, MatchRun, RoundRobinRun, RunDescription, SweepRun
from ginsim.run.options import Engine
from ginsim.run.params import param_grid
from ginsim.run.seeding import text_key
from ginsim.run.sizes import DEFAULT_CHUNK_HANDS as DEFAULT_CHUNK_HANDS  # the plan's names, re-exported
from ginsim.run.sizes import DEFAULT_FAST_CHUNK_HANDS as DEFAULT_FAST_CHUNK_HANDS
from ginsim.run.sizes import MAX_COUNT as MAX_COUNT
from ginsim.run.sizes import MAX_PAIRINGS as MAX_PAIRINGS
from ginsim.run.sizes import check_counts, default_chunk, even_counts
from ginsim.runfolder.integrity import chunk_span, chunks_per_pairing
from ginsim.runfolder.records import PairingRecord, RunKind
from ginsim.tournament.spec_check import check_together, parse_specs

KINDS = tuple(k.value for k in RunKind)
FAST_POLICIES = ("simple", "threshold", "random")
"""The built-in names whose classes offer a fast form (``Strategy.fast_policy``; a test keeps
the two in step). Only the chunk size is chosen from these names; which path plays a
chunk is decided in the worker from the loaded classes."""
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


def _labels(specs: list[StrategySpec]) -> list[str]:
    """Short labels, made unique (a self-match is ``simple`` vs ``simple#2``)."""
    out: list[str] = []
    for s in specs:
        label = s.label
        n = 2
        while label in out:
            label = f"{s.label}#{n}"
            n += 1
        out.append(label)
    return out


def fast_policies_only(pairings: Sequence[Pairing], rules: Rules, isolate: bool = False) -> bool:
    """Whether every pairing is of ``FAST_POLICIES`` under rules with no clock, outside
    tournament mode: the chunk size the fast path is given (``default_chunk``)."""
    if isolate or rules.time_per_hand is not None:
        return False
    return all(p.a.target in FAST_POLICIES and p.b.target in FAST_POLICIES for p in pairings)


def plan_match(a: str, b: str, isolate: bool = False, **kw: Any) -> RunPlan:
    specs = parse_specs([a, b], isolate)
    la, lb = _labels(specs)
    return _plan(RunKind.MATCH, (Pairing(0, specs[0], specs[1], la, lb),), isolate=isolate, **kw)


def plan_roundrobin(names: list[str], isolate: bool = False, **kw: Any) -> RunPlan:
    if len(names) < 2:
        raise RunError("a round-robin needs at least two strategies")
    specs = parse_specs(names, isolate)
    canon = [s.canonical for s in specs]
    for i, c in enumerate(canon):
        if c in canon[:i]:
            raise RunError(f"strategy {names[i]!r} is listed twice in the round-robin")
    labels = _labels(specs)
    pairings = []
    for i in range(len(specs)):
        for j in range(i + 1, len(specs)):
            pairings.append(Pairing(len(pairings), specs[i], specs[j], labels[i], labels[j]))
    return _plan(RunKind.ROUNDROBIN, tuple(pairings), isolate=isolate, **kw)


def plan_sweep(
    strategy: str, param: str, versus: list[str], isolate: bool = False, also: Sequence[str] = (), **kw: Any
) -> RunPlan:
    """A sweep of ``param`` (``NAME=...``, as ``--param``), or with ``also`` the grid of
    every combination of the parameters' values, each against every one of ``versus``.
    A grid's pairings keep the parameters' names joined by commas in ``param`` and the
    combination's values as a list in ``value``."""
    if not versus:
        raise RunError.about("a sweep needs at least one opponent: {vs}")
    names, combos = param_grid([param, *also])
    base = parse_specs([strategy], isolate)[0]
    defaults = base.defaults()
    for name in names:
        if name not in defaults:
            known = ", ".join(defaults) or "none"
            raise RunError.about(
                "{param}: {label} has no parameter {name!r} (parameters: {known})",
                label=base.label,
                name=name,
                known=known,
            )
    opponents = parse_specs(versus, isolate)
    for i, o in enumerate(opponents):
        if o.canonical in [x.canonical for x in opponents[:i]]:
            raise RunError.about("{vs} {opponent!r} is listed twice", opponent=versus[i])
    pairings: list[Pairing] = []
    seen: dict[str, str] = {}
    texts = [base.with_params(dict(zip(names, combo, strict=True))).text for combo in combos]
    swept = check_together(texts) if base.facts is not None else None  # checked in its own process
    for i, combo in enumerate(combos):
        spec = swept[i] if swept is not None else base.with_params(dict(zip(names, combo, strict=True)))
        said = ", ".join(f"{n}={v}" for n, v in zip(names, combo, strict=True))
        if spec.canonical in seen:
            raise RunError.about(
                "{param}: {said} is the same value as {other} (listed twice)", said=said, other=seen[spec.canonical]
            )
        seen[spec.canonical] = said
        value: Any = spec.params[names[0]] if len(names) == 1 else [spec.params[n] for n in names]
        for opp in opponents:
            la, lb = _labels([spec, opp])
            pairings.append(Pairing(len(pairings), spec, opp, la, lb, ",".join(names), value))
    param_name = ",".join(names)
    return _plan(RunKind.SWEEP, tuple(pairings), swept=SweptParam(param_name, base.canonical), isolate=isolate, **kw)


def plan_gauntlet(candidate: str, versus: list[str], isolate: bool = False, **kw: Any) -> RunPlan:
    """``candidate`` against each of ``versus``, one pairing each (the candidate is side a)."""
    if not versus:
        raise RunError.about("a gauntlet needs at least one opponent: {vs}")
    specs = parse_specs([candidate, *versus], isolate)
    canon = [s.canonical for s in specs]
    for i, c in enumerate(canon):
        if c in canon[:i]:
            who = "the candidate" if canon.index(c) == 0 else repr(versus[i - 1])
            raise RunError.about("{vs} {opponent!r} is listed twice (as {who})", opponent=versus[i - 1], who=who)
    labels = _labels(specs)
    pairings = tuple(
        Pairing(i, specs[0], s, labels[0], lab) for i, (s, lab) in enumerate(zip(specs[1:], labels[1:], strict=True))
    )
    return _plan(RunKind.GAUNTLET, pairings, isolate=isolate, **kw)


def plan_run(
    run: RunDescription,
    *,
    rules: Rules,
    seed: int = 0,
    hands: int | None = None,
    games: int | None = None,
    duplicate: bool = True,
    chunk: int | None = None,
    note: Callable[[str], None] | None = None,
    isolate: bool = False,
    shared_decks: bool = False,
) -> RunPlan:
    """The plan of a match, round-robin or sweep; 10,000 hands when neither ``hands``
    nor ``games`` is given. Both count what is played per pairing: with duplicate deals,
    half as many deals (games) each played twice, so an odd count is rounded up to whole
    pairs (``note`` is told). ``isolate`` (tournament mode): specs that import outside
    code are checked in processes of their own (ginsim.tournament.spec_check), and the plan is
    tournament mode's. RunError naming the parameter at fault."""
    if hands is None and games is None:
        hands = 10_000
    check_counts(hands, games)
    hands, games = even_counts(hands, games, duplicate, note)
    kw: dict[str, Any] = {"rules": rules, "seed": seed, "hands": hands, "games": games}
    kw.update(duplicate=duplicate, chunk=chunk, isolate=isolate, shared_decks=shared_decks)
    match run:
        case MatchRun(a, b):
            return plan_match(a, b, **kw)
        case RoundRobinRun(strategies):
            return plan_roundrobin(list(strategies), **kw)
        case SweepRun(strategy, param, versus, also):
            return plan_sweep(strategy, param, list(versus), also=also, **kw)
        case GauntletRun(candidate, versus):
            return plan_gauntlet(candidate, list(versus), **kw)
    raise RunError(f"not a run's description: {run!r:.60} (a MatchRun, RoundRobinRun, SweepRun or GauntletRun)")


def _plan(
    kind: RunKind,
    pairings: tuple[Pairing, ...],
    *,
    rules: Rules,
    seed: int,
    hands: int | None = None,
    games: int | None = None,
    duplicate: bool = True,
    chunk: int | None = None,
    swept: SweptParam | None = None,
    isolate: bool = False,
    shared_decks: bool = False,
) -> RunPlan:
    check_counts(hands, games)
    given = chunk is not None
    if len(pairings) > MAX_PAIRINGS:
        raise RunError(f"{len(pairings)} pairings: a run holds at most {MAX_PAIRINGS:,}")
    if seed < 0 or seed >= 2**63:
        raise RunError.about("{seed} must be a whole number from 0 to 2**63-1, not {n}", n=seed)
    n = hands if hands is not None else games
    assert n is not None
    units = math.ceil(n / 2) if duplicate else n
    if chunk is None:
        fast = fast_policies_only(pairings, rules, isolate)
        chunk = default_chunk(units, duplicate=duplicate, games=games is not None, fast=fast, pairings=len(pairings))
    elif chunk <= 0 or chunk > MAX_COUNT:
        raise RunError.about("{chunk} must be from 1 to {most:,}, not {n}", most=MAX_COUNT, n=chunk)
    keep = () if isolate else kept_labels(pairings)
    return RunPlan(
        kind,
        pairings,
        rules,
        seed,
        hands,
        games,
        duplicate,
        chunk,
        swept,
        isolate,
        keep=keep,
        chunk_given=given,
        shared_decks=shared_decks,
    )


def kept_labels(pairings: Sequence[Pairing]) -> tuple[str, ...]:
    """The labels of the strategies whose class says ``lifetime = "match"``: one instance
    per seat for a whole chunk (part of the run's identity). RunError for another value."""
    out: list[str] = []
    for p in pairings:
        for spec, label in ((p.a, p.label_a), (p.b, p.label_b)):
            lifetime = getattr(spec.load_class(), "lifetime", HAND)
            if lifetime not in LIFETIMES:
                raise RunError(f"{spec.text}: lifetime must be 'hand' or 'match', not {lifetime!r}")
            if lifetime == MATCH and label not in out:
                out.append(label)
    return tuple(out)
