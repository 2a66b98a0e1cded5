"""The strategy contract without pytest: the guard that watches every call, and the checks
``ginsim validate`` runs and ``ginsim.testing.StrategyContract`` builds on.

A strategy honours the contract when it makes legal moves only (no forfeit), never
changes the view it is given, and plays the same hands the same way under the same
seeds (randomness only from ``view.rng``). The hands of ``check_strategy`` are dealt and
seeded as ``ginsim match SPEC OPPONENT --seed SEED`` deals and seeds them (duplicate
deals: row ``2 * deal + copy`` of that run's hand log, copy 1 with the seats swapped), so
a failing hand can be watched with ``ginsim replay``.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ginsim.engine.cards import Card, Mask
from ginsim.engine.guard import DEFAULT_DECISION_LIMIT, checking
from ginsim.engine.playhand import FORFEIT, HandResult, play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec, parse_spec
from ginsim.engine.strategy import HOOKS, Strategy, bound_entry, overrides
from ginsim.engine.view import Event, PlayerView
from ginsim.run.seeding import deal_seed, deck_for, strategy_seed, text_key


@dataclass
class Record:
    """What the guards saw over a contract run."""

    hands: int = 0
    decisions: int = 0
    seconds: list[float] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")
    playouts_now: int = 0  # play-outs so far (the counting wrappers add to it)
    most_playouts: tuple[int, str] = (0, "")  # the decision with the most play-outs
    mutations: list[str] = field(default_factory=list)
    forfeits: list[str] = field(default_factory=list)
    where: str = ""  # the hand being played, for the messages

    def add_result(self, res: HandResult, label: str) -> None:
        self.hands += 1
        if res.outcome == FORFEIT:
            self.forfeits.append(f"{label}: seat {res.forfeit_seat} {res.forfeit_kind}: {res.forfeit_reason}")


class Inspected(Strategy):
    """Plays like ``inner``, but compares the view before and after every call and times
    each decision. Optional hooks reach ``inner`` only when it overrides them, so the
    engine's behaviour is unchanged."""

    name = ""  # a stand-in: no name of its own

    def __init__(self, inner: Strategy, record: Record) -> None:
        self.inner = inner
        self.record = record
        cls = type(inner)
        self._hooks = {h for h in HOOKS if overrides(cls, h)}

    def _call(self, method: str, view: PlayerView, *args: Any, default: Any = None, decision: bool = True) -> Any:
        if not decision and method not in self._hooks:
            return default
        before = view.snapshot()
        hist_id = id(view.history)
        t0 = time.perf_counter()
        p0 = self.record.playouts_now
        out = bound_entry(self.inner, method)(view, *args)
        dt = time.perf_counter() - t0
        work = self.record.playouts_now - p0
        after = view.snapshot()
        rec = self.record
        if before != after or id(view.history) != hist_id:
            changed = sorted(k for k in before if before[k] != after[k]) or ["history (replaced)"]
            where = f"{rec.where}: " if rec.where else ""
            rec.mutations.append(f"{where}{self.inner.spec()}.{method} changed the view: {', '.join(changed)}")
        if decision:
            rec.decisions += 1
            rec.seconds.append(dt)
            if dt > rec.slowest[0]:
                rec.slowest = (dt, f"{method} on turn {view.turn}")
            if work > rec.most_playouts[0]:
                rec.most_playouts = (work, f"{method} on turn {view.turn}")
        return out

    def take_upcard(self, view: PlayerView) -> bool:
        return self._call("take_upcard", view)  # type: ignore[no-any-return]

    def discard(self, view: PlayerView) -> Card:
        return self._call("discard", view)  # type: ignore[no-any-return]

    def knock(self, view: PlayerView) -> bool:
        return self._call("knock", view)  # type: ignore[no-any-return]

    def observe(self, view: PlayerView, event: Event) -> None:
        self._call("observe", view, event, decision=False)

    def choose_melds(self, view: PlayerView) -> list[Mask] | None:
        return self._call("choose_melds", view, decision=False)  # type: ignore[no-any-return]

    def choose_layoffs(self, view: PlayerView) -> Mask | None:
        return self._call("choose_layoffs", view, decision=False)  # type: ignore[no-any-return]

    def take_big_gin(self, view: PlayerView) -> bool:
        return self._call("take_big_gin", view, default=True, decision=False)  # type: ignore[no-any-return]


class _FakeClock:
    """A stand-in for the ``time`` module whose clock advances ``step_ms`` per reading."""

    def __init__(self, step_ms: float) -> None:
        self.step = step_ms / 1000.0
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now

    monotonic = perf_counter
    time = perf_counter


@contextmanager
def counted(spec: StrategySpec, rec: Record, fake_clock_ms: float | None) -> Iterator[None]:
    """Count the play-outs of the strategy's module (its ``playout`` and ``score_knock``
    names, if it imported them) into ``rec``, and give it a fake clock if asked: work
    per decision is then counted, never timed, whatever the machine's load."""
    module = sys.modules[type(spec.build()).__module__]
    saved: dict[str, object] = {}

    def wrap(fn: Callable[..., object]) -> Callable[..., object]:
        def counting(*args: object, **kw: object) -> object:
            rec.playouts_now += 1
            return fn(*args, **kw)

        return counting

    for name in ("playout", "score_knock"):
        if callable(getattr(module, name, None)):
            saved[name] = getattr(module, name)
            setattr(module, name, wrap(saved[name]))  # type: ignore[arg-type]
    if fake_clock_ms is not None:
        saved["time"] = module.time
        module.time = _FakeClock(fake_clock_ms)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)


# -- the checks of ``ginsim validate`` --------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """One contract hand, as ``ginsim match SPEC OPPONENT --seed SEED`` plays it."""

    opponent: str
    deal: int
    copy: int  # 0: the strategy in seat 0; 1: seats swapped

    @property
    def seat(self) -> int:
        return self.copy

    @property
    def row(self) -> int:
        """Its row in the hand log of that match (duplicate deals, one pairing)."""
        return 2 * self.deal + self.copy


@dataclass
class Verdict:
    """One check's outcome: passed, or the first failing hand and what went wrong."""

    check: str
    passed: bool
    detail: str = ""
    deal: Deal | None = None


@dataclass
class Report:
    """Every check of one strategy; ``replay(deal)`` is the command that shows a hand."""

    spec: str
    seed: int
    hands: int  # deals per opponent (each played twice, seats swapped)
    verdicts: list[Verdict] = field(default_factory=list)
    rules_args: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(v.passed for v in self.verdicts)

    def replay(self, d: Deal) -> str:
        """The commands that play ``d`` again and show it: a folder of its own per strategy,
        opponent and deal (the deal's hand count is part of the run)."""
        who = "".join(ch if ch.isalnum() else "_" for ch in Path(self.spec.split(":")[0]).stem)
        out = f"validate-{who}-{d.opponent.split(':')[0]}-deal{d.deal}"
        match = ["ginsim", "match", self.spec, d.opponent, "--hands", str(2 * (d.deal + 1))]
        match += ["--seed", str(self.seed), "--jobs", "1", "--no-plots", "-q", *self.rules_args, "--out", out]
        replay = ["ginsim", "replay", out, "--hand", str(d.row), "--seat", str(d.seat)]
        return f"{shlex.join(match)} && {shlex.join(replay)}"


class _Hands:
    """Plays the contract hands of one spec against one opponent, seeded as a match."""

    def __init__(self, spec: StrategySpec, opponent: StrategySpec, rules: Rules, seed: int) -> None:
        self.spec, self.opponent, self.rules, self.seed = spec, opponent, rules, seed
        self.key = text_key("pairing", spec.canonical, opponent.canonical)

    def play(
        self, d: Deal, wrap: Callable[[Strategy], Strategy] = lambda s: s, log: list[Event] | None = None
    ) -> HandResult:
        ds = deal_seed(self.seed, d.deal)
        me, opp = wrap(self.spec.build()), self.opponent.build()
        pair = (me, opp) if d.copy == 0 else (opp, me)
        seeds = (strategy_seed(ds, self.key, d.copy, 0), strategy_seed(ds, self.key, d.copy, 1))
        return play_hand(self.rules, pair, deck_for(ds), d.deal % 2, (0, 0), seeds, log)


def check_strategy(
    spec_text: str,
    hands: int = 100,
    seed: int = 0,
    rules: Rules | None = None,
    opponents: tuple[str, ...] = ("random", "simple"),
    repro_hands: int = 20,
    rules_args: list[str] | None = None,
    decision_limit: float | None = DEFAULT_DECISION_LIMIT,
) -> Report:
    """Play ``hands`` deals against each opponent (each twice, the seats swapped) through
    a guard and check: legal moves only, the view never changed, and the first
    ``repro_hands`` deals played again give the same moves. A bad spec raises
    StrategySpecError (one line). In the main thread the watchdog bounds each decision,
    and each load and build of a strategy, by ``decision_limit`` seconds (None or 0: no
    limit), as a run does: a decision past it is a forfeit, a constructor past it a
    StrategySpecError naming the strategy."""
    with checking(decision_limit):
        return _check_strategy(spec_text, hands, seed, rules, opponents, repro_hands, rules_args)


def _check_strategy(
    spec_text: str,
    hands: int,
    seed: int,
    rules: Rules | None,
    opponents: tuple[str, ...],
    repro_hands: int,
    rules_args: list[str] | None,
) -> Report:
    spec = parse_spec(spec_text)
    rules = rules or Rules()
    report = Report(spec.text, seed, hands, rules_args=list(rules_args or []))
    illegal: Verdict | None = None
    mutated: Verdict | None = None
    unrepro: Verdict | None = None
    carried: Verdict | None = None
    rec = Record()
    total = 0
    for name in opponents:
        player = _Hands(spec, parse_spec(name), rules, seed)
        for i in range(hands):
            for copy in (0, 1):
                d = Deal(name, i, copy)
                rec.where = f"vs {name}, deal {i}, seat {copy}"
                seen = len(rec.mutations)
                res = player.play(d, lambda s: Inspected(s, rec))
                total += 1
                if res.outcome == FORFEIT and res.forfeit_seat == copy and illegal is None:
                    why = f"{res.forfeit_kind}: {res.forfeit_reason}"
                    illegal = Verdict("legal moves only", False, f"{rec.where}: forfeited ({why})", d)
                if len(rec.mutations) > seen and mutated is None:
                    mutated = Verdict("never changes its view", False, rec.mutations[seen], d)
        for i in range(min(repro_hands, hands)):
            for copy in (0, 1):
                d = Deal(name, i, copy)
                logs: list[list[Event]] = [[], []]
                player.play(d)  # both plays below follow this very hand: state a strategy keeps is alike
                results = [player.play(d, log=logs[k]) for k in (0, 1)]
                if unrepro is None and (logs[0] != logs[1] or results[0] != results[1]):
                    step = next((j for j, (a, b) in enumerate(zip(*logs, strict=False)) if a != b), None)
                    at = f" from move {step}" if step is not None else ""
                    detail = f"vs {name}, deal {i}, seat {copy}: the same hand played twice differs{at}"
                    unrepro = Verdict("reproducible under a seed", False, detail, d)
            carried = carried or _carries_over(player, name, i, hands)
    if unrepro is not None:  # a strategy that plays a hand two ways anyway: copy 1's differences say nothing
        carried = Verdict(_FORGETS, True, "not checked: the strategy is not reproducible under a seed")
    played = f"{total} hands against {', '.join(opponents)}, both seats"
    report.verdicts = [
        illegal or Verdict("legal moves only", True, f"no forfeit in {played}"),
        mutated or Verdict("never changes its view", True, f"{rec.decisions} decisions, view unchanged"),
        unrepro
        or Verdict("reproducible under a seed", True, f"{2 * min(repro_hands, hands)} hands per opponent replayed"),
        carried
        or Verdict(
            _FORGETS, True, f"copy 1 of {min(repro_hands, hands)} deals per opponent played the same either way"
        ),
    ]
    return report


_FORGETS = "copy 1 independent of copy 0"


def _carries_over(player: _Hands, name: str, i: int, hands: int) -> Verdict | None:
    """Copy 1 of deal ``i`` played right after its copy 0 (as a run in one process plays
    it) and right after another deal: the same moves, unless what the strategy kept
    from copy 0 (module or class state) changes its play, which in-process mode cannot
    prevent and which would let it know the opponent's cards (docs/security.md)."""
    d = Deal(name, i, 1)
    logs: list[list[Event]] = [[], []]
    player.play(Deal(name, i, 0))
    after_copy0 = player.play(d, log=logs[0])
    player.play(Deal(name, hands + i, 1))  # a deal the run never plays
    after_other = player.play(d, log=logs[1])
    if logs[0] == logs[1] and after_copy0 == after_other:
        return None
    detail = (
        f"vs {name}, deal {i}, seat 1: copy 1 played right after copy 0 differs from copy 1 played after another "
        "deal (state kept across hands; in-process, copy 0 tells the opponent's cards in copy 1)"
    )
    return Verdict(_FORGETS, False, detail, d)
