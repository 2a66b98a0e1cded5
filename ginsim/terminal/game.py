"""A whole game of ``ginsim play``: the person's seat against a bot to the target score,
the deals fixed by the seed (the same deals ``ginsim web`` gives a person)."""

from __future__ import annotations

from dataclasses import dataclass

from ginsim.engine.cards import Card
from ginsim.engine.game import MAX_HANDS_PER_GAME, Game
from ginsim.engine.guard import letting_through
from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec
from ginsim.run.seeding import deck_for, game_deal_seed, strategy_seed, text_key
from ginsim.terminal.commands import Console, Quit
from ginsim.terminal.human import HumanPlayer
from ginsim.terminal.textview import conj, result_lines


@dataclass
class GameSummary:
    """How a game of ``ginsim play`` ended: the scores, the winner, the hands played."""

    scores: tuple[int, int]
    winner: int  # 0 you, 1 the bot, -1 nobody
    hands: int
    ended: str  # target, forfeit, quit, end of input, undecided


def person_deal(seed: int, key: int, h: int) -> tuple[list[Card], tuple[int, int]]:
    """The deck of hand ``h`` of a person's game with master seed ``seed`` against the bot
    of ``key`` (``text_key("play", spec.canonical)``), and both seats' random seeds: the
    same deals for ``ginsim play`` and ``ginsim web``."""
    ds = game_deal_seed(seed, 0, h)
    return deck_for(ds), (strategy_seed(ds, key, 0, 0), strategy_seed(ds, key, 0, 1))


class TerminalGame:
    """A game to ``rules.target_score``: the person in seat 0, the bot in seat 1. The
    seed fixes every deck (``game_deal_seed(seed, 0, hand)``) and the bot's random
    stream, as in a tournament's game mode; seat ``seed % 2`` deals first."""

    def __init__(self, rules: Rules, bot: StrategySpec, seed: int, console: Console) -> None:
        self.rules = rules
        self.bot = bot
        self.seed = seed
        self.console = console
        self.names = ("You", bot.label)
        self.key = text_key("play", bot.canonical)
        self.human = HumanPlayer(console, self.names, rules.target_score)

    def deal(self, h: int) -> tuple[list[Card], tuple[int, int]]:
        """The deck of hand ``h`` and the two seats' random seeds."""
        return person_deal(self.seed, self.key, h)

    def run(self) -> GameSummary:
        w = self.console.write
        rules = self.rules
        bot = self.bot.build()
        name = self.names[1]
        w(f"Gin Rummy against {name} to {rules.target_score} points ({rules.describe()}), seed {self.seed}.")
        if rules.time_per_hand is not None:
            w(f"Clock: {rules.time_per_hand:g}s per player per hand; whoever runs out loses the game.")
        w("Cards marked * are in your best melds. Type help for the commands.")
        game = Game(rules, self.seed % 2)
        for h in range(MAX_HANDS_PER_GAME):
            deck, seeds = self.deal(h)
            dealer = game.dealer
            w(f"\n=== Hand {h + 1}: {'you deal' if dealer == 0 else name + ' deals'} ===")
            self.human.new_hand(h + 1)
            try:
                with letting_through(Quit):
                    res = play_hand(rules, (self.human, bot), deck, dealer, game.score_pair(), seeds)
            except Quit as q:
                s = game.scores
                w(f"Game stopped ({q.why}) in hand {h + 1}: You {s[0]}, {name} {s[1]}.")
                return GameSummary(game.score_pair(), -1, h, q.why)
            w(f"--- End of hand {h + 1} ---")
            for line in result_lines(self.console.style, res, self.names, rules):
                w(line)
            game.record(res)
            s = game.scores
            if game.ended == "forfeit":
                w(f"{self.names[res.winner]} {conj(self.names[res.winner], 'win')} the game by forfeit.")
                return GameSummary(game.score_pair(), res.winner, h + 1, "forfeit")
            w(f"Totals: You {s[0]}, {name} {s[1]} (to {rules.target_score})")
            if game.over:
                who = self.names[game.winner]
                w(f"{who} {conj(who, 'win')} the game, {max(s)} to {min(s)}.")
                final = game.final()
                if final.totals != game.score_pair():  # R31-R33: the end-of-game bonuses
                    w(f"With boxes and bonuses: You {final.totals[0]}, {name} {final.totals[1]}.")
                return GameSummary(game.score_pair(), game.winner, h + 1, "target")
        w(f"No winner after {MAX_HANDS_PER_GAME} hands.")
        return GameSummary(game.score_pair(), -1, MAX_HANDS_PER_GAME, "undecided")
