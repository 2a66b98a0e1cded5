"""The library's hand calls (ginsim.hands): strategies by name, results with card names."""

from __future__ import annotations

import pytest
from ginsim.strategies.threshold import Threshold

import ginsim
from ginsim.engine.playhand import play_hand as engine_play_hand
from ginsim.engine.spec import parse_spec
from ginsim.errors import CardError, StrategySpecError

DECK = list(range(52))


def test_play_hand_takes_names_specs_classes_and_instances():
    engine = engine_play_hand(ginsim.Rules(), [parse_spec("simple").build(), parse_spec("random").build()], DECK, 0)
    assert ginsim.play_hand(ginsim.Rules(), ["simple", "random"], DECK, 0) == engine
    spec = ginsim.play_hand(ginsim.Rules(), ["threshold:knock_at=4", Threshold], DECK, 1)
    inst = ginsim.play_hand(ginsim.Rules(), [Threshold(knock_at=4), Threshold()], DECK, 1)
    assert spec == inst


def test_play_hand_takes_deck_text_and_seeds():
    text = " ".join(ginsim.format_card(c) for c in DECK)
    assert ginsim.play_hand(None, ["simple", "random"], text) == ginsim.play_hand(None, ["simple", "random"], DECK)
    a = ginsim.play_hand(strategies=["simple", "random"], seed=3)
    assert a == ginsim.play_hand(strategies=["simple", "random"], seed=3)
    with pytest.raises(CardError):
        ginsim.play_hand(None, ["simple", "random"], DECK[:51])
    with pytest.raises(StrategySpecError, match="did you mean 'simple'"):
        ginsim.play_hand(None, ["simpel", "random"], DECK)
    with pytest.raises(StrategySpecError, match="two strategies"):
        ginsim.play_hand(None, ["simple"], DECK)


def test_results_have_card_names():
    r = ginsim.play_hand(strategies=["simple", "random"], seed=7)
    d = r.as_dict()
    assert d["hands"][0] == r.cards(0) and len(r.cards(1)) == 10
    assert ginsim.to_mask(" ".join(d["hands"][0])) == r.hands[0]
    assert all(isinstance(c, str) for m in d["knocker_melds"] for c in m)
    text = r.describe()
    assert r.outcome.split("_")[0] in text or "drawn" in text or "undercut" in text
    assert " ".join(r.cards(0)) in text and repr(r).startswith("HandResult(")


def test_play_game_takes_names():
    g = ginsim.play_game(strategies=["threshold:knock_at=3", "simple"], seed=1)
    assert g.winner in (0, 1) and g.hands
    assert g == ginsim.play_game(strategies=[Threshold(knock_at=3), "simple"], seed=1)


def test_best_discards_names_and_mask():
    hand = "7H 8H 9H 7C 7D 7S 2C 3D KS QS 4C"
    dw, names = ginsim.best_discards(hand)
    assert (dw, sorted(names)) == (19, ["KS", "QS"])
    dw2, mask = ginsim.best_discards_mask(hand)
    assert dw2 == dw and mask == ginsim.to_mask(names)


def _public_view_names() -> set[str]:
    from ginsim.engine.viewdoc import ATTRIBUTES

    view = ginsim.PlayerView(ginsim.Rules(), ginsim.tables_for(None), 0, 0, (0, 0), 0)
    members = {n for n in dir(view) if not n.startswith("_")}  # slots are listed on an instance
    assert set(ATTRIBUTES) <= members
    return members


def test_help_on_the_view_lists_every_attribute_and_helper():
    import pydoc

    text = pydoc.render_doc(ginsim.PlayerView, renderer=pydoc.plaintext)
    for name in _public_view_names():
        assert f"  {name} " in text or f"  {name}(" in text, name
    assert "Among the legal discards" in text  # a helper's docstring, also when compiled
    assert "How one hand ended" in pydoc.render_doc(ginsim.HandResult, renderer=pydoc.plaintext)


def test_the_strategy_reference_documents_every_attribute_and_helper():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "strategy-api.md").read_text()
    for name in _public_view_names():
        assert f"`{name}`" in doc or f"`{name}(" in doc, name
    for action in ("pass", "take", "draw", "discard", "knock", "big_gin"):
        assert f'`"{action}"`' in doc
    for hook in ("observe", "choose_melds", "choose_layoffs", "take_big_gin"):
        assert f"`{hook}" in doc
