"""A run's folder before play: a new one made (manifest, secret, lock), or an existing one
checked to hold this very run (or a run it grows) and taken over to resume it.

The folder of a run holds ``manifest.json`` (what was played, by which command, on what
machine) and ``hands/``; ``prepare_folder`` makes it, or checks that a folder holds the
same plan (its identity, its strategies' code, its counts' meaning, its decks) before a
run resumes into it, or grows it (ginsim.run.grow).
"""

from __future__ import annotations

import json
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from ginsim.engine import _native as native
from ginsim.engine.spec import StrategySpec
from ginsim.errors import RunError
from ginsim.outside import manifest_fields
from ginsim.run.codedigest import CodeDigest, code_changes, digest_specs
from ginsim.run.fastchunk import play_path
from ginsim.run.grow import grows, record_growth
from ginsim.run.options import Engine
from ginsim.run.runplan import RunPlan
from ginsim.runfolder import lock
from ginsim.runfolder.atomic import TMP_MARK, describe_os_error, make_dir
from ginsim.runfolder.integrity import FORMAT, GROWABLE, SUMS_DIR
from ginsim.runfolder.records import (
    FORFEITS_DIR,
    GAMES_DIR,
    HANDS_DIR,
    MANIFEST,
    Manifest,
    RunStatus,
    StrategyRecord,
    read_manifest,
    write_manifest,
)
from ginsim.runfolder.secret import SECRET, run_secret
from ginsim.version import __version__


class RunOptions(Protocol):
    """What a new manifest records of how a run is played (ginsim.run.runner.RunOptions)."""

    command: str
    jobs: int | None
    backend: str
    scheduler: str | None
    engine: Engine
    quiet: bool
    stop_rule: object | None


def now() -> str:
    """The time now, local, to the second (ISO 8601): the manifest's times."""
    return datetime.now(UTC).astimezone().isoformat(timespec="seconds")


def platform_info() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "engine": native.status(),  # compiled or pure Python (ginsim.engine._native)
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "node": platform.node(),
    }


def default_out(kind: str, base: Path = Path("results")) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = base / f"{kind}-{stamp}"
    n = 2
    while out.exists():
        out = base / f"{kind}-{stamp}-{n}"
        n += 1
    return out


def normalize(obj: Any) -> Any:
    return json.loads(json.dumps(obj, default=str))


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    keys = sorted(set(old) | set(new))
    return [k for k in keys if old.get(k) != new.get(k)]


def _unstarted(out: Path) -> bool:
    """Whether ``out`` is a folder a run was interrupted in before it wrote its manifest:
    nothing but an empty ``hands/``, the lock, the secret, temporary files. The same
    command then starts the run there afresh."""
    if (out / MANIFEST).exists() or lock.holder(out) is not None:
        return False
    for entry in out.iterdir():
        if entry.name == HANDS_DIR and entry.is_dir() and not any(entry.iterdir()):
            continue
        if entry.name in (lock.LOCK, SECRET) or TMP_MARK in entry.name:
            continue
        return False
    (out / SECRET).unlink(missing_ok=True)  # no chunk was dealt with it: a new run, a new secret
    return True


def prepare_folder(plan: RunPlan, out: Path, opts: RunOptions) -> tuple[Manifest, bool, lock.FolderLock]:
    """Create a new run folder, or check that an existing one holds this very plan (or one
    it grows into); either way take its lock. Returns the manifest, whether the run
    resumes, and the lock."""
    digests = digest_specs(_labelled_specs(plan))
    identity = normalize({**plan.identity(), "code": {label: d.digest for label, d in digests.items()}})
    if out.exists() and not out.is_dir():
        raise RunError.about("{out} {path}: exists and is not a folder", path=out)
    if out.is_dir() and any(out.iterdir()) and not _unstarted(out):
        busy = lock.holder(out)
        if busy is not None:
            raise lock.busy_error(out, busy)
        manifest = read_manifest(out)
        _check_same_run(plan, out, manifest, identity, digests)
        held = lock.acquire(out)
        try:
            manifest = read_manifest(out)  # as the last holder left it
            _check_same_run(plan, out, manifest, identity, digests)
            if manifest.identity != identity:  # the run grows (ginsim.run.grow)
                _grow(plan, out, manifest, identity, opts, digests)
            _remove_stale_temporaries(out)
            manifest.resumed.append(now())
            manifest.finished = None
            manifest.status = RunStatus.RUNNING
            write_manifest(out, manifest)
        except BaseException:
            held.release()
            raise
        return manifest, True, held
    make_dir(out / HANDS_DIR, f"--out {out}")
    held = lock.acquire(out)
    try:
        manifest = _new_manifest(plan, identity, opts, digests)
        if manifest.isolate:
            run_secret(out, create=True)  # before the manifest: a folder with one has its secret
        write_manifest(out, manifest)
    except BaseException:
        held.release()
        raise
    return manifest, False, held


def _labelled_specs(plan: RunPlan) -> list[tuple[str, StrategySpec]]:
    return [pair for p in plan.pairings for pair in ((p.label_a, p.a), (p.label_b, p.b))]


def _grow(
    plan: RunPlan,
    out: Path,
    manifest: Manifest,
    identity: dict[str, Any],
    opts: RunOptions,
    digests: dict[str, CodeDigest],
) -> None:
    """Bring the folder's manifest to the grown plan, and say so."""
    if opts.stop_rule is not None or manifest.stopped:
        raise RunError.about(
            "{out} {path}: a run stopped by a sequential test does not grow; use another {out}", path=out
        )
    said = record_growth(manifest, plan, identity, opts.command)
    manifest.strategies = _strategies(plan, digests)
    if not opts.quiet:
        print(f"ginsim: growing {out}: {said}; only the new chunks are played", file=sys.stderr, flush=True)


def _check_same_run(
    plan: RunPlan, out: Path, manifest: Manifest, identity: dict[str, Any], digests: dict[str, CodeDigest]
) -> None:
    if manifest.format < FORMAT:  # its counts meant something else: resuming would mix two meanings
        raise RunError.about(
            "{out} {path} was written when {games} counted deals (run-folder format {old}, now {new}: "
            "{hands} and {games} count what is played); it cannot be resumed: use another {out}",
            path=out,
            old=manifest.format,
            new=FORMAT,
        )
    if manifest.ginsim != __version__:
        raise RunError.about(
            "{out} {path} was written by ginsim {old}, this is {new}; use another {out}",
            path=out,
            old=manifest.ginsim,
            new=__version__,
        )
    changed = code_changes(manifest, digests)
    if changed:
        raise RunError.about(
            "{out} {path}: the code of {what} changed since the run was played; its hands would mix two "
            "versions: use another {out} to play the new code, or delete {path} to start afresh",
            path=out,
            what=changed,
        )
    if manifest.identity != identity and not grows(manifest.identity, identity):
        _check_decks(out, manifest, identity)
        old_preset = manifest.preset
        if old_preset != plan.rules.preset:  # R27: a run folder keeps its preset
            raise RunError.about(
                "{out} {path} was made under the {old!r} rules, not {new!r}; use another {out} or the same rules",
                path=out,
                old=old_preset,
                new=plan.rules.preset,
            )
        found = _differences(manifest.identity, identity)
        diff = ", ".join([k for k in found if k not in GROWABLE] or found)  # what made it another run
        raise RunError.about(
            "{out} {path} holds a different run (differs in: {diff}); use another {out} or the same command",
            path=out,
            diff=diff,
        )


def _check_decks(out: Path, manifest: Manifest, identity: dict[str, Any]) -> None:
    """A tournament folder dealt otherwise than this command would deal: one line saying
    which option resumes it."""
    if not manifest.isolate or not identity.get("extra", {}).get("isolate"):
        return
    old = manifest.identity.get("extra", {}).get("decks")
    new = identity["extra"].get("decks")
    if old == new:
        return
    if old is None:
        raise RunError.about(
            "{out} {path} was played with the same decks for every pairing: add --shared-decks to resume it, "
            "or use another {out}",
            path=out,
        )
    raise RunError.about(
        "{out} {path} was played with decks of its own for each pairing: drop --shared-decks to resume it, "
        "or use another {out}",
        path=out,
    )


def _remove_stale_temporaries(out: Path) -> None:
    """Temporary files of writes a killed run left (we hold the lock: none is live)."""
    for d in (out, out / HANDS_DIR, out / GAMES_DIR, out / SUMS_DIR, out / FORFEITS_DIR, out / "charts"):
        for stale in d.glob(f"*{TMP_MARK}*"):
            try:
                stale.unlink(missing_ok=True)
            except OSError as e:
                raise RunError(f"{stale}: cannot delete it ({describe_os_error(e)})") from None


def _new_manifest(
    plan: RunPlan, identity: dict[str, Any], opts: RunOptions, digests: dict[str, CodeDigest]
) -> Manifest:
    return Manifest(
        ginsim=__version__,
        command=opts.command,
        kind=plan.kind,
        started=now(),
        status=RunStatus.RUNNING,
        strategies=(strategies := _strategies(plan, digests)),
        reproducible=all((s.outside or {}).get("reproducible", True) for s in strategies),
        pairings=[p.record() for p in plan.pairings],
        preset=plan.rules.preset,
        rules=plan.rules.to_dict(),
        rules_differ=plan.rules.differences(),
        clock=plan.rules.time_per_hand is not None,
        seed=plan.seed,
        hands=plan.hands,
        games=plan.games,
        duplicate=plan.duplicate,
        chunk=plan.chunk,
        chunks=len(plan.chunks()),
        jobs=opts.jobs,
        backend=opts.backend,
        scheduler=opts.scheduler,
        cwd=os.getcwd(),
        platform={**platform_info(), "play_path": _play_path(plan, opts.engine)},
        identity=identity,
        param=plan.swept.param if plan.swept is not None else None,
        base=plan.swept.base if plan.swept is not None else None,
        isolate=plan.isolate,
        format=FORMAT,
    )


def _play_path(plan: RunPlan, engine: Engine) -> str:
    if plan.isolate:  # the stand-ins of tournament mode play through the general engine
        return "general (tournament mode: each strategy in its own process)"
    return play_path(plan.rules, [(p.a, p.b) for p in plan.pairings], engine)


def _strategies(plan: RunPlan, digests: dict[str, CodeDigest]) -> list[StrategyRecord]:
    seen: dict[str, StrategyRecord] = {}
    for p in plan.pairings:
        for spec, label in ((p.a, p.label_a), (p.b, p.label_b)):
            if label not in seen:
                params = {**spec.defaults(), **spec.params}
                # a spec checked in its own process (tournament mode) brought its notes along
                outside = spec.facts.outside if spec.facts else manifest_fields(spec.load_class()).get("outside")
                code = digests[label].to_dict() if label in digests else None
                seen[label] = StrategyRecord(label, spec.text, spec.target, normalize(params), outside, code)
    return list(seen.values())
