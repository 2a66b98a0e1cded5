"""Build ginsim, compiling the engine's hot modules with mypyc when it can.

The hot modules (``HOT`` of ``ginsim/engine/_native.py``, read here without importing
ginsim) are plain, typed Python and run as such; mypyc turns them into C
extensions that load in their place and play hands about three times as fast. Without a C
compiler, or with GINSIM_PURE=1 set at install time, the build is pure Python and
nothing else changes. ``ginsim/engine/_compiled.json`` records what was compiled from which
source (by hash), so that ``ginsim.engine._native`` never loads a compiled module older than
its source.

Every file the build writes stays out of the source folders: mypyc's C sources, setuptools'
objects and, in an editable install (``pip install -e .``), the compiled modules
themselves go under ``build/`` (ignored by git). The record then names that folder, and
``ginsim.engine._native`` loads the compiled modules from there. A regular install puts
them into the installed package, as any compiled package does.
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
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINE = ROOT / "ginsim" / "engine"
RECORD = ENGINE / "_compiled.json"
BUILD = "build"
"""Where mypyc writes its C sources (relative to ROOT; ignored by git)."""
EDITABLE = Path(BUILD, "editable")
"""Where an editable install keeps its compiled modules, as package folders (relative to ROOT)."""
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}
"""The setup commands that build modules (pip runs others first, for metadata)."""


def _hot_modules() -> tuple[str, ...]:
    """The ``HOT`` tuple of ginsim/engine/_native.py (the one place the list is written)."""
    for node in ast.parse((ENGINE / "_native.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "HOT" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise SystemExit("setup.py: no HOT tuple in ginsim/engine/_native.py")


HOT = _hot_modules()


def _source(name: str) -> str:
    """A hot module's source, relative to ginsim/engine (``kernel.bits``: ``kernel/bits.py``;
    ``ginsim.engine._native.source_name``, which setup.py cannot import)."""
    return name.replace(".", "/") + ".py"


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
    sources = [f"ginsim/engine/{_source(name)}" for name in HOT]
    # the build environment holds setuptools and mypy only: modules the hot ones reach only
    # through lazy imports elsewhere (numpy, pandas) are treated as untyped, not missing
    extensions = mypycify(
        ["--ignore-missing-imports", f"--cache-dir={BUILD}/mypy_cache", *sources],
        opt_level="3",
        group_name="ginsim",
        target_dir=BUILD,
    )
    for ext in extensions:
        ext.optional = True  # a compiler that fails leaves the sources to run
    RECORD.write_text(
        json.dumps(
            {
                "compiler": f"mypyc {mypy.version.__version__}",
                "sources": {_source(name): _digest(ENGINE / _source(name)) for name in HOT},
            },
            indent=1,
        )
        + "\n"
    )
    return extensions


class BuildExt(build_ext):
    """setuptools' build_ext, but an editable install's modules go to ``build/editable``.

    setuptools copies them beside their sources (``ginsim/engine/*.so`` and a top-level
    ``ginsim__mypyc*.so``); here they go to EDITABLE, in the same package folders, and the
    build record says where, for ``ginsim.engine._native`` to find them.
    """

    def copy_extensions_to_source(self) -> None:
        target = ROOT / EDITABLE
        shutil.rmtree(target, ignore_errors=True)
        copied = False
        for ext in self.extensions:
            relative = Path(self.get_ext_filename(self.get_ext_fullname(ext.name)))
            (ROOT / relative).unlink(missing_ok=True)  # left beside the sources by an older build
            built = Path(self.build_lib, relative)
            if not built.exists():
                continue  # an optional extension that failed to compile: its source runs
            dest = target / relative
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(built, dest)
            copied = True
        if copied and RECORD.exists():
            record = json.loads(RECORD.read_text(encoding="utf-8"))
            record["folder"] = EDITABLE.as_posix()
            RECORD.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=_compiled_extensions(),
)  # package data: pyproject.toml's [tool.setuptools.package-data], which would override a list here
