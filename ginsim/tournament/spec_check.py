"""Checking strategy specs without importing them: tournament mode's spec check.

Checking a spec (``parse_spec``: the class found, its parameters read and converted, one
instance built) imports the strategy's module, which runs its code. In tournament mode
(``--isolate``) the referee must run no bot code at all, so each spec that would import
outside code (``imports_outside_code``: a plugin, ``package.module:Class``,
``file.py:Class``) is checked in a process of its own (ginsim.tournament.spec_host), started
as a bot's process is (ginsim.tournament.referee: minimal environment, the bot user when run as
root). The referee gets back plain facts (``SpecFacts``) or the very error line
``parse_spec`` would give, and raises that as a StrategySpecError: the command stops with
one line and exit status 2, before any run folder is written. Built-in strategies are
ginsim's own code and are checked in place.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
from collections.abc import Sequence
from typing import Any

from ginsim.engine.spec import SpecFacts, StrategySpec, imports_outside_code, parse_spec
from ginsim.errors import StrategySpecError, one_line
from ginsim.tournament.bot_process import START_TIMEOUT
from ginsim.tournament.processes import Jail, end_process, read_bounded, spec_files, start_bot_process
from ginsim.tournament.spec_host import MARK

OUTPUT_LIMIT = 1 << 20
"""Bytes of a check's output kept (the first of stdout, the last of stderr)."""


def parse_specs(texts: Sequence[str], isolate: bool) -> list[StrategySpec]:
    """``parse_spec`` of each text; in tournament mode, the ones that import outside code
    are checked in processes of their own (one per spec, started together)."""
    if not isolate:
        return [parse_spec(t) for t in texts]
    apart = [t for t in dict.fromkeys(texts) if imports_outside_code(t)]
    checked = dict(zip(apart, _check_each(apart), strict=True))
    return [checked[t] if t in checked else parse_spec(t) for t in texts]


def check_together(texts: Sequence[str]) -> list[StrategySpec]:
    """Specs of one strategy (a sweep's values) checked in one process of their own."""
    return _check([list(texts)])[0] if texts else []


def _check_each(texts: Sequence[str]) -> list[StrategySpec]:
    return [group[0] for group in _check([[t] for t in texts])]


def _check(groups: list[list[str]]) -> list[list[StrategySpec]]:
    """Each group's specs checked in a process of its own, the processes run at once."""
    procs: list[tuple[subprocess.Popen[bytes], Jail]] = []
    try:
        for group in groups:
            procs.append(_start(group))
        return [_answer(group, proc) for group, (proc, _) in zip(groups, procs, strict=True)]
    finally:
        for proc, jail in procs:
            end_process(proc, jail)


def _start(texts: list[str]) -> tuple[subprocess.Popen[bytes], Jail]:
    proc, jail = start_bot_process(
        "ginsim.tournament.spec_host", subprocess.PIPE, "a process to check the strategies", reach=spec_files(texts)
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write((json.dumps({"specs": texts}) + "\n").encode())
        proc.stdin.flush()  # one line is the whole request; communicate() closes the pipe
    except OSError:  # it died at once: its exit status says why, below
        pass
    with contextlib.suppress(OSError):
        proc.stdin.close()
    return proc, jail


def _answer(texts: list[str], proc: subprocess.Popen[bytes]) -> list[StrategySpec]:
    what = texts[0] if len(texts) == 1 else f"{texts[0]} (and {len(texts) - 1} more)"
    out, err, in_time = read_bounded(proc, START_TIMEOUT, OUTPUT_LIMIT)
    if not in_time:
        raise StrategySpecError(
            f"strategy {what!r}: checking it took more than {START_TIMEOUT:g}s (in its own process, --isolate)"
        ) from None
    lines = [line for line in out.decode(errors="replace").splitlines() if line.startswith(MARK)]
    results: Any = None
    if lines:
        try:
            results = json.loads(lines[-1][len(MARK) :])
        except (ValueError, RecursionError):
            results = None
    if not isinstance(results, list) or len(results) != len(texts):
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        last = one_line((err.decode(errors="replace").strip().splitlines() or [""])[-1][:200])
        raise StrategySpecError(
            f"strategy {what!r}: its check ended without an answer (exit status {proc.returncode}"
            + (f": {last}" if last else "")
            + "; checked in its own process, --isolate)"
        )
    return [_spec(text, r) for text, r in zip(texts, results, strict=True)]


def _spec(text: str, r: Any) -> StrategySpec:
    """The referee's spec from the check's answer (an error line raised as it came)."""
    if not isinstance(r, dict):
        raise StrategySpecError(f"strategy {text!r}: its check answered nonsense (--isolate)")
    if "error" in r:
        raise StrategySpecError(str(r["error"]))
    try:
        facts = SpecFacts(dict(r["defaults"]), str(r["name"]), r["outside"] if isinstance(r["outside"], dict) else None)
        return StrategySpec(text.strip(), str(r["target"]), dict(r["params"]), facts)
    except (KeyError, TypeError, ValueError):
        raise StrategySpecError(f"strategy {text!r}: its check answered nonsense (--isolate)") from None
