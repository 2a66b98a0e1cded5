"""The strategy contract as a base class of pytest tests, for any strategy.

In your own project (pytest installed)::

    from ginsim.testing import StrategyContract

    class TestMyBot(StrategyContract):
        spec = "my_bot.py:MyBot"      # any spec: name, package.module:Class, file.py:Class

It then plays seeded hands (and a few games) against ``random`` and ``simple`` in both
seats, under the default rules and some variants, through a guard that snapshots the
view around every call and times every decision (ginsim.run.contract); and it checks that
the strategy:

- makes only legal moves (a forfeit in any HandResult fails, with its reason);
- is reproducible: the same deck and seeds give the identical move log;
- never changes the view it is given (hand, pile, history, ... all compared);
- stays within the work budget the class declares, counted, never timed: at most
  ``max_playouts`` play-outs (calls of the ``playout``/``score_knock`` its module
  imported) per decision, 0 for a strategy that plays none; ``fake_clock_ms`` replaces
  its module's clock by one that advances that much per reading, so a wall-clock cap
  (``budget_ms``) is checked by the play-outs it allows, whatever the machine's load;
- keeps its parameters as attributes of the same name, so its spec rebuilds it.

Class attributes size it (``hands``, ``variant_hands``, ``games``, ``repro_hands``,
``seed``). No test asserts wall-clock time (a busy machine would fail it); decision
times are printed for information, and speed itself is measured by ``ginsim bench``.
``ginsim validate SPEC`` runs the main checks from the command line.
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from ginsim.engine.game import play_game
from ginsim.engine.playhand import HandResult, play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec, parse_spec
from ginsim.engine.strategy import DECISIONS, HOOKS, Strategy
from ginsim.engine.view import Event
from ginsim.run.contract import Inspected, Record, counted
from ginsim.run.seeding import deal_seed, deck_for, strategy_seed, text_key

__all__ = ["DECISIONS", "HOOKS", "VARIANTS", "Inspected", "Record", "StrategyContract"]

VARIANTS: tuple[Rules, ...] = (
    Rules(knock_limit=0),
    Rules(allow_discard_of_drawn_upcard=True, big_gin_bonus=31),
    Rules(max_run_length=3, knock_limit=5, gin_bonus=25, undercut_bonus=25),
)
"""Rule variants every strategy must also play legally (a few hands each)."""


class StrategyContract:
    """Subclass with ``spec`` set (``Test*`` name) to give a strategy the contract."""

    spec: ClassVar[str] = ""
    opponents: ClassVar[tuple[str, ...]] = ("random", "simple")
    hands: ClassVar[int] = 150
    """Hands per opponent per seat under the default rules."""
    variant_hands: ClassVar[int] = 15
    """Hands per rule variant per seat (against ``simple``)."""
    games: ClassVar[int] = 2
    """Whole games per seat against ``simple`` (one instance plays every hand of a game)."""
    repro_hands: ClassVar[int] = 12
    seed: ClassVar[int] = 2024
    max_playouts: ClassVar[int] = 0
    """No single decision may run more play-outs (counted; 0: a strategy that plays none)."""
    fake_clock_ms: ClassVar[float | None] = None
    """When set, the strategy module's ``time`` reads a clock that advances this many ms per reading."""
    reproducible: ClassVar[bool] = True
    """False only for a configuration that is machine-dependent by design (a wall-clock cap)."""

    # -- helpers -------------------------------------------------------------------
    @classmethod
    def parsed(cls) -> StrategySpec:
        assert cls.spec, f"{cls.__name__} must set spec"
        return parse_spec(cls.spec)

    @classmethod
    def seeds(cls, i: int, seat: int, salt: str) -> tuple[int, int]:
        ds = deal_seed(cls.seed, i)
        key = text_key("contract", cls.spec, salt)
        return strategy_seed(ds, key, seat, 0), strategy_seed(ds, key, seat, 1)

    @classmethod
    def seated(cls, me: Strategy, opp: Strategy, seat: int) -> tuple[Strategy, Strategy]:
        return (me, opp) if seat == 0 else (opp, me)

    @classmethod
    def play_logged(cls, opponent: str, seat: int, n: int) -> list[tuple[HandResult, list[Event]]]:
        """``n`` hands with fresh instances and full move logs (no guard)."""
        spec, opp = cls.parsed(), parse_spec(opponent)
        out = []
        for i in range(n):
            log: list[Event] = []
            pair = cls.seated(spec.build(), opp.build(), seat)
            deck = deck_for(deal_seed(cls.seed, i))
            res = play_hand(Rules(), pair, deck, i % 2, (0, 0), cls.seeds(i, seat, "r"), log)
            out.append((res, log))
        return out

    @pytest.fixture(scope="class")
    @classmethod
    def record(cls) -> Record:
        """Play everything once per class through guards; the tests read the record."""
        rec = Record()
        with counted(cls.parsed(), rec, cls.fake_clock_ms):
            cls._play_all(rec)
        return rec

    @classmethod
    def _play_all(cls, rec: Record) -> None:
        spec = cls.parsed()
        for opponent in cls.opponents:
            opp = parse_spec(opponent)
            for seat in (0, 1):
                for i in range(cls.hands):
                    pair = cls.seated(Inspected(spec.build(), rec), opp.build(), seat)
                    deck = deck_for(deal_seed(cls.seed, i))
                    res = play_hand(Rules(), pair, deck, i % 2, (0, 0), cls.seeds(i, seat, opponent))
                    rec.add_result(res, f"vs {opponent}, seat {seat}, hand {i}")
        simple = parse_spec("simple")
        for v, rules in enumerate(VARIANTS):
            for seat in (0, 1):
                for i in range(cls.variant_hands):
                    pair = cls.seated(Inspected(spec.build(), rec), simple.build(), seat)
                    deck = deck_for(deal_seed(cls.seed + 1 + v, i))
                    res = play_hand(rules, pair, deck, i % 2, (0, 0), cls.seeds(i, seat, f"v{v}"))
                    rec.add_result(res, f"rules {rules}, seat {seat}, hand {i}")
        for seat in (0, 1):
            for g in range(cls.games):
                pair = cls.seated(Inspected(spec.build(), rec), simple.build(), seat)
                game = play_game(
                    Rules(),
                    pair,
                    lambda h, g=g: deck_for(deal_seed(cls.seed + 100 + g, h)),
                    g % 2,
                    lambda h, g=g, seat=seat: cls.seeds(h, seat, f"g{g}"),
                )
                for h, res in enumerate(game.hands):
                    rec.add_result(res, f"game {g}, seat {seat}, hand {h}")

    # -- the contract ----------------------------------------------------------------
    def test_parameters_are_attributes(self) -> None:
        strategy = self.parsed().build()
        cls = type(strategy)
        assert cls.name, "a strategy class needs a name"
        assert (cls.__doc__ or "").strip(), "a strategy class needs a docstring explaining its idea"
        for key in cls.parameters():
            assert hasattr(strategy, key), f"parameter {key!r} must be stored as attribute {key!r}"
        rebuilt = parse_spec(strategy.spec()).build()
        assert rebuilt.params() == strategy.params()

    def test_only_legal_moves(self, record: Record) -> None:
        assert record.hands > 0
        assert not record.forfeits, f"{len(record.forfeits)} forfeits:\n" + "\n".join(record.forfeits[:20])

    def test_never_mutates_the_view(self, record: Record) -> None:
        assert not record.mutations, "\n".join(record.mutations[:20])

    def test_decides_within_budget(self, record: Record) -> None:
        """The work per decision, counted in play-outs (machine-independent); the times
        are printed only (``ginsim bench`` measures speed)."""
        assert record.decisions > 0
        mean = sum(record.seconds) / len(record.seconds)
        worst, where = record.slowest
        most, at = record.most_playouts
        print(
            f"{self.spec}: {record.decisions} decisions, {record.playouts_now} play-outs (most {most} in {at}); "
            f"mean {mean * 1e3:.3f} ms, max {worst * 1e3:.2f} ms ({where}), for information"
        )
        assert most <= self.max_playouts, f"{most} play-outs in one decision ({at}) > {self.max_playouts}"

    @pytest.mark.parametrize("seat", [0, 1])
    def test_reproducible_with_a_seed(self, seat: int) -> None:
        if not self.reproducible:
            pytest.skip(f"{self.spec} is machine-dependent by design")
        for opponent in self.opponents:
            first = self.play_logged(opponent, seat, self.repro_hands)
            again = self.play_logged(opponent, seat, self.repro_hands)
            for i, ((r1, log1), (r2, log2)) in enumerate(zip(first, again, strict=True)):
                assert log1 == log2, f"vs {opponent}, seat {seat}, hand {i}: move logs differ"
                assert r1 == r2, f"vs {opponent}, seat {seat}, hand {i}: results differ"

    def test_games_reproducible_with_a_seed(self) -> None:
        """One instance per seat plays a whole game: any state it keeps must not break replays."""
        if not self.reproducible:
            pytest.skip(f"{self.spec} is machine-dependent by design")
        spec, simple = self.parsed(), parse_spec("simple")

        def game(seat: int) -> tuple[object, ...]:
            pair = self.seated(spec.build(), simple.build(), seat)
            res = play_game(
                Rules(), pair, lambda h: deck_for(deal_seed(self.seed + 7, h)), seat, lambda h: self.seeds(h, seat, "g")
            )
            return res.winner, res.scores, res.hands

        for seat in (0, 1):
            assert game(seat) == game(seat), f"seat {seat}: the same game played twice differs"
