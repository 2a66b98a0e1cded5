"""The documentation site (mkdocs.yml, docs/) builds with ``mkdocs build --strict``: a
broken link, a missing page or anchor, or a docstring mkdocstrings cannot render fails
the build, and the API reference holds the public Python API and the strategy API."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NEEDED = ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python")


def _missing() -> list[str]:
    out = []
    for name in NEEDED:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            out.append(name)
    return out


pytestmark = pytest.mark.skipif(
    bool(_missing()), reason=f"the docs tools are not installed ({', '.join(_missing())}): pip install -e '.[docs]'"
)


def _build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)


REFERENCE = {
    "api/python": (
        "ginsim.api.match",
        "ginsim.api.roundrobin",
        "ginsim.api.sweep",
        "ginsim.api.open_run",
        "ginsim.api.Run.summary",
        "ginsim.hands.play_hand",
        "ginsim.hands.play_game",
        "ginsim.testing.StrategyContract",
    ),
    "api/strategy": (
        "ginsim.engine.strategy.Strategy.take_upcard",
        "ginsim.engine.view.PlayerView.best_discards",
        "ginsim.engine.cards.parse_card",
        "ginsim.engine.playout.playout",
    ),
}
"""Each API reference page and entries it must document (their anchors in the built page)."""


def test_the_site_builds_strictly_with_the_api_reference(tmp_path: Path) -> None:
    done = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr
    for page, anchors in REFERENCE.items():
        html = (tmp_path / "site" / page / "index.html").read_text(encoding="utf-8")
        missing = [a for a in anchors if f'id="{a}"' not in html]
        assert not missing, (page, missing)
    assert (tmp_path / "site" / "index.html").is_file()


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """The same configuration over a copy of docs/ with one link to a page that is not there."""
    docs = tmp_path / "docs"
    subprocess.run(["cp", "-r", str(ROOT / "docs"), str(docs)], check=True)
    page = docs / "dask.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n", encoding="utf-8")
    config = ROOT / "mkdocs.yml"
    text = config.read_text(encoding="utf-8").replace("docs_dir: docs", f"docs_dir: {docs}")
    copy = tmp_path / "mkdocs.yml"
    copy.write_text(text.replace("paths: [.]", f"paths: [{ROOT}]"), encoding="utf-8")
    done = _build(copy, tmp_path / "site")
    assert done.returncode != 0
    assert "no-such-page.md" in done.stderr
