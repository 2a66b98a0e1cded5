"""A game: hands dealt until one player's total reaches ``target_score`` (R24)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ginsim.engine.gamescore import GameTotals, box_now, final_totals
from ginsim.engine.playhand import DRAWN, FORFEIT, HandResult, play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import Strategy

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


class Game:
    """The running state of one game, hand by hand: the running scores (hand points, plus
    boxes when they count at once, R31), who deals next and whether the game is over (a
    seat reached the target, R24, or a forfeit ended it, R25/R26), and at its end the
    totals with every bonus (R31-R33). The one copy of these rules, used by tournaments,
    ``ginsim play`` and replays."""

    def __init__(self, rules: Rules, first_dealer: int) -> None:
        self.rules = rules
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.scores = [0, 0]
        self.points = [0, 0]  # hand points only
        self.boxes = [0, 0]  # hands won
        self.box = box_now(rules)
        self.running: list[tuple[int, int]] = []  # the running scores before each hand
        self.hands = 0
        self.winner = -1
        self.ended = ""  # "" while it goes on; "target" or "forfeit" once over

    @property
    def over(self) -> bool:
        return bool(self.ended)

    def score_pair(self) -> tuple[int, int]:
        return (self.scores[0], self.scores[1])

    def record(self, result: HandResult) -> None:
        """Count a finished hand: its points, the end of the game, the next dealer."""
        self.running.append(self.score_pair())
        self.hands += 1
        if result.outcome == FORFEIT:
            # R25/R26: the forfeiter loses the game; the hand's forfeit points count
            # for the opponent like any won hand's, so game totals agree with the log
            self.points[result.winner] += result.points
            self.boxes[result.winner] += 1
            self.scores[result.winner] += result.points + self.box
            self.winner, self.ended = result.winner, "forfeit"
            return
        if result.winner >= 0:
            self.points[result.winner] += result.points
            self.boxes[result.winner] += 1
            self.scores[result.winner] += result.points + self.box
            if self.scores[result.winner] >= self.rules.target_score:
                self.winner, self.ended = result.winner, "target"
                return
        self.dealer = next_dealer(self.rules, self.dealer, result)

    def final(self) -> GameTotals:
        """The totals with boxes, game bonus and shutout (R31-R33) as the game stands."""
        points, boxes = self.points, self.boxes
        return final_totals(self.rules, self.winner, (points[0], points[1]), (boxes[0], boxes[1]))

    def result(self, hands: Sequence[HandResult]) -> GameResult:
        running = tuple(self.running)
        return GameResult(self.winner, self.score_pair(), tuple(hands), self.first_dealer, running, self.final())


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

    def one(h: int, dealer: int, scores: tuple[int, int]) -> HandResult:
        return play_hand(rules, strategies, deck_for_hand(h), dealer, scores, seeds_for_hand(h), checked=checked)

    return run_game(rules, first_dealer, one, max_hands)


def run_game(
    rules: Rules, first_dealer: int, play_one: Callable[[int, int, tuple[int, int]], HandResult], max_hands: int
) -> GameResult:
    """The game loop, for every engine: ``play_one(h, dealer, scores)`` plays the h-th
    hand; hands go on until a seat reaches the target or a forfeit ends the game."""
    game = Game(rules, first_dealer)
    hands: list[HandResult] = []
    for h in range(max_hands):
        res = play_one(h, game.dealer, game.score_pair())
        hands.append(res)
        game.record(res)
        if game.over:
            break
    return game.result(hands)
