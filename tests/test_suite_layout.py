"""The test suite's own layout: a folder per layer of the package, test files that import
shared helpers (tests/support/) and never one another, distinct names, none too long to read."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
LAYERS = {p.name for p in (ROOT / "ginsim").iterdir() if (p / "__init__.py").exists()}
FOLDERS = LAYERS | {"strategies", "public"}
"""Each layer of ginsim, the built-in strategies, and ``public`` for ginsim's own Python API."""
MAX_LINES = 600
TEST_FILES = sorted(TESTS.rglob("test_*.py"))


def test_every_test_file_sits_in_a_layer_folder_or_checks_the_whole_project() -> None:
    misplaced = [
        str(p.relative_to(TESTS))
        for p in TEST_FILES
        if p.parent != TESTS and (p.parent.parent != TESTS or p.parent.name not in FOLDERS)
    ]
    assert not misplaced, f"test files outside a layer's folder: {misplaced}"
    assert {p.parent.name for p in TEST_FILES if p.parent != TESTS} <= FOLDERS


def test_test_file_names_are_distinct_across_folders() -> None:
    twins = [name for name, n in Counter(p.name for p in TEST_FILES).items() if n > 1]
    assert not twins, f"pytest imports test files by name (the folders are not packages): {twins}"


def test_no_test_file_imports_another_test_file() -> None:
    found = []
    for p in [*TEST_FILES, *(TESTS / "support").glob("*.py")]:
        for node in ast.walk(ast.parse(p.read_text(), str(p))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [
                f"{p.relative_to(TESTS)}: {n}" for n in names if n.split(".")[0].startswith(("test_", "conftest"))
            ]
    assert not found, f"shared code belongs in tests/support/: {found}"


def test_no_test_file_is_too_long_to_read() -> None:
    long = {str(p.relative_to(TESTS)): n for p in TEST_FILES if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"test files past {MAX_LINES} lines (split them by what they check): {long}"
