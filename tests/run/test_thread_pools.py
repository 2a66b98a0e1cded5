"""Every process that plays holds its BLAS pool to one thread: a strategy's matrix
products are a decision's few rows, and ginsim's parallelism is its processes (``--jobs``),
so more threads would only contend with the run's other processes."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.run.worker import ChunkTask, play_chunk

BOT = '''
import numpy as np
from threadpoolctl import threadpool_info

from ginsim.strategies.simple import Simple


class Counting(Simple):
    """Plays like simple; raises (a forfeit) unless its BLAS pool has exactly one thread."""

    def discard(self, view):
        np.ones((64, 64)) @ np.ones(64)  # BLAS is loaded and used
        pools = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
        if pools != [1] * len(pools) or not pools:
            raise RuntimeError(f"BLAS threads: {pools}")
        return super().discard(view)
'''

pytestmark = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: BLAS has one thread anyway")


def _play(bot: Path, *, isolate: bool, limit: float) -> dict[str, np.ndarray]:
    task = ChunkTask(
        Rules(), parse_spec(f"{bot}:Counting"), parse_spec("simple"), 0, 4242, 3, "hands", True, 0, 3, 0,
        decision_limit=limit, isolate=isolate, secret=b"s" * 32 if isolate else b"",
    )  # fmt: skip
    with threadpool_limits(limits=2, user_api="blas"):  # the caller's pool is wider
        return play_chunk(task)


@pytest.mark.parametrize(
    ("isolate", "limit"),
    [(False, 0.0), (False, 2.0), (True, 2.0)],
    ids=["in-this-process", "forked-chunk-player", "tournament-bot"],
)
def test_a_strategy_plays_with_one_blas_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolate: bool, limit: float
) -> None:
    monkeypatch.setenv("GINSIM_BOT_USER", "root")  # a tournament bot may read the test's folder
    bot = tmp_path / "counting.py"
    bot.write_text(BOT)
    log = _play(bot, isolate=isolate, limit=limit)
    assert len(log["outcome"]) == 6
    assert not any(log["forfeit_reason"]), log["forfeit_reason"].tolist()


def test_the_callers_pool_is_given_back(tmp_path: Path) -> None:
    """A run played in this very process (the Python API, ``decision_limit=0``) leaves the
    caller's own thread count as it found it."""
    bot = tmp_path / "counting.py"
    bot.write_text(BOT)
    with threadpool_limits(limits=2, user_api="blas"):
        log = _play(bot, isolate=False, limit=0.0)
        after = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
    assert not any(log["forfeit_reason"]) and after and set(after) == {2}
