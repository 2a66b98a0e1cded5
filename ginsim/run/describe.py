"""What a run plays, as its caller describes it: a match, a round-robin or a sweep, each
a small frozen dataclass of strategy spec texts. The CLI commands, experiment files and
``ginsim.match``/``roundrobin``/``sweep`` all build one; ``ginsim.run.plan.plan_run``
turns it into the run's plan. Code that needs to tell them apart matches on the type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ginsim.runfolder.manifest import RunKind  # not through records, which loads numpy: the CLI imports this


@dataclass(frozen=True)
class MatchRun:
    """Strategy ``a`` against strategy ``b``."""

    a: str
    b: str
    kind: ClassVar[RunKind] = RunKind.MATCH

    def specs(self) -> tuple[str, ...]:
        """Every strategy spec text of the run, in the order given."""
        return (self.a, self.b)

    def args(self) -> list[str]:
        """The command and arguments of ``ginsim`` that name this run."""
        return ["match", self.a, self.b]


@dataclass(frozen=True)
class RoundRobinRun:
    """Every pair of ``strategies``."""

    strategies: tuple[str, ...]
    kind: ClassVar[RunKind] = RunKind.ROUNDROBIN

    def specs(self) -> tuple[str, ...]:
        return self.strategies

    def args(self) -> list[str]:
        return ["roundrobin", *self.strategies]


@dataclass(frozen=True)
class SweepRun:
    """One parameter of ``strategy`` over a range against each of ``versus``; ``param``
    is ``NAME=START:STOP[:STEP]`` or ``NAME=v1,v2,...`` (as ``--param``). Each of
    ``also`` (the same form) adds a parameter: the sweep is then the Cartesian grid of
    all their values, the first parameter varying slowest."""

    strategy: str
    param: str
    versus: tuple[str, ...]
    also: tuple[str, ...] = ()
    kind: ClassVar[RunKind] = RunKind.SWEEP

    @property
    def params(self) -> tuple[str, ...]:
        """Every swept parameter's text, the first one first."""
        return (self.param, *self.also)

    def specs(self) -> tuple[str, ...]:
        return (self.strategy, *self.versus)

    def args(self) -> list[str]:
        out = ["sweep", self.strategy]
        for p in self.params:
            out += ["--param", p]
        for v in self.versus:
            out += ["--vs", v]
        return out


@dataclass(frozen=True)
class GauntletRun:
    """One ``candidate`` against each of ``versus`` (and no opponent against another)."""

    candidate: str
    versus: tuple[str, ...]
    kind: ClassVar[RunKind] = RunKind.GAUNTLET

    def specs(self) -> tuple[str, ...]:
        return (self.candidate, *self.versus)

    def args(self) -> list[str]:
        return ["gauntlet", self.candidate, "--vs", *self.versus]


RunDescription = MatchRun | RoundRobinRun | SweepRun | GauntletRun
"""Who plays whom in a run."""
