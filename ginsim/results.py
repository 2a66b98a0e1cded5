"""A run folder from Python: ``Run``, its tables as pandas frames, its charts, report and
moves, and ``open_run``. ``ginsim.match`` and the other run functions (ginsim.api) return one.
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ginsim.errors import RunError

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ginsim.analysis.tables import Analysis
    from ginsim.runfolder.records import Manifest


def open_run(folder: str | Path) -> Run:
    """A finished (or partly finished) run folder as a ``Run``; the folder is not owned
    (never deleted)."""
    from ginsim.runfolder.records import read_manifest

    path = Path(folder)
    read_manifest(path)  # one clear line if it is not a run folder
    return Run(path)


class Run:
    """A run folder and what the statistics make of it. ``summary``, ``ratings``,
    ``pairwise`` and ``hands`` are pandas frames; ``manifest`` is the typed manifest; ``plot(name, ax)``
    draws one chart (``charts`` lists them); ``report()`` is report.md's text."""

    def __init__(self, folder: Path, _owned: Path | None = None) -> None:
        self.folder = Path(folder)
        self._owned = _owned
        self._cleanup = weakref.finalize(self, shutil.rmtree, str(_owned), True) if _owned is not None else None

    def __repr__(self) -> str:
        m = self.manifest
        names = ", ".join(m.labels)
        size = f"{m.hands} hands" if m.hands is not None else f"{m.games_played} games"
        return f"<Run {m.kind} of {names}: {size} per pairing, seed {m.seed}, in {self.folder}>"

    # -- life --------------------------------------------------------------------------
    @property
    def temporary(self) -> bool:
        """Whether the folder is a temporary one this ``Run`` deletes when closed."""
        return self._owned is not None

    def close(self) -> None:
        """Delete the folder if this ``Run`` owns it (a run made without ``out``)."""
        if self._cleanup is not None:
            self._cleanup()

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def save(self, path: str | Path) -> Run:
        """Copy the run folder to ``path`` (which must not exist); the copy as a ``Run``."""
        dest = Path(path)
        if dest.exists():
            raise RunError(f"save: {dest} already exists")
        shutil.copytree(self.folder, dest)
        return Run(dest)

    # -- tables ------------------------------------------------------------------------
    @cached_property
    def analysis(self) -> Analysis:
        from ginsim.analysis.tables import analyze

        if not self.folder.is_dir():
            raise RunError(f"{self.folder}: the run folder is gone (closed?)")
        return analyze(self.folder)

    @property
    def manifest(self) -> Manifest:
        return self.analysis.manifest

    @property
    def summary(self) -> pd.DataFrame:
        """One row per strategy and opponent (summary.csv)."""
        return self.analysis.summary

    @property
    def ratings(self) -> pd.DataFrame | None:
        """Round-robins' ratings, best first (ratings.csv; None for other runs): points per
        hand in hand mode, Bradley-Terry on game wins in game mode."""
        return self.analysis.ratings

    @property
    def pairwise(self) -> pd.DataFrame | None:
        """Round-robins' head-to-head table (pairwise.csv; None for other runs): each
        meeting, the higher-rated strategy first, with its intervals and ``los``, the
        likelihood that it is the stronger of the two (docs/METRICS.md)."""
        return self.analysis.pairwise

    @cached_property
    def hands(self) -> pd.DataFrame:
        """The hand log with names (see ``ginsim.analysis.handlog.named_hands``)."""
        from ginsim.analysis.handlog import read_named_hands

        return read_named_hands(self.folder, self.manifest)

    @cached_property
    def games(self) -> pd.DataFrame:
        """Game mode: one row per game played (empty in hand mode)."""
        from ginsim.runfolder.chunks import chunk_files
        from ginsim.runfolder.records import read_games

        return read_games(chunk_files(self.folder))

    @property
    def forfeits(self) -> pd.DataFrame:
        """Each forfeit's record (forfeits/ in the folder): ``row`` of the hand log, the
        strategy and seat, kind and reason, the decision, the view as text, the traceback."""
        import pandas as pd

        from ginsim.runfolder.forfeit_files import read_forfeit_details

        return pd.DataFrame(read_forfeit_details(self.folder))

    def moves(
        self, hands: str | None = None, where: str | None = None, out: str | Path | None = None
    ) -> pd.DataFrame | Path:
        """Every decision of the chosen hands (``ginsim moves``): ``hands`` as ``"0:100"``
        or ``"3,17"`` (rows of the hand log), or ``where`` a pandas condition over the hand
        log's columns; every hand when neither. Each hand is replayed from the seeds and
        checked against the log. With ``out`` the log streams to that file (Parquet, or CSV
        for a .csv name) and its path is returned; without, a DataFrame."""
        from ginsim.terminal.moves import write_moves

        if out is not None:
            write_moves(self.folder, Path(out), hands, where)
            return Path(out)
        import pandas as pd

        with tempfile.TemporaryDirectory(prefix="ginsim-moves-") as tmp:
            path = Path(tmp) / "moves.parquet"
            write_moves(self.folder, path, hands, where)
            return pd.read_parquet(path)

    def report(self, path: bool = False) -> str | Path:
        """report.md's text (its path with ``path=True``)."""
        from ginsim.analysis.tables import REPORT

        p = self.folder / REPORT
        return p if path else p.read_text(encoding="utf-8")

    # -- charts ------------------------------------------------------------------------
    @property
    def charts(self) -> list[str]:
        """The names of this run's charts (as the files under charts/ are named)."""
        return list(self._makers)

    @cached_property
    def _makers(self) -> dict[str, Callable[[Axes | None], Figure]]:
        from ginsim.analysis.plots import chart_makers

        return chart_makers(self.analysis)

    def plot(self, name: str, ax: Axes | None = None) -> Figure:
        """Draw chart ``name`` on ``ax`` (a new figure when None); returns the figure."""
        from ginsim.engine.registry import did_you_mean

        make = self._makers.get(name)
        if make is None:
            known = ", ".join(self._makers) or "none"
            raise RunError(f"no chart {name!r} in this run (charts: {known}){did_you_mean(name, self._makers)}")
        return make(ax)
