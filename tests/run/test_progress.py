"""Progress when stderr is not a terminal: a line at a steady interval, one at the end;
--quiet shows nothing."""

from __future__ import annotations

import re
import time
from pathlib import Path

from ginsim.run.progress import LineProgress

LINE = re.compile(r"ginsim: playing: [\d,]+ of 4,000 hands \(\d+\.\d%\)(, [\d,]+ hands/s, about \d+:\d\d left)?")


def test_lines_come_at_the_interval_however_long_a_chunk_takes() -> None:
    lines: list[str] = []
    p = LineProgress(4000, 1000, "hands", 0.05, lines.append)
    p.update(500)
    time.sleep(0.3)  # no chunk finishes here: the lines still come
    p.update(2500)
    p.close()
    ticks = lines[:-1]
    assert len(ticks) >= 3 and all(LINE.fullmatch(t) for t in ticks), lines
    assert ticks[0].startswith("ginsim: playing: 1,500 of 4,000 hands (37.5%), ")
    assert re.fullmatch(r"ginsim: playing: done: 4,000 of 4,000 hands; 3,000 played in 0:00", lines[-1])


def test_a_run_without_a_terminal_writes_progress_lines(run_cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GINSIM_PROGRESS_EVERY", "0.01")
    args = ["match", "simple", "random", "--hands", "2000", "--chunk", "100", "--jobs", "1", "--no-plots"]
    r = run_cli(*args, "--out", str(tmp_path / "a"))  # stderr is captured: not a terminal
    assert r.code == 0, r.err
    lines = [x for x in r.err.splitlines() if x.startswith("ginsim: playing:")]
    assert lines and lines[-1].startswith("ginsim: playing: done: 2,000 of 2,000 hands; 2,000 played in ")
    q = run_cli(*args, "-q", "--out", str(tmp_path / "b"))
    assert q.code == 0 and q.err == ""
