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
from ginsim.engine.registry import StrategySpec
from ginsim.engine.rules import Rules
from ginsim.errors import RunError, one_line
from ginsim.run.describe import MatchRun, RoundRobinRun, RunDescription, SweepRun
from ginsim.run.options import Engine
from ginsim.run.records import PairingRecord, RunKind
from ginsim.run.seeding import text_key
from ginsim.run.speccheck import check_together, parse_specs

KINDS = tuple(k.value for k in RunKind)
DEFAULT_CHUNK_HANDS = 4000
DEFAULT_FAST_CHUNK_HANDS = 20_000
"""Hands per chunk when every pairing is of ``FAST_POLICIES``: the fast path plays such a
chunk in about the time the general engine takes for DEFAULT_CHUNK_HANDS, and a chunk's
fixed costs (its Parquet file, checksum record, fsync and digest) are paid a fifth as often."""
FAST_POLICIES = ("simple", "threshold", "random")
"""The built-in names whose classes offer a fast form (``Strategy.fast_policy``; a test keeps
the two in step). Only the chunk size is chosen from these names; which path plays a
chunk is decided in the worker from the loaded classes."""
MAX_COUNT = 1_000_000_000
"""The most hands (or games) per pairing: deal indices fit the hand log's uint32 column
with room to spare, and a run of this size is already days of playing."""
MAX_PAIRINGS = 9_999
PER_PAIRING = "per pairing"
"""A tournament run's ``identity.extra.decks``: each pairing dealt decks of its own
(``seeding.pairing_secret``); a run with ``--shared-decks`` has no such entry."""
"""The most pairings of a run (chunk files are named p0000..p9999; the column is uint16)."""


@dataclass(frozen=True)
class ChunkPlan(Sequence[tuple[int, int, int, int]]):
    """Every chunk of a plan as (pairing index, chunk index, first unit, end unit),
    computed on demand: memory stays flat however many hands are asked for."""

    pairings: tuple[int, ...]  # the pairings' indices
    units: int
    chunk: int

    @property
    def per_pairing(self) -> int:
        return math.ceil(self.units / self.chunk)

    def __len__(self) -> int:
        return self.per_pairing * len(self.pairings)

    def __getitem__(self, i: int) -> tuple[int, int, int, int]:  # type: ignore[override]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        i %= len(self)
        pi, ci = divmod(i, self.per_pairing)
        start = ci * self.chunk
        return self.pairings[pi], ci, start, min(start + self.chunk, self.units)

    def __iter__(self) -> Iterator[tuple[int, int, int, int]]:
        for p in self.pairings:
            for ci in range(self.per_pairing):
                start = ci * self.chunk
                yield p, ci, start, min(start + self.chunk, self.units)


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
    isolate: bool = False  # tournament mode: each strategy in its own process (ginsim.run.isolate)
    secret: bytes = b""  # tournament mode: the run's secret, mixed into every deal seed
    engine: Engine = Engine.AUTO  # the run's engine (ginsim.run.options): the worker plays as it says
    bot_limits: tuple[tuple[str, int], ...] = ()  # tournament mode: each bot process's limits (ginsim.outside.jail)


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
    hands: int | None  # hands per pairing (single-hand mode)
    games: int | None  # games per pairing (game mode)
    duplicate: bool
    chunk: int  # deals (or games) per chunk
    swept: SweptParam | None = None  # sweeps only
    isolate: bool = False  # tournament mode: other decks (the run's secret), other rules of play
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
        """Deals (hand mode) or games (game mode) per pairing."""
        n = self.hands if self.hands is not None else self.games
        assert n is not None
        return math.ceil(n / 2) if self.duplicate and self.hands is not None else n

    @property
    def mode(self) -> str:
        return "hands" if self.hands is not None else "games"

    def chunks(self) -> ChunkPlan:
        """Every chunk as (pairing index, chunk index, first unit, end unit), lazily."""
        return ChunkPlan(tuple(p.index for p in self.pairings), self.units, self.chunk)

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


def check_counts(hands: int | None, games: int | None) -> None:
    """RunError naming ``hands`` or ``games`` unless exactly one is a count in range."""
    if (hands is None) == (games is None):
        raise RunError.about("give either {hands} or {games}")
    n = hands if hands is not None else games
    assert n is not None
    count = "{hands}" if hands is not None else "{games}"  # the parameter the message names
    if n <= 0:
        raise RunError.about(count + " must be a positive whole number, not {n}", n=n)
    if n > MAX_COUNT:
        raise RunError.about(
            count + " {n}: at most {most:,} per pairing (split a bigger study into runs by seed)", n=n, most=MAX_COUNT
        )


def default_chunk(
    units: int, jobs_hint: int = 8, duplicate: bool = True, games: bool = False, fast: bool = False, pairings: int = 1
) -> int:
    """Deals (or games) per chunk: about DEFAULT_CHUNK_HANDS hands, smaller for small runs
    so every core gets work. When ``fast`` (every pairing is of built-in policies the fast
    path plays): about DEFAULT_FAST_CHUNK_HANDS, and the ``pairings`` together make
    enough chunks for every core (a sweep's values need not each be split eight ways)."""
    hands = DEFAULT_FAST_CHUNK_HANDS if fast else DEFAULT_CHUNK_HANDS
    per = (hands // (2 if duplicate else 1)) // (8 if games else 1)
    return max(1, min(per, math.ceil(units * (pairings if fast else 1) / jobs_hint)))


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


def parse_param_range(text: str) -> tuple[str, list[Any]]:
    """``knock_at=0:10[:step]`` (inclusive) or ``knock_at=1,4,7`` as (name, values)."""
    name, sep, rng = text.partition("=")
    name = name.strip()
    if not sep or not name or not rng.strip():
        raise RunError.about("{param}: expected NAME=START:STOP[:STEP] or NAME=v1,v2,..., not {text!r}", text=text)
    rng = rng.strip()
    if ":" in rng:
        parts = rng.split(":")
        if len(parts) not in (2, 3):
            raise RunError.about("{param} {text!r}: a range is START:STOP or START:STOP:STEP", text=text)
        try:
            nums = [_number(p) for p in parts]
        except ValueError:
            raise RunError.about("{param} {text!r}: range bounds must be numbers", text=text) from None
        start, stop = nums[0], nums[1]
        step = nums[2] if len(nums) == 3 else 1
        if step <= 0:
            raise RunError.about("{param} {text!r}: the step must be positive", text=text)
        if stop < start:
            raise RunError.about("{param} {text!r}: STOP is below START", text=text)
        values: list[Any] = []
        k = 0
        while True:
            v = start + k * step
            if v > stop + 1e-9 * abs(step):
                break
            values.append(round(v, 10) if isinstance(v, float) else v)
            k += 1
            if k > 10_000:
                raise RunError.about("{param} {text!r}: more than 10000 values", text=text)
        return name, values
    items = [p.strip() for p in rng.split(",")]
    if any(not p for p in items):
        raise RunError.about("{param} {text!r}: empty value in the list", text=text)
    return name, items


def _number(text: str) -> int | float:
    t = text.strip()
    try:
        return int(t)
    except ValueError:
        return float(t)


def plan_sweep(strategy: str, param: str, versus: list[str], isolate: bool = False, **kw: Any) -> RunPlan:
    if not versus:
        raise RunError.about("a sweep needs at least one opponent: {vs}")
    name, values = parse_param_range(param)
    base = parse_specs([strategy], isolate)[0]
    defaults = base.defaults()
    if name not in defaults:
        known = ", ".join(defaults) or "none"
        raise RunError.about(
            "{param}: {label} has no parameter {name!r} (parameters: {known})", label=base.label, name=name, known=known
        )
    opponents = parse_specs(versus, isolate)
    for i, o in enumerate(opponents):
        if o.canonical in [x.canonical for x in opponents[:i]]:
            raise RunError.about("{vs} {opponent!r} is listed twice", opponent=versus[i])
    pairings = []
    seen: dict[str, Any] = {}
    swept = None
    if base.facts is not None:  # checked in its own process (tournament mode): so are its values
        swept = check_together([base.with_params({name: v}).text for v in values])
    for i, v in enumerate(values):
        spec = swept[i] if swept is not None else base.with_params({name: v})
        if spec.canonical in seen:
            raise RunError.about(
                "{param}: {name}={v} is the same value as {name}={w} (listed twice)",
                name=name,
                v=v,
                w=seen[spec.canonical],
            )
        seen[spec.canonical] = v
        for opp in opponents:
            la, lb = _labels([spec, opp])
            pairings.append(Pairing(len(pairings), spec, opp, la, lb, name, spec.params[name]))
    return _plan(RunKind.SWEEP, tuple(pairings), swept=SweptParam(name, base.canonical), isolate=isolate, **kw)


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
    nor ``games`` is given; an odd hand count with duplicate deals is rounded up to whole
    pairs (``note`` is told). ``isolate`` (tournament mode): specs that import outside
    code are checked in processes of their own (ginsim.run.speccheck), and the plan is
    tournament mode's. RunError naming the parameter at fault."""
    if hands is None and games is None:
        hands = 10_000
    check_counts(hands, games)
    if hands is not None and duplicate and hands % 2:
        hands += 1
        if note is not None:
            note(f"note: duplicate deals come in pairs: playing {hands} hands per pairing")
    kw: dict[str, Any] = {"rules": rules, "seed": seed, "hands": hands, "games": games}
    kw.update(duplicate=duplicate, chunk=chunk, isolate=isolate, shared_decks=shared_decks)
    match run:
        case MatchRun(a, b):
            return plan_match(a, b, **kw)
        case RoundRobinRun(strategies):
            return plan_roundrobin(list(strategies), **kw)
        case SweepRun(strategy, param, versus):
            return plan_sweep(strategy, param, list(versus), **kw)
    raise RunError(f"not a run's description: {run!r:.60} (a MatchRun, RoundRobinRun or SweepRun)")


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
    if len(pairings) > MAX_PAIRINGS:
        raise RunError(f"{len(pairings)} pairings: a run holds at most {MAX_PAIRINGS:,}")
    if seed < 0 or seed >= 2**63:
        raise RunError.about("{seed} must be a whole number from 0 to 2**63-1, not {n}", n=seed)
    units = (math.ceil(hands / 2) if duplicate else hands) if hands is not None else games
    assert units is not None
    if chunk is None:
        fast = fast_policies_only(pairings, rules, isolate)
        chunk = default_chunk(units, duplicate=duplicate, games=games is not None, fast=fast, pairings=len(pairings))
    elif chunk <= 0 or chunk > MAX_COUNT:
        raise RunError.about("{chunk} must be from 1 to {most:,}, not {n}", most=MAX_COUNT, n=chunk)
    return RunPlan(kind, pairings, rules, seed, hands, games, duplicate, chunk, swept, isolate, shared_decks)
