"""Work a labelling run's rows out again with ``learned``'s features as they are now.

    python experiments/training/relabel.py --records build/learned --out-dir build/relabelled

replays every game that ``train_learned.py`` logged in the records files of ``--records``
(``labels.py``: the teacher's answers played back against the same opponent, in the same
seeded games) and writes records files of the same names to ``--out-dir``: the same
decisions and answers, the rows of the features the code has now, and the log again, so the
new files can be relabelled in their turn. A game that does not end as it did (another
engine, another opponent) stops the run with a clear message. Only the opponents play for
real: ``patient`` as an opponent is the slow part.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ginsim.strategies.learned import HEADS
from labels import Columns, GameLog, Records, Replayer, ReplayError, save_records
from train_learned import MAX_HANDS, hands_of

from ginsim.engine.game import run_game
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.errors import GinsimError


def relabel_file(path: Path, out: Path, columns: Columns | None = None) -> int:
    """Replay the games of the records file ``path`` and write their rows anew to ``out``
    (each lengthened by ``columns``, if given); the hands replayed."""
    log = GameLog.read(path)
    rules = preset_rules(log.meta["preset"])
    spec = parse_spec(log.meta["opponent"])
    records: Records = {key: [] for key in HEADS}
    again = GameLog(log.meta)
    hands = 0
    start = time.perf_counter()
    i = 0
    while i < len(log.seeds):
        seed, dealer = log.seeds[i], log.dealers[i]
        j = i
        while j < len(log.seeds) and log.seeds[j] == seed:  # every teacher of this game
            j += 1
        players: list[Strategy] = [spec.build(), spec.build()]
        replayers = {log.seats[k]: Replayer(log.answers[k], columns) for k in range(i, j)}
        for seat, replayer in replayers.items():
            players[seat] = replayer
        game = run_game(rules, dealer, hands_of(rules, players, seed), MAX_HANDS)
        if game.scores != log.scores[i] or not all(r.finished() for r in replayers.values()):
            raise ReplayError(f"game {seed} ends {game.scores} in the replay, {log.scores[i]} in its log")
        hands += len(game.hands)
        for k in range(i, j):
            replayer = replayers[log.seats[k]]
            again.add(seed, dealer, log.seats[k], log.answers[k], game.scores)
            for key in HEADS:
                records[key].extend(replayer.records[key])
        i = j
    save_records(out, records, hands, time.perf_counter() - start, again)
    return hands


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--records", type=Path, required=True, help="a folder of logged records files")
    ap.add_argument("--out-dir", type=Path, required=True, help="where the relabelled files go")
    args = ap.parse_args(argv)
    paths = sorted(args.records.glob("records-*.npz"))
    if not paths:
        print(f"relabel: no records files in {args.records}", file=sys.stderr)
        return 2
    if args.out_dir.resolve() == args.records.resolve():
        print("relabel: --out-dir must not be the folder of --records", file=sys.stderr)
        return 2
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for path in paths:
        try:
            hands = relabel_file(path, args.out_dir / path.name)
        except (ReplayError, GinsimError) as err:
            print(f"relabel: {path}: {err}", file=sys.stderr)
            return 2
        print(json.dumps({"file": path.name, "hands": hands}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
