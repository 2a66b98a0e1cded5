"""A value of the kept hand over the cards themselves, learned from the points hands scored
(the eleventh attempt in docs/notes/2026-12-learned.md).

``learned``'s heads weigh a few numbers that describe a deal on average; a sampling search
gains by seeing the deal itself, and no head over those numbers learned which of its
choices the search changes. This tries the other way round: a small network over the
cards - the ten a discard keeps, the card let go, the opponent's known cards, the cards it
let go or passed on, the pile - and the stage, the scores, the opponent's read kind and the
discard's own ``learned`` row, trained to predict the points the hand then scored for the
seat (its outcome, from the seat's side: a Monte Carlo value of the afterstate under the
policy that played it). A discard is then judged by that value as well as by the head
(``card_value_player.py``): one step of policy improvement over ``learned``, where the
value comes from outcomes of real deals rather than from a teacher's sampled worlds.

``collect``: ``learned`` (the heads it plays under the preset) plays games to 100 against
``OPPONENTS`` (``--opponent`` names others), letting go its second or third best discard
with chance ``explore``, and every discard it makes is noted (``sample_of``) with the hand's
points from its side. The suits are symmetric under these rules, so training sees each
sample under a random permutation of the suits (``permute``). ``fit`` trains the network (two
ReLU layers, Adam in NumPy, squared error) and writes it with ``save_value``; ``ValueNet``
scores rows. ``fit --target equity`` or ``--target td --bootstrap NET`` fits on the targets of
``value_targets.py`` instead of the points (the fifteenth attempt).
``ship`` writes a network into a model file as the card value of the heads that play under a
preset (``--preset``: default, the cheap heads' ``cheap.cards``; eaai, the other heads'
``cards``). ``--preset eaai`` collects under the EAAI rules (the twelfth attempt,
``make_card_value_eaai.sh``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import value_targets
from ginsim.strategies.learned import (
    CARD_NUMBERS,
    CARD_SETS,
    CARDS,
    CHEAP_CARDS,
    MODEL_FILE,
    Context,
    Learned,
    card_numbers,
    card_sets,
    discard_rows,
    plays_cheap,
    read_model,
)
from joblib import Parallel, delayed
from train_learned import MAX_HANDS, hands_of

from ginsim.engine.cards import Card
from ginsim.engine.game import run_game
from ginsim.engine.result import HandResult
from ginsim.engine.rng import SeededRandom
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.valuemodel import CardValue
from ginsim.engine.view import PlayerView
from ginsim.errors import StrategySpecError

OPPONENTS = ("simple", "aware", "aware:late_turn=8,late_knock_at=0", "learned")
"""Whom ``learned`` plays while its discards are noted: eager knockers, a gin hunter and
itself (both seats noted)."""
MASKS = CARD_SETS
"""Card sets of a sample: kept, let go, the opponent's known cards, those it let go or
passed on, the pile before the discard (``learned.CARD_SETS``)."""
WIDTH = MASKS * 52 + len(CARD_NUMBERS)
"""Inputs of the network: the card sets' bits, then ``learned.CARD_NUMBERS`` (the stage, the
stock, the opponent's kind, the scores, the deal and the discard's ``learned`` row)."""


def sample_of(view: PlayerView, ctx: Context, rest: int, card: Card, row: list[float]) -> tuple[list[int], list[float]]:
    """The masks and numbers of keeping ``rest`` and letting ``card`` go (``row``: its
    ``learned`` discard row); only what the seat's view holds."""
    return [rest, 1 << card, *card_sets(view)], card_numbers(view, ctx, row)


def judged(
    net: ValueNet | None,
    weight: float,
    top: int,
    view: PlayerView,
    ctx: Context,
    cards: list[Card],
    rows: list[list[float]],
    scores: np.ndarray,
) -> np.ndarray:
    """The head's ``scores`` of the discards ``cards`` (rows ``rows``) with ``weight`` times the
    network's value added, for the head's best ``top`` (0: all; the rest are put last, at
    minus infinity)."""
    if net is None or weight == 0.0 or len(cards) < 2:
        return scores
    pick = np.argsort(-scores)[:top] if top else np.arange(len(cards))
    hand = view.hand
    first = sample_of(view, ctx, hand, cards[0], [])
    nums = np.array([first[1] + rows[i] for i in pick], dtype=np.float32)
    values = net.discard_values(hand, [cards[i] for i in pick], first[0][2:], nums)
    total = np.full(len(cards), -np.inf)
    total[pick] = scores[pick] + weight * values
    return total


class Judged(Learned):
    """``learned`` whose discards are valued by its discard head plus ``weight`` times a card
    value network (``value``, a file; none: the head alone), for the head's best ``top`` (0:
    all): ``judged``. The model file's own card value, if any, is not played."""

    def __init__(self, value: str = "", weight: float = 1.0, top: int = 0, **params: Any) -> None:
        super().__init__(**params)
        self.net = network(value) if value else None
        self.value = value
        self.weight = weight
        self.top = top

    def discard_values(self, view: PlayerView, ctx: Context, cards: list[Card], rows: list[list[float]]) -> np.ndarray:
        scores = self.heads_for(view)["discard"].score(np.array(rows))
        return judged(self.net, self.weight, self.top, view, ctx, cards, rows, scores)


class Noter(Judged):
    """``Judged`` noting each discard it makes (the masks and numbers of ``sample_of``); with
    chance ``explore_discards`` a discard is its second or third best instead."""

    def __init__(self, explore_discards: float = 0.0, **params: Any) -> None:
        super().__init__(**params)
        self.explore_discards = explore_discards
        self.noted: list[tuple[list[int], list[float]]] = []

    def discard(self, view: PlayerView) -> Card:
        hand = view.hand
        ctx = self.context(view)
        cards, rows = discard_rows(ctx, hand, hand & ~view.legal_discards())
        pick = 0
        if len(cards) > 1:
            order = np.argsort(-self.discard_values(view, ctx, cards, rows))
            if self.explore_discards and view.rng.random() < self.explore_discards:
                pick = 1 + view.rng.below(min(2, len(cards) - 1))
            pick = int(order[pick])
        card = cards[pick]
        self.noted.append(sample_of(view, ctx, hand & ~(1 << card), card, rows[pick]))
        return card


def _after(
    noters: list[tuple[Noter, int]], out: list[tuple[list[int], list[float], float]]
) -> Callable[[HandResult], None]:
    def after(res: HandResult) -> None:
        for me, seat in noters:
            points = 0.0 if res.winner < 0 else float(res.points if res.winner == seat else -res.points)
            out.extend((m, x, points) for m, x in me.noted)
            me.noted.clear()

    return after


def collect(
    games: int, seed: int, explore: float, preset: str = "default", opponents: Sequence[str] = OPPONENTS,
    behaviour: dict[str, Any] | None = None, model: str = "",
) -> dict[str, Any]:  # fmt: skip
    """``games`` games to 100 against each opponent; every noted discard with its hand's
    points. ``behaviour``: the noter's network (``value``, ``weight``, ``top``); it plays
    itself with them too. ``model``: the model file of ``learned`` (the noter's heads, and
    the opponent ``learned``); empty, the installed one."""
    how = behaviour or {}
    if model:
        how = {**how, "model": model}
    rules = preset_rules(preset)
    rand = SeededRandom(seed)
    out: list[tuple[list[int], list[float], float]] = []
    hands = 0
    start = time.perf_counter()
    for opponent in opponents:
        spec = parse_spec(f"learned:model={model}" if opponent == "learned" and model else opponent)
        for g in range(games):
            seat = g % 2
            players: list[Strategy] = [spec.build(), spec.build()]
            noters = [(Noter(explore_discards=explore, **how), seat)]
            if opponent == "learned":
                noters.append((Noter(explore_discards=explore, **how), 1 - seat))
            for me, s in noters:
                players[s] = me
            play = hands_of(rules, players, rand.getrandbits(62), _after(noters, out))
            hands += len(run_game(rules, g % 2, play, MAX_HANDS).hands)
    return {
        "masks": np.array([m for m, _, _ in out], dtype=np.int64),
        "nums": np.array([x for _, x, _ in out], dtype=np.float32),
        "points": np.array([p for _, _, p in out], dtype=np.float32),
        "hands": hands,
        "seconds": time.perf_counter() - start,
    }


_BITS = np.arange(52, dtype=np.int64)
_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def unpack(masks: np.ndarray) -> np.ndarray:
    """(n, MASKS) card masks as (n, MASKS * 52) zeros and ones."""
    return ((masks[:, :, None] >> _BITS) & 1).reshape(len(masks), -1).astype(np.float32)


def permute(masks: np.ndarray, rand: np.random.Generator) -> np.ndarray:
    """The masks with each sample's suits permuted at random (one permutation a sample,
    the same for all its masks)."""
    suits = [(masks >> (13 * s)) & 8191 for s in range(4)]
    perms = _PERMS[rand.integers(len(_PERMS), size=len(masks))]
    out = np.zeros_like(masks)
    for s in range(4):
        out |= suits[s] << (13 * perms[:, s : s + 1])
    return out


class ValueNet:
    """Two ReLU layers and a linear output over ``WIDTH`` inputs (the numbers scaled by
    ``mean`` and ``scale``, the card bits as they are)."""

    def __init__(self, params: dict[str, np.ndarray]) -> None:
        self.p = params
        self._card_value: CardValue | None = None

    @classmethod
    def fresh(cls, nums_mean: np.ndarray, nums_scale: np.ndarray, hidden: int, rand: np.random.Generator) -> ValueNet:
        h1, h2 = hidden, hidden // 2
        return cls(
            {
                "mean": nums_mean.astype(np.float32),
                "scale": nums_scale.astype(np.float32),
                "w1": (rand.standard_normal((WIDTH, h1)) * np.sqrt(2.0 / WIDTH)).astype(np.float32),
                "b1": np.zeros(h1, np.float32),
                "w2": (rand.standard_normal((h1, h2)) * np.sqrt(2.0 / h1)).astype(np.float32),
                "b2": np.zeros(h2, np.float32),
                "w3": (rand.standard_normal(h2) * np.sqrt(1.0 / h2)).astype(np.float32),
                "b3": np.zeros(1, np.float32),
            }
        )

    def inputs(self, masks: np.ndarray, nums: np.ndarray) -> np.ndarray:
        return np.concatenate([unpack(masks), (nums - self.p["mean"]) / self.p["scale"]], axis=1)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        p = self.p
        a1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        a2 = np.maximum(a1 @ p["w2"] + p["b2"], 0.0)
        return a1, a2, a2 @ p["w3"] + p["b3"][0]

    def value(self, masks: np.ndarray, nums: np.ndarray) -> np.ndarray:
        return self.forward(self.inputs(masks, nums))[2]

    def card_value(self) -> CardValue:
        """This network as ``learned`` plays it (``ginsim.valuemodel.CardValue``, in float32
        while it trains; ``afterstates`` scores a decision's discards in one small product)."""
        if self._card_value is None:
            p = self.p
            self._card_value = CardValue(
                CARD_NUMBERS, MASKS, p["mean"], p["scale"], p["w1"], p["b1"], p["w2"], p["b2"], p["w3"], p["b3"][0]
            )
        return self._card_value

    def discard_values(self, hand: int, cards: Sequence[Card], shared: Sequence[int], nums: np.ndarray) -> np.ndarray:
        """``value`` of letting each of ``cards`` go from the 11-card ``hand`` (``shared``: the
        last three masks of ``sample_of``; ``nums``: each option's numbers), the first layer's
        shared rows added once. The arithmetic the samples were collected with, kept as it was
        so that ``make_card_value.sh`` replays them; ``CardValue.afterstates`` gives the same
        values up to rounding."""
        p = self.p
        w1 = p["w1"]
        idx: list[int] = []
        for offset, m in zip((0, 104, 156, 208), (hand, *shared), strict=True):
            while m:
                low = m & -m
                m ^= low
                idx.append(offset + low.bit_length() - 1)
        base = p["b1"] + w1[idx].sum(axis=0)
        drop = np.asarray(cards)
        scaled = (nums - p["mean"]) / p["scale"]
        pre = base + w1[52 + drop] - w1[drop] + scaled @ w1[MASKS * 52 :]
        a1 = np.maximum(pre, 0.0)
        a2 = np.maximum(a1 @ p["w2"] + p["b2"], 0.0)
        return a2 @ p["w3"] + p["b3"][0]

    def step(self, x: np.ndarray, y: np.ndarray, adam: dict[str, Any], rate: float) -> float:
        """One Adam step on the squared error of a batch; the batch's mean squared error."""
        p = self.p
        a1, a2, v = self.forward(x)
        err = v - y
        n = float(len(y))
        g3 = 2.0 * err / n
        grads = {"w3": a2.T @ g3, "b3": np.array([g3.sum()], np.float32)}
        d2 = np.outer(g3, p["w3"]) * (a2 > 0)
        grads["w2"], grads["b2"] = a1.T @ d2, d2.sum(axis=0)
        d1 = (d2 @ p["w2"].T) * (a1 > 0)
        grads["w1"], grads["b1"] = x.T @ d1, d1.sum(axis=0)
        adam["t"] += 1
        t = adam["t"]
        for key, g in grads.items():
            m = adam.setdefault("m" + key, np.zeros_like(g))
            s = adam.setdefault("s" + key, np.zeros_like(g))
            m *= 0.9
            m += 0.1 * g
            s *= 0.999
            s += 0.001 * g * g
            p[key] -= (rate * (m / (1 - 0.9**t)) / (np.sqrt(s / (1 - 0.999**t)) + 1e-8)).astype(np.float32)
        return float(np.mean(err * err))


def save_value(path: Path, net: ValueNet, meta: dict[str, Any]) -> None:
    np.savez(path, meta=np.array(json.dumps(meta)), **net.p)


def load_value(path: str | Path) -> ValueNet:
    """The network of file ``path`` (ValueError: not one)."""
    try:
        with np.load(path) as data:
            params = {k: data[k].astype(np.float32) for k in data.files if k != "meta"}
    except (OSError, ValueError, EOFError) as e:
        raise ValueError(f"value network {path}: cannot be read ({e})") from None
    need = {"mean", "scale", "w1", "b1", "w2", "b2", "w3", "b3"}
    if not need <= params.keys() or params["w1"].shape[0] != WIDTH:
        raise ValueError(f"value network {path}: not a card value network of {WIDTH} inputs")
    return ValueNet(params)


_NETS: dict[str, ValueNet] = {}


def network(path: str) -> ValueNet:
    """The network of file ``path``, read once a process."""
    if path not in _NETS:
        _NETS[path] = load_value(path)
    return _NETS[path]


def load_samples(paths: Sequence[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The samples of ``collect``'s files, one after another (ValueError: a file that is not one)."""
    parts = []
    for path in paths:
        try:
            with np.load(path) as d:
                part = (d["masks"], d["nums"], d["points"])
        except (OSError, ValueError, KeyError, EOFError) as e:
            raise ValueError(f"samples {path}: cannot be read ({e})") from None
        if part[0].shape[1:] != (MASKS,) or part[1].shape[1:] != (WIDTH - MASKS * 52,) or len(set(map(len, part))) != 1:
            raise ValueError(f"samples {path}: not samples of card_value.py collect with these features")
        parts.append(part)
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(3))  # type: ignore[return-value]


def fit(
    masks: np.ndarray, nums: np.ndarray, points: np.ndarray, hidden: int, epochs: int, seed: int, batch: int = 1024,
    rate: float = 1e-3, log: Callable[[dict[str, Any]], None] = print,
) -> ValueNet:  # fmt: skip
    """The network fitted on the first nine tenths of the samples (shuffled by ``seed``);
    each epoch's error on the last tenth is logged (held out, suits as they are). The split
    is by sample, not by hand: a hand's discards share its points and may fall on both
    sides, so the held-out error is a little kind; games are the judge."""
    rand = np.random.default_rng(seed)
    order = rand.permutation(len(points))
    cut = len(order) * 9 // 10
    train, test = order[:cut], order[cut:]
    scale = nums[train].std(axis=0)
    scale[scale < 1e-6] = 1.0
    net = ValueNet.fresh(nums[train].mean(axis=0), scale, hidden, rand)
    adam: dict[str, Any] = {"t": 0}
    x_test = net.inputs(masks[test], nums[test])
    base = float(np.mean((points[test] - points[train].mean()) ** 2))
    for epoch in range(epochs):
        rand.shuffle(train)
        total = 0.0
        for i in range(0, len(train) - batch + 1, batch):
            idx = train[i : i + batch]
            x = net.inputs(permute(masks[idx], rand), nums[idx])
            total += net.step(x, points[idx], adam, rate * (0.5 if epoch >= epochs - 1 else 1.0))
        held = float(np.mean((net.forward(x_test)[2] - points[test]) ** 2))
        log({"epoch": epoch + 1, "train_mse": total / max(1, len(train) // batch), "held_mse": held, "held_base": base})
    return net


def ship(
    model: Path, value: ValueNet, weight: float, out: Path, meta: dict[str, float], preset: str = "default"
) -> None:
    """Write to ``out`` the model file ``model`` (its heads, numbers and other card value as they
    are) with ``weight`` times ``value`` as the card value of the heads that play under
    ``preset``: ``learned.CHEAP_CARDS`` where undercuts are cheap (the default and classic
    rules), ``learned.CARDS`` elsewhere. ``learned`` playing ``out`` adds it to those heads'
    discard values, as ``Valued`` does with that weight."""
    cheap = plays_cheap(preset_rules(preset))
    key = CHEAP_CARDS if cheap else CARDS
    heads = read_model(model)[0]
    if cheap and heads.cheap is heads.heads:
        raise ValueError(f"model file {model}: under {preset} rules its cheap heads play, and it has none")
    with np.load(model, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files if not k.startswith(key + ".") and not k.startswith(f"meta.{key}.")}
    cards = value.card_value().scaled(weight)  # in float32, the precision it was fitted in
    arrays.update(cards.arrays(key))
    prefix = "" if cheap else f"{key}."  # the cheap card value's numbers kept their first names
    named = {**meta, "card_weight": weight}
    arrays.update({f"meta.{prefix}{k}": np.asarray(float(v)) for k, v in named.items()})
    with open(out, "wb") as f:
        np.savez_compressed(f, **arrays)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; a bad file, network or setting is one line on stderr and status 2."""
    try:
        return _main(argv)
    except (ValueError, OSError, StrategySpecError) as e:
        print(f"card_value.py: {e}", file=sys.stderr)
        return 2


def _main(argv: Sequence[str] | None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="play and note discards with their hands' points")
    c.add_argument("--games", type=int, required=True, help="games to 100 against each opponent, per job")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--jobs", type=int, default=1)
    c.add_argument("--explore", type=float, default=0.1)
    c.add_argument("--preset", default="default")
    c.add_argument("--model", default="", help="the model file of `learned` (default: the installed one)")
    c.add_argument("--value", default="", help="a network the noter's discards are judged by as well")
    c.add_argument("--weight", type=float, default=1.0)
    c.add_argument("--top", type=int, default=0)
    c.add_argument(
        "--opponent", action="append", default=[], help=f"whom it plays (repeat; default: {', '.join(OPPONENTS)})"
    )
    c.add_argument("--out-dir", type=Path, required=True)
    f = sub.add_parser("fit", help="train the network on collected samples")
    f.add_argument("--samples", type=Path, action="append", required=True)
    f.add_argument("--hidden", type=int, default=128)
    f.add_argument("--epochs", type=int, default=4)
    f.add_argument("--seed", type=int, required=True)
    f.add_argument("--batch", type=int, default=1024)
    f.add_argument("--rate", type=float, default=1e-3)
    f.add_argument(
        "--target", choices=("points", "equity", "td"), default="points",
        help="fit the hands' points, the change they made to the chance to win the game, or the points"
        " bootstrapped from --bootstrap's values of the next discard (value_targets.py)",
    )  # fmt: skip
    f.add_argument("--preset", default="default", help="the rules of the games, for --target equity")
    f.add_argument("--bootstrap", default="", help="the network whose values --target td bootstraps from")
    f.add_argument("--lam", type=float, default=0.5, help="lambda of --target td (1: the points)")
    f.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("ship", help="write a model file of learned with a network as its card value")
    s.add_argument("--model", type=Path, default=MODEL_FILE, help="the model file whose heads are kept")
    s.add_argument("--value", type=Path, required=True, help="the network (fit --out)")
    s.add_argument("--weight", type=float, required=True)
    s.add_argument("--preset", default="default", help="the rules whose heads it joins (default: default)")
    s.add_argument("--out", type=Path, required=True)
    a = parser.parse_args(argv)
    if a.cmd == "ship":
        if not a.weight > 0.0:
            raise ValueError("--weight must be above 0")
        preset_rules(a.preset)  # an unknown preset: one line
        net = load_value(a.value)
        with np.load(a.value) as d:
            made = json.loads(str(d["meta"])) if "meta" in d.files else {}
        meta = {f"card_{k}": float(v) for k, v in made.items() if k in ("samples", "hidden", "epochs", "seed")}
        ship(a.model, net, a.weight, a.out, meta, a.preset)
        read_model(a.out)  # it loads as learned reads it
        said = {"out": str(a.out), "bytes": a.out.stat().st_size, "preset": a.preset, "weight": a.weight, **meta}
        print(json.dumps(said))
        return 0
    if a.cmd == "collect":
        if a.games < 1 or a.jobs < 1 or not 0.0 <= a.explore <= 1.0:
            raise ValueError("--games and --jobs must be at least 1, --explore in [0, 1]")
        preset_rules(a.preset)  # an unknown preset: one line before anything is played
        if a.value:
            load_value(a.value)
        model = str(Path(a.model).resolve()) if a.model else ""
        if model:
            parse_spec(f"learned:model={model}").build()  # an unreadable model: one line
        opponents = tuple(a.opponent) or OPPONENTS
        for opponent in opponents:
            parse_spec(opponent).build()  # an unknown strategy or parameter: one line
        a.out_dir.mkdir(parents=True, exist_ok=True)
        seeds = [SeededRandom(a.seed).getrandbits(62) ^ j for j in range(a.jobs)]
        # by its module's name: a function of ``__main__`` reaches a worker by value, and a
        # strategy class defined there is not the engine's to find
        import card_value

        how = {"value": str(Path(a.value).resolve()), "weight": a.weight, "top": a.top} if a.value else None
        runs = Parallel(n_jobs=a.jobs)(
            delayed(card_value.collect)(a.games, s, a.explore, a.preset, opponents, how, model) for s in seeds
        )
        for j, run in enumerate(runs):
            hands, seconds = run.pop("hands"), run.pop("seconds")
            np.savez(a.out_dir / f"samples-{j}.npz", **run)
            print(json.dumps({"job": j, "hands": hands, "samples": len(run["points"]), "seconds": round(seconds, 1)}))
        return 0
    if a.hidden < 2 or a.epochs < 1 or a.batch < 1 or a.rate <= 0.0:
        raise ValueError("--hidden must be at least 2, --epochs and --batch at least 1, --rate above 0")
    rules = preset_rules(a.preset)  # an unknown preset: one line before the samples are read
    if (a.target == "td") != bool(a.bootstrap) or not 0.0 <= a.lam <= 1.0:
        raise ValueError("--target td needs --bootstrap (and only it), and --lam in [0, 1]")
    boot = load_value(a.bootstrap) if a.bootstrap else None
    masks, nums, points = load_samples(a.samples)
    if a.target == "equity":
        points = value_targets.equity(nums, points, rules)
    elif boot is not None:
        values = np.concatenate(
            [boot.value(masks[i : i + 65536], nums[i : i + 65536]) for i in range(0, len(points), 65536)]
        )
        points = value_targets.bootstrapped(values, nums, points, a.lam)
    net = fit(
        masks, nums, points, a.hidden, a.epochs, a.seed, a.batch, a.rate, log=lambda d: print(json.dumps(d), flush=True)
    )
    made = {"samples": len(points), "hidden": a.hidden, "epochs": a.epochs, "seed": a.seed, "target": a.target}
    if boot is not None:
        made.update(bootstrap=str(a.bootstrap), lam=a.lam)
    save_value(a.out, net, made)
    return 0


if __name__ == "__main__":
    sys.exit(main())
