"""The planners: a run's description and counts turned into its ``RunPlan`` (ginsim.run.runplan).

``plan_run`` checks the counts and dispatches on the description to ``plan_match``,
``plan_roundrobin``, ``plan_sweep`` or ``plan_gauntlet``, which parse and check the specs and
lay out the pairings; ``_plan`` chooses the chunk size and which strategies keep their
instances for a chunk.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec
from ginsim.engine.strategy import HAND, LIFETIMES, MATCH
from ginsim.errors import RunError
from ginsim.run.describe import GauntletRun, MatchRun, RoundRobinRun, RunDescription, SweepRun
from ginsim.run.params import param_grid
from ginsim.run.runplan import Pairing, RunPlan, SweptParam
from ginsim.run.sizes import DEFAULT_CHUNK_HANDS as DEFAULT_CHUNK_HANDS  # the plan's names, re-exported
from ginsim.run.sizes import DEFAULT_FAST_CHUNK_HANDS as DEFAULT_FAST_CHUNK_HANDS
from ginsim.run.sizes import MAX_COUNT as MAX_COUNT
from ginsim.run.sizes import MAX_PAIRINGS as MAX_PAIRINGS
from ginsim.run.sizes import check_counts, default_chunk, even_counts
from ginsim.runfolder.records import RunKind
from ginsim.tournament.spec_check import check_together, parse_specs

KINDS = tuple(k.value for k in RunKind)
FAST_POLICIES = ("simple", "threshold", "random")
"""The built-in names whose classes offer a fast form (``Strategy.fast_policy``; a test keeps
the two in step). Only the chunk size is chosen from these names; which path plays a
chunk is decided in the worker from the loaded classes."""


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
