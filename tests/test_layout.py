"""The test tree itself, and the code's lint: pytest imports test modules by basename (rootdir mode, no
packages), so two test files with one name break collection of the whole suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path


def test_test_module_basenames_are_unique() -> None:
    tests = Path(__file__).resolve().parent
    names = Counter(p.name for p in tests.rglob("test_*.py"))
    clashes = sorted(n for n, c in names.items() if c > 1)
    assert not clashes, f"test files sharing a basename (rename one): {clashes}"


def test_the_code_passes_the_linter() -> None:
    """``ruff check src tests benchmarks`` (version pinned in the ``dev`` extra, so a new release's
    rules cannot fail a landing) finds nothing: the habits STYLE.md asks for are checked, not hoped for."""
    root = Path(__file__).resolve().parents[1]
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is not installed (it comes with the dev extra: scripts/setup.sh)"
    out = subprocess.run([ruff, "check", "--no-cache", "--output-format", "concise", "src", "tests", "benchmarks"],
                         cwd=root, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
