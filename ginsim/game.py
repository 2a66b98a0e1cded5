"""A game: hands dealt until one player's total reaches ``target_score`` (R24)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ginsim.engine import DRAWN, FORFEIT, HandResult, play_hand
from ginsim.gamescore import GameTotals, box_now, final_totals
from ginsim.rules import Rules
from ginsim.strategy import Strategy

MAX_HANDS_PER_GAME = 1000
"""A game still undecided after this many hands (two players that never knock) stops
with no winner rather than running forever."""


class GameResult(NamedTuple):
    winner: int  # seat 0 or 1; -1 when the game stopped undecided
    scores: tuple[int, int]
    hands: tuple[HandResult, ...]
    first_dealer: int
    running: tuple[tuple[int, int], ...] = ()  # the running scores before each hand (R31)
    final: GameTotals | None = None  # points, boxes and totals with bonuses (R31-R33)


def next_dealer(rules: Rules, dealer: int, result: HandResult) -> int:
    """R23/R24: the same dealer after a draw; otherwise by ``rules.next_dealer``."""
    if result.outcome == DRAWN or result.winner < 0:
        return dealer
    if rules.next_dealer == "winner":
        return result.winner
    if rules.next_dealer == "loser":
        return 1 - result.winner
    return 1 - dealer


def play_game(
    rules: Rules,
    strategies: Sequence[Strategy],
    deck_for_hand: Callable[[int], Sequence[int]],
    first_dealer: int,
    seeds_for_hand: Callable[[int], tuple[int, int]],
    max_hands: int = MAX_HANDS_PER_GAME,
    checked: bool = False,
) -> GameResult:
    """Play hands until a seat reaches the target; a forfeit ends the game at once (R25,
    R26). ``deck_for_hand(h)`` and ``seeds_for_hand(h)`` give the h-th hand's deck and
    the two seats' random seeds; ``checked``: its decks are known to be lists of the
    52 card ints."""
    scores = [0, 0]  # running scores: hand points, and boxes counted at once (R31)
    points = [0, 0]
    boxes = [0, 0]
    box = box_now(rules)
    dealer = first_dealer
    hands: list[HandResult] = []
    running: list[tuple[int, int]] = []

    def result(winner: int) -> GameResult:
        final = final_totals(rules, winner, (points[0], points[1]), (boxes[0], boxes[1]))
        return GameResult(winner, (scores[0], scores[1]), tuple(hands), first_dealer, tuple(running), final)

    for h in range(max_hands):
        running.append((scores[0], scores[1]))
        res = play_hand(
            rules, strategies, deck_for_hand(h), dealer, (scores[0], scores[1]), seeds_for_hand(h), checked=checked
        )
        hands.append(res)
        if res.outcome == FORFEIT:
            return result(res.winner)
        if res.winner >= 0:
            points[res.winner] += res.points
            boxes[res.winner] += 1
            scores[res.winner] += res.points + box
            if scores[res.winner] >= rules.target_score:
                return result(res.winner)
        dealer = next_dealer(rules, dealer, res)
    return result(-1)
