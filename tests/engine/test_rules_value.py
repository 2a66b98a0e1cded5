"""The Rules value: its defaults as RULES.md gives them, and bad values refused,
each proved by rule id with explicit hands (support.rulebook has the seat convention
and deck layout)."""

from __future__ import annotations

import math
from dataclasses import FrozenInstanceError

import pytest

from ginsim import (
    GinsimError,
    Rules,
    RulesError,
    load_rules_file,
)

# == The Rules value ==========================================================================


def test_rules_defaults_match_rules_md():
    r = Rules()
    assert (r.knock_limit, r.gin_bonus, r.undercut_bonus, r.big_gin_bonus) == (10, 20, 10, None)
    assert (r.allow_discard_of_drawn_upcard, r.max_run_length, r.target_score) == (False, None, 100)
    assert (r.next_dealer, r.time_per_hand) == ("alternate", None)
    with pytest.raises(FrozenInstanceError):
        r.knock_limit = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("knock_limit", 11),
        ("knock_limit", -1),
        ("knock_limit", "5"),
        ("knock_limit", True),
        ("knock_limit", 5.0),
        ("gin_bonus", -1),
        ("gin_bonus", 2.5),
        ("undercut_bonus", -10),
        ("undercut_bonus", None),
        ("big_gin_bonus", -31),
        ("big_gin_bonus", "31"),
        ("allow_discard_of_drawn_upcard", "yes"),
        ("allow_discard_of_drawn_upcard", 1),
        ("max_run_length", 2),
        ("max_run_length", 14),
        ("max_run_length", 0),
        ("target_score", 0),
        ("target_score", -100),
        ("next_dealer", "random"),
        ("next_dealer", "Winner "),
        ("time_per_hand", 0),
        ("time_per_hand", -1.0),
        ("time_per_hand", math.nan),
        ("time_per_hand", True),
        ("time_per_hand", "10"),
    ],
)
def test_rules_bad_values_raise_rules_error_naming_the_field(field, bad):
    with pytest.raises(RulesError, match=field) as err:
        Rules(**{field: bad})
    assert isinstance(err.value, GinsimError) and isinstance(err.value, ValueError)
    with pytest.raises(RulesError, match=field):
        Rules().with_values({field: bad})


def test_rules_good_values():
    r = Rules(
        knock_limit=0,
        gin_bonus=25,
        undercut_bonus=25,
        big_gin_bonus=31,
        allow_discard_of_drawn_upcard=True,
        max_run_length=5,
        target_score=250,
        next_dealer="loser",
        time_per_hand=3,
    )
    assert r.time_per_hand == 3.0 and isinstance(r.time_per_hand, float)
    assert r.differences()["knock_limit"] == 0
    assert Rules().describe() == "default rules"
    assert "knock_limit=0" in r.describe()


def test_rules_with_values_unknown_key():
    with pytest.raises(RulesError, match="knock_limt") as err:
        Rules().with_values({"knock_limt": 5})
    assert "knock_limit" in str(err.value)  # the known keys are listed
    r = Rules().with_values({"knock_limit": 7})
    assert r.knock_limit == 7 and r.gin_bonus == 20


def test_rules_load_rules_file(tmp_path):
    p = tmp_path / "rules.toml"
    p.write_text(
        '[rules]\nknock_limit = 7\ngin_bonus = 25\nnext_dealer = "winner"\nbig_gin_bonus = 31\ntime_per_hand = 1.5\n',
        encoding="utf-8",
    )
    r = load_rules_file(p)
    assert (r.knock_limit, r.gin_bonus, r.next_dealer, r.big_gin_bonus, r.time_per_hand) == (7, 25, "winner", 31, 1.5)
    p.write_text('[rules]\nbig_gin_bonus = "none"\n', encoding="utf-8")
    assert load_rules_file(p).big_gin_bonus is None
    p.write_text("", encoding="utf-8")
    assert load_rules_file(p) == Rules()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[rules]\nknock_lim = 7\n", ["knock_lim", "unknown"]),
        ("[rules]\nknock_limit = 70\n", ["knock_limit", "70"]),
        ('[rules]\nnext_dealer = "random"\n', ["next_dealer", "random"]),
        ("[game]\nknock_limit = 7\n", ["game", "[rules]"]),
        ("knock_limit = 7\n", ["knock_limit"]),
        ("[rules\nknock_limit = 7\n", ["not valid TOML"]),
        ("rules = 5\n", ["[rules] must be a table"]),
    ],
)
def test_rules_load_rules_file_errors(tmp_path, text, words):
    p = tmp_path / "bad.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_rules_file(p)
    msg = str(err.value)
    assert "bad.toml" in msg
    for w in words:
        assert w in msg, msg


def test_rules_load_rules_file_missing(tmp_path):
    with pytest.raises(RulesError, match="cannot read"):
        load_rules_file(tmp_path / "nope.toml")
