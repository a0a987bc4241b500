"""Each integration fails at import with the install command when its framework is missing."""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = [
    ("murar.integrations.mcp", "mcp", "murar[mcp]"),
    ("murar.integrations.llamaindex", "llama_index", "murar[llamaindex]"),
    ("murar.integrations.langchain", "langchain_core", "murar[langchain]"),
]


@pytest.mark.parametrize(("module", "blocked", "hint"), CASES)
def test_missing_framework_names_the_extra(module: str, blocked: str, hint: str) -> None:
    code = (f"import sys; sys.modules[{blocked!r}] = None\n"
            "from murar.errors import MissingExtraError\n"
            f"try:\n    import {module}\nexcept MissingExtraError as err:\n    print(err)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert f"pip install '{hint}'" in out
