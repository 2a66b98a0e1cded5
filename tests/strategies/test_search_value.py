"""``search_value.py`` and ``search_value_player.py``: a card value fitted on a search's values of
the discards. The labels are the seat's best few discards at each decision, with only what its
view holds; each is the better of knocking and playing on by the searcher's mean points; the
command line writes what ``label`` returns and refuses bad input in one line; with weight 0
the player is ``learned``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from support.learned import hand_moves
from support.training import fresh_network, training_module

from ginsim import tables_for
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.view import Event


def _moves(strategy: object, h: int) -> list[Event]:
    return hand_moves(strategy, "simple", "default", 700, h)


@pytest.mark.parametrize("opponent", ["simple", "learned"])  # learned: both seats noted
def test_labels_are_the_seats_best_discards_with_what_its_view_holds(opponent: str) -> None:
    sv = training_module("search_value")
    run = sv.label(1, 5, 4, 3, 0.0, opponents=(opponent,))
    masks, points, group = run["masks"], run["points"], run["group"]
    assert len(points) > 20 and np.all(np.isfinite(points)) and len(np.unique(points)) > 5
    assert np.all(np.diff(group) >= 0)  # a decision's labels together, numbered in order
    for g in np.unique(group):
        rows = masks[group == g]
        assert 2 <= len(rows) <= 3  # its best three, or all it may let go
        hands = {int(k) | int(c) for k, c in rows[:, :2]}
        assert len(hands) == 1 and bin(hands.pop()).count("1") == 11  # one hand, a card let go each
        assert len({int(c) for c in rows[:, 1]}) == len(rows)
        assert (rows[:, 2:] == rows[0, 2:]).all()  # the rest of the view is the decision's
        assert not np.any(rows[:, 0] & rows[:, 2])  # nothing kept is the opponent's known card


class _Searcher:
    """A stand-in for the labeller's ``patient``: each option's points are fixed by its card
    and knock, in two worlds."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, bool]] = []

    def hunter_chance(self, view: Any) -> float:
        return 0.3

    def evaluate(self, view: Any, options: list[tuple[int, bool]]) -> list[list[float]]:
        self.asked = options
        return [[card + (10.0 if knock else 0.0) + w for card, knock in options] for w in (-1.0, 1.0)]


def test_a_discards_label_is_the_better_of_knocking_and_playing_on() -> None:
    sv = training_module("search_value")
    seen: list[tuple[int, int, list[int], list[tuple[int, bool]], list[float]]] = []

    class Probe(sv.Labeller):
        def values(self, view: Any, cards: list[int]) -> list[float]:
            self.searcher = _Searcher()
            out = super().values(view, cards)
            seen.append((view.hand, view.knock_limit, cards, self.searcher.asked, out))  # as they are now
            return out

    for h in range(4):
        _moves(Probe(4, 13, 0.0), h)
    knocks = 0
    tables = tables_for(preset_rules("default").max_run_length)
    for hand, limit, cards, asked, out in seen:
        for card, value in zip(cards, out, strict=True):
            dw = tables.deadwood_mask(hand & ~(1 << card))
            may_knock = dw <= limit
            assert ((card, True) in asked) == may_knock and ((card, False) in asked) == (dw > 0)
            assert value == card + (10.0 if may_knock else 0.0)  # the mean of the worlds, the better option
            knocks += may_knock
    assert len(seen) > 10 and knocks > 0


def test_the_command_line_writes_what_label_returns(tmp_path: Path) -> None:
    sv = training_module("search_value")
    argv = ["label", "--games", "1", "--seed", "3", "--samples", "4", "--top", "2", "--opponent", "simple"]
    assert sv.main([*argv, "--out-dir", str(tmp_path)]) == 0
    run = sv.label(1, sv.SeededRandom(3).getrandbits(62), 4, 2, 0.1, opponents=("simple",))
    with np.load(tmp_path / "samples-0.npz") as written:
        for key in ("masks", "nums", "points", "group"):
            assert np.array_equal(written[key], run[key]), key
    # card_value.py fits the written samples as its own
    cv = training_module("card_value")
    masks, _, points = cv.load_samples([tmp_path / "samples-0.npz"])
    assert len(masks) == len(points) == len(run["points"])


def test_bad_input_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sv = training_module("search_value")
    out = tmp_path / "out"
    for argv, said in (
        (["label", "--games", "1", "--seed", "1", "--preset", "nope"], "unknown preset"),
        (["label", "--games", "1", "--seed", "1", "--samples", "1"], "--samples"),
        (["label", "--games", "0", "--seed", "1"], "--games"),
        (["label", "--games", "1", "--seed", "1", "--opponent", "nosuch"], "unknown strategy"),
        (["label", "--games", "1", "--seed", "1", "--opponent", "aware:bogus=1"], "bogus"),
    ):
        assert sv.main([*argv, "--out-dir", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err
    assert not out.exists()  # nothing was played or written


def test_with_weight_zero_it_plays_as_learned(tmp_path: Path) -> None:
    player = training_module("search_value_player")
    path = fresh_network(tmp_path / "v.npz")
    changed = 0
    for h in range(6):
        learned = parse_spec("learned").build()
        assert _moves(player.Both(value=str(path), weight=0.0), h) == _moves(learned, h)
        changed += _moves(player.Both(value=str(path), weight=50.0), h) != _moves(parse_spec("learned").build(), h)
    assert changed > 0  # a network that weighs much moves some discards
    # with its say over learned's best discard only, the network changes nothing
    for h in range(6):
        assert _moves(player.Both(value=str(path), weight=50.0, top=1), h) == _moves(parse_spec("learned").build(), h)
    with pytest.raises(ValueError, match="value"):
        player.Both(value="")
    with pytest.raises(ValueError, match="top"):
        player.Both(value=str(path), top=-1)
