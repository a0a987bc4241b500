"""Step 2 of MuRAR (seed 000, section 2.2): source attribution of answer sentences.

The text answer is split into sentences (pysbd); each sentence, with its
citation markers removed, is embedded and compared by cosine similarity with
the retrieved snippets. The best snippet is its source when the similarity
reaches the threshold; otherwise the sentence stays unattributed (no media
will be placed after it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from murar.answer.generate import citations_in, strip_citations
from murar.embed.base import Embedder, Vectors
from murar.ingest.chunking import split_sentences
from murar.schema import Attribution, ScoredSnippet

_LEADING_CITATIONS = re.compile(r"\s*((?:\[\d+(?:\s*,\s*\d+)*\]\s*)+)[.,;:]?\s*")


@dataclass(slots=True)
class AttributionResult:
    """Attributions (one per sentence, in order) and the sentence embeddings,
    shape ``(n_sentences, dim)``, L2-normalised."""

    sentences: list[str]
    attributions: list[Attribution]
    sentence_vectors: Vectors


def split_answer(text: str) -> list[str]:
    """Sentences of an answer; list lines and numbered steps count as sentences too."""
    out: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        first = True
        for sent in split_sentences(line):
            # a citation split off its sentence ("... hub." + "[1] Then ...") belongs to that sentence
            m = _LEADING_CITATIONS.match(sent)
            if m and out and not first:
                out[-1] = f"{out[-1]} {m.group(1).strip()}"
                sent = sent[m.end():].strip()
            first = False
            if sent:
                out.append(sent)
    return out


def attribute(
    answer_text: str,
    snippets: list[ScoredSnippet],
    snippet_vectors: Vectors,
    embedder: Embedder,
    *,
    threshold: float = 0.45,
    cited_margin: float = 0.05,
) -> AttributionResult:
    """Attribute every sentence of ``answer_text`` to one of ``snippets``.

    ``snippet_vectors`` has shape ``(len(snippets), dim)`` in the same order.
    When a sentence cites ``[n]`` explicitly and that snippet's similarity is
    within ``cited_margin`` of the best, the cited snippet wins (the model's
    own citation breaks near-ties).
    """
    sentences = split_answer(answer_text)
    if not sentences or not snippets:
        dim = snippet_vectors.shape[1] if snippet_vectors.ndim == 2 else embedder.dim
        return AttributionResult(sentences, [
            Attribution(sentence_index=i, sentence=s, snippet_id=None, citation=None, score=0.0)
            for i, s in enumerate(sentences)
        ], np.zeros((len(sentences), dim), dtype=np.float32))
    plain = [strip_citations(s) or s for s in sentences]
    vecs = embedder.embed(plain)
    sims = vecs @ snippet_vectors.T  # (n_sentences, n_snippets)
    by_citation = {s.citation: j for j, s in enumerate(snippets)}
    out: list[Attribution] = []
    for i, sent in enumerate(sentences):
        j = int(np.argmax(sims[i]))
        best = float(sims[i, j])
        for c in citations_in(sent):
            jc = by_citation.get(c)
            if jc is not None and float(sims[i, jc]) >= best - cited_margin:
                j, best = jc, float(sims[i, jc])
                break
        if best >= threshold:
            out.append(Attribution(sentence_index=i, sentence=sent, snippet_id=snippets[j].snippet.id,
                                   citation=snippets[j].citation, score=best))
        else:
            out.append(Attribution(sentence_index=i, sentence=sent, snippet_id=None, citation=None, score=best))
    return AttributionResult(sentences, out, vecs)
