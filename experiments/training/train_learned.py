"""Train the model of the built-in ``learned``, reproducibly from a seed.

The model is distilled from ``patient``: games to 100 are played by ``patient`` (the
teacher) against a mix of eager knockers and gin hunters (``OPPONENTS``) under the default
and the EAAI rules (``RULES``), and at every decision the teacher makes, the features that
``learned`` would compute for each of its options are recorded with the option the teacher
chose. Then each head is fitted by maximum likelihood in NumPy (Newton's method, a little
ridge):

- ``discard``: a conditional logit, the chosen discard against the others weighed;
- ``take`` and ``knock``: logistic regressions of the teacher's yes or no.

The teacher thinks with 48 sampled deals per hard decision; the student, one dot product
per option. What it cannot learn is what the features do not show.

    python experiments/training/train_learned.py --seed 1 --games 300 --out-dir build/learned \\
        --ship strategies/learned.npz

writes the records (``records-*.npz``), the model fitted on growing shares of them
(``model-H.npz``, H the hands it saw, for the curve of strength against data) and the
last, fitted on all, to ``--ship``. README.md beside this file states the run that made
the shipped model, its time and machine. Only the engine and the strategies are used.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from ginsim.strategies.learned import HEADS
from ginsim.strategies.patient import Patient
from labels import GameLog, Noted, Records, load_records, save_records

from ginsim.engine.game import run_game
from ginsim.engine.playhand import play_hand
from ginsim.engine.result import HandResult
from ginsim.engine.rng import SeededRandom
from ginsim.engine.rules import Rules, preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.valuemodel import Head, save_heads
from ginsim.run.seeding import deck_for

OPPONENTS = (
    "simple",
    "aware",
    "aware:late_turn=8,late_knock_at=0",  # a gin hunter: knocks early, then only with gin
    "patient",
)
"""The teacher's opponents: eager knockers, a gin hunter, and itself."""
RULES = ("default", "eaai")
MAX_HANDS = 60


class Teacher(Noted, Patient):
    """``patient``, noting for each of its decisions ``learned``'s rows and its answer (``labels``)."""


def hands_of(
    rules: Rules, players: list[Strategy], game_seed: int, after: Callable[[HandResult], None] | None = None
) -> Callable[[int, int, tuple[int, int]], HandResult]:
    """The game's hand player: hand h's deck and the seats' seeds follow from ``game_seed``;
    ``after`` sees each hand's result."""

    def one(h: int, dealer: int, scores: tuple[int, int]) -> HandResult:
        hand_seed = (game_seed + 7919 * (h + 1)) % (1 << 62)
        res = play_hand(rules, players, deck_for(hand_seed), dealer, scores, (hand_seed ^ 1, hand_seed ^ 2))
        if after is not None:
            after(res)
        return res

    return one


def schedule(opponents: Sequence[str], games: int) -> Iterator[tuple[str, Rules, str, Any, int]]:
    """The training games in their order: (preset name, rules, opponent spec text, its parsed
    spec, game number) for ``games`` games against each opponent under each preset; the
    trained seat is ``game % 2`` and deals first."""
    for rules_name in RULES:
        rules = preset_rules(rules_name)
        for opponent in opponents:
            spec = parse_spec(opponent)
            for g in range(games):
                yield rules_name, rules, opponent, spec, g


def play_records(
    games: int,
    seed: int,
    out_dir: Path,
    teacher: dict[str, Any] | None = None,
    presets: Sequence[str] = RULES,
    opponents: Sequence[str] = OPPONENTS,
    teacher_class: Callable[..., Any] = Teacher,
) -> list[Path]:
    """Play ``games`` games against each opponent under each preset; one records file per
    (preset, opponent), with the hands it took. ``teacher`` holds the teacher's parameters
    (none: its default setting); an opponent ``patient`` in its default setting teaches too
    when the teacher is ``patient``. ``teacher_class`` is a ``labels.Noting`` strategy
    (``Teacher``: ``patient`` noting its decisions)."""
    written = []
    rand = SeededRandom(seed)
    params = teacher or {}
    for rules_name in presets:
        rules = preset_rules(rules_name)
        for k, opponent in enumerate(opponents):
            spec = parse_spec(opponent)
            records: Records = {key: [] for key in HEADS}
            log = GameLog({"preset": rules_name, "opponent": opponent, "teacher": params})
            hands = 0
            start = time.perf_counter()
            for g in range(games):
                seat = g % 2
                players: list[Strategy] = [spec.build(), spec.build()]
                teachers = [teacher_class(**params)]
                players[seat] = teachers[0]
                if opponent == "patient" and not params and teacher_class is Teacher:  # both seats teach
                    teachers.append(Teacher())
                    players[1 - seat] = teachers[1]
                game_seed = rand.getrandbits(62)

                game = run_game(rules, g % 2, hands_of(rules, players, game_seed), MAX_HANDS)
                hands += len(game.hands)
                for t in teachers:
                    log.add(game_seed, g % 2, players.index(t), t.log, game.scores)
                    for key in HEADS:
                        records[key].extend(t.records[key])
            path = out_dir / f"records-{rules_name}-{k}.npz"
            save_records(path, records, hands, time.perf_counter() - start, log)
            written.append(path)
            print(json.dumps({"file": path.name, "opponent": opponent, "hands": hands}), flush=True)
    return written


def fit_choice(names: Sequence[str], rows: np.ndarray, sizes: np.ndarray, chosen: np.ndarray, ridge: float) -> Head:
    """A conditional logit: each decision's options scored ``w . x``, the chosen one's
    likelihood maximised by Newton's method. With one option a decision (a yes/no row with
    an implicit 0 for no) it is a logistic regression."""
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    scale[scale < 1e-9] = 1.0
    binary = bool((sizes == 1).all())
    if binary:  # the bias stays a bias: scaling it would zero it
        const = np.isclose(rows, rows[:1]).all(axis=0)
        mean[const], scale[const] = 0.0, 1.0
    x = (rows - mean) / scale
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    group = np.repeat(np.arange(len(sizes)), sizes)
    n, f = len(sizes), x.shape[1]
    w = np.zeros(f)
    target = x[starts + chosen].sum(axis=0) if not binary else x[chosen == 1].sum(axis=0)
    for _ in range(30):
        u = x @ w
        if binary:
            p = 1.0 / (1.0 + np.exp(-u))
            grad = target - x.T @ p
            hess = (x * (p * (1 - p))[:, None]).T @ x
        else:
            u = u - np.maximum.reduceat(u, starts)[group]
            e = np.exp(u)
            p = e / np.add.reduceat(e, starts)[group]
            xbar = np.add.reduceat(x * p[:, None], starts)
            grad = target - xbar.sum(axis=0)
            hess = (x * p[:, None]).T @ x - xbar.T @ xbar
        grad -= ridge * n * w
        hess += ridge * n * np.eye(f)
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-6:
            break
    return Head(names, w, 0.0, mean, scale)


def fit_hidden(
    linear: Head, rows: np.ndarray, sizes: np.ndarray, chosen: np.ndarray, hidden: int, steps: int, seed: int
) -> Head:
    """A head with a hidden layer of ``hidden`` units fitted by the same likelihood (Adam,
    full batch, ``steps`` steps), started from ``linear``'s scaling and predictions: half its
    units carry the linear score, so it starts where the linear fit ended."""
    rng = np.random.default_rng(seed)
    f = rows.shape[1]
    w1 = rng.normal(scale=0.3 / np.sqrt(f), size=(hidden, f))
    b1 = np.zeros(hidden)
    w2 = rng.normal(scale=0.1, size=hidden)
    w1[0], w1[1] = linear.w2, -linear.w2  # relu(z) - relu(-z) = z: the linear score
    w2[0], w2[1] = 1.0, -1.0
    start = Head(linear.names, w2, 0.0, linear.mean, linear.scale, w1, b1)
    return fine_tune(start, rows, sizes, chosen, steps)


def fine_tune(head: Head, rows: np.ndarray, sizes: np.ndarray, chosen: np.ndarray, steps: int) -> Head:
    """``head`` (one with a hidden layer) fitted further by the same likelihood (Adam, full
    batch, ``steps`` steps), its scaling and output bias kept."""
    assert head.w1 is not None and head.b1 is not None
    x = (rows - head.mean) / head.scale
    n = len(x)
    w1, b1, w2, b2 = head.w1.copy(), head.b1.copy(), np.array(head.w2, dtype=float), head.b2
    binary = bool((sizes == 1).all())
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    group = np.repeat(np.arange(len(sizes)), sizes)
    onehot = np.zeros(n)
    if binary:
        onehot[:] = chosen
    else:
        onehot[starts + chosen] = 1.0
    params = [w1, b1, w2]
    moments = [(np.zeros_like(q), np.zeros_like(q)) for q in params]
    for t in range(1, steps + 1):
        z = x @ w1.T + b1
        a = np.maximum(z, 0.0)
        u = a @ w2 + b2
        if binary:
            du = 1.0 / (1.0 + np.exp(-u)) - onehot
        else:
            u = u - np.maximum.reduceat(u, starts)[group]
            e = np.exp(u)
            du = e / np.add.reduceat(e, starts)[group] - onehot
        du /= len(sizes)
        g_w2 = a.T @ du
        dz = np.outer(du, w2) * (z > 0)
        grads = [dz.T @ x, dz.sum(axis=0), g_w2]
        for q, g, (m, v) in zip(params, grads, moments, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            q -= 0.01 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return Head(head.names, w2, b2, head.mean, head.scale, w1, b1)


def fit_model(
    records: dict[str, tuple[np.ndarray, ...]],
    ridge: float,
    hidden: int = 0,
    steps: int = 400,
    only: Sequence[str] = tuple(HEADS),
) -> dict[str, Head]:
    """The heads ``only`` (every head) fitted on the records: linear, or with a hidden layer
    of ``hidden`` units."""
    heads = {}
    for k, key in enumerate(HEADS):
        if key not in only:
            continue
        head = fit_choice(HEADS[key], *records[key], ridge)
        if hidden and len(records[key][1]):
            head = fit_hidden(head, *records[key], hidden, steps, seed=k)
        heads[key] = head
    return heads


def agreement(head: Head, rows: np.ndarray, sizes: np.ndarray, chosen: np.ndarray) -> float:
    """The share of the records' decisions in which the head picks what the teacher did."""
    if len(sizes) == 0:
        return float("nan")
    u = head.score(rows)
    if (sizes == 1).all():
        return float(((u > 0) == (chosen == 1)).mean())
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    group = np.repeat(np.arange(len(sizes)), sizes)
    best = np.maximum.reduceat(u, starts)
    picked = u[starts + chosen] >= best - 1e-12
    return float(picked.mean()) if len(group) else float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=300, help="games per opponent and preset")
    ap.add_argument("--ridge", type=float, default=1e-4)
    ap.add_argument("--out-dir", type=Path, default=Path("build/learned"))
    ap.add_argument("--hidden", type=int, default=0, help="hidden units of each head (0: linear)")
    ap.add_argument("--steps", type=int, default=400, help="Adam steps of a head with hidden units")
    ap.add_argument("--fit-only", action="store_true", help="fit on the records already in --out-dir")
    ap.add_argument(
        "--records", type=Path, action="append", default=[], help="with --fit-only: fit on this folder's records"
    )
    ap.add_argument("--shares", default="0.03,0.1,0.3,1", help="shares of the records to fit curve models on")
    ap.add_argument("--ship", type=Path, default=None, help="write the model fitted on all records here")
    ap.add_argument("--teacher", default="", help="the teacher's parameters, as patient:PARAMS would name them")
    ap.add_argument("--presets", default=",".join(RULES), help="the presets played, comma-separated")
    ap.add_argument("--opponents", default=";".join(OPPONENTS), help="the opponents' specs, ';'-separated")
    ap.add_argument("--heads", default=",".join(HEADS), help="the heads fitted, comma-separated (all)")
    args = ap.parse_args(argv)
    only = args.heads.split(",")
    if not only or any(key not in HEADS for key in only):
        ap.error(f"--heads names heads among {', '.join(HEADS)}, not {args.heads!r}")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    if args.fit_only:
        paths = [p for folder in args.records or [args.out_dir] for p in sorted(folder.glob("records-*.npz"))]
    else:
        teacher = parse_spec(f"patient:{args.teacher}").params if args.teacher else None
        paths = play_records(
            args.games, args.seed, args.out_dir, teacher, args.presets.split(","), args.opponents.split(";")
        )
    played = time.perf_counter() - start
    for share in (float(s) for s in args.shares.split(",")):
        records, hands = load_records(paths, share, only)
        heads = fit_model(records, args.ridge, args.hidden, args.steps, only)
        meta = {
            "hands": hands,
            "seed": args.seed,
            "share": share,
            "hidden": args.hidden,
            "play_seconds": round(played, 1),
        }
        save_heads(args.out_dir / f"model-{hands}.npz", heads, meta)
        if share == 1.0 and args.ship is not None:
            save_heads(args.ship, heads, meta)
        agree = {k: round(agreement(heads[k], *records[k]), 4) for k in heads}
        print(
            json.dumps({**meta, "decisions": {k: len(v[1]) for k, v in records.items()}, "agreement": agree}),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
