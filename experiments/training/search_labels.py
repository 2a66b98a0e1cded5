"""Labels from ``learned``'s own search: the teacher is ``override_player.Override``.

    python experiments/training/search_labels.py --seed 5131 --games 1500 --presets default \\
        --opponents 'simple;aware' --out-dir build/search-a

plays ``train_learned.py``'s labelling games with ``learned`` whose close discards and upcard
decisions are played out in ``patient``'s deals (``--search``: the file strategy's parameters,
``samples=128,take_margin=1`` as a spec names them; its defaults when empty) as the teacher,
and writes the same records files, logs included (``relabel.py`` replays them). A student
fitted on them (``train_learned.py --fit-only --records DIR``) learns the model's choices
and the search's corrections: one step of expert iteration, the search as the expert. The
notes' tenth attempt measured it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from labels import Noted
from override_player import Override
from train_learned import OPPONENTS, RULES, play_records

from ginsim.engine.spec import parse_spec
from ginsim.errors import GinsimError


class SearchTeacher(Noted, Override):
    """``Override``, noting for each of its decisions ``learned``'s rows and its answer."""


def search_params(text: str) -> dict[str, object]:
    """``Override``'s parameters as a spec names them (``samples=128,take_margin=1``)."""
    if not text:
        return {}
    here = Path(__file__).resolve().parent / "override_player.py"
    return dict(parse_spec(f"{here}:Override:{text}").params)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=300, help="games per opponent and preset")
    ap.add_argument("--out-dir", type=Path, required=True)
    ap.add_argument("--search", default="", help="Override's parameters, as a spec names them")
    ap.add_argument("--presets", default=",".join(RULES), help="the presets played, comma-separated")
    ap.add_argument("--opponents", default=";".join(OPPONENTS), help="the opponents' specs, ';'-separated")
    args = ap.parse_args(argv)
    try:
        params = search_params(args.search)
        SearchTeacher(**params)
    except (ValueError, GinsimError) as err:
        print(f"search_labels: --search: {err}", file=sys.stderr)
        return 2
    args.out_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    play_records(
        args.games,
        args.seed,
        args.out_dir,
        params,
        args.presets.split(","),
        args.opponents.split(";"),
        teacher_class=SearchTeacher,
    )
    print(f"search_labels: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
