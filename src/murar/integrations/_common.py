"""Helpers shared by the framework adapters."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from murar.api.assistant import SNIPPET_ID_KEY

if TYPE_CHECKING:
    from murar.api.assistant import Assistant

LLM_HIDDEN_KEYS = [SNIPPET_ID_KEY, "section_id", "anchor", "page", "score", "media"]
"""Metadata keys a framework should not paste into its LLM prompt (ids, scores, the media list)."""


def as_assistant(source: Assistant | str | os.PathLike[str]) -> Assistant:
    """``source`` itself, or an extractive (model-free) :class:`murar.Assistant` over the index folder ``source``."""
    from murar.api.assistant import Assistant

    if isinstance(source, Assistant):
        return source
    return Assistant(source, llm="extractive")
