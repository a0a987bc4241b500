"""Sentence splitting and subclaim decomposition of answers (seed 002, section 3-4).

MiRAGE scores *subclaims*: short, atomic, declarative statements, each
checkable on its own. The public MiRAGE release ships predictions already
decomposed; murar decomposes its own answers with an LLM
(:class:`LLMDecomposer`) or, for smoke runs without a model, treats each
sentence as one subclaim (:class:`SentenceDecomposer`).

Both decomposers implement :class:`Decomposer`. Citation markers such as
``[2]`` are removed from the text given to the model and kept on the
sentence (:class:`ClaimedSentence.citations`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

from murar.llm.base import ChatMessage, ChatModel
from murar.schema import Answer, TextBlock

__all__ = [
    "DECOMPOSE_PROMPT_VERSION",
    "ClaimedAnswer",
    "ClaimedSentence",
    "Decomposer",
    "LLMDecomposer",
    "SentenceDecomposer",
    "claimed_answer_from_answer",
    "claimed_answer_from_lists",
    "decompose_text",
    "parse_subclaims",
    "split_sentences",
    "strip_citation_markers",
]

DECOMPOSE_PROMPT_VERSION = "decompose-v1"

_CITE = re.compile(r"\s*\[(\d+(?:\s*,\s*\d+)*)\]")
_MD_NOISE = re.compile(r"(^|\n)\s*(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)")


@lru_cache(maxsize=1)
def _segmenter() -> Any:
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences with pysbd (rule-based, English).

    Markdown list markers, heading marks and blank-line paragraph breaks are
    treated as sentence boundaries. Returns stripped, non-empty sentences in
    order; ``[]`` for blank text.
    """
    out: list[str] = []
    for para in re.split(r"\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)]|#{1,6})\s)", text):
        para = _MD_NOISE.sub(r"\1", para).strip()
        if not para:
            continue
        for sent in _segmenter().segment(para):
            s = " ".join(sent.split())
            if s:
                out.append(s)
    return out


def strip_citation_markers(sentence: str) -> tuple[str, list[int]]:
    """Remove ``[n]`` / ``[n, m]`` markers; return the clean sentence and the
    cited numbers in order of appearance (deduplicated)."""
    nums: list[int] = []
    for m in _CITE.finditer(sentence):
        for n in m.group(1).split(","):
            v = int(n)
            if v not in nums:
                nums.append(v)
    clean = " ".join(_CITE.sub("", sentence).split())
    clean = re.sub(r"\s+([.,;:!?])", r"\1", clean)
    return clean, nums


@dataclass(slots=True, kw_only=True)
class ClaimedSentence:
    """One answer sentence, its subclaims, and the source ids it cites."""

    text: str
    claims: list[str]
    citations: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class ClaimedAnswer:
    """An answer decomposed into sentences and subclaims.

    ``text`` is the full answer text (evidence for InfoR); ``decomposer``
    names how the subclaims were made (recorded in reports).
    """

    text: str
    sentences: list[ClaimedSentence]
    decomposer: str = "given"

    @property
    def claims(self) -> list[str]:
        """All predicted subclaims in order."""
        return [c for s in self.sentences for c in s.claims]

    def claim_citations(self) -> list[list[str]]:
        """For each subclaim (same order as :attr:`claims`), its sentence's citations."""
        return [list(s.citations) for s in self.sentences for _ in s.claims]


@runtime_checkable
class Decomposer(Protocol):
    """Turns a sentence into its subclaims (``context`` is the text before it,
    used to resolve pronouns). ``name`` and ``prompt_version`` go in reports."""

    @property
    def name(self) -> str: ...

    @property
    def prompt_version(self) -> str: ...

    def decompose(self, sentence: str, *, context: str = "") -> list[str]: ...


class SentenceDecomposer:
    """No model: every sentence is one subclaim (for smoke runs and tests)."""

    name = "sentence"
    prompt_version = "none"

    def decompose(self, sentence: str, *, context: str = "") -> list[str]:
        s = sentence.strip()
        return [s] if s else []


_SYSTEM = (
    "You split a sentence into atomic subclaims. A subclaim is one short, "
    "self-contained, declarative fact taken from the sentence. Replace pronouns "
    "with the names they refer to. Do not add facts that the sentence does not "
    "state. Write one subclaim per line, each starting with '- '. Nothing else."
)
_EXAMPLE_IN = "The Eiffel Tower, finished in 1889, is in Paris and is 330 metres tall."
_EXAMPLE_OUT = (
    "- The Eiffel Tower was finished in 1889.\n"
    "- The Eiffel Tower is in Paris.\n"
    "- The Eiffel Tower is 330 metres tall."
)

_BULLET = re.compile(r"^\s*(?:[-*\u2022+]|\(?\d+[.):]|\(?[a-z][.)])\s+", re.IGNORECASE)
_PREAMBLE = re.compile(
    r"^(?:here (?:are|is)|subclaims?|atomic (?:sub)?claims?|sure|the (?:sub)?claims? (?:are|is))\b",
    re.IGNORECASE,
)


def parse_subclaims(raw: str, *, sentence: str = "") -> list[str]:
    """Parse a model's decomposition into a list of subclaims.

    Accepts bullet or numbered lines, a JSON list of strings (optionally in a
    code fence) or plain lines; drops preambles ("Here are the subclaims:"),
    code fences, quotes and duplicates (case-insensitive). Returns ``[sentence]``
    when nothing usable is found, so a sentence is never lost.
    """
    text = raw.strip()
    text = re.sub(r"^```[a-zA-Z]*\s*|\s*```$", "", text).strip()
    items: list[str] = []
    start = text.find("[")
    if start != -1:
        try:
            data = json.loads(text[start : text.rfind("]") + 1])
            if isinstance(data, list) and all(isinstance(x, str) for x in data):
                items = list(data)
        except json.JSONDecodeError:
            items = []
    if not items:
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith("```"):
                continue
            line = _BULLET.sub("", line).strip()
            if not line or (_PREAMBLE.match(line) and line.endswith(":")):
                continue
            items.append(line)
    out: list[str] = []
    seen: set[str] = set()
    for item in items:
        c = item.strip().strip('"').strip("'").strip()
        if len(c) < 3 or not re.search(r"[A-Za-z0-9]", c):
            continue
        key = c.lower().rstrip(".")
        if key in seen:
            continue
        seen.add(key)
        out.append(c)
    if not out and sentence.strip():
        return [sentence.strip()]
    return out


class LLMDecomposer:
    """Subclaim decomposition with a chat model (one call per sentence, greedy).

    ``max_claims`` caps the subclaims kept per sentence; ``max_tokens`` bounds
    the reply (tokens). The model is injected; nothing loads here.

    Raises (from :meth:`decompose`):
        murar.errors.LLMError: the model failed.
    """

    prompt_version = DECOMPOSE_PROMPT_VERSION

    def __init__(self, model: ChatModel, *, max_claims: int = 8, max_tokens: int = 256) -> None:
        self._model = model
        self._max_claims = max_claims
        self._max_tokens = max_tokens

    @property
    def name(self) -> str:
        return f"llm:{self._model.name}"

    def messages(self, sentence: str, *, context: str = "") -> list[ChatMessage]:
        """The chat messages sent for ``sentence`` (exposed for tests and reports)."""
        ctx = f"Context (earlier text): {context[-400:]}\n" if context.strip() else ""
        return [
            ChatMessage("system", _SYSTEM),
            ChatMessage("user", f"Sentence: {_EXAMPLE_IN}"),
            ChatMessage("assistant", _EXAMPLE_OUT),
            ChatMessage("user", f"{ctx}Sentence: {sentence}"),
        ]

    def decompose(self, sentence: str, *, context: str = "") -> list[str]:
        """Subclaims of ``sentence`` (at least the sentence itself when the
        reply is unusable)."""
        if not sentence.strip():
            return []
        raw = self._model.complete(self.messages(sentence, context=context),
                                   max_tokens=self._max_tokens, temperature=0.0)
        return parse_subclaims(raw, sentence=sentence)[: self._max_claims]


def decompose_text(
    text: str,
    decomposer: Decomposer,
    *,
    citation_ids: Mapping[int, str] | None = None,
) -> ClaimedAnswer:
    """Split ``text`` into sentences, strip ``[n]`` markers into citations
    (mapped through ``citation_ids`` to source ids; unmapped numbers kept as
    ``"[n]"``) and decompose each sentence."""
    sentences: list[ClaimedSentence] = []
    context = ""
    for raw in split_sentences(text):
        clean, nums = strip_citation_markers(raw)
        cites = [(citation_ids or {}).get(n, f"[{n}]") for n in nums]
        claims = decomposer.decompose(clean, context=context) if clean else []
        sentences.append(ClaimedSentence(text=clean, claims=claims, citations=cites))
        context = f"{context} {clean}".strip()
    full = " ".join(s.text for s in sentences)
    return ClaimedAnswer(text=full, sentences=sentences, decomposer=decomposer.name)


def claimed_answer_from_answer(answer: Answer, decomposer: Decomposer) -> ClaimedAnswer:
    """Decompose a murar :class:`~murar.schema.Answer`.

    Sentence citations come from the ``[n]`` markers in the text and from the
    enclosing :class:`~murar.schema.TextBlock` ``citations``; numbers map to
    snippet ids through ``answer.sources``.
    """
    ids = {s.citation: s.snippet.id for s in answer.sources}
    sentences: list[ClaimedSentence] = []
    context = ""
    for block in answer.blocks:
        if not isinstance(block, TextBlock):
            continue
        for raw in split_sentences(block.text):
            clean, nums = strip_citation_markers(raw)
            if not nums and len(block.citations) == 1:
                nums = list(block.citations)
            cites = [ids.get(n, f"[{n}]") for n in nums]
            claims = decomposer.decompose(clean, context=context) if clean else []
            sentences.append(ClaimedSentence(text=clean, claims=claims, citations=cites))
            context = f"{context} {clean}".strip()
    return ClaimedAnswer(text=" ".join(s.text for s in sentences), sentences=sentences,
                         decomposer=decomposer.name)


def claimed_answer_from_lists(
    sentences: Sequence[str], claims: Sequence[Sequence[str]],
    citations: Sequence[Sequence[str]] | None = None, *, text: str | None = None,
) -> ClaimedAnswer:
    """Build a :class:`ClaimedAnswer` from already-decomposed data (e.g. the
    MiRAGE release: ``sentences[i]`` with ``claims[i]`` and ``citations[i]``)."""
    cites = citations or [[] for _ in sentences]
    out = [ClaimedSentence(text=s, claims=list(c), citations=list(d))
           for s, c, d in zip(sentences, claims, cites, strict=True)]
    return ClaimedAnswer(text=text if text is not None else " ".join(sentences), sentences=out)
