"""The library calls as ``import ginsim`` offers them: strategies by name or spec as well
as instances, decks and hands as card text, answers as card names.

The engine's own functions (ginsim.engine.playhand.play_hand, ginsim.engine.game.play_game,
ginsim.engine.melds.best_discards) keep their typed signatures (the hot modules are
compiled); these wrap them. Naming follows one rule: a ``_mask`` function answers with
bit masks, the plain name with card names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ginsim.engine.cards import Card, Mask, format_cards, parse_card, parse_cards, to_mask
from ginsim.engine.game import MAX_HANDS_PER_GAME, GameResult
from ginsim.engine.game import play_game as _play_game
from ginsim.engine.melds import best_discards as best_discards_mask
from ginsim.engine.playhand import HandResult
from ginsim.engine.playhand import play_hand as _play_hand
from ginsim.engine.registry import check_decisions
from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import Event
from ginsim.errors import CardError, StrategySpecError

StrategyArg = Strategy | str | type[Strategy]
"""A strategy instance, its spec text (``"threshold:knock_at=4"``) or a class."""

__all__ = ["best_discards", "best_discards_mask", "play_game", "play_hand", "strategies_of"]


def strategy_of(s: StrategyArg) -> Strategy:
    """An instance for a strategy argument: spec text is parsed, a class is built with
    its defaults, an instance is used as it is."""
    if isinstance(s, Strategy):
        check_decisions(type(s), type(s).__name__)
        return s
    if isinstance(s, str):
        return parse_spec(s).build()
    if isinstance(s, type) and issubclass(s, Strategy):
        check_decisions(s, s.__name__)
        return s()
    raise StrategySpecError(f"a strategy is an instance, spec text or Strategy subclass, not {s!r:.60}")


def strategies_of(strategies: Sequence[StrategyArg]) -> tuple[Strategy, Strategy]:
    """Both seats' strategies as instances (see ``strategy_of``)."""
    if isinstance(strategies, str) or len(strategies) != 2:
        raise StrategySpecError(f"give two strategies, one per seat, not {strategies!r:.60}")
    return strategy_of(strategies[0]), strategy_of(strategies[1])


def _deck(deck: str | Sequence[Card | str] | None, seed: int) -> list[Card]:
    if deck is None:
        from ginsim.run.seeding import deal_seed, decks_for

        return decks_for([deal_seed(seed, 0)]).tolist()[0]  # type: ignore[no-any-return]
    if isinstance(deck, str):
        return parse_cards(deck)
    return [parse_card(c) if isinstance(c, str) else c for c in deck]


def play_hand(
    rules: Rules | None = None,
    strategies: Sequence[StrategyArg] = ("simple", "simple"),
    deck: str | Sequence[Card | str] | None = None,
    dealer: int = 0,
    scores: tuple[int, int] = (0, 0),
    seeds: tuple[int, int] = (0, 0),
    log: list[Event] | None = None,
    checked: bool = False,
    *,
    seed: int = 0,
) -> HandResult:
    """Play one hand (``ginsim.engine.playhand.play_hand``) with friendlier arguments:
    ``strategies`` as spec text, classes or instances; ``deck`` as 52 card names (text
    or a list, top first), card ints, or None for the deck of ``seed`` (the first deal
    of a run with that master seed). ``result.describe()`` and ``result.as_dict()``
    give the result with card names."""
    cards = _deck(deck, seed)
    if len(cards) != 52 or len(set(cards)) != 52:
        raise CardError(f"a deck is the 52 cards once each, not {len(cards)} cards ({len(set(cards))} different)")
    return _play_hand(rules or Rules(), strategies_of(strategies), cards, dealer, scores, seeds, log, checked)


def play_game(
    rules: Rules | None = None,
    strategies: Sequence[StrategyArg] = ("simple", "simple"),
    deck_for_hand: Callable[[int], Sequence[int]] | None = None,
    first_dealer: int = 0,
    seeds_for_hand: Callable[[int], tuple[int, int]] | None = None,
    max_hands: int = MAX_HANDS_PER_GAME,
    checked: bool = False,
    *,
    seed: int = 0,
) -> GameResult:
    """Play a game to the target score (``ginsim.engine.game.play_game``) with
    strategies as spec text, classes or instances; without ``deck_for_hand`` and
    ``seeds_for_hand`` the decks and random streams come from ``seed`` as game 0 of a
    run with that master seed derives them."""
    from ginsim.run.seeding import decks_for, game_deal_seed, strategy_seed

    def decks(h: int) -> Sequence[int]:
        return decks_for([game_deal_seed(seed, 0, h)]).tolist()[0]  # type: ignore[no-any-return]

    def seeds(h: int) -> tuple[int, int]:
        d = game_deal_seed(seed, 0, h)
        return strategy_seed(d, 0, 0, 0), strategy_seed(d, 0, 0, 1)

    pair = strategies_of(strategies)
    return _play_game(
        rules or Rules(), pair, deck_for_hand or decks, first_dealer, seeds_for_hand or seeds, max_hands, checked
    )


def best_discards(hand: str | Mask | Iterable[Card | str], max_run_length: int | None = None) -> tuple[int, list[str]]:
    """For an 11-card hand: the least deadwood after one discard and the cards (names)
    that reach it: ``best_discards("7H 8H 9H 7C 7D 7S 2C 3D KS QS 4C") == (19, ["QS",
    "KS"])``. ``best_discards_mask`` answers with a mask."""
    dw, mask = best_discards_mask(to_mask(hand), max_run_length)
    return dw, format_cards(mask).split()
