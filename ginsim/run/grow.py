"""Runs that grow: a run folder played again with a larger ``--hands``/``--games``, or (a
round-robin) with one more entrant, keeps every chunk it holds and plays only what is new.

Deals are seeded by their index and every pairing meets the same deals, so a grown run's
hand log equals, hand for hand, the log of the larger run played in one go: the new
deals of the old pairings follow the old ones (chunks restart at the old count, kept in
the identity's ``bounds``), and new pairings take the next indices. The folder keeps its
chunk size and its pairings' order; a smaller count, or any other change (rules, seed,
duplicate deals, tournament mode), is still another run, refused by the runner's checks."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ginsim.errors import RunError
from ginsim.run.runplan import RunPlan
from ginsim.runfolder.integrity import GROWABLE
from ginsim.runfolder.records import MANIFEST, Manifest, RunKind, read_manifest

ENTRANTS_GROW = (RunKind.ROUNDROBIN, RunKind.GAUNTLET)
"""The kinds of run a new entrant (an opponent, for a gauntlet) grows."""


def _normalize(obj: Any) -> Any:
    return json.loads(json.dumps(obj, default=str))


def _pairing_key(record: dict[str, Any]) -> str:
    """A pairing as the folder keeps it, without its index."""
    return json.dumps({k: v for k, v in record.items() if k != "index"}, sort_keys=True, default=str)


def _base(identity: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in identity.items() if k not in GROWABLE}


def grows(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether identity ``new`` is identity ``old`` grown: the same run but for the parts
    it may grow in, every old pairing still there, no smaller count (the code of the old
    entrants, when the identity holds it, unchanged)."""
    if _base(old) != _base(new) or (old.get("hands") is None) != (new.get("hands") is None):
        return False
    count = "hands" if old.get("hands") is not None else "games"
    if new[count] < old[count] or old.get("chunk") != new.get("chunk"):
        return False
    bounds = list(old.get("bounds", []))
    if list(new.get("bounds", []))[: len(bounds)] != bounds:
        return False
    code_old, code_new = old.get("code", {}), new.get("code", {})
    if any(code_new.get(label) != digest for label, digest in code_old.items()):
        return False
    kept = [_pairing_key(p) for p in new.get("pairings", [])]
    return [_pairing_key(p) for p in old.get("pairings", [])] == kept[: len(old.get("pairings", []))]


def grown_plan(plan: RunPlan, folder: Path | None) -> RunPlan:
    """``plan`` laid out as the run in ``folder`` grows into it (its pairings first, in
    their order, then the new ones; its chunk size; ``bounds`` where it stopped before),
    or ``plan`` itself when the folder holds no run or another run (the runner says which).
    RunError when the folder holds this run with a larger count or an entrant ``plan``
    lacks: a run grows, never shrinks."""
    if folder is None or not (folder / MANIFEST).is_file():
        return plan
    try:
        m = read_manifest(folder)
    except RunError:
        return plan  # not readable: the runner's own checks say so
    new = _normalize(plan.identity())
    if _base(m.identity) != _base(new) or m.mode != plan.mode or (plan.chunk_given and plan.chunk != m.chunk):
        return plan
    old_count = m.hands if m.hands is not None else m.games
    new_count = plan.hands if plan.hands is not None else plan.games
    assert old_count is not None and new_count is not None
    what = m.mode
    if new_count < old_count:
        raise RunError.about(
            "{out} {path} holds {old:,} " + what + " per pairing; a run grows, never shrinks: ask for "
            "{old:,} or more, or use another {out}",
            path=folder,
            old=old_count,
        )
    by_key = {_pairing_key(p.to_dict()): p for p in plan.pairings}
    old_keys = [_pairing_key(p.to_dict()) for p in m.pairings]
    if any(k not in by_key for k in old_keys):
        return plan  # an entrant left, or another match: another run
    if len(by_key) > len(old_keys) and m.kind not in ENTRANTS_GROW:
        return plan
    kept = [dataclasses.replace(by_key[k], index=i) for i, k in enumerate(old_keys)]
    added = [p for k, p in by_key.items() if k not in set(old_keys)]
    pairings = tuple(kept + [dataclasses.replace(p, index=len(kept) + i) for i, p in enumerate(added)])
    bounds = tuple(m.bounds)
    old_units = m.units
    grown = dataclasses.replace(plan, pairings=pairings, chunk=m.chunk, bounds=bounds)
    if grown.units > old_units:
        grown = dataclasses.replace(grown, bounds=(*bounds, old_units))
    return grown


def record_growth(manifest: Manifest, plan: RunPlan, identity: dict[str, Any], command: str) -> str:
    """Bring ``manifest`` to the grown ``plan`` (counts, pairings, chunks, identity) and
    note the extension in its ``extensions``; returns one line saying what grew."""
    old_count = manifest.hands if manifest.hands is not None else manifest.games
    new_count = plan.hands if plan.hands is not None else plan.games
    added = len(plan.pairings) - len(manifest.pairings)
    said = []
    if new_count != old_count:
        said.append(f"{old_count:,} → {new_count:,} {plan.mode} per pairing")
    if added:
        said.append(f"{added} new pairing{'s' if added != 1 else ''}")
    manifest.extensions.append(
        {
            "at": datetime.now(UTC).astimezone().isoformat(timespec="seconds"),
            "command": command,
            plan.mode: [old_count, new_count],
            "pairings": [len(manifest.pairings), len(plan.pairings)],
        }
    )
    manifest.hands, manifest.games = plan.hands, plan.games
    manifest.pairings = [p.record() for p in plan.pairings]
    manifest.chunks = len(plan.chunks())
    manifest.identity = identity
    return ", ".join(said)
