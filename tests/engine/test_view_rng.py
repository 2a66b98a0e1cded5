"""``view.rng_for(key)``: a generator of a question's own, seeded by the engine's seed for the
hand and seat and by the key alone, so what a seat drew from ``view.rng`` before does not move
it (a teacher that searches first and a student replaying its games draw the same deals)."""

from __future__ import annotations

from ginsim import Rules, play_hand
from ginsim.engine.cards import Card
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.run.seeding import deck_for


class Drawer(Strategy):
    """Plays without chance (never takes the upcard, lets its highest legal card go, knocks
    when it may); at each discard it first draws ``extra`` numbers from ``view.rng``, then
    notes three numbers of ``rng_for`` under two keys, and the next of ``rng``."""

    name = "drawer"

    def __init__(self, extra: int) -> None:
        self.extra = extra
        self.noted: list[tuple[list[float], list[float], float]] = []

    def take_upcard(self, view: PlayerView) -> bool:
        return False

    def knock(self, view: PlayerView) -> bool:
        return True

    def discard(self, view: PlayerView) -> Card:
        for _ in range(self.extra):
            view.rng.random()
        a = view.rng_for(view.turn)
        b = view.rng_for(view.turn + 1000)
        self.noted.append(([a.random() for _ in range(3)], [b.random() for _ in range(3)], view.rng.random()))
        return view.legal_discards().bit_length() - 1


def _play(extra: int, seed: int = 1) -> list[Drawer]:
    seats = [Drawer(extra), Drawer(extra)]
    play_hand(Rules(), seats, deck_for(321), 0, (0, 0), (seed, seed + 1))
    return seats


def test_a_question_draws_the_same_numbers_whatever_the_seat_drew_before() -> None:
    quiet, busy = _play(0), _play(5)
    for q, b in zip(quiet, busy, strict=True):
        assert len(q.noted) == len(b.noted) > 2
        assert [n[0] for n in q.noted] == [n[0] for n in b.noted]
        assert [n[1] for n in q.noted] == [n[1] for n in b.noted]
        assert [n[2] for n in q.noted] != [n[2] for n in b.noted]  # ``rng`` itself moved on


def test_other_keys_seats_and_seeds_draw_other_numbers() -> None:
    seats = _play(0)
    for seat in seats:
        assert all(n[0] != n[1] for n in seat.noted)
    assert seats[0].noted[0][0] != seats[1].noted[0][0]
    assert _play(0, seed=7)[0].noted[0][0] != seats[0].noted[0][0]
