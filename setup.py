"""Build ginsim, compiling the engine's hot modules with mypyc when it can.

The hot modules (``HOT`` of ``ginsim/engine/_native.py``, read here without importing
ginsim) are plain, typed Python and run as such; mypyc turns them into C
extensions that load in their place and play hands about three times as fast. Without a C
compiler, or with GINSIM_PURE=1 set at install time, the build is pure Python and
nothing else changes. ``ginsim/engine/_compiled.json`` records what was compiled from which
source (by hash), so that ``ginsim.engine._native`` never loads a compiled module older than
its source.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
ENGINE = ROOT / "ginsim" / "engine"
RECORD = ENGINE / "_compiled.json"
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}
"""The setup commands that build modules (pip runs others first, for metadata)."""


def _hot_modules() -> tuple[str, ...]:
    """The ``HOT`` tuple of ginsim/engine/_native.py (the one place the list is written)."""
    for node in ast.parse((ENGINE / "_native.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "HOT" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise SystemExit("setup.py: no HOT tuple in ginsim/engine/_native.py")


HOT = _hot_modules()


def _pure_wanted() -> bool:
    return os.environ.get("GINSIM_PURE", "") not in ("", "0")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _compiled_extensions() -> list[Extension]:
    if not BUILDS & set(sys.argv[1:]):
        return []  # metadata or a source archive: nothing to compile
    RECORD.unlink(missing_ok=True)
    if _pure_wanted():
        return []
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        print(f"ginsim: no C compiler ({cc}), building pure Python", file=sys.stderr)
        return []
    try:
        import mypy.version
        from mypyc.build import mypycify
    except ImportError:
        print("ginsim: mypyc not available, building pure Python", file=sys.stderr)
        return []
    os.chdir(ROOT)  # mypyc names modules by their paths relative to here
    sources = [f"ginsim/engine/{name}.py" for name in HOT]
    # the build environment holds setuptools and mypy only: modules the hot ones reach only
    # through lazy imports elsewhere (numpy, pandas) are treated as untyped, not missing
    extensions = mypycify(["--ignore-missing-imports", *sources], opt_level="3", group_name="ginsim")
    for ext in extensions:
        ext.optional = True  # a compiler that fails leaves the sources to run
    RECORD.write_text(
        json.dumps(
            {
                "compiler": f"mypyc {mypy.version.__version__}",
                "sources": {f"{name}.py": _digest(ENGINE / f"{name}.py") for name in HOT},
            },
            indent=1,
        )
        + "\n"
    )
    return extensions


setup(
    ext_modules=_compiled_extensions(),
    package_data={"ginsim": ["py.typed"], "ginsim.engine": ["_compiled.json"], "ginsim.outside": ["java/*.java"]},
)
