"""Reading answers back from JSON (``answers.jsonl`` written by ``murar eval run``) and
the predictions file of ``murar eval mirage --predictions``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from murar.eval.errors import EvalDataError, json_object_lines
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

if TYPE_CHECKING:
    from murar.eval.scorer import Reference, Source

__all__ = ["PredictionLine", "answer_from_dict", "read_predictions"]


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


@dataclass(frozen=True, slots=True, kw_only=True)
class PredictionLine:
    """One line of a predictions file: an answer as ``answer`` text, or already
    decomposed (``sentences[i]`` with ``claims[i]`` and ``citations[i]``), with an
    optional reference and source collection."""

    id: str
    answer: str | None = None
    sentences: list[str] | None = None
    claims: list[list[str]] | None = None
    citations: list[list[str]] | None = None
    reference: Reference | None = None
    sources: tuple[Source, ...] = ()


def _texts(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{what} must be a list of strings")
    return list(value)


def _text_lists(value: object, what: str, n: int) -> list[list[str]]:
    if not isinstance(value, list) or len(value) != n:
        raise TypeError(f"{what} must be a list of {n} lists of strings (one per sentence)")
    return [_texts(v, f"each of {what}") for v in value]


def read_predictions(path: Path) -> list[PredictionLine]:
    """The lines of a predictions file (JSON lines: ``id``; ``answer`` text, or
    ``sentences`` + ``claims`` (+ ``citations``); optional ``reference_text``,
    ``reference_claims``, ``claim_sources``, ``sources`` [{id, text, kind}]).

    Raises:
        EvalDataError: unreadable, or a line that is not such an object (line
            number and field named): a string where a list belongs, claims not
            one list per sentence, a source without its text.
    """
    from murar.eval.scorer import Reference, Source

    out: list[PredictionLine] = []
    for n, r in json_object_lines(path, "prediction"):
        try:
            sentences = claims = citations = None
            answer = r.get("answer")
            if "claims" in r:
                sentences = _texts(r.get("sentences"), "'sentences'")
                claims = _text_lists(r["claims"], "'claims'", len(sentences))
                cites = r.get("citations")
                if cites is not None:  # source ids, as strings (a source's id is read as a string too)
                    if not isinstance(cites, list) or len(cites) != len(sentences) or not all(
                            isinstance(c, list) for c in cites):
                        raise TypeError(f"'citations' must be a list of {len(sentences)} lists (one per sentence)")
                    citations = [[str(x) for x in c] for c in cites]
            elif not isinstance(answer, str):
                raise TypeError("'answer' must be a string (or give 'sentences' and 'claims')")
            reference = None
            if "reference_claims" in r:
                text = r.get("reference_text") or ""
                if not isinstance(text, str):
                    raise TypeError("'reference_text' must be a string")
                attested = r.get("claim_sources")
                if attested is not None and not (isinstance(attested, dict) and all(
                        isinstance(v, list) for v in attested.values())):
                    raise TypeError("'claim_sources' must map each claim to a list of source ids")
                reference = Reference(text=text, claims=_texts(r["reference_claims"], "'reference_claims'"),
                                      claim_sources=({str(k): [str(x) for x in v] for k, v in attested.items()}
                                                     if attested is not None else None))
            sources = []
            for src in r.get("sources") or []:
                if not isinstance(src, dict) or not isinstance(src.get("text"), str) or "id" not in src:
                    raise TypeError("each of 'sources' must be an object with an 'id' and a 'text' string")
                sources.append(Source(id=str(src["id"]), text=src["text"], kind=str(src.get("kind") or "text")))
            out.append(PredictionLine(id=str(r.get("id", n)), answer=answer if claims is None else None,
                                      sentences=sentences, claims=claims, citations=citations,
                                      reference=reference, sources=tuple(sources)))
        except TypeError as err:
            raise EvalDataError(f"{path} line {n}: malformed prediction ({err})") from err
    return out
