"""Re-playing any hand of a run (``ginsim replay``).

A logged hand is rebuilt from the run's
manifest with the very derivations of ``ginsim.run.worker`` (deck, dealer, seats, random
streams), played again with ``play_hand(..., log=[])``, and checked against its row of
the hand log: a replay that differs is an error, never a silent story.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ginsim.engine.cards import Card, Mask
from ginsim.engine.game import MAX_HANDS_PER_GAME, Game, run_game
from ginsim.engine.guard import DEFAULT_DECISION_LIMIT, UNSET_LIMIT_NAMES, checking
from ginsim.engine.melds import tables_for
from ginsim.engine.playhand import BIG_GIN, GIN, KNOCK_WON, UNDERCUT, HandResult, play_hand
from ginsim.engine.registry import StrategySpec, parse_spec
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import DECISIONS, Strategy, bound_entry, overrides
from ginsim.engine.view import Event, PlayerView
from ginsim.errors import GinsimError, RunError
from ginsim.run.codedigest import code_changes, digest_specs
from ginsim.run.hardlimit import forcing
from ginsim.run.plan import PER_PAIRING
from ginsim.run.seeding import (
    deal_seed,
    decks_for,
    game_deal_seed,
    mix_secret,
    pairing_secret,
    strategy_seed,
    text_key,
)
from ginsim.run.worker import first_dealer, seats_for
from ginsim.runfolder.integrity import chunk_span
from ginsim.runfolder.records import RESULT_COLUMNS, PairingRecord
from ginsim.runfolder.secret import run_secret
from ginsim.terminal.runlog import RunLog
from ginsim.terminal.textview import Style, event_text, hand_lines, result_lines

CHECKED = RESULT_COLUMNS
# fmt: on
"""The fields of a replayed HandResult that must equal the hand log's row."""


@dataclass
class Decision:
    """One decision of the watched seat: the method, its view then, and its answer."""

    method: str
    seen: dict[str, Any]
    answer: object = None


@dataclass
class Recorder:
    active: bool = False
    decisions: list[Decision] = field(default_factory=list)


def recording(inner: Strategy, rec: Recorder) -> Strategy:
    """A stand-in for ``inner`` that records ``view.snapshot()`` at each decision. It
    overrides exactly the optional hooks ``inner`` overrides, so the engine treats both
    alike and the hand plays out the same."""

    def decision(name: str) -> Any:
        def method(_self: Strategy, view: PlayerView) -> object:
            d = Decision(name, view.snapshot())
            if rec.active:
                rec.decisions.append(d)
            try:
                d.answer = bound_entry(inner, name)(view)
            except Exception as e:
                d.answer = f"raised {type(e).__name__}: {e}"
                raise
            return d.answer

        return method

    cls = type(inner)
    ns: dict[str, Any] = {"name": inner.name, "description": inner.description}
    for name in (*DECISIONS, "take_big_gin", "choose_melds", "choose_layoffs"):
        if name in (*DECISIONS, "take_big_gin") or overrides(cls, name):
            ns[name] = decision(name)
    if overrides(cls, "observe"):
        ns["observe"] = lambda _self, view, event: bound_entry(inner, "observe")(view, event)
    return type(f"Recording{cls.__name__}", (Strategy,), ns)()  # type: ignore[no-any-return]


@dataclass
class Replay:
    """A hand of a run, played again."""

    index: int
    row: dict[str, Any]
    where: str  # pairing, deal or game, copy
    names: tuple[str, str]  # "seat 0 (simple)"
    rules: Rules
    deck: list[Card]
    dealer: int
    scores: tuple[int, int]
    result: HandResult
    log: list[Event]
    decisions: list[Decision]


def _seeds(deal: int, key: int, copy: int) -> tuple[int, int]:
    return strategy_seed(deal, key, copy, 0), strategy_seed(deal, key, copy, 1)


def _deck(seed: int) -> list[Card]:
    return decks_for([seed]).tolist()[0]  # type: ignore[no-any-return]


def replay_hand(
    run: RunLog, n: int, seat: int | None = None, wrap: Callable[[Strategy, int, Recorder], Strategy] | None = None
) -> Replay:
    """Rebuild row ``n`` of the log as ``ginsim.run.worker`` played it, play it again and
    check it; RunError if it cannot be rebuilt or does not match the log. ``seat``: record
    that seat's decisions (``Replay.decisions``); ``wrap(strategy, seat, recorder)`` stands
    in for each seat's strategy, ``recorder.active`` saying whether the hand being played
    is row ``n`` (a game's earlier hands are played first)."""
    row = run.row(n)
    m = run.manifest
    folder = run.folder
    rules, pairing, spec_a, spec_b = _rebuilt_pairing(run, row["pairing"])
    seed = int(m.seed)
    mode = "hands" if m.hands is not None else "games"
    key = text_key("pairing", pairing.a, pairing.b)
    secret = _decks_secret(run, key)
    copy, unit = row["copy"], row["deal"]
    kept = [label in m.identity.get("keep", []) for label in (pairing.label_a, pairing.label_b)]
    a, b = spec_a.build(), spec_b.build()
    ended = run.hard_limits(n)  # calls whose process was ended: timed out again, unasked
    if any(kept):  # lifetime "match": the chunk's earlier hands first, with the same instances
        a, b = _warm_up(m, rules, (spec_a, spec_b), (a, b), kept, key, copy, unit, secret, ended)
    strategies, seat_a = seats_for(copy, a, b)
    labels = (pairing.label_a, pairing.label_b)[:: 1 if seat_a == 0 else -1]
    names = (f"seat 0 ({labels[0]})", f"seat 1 ({labels[1]})")
    rec = Recorder()
    strategies = _watched(strategies, seat, wrap, rec)
    problems = [] if row["seat_a"] == seat_a else [f"seat_a {row['seat_a']} in the log, {seat_a} replayed"]
    log: list[Event] = []
    vs = f"pairing {row['pairing']} ({pairing.label_a} vs {pairing.label_b})"
    swapped = " (seats swapped)" if copy else ""
    if any(kept):
        for inst, keep in zip((a, b), kept, strict=True):
            if keep:
                inst.new_hand(unit) if mode == "hands" else inst.new_game(unit)
    if mode == "hands":
        where = f"{vs}, deal {unit}, copy {copy}{swapped}"
        ds = deal_seed(seed, unit)
        ds = mix_secret(ds, secret) if secret else ds
        deck, dealer, scores = _deck(ds), first_dealer(unit), (0, 0)
        rec.active = True
        with forcing(*ended.get((unit, copy, 0), (None, 0.0))):
            result = play_hand(rules, strategies, deck, dealer, scores, _seeds(ds, key, copy), log=log)
    else:
        h = row["game_hand"]
        where = f"{vs}, game {unit}, copy {copy}{swapped}, hand {h + 1} of the game"  # 1-based for people
        game = Game(rules, first_dealer(unit))
        for i in range(h + 1):  # the game's earlier hands, with the same strategy instances
            ds = game_deal_seed(seed, unit, i)
            ds = mix_secret(ds, secret) if secret else ds
            deck = _deck(ds)
            dealer = game.dealer
            rec.active = i == h
            for inst, keep in zip((a, b), kept, strict=True):
                if keep:
                    inst.new_hand(i)
            with forcing(*ended.get((unit, copy, i), (None, 0.0))):
                result = play_hand(
                    rules,
                    strategies,
                    deck,
                    dealer,
                    game.score_pair(),
                    _seeds(ds, key, copy),
                    log=log if i == h else None,
                )
            if i == h:
                break
            game.record(result)
            if game.over:
                raise RunError(f"{folder}: hand {n} does not replay as logged: game {unit} ends at its hand {i}")
        scores = game.score_pair()
        if scores != (row["score_0"], row["score_1"]):
            logged = f"{row['score_0']}-{row['score_1']}"
            problems.append(f"scores before the hand {logged} in the log, {scores[0]}-{scores[1]} replayed")
    for name in CHECKED:
        if row[name] != getattr(result, name):
            problems.append(f"{name} {row[name]} in the log, {getattr(result, name)} replayed")
    if problems:
        clock = " (the run used a clock: its results depend on the machine's speed)" if rules.time_per_hand else ""
        raise RunError(f"{folder}: hand {n} does not replay as logged: {'; '.join(problems)}{clock}")
    return Replay(n, row, where, names, rules, deck, dealer, scores, result, log, rec.decisions)


def _decks_secret(run: RunLog, key: int) -> bytes:
    """The secret a tournament run (``--isolate``) mixed into its decks, that of pairing
    ``key`` where each pairing had decks of its own; empty for any other run."""
    m = run.manifest
    secret = run_secret(run.folder) if m.isolate else b""
    if secret and m.identity.get("extra", {}).get("decks") == PER_PAIRING:
        secret = pairing_secret(secret, key)
    return secret


def _watched(
    strategies: tuple[Strategy, Strategy],
    seat: int | None,
    wrap: Callable[[Strategy, int, Recorder], Strategy] | None,
    rec: Recorder,
) -> tuple[Strategy, Strategy]:
    """The seats' strategies with ``seat``'s decisions recorded into ``rec`` and each
    wrapped by ``wrap``, as ``replay_hand`` was asked."""
    if seat is not None:
        seated = list(strategies)
        seated[seat] = recording(seated[seat], rec)
        strategies = (seated[0], seated[1])
    if wrap is not None:
        strategies = (wrap(strategies[0], 0, rec), wrap(strategies[1], 1, rec))
    return strategies


def _rebuilt_pairing(run: RunLog, index: int) -> tuple[Rules, PairingRecord, StrategySpec, StrategySpec]:
    """The rules and pairing ``index`` of a run, its two strategies parsed again (bounded as
    before a run); RunError when the manifest cannot rebuild them or the strategies' code
    changed since the run was played."""
    m = run.manifest
    folder = run.folder
    try:
        rules = Rules().with_values(dict(m.rules), f"{folder}/manifest.json")
        pairing = next(p for p in m.pairings if p.index == index)
        with checking(DEFAULT_DECISION_LIMIT):  # bounded as before a run (the main thread only)
            spec_a, spec_b = parse_spec(pairing.a), parse_spec(pairing.b)
    except GinsimError as e:
        hint = ""
        if "no file" in str(e):  # a relative path.py:Class is read from the current folder
            hint = f"; run replay from {m.cwd or 'the folder the run was started in'}, where that file is"
        raise RunError(f"{folder}: cannot rebuild the run ({e.message(UNSET_LIMIT_NAMES)}{hint})") from None
    except (KeyError, TypeError, ValueError, StopIteration) as e:
        raise RunError(f"{folder}/manifest.json: cannot rebuild the run from it ({type(e).__name__}: {e})") from None
    changed = code_changes(m, digest_specs([(pairing.label_a, spec_a), (pairing.label_b, spec_b)]))
    if changed:
        raise RunError(
            f"{folder}: the code of {changed} changed since the run was played, so its hands cannot be replayed "
            "as logged; replay with the code the run was played with, or play the run again into another --out"
        )
    return rules, pairing, spec_a, spec_b


def _warm_up(
    m: Any,
    rules: Rules,
    specs: tuple[Any, Any],
    pair: tuple[Strategy, Strategy],
    kept: list[bool],
    key: int,
    copy: int,
    unit: int,
    secret: bytes,
    ended: dict[tuple[int, int, int], tuple[int, float]],
) -> tuple[Strategy, Strategy]:
    """Play the hands (games) of ``unit``'s chunk before it, in order, as the worker did:
    the kept instances of ``pair`` play them all and are told of each; the other side gets
    a fresh instance each time. Returns the pair, ready for ``unit``."""
    start = 0
    ci = 0
    while True:  # the chunk that holds unit
        first, stop = chunk_span(m.units, m.chunk, m.bounds, ci)
        if first <= unit < stop:
            start = first
            break
        ci += 1
    a, b = pair
    seed = int(m.seed)
    for u in range(start, unit):
        sa, sb = (a if kept[0] else specs[0].build()), (b if kept[1] else specs[1].build())
        seats, _ = seats_for(copy, sa, sb)
        if m.hands is not None:
            for inst, keep in zip((sa, sb), kept, strict=True):
                if keep:
                    inst.new_hand(u)
            ds = deal_seed(seed, u)
            ds = mix_secret(ds, secret) if secret else ds
            with forcing(*ended.get((u, copy, 0), (None, 0.0))):
                play_hand(rules, seats, _deck(ds), first_dealer(u), (0, 0), _seeds(ds, key, copy))
            continue
        for inst, keep in zip((sa, sb), kept, strict=True):
            if keep:
                inst.new_game(u)

        def one(
            h: int, dealer: int, scores: tuple[int, int], u: int = u, seats: Any = seats, pair: Any = (sa, sb)
        ) -> Any:
            for inst, keep in zip(pair, kept, strict=True):
                if keep:
                    inst.new_hand(h)
            ds = game_deal_seed(seed, u, h)
            ds = mix_secret(ds, secret) if secret else ds
            with forcing(*ended.get((u, copy, h), (None, 0.0))):
                return play_hand(rules, seats, _deck(ds), dealer, scores, _seeds(ds, key, copy))

        run_game(rules, first_dealer(u), one, MAX_HANDS_PER_GAME)
    return a, b


def _dealt(deck: Sequence[Card], dealer: int) -> list[Mask]:
    """Both hands as dealt (R08: alternately from the non-dealer)."""
    hands = [0, 0]
    for i in range(20):
        hands[(1 - dealer) if i % 2 == 0 else dealer] |= 1 << deck[i]
    return hands


def _header(r: Replay, folder: Path) -> list[str]:
    # the scores with the names they belong to (seat order), never a bare "19-61" to misread
    scores = f"; scores before it: {r.names[0]} {r.scores[0]}, {r.names[1]} {r.scores[1]}" if "game" in r.where else ""
    return [
        f"Hand {r.index} of {folder}: {r.where}{scores}.",
        f"{r.names[0]} and {r.names[1]}; {r.names[r.dealer]} deals; {r.rules.describe()}.",
    ]


@dataclass
class Move:
    """One event of a replayed hand as the replay tells it: the turn label (``turn 3`` on
    the turn's first event), the sentence, and both hands and the pile after it."""

    label: str
    text: str
    event: Event
    hands: tuple[Mask, Mask]
    pile: tuple[Card, ...]
    stock: int


def replay_moves(r: Replay, style: Style) -> list[Move]:
    """Every event of the hand in order, with the table after it: the one source of the
    text replay and the HTML page."""
    tables = tables_for(r.rules.max_run_length)
    hands = _dealt(r.deck, r.dealer)
    pile, stock = [r.deck[20]], 31
    out: list[Move] = []
    turn = 1
    for i, ev in enumerate(r.log):
        s, action, card = ev
        text = event_text(style, ev, r.names)
        if card is not None and action in ("take", "draw"):
            hands[s] |= 1 << card
            if action == "take":
                pile.pop()
            else:
                stock -= 1
        elif card is not None and action == "discard":
            hands[s] &= ~(1 << card)
            pile.append(card)
            text += f"  (deadwood {tables.deadwood_mask(hands[s])})"
        elif action == "knock" and r.result.outcome == GIN:
            text = f"{r.names[s]} knocks: gin"
        label = f"turn {turn}" if i == 0 or _turn_starts(r.log, i) else ""
        out.append(Move(label, text, ev, (hands[0], hands[1]), tuple(pile), stock))
        if action == "discard" and (i + 1 == len(r.log) or r.log[i + 1][1] != "knock"):
            turn += 1
    return out


def dealt_hands(r: Replay) -> tuple[Mask, Mask]:
    """Both hands of a replayed hand as dealt."""
    hands = _dealt(r.deck, r.dealer)
    return hands[0], hands[1]


def header_lines(r: Replay, folder: Path) -> list[str]:
    """The replay's first lines: which hand of which run, who plays, the rules."""
    return _header(r, folder)


def replay_text(r: Replay, folder: Path, style: Style) -> list[str]:
    """The whole hand move by move: the deal, each draw and discard, the end, the check."""
    tables = tables_for(r.rules.max_run_length)
    hands = _dealt(r.deck, r.dealer)
    width = max(len(n) for n in r.names)
    out = [*_header(r, folder), "", "Deal:"]
    for s in (1 - r.dealer, r.dealer):
        hand, melds = hand_lines(style, hands[s], tables)
        out += [f"  {r.names[s]:<{width}}  {hand}", f"  {'':<{width}}  {melds}"]
    out += [f"  upcard {style.card(r.deck[20])}, stock 31 cards", "", "Play:"]
    out += [f"  {m.label:<8}  {m.text}" for m in replay_moves(r, style)]
    out += ["", "End:", *("  " + line for line in result_lines(style, r.result, r.names, r.rules))]
    out.append(f"Checked against the log ({', '.join(CHECKED)}): all match.")
    return out


def _turn_starts(log: Sequence[Event], i: int) -> bool:
    prev = log[i - 1][1]
    return prev == "discard" and log[i][1] != "knock"


def _answer(d: Decision, style: Style) -> str:
    a, seen = d.answer, d.seen
    if isinstance(a, str):
        return a
    if d.method == "take_upcard" and isinstance(a, bool):
        if a:
            return f"take {style.card(seen['upcard'])}"
        return "pass" if seen["phase"] == "offer" else "draw from the stock"
    if d.method == "discard" and isinstance(a, int) and 0 <= a < 52:
        return f"discard {style.card(a)}"
    if d.method == "knock" and isinstance(a, bool):
        if a:
            return f"knock (discarding {style.card(seen['discard_choice'])}, deadwood {seen['discard_deadwood']})"
        return f"do not knock (discarding {style.card(seen['discard_choice'])})"
    if d.method == "take_big_gin" and isinstance(a, bool):
        return "big gin" if a else "no big gin"
    if d.method == "choose_layoffs":
        return "lay off optimally" if a is None else f"lay off {style.cards(a) if isinstance(a, int) else a!r}"
    if d.method == "choose_melds":
        return "show the best melds" if a is None else f"show {style.melds(a) if isinstance(a, list | tuple) else a!r}"
    return repr(a)


def seat_text(r: Replay, seat: int, folder: Path, style: Style) -> list[str]:
    """Only what ``seat`` saw: its view at each of its decisions, and the public end."""
    tables = tables_for(r.rules.max_run_length)
    seen_log = [(s, a, None if a == "draw" and s != seat else c) for s, a, c in r.log]
    out = [*_header(r, folder), f"What {r.names[seat]} saw at each of its decisions (its PlayerView):"]
    done = 0
    for d in r.decisions:
        v = d.seen
        out.append(f"\nturn {v['turn']}: {d.method} ({v['phase']})")
        for ev in v["history"][done:]:
            out.append(f"  event     {event_text(style, ev, r.names)}")
        done = len(v["history"])
        hand, melds = hand_lines(style, v["hand"], tables)
        up = style.card(v["upcard"]) if v["upcard"] is not None else "none"
        own, opp = v["scores"]
        out += [
            f"  hand      {hand}",
            f"            {melds}",
            f"  table     upcard {up} | pile {len(v['discard_pile'])} | stock {v['stock_size']} | "
            f"scores {own}-{opp} (own-opponent) | dealer seat {v['dealer']}",
            f"  opponent  holds {style.cards(v['opp_known'])} | passed on {style.cards(v['opp_passed'])} | "
            f"discarded {style.cards(v['opp_discards'])}",
        ]
        if v["knocker_melds"]:
            out.append(f"  knocker   {style.melds(v['knocker_melds'])}")
        out.append(f"  answer    {_answer(d, style)}")
    if not r.decisions:
        out.append(f"\n{r.names[seat]} had no decision to make in this hand.")
    rest = seen_log[done:]
    if rest:
        out.append("\nthen:")
        out += [f"  event     {event_text(style, ev, r.names)}" for ev in rest]
    public = r.result.outcome in (KNOCK_WON, UNDERCUT, GIN, BIG_GIN)  # both hands are shown at a knock
    out += ["", "End:", *("  " + line for line in result_lines(style, r.result, r.names, r.rules, public))]
    return out
