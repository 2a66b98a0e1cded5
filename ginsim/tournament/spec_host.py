"""The process that checks strategy specs in tournament mode (``python -m ginsim.tournament.spec_host``).

Checking a spec imports its module, and a module runs code as it is imported. In
tournament mode the referee (ginsim.tournament.spec_check) therefore never checks a bot's spec
itself: it starts this process, as a bot's process is started (minimal environment,
the bot user when run as root), writes one JSON line ``{"specs": [text, ...]}`` and
reads back, after ``MARK``, one JSON line: for each spec either the facts the referee
needs (``target``, ``params``, ``defaults``, ``name``, ``outside``) or ``{"error":
message}``, the message ``parse_spec`` gives in the referee's own process. What the
checked modules print goes to stderr.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ginsim.tournament.confine import confine

MARK = "ginsim-spec-check:"
"""The prefix of the answer line on stdout (a module may write there too)."""


def _plain(value: Any) -> Any:
    """A default as JSON carries it; a value JSON cannot carry as its repr."""
    try:
        json.dumps(value, allow_nan=True)
    except (TypeError, ValueError):
        return repr(value)
    return value


def check(text: str) -> dict[str, Any]:
    """One spec, checked as ``parse_spec`` checks it, as facts or an error line."""
    from ginsim.engine.spec import parse_spec
    from ginsim.errors import GinsimError
    from ginsim.outside import manifest_fields

    try:
        spec = parse_spec(text)
        facts = {
            "target": spec.target,
            "params": {k: _plain(v) for k, v in spec.params.items()},
            "defaults": {k: _plain(v) for k, v in spec.defaults().items()},
            "name": spec.base_name,
            "outside": manifest_fields(spec.load_class()).get("outside"),
        }
        json.dumps(facts)
        return facts
    except GinsimError as e:
        return {"error": str(e)}
    except BaseException as e:  # noqa: BLE001 - a module that exits or raises anything while checked
        return {"error": f"strategy {text.strip()!r}: checking it failed ({type(e).__name__}: {e})"}


def main() -> None:
    confine()  # before the checked modules run (ginsim.tournament.confine)
    out = sys.stdout
    sys.stdout = sys.stderr  # the checked modules' prints
    request = json.loads(sys.stdin.readline())
    results = [check(str(text)) for text in request["specs"]]
    out.write(MARK + json.dumps(results) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
