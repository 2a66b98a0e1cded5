"""The "check knock" of a hand, as data and as text: ``ginsim check``'s, and the one the
person asks for at the table in ``ginsim play``."""

from __future__ import annotations

from typing import Any

from ginsim.engine.cards import CARD_NAMES, cards_of, format_cards, parse_card, sort_key, to_mask
from ginsim.engine.layoff import best_layoff
from ginsim.engine.melds import tables_for
from ginsim.engine.rules import Rules
from ginsim.engine.view import PlayerView
from ginsim.errors import CardError
from ginsim.terminal.textview import Style, union


def _names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in sorted(cards_of(mask), key=sort_key)]


def check_hand(text: str, rules: Rules) -> dict[str, Any]:
    """Melds and deadwood of 1-10 cards; for 11 cards also the best discards."""
    hand = to_mask(text)
    n = hand.bit_count()
    if not 1 <= n <= 11:
        raise CardError(f"check takes 1 to 11 cards, not {n}")
    tables = tables_for(rules.max_run_length)
    shown = tables.best_melds_mask(hand)
    melded = 0
    for m in shown.melds:
        melded |= m
    out: dict[str, Any] = {
        "cards": _names(hand),
        "melds": [_names(m) for m in shown.melds],
        "deadwood_cards": _names(hand & ~melded),
        "deadwood": shown.deadwood,
        "knock_limit": rules.knock_limit,
    }
    if n <= 10:
        out["can_knock"] = n == 10 and shown.deadwood <= rules.knock_limit
        out["gin"] = n == 10 and shown.deadwood == 0
        return out
    dw, best = tables.best_discard_mask(hand)
    first = min(cards_of(best), key=sort_key)
    after = tables.best_melds_mask(hand & ~(1 << first))
    after_melded = 0
    for m in after.melds:
        after_melded |= m
    out.update(
        {
            "best_discards": _names(best),
            "deadwood_after": dw,
            "melds_after": [_names(m) for m in after.melds],
            "deadwood_cards_after": _names(hand & ~(1 << first) & ~after_melded),
            "can_knock": dw <= rules.knock_limit,
            "gin": dw == 0,
            "big_gin": rules.big_gin_bonus is not None and shown.deadwood == 0,
        }
    )
    return out


def _paint(names: list[str], color: bool, sep: str = " ") -> str:
    """Card texts coloured by suit as in ``play`` (spades in the terminal's own colour)."""
    if not color:
        return sep.join(names)

    style = Style(color=True)
    return sep.join(style.card(parse_card(n)) for n in names)


def format_check(r: dict[str, Any], color: bool = False) -> str:
    """The report of ``check_hand`` as a few lines of text."""
    n = len(r["cards"])
    lines = [f"hand      {_paint(r['cards'], color)}  ({n} card{'' if n == 1 else 's'})"]
    melds = "  ".join(f"[{_paint(m, color)}]" for m in r["melds"]) or "none"
    lines.append(f"melds     {melds}")
    dead = _paint(r["deadwood_cards"], color) or "none"
    lines.append(f"deadwood  {r['deadwood']}  ({dead})")
    if "best_discards" not in r:
        if len(r["cards"]) == 10:
            if r["gin"]:
                lines.append("knock     gin: every card is melded")
            elif r["can_knock"]:
                lines.append(f"knock     yes: deadwood {r['deadwood']} <= knock limit {r['knock_limit']}")
            else:
                lines.append(f"knock     no: deadwood {r['deadwood']} > knock limit {r['knock_limit']}")
        return "\n".join(lines)
    choices = r["best_discards"]
    lines.append(
        f"discard   {_paint(choices, color, ' or ')}  -> deadwood {r['deadwood_after']}"
        + (f"  (each of {len(choices)} leaves the same)" if len(choices) > 1 else "")
    )
    after = "  ".join(f"[{_paint(m, color)}]" for m in r["melds_after"]) or "none"
    left = _paint(r["deadwood_cards_after"], color) or "none"
    lines.append(f"then      {after}  deadwood {r['deadwood_after']} ({left})")
    if r["gin"]:
        lines.append(f"knock     gin: discard {choices[0]} and every card is melded")
    elif r["can_knock"]:
        lines.append(f"knock     yes: discard {choices[0]} and knock with {r['deadwood_after']}")
    else:
        lines.append(f"knock     no: best deadwood {r['deadwood_after']} > knock limit {r['knock_limit']}")
    if r.get("big_gin"):
        lines.append("big gin   yes: all 11 cards meld")
    return "\n".join(lines)


def check_text(view: PlayerView, context: str, style: Style) -> str:
    """The "check knock" report of the hand in front of the person: best melds and
    deadwood; with 11 cards the best legal discards (R12) and whether a knock or gin
    follows; before drawing, what taking the upcard would give; facing a knock, the best
    lay-offs."""
    rules = view.rules
    tables = tables_for(rules.max_run_length)
    hand = view.hand
    report = check_hand(format_cards(hand), rules)
    if hand.bit_count() == 11:
        dw, best = view.best_discards()
        first = min(cards_of(best), key=sort_key)
        after = tables.best_melds_mask(hand & ~(1 << first))
        report.update(
            best_discards=_names(best),
            deadwood_after=dw,
            melds_after=[_names(m) for m in after.melds],
            deadwood_cards_after=_names(hand & ~(1 << first) & ~union(after.melds)),
            can_knock=dw <= view.knock_limit,
            gin=dw == 0,
        )
    text = format_check(report, color=style.color)
    up = view.upcard
    if context in ("offer", "draw") and up is not None:
        h = hand | 1 << up
        choices = h if rules.allow_discard_of_drawn_upcard else hand
        values = {c: tables.deadwood_mask(h & ~(1 << c)) for c in cards_of(choices)}
        low = min(values.values())
        names = " or ".join(CARD_NAMES[c] for c in sorted(values, key=sort_key) if values[c] == low)
        verdict = "gin" if low == 0 else "a knock" if low <= view.knock_limit else "no knock"
        text += f"\ntake {CARD_NAMES[up]}  then discard {names} -> deadwood {low} ({verdict})"
    if context == "layoff" and view.knocker_melds:
        dw, laid = best_layoff(hand, view.knocker_melds, tables)
        text += f"\nlay-offs  best: {format_cards(laid) or 'none'} -> deadwood {dw}"
    return text
