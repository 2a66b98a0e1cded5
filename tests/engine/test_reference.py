"""The fast table-driven engine against the brute-force reference in ``support/reference.py``.

R04-R07 (melds, deadwood, best melds, best discard) and R17 (lay-offs), with runs of any
length and with ``max_run_length`` 3, 4 and 5, on uniformly random hands, meld-rich hands
(few adjacent ranks, few suits, four of a kind with runs through it, several ranks with
three or more cards, long runs) and hands met in real play. Every random choice comes
from a seeded ``random.Random``.

The default run checks about 30,000 hands; ``test_slow_*`` (``pytest -m slow``) checks
about 188,000 (at least 100,000). A mismatch is reported with the smallest failing hands as card text.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Sequence

import pytest
from support import reference as ref

import ginsim
from ginsim.engine.hand import _engine_tables
from ginsim.engine.layoff import best_layoff, layoff_is_legal
from ginsim.engine.melds import tables_for
from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.run.seeding import deal_seed, deck_for

RUN_LIMITS = (None, 3, 4, 5)
ALL = (1 << 52) - 1


# -- hand sources ------------------------------------------------------------------------


def _fill(rng: random.Random, core: Iterable[int], n: int, avoid: int, near: int = 0) -> int:
    """``n`` cards: as many of ``core`` as fit (minus ``avoid``), then mostly cards of
    ``near``, then any free cards."""
    core_list = [c for c in dict.fromkeys(core) if not avoid >> c & 1]
    if len(core_list) > n:
        core_list = rng.sample(core_list, n)
    hand = ref.mask_of(core_list)
    while hand.bit_count() < n:
        pool = near & ~hand & ~avoid if rng.random() < 0.7 else 0
        if not pool:
            pool = ALL & ~hand & ~avoid
        hand |= 1 << rng.choice(ref.cards(pool))
    return hand


def random_hand(rng: random.Random, n: int = 10, avoid: int = 0) -> int:
    return ref.mask_of(rng.sample(ref.cards(ALL & ~avoid), n))


def _ranks_near(lo: int, hi: int) -> int:
    """Every card whose rank is in lo..hi (clipped to the deck)."""
    return ref.mask_of(s * 13 + r for s in range(4) for r in range(max(lo, 0), min(hi, 12) + 1))


def rich_hand(rng: random.Random, n: int = 10, avoid: int = 0) -> int:
    """A hand whose groups and runs overlap heavily."""
    kind = rng.randrange(6)
    if kind == 0:  # a window of adjacent ranks in a few suits
        w = rng.randint(3, 5)
        lo = rng.randrange(0, 14 - w)
        suits = rng.sample(range(4), rng.randint(2, 4))
        pool = [s * 13 + r for s in suits for r in range(lo, lo + w)]
        rng.shuffle(pool)
        return _fill(rng, pool, n, avoid, _ranks_near(lo - 1, lo + w))
    if kind == 1:  # four of a kind with runs through that rank
        r = rng.randrange(13)
        core = [s * 13 + r for s in range(4)]
        for s in rng.sample(range(4), rng.randint(1, 3)):
            a, b = rng.randint(0, 3), rng.randint(0, 3)
            core += [s * 13 + x for x in range(max(r - a, 0), min(r + b, 12) + 1)]
        return _fill(rng, core, n, avoid, _ranks_near(r - 3, r + 3))
    if kind == 2:  # several ranks with three or more cards, near each other
        lo = rng.randrange(0, 11)
        ranks = rng.sample(range(lo, min(lo + 4, 13)), rng.randint(2, 3))
        core = [s * 13 + r for r in ranks for s in rng.sample(range(4), rng.randint(3, 4))]
        return _fill(rng, core, n, avoid, _ranks_near(lo - 1, lo + 4))
    if kind == 3:  # a long run, with same-rank cards of other suits
        s = rng.randrange(4)
        length = rng.randint(5, 11)
        lo = rng.randrange(0, 14 - length)
        core = [s * 13 + r for r in range(lo, lo + length)]
        return _fill(rng, core, n, avoid, _ranks_near(lo, lo + length - 1))
    if kind == 4:  # two or three suits over six or seven adjacent ranks
        w = rng.randint(6, 7)
        lo = rng.randrange(0, 14 - w)
        suits = rng.sample(range(4), rng.randint(2, 3))
        pool = [s * 13 + r for s in suits for r in range(lo, lo + w)]
        rng.shuffle(pool)
        return _fill(rng, pool, n, avoid)
    # everything from four adjacent ranks, all suits
    lo = rng.randrange(0, 10)
    pool = ref.cards(_ranks_near(lo, lo + 3))
    rng.shuffle(pool)
    return _fill(rng, pool, n, avoid)


def mixed_hands(rng: random.Random, count: int, n: int | Callable[[random.Random], int]) -> list[int]:
    """``count`` hands, a third uniformly random and two thirds meld-rich."""
    out = []
    for i in range(count):
        size = n(rng) if callable(n) else n
        out.append(random_hand(rng, size) if i % 3 == 0 else rich_hand(rng, size))
    return out


def _any_size(rng: random.Random) -> int:
    return 10 if rng.random() < 0.6 else rng.randint(0, 15)


class InGame:
    """Hands met in real play (simple vs simple): every hand the engine asked the meld
    tables about, and every knock's showdown."""

    def __init__(self, n_hands: int, master: int, max_run_length: int | None = None) -> None:
        rules = Rules(max_run_length=max_run_length)
        # the engine's own tables: the views' copies are taken from them at each deal
        tables = _engine_tables(max_run_length)
        strategy = parse_spec("simple").build()
        seen_dw: dict[int, None] = {}
        seen_discard: dict[int, None] = {}
        orig_dw, orig_discard = tables.deadwood_mask, tables.best_discard_mask

        def deadwood_spy(h: int) -> int:
            seen_dw[h] = None
            return orig_dw(h)

        def discard_spy(h: int) -> tuple[int, int]:
            seen_discard[h] = None
            return orig_discard(h)

        tables.deadwood_mask = deadwood_spy
        tables.best_discard_mask = discard_spy
        try:
            self.results = [
                play_hand(rules, (strategy, strategy), deck_for(deal_seed(master, i)), i % 2, seeds=(2 * i, 2 * i + 1))
                for i in range(n_hands)
            ]
        finally:
            tables.deadwood_mask, tables.best_discard_mask = orig_dw, orig_discard
        assert tables.deadwood_mask is orig_dw and tables.best_discard_mask is orig_discard
        self.deadwood_hands = list(seen_dw)
        self.discard_hands = list(seen_discard)
        # the final 10-card hands, as both knocker and defender: lay-off cases from play
        self.layoff_cases: list[tuple[int, tuple[int, ...]]] = []
        for res in self.results:
            a, b = res.hands
            if a.bit_count() == 10 and b.bit_count() == 10:
                for kh, dh in ((a, b), (b, a)):
                    melds = tables.best_melds_mask(kh).melds
                    if melds:
                        self.layoff_cases.append((dh, melds))
        self.knocks = [r for r in self.results if r.outcome in ("knock", "undercut")]


# -- checks: each returns a description of what is wrong, or "" --------------------------


def _check_melds_shown(hand: int, melds: Sequence[int], deadwood: int, mrl: int | None, want: int) -> str:
    used = 0
    for m in melds:
        if not ref.is_meld(m, mrl):
            return f"best_melds gives {ref.names(m)}, not a meld"
        if m & ~hand:
            return f"best_melds gives {ref.names(m)}, not in the hand"
        if m & used:
            return f"best_melds gives {ref.names(m)}, overlapping another meld"
        used |= m
    left = ref.total_value(hand & ~used)
    if left != want or deadwood != want:
        return f"best_melds {[ref.names(m) for m in melds]} leave {left} (says {deadwood}), reference {want}"
    return ""


def check_deadwood(hand: int, mrl: int | None) -> str:
    tables = tables_for(mrl)
    want = ref.ref_deadwood(hand, mrl)
    got = tables.deadwood_mask(hand)
    if got != want:
        return f"deadwood_mask {got}, reference {want}"
    shown = tables.best_melds_mask(hand)
    problem = _check_melds_shown(hand, shown.melds, shown.deadwood, mrl, want)
    if problem:
        return problem
    checked = tables.check_melds(hand, shown.melds)
    if checked != want:
        return f"check_melds of the best melds gives {checked}, reference {want}"
    return ""


def check_discard(hand: int, mrl: int | None) -> str:
    want = ref.ref_best_discard(hand, mrl)
    got = tables_for(mrl).best_discard_mask(hand)
    if got != want:
        return f"best_discard_mask ({got[0]}, {ref.names(got[1])}), reference ({want[0]}, {ref.names(want[1])})"
    return ""


def check_layoff(defender: int, melds: Sequence[int], mrl: int | None, exhaustive: bool = True) -> str:
    """best_layoff against the reference; ``exhaustive`` picks the every-subset reference
    (else the per-meld one, the same answer sooner)."""
    tables = tables_for(mrl)
    find = ref.ref_best_layoff if exhaustive else ref.ref_best_layoff_fast
    want, _ = find(defender, melds, mrl)
    got, laid = best_layoff(defender, melds, tables)
    if got != want:
        return f"best_layoff deadwood {got} (laying off {ref.names(laid) or 'nothing'}), reference {want}"
    if laid & ~defender:
        return f"best_layoff lays off {ref.names(laid & ~defender)}, not in the defender's hand"
    if not ref.can_lay_off(laid, melds, mrl):
        return f"best_layoff lays off {ref.names(laid)}, which cannot all go on the melds"
    if not layoff_is_legal(laid, melds, tables):
        return f"layoff_is_legal refuses best_layoff's own choice {ref.names(laid)}"
    rest = ref.ref_deadwood(defender & ~laid, mrl)
    if rest != got or tables.deadwood_mask(defender & ~laid) != got:
        return f"best_layoff says {got} after laying off {ref.names(laid)}, but the rest has deadwood {rest}"
    return ""


def check_layoff_legality(defender: int, melds: Sequence[int], mrl: int | None, rng: random.Random) -> str:
    """layoff_is_legal against the reference on a few subsets of the candidate cards."""
    tables = tables_for(mrl)
    cand = ref.layoff_candidates(defender, melds)
    subsets = list(ref.submasks(cand))
    for laid in rng.sample(subsets, min(len(subsets), 6)):
        want = ref.can_lay_off(laid, melds, mrl)
        if layoff_is_legal(laid, melds, tables) != want:
            return f"layoff_is_legal({ref.names(laid)}) is {not want}, reference {want}"
    return ""


def _report(what: str, failures: list[tuple[int, str, str]]) -> str:
    failures.sort(key=lambda f: (f[0], f[1]))
    lines = [f"{len(failures)} {what} mismatches; smallest:"]
    lines += [f"  [{size} cards] {case}: {problem}" for size, case, problem in failures[:8]]
    return "\n".join(lines)


def run_hands(check: Callable[[int, int | None], str], hands: Iterable[int], mrl: int | None, what: str) -> int:
    failures = []
    n = 0
    for h in hands:
        n += 1
        problem = check(h, mrl)
        if problem:
            failures.append((h.bit_count(), f"{ref.names(h)!r} max_run_length={mrl}", problem))
    assert not failures, _report(what, failures)
    return n


# -- lay-off cases -----------------------------------------------------------------------


def _neighbours(melds: Sequence[int]) -> int:
    """Cards that could join the melds: up to three past each run end, the 4th of a group."""
    out = 0
    for m in melds:
        cs = ref.cards(m)
        if ref.is_group(m):
            out |= ref.mask_of(s * 13 + ref.rank(cs[0]) for s in range(4))
        else:
            s, lo, hi = ref.suit(cs[0]), ref.rank(cs[0]), ref.rank(cs[-1])
            out |= ref.mask_of(s * 13 + r for r in range(max(lo - 3, 0), min(hi + 3, 12) + 1))
    return out & ~ref.mask_of(c for m in melds for c in ref.cards(m))


def _random_meld_set(rng: random.Random, cards: int, mrl: int | None) -> tuple[int, ...]:
    """Some disjoint valid melds of ``cards`` picked at random (a knocker may show any
    valid arrangement, not only a best one)."""
    melds = ref.all_melds(cards, mrl)
    rng.shuffle(melds)
    chosen: list[int] = []
    used = 0
    for m in melds:
        if not m & used and rng.random() < 0.7:
            chosen.append(m)
            used |= m
    return tuple(chosen)


def layoff_cases(rng: random.Random, count: int, mrl: int | None) -> list[tuple[int, tuple[int, ...]]]:
    """(defender, knocker melds): knocker melds from a 10-card hand's best melds (or a
    random valid arrangement), the defender disjoint and often holding cards next to them."""
    tables = tables_for(mrl)
    out = []
    while len(out) < count:
        i = len(out)
        knocker = random_hand(rng) if i % 4 == 0 else rich_hand(rng)
        melds = _random_meld_set(rng, knocker, mrl) if i % 5 == 4 else tables.best_melds_mask(knocker).melds
        if not melds:
            continue
        if i % 3 == 0:
            defender = random_hand(rng, 10, avoid=knocker)
        else:
            near = _neighbours(melds) & ~knocker
            core = rng.sample(ref.cards(near), min(near.bit_count(), rng.randint(2, 7)))
            defender = _fill(rng, core, 10, knocker, _ranks_near(0, 12) & ~knocker)
        out.append((defender, melds))
    return out


def run_layoffs(
    cases: Iterable[tuple[int, Sequence[int]]], mrl: int | None, rng: random.Random, exhaustive: bool = True
) -> int:
    failures = []
    n = 0
    for defender, melds in cases:
        n += 1
        problem = check_layoff(defender, melds, mrl, exhaustive) or check_layoff_legality(defender, melds, mrl, rng)
        if problem:
            case = f"defender {ref.names(defender)!r} on {[ref.names(m) for m in melds]} max_run_length={mrl}"
            failures.append((defender.bit_count() + sum(m.bit_count() for m in melds), case, problem))
    assert not failures, _report("lay-off", failures)
    return n


# -- the reference checks itself ---------------------------------------------------------


@pytest.mark.parametrize("mrl", RUN_LIMITS)
def test_r04_r05_reference_all_melds_is_every_meld_subset(mrl: int | None) -> None:
    rng = random.Random(405)
    for _ in range(150):
        hand = rich_hand(rng, rng.randint(6, 11))
        assert sorted(ref.all_melds(hand, mrl)) == sorted(ref.all_melds_by_subsets(hand, mrl)), ref.names(hand)


def test_r04_r05_reference_meld_rules() -> None:
    p = ref.parse
    assert ref.is_meld(p("7C 7D 7H")) and ref.is_meld(p("7C 7D 7H 7S"))
    assert not ref.is_meld(p("7C 7D")) and not ref.is_meld(p("7C 7D 8D"))
    assert ref.is_meld(p("AS 2S 3S")) and ref.is_meld(p("JS QS KS")) and ref.is_meld(p("TS JS QS KS"))
    assert not ref.is_meld(p("QS KS AS"))  # R01: ace low only, no wrap
    assert not ref.is_meld(p("KS AS 2S"))
    assert not ref.is_meld(p("5S 6S 8S")) and not ref.is_meld(p("5S 6S 7H"))
    assert ref.is_meld(p("2H 3H 4H 5H 6H"), 5) and not ref.is_meld(p("2H 3H 4H 5H 6H"), 4)
    assert len(ref.all_melds(p("4C 4D 4H 4S"))) == 5
    assert ref.ref_deadwood(p("7H 8H 9H KS")) == 10
    assert ref.ref_deadwood(p("QS KS AS")) == 21
    # both runs through the four 4s, the other two 4s left over
    assert ref.ref_deadwood(p("4C 4D 4H 4S 5H 6H 5S 6S")) == 8


def test_r17_reference_layoff_rules() -> None:
    p = ref.parse
    run = p("6S 7S 8S")
    assert ref.can_lay_off(p("9S TS"), [run]) and ref.can_lay_off(p("4S 5S 9S"), [run])
    assert not ref.can_lay_off(p("TS"), [run])  # the 9S link is missing
    assert not ref.can_lay_off(p("9S TS"), [run], 4) and ref.can_lay_off(p("9S TS"), [run], 5)
    assert ref.can_lay_off(p("7D"), [p("7C 7H 7S")])
    assert not ref.can_lay_off(p("7D"), [p("6C 6D 6H")])
    two = [p("3H 4H 5H"), p("7H 8H 9H")]
    assert ref.can_lay_off(p("2H 6H TH JH"), two)
    assert not ref.can_lay_off(p("2H 6H TH"), two, 4)
    assert ref.ref_best_layoff(p("2H 6H TH JH"), two, 4)[0] == 12
    for defender, melds, mrl in [(p("2H 6H TH JH KC"), two, None), (p("8D 9D 8C 8H 8S"), [p("5D 6D 7D")], None)]:
        assert ref.ref_best_layoff(defender, melds, mrl) == ref.ref_best_layoff_fast(defender, melds, mrl)


# -- R04-R07 against the engine ----------------------------------------------------------


def test_r07_deadwood_matches_reference() -> None:
    rng = random.Random(7001)
    n = run_hands(check_deadwood, mixed_hands(rng, 6000, _any_size), None, "deadwood")
    assert n == 6000


@pytest.mark.parametrize("mrl", (3, 4, 5))
def test_r05_r07_deadwood_with_max_run_length_matches_reference(mrl: int) -> None:
    rng = random.Random(7100 + mrl)
    run_hands(check_deadwood, mixed_hands(rng, 1500, _any_size), mrl, "deadwood")


def test_r07_best_discard_matches_reference() -> None:
    rng = random.Random(7002)
    run_hands(check_discard, mixed_hands(rng, 4000, 11), None, "best discard")


@pytest.mark.parametrize("mrl", (3, 4, 5))
def test_r05_r07_best_discard_with_max_run_length_matches_reference(mrl: int) -> None:
    rng = random.Random(7200 + mrl)
    run_hands(check_discard, mixed_hands(rng, 1000, 11), mrl, "best discard")


def test_r07_hand_built_cases() -> None:
    cases = {
        "7H 8H 9H KS": 10,
        "QS KS AS": 21,  # R01: no wrap
        "AS 2S 3S": 0,
        "4C 4D 4H 4S 5H 6H 5S 6S": 8,  # both runs through the 4s, 4C 4D over
        "4C 4D 4H 4S 5S 6S 7S": 0,  # 4C 4D 4H and 4S 5S 6S 7S
        "3S 4S 5S 6S 7S 5C 5D": 10,  # the run beats the group of 5s (3S 4S 6S 7S over: 20)
        "3S 4S 5S 6S 7S 5C 5D 5H": 0,  # 5C 5D 5H and the run
        "9C TC JC QC KC TD TH": 9,  # TC TD TH and JC QC KC beat the long run (TD TH over: 20)
        "": 0,
    }
    for text, want in cases.items():
        h = ref.parse(text)
        assert ref.ref_deadwood(h) == want, text
        assert check_deadwood(h, None) == "", text
    # max_run_length: 3S..7S is one run of 5; with limit 4, 4S..7S (3S over); with 3, 5S 6S 7S
    h = ref.parse("3S 4S 5S 6S 7S")
    assert [ref.ref_deadwood(h, m) for m in RUN_LIMITS] == [0, 7, 3, 0]
    for m in RUN_LIMITS:
        assert check_deadwood(h, m) == ""


def test_r07_public_wrappers_accept_text_lists_and_masks() -> None:
    text = "7H 8H 9H KS"
    mask = ref.parse(text)
    ints = ref.cards(mask)
    for form in (text, "7h, 8h, 9h, ks", ["7H", "8H", "9H", "KS"], ints, mask, ["7H", 33, "9H", "KS"]):
        assert ginsim.deadwood(form) == 10, form
        shown = ginsim.best_melds(form)
        assert shown.deadwood == 10 and set(shown.melds) == {ref.parse("7H 8H 9H")}, form
    assert ginsim.deadwood("10H 9H 8H") == 0
    eleven = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS KD"
    assert ginsim.best_discards_mask(eleven) == ref.ref_best_discard(ref.parse(eleven))
    assert ginsim.best_discards_mask(eleven)[1] == ref.parse("KD")
    assert ginsim.best_discards(eleven) == (0, ["KD"])  # the plain name answers with card names
    rng = random.Random(7003)
    for _ in range(200):
        h = rich_hand(rng, 11)
        text_form = ref.names(h)
        for mrl in RUN_LIMITS:
            assert ginsim.best_discards_mask(text_form, mrl) == ref.ref_best_discard(h, mrl)
            assert ginsim.deadwood(ref.cards(h), mrl) == ref.ref_deadwood(h, mrl)
            assert ginsim.best_melds(h, mrl).deadwood == ref.ref_deadwood(h, mrl)


@pytest.mark.parametrize("mrl", RUN_LIMITS)
def test_r07_in_game_hands_match_reference(mrl: int | None) -> None:
    game = InGame(120 if mrl is None else 40, 9100 + (mrl or 0), mrl)
    assert len(game.discard_hands) > 300 and len(game.deadwood_hands) > 50  # lay-offs ask the kernel itself
    run_hands(check_deadwood, game.deadwood_hands + game.discard_hands, mrl, "in-game deadwood")
    run_hands(check_discard, game.discard_hands, mrl, "in-game best discard")


# -- R17 against the engine --------------------------------------------------------------


@pytest.mark.parametrize("part", (0, 1))
def test_r17_layoff_matches_reference(part: int) -> None:
    rng = random.Random(1701 + 100 * part)
    run_layoffs(layoff_cases(rng, 1500, None), None, rng)


@pytest.mark.parametrize("mrl", (3, 4, 5))
def test_r17_layoff_with_max_run_length_matches_reference(mrl: int) -> None:
    rng = random.Random(1710 + mrl)
    run_layoffs(layoff_cases(rng, 800, mrl), mrl, rng)


@pytest.mark.parametrize("mrl", RUN_LIMITS)
def test_r17_in_game_layoffs_match_reference(mrl: int | None) -> None:
    game = InGame(200 if mrl is None else 60, 9200 + (mrl or 0), mrl)
    rng = random.Random(1720 + (mrl or 0))
    run_layoffs(game.layoff_cases, mrl, rng)
    # the showdowns the engine actually scored
    assert game.knocks
    for res in game.knocks:
        defender = res.hands[1 - res.knocker]
        want, _ = ref.ref_best_layoff(defender, res.knocker_melds, mrl)
        assert res.defender_deadwood_after == want, ref.names(defender)
        assert res.defender_deadwood_before == ref.ref_deadwood(defender, mrl)
        assert res.knocker_deadwood == ref.ref_deadwood(res.hands[res.knocker], mrl)
        assert ref.can_lay_off(res.layoff, res.knocker_melds, mrl)
        assert res.layoff_cards == res.layoff.bit_count()


@pytest.mark.parametrize("mrl", RUN_LIMITS)
def test_r17_reference_layoff_variants_agree(mrl: int | None) -> None:
    """The every-subset reference and the per-meld one (used in part of the slow run)
    give the same deadwood and the same best lay-offs."""
    rng = random.Random(1730 + (mrl or 0))
    for defender, melds in layoff_cases(rng, 150, mrl):
        assert ref.ref_best_layoff(defender, melds, mrl) == ref.ref_best_layoff_fast(defender, melds, mrl)
        assert {
            laid for laid in ref.submasks(ref.layoff_candidates(defender, melds)) if ref.can_lay_off(laid, melds, mrl)
        } == ref.layable_sets(defender, melds, mrl)


P = ref.parse
HAND_BUILT_LAYOFFS = [
    # (defender, knocker melds, max_run_length, deadwood after, the only best lay-off or None)
    ("4S 5S 9S TS KC", ["6S 7S 8S"], None, 10, "4S 5S 9S TS"),  # chains on both ends
    ("TS JS KC", ["6S 7S 8S"], None, 30, ""),  # no 9S: the chain cannot start
    ("9S 5S", ["6S 7S 8S"], 3, 14, ""),
    ("9S 5S", ["6S 7S 8S"], 4, 5, "9S"),
    ("9S 5S", ["6S 7S 8S"], 5, 0, "5S 9S"),
    ("7S 2C 3D", ["7C 7D 7H"], None, 5, "7S"),  # a 4th card on a group of three
    ("7S 2C 3D", ["7C 7D 7H", "8S 9S TS"], None, 5, "7S"),  # 7S fits the group or the run
    ("6S 2C", ["7C 7D 7H 7S"], None, 8, ""),  # nothing goes on a group of four
    ("6H KC", ["3H 4H 5H", "7H 8H 9H"], None, 10, "6H"),  # 6H fits either run
    ("2H 6H TH JH", ["3H 4H 5H", "7H 8H 9H"], None, 0, "2H 6H TH JH"),
    ("2H 6H TH JH", ["3H 4H 5H", "7H 8H 9H"], 4, 12, "6H TH"),
    ("2H 6H TH JH", ["3H 4H 5H", "7H 8H 9H"], 5, 0, "2H 6H TH JH"),
    ("2H 6H TH JH", ["3H 4H 5H", "7H 8H 9H"], 3, 28, ""),
    ("8D 9D 8C 8H 8S", ["5D 6D 7D"], None, 0, "8D 9D"),  # own group of 8s plus lay-offs
    ("AS TS", ["JS QS KS"], None, 1, "TS"),  # no wrap past the king
    ("KS 4S", ["AS 2S 3S"], None, 10, "4S"),  # nor below the ace
    ("6C 6D 6H", ["3H 4H 5H"], None, 0, ""),  # keep the group rather than lay 6H off
]


@pytest.mark.parametrize(("defender", "melds", "mrl", "after", "laid"), HAND_BUILT_LAYOFFS)
def test_r17_hand_built_layoffs(defender: str, melds: list[str], mrl: int | None, after: int, laid: str | None) -> None:
    d = P(defender)
    kmelds = tuple(P(m) for m in melds)
    want, best_sets = ref.ref_best_layoff(d, kmelds, mrl)
    assert want == after
    if laid is not None:
        assert best_sets == {P(laid)}
    assert check_layoff(d, kmelds, mrl) == ""
    got, got_laid = best_layoff(d, kmelds, tables_for(mrl))
    assert got == after
    if laid is not None:
        assert got_laid == P(laid)


# -- the big run -------------------------------------------------------------------------


def _slow_selected(config: pytest.Config) -> bool:
    """Whether the long run was asked for: ``-m slow``, ``--runslow`` (if some conftest
    defines it) or GINSIM_SLOW=1. A plain ``pytest`` run skips it."""
    expr = config.getoption("markexpr", "") or ""
    return (
        ("slow" in expr and "not slow" not in expr)
        or bool(config.getoption("runslow", False))
        or os.environ.get("GINSIM_SLOW") == "1"
    )


@pytest.mark.slow
def test_slow_r07_r17_reference_many_hands(request: pytest.FixtureRequest) -> None:
    """At least 100,000 hands: random, meld-rich and in-game; deadwood, best discard and
    lay-offs; every run limit. Runs with ``pytest -m slow`` (or GINSIM_SLOW=1)."""
    if not _slow_selected(request.config):
        pytest.skip("long: run with -m slow")
    rng = random.Random(100_000)
    total = 0
    for mrl in RUN_LIMITS:
        share = 2 if mrl is None else 1
        total += run_hands(check_deadwood, mixed_hands(rng, 9000 * share, _any_size), mrl, "deadwood")
        total += run_hands(check_discard, mixed_hands(rng, 6000 * share, 11), mrl, "best discard")
        total += run_layoffs(layoff_cases(rng, 4000 * share, mrl), mrl, rng, exhaustive=mrl is None)
        game = InGame(600 * share, 99_000 + (mrl or 0), mrl)
        total += run_hands(check_deadwood, game.deadwood_hands + game.discard_hands, mrl, "in-game deadwood")
        total += run_hands(check_discard, game.discard_hands, mrl, "in-game best discard")
        total += run_layoffs(game.layoff_cases, mrl, rng)
    request.node.user_properties.append(("hands_checked", total))
    print(f"checked {total} hands against the reference")
    assert total >= 100_000, total
