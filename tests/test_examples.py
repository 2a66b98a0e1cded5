"""docs/examples/research.py, the notebook-style script of docs/python.md, runs (few hands)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_research_script_runs(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("research_example", ROOT / "docs" / "examples" / "research.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.main(hands=24, jobs=1, out_dir=tmp_path)
    printed = capsys.readouterr().out
    assert "threshold:knock_at=4" in printed and "simple" in printed
    assert out["chart"].is_file() and out["chart"].stat().st_size > 10_000
    assert sorted(out["gin_by_knock_at"].index) == [0, 2, 4, 6, 8, 10]
    kept = ginsim_run(out["kept"])
    assert kept.manifest.kind == "sweep" and len(kept.hands) == 24 * 6


def ginsim_run(folder: Path):
    import ginsim

    return ginsim.open_run(folder)
