"""Reading answers back from JSON (``answers.jsonl`` written by ``murar eval run``)."""

from __future__ import annotations

from typing import Any

from murar.eval.errors import EvalDataError
from murar.schema import (
    Answer,
    Block,
    MediaBlock,
    ScoredSnippet,
    TextBlock,
    Trace,
    media_from_dict,
    snippet_from_dict,
)

__all__ = ["answer_from_dict"]


def answer_from_dict(data: dict[str, Any]) -> Answer:
    """Rebuild an :class:`~murar.schema.Answer` from :func:`~murar.schema.to_jsonable`
    output. The trace keeps only ``text_answer`` and ``models``.

    Raises:
        EvalDataError: the data is not an answer.
    """
    try:
        blocks: list[Block] = []
        for b in data["blocks"]:
            if b.get("type") == "text":
                blocks.append(TextBlock(text=b["text"], citations=list(b.get("citations") or [])))
            else:
                blocks.append(MediaBlock(type=b["type"], item=media_from_dict(b["item"]),
                                         score=float(b.get("score", 0.0)),
                                         citations=list(b.get("citations") or []),
                                         caption=b.get("caption", "")))
        sources = [ScoredSnippet(snippet=snippet_from_dict(s["snippet"]), score=float(s["score"]),
                                 citation=int(s["citation"]), page_url=s.get("page_url"))
                   for s in data.get("sources") or []]
        tr = data.get("trace") or {}
        trace = Trace(text_answer=tr.get("text_answer", ""), models=dict(tr.get("models") or {}))
        return Answer(question=data["question"], blocks=blocks, sources=sources,
                      found=bool(data.get("found", True)), trace=trace)
    except (KeyError, TypeError, ValueError, AttributeError) as err:  # a field of another JSON type
        raise EvalDataError(f"not a murar answer ({type(err).__name__}: {err})") from err
