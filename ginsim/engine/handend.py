"""The end of a hand of Gin Rummy (R16-R21, R25, R26): the showdown after a knock, a forfeit, the result.
``HandEnd``, the base of ``Hand`` (ginsim.engine.hand), keeps them apart from the turn play."""

from __future__ import annotations

from collections.abc import Sequence

from ginsim.engine.cards import Mask, format_cards
from ginsim.engine.guard import safe_repr
from ginsim.engine.kernel import scoring
from ginsim.engine.kernel.facts import RuleFacts
from ginsim.engine.layoff import layoff_is_legal, showdown
from ginsim.engine.melds import MeldTables
from ginsim.engine.result import OUTCOMES, HandResult
from ginsim.engine.view import LAYOFF, OFFER, OVER, PlayerView
from ginsim.errors import IllegalMoveError


class HandEnd:
    """How a hand ends: the knocker's melds, the defender's lay-offs, the score, a forfeit
    and the result, with the state they read. ``Hand`` deals the hand and plays its turns."""

    __slots__ = (
        "facts",
        "knock_limit",
        "multiplier",
        "tables",
        "next_stock",
        "hands",
        "dealer",
        "phase",
        "turn",
        "views",
        "result",
        "knocker",
        "knocker_melds",
    )

    facts: RuleFacts
    knock_limit: int
    multiplier: int
    tables: MeldTables
    next_stock: int
    hands: list[int]
    dealer: int
    phase: str
    turn: int
    views: tuple[PlayerView, PlayerView]
    result: HandResult | None
    knocker: int
    knocker_melds: tuple[Mask, ...]

    def __init__(
        self,
        facts: RuleFacts,
        knock_limit: int,
        multiplier: int,
        tables: MeldTables,
        hands: list[int],
        dealer: int,
        views: tuple[PlayerView, PlayerView],
    ) -> None:
        """The state as dealt (R08): the first-turn offer, 21 cards out of the stock. Setting
        every attribute here lets mypyc read them without checking that they are set."""
        self.facts = facts
        self.knock_limit = knock_limit
        self.multiplier = multiplier
        self.tables = tables
        self.next_stock = 21
        self.hands = hands
        self.dealer = dealer
        self.phase = OFFER
        self.turn = 1
        self.views = views
        self.result = None
        self.knocker = -1
        self.knocker_melds = ()

    def knocker_show(self, melds: object = None) -> tuple[tuple[Mask, ...], int]:
        """The melds the knocker shows (default: a least-deadwood arrangement) and the
        deadwood they leave; IllegalMoveError if they are not melds of its hand or leave
        more than the knock limit (R14, R16)."""
        if self.phase is not LAYOFF:
            raise IllegalMoveError(f"no knock to show: phase is {self.phase}")
        kh = self.hands[self.knocker]
        if melds is None:
            shown = self.tables.best_melds_mask(kh)
            return shown.melds, shown.deadwood
        if isinstance(melds, int | str | bytes) or not hasattr(melds, "__iter__"):
            raise IllegalMoveError(f"melds must be a list of card masks, not {safe_repr(melds)}")
        kmelds = tuple(melds)  # type: ignore[call-overload]
        kd = self.tables.check_melds(kh, kmelds)
        if kd > self.knock_limit:
            raise IllegalMoveError(f"the melds shown leave deadwood {kd}, over the knock limit {self.knock_limit}")
        return kmelds, kd

    def verify_layoff(self, laid: object, knocker_melds: Sequence[Mask]) -> None:
        """Raise IllegalMoveError unless the defender can lay off exactly ``laid`` (R17)."""
        if type(laid) is not int or laid < 0 or laid >> 52:
            raise IllegalMoveError(f"lay-offs must be a card mask (bits 0..51), not {safe_repr(laid)}")
        dh = self.hands[1 - self.knocker]
        if laid & ~dh:
            raise IllegalMoveError(f"cannot lay off {format_cards(laid & ~dh)}: not in the hand")
        if not layoff_is_legal(laid, knocker_melds, self.tables):
            raise IllegalMoveError(f"{format_cards(laid)} cannot all be laid off on the knocker's melds")

    def show(self, melds: object = None, layoff: object = None) -> HandResult:
        """The showdown after a knock: the knocker's melds (default: a least-deadwood
        arrangement), the defender's lay-offs (default: optimal, R17) and the score."""
        kmelds, kd = self.knocker_show(melds)
        if layoff is not None:
            if kd == 0:
                if layoff:
                    raise IllegalMoveError("no lay-offs after gin (R18)")
                layoff = None
            else:
                self.verify_layoff(layoff, kmelds)
        return self._score(kmelds, kd, layoff)  # type: ignore[arg-type]

    def _score(self, kmelds: tuple[Mask, ...], kd: int, laid: Mask | None) -> HandResult:
        """Score a checked showdown (R19-R21); ``laid`` None lays off optimally."""
        tables = self.tables
        k = self.knocker
        d = 1 - k
        dh = self.hands[d]
        self.knocker_melds = kmelds
        before = tables.deadwood_mask(dh)
        if laid is None:  # optimal lay-offs (none after gin)
            code, winner, points, after, laid = showdown(tables, self.facts, k, kd, dh, kmelds, before, self.multiplier)
        else:  # the defender's own (show() allows none after gin)
            after = tables.deadwood_mask(dh & ~laid)
            code, winner, points = scoring.score(self.facts, k, kd, before, after, False, self.multiplier)
        return self._end(code, k, winner, points, kd, before, after, laid, kmelds)

    def forfeit(self, seat: int, kind: str, reason: str) -> HandResult:
        """R25/R26: ``seat`` forfeits the hand (and its game); the opponent wins it and
        scores ``forfeit_points`` (more than any legal end of this hand could give it)."""
        points = scoring.forfeit_points(self.facts, self.multiplier)
        return self._end(scoring.FORFEIT, -1, 1 - seat, points, 0, 0, 0, 0, (), seat, reason, kind)

    def _end(
        self,
        code: int,
        knocker: int,
        winner: int,
        points: int,
        kd: int,
        before: int,
        after: int,
        laid: Mask,
        melds: tuple[Mask, ...],
        forfeit_seat: int = -1,
        reason: str = "",
        kind: str = "",
    ) -> HandResult:
        """End the hand with this result (the outcome as its kernel code: ``kernel.scoring``)."""
        res = HandResult(  # positional, in field order: keywords cost more than the rest of the score
            OUTCOMES[code],
            knocker,
            winner,
            points,
            kd,
            before,
            after,
            laid.bit_count(),
            self.turn,
            52 - self.next_stock,
            self.dealer,
            forfeit_seat,
            reason,
            (self.hands[0], self.hands[1]),
            melds,
            laid,
            kind,
        )
        self._finish(res)
        return res

    def _finish(self, result: HandResult) -> None:
        self.result = result
        self.phase = OVER
        for v in self.views:
            v.phase = OVER
