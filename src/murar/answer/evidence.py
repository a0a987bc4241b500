"""Evidence selection: only the sentences of the retrieved snippets that answer the question.

MuRAR (seed 000, section 2.1) gives the generator the top-k snippets whole. On a
2-core CPU the prompt is the cost: ~1,700 prompt tokens at ~100 tokens/s is 17 s
before the first answer token. Here each snippet is split into sentences (list
lines and numbered steps count as sentences), every sentence is compared with the
question (cosine of MiniLM embeddings, one batched call), and the best sentences
are kept within a character budget. A kept sentence brings the next one of its
snippet along when it is a step or ends with a colon (procedures continue in the
next line). Kept sentences stay grouped under their snippet's citation number and
in document order, so the ``[n]`` citations keep meaning the same snippets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from murar.embed.base import Embedder
from murar.ingest.chunking import split_sentences
from murar.schema import ScoredSnippet

_STEP = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+")


@dataclass(frozen=True, slots=True, kw_only=True)
class EvidenceOptions:
    """Budget of the evidence sent to the generator.

    ``max_chars``: characters of sentence text over all sources (~4 characters
    per model token). ``max_sentences``: sentences over all sources.
    ``min_score``: sentences less similar to the question are dropped unless they
    are needed to keep at least ``min_per_source`` of the best snippet.
    """

    max_chars: int = 1400
    max_sentences: int = 10
    min_score: float = 0.15
    min_per_source: int = 2


@dataclass(slots=True, kw_only=True)
class EvidenceSource:
    """The kept sentences of one retrieved snippet (``citation`` = its ``[n]``),
    in document order; ``gaps`` marks where sentences were left out before index i."""

    snippet: ScoredSnippet
    sentences: list[str] = field(default_factory=list)
    gaps: list[bool] = field(default_factory=list)

    def text(self) -> str:
        """The kept sentences joined; an ellipsis line marks left-out text."""
        out: list[str] = []
        for sent, gap in zip(self.sentences, self.gaps):
            if gap and out:
                out.append("…")
            out.append(sent)
        return "\n".join(out)


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    for line in text.split("\n"):
        if line.strip():
            out.extend(s for s in split_sentences(line) if len(s) > 2)
    return out


def select_evidence(
    question: str,
    snippets: list[ScoredSnippet],
    embedder: Embedder,
    options: EvidenceOptions | None = None,
) -> list[EvidenceSource]:
    """The sentences of ``snippets`` closest to ``question``, per snippet, in document order.

    Costs one embedding call over all snippet sentences (a few dozen). Returns one
    :class:`EvidenceSource` per snippet that kept at least one sentence, in the
    snippets' order. Raises :class:`murar.errors.EmbeddingError` from the embedder.
    """
    opts = options or EvidenceOptions()
    cands: list[tuple[int, int, str]] = []  # (snippet index, sentence index, text)
    per: list[list[str]] = []
    for i, s in enumerate(snippets):
        sents = _sentences(s.snippet.text)
        per.append(sents)
        cands.extend((i, j, t) for j, t in enumerate(sents))
    if not cands:
        return []
    vecs = embedder.embed([question, *[c[2] for c in cands]])
    scores = vecs[1:] @ vecs[0]
    chosen: set[tuple[int, int]] = set()
    used = 0

    def take(i: int, j: int) -> bool:
        nonlocal used
        if (i, j) in chosen:
            return True
        cost = len(per[i][j]) + 1
        if used + cost > opts.max_chars or len(chosen) >= opts.max_sentences:
            return False
        chosen.add((i, j))
        used += cost
        return True

    # the best snippet keeps its best sentences whatever their score
    first = [k for k, c in enumerate(cands) if c[0] == 0]
    for k in sorted(first, key=lambda k: -scores[k])[: opts.min_per_source]:
        take(0, cands[k][1])
    for k in np.argsort(-scores):
        i, j, text = cands[int(k)]
        if scores[int(k)] < opts.min_score:
            break
        if not take(i, j):
            continue
        # a step or a sentence ending with ':' continues in the next sentence
        if (text.rstrip().endswith(":") or _STEP.match(text)) and j + 1 < len(per[i]):
            take(i, j + 1)
    out: list[EvidenceSource] = []
    for i, s in enumerate(snippets):
        idx = sorted(j for (si, j) in chosen if si == i)
        if not idx:
            continue
        src = EvidenceSource(snippet=s)
        prev = -1
        for j in idx:
            src.sentences.append(per[i][j])
            src.gaps.append(j != prev + 1)
            prev = j
        out.append(src)
    return out


__all__ = ["EvidenceOptions", "EvidenceSource", "select_evidence"]
