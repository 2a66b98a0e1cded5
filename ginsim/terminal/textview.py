"""Telling a hand in the terminal: cards coloured by suit, hands with their melds marked,
public events and the end of a hand. Shared by ``ginsim play`` and ``ginsim replay``."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ginsim.engine.cards import CARD_NAMES, SUIT_MASK, SUIT_OF, Card, Mask, cards_of, mask_value, sort_key
from ginsim.engine.kernel.scoring import score
from ginsim.engine.melds import MeldTables, tables_for
from ginsim.engine.playhand import BIG_GIN, DRAWN, FORFEIT, GIN, KNOCK_WON, UNDERCUT, HandResult
from ginsim.engine.rules import Rules, rule_facts
from ginsim.engine.view import Event

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_SUIT_COLORS = ("green", "blue", "red", None)  # clubs, diamonds, hearts; spades in the terminal's colour
_IRREGULAR = {"go": "goes", "pass": "passes", "have": "has", "undercut": "undercuts"}


class Style:
    """Card text, coloured by suit when writing to a terminal, plain otherwise."""

    def __init__(self, color: bool = False) -> None:
        self.color = color

    def card(self, c: Card, mark: bool = False) -> str:
        text = CARD_NAMES[c] + ("*" if mark else "")
        if not self.color:
            return text
        import click

        return click.style(text, fg=_SUIT_COLORS[SUIT_OF[c]], bold=mark)

    def cards(self, mask: Mask) -> str:
        """Cards sorted by suit then rank; ``none`` for no card."""
        return " ".join(self.card(c) for c in sorted(cards_of(mask), key=sort_key)) or "none"

    def melds(self, melds: Sequence[Mask]) -> str:
        return " ".join(f"[{self.cards(m)}]" for m in melds) or "none"

    def hand(self, hand: Mask, melds: Sequence[Mask]) -> str:
        """The hand by suit and rank, suits apart, the cards of ``melds`` marked ``*``."""
        melded = union(melds)
        parts = [" ".join(self.card(c, bool(melded >> c & 1)) for c in cards_of(hand & SUIT_MASK[s])) for s in range(4)]
        return "  ".join(p for p in parts if p)


def visible_len(text: str) -> int:
    """Columns a text takes on the terminal: its length without colour codes."""
    return len(_ANSI.sub("", text))


def wrap_line(line: str, width: int) -> list[str]:
    """One line wrapped to ``width`` columns at spaces only (never mid-word, colour codes
    not counted); continuation lines keep the line's indent plus two spaces."""
    if width <= 0 or visible_len(line) <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    words = line.strip(" ").split(" ")
    out: list[str] = []
    current = " " * (len(line) - len(line.lstrip(" ")))
    used = visible_len(current)
    fresh = True
    for word in words:
        w = visible_len(word)
        if not fresh and used + 1 + w > width:
            out.append(current)
            current, used, fresh = indent + word, len(indent) + w, False
            continue
        current += ("" if fresh else " ") + word
        used += (0 if fresh else 1) + w
        fresh = False
    out.append(current)
    return out


def wrap_text(text: str, width: int) -> str:
    """Every line of ``text`` wrapped by ``wrap_line``."""
    return "\n".join(part for line in text.split("\n") for part in wrap_line(line, width))


def union(masks: Sequence[Mask]) -> Mask:
    out = 0
    for m in masks:
        out |= m
    return out


def conj(name: str, verb: str) -> str:
    """``You knock`` but ``simple knocks``."""
    return verb if name == "You" else _IRREGULAR.get(verb, verb + "s")


def hand_lines(style: Style, hand: Mask, tables: MeldTables) -> tuple[str, str]:
    """A hand with its best melds marked, and a line naming the melds and the deadwood."""
    best = tables.best_melds_mask(hand)
    dead = hand & ~union(best.melds)
    tail = f" ({style.cards(dead)})" if dead else ""
    return style.hand(hand, best.melds), f"melds {style.melds(best.melds)} | deadwood {best.deadwood}{tail}"


def event_text(style: Style, event: Event, names: Sequence[str]) -> str:
    """One public event as a sentence: ``simple discards 7H``."""
    seat, action, card = event
    who = names[seat]
    shown = style.card(card) if card is not None else ""
    if action == "pass":
        return f"{who} {conj(who, 'pass')} on {shown}"
    if action == "take":
        return f"{who} {conj(who, 'take')} {shown} from the discard pile"
    if action == "draw":
        return f"{who} {conj(who, 'draw')} {shown + ' ' if shown else ''}from the stock"
    if action == "discard":
        return f"{who} {conj(who, 'discard')} {shown}"
    if action == "knock":
        return f"{who} {conj(who, 'knock')}"
    if action == "big_gin":
        return f"{who} {conj(who, 'go')} big gin"
    return f"{who} {action} {shown}".rstrip()


def _base_points(res: HandResult, rules: Rules) -> int:
    """A scored hand's points before R30's doubling (``kernel.scoring.score`` with no multiplier)."""
    if res.winner < 0 or res.outcome not in (GIN, BIG_GIN, KNOCK_WON, UNDERCUT):
        return 0
    kd, before, after = res.knocker_deadwood, res.defender_deadwood_before, res.defender_deadwood_after
    return score(rule_facts(rules), res.knocker, kd, before, after, res.outcome == BIG_GIN, 1)[2]


def showdown_rows(res: HandResult, rules: Rules) -> list[tuple[tuple[Mask, ...], Mask, Mask]]:
    """Each seat's end of a hand as shown: its melds (the knocker's as it showed them), the
    cards it laid off and its deadwood cards. After a knock (R16-R18) the knocker's melds
    and the defender's lay-offs are the showdown's; otherwise each hand's best melds."""
    tables = tables_for(rules.max_run_length)
    shown = res.outcome in (KNOCK_WON, UNDERCUT, GIN, BIG_GIN)
    k = res.knocker
    rows = []
    for seat in (0, 1):
        hand = res.hands[seat]
        laid = res.layoff if shown and seat == 1 - k else 0
        melds = res.knocker_melds if shown and seat == k else tables.best_melds_mask(hand & ~laid).melds
        rows.append((tuple(melds), laid, hand & ~laid & ~union(melds)))
    return rows


def result_lines(
    style: Style, res: HandResult, names: Sequence[str], rules: Rules, show_hands: bool = True
) -> list[str]:
    """How a hand ended: the score line, then both hands with melds, deadwood and lay-offs."""
    o, k = res.outcome, res.knocker
    d = 1 - k
    if o == FORFEIT:
        who = names[res.forfeit_seat]
        reason = res.forfeit_reason
        if not reason.startswith(res.forfeit_kind + ":"):  # the clock's reason already names its kind
            reason = f"{res.forfeit_kind}: {reason}"
        other = names[1 - res.forfeit_seat]
        lines = [
            f"{who} {conj(who, 'forfeit')} the hand and the game ({reason}); "
            f"{other} {conj(other, 'score')} {res.points} (a forfeit never pays, docs/METRICS.md)"
        ]
    elif o == DRAWN:
        why = "the stock is down to two cards" if res.stock_left <= 2 else f"the hand reached {res.turns} turns"
        lines = [f"No knock and {why}: a draw, no score; the same dealer deals again."]
    elif o == GIN:
        lines = [
            f"{names[k]} {conj(names[k], 'go')} gin: {res.points} points "
            f"(gin bonus {rules.gin_bonus} + deadwood {res.defender_deadwood_before})."
        ]
    elif o == BIG_GIN:
        lines = [
            f"{names[k]} {conj(names[k], 'go')} big gin: {res.points} points "
            f"(big gin bonus {rules.big_gin_bonus} + deadwood {res.defender_deadwood_before})."
        ]
    elif o == KNOCK_WON and res.winner < 0:  # R28: equal deadwood, no undercut on ties
        lines = [
            f"{names[k]} {conj(names[k], 'knock')} with {res.knocker_deadwood}, the same as "
            f"{names[d]}'s deadwood after lay-offs: no score (undercut_on_tie is off)."
        ]
    elif o == KNOCK_WON:
        lines = [
            f"{names[k]} {conj(names[k], 'knock')} with {res.knocker_deadwood} and "
            f"{conj(names[k], 'score')} {res.points} ({res.defender_deadwood_after} - {res.knocker_deadwood})."
        ]
    else:  # UNDERCUT
        lines = [
            f"{names[d]} {conj(names[d], 'undercut')} {names[k]}: {res.points} points "
            f"({res.knocker_deadwood} - {res.defender_deadwood_after} + undercut bonus {rules.undercut_bonus})."
        ]
    if rules.oklahoma_spades and res.winner >= 0 and res.points == 2 * _base_points(res, rules) > 0:
        lines[0] = lines[0].rstrip(".") + ", doubled: the first upcard was a spade (R30)."
    if not show_hands:
        return lines
    width = max(len(n) for n in names)
    shown = o in (KNOCK_WON, UNDERCUT, GIN, BIG_GIN)
    for seat, (melds, laid, dead) in enumerate(showdown_rows(res, rules)):
        line = f"  {names[seat]:<{width}}  {style.melds(melds) if melds else 'no melds'}  deadwood {mask_value(dead)}"
        line += f": {style.cards(dead)}" if dead else ""
        if shown:
            line += "  (knocker)" if seat == k else ""
            if seat == d and o in (KNOCK_WON, UNDERCUT):
                before = res.defender_deadwood_before
                line += f"  laid off {style.cards(laid)} (deadwood {before} before)" if laid else "  no lay-offs"
        lines.append(line)
    return lines


# -- re-playing a hand of a run ------------------------------------------------------------

# fmt: off
