"""Hands a second of one strategy against ``simple`` on one core, by the process's CPU time
(so a busy machine slows the wall clock but not this figure much): the engine plays
``--hands`` hands in this process, with fresh instances per hand, as a run does.

    python experiments/training/speed.py learned patient --hands 2000 --rules eaai
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.errors import GinsimError
from ginsim.run.seeding import deck_for


def hands_per_second(spec: str, hands: int, rules_name: str) -> float:
    rules = preset_rules(rules_name)
    me, simple = parse_spec(spec), parse_spec("simple")
    start = time.process_time()
    for h in range(hands):
        seat = h % 2
        players = [simple.build(), simple.build()]
        players[seat] = me.build()
        play_hand(rules, players, deck_for(h), h % 2, (0, 0), (2 * h, 2 * h + 1))
    return hands / (time.process_time() - start)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--rules", default="default")
    args = ap.parse_args(argv)
    if args.hands < 1:
        ap.error(f"--hands must be at least 1, not {args.hands}")
    try:  # every spec and the rules checked before any is timed
        preset_rules(args.rules)
        for spec in args.specs:
            parse_spec(spec).build()
    except GinsimError as err:
        print(f"speed: {err}", file=sys.stderr)
        return 2
    for spec in args.specs:
        print(f"{spec}: {hands_per_second(spec, args.hands, args.rules):.0f} hands/s of CPU time ({args.rules})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
