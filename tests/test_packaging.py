"""A regular install (a wheel) holds every file ginsim reads at run time besides its modules:
pyproject.toml's package-data table names them all (setuptools lets that table override a
``package_data`` of setup.py, which is why setup.py passes none), the files the checkout
tracks each match a pattern of their package, and so does the build record that tells the
compiled engine's modules from their sources (``ginsim/engine/_compiled.json``, written by
the build)."""

from __future__ import annotations

import ast
import subprocess
import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def _package_of(path: str) -> tuple[str, str]:
    """The package that holds a file of the checkout, and the file's path inside it."""
    folders = {pkg: TOOL.get("package-dir", {}).get(pkg, pkg.replace(".", "/")) for pkg in TOOL["packages"]}
    best = max((f for f in folders.values() if path.startswith(f + "/")), key=len)
    package = next(pkg for pkg, f in folders.items() if f == best)
    return package, path[len(best) + 1 :]


def _packaged(path: str) -> bool:
    package, inside = _package_of(path)
    return any(fnmatch(inside, pattern) for pattern in TOOL["package-data"].get(package, []))


def test_every_data_file_of_the_packages_is_package_data() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "ginsim", "strategies"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    data = [p for p in tracked if not p.endswith(".py")]
    assert "ginsim/outside/java/GinsimHost.java" in data and "strategies/learned.npz" in data
    missing = [p for p in [*data, "ginsim/engine/_compiled.json"] if not _packaged(p)]
    assert not missing, f"files a wheel would leave out (add them to [tool.setuptools.package-data]): {missing}"


def test_setup_py_passes_no_package_data_that_pyproject_would_override() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    keywords = {k.arg for node in ast.walk(tree) if isinstance(node, ast.Call) for k in node.keywords}
    assert "ext_modules" in keywords and "package_data" not in keywords
