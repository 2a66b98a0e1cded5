"""The self-contained replay page: one HTML file, its styles, script and data inline.

The file loads nothing (its Content-Security-Policy forbids any fetch), so it works from
``file://`` and can be mailed or attached to a bug report. The data goes in as JSON inside
``<script type="application/json">`` with ``<``, ``>`` and ``&`` escaped, so no text of
the run (a strategy's name holding ``</script>``) can end the script or add markup; the
page's script writes every text with ``textContent``.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from ginsim.runfolder.atomic import write_text_atomic
from ginsim.terminal.replay import replay_hand
from ginsim.terminal.runlog import RunLog
from ginsim.web.steps import hand_steps

_SLOT = re.compile(r"/\*(CSS|JS|DATA|VIEWER)\*/")


def static_text(name: str) -> str:
    """A file of the package's static folder (styles, scripts, page templates)."""
    return resources.files("ginsim.web").joinpath("static", name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or
    ``&`` (written as ``\\u003c`` and so on, which JSON reads back the same), nor the
    two line separators JavaScript once refused in strings."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for ch, esc in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def fill_slots(template: str, parts: dict[str, str]) -> str:
    """A static page with its ``/*NAME*/`` slots filled, in one pass (no slot inside a
    filled text is read); the replay viewer's markup (viewer.html) goes in ``VIEWER``."""
    parts = {"VIEWER": static_text("viewer.html"), **parts}
    return _SLOT.sub(lambda m: parts[m.group(1)], static_text(template))


def replay_page(data: dict[str, Any]) -> str:
    """The replay page for ``hand_steps``' data, as one HTML text."""
    parts = {
        "CSS": static_text("cards.css"),
        "JS": static_text("cards.js") + "\n" + static_text("replay.js"),
        "DATA": script_json(data),
    }
    return fill_slots("replay.html", parts)


def replay_html(
    folder: str | Path,
    hand: int | None = None,
    path: str | Path | None = None,
    seat: int | None = None,
    first: str | None = None,
    where: str | None = None,
) -> str:
    """Replay a hand of the run in ``folder`` (row ``hand`` of its hand log, or the first
    hand that ended as ``first`` or matches the condition ``where``, as ``ginsim replay``
    picks it) and return its page; with ``path``, write the page there too. ``seat``
    shows only what that seat saw until the showdown. RunError if the hand cannot be
    replayed as logged."""
    folder = Path(folder)
    if hand is None:
        from ginsim.analysis.handlog import select_hand

        hand = select_hand(folder, first, where)
    r = replay_hand(RunLog(folder), hand, seat)
    html = replay_page(hand_steps(r, folder, seat))
    if path is not None:
        write_text_atomic(Path(path), html)
    return html
