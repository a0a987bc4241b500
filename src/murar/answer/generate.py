"""Step 1 of MuRAR (seed 000, section 2.1): the text answer with citations.

:class:`LLMAnswerGenerator` asks a chat model; :class:`ExtractiveAnswerGenerator`
needs no model: it quotes the sentences of the retrieved snippets most similar
to the question (a fast, deterministic baseline and offline fallback).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from murar.answer.evidence import EvidenceOptions, select_evidence
from murar.answer.prompts import NOT_FOUND_MARKER, answer_messages
from murar.embed.base import Embedder
from murar.ingest.chunking import split_sentences
from murar.llm.base import ChatMessage, ChatModel
from murar.schema import ScoredSnippet

_CITATION = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")


@dataclass(slots=True)
class GeneratedAnswer:
    """The text answer ``text`` (with ``[n]`` markers) and whether the sources answered."""

    text: str
    found: bool
    raw: str


class AnswerGenerator(Protocol):
    """Writes the text answer from the question and the retrieved snippets."""

    name: str

    def generate(self, question: str, snippets: list[ScoredSnippet]) -> GeneratedAnswer: ...

    def stream(self, question: str, snippets: list[ScoredSnippet]) -> Iterator[str]: ...

    def finish(self, raw: str, snippets: list[ScoredSnippet]) -> GeneratedAnswer:
        """Post-process a streamed answer exactly as :meth:`generate` would."""
        ...


def clean_citations(text: str, valid: set[int]) -> str:
    """Drop ``[n]`` markers whose number is not a retrieved snippet; normalise ``[1, 2]`` to ``[1][2]``."""

    def fix(m: re.Match[str]) -> str:
        nums = [int(x) for x in re.split(r"\s*,\s*", m.group(1))]
        kept = [n for n in nums if n in valid]
        return "".join(f"[{n}]" for n in kept)

    return _CITATION.sub(fix, text)


def citations_in(text: str) -> list[int]:
    """The citation numbers in ``text``, in order of first appearance."""
    seen: list[int] = []
    for m in _CITATION.finditer(text):
        for x in re.split(r"\s*,\s*", m.group(1)):
            n = int(x)
            if n not in seen:
                seen.append(n)
    return seen


_CITATION_RUN = rf"(?:{_CITATION.pattern}[\s,;]*)"  # one marker of a run, with what separates it from the next


def runaway_citations(text: str, valid: set[int], *, run: int = 6) -> bool:
    """True when ``text`` ends in ``run`` or more citation markers in a row, with
    nothing else between them and at least two numbers that are no retrieved
    snippet (``[2] [3] [4] ... [80]``).

    Small models (seen with the bundled 1.5B model after "the following
    agents:" with the list left out of the evidence) can fall into counting
    citation markers until the token limit: ~15 s of output that
    :func:`clean_citations` then throws away. The streamed path stops the model
    on it.
    """
    m = re.search(rf"{_CITATION_RUN}{{{run},}}$", text[-400:].rstrip())
    if m is None:
        return False
    nums = [int(x) for x in re.findall(r"\d+", m.group(0))]
    return sum(1 for n in nums if n not in valid) >= 2


def without_trailing_citations(text: str) -> str:
    """``text`` without the run of citation markers it ends with (what
    :func:`runaway_citations` detects), trailing spaces removed."""
    return re.sub(rf"{_CITATION_RUN}+$", "", text.rstrip()).rstrip()


def repeating_sentences(sentences: Sequence[str], *, run: int = 2) -> bool:
    """True when the last ``run`` sentences repeat, in order, ``run`` sentences
    written earlier (compared without citations, case or spacing).

    Seen with the bundled 1.5B model on a Docusaurus question: after four
    sentences it wrote the same two sentences eight times, until its token
    limit (36 s). One repeated sentence can be a deliberate recap; a repeated
    run of ``run`` sentences is a loop. The streamed path stops the model on it.
    """
    if len(sentences) < 2 * run:
        return False
    keys = [" ".join(strip_citations(s).casefold().split()) for s in sentences]
    tail = keys[-run:]
    if not all(tail):
        return False
    return any(keys[i : i + run] == tail for i in range(len(keys) - 2 * run + 1))


def strip_citations(text: str) -> str:
    """``text`` without ``[n]`` markers."""
    return re.sub(r"\s+([.,;:!?])", r"\1", _CITATION.sub("", text)).strip()


def _postprocess(raw: str, snippets: list[ScoredSnippet]) -> GeneratedAnswer:
    text = raw.strip()
    if text.startswith("```") and text.endswith("```"):
        text = text.strip("`").strip()
    if not text or NOT_FOUND_MARKER in text[: len(NOT_FOUND_MARKER) + 8] or (
        NOT_FOUND_MARKER in text and len(text) < 80
    ):
        return GeneratedAnswer(text="", found=False, raw=raw)
    text = clean_citations(text, {s.citation for s in snippets})
    return GeneratedAnswer(text=text, found=True, raw=raw)


def answer_prompt(
    question: str,
    snippets: list[ScoredSnippet],
    evidence: EvidenceOptions | None = None,
    embedder: Embedder | None = None,
) -> list[ChatMessage]:
    """The chat messages of MuRAR step 1 for ``question``: the whole ``snippets``, or with
    ``evidence`` (and its ``embedder``) only their sentences closest to the question
    (:func:`murar.answer.evidence.select_evidence`; whole snippets when none is kept).

    Raises :class:`murar.errors.EmbeddingError` from the embedder."""
    if evidence is not None and embedder is not None:
        chosen = select_evidence(question, snippets, embedder, evidence)
        if chosen:
            return answer_messages(question, snippets, chosen)
    return answer_messages(question, snippets)


class LLMAnswerGenerator:
    """Text answer from a chat model (``max_tokens`` bounds the answer length in tokens).

    With ``evidence`` (and the ``embedder`` it needs), the prompt holds only the
    snippet sentences closest to the question (:mod:`murar.answer.evidence`)
    instead of the whole snippets; citations still number the snippets.
    """

    def __init__(
        self,
        llm: ChatModel,
        *,
        max_tokens: int = 320,
        evidence: EvidenceOptions | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        if evidence is not None and embedder is None:
            raise ValueError("evidence selection needs an embedder")
        self.llm = llm
        self.max_tokens = max_tokens
        self.evidence = evidence
        self.embedder = embedder
        self.name = llm.name

    def messages(self, question: str, snippets: list[ScoredSnippet]) -> list[ChatMessage]:
        """The prompt for ``question`` (whole snippets, or the selected sentences)."""
        return answer_prompt(question, snippets, self.evidence, self.embedder)

    def generate(self, question: str, snippets: list[ScoredSnippet]) -> GeneratedAnswer:
        raw = self.llm.complete(self.messages(question, snippets), max_tokens=self.max_tokens, temperature=0.0)
        return _postprocess(raw, snippets)

    def stream(self, question: str, snippets: list[ScoredSnippet]) -> Iterator[str]:
        yield from self.stream_messages(self.messages(question, snippets))

    def stream_messages(self, messages: list[ChatMessage]) -> Iterator[str]:
        """Stream the answer to a prompt built by :meth:`messages` (lets the caller time the two apart)."""
        yield from self.llm.stream(messages, max_tokens=self.max_tokens, temperature=0.0)

    def finish(self, raw: str, snippets: list[ScoredSnippet]) -> GeneratedAnswer:
        """Post-process a streamed answer exactly like :meth:`generate` does."""
        return _postprocess(raw, snippets)


_ENDS_SENTENCE = re.compile(r"[.!?][\"')\]]*$")


class ExtractiveAnswerGenerator:
    """No-model answer: the ``max_sentences`` snippet sentences closest to the question.

    Sentences keep document order within a snippet and carry the snippet's
    citation. Deterministic; costs one embedding call.
    """

    name = "extractive"

    def __init__(self, embedder: Embedder, *, max_sentences: int = 4, min_score: float = 0.2) -> None:
        self.embedder = embedder
        self.max_sentences = max_sentences
        self.min_score = min_score

    def generate(self, question: str, snippets: list[ScoredSnippet]) -> GeneratedAnswer:
        cands: list[tuple[int, int, str]] = []
        seen: set[str] = set()  # the same sentence on several pages (shared partials) is quoted once
        for s in snippets[:3]:
            for j, sent in enumerate(split_sentences(s.snippet.text.replace("\n\n", "\n"))):
                key = " ".join(sent.lower().split())
                if len(sent) > 12 and key not in seen:
                    seen.add(key)
                    cands.append((s.citation, j, sent))
        if not cands:
            return GeneratedAnswer(text="", found=False, raw="")
        vecs = self.embedder.embed([question, *[c[2] for c in cands]])
        scores = vecs[1:] @ vecs[0]
        order = [int(i) for i in np.argsort(-scores) if scores[i] >= self.min_score][: self.max_sentences]
        if not order:
            return GeneratedAnswer(text="", found=False, raw="")
        chosen = sorted(order, key=lambda i: (cands[i][0], cands[i][1]))
        # a quote that does not end a sentence ("... added to a Jupyter Book:") is followed by a
        # line break, so the next quote stays a sentence of its own when the answer is split
        quotes = [(cands[i][2].rstrip(), cands[i][0]) for i in chosen]
        text = "".join(f"{q} [{n}]" + (" " if _ENDS_SENTENCE.search(q) else "\n") for q, n in quotes).rstrip()
        return GeneratedAnswer(text=text, found=True, raw=text)

    def stream(self, question: str, snippets: list[ScoredSnippet]) -> Iterator[str]:
        yield self.generate(question, snippets).text

    def finish(self, raw: str, snippets: list[ScoredSnippet]) -> GeneratedAnswer:
        return GeneratedAnswer(text=raw, found=bool(raw.strip()), raw=raw)
