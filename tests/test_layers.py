"""The layers' import contract: pyproject.toml's [tool.importlinter] contracts hold, no
module of ginsim is in an import circle, and the built-in strategies import only the
plugins' surface.

import-linter reads the package from ginsim/; ginsim.strategies lives in strategies/
(package-dir), where it does not look, so the plugins' imports are read here from their
source, lazy imports inside functions included.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = ROOT / "strategies"
PLUGIN_SURFACE = {
    "ginsim",
    "ginsim.cards",
    "ginsim.opponent",
    "ginsim.playout",
    "ginsim.rollout",
    "ginsim.sampling",
    "ginsim.strategy",
    "ginsim.valuemodel",
    "ginsim.view",
}
"""What a strategy may import of ginsim, besides ginsim.strategies itself."""


def _lint_imports() -> str:
    here = Path(sys.executable).with_name("lint-imports")
    exe = str(here) if here.exists() else shutil.which("lint-imports")
    assert exe is not None, "lint-imports (import-linter, of the test extra) is not installed"
    done = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"the import contract of pyproject.toml is broken:\n{out}"
    return out


def test_the_import_contract_is_kept() -> None:
    out = _lint_imports()
    assert "0 broken" in out and "5 kept" in out, out


def test_no_module_of_ginsim_is_in_an_import_circle() -> None:
    """Stricter than the contract's acyclic_siblings, which compares siblings only: no
    module reaches back to one that imports it, a package and its own modules included."""
    graph = grimp.build_graph("ginsim", cache_dir=None)
    circles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                circles.append(" -> ".join((importer, *back)))
    assert not circles, "import circles:\n" + "\n".join(circles)


def _plugin_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every ginsim import in a strategy's source, at any depth."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: a neighbour in ginsim.strategies
                found.append((node.lineno, "ginsim.strategies." + (node.module or "")))
                continue
            module = node.module or ""
            found.append((node.lineno, module))
            if module == "ginsim":  # ``from ginsim import engine`` imports a submodule
                found += [(node.lineno, f"ginsim.{a.name}") for a in node.names if _is_module(a.name)]
    return [(line, m) for line, m in found if m == "ginsim" or m.startswith("ginsim.")]


def _is_module(name: str) -> bool:
    return (ROOT / "ginsim" / name).is_dir() or (ROOT / "ginsim" / f"{name}.py").is_file()


def test_the_built_in_strategies_import_only_the_plugin_surface() -> None:
    wrong = []
    neighbours: dict[str, set[str]] = {}
    for path in sorted(PLUGINS.glob("*.py")):
        name = "ginsim.strategies" + ("" if path.stem == "__init__" else f".{path.stem}")
        neighbours[name] = set()
        for line, module in _plugin_imports(path):
            if module == "ginsim.strategies" or module.startswith("ginsim.strategies."):
                neighbours[name].add(module)
            elif module not in PLUGIN_SURFACE:
                wrong.append(f"strategies/{path.name}:{line} imports {module}")
    assert not wrong, "a strategy imports past ginsim's plugin surface:\n" + "\n".join(wrong)
    assert len(neighbours) > 5
    for start in neighbours:  # and no circle among them
        seen, todo = set(), list(neighbours[start])
        while todo:
            module = todo.pop()
            assert module != start, f"an import circle through {start}"
            if module not in seen:
                seen.add(module)
                todo += neighbours.get(module, ())
