"""The documentation of ``PlayerView`` (and of the engine's result types) for ``help()``.

The compiled build of the hot modules carries no docstrings (mypyc drops them), so
``help(ginsim.PlayerView)`` would list bare names. ``attach()`` (called by
``import ginsim``) gives the classes a full docstring: every attribute with its type and
meaning (``ATTRIBUTES`` below, the same table as docs/strategy-api.md) and every helper
with its signature and the docstring of its source, read from the module's ``.py`` file.
A compiled method's own ``__doc__`` cannot be written, so in the compiled build
``help(PlayerView)`` is the place that shows everything.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

ATTRIBUTES: dict[str, tuple[str, str]] = {
    "seat": ("int", "this seat, 0 or 1"),
    "dealer": ("int", "the dealing seat this hand (is_dealer: whether it is this seat)"),
    "rules": ("Rules", "the rules in force (RULES.md)"),
    "knock_limit": ("int", "the most deadwood a knock may leave this hand (R14; Oklahoma: from the upcard, R29)"),
    "scores": ("tuple[int, int]", "(own, opponent) game scores before this hand; (0, 0) for single hands"),
    "hand": ("Mask", "this seat's cards (bit c set for card c): 10, or 11 after drawing"),
    "phase": ("str", "the decision asked: 'offer', 'draw', 'discard', 'knock', 'layoff' or 'over'"),
    "upcard": ("Card | None", "the top of the discard pile (None when it is empty)"),
    "stock_size": ("int", "cards left in the stock (31 after the deal; the hand is drawn at 2, R23)"),
    "turn": ("int", "draw actions so far in the hand, both seats, the first-turn offer counting as one"),
    "drawn": ("Card | None", "the card this seat drew this turn"),
    "drawn_from_pile": ("bool", "whether that card was the upcard (then it may not be discarded, R12)"),
    "discard_choice": ("Card | None", "in the knock decision: the chosen discard"),
    "discard_deadwood": ("int", "in the knock decision: the deadwood after that discard"),
    "opp_known": ("Mask", "cards the opponent took from the pile and still holds"),
    "opp_passed": ("Mask", "upcards the opponent passed on or left on the pile"),
    "opp_discards": ("Mask", "cards the opponent discarded"),
    "pile_mask": ("Mask", "the cards in the discard pile"),
    "history": (
        "list[Event]",
        "public events (seat, action, card), oldest first; actions pass, take, draw, discard, knock, "
        "big_gin; the card of the opponent's stock draw (and of big_gin) is None",
    ),
    "knocker_melds": ("tuple[Mask, ...]", "in choose_layoffs: the melds the knocking opponent showed"),
    "knocker_deadwood": ("int", "in choose_layoffs: the knocker's deadwood"),
    "knocker_deadwood_cards": ("Mask", "in choose_layoffs: the knocker's unmelded cards (R16)"),
    "discard_pile": ("tuple[Card, ...]", "(property) the discard pile, bottom first; the last is the upcard"),
    "rng": (
        "SeededRandom",
        "(property) this seat's seeded random generator for the hand: the random.Random API plus "
        "below(n) and pick_bit(mask); the only randomness a strategy may use",
    ),
    "is_dealer": ("bool", "(property) whether this seat deals"),
}
"""Every public attribute of ``PlayerView``: (type, meaning)."""


def _source(module: object) -> Path:
    """The ``.py`` source of an engine module, whether it loaded compiled (``view.cpython-*.so``,
    beside its source or, in an editable install, under ``build/editable``)."""
    name = str(getattr(module, "__name__", "")).rpartition(".")[2]
    return Path(__file__).resolve().with_name(f"{name}.py")


def _source_docs(path: Path, cls_name: str) -> dict[str, str]:
    """The docstrings of class ``cls_name`` ('' key) and of its public methods, read
    from the source file ``path`` (a quick scan, not a parse: ``import ginsim`` runs it)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return {}
    start = re.search(rf"^class {cls_name}\b[^\n]*:\n", text, re.M)
    if start is None:
        return {}
    body = text[start.end() :]
    end = re.search(r"^\S", body, re.M)  # the next top-level line ends the class
    body = body[: end.start()] if end else body
    out = {"": _clean(m.group(1)) if (m := re.match(r'\s+"""(.*?)"""', body, re.S)) else ""}
    for m in _METHOD.finditer(body):
        if not m.group(1).startswith("_"):
            out[m.group(1)] = _clean(m.group(2))
    return out


_METHOD = re.compile(r'^    def (\w+)\((?:(?!^    def ).)*?:\n\s+"""(.*?)"""', re.M | re.S)


def _clean(doc: str) -> str:
    return inspect.cleandoc(doc)


def _signature(obj: object, name: str) -> str:
    try:
        return name + str(inspect.signature(obj))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return name + "(...)"


def view_doc() -> str:
    """The docstring ``help(PlayerView)`` shows: the class's own, the attributes, the helpers."""
    from ginsim.engine import view

    docs = _source_docs(_source(view), "PlayerView")
    lines = [docs.get("", "What one seat knows at a decision. Read it; never change it."), "", "Attributes:"]
    width = max(len(n) for n in ATTRIBUTES)
    for name, (kind, meaning) in ATTRIBUTES.items():
        lines.append(f"  {name:<{width}}  {kind}: {meaning}")
    lines += ["", "Helpers (see docs/strategy-api.md):"]
    for name, doc in docs.items():
        if not name or name in ATTRIBUTES:
            continue
        sig = _signature(getattr(view.PlayerView, name, None), name)
        lines.append(f"  {sig}")
        lines += [f"      {line}" for line in doc.splitlines()]
    return "\n".join(lines)


def _class_doc(module: object, cls_name: str) -> str:
    docs = _source_docs(_source(module), cls_name)
    main = docs.get("", "")
    methods = [f"  {n}(): {d.splitlines()[0]}" for n, d in docs.items() if n and d]
    return main + ("\n\nMethods:\n" + "\n".join(methods) if methods else "")


def attach() -> None:
    """Give ``PlayerView``, ``HandResult`` and ``Melds`` their docstrings (compiled or not)."""
    from ginsim.engine import melds, result, view

    try:
        view.PlayerView.__doc__ = view_doc()
        for module, name in ((result, "HandResult"), (melds, "Melds")):
            doc = _class_doc(module, name)
            if doc:
                getattr(module, name).__doc__ = doc
    except (AttributeError, TypeError):  # a build whose classes refuse it keeps what it has
        pass
