"""Rule presets and the rule schools (R27-R34): presets, undercut on ties, Oklahoma gin,
game scoring (boxes, game bonus, shutout), straight gin, game records and points_per_game.

Each test names its rule id. The reference checks replay hands under every preset and test
each showdown against the brute-force reference and RULES.md's scoring written out here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from support import reference as ref
from support.deals import Script, make_deck
from support.playouts import assert_playouts_match_the_engine

from ginsim.analysis.games import game_figures
from ginsim.engine.game import GameResult, next_dealer, play_game
from ginsim.engine.gamescore import final_totals
from ginsim.engine.melds import tables_for
from ginsim.engine.playhand import Hand, play_hand
from ginsim.engine.presets import FIELD_HELP, PRESET_NAMES, PRESETS
from ginsim.engine.rules import Rules, build_rules, preset_rules, rules_from_table
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.errors import GinsimError, IllegalMoveError, RulesError
from ginsim.run.config import load_experiment
from ginsim.run.seeding import deal_seed, deck_for, game_deal_seed
from ginsim.run.worker import ChunkTask, play_chunk
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import GAME_COLUMNS, GAME_PREFIX, read_games

ALL_PRESETS = [preset_rules(n) for n in PRESET_NAMES]
VARIANTS = [
    *ALL_PRESETS,
    Rules(undercut_on_tie=False),
    Rules(oklahoma=True),
    Rules(oklahoma=True, oklahoma_ace="gin", oklahoma_spades=True, gin_bonus=25, undercut_bonus=25),
    Rules(knock_limit=0),
]
VARIANT_IDS = [*PRESET_NAMES, "no_tie_undercut", "oklahoma", "oklahoma_gin_spades", "straight_gin"]

NONDEALER = "AS 2S 3S 6H 6D 6C 9C TC JC 5D"  # deadwood 5 (5D)
DEALER = "8H 8S 8D QD QS QH KD KS KC 5H"  # deadwood 5 (5H)


def play(deck: list[int], nondealer: Strategy, dealer_strategy: Strategy, rules: Rules) -> object:
    return play_hand(rules, [nondealer, dealer_strategy], deck, 1, seeds=(1, 2))


# -- R27 presets ---------------------------------------------------------------------------


def test_r27_presets_hold_the_issue_numbers() -> None:
    eaai = preset_rules("eaai")
    assert (eaai.gin_bonus, eaai.undercut_bonus, eaai.undercut_on_tie, eaai.big_gin_bonus) == (25, 25, True, None)
    assert (eaai.box_bonus, eaai.game_bonus, eaai.shutout, eaai.target_score) == (0, 0, "none", 100)
    assert (eaai.knock_limit, eaai.next_dealer) == (10, "alternate")
    modern = preset_rules("modern")
    assert (modern.gin_bonus, modern.undercut_bonus, modern.big_gin_bonus) == (25, 25, 31)
    assert (modern.box_bonus, modern.box_timing, modern.game_bonus, modern.shutout) == (25, "end", 100, "double")
    classic = preset_rules("classic")
    assert (classic.gin_bonus, classic.undercut_bonus, classic.big_gin_bonus) == (20, 10, None)
    assert (classic.box_bonus, classic.game_bonus, classic.shutout, classic.shutout_bonus) == (20, 100, "flat", 100)
    palace = preset_rules("palace")
    assert (palace.gin_bonus, palace.undercut_bonus, palace.box_bonus, palace.box_timing) == (25, 20, 10, "immediate")
    assert (palace.game_bonus, palace.shutout) == (0, "none")
    assert preset_rules("default") == Rules()
    assert all(r.preset == n for r, n in zip(ALL_PRESETS, PRESET_NAMES, strict=True))
    assert all(p.source for p in PRESETS.values())


def test_r27_rules_name_file_and_overrides(tmp_path: Path) -> None:
    r = build_rules("eaai", ["knock_limit=8"])
    assert (r.preset, r.gin_bonus, r.knock_limit) == ("eaai", 25, 8)
    assert r.describe() == "eaai rules, knock_limit=8"
    assert preset_rules("modern").describe() == "modern rules"
    f = tmp_path / "r.toml"
    f.write_text('[rules]\npreset = "classic"\ngin_bonus = 25\n')
    r = build_rules(f)
    assert (r.preset, r.box_bonus, r.gin_bonus) == ("classic", 20, 25)
    assert rules_from_table({"preset": "palace"}, "t") == preset_rules("palace")
    with pytest.raises(RulesError, match="'eaia': unknown preset"):
        build_rules("eaia")
    with pytest.raises(RulesError, match="--rule preset"):
        build_rules("eaai", ["preset=modern"])
    with pytest.raises(RulesError, match="preset must be one of default, eaai"):
        Rules(preset="house")


def test_r27_experiment_files_name_a_preset(tmp_path: Path) -> None:
    f = tmp_path / "e.toml"
    f.write_text('kind = "match"\na = "simple"\nb = "simple"\ngames = 2\nrules = "eaai"\n')
    assert load_experiment(f).rules == preset_rules("eaai")
    f.write_text('kind = "match"\na = "simple"\nb = "simple"\ngames = 2\n[rules]\npreset = "modern"\nbox_bonus = 20\n')
    r = load_experiment(f).rules
    assert (r.preset, r.box_bonus, r.game_bonus) == ("modern", 20, 100)
    f.write_text('kind = "match"\na = "simple"\nb = "simple"\ngames = 2\nrules = "nope"\n')
    with pytest.raises(GinsimError, match="unknown preset 'nope'"):
        load_experiment(f)


def test_r27_rules_command_lists_presets_and_every_field(run_cli) -> None:
    r = run_cli("rules", "--list")
    assert r.code == 0 and [line.split()[0] for line in r.out.splitlines()] == list(PRESET_NAMES)
    r = run_cli("rules")
    assert r.code == 0
    for name in [*PRESET_NAMES, *FIELD_HELP]:
        assert name in r.out
    assert set(FIELD_HELP) == set(Rules().to_dict())
    r = run_cli("rules", "eaai")
    assert r.code == 0 and "gin_bonus" in r.out and "[20, 25]" in r.out
    r = run_cli("rules", "house")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "unknown preset" in r.err


def test_r27_manifest_records_the_preset_and_resume_refuses_another(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "run"
    r = run_cli("match", "simple", "simple", "--hands", "20", "--rules", "eaai", "--jobs", "1", "--out", str(out))
    assert r.code == 0, r.err
    m = json.loads((out / "manifest.json").read_text())
    assert m["preset"] == "eaai" and m["rules"] == preset_rules("eaai").to_dict()
    assert set(m["rules"]) == set(FIELD_HELP)
    r = run_cli("match", "simple", "simple", "--hands", "20", "--jobs", "1", "--out", str(out))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert "'eaai' rules, not 'default'" in r.err
    r = run_cli(
        "match", "simple", "simple", "--hands", "20", "--rules", "eaai", "--jobs", "1", "--out", str(out)
    )  # the same command resumes (nothing left to play)
    assert r.code == 0, r.err


@pytest.mark.parametrize(
    "option",
    [
        "undercut_on_tie=maybe",
        "oklahoma=2",
        "oklahoma_ace=two",
        "box_bonus=-5",
        "box_timing=later",
        "game_bonus=-1",
        "shutout=triple",
        "shutout_bonus=-3",
    ],
)
def test_r27_r33_bad_values_are_one_line_and_exit_2(run_cli, option: str) -> None:
    r = run_cli("match", "simple", "simple", "--hands", "2", "--rules", "modern", "--rule", option)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert option.split("=")[0] in r.err


def test_r27_r33_cross_checks() -> None:
    with pytest.raises(RulesError, match="oklahoma_spades needs oklahoma"):
        Rules(oklahoma_spades=True)
    with pytest.raises(RulesError, match="shutout = flat needs a shutout_bonus"):
        Rules(shutout="flat")
    assert build_rules("classic", ["shutout=double"]).shutout == "double"  # its flat bonus is then unused


# -- R28 undercut on ties ------------------------------------------------------------------


def test_r28_a_tie_without_undercut_on_tie_scores_nothing() -> None:
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    on = play(deck, Script(["pass", "knock KH"]), Script(["pass"]), Rules())
    assert (on.outcome, on.winner, on.points) == ("undercut", 1, 10)
    off = play(deck, Script(["pass", "knock KH"]), Script(["pass"]), Rules(undercut_on_tie=False))
    assert off.knocker_deadwood == off.defender_deadwood_after == 5
    assert (off.outcome, off.knocker, off.winner, off.points) == ("knock", 0, -1, 0)
    # a strictly lower count still undercuts
    deck = make_deck(nondealer=NONDEALER, dealer="8H 8S 8D QD QS QH KD KS KC 4H", upcard="7C", stock="KH")
    res = play(deck, Script(["pass", "knock KH"]), Script(["pass"]), Rules(undercut_on_tie=False))
    assert (res.outcome, res.winner, res.points) == ("undercut", 1, 1 + 10)
    # no one scored: the same dealer deals again, as after a drawn hand
    assert next_dealer(Rules(undercut_on_tie=False), 1, off) == 1


# -- R29, R30 Oklahoma ---------------------------------------------------------------------


class _LimitSpy(Strategy):
    """Passes, never knocks, records the knock limit its view gives."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def take_upcard(self, view: PlayerView) -> bool:
        self.seen.add(view.knock_limit)
        return False

    def discard(self, view: PlayerView) -> int:
        return max(ref.cards(view.legal_discards()))

    def knock(self, view: PlayerView) -> bool:
        return False


@pytest.mark.parametrize(
    ("upcard", "rules", "limit"),
    [
        ("7C", Rules(oklahoma=True), 7),
        ("KH", Rules(oklahoma=True), 10),
        ("TH", Rules(oklahoma=True), 10),
        ("AC", Rules(oklahoma=True), 1),
        ("AC", Rules(oklahoma=True, oklahoma_ace="gin"), 0),
        ("9D", Rules(oklahoma=True, knock_limit=5), 5),  # never above knock_limit
        ("3H", Rules(), 10),  # off: the upcard does not matter
    ],
)
def test_r29_oklahoma_upcard_sets_the_hands_knock_limit(upcard: str, rules: Rules, limit: int) -> None:
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard=upcard)
    h = Hand(rules, deck, dealer=1)
    assert h.knock_limit == limit
    assert h.views[0].knock_limit == h.views[1].knock_limit == limit
    spy = _LimitSpy()
    play_hand(rules, [spy, _LimitSpy()], deck, 1)
    assert spy.seen == {limit}


def test_r29_oklahoma_knock_over_the_hands_limit_is_refused() -> None:
    # non-dealer at deadwood 5 after discarding KH; upcard 4C: the limit is 4
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4C", stock="KH")
    h = Hand(Rules(oklahoma=True), deck, dealer=1)
    h.pass_upcard()
    h.pass_upcard()
    assert not h.views[0].can_knock(ref.parse("KH").bit_length() - 1)
    with pytest.raises(IllegalMoveError, match="over the knock limit 4"):
        h.discard(ref.parse("KH").bit_length() - 1, knock=True)
    # upcard 5C: the same knock is legal
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="5C", stock="KH")
    res = play(deck, Script(["pass", "knock KH"]), Script(["pass"]), Rules(oklahoma=True))
    assert res.outcome == "undercut"


def test_r30_oklahoma_spade_upcard_doubles_the_hands_points() -> None:
    gin = "AS 2S 3S 6H 6D 6C 9C TC JC QC"
    for up, factor in (("7S", 2), ("7D", 1)):
        deck = make_deck(nondealer=gin, dealer=DEALER, upcard=up, stock="KH")
        rules = Rules(oklahoma=True, oklahoma_spades=True)
        res = play(deck, Script(["pass", "knock KH"]), Script(["pass"]), rules)
        assert res.outcome == "gin" and res.points == (20 + 5) * factor
        deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard=up, stock="KH")
        res = play(deck, Script(["pass", "knock KH"]), Script(["pass"]), rules)
        assert res.outcome == "undercut" and res.points == 10 * factor
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="6S", stock="KH")
    res = play(deck, Script(["pass", "knock KH"]), Script(["pass"]), Rules(oklahoma=True))
    assert res.points == 10  # without oklahoma_spades nothing doubles
    from ginsim.terminal.textview import Style, result_lines

    rules = Rules(oklahoma=True, oklahoma_spades=True)
    for up, says in (("6S", True), ("7C", False)):
        deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard=up, stock="KH")
        res = play(deck, Script(["pass", "knock KH"]), Script(["pass"]), rules)
        line = result_lines(Style(False), res, ["A", "B"], rules, show_hands=False)[0]
        assert ("doubled" in line) is says, line


@pytest.mark.parametrize("name", ["simple", "threshold:knock_at=6", "aware", "sampler:samples=4"])
def test_r29_builtins_respect_the_hands_knock_limit(name: str) -> None:
    rules = Rules(oklahoma=True, oklahoma_ace="gin")
    a, b = parse_spec(name).build(), parse_spec("simple").build()
    n = 12 if name.startswith("sampler") else 60
    knocks = 0
    for i in range(n):
        deck = deck_for(deal_seed(77, i))
        res = play_hand(rules, (a, b), deck, i % 2, seeds=(i, i + 1))
        assert res.outcome != "forfeit", res.forfeit_reason
        if res.knocker >= 0:
            knocks += 1
            assert res.knocker_deadwood <= rules.hand_knock_limit(deck[20])
    assert knocks


# -- R31-R33 game scoring ------------------------------------------------------------------


def test_r31_boxes_at_the_end_or_at_once() -> None:
    end = Rules(box_bonus=25)
    f = final_totals(end, 0, (104, 30), (4, 2))
    assert f.totals == (104 + 100, 30 + 50) and not f.shutout
    # immediate: the running score takes the boxes, so the game ends sooner
    now = preset_rules("palace")
    strategies = (parse_spec("simple").build(), parse_spec("simple").build())
    g_now = _game(now, strategies)
    g_off = _game(Rules(gin_bonus=25, undercut_bonus=20), strategies)
    assert len(g_now.hands) <= len(g_off.hands)
    points = [0, 0]
    wins = [0, 0]
    for h, res in enumerate(g_now.hands):
        assert g_now.running[h] == (points[0] + 10 * wins[0], points[1] + 10 * wins[1])
        if res.winner >= 0:
            points[res.winner] += res.points
            wins[res.winner] += 1
    w = g_now.winner
    assert points[w] + 10 * wins[w] >= 100 and g_now.final is not None
    assert g_now.final.totals == (points[0] + 10 * wins[0], points[1] + 10 * wins[1])


def _game(rules: Rules, strategies: tuple[Strategy, Strategy], unit: int = 3) -> GameResult:
    return play_game(rules, strategies, lambda h: deck_for(game_deal_seed(9, unit, h)), unit % 2, lambda h: (h, h + 1))


def test_r32_game_bonus_goes_to_the_winner_only() -> None:
    f = final_totals(Rules(game_bonus=100), 1, (40, 101), (2, 5))
    assert f.totals == (40, 201)
    f = final_totals(Rules(game_bonus=100), -1, (40, 60), (2, 5))  # undecided: no bonus
    assert f.totals == (40, 60)


def test_r33_shutout_doubles_or_adds_a_flat_bonus() -> None:
    modern = preset_rules("modern")
    f = final_totals(modern, 0, (110, 0), (5, 0))
    assert f.shutout and f.totals == (2 * 110 + 5 * 25 + 100, 0)
    classic = preset_rules("classic")
    f = final_totals(classic, 1, (0, 100), (0, 3))
    assert f.shutout and f.totals == (0, 100 + 60 + 100 + 100)
    f = final_totals(classic, 1, (5, 100), (1, 3))  # the loser scored: no shutout
    assert not f.shutout and f.totals == (5 + 20, 100 + 60 + 100)
    assert not final_totals(Rules(), 0, (100, 0), (3, 0)).shutout  # shutout none


@pytest.mark.parametrize("name", ["modern", "classic", "palace", "eaai"])
def test_r31_r33_game_records_match_the_hand_log(name: str) -> None:
    rules = preset_rules(name)
    spec = parse_spec("simple")
    task = ChunkTask(rules, spec, parse_spec("threshold:knock_at=4"), 0, 5, 11, "games", True, 0, 6, 0)
    arrays = play_chunk(task)
    games = pd.DataFrame({c: arrays[GAME_PREFIX + c] for c in GAME_COLUMNS})
    hands = pd.DataFrame({c: arrays[c] for c in ("deal", "copy", "winner", "points", "score_0", "score_1")})
    assert len(games) == 12
    box_now = rules.box_bonus if rules.box_timing == "immediate" else 0
    for g in games.itertuples(index=False):
        hs = hands[(hands["deal"] == g.deal) & (hands["copy"] == g.copy)]
        assert len(hs) == g.hands
        pts, wins, running = [0, 0], [0, 0], [0, 0]
        for r in hs.itertuples(index=False):
            assert (r.score_0, r.score_1) == tuple(running)
            if r.winner >= 0:
                pts[r.winner] += r.points
                wins[r.winner] += 1
                running[r.winner] += r.points + box_now
        assert (g.points_0, g.points_1, g.boxes_0, g.boxes_1) == (pts[0], pts[1], wins[0], wins[1])
        assert running[g.winner] >= rules.target_score > running[1 - g.winner]
        tot = [pts[s] + rules.box_bonus * wins[s] for s in (0, 1)]
        tot[g.winner] += rules.game_bonus
        shut = rules.shutout != "none" and running[1 - g.winner] == 0
        assert g.shutout == shut
        if shut:
            tot[g.winner] += pts[g.winner] if rules.shutout == "double" else rules.shutout_bonus
        assert (g.total_0, g.total_1) == (tot[0], tot[1])


def test_r31_hand_mode_writes_no_game_records() -> None:
    spec = parse_spec("simple")
    arrays = play_chunk(ChunkTask(preset_rules("modern"), spec, spec, 0, 5, 11, "hands", True, 0, 4, 0))
    assert not any(k.startswith(GAME_PREFIX) for k in arrays)


def test_r31_points_per_game_in_summary_and_report(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "g"
    args = ("match", "simple", "threshold:knock_at=3", "--games", "16", "--rules", "modern", "--jobs", "1")
    r = run_cli(*args, "--out", str(out), "--chunk", "3")
    assert r.code == 0, r.err
    assert "points_per_game" in r.out
    s = pd.read_csv(out / "summary.csv")
    assert {"points_per_game", "points_per_game_lo", "points_per_game_hi", "hands_per_game"} <= set(s)
    games = read_games(chunk_files(out))
    assert len(games) == 16 and len(list((out / "games").glob("*.parquet"))) == 3
    # by hand: side 0 is `simple`; a duplicate game pair is one cluster
    net = np.where(games.seat_a == 0, games.total_0 - games.total_1, games.total_1 - games.total_0)
    assert s.points_per_game[0] == pytest.approx(net.mean())
    assert s.points_per_game[1] == pytest.approx(-net.mean())
    pair = pd.Series(net).groupby(games.deal.to_numpy()).sum().to_numpy()
    se = np.sqrt(((pair - 2 * net.mean()) ** 2).sum() * 8 / 7) / 16
    # summary.csv keeps 6 significant digits
    assert s.points_per_game_hi[0] - s.points_per_game[0] == pytest.approx(1.959963984540054 * se, rel=1e-4)
    assert game_figures(games)[(0, 0)]["hands_per_game"] == pytest.approx(s.hands_per_game[0])
    assert "points_per_game" in (out / "report.md").read_text()


# -- R34 straight gin ----------------------------------------------------------------------


def test_r34_straight_gin_is_knock_limit_zero() -> None:
    rules = Rules(knock_limit=0)
    deck = make_deck(nondealer="AS 2S 3S 6H 6D 6C 9C TC JC AD", dealer=DEALER, upcard="7C", stock="KH")
    h = Hand(rules, deck, dealer=1)
    h.pass_upcard()
    h.pass_upcard()
    with pytest.raises(IllegalMoveError, match="over the knock limit 0"):
        h.discard(ref.parse("KH").bit_length() - 1, knock=True)
    a, b = parse_spec("simple").build(), parse_spec("aware").build()
    outcomes = set()
    for i in range(40):
        res = play_hand(rules, (a, b), deck_for(deal_seed(34, i)), i % 2, seeds=(i, i))
        outcomes.add(res.outcome)
    assert outcomes <= {"gin", "draw"} and "gin" in outcomes


# -- the reference under every preset ------------------------------------------------------


def reference_score(rules: Rules, upcard: int, kd: int, before: int, after: int) -> tuple[str, int, int]:
    """RULES.md R19-R21, R28, R30 from the knocker's side: (outcome, winner side, points);
    winner side 0 is the knocker, 1 the defender, -1 none."""
    factor = 2 if rules.oklahoma_spades and ref.suit(upcard) == 3 else 1
    if kd == 0:
        return "gin", 0, (rules.gin_bonus + before) * factor
    if kd < after:
        return "knock", 0, (after - kd) * factor
    if kd == after and not rules.undercut_on_tie:
        return "knock", -1, 0
    return "undercut", 1, (kd - after + rules.undercut_bonus) * factor


def reference_limit(rules: Rules, upcard: int) -> int:
    if not rules.oklahoma:
        return rules.knock_limit
    v = ref.value(upcard)
    if v == 1 and rules.oklahoma_ace == "gin":
        v = 0
    return min(v, rules.knock_limit)


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_r27_r34_showdowns_match_the_reference_under_every_preset(rules: Rules) -> None:
    """Random hands under each preset and variant: every showdown against the brute-force
    deadwood and lay-offs and the scoring of RULES.md."""
    a, b = parse_spec("threshold:knock_at=5").build(), parse_spec("simple").build()
    kinds = set()
    scored = 0
    for i in range(90):
        deck = deck_for(deal_seed(1800 + len(rules.describe()), i))
        res = play_hand(rules, (a, b), deck, i % 2, seeds=(i, i + 1))
        assert res.outcome != "forfeit"
        if res.outcome in ("draw", "big_gin"):
            continue
        k = res.knocker
        kh, dh = res.hands[k], res.hands[1 - k]
        kd = ref.ref_deadwood(kh)
        before = ref.ref_deadwood(dh)
        assert kd <= reference_limit(rules, deck[20])
        after = before if kd == 0 else ref.ref_best_layoff(dh, res.knocker_melds)[0]
        outcome, side, points = reference_score(rules, deck[20], kd, before, after)
        assert (res.knocker_deadwood, res.defender_deadwood_before, res.defender_deadwood_after) == (
            0 if kd == 0 else kd,
            before,
            after,
        )
        winner = -1 if side < 0 else k if side == 0 else 1 - k
        assert (res.outcome, res.winner, res.points) == (outcome, winner, points)
        kinds.add(outcome)
        scored += 1
    assert scored > 20
    assert kinds == {"gin"} if rules.knock_limit == 0 else "knock" in kinds


@pytest.mark.parametrize("rules", ALL_PRESETS, ids=list(PRESET_NAMES))
def test_r27_playouts_agree_hand_for_hand_with_the_engine_under_every_preset(rules: Rules) -> None:
    from ginsim.engine.playout import Policy

    assert_playouts_match_the_engine(rules, Policy(late_turn=12, late_knock_at=4))
    assert_playouts_match_the_engine(rules, Policy(late_turn=12, late_knock_at=4, opp_late_turn=9, opp_late_knock_at=1))


def test_r29_view_knock_limit_reaches_the_melds_tables() -> None:
    tables = tables_for(None)
    v = PlayerView(Rules(oklahoma=True), tables, 0, 1, (0, 0), 0, ref.parse(NONDEALER), 3)  # upcard 4C
    assert v.knock_limit == 4
    v = PlayerView(Rules(oklahoma=True), tables, 0, 1, (0, 0), 0, ref.parse(NONDEALER), None)
    assert v.knock_limit == 10


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r27_each_preset_plays_hands_and_games_from_the_python_api(name: str) -> None:
    import ginsim

    rules = ginsim.preset_rules(name)
    a, b = ginsim.parse_spec("aware").build(), ginsim.parse_spec("simple").build()
    res = ginsim.play_hand(rules, (a, b), deck_for(deal_seed(27, 0)), 0, seeds=(1, 2))
    assert res.outcome in ("knock", "undercut", "gin", "big_gin", "draw")
    game = _game(rules, (a, b), unit=27)
    assert game.winner in (0, 1) and game.final is not None
    w = game.winner
    assert game.final.totals[w] >= game.final.points[w] + rules.game_bonus
