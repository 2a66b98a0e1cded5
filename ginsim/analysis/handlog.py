"""The hand log of a run folder with the strategies' names (``Run.hands``), and picking a
hand from it by what happened (``ginsim replay --first/--where``, the browser's replay)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ginsim.engine.playhand import OUTCOMES
from ginsim.errors import RunError
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import Manifest, RunKind, read_chunk, read_manifest


def read_named_hands(folder: Path, manifest: Manifest) -> pd.DataFrame:
    """The named hand log of every finished chunk of ``folder`` (see ``named_hands``)."""
    return named_hands([read_chunk(f) for f in chunk_files(folder)], manifest)


def named_hands(parts: list[pd.DataFrame], manifest: Manifest) -> pd.DataFrame:
    """The hand log with the strategies' names: ``strategy_a``/``strategy_b`` (the
    pairing's two sides), ``seat0``/``seat1`` (who sat where), ``winner_name`` (missing
    when nobody won), ``points_a``/``points_b`` (the hand's points from each side: + for
    the winner, - for the loser, 0 for a draw), and for sweeps ``param``/``value``.
    Names, outcome and forfeit reason are categoricals."""
    log = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    pairings = {p.index: p for p in manifest.pairings}
    labels = list(dict.fromkeys(manifest.labels + [x for p in manifest.pairings for x in (p.label_a, p.label_b)]))
    if log.empty:
        return log
    index = log["pairing"].to_numpy()
    la = np.array([pairings[i].label_a for i in index], dtype=object)
    lb = np.array([pairings[i].label_b for i in index], dtype=object)
    seat_a = log["seat_a"].to_numpy()
    winner = log["winner"].to_numpy()
    points = log["points"].to_numpy(dtype=np.int64)
    sign = np.where(winner < 0, 0, np.where(winner == seat_a, 1, -1))

    def named(values: np.ndarray) -> pd.Categorical:
        return pd.Categorical(values, categories=labels)

    out = log.copy()
    out.insert(1, "strategy_a", named(la))
    out.insert(2, "strategy_b", named(lb))
    out["seat0"] = named(np.where(seat_a == 0, la, lb))
    out["seat1"] = named(np.where(seat_a == 0, lb, la))
    out["winner_name"] = named(np.where(winner < 0, None, np.where(winner == seat_a, la, lb)))
    out["points_a"] = sign * points
    out["points_b"] = -sign * points
    if manifest.kind == RunKind.SWEEP:
        out["param"] = manifest.param
        out["value"] = [pairings[i].value for i in index]
    if not isinstance(out["outcome"].dtype, pd.CategoricalDtype):
        out["outcome"] = pd.Categorical(out["outcome"], categories=list(OUTCOMES))
    return out


# -- picking hands by what happened ------------------------------------------------------
FIRST_CHOICES = ("forfeit", "undercut", "gin", "big_gin", "draw", "knock")
"""``ginsim replay --first``: the outcomes a hand may be picked by."""


def select_hand(folder: str | Path, first: str | None = None, where: str | None = None) -> int:
    """The row of the first hand of a run's log with outcome ``first`` and/or matching
    ``where``, a pandas query over the named hand log (``Run.hands``' columns: e.g.
    ``"outcome == 'forfeit' and points > 20"``, ``"winner_name == 'simple' and turns >
    30"``). RunError when nothing matches or the query is not valid."""
    log = read_named_hands(Path(folder), read_manifest(Path(folder)))
    if log.empty:
        raise RunError(f"{folder}: the hand log is empty (no finished chunk in hands/)")
    mask = np.ones(len(log), dtype=bool)
    said = []
    if first is not None:
        if first not in FIRST_CHOICES:
            raise RunError(f"--first: one of {', '.join(FIRST_CHOICES)}, not {first!r}")
        mask &= (log["outcome"] == first).to_numpy()
        said.append(f"outcome {first}")
    if where:
        try:
            picked = log.eval(where)
        except Exception as e:  # noqa: BLE001 - any query mistake is one line
            columns = ", ".join(log.columns)
            raise RunError(f"--where {where!r}: {type(e).__name__}: {e} (columns: {columns})") from None
        if not isinstance(picked, pd.Series) or not pd.api.types.is_bool_dtype(picked.dtype):
            raise RunError(f"--where {where!r}: not a condition (true or false for each hand)")
        mask &= picked.to_numpy()
        said.append(f"where {where}")
    rows = mask.nonzero()[0]
    if not len(rows):
        raise RunError(f"{folder}: no hand with {' and '.join(said)} among its {len(log):,} hands")
    return int(rows[0])
