"""The test tree itself: pytest imports test modules by basename (rootdir mode, no
packages), so two test files with one name break collection of the whole suite."""

from __future__ import annotations

from collections import Counter
from pathlib import Path


def test_test_module_basenames_are_unique() -> None:
    tests = Path(__file__).resolve().parent
    names = Counter(p.name for p in tests.rglob("test_*.py"))
    clashes = sorted(n for n, c in names.items() if c > 1)
    assert not clashes, f"test files sharing a basename (rename one): {clashes}"
