"""Answer sentences copied from the prompt's one-shot example instead of the sources.

The answer prompt (:func:`murar.answer.prompts.answer_messages`) shows the model one
worked example about creating a segment, so that it learns the ``[n]`` citation
format. A small model given sources that do not answer well sometimes writes the
example's own sentences into its answer (seen with the bundled 1.5B model on a
held-out Docusaurus question about Ionic tabs: "Select Create segment [1]. Drag the
attributes you need onto the canvas [1]. Select Save to store the segment
definition [2]."). Such a sentence is not grounded in any source: it is never
attributed (so it brings no screenshot) and it is removed from the final answer.

A sentence *copies* an example sentence when at least three of its content words
are that sentence's and they are at least three quarters of its own content words.
It is still kept when one retrieved snippet holds every one of its content words:
documentation about segments may really say "Select Create segment".
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from murar.answer.attribute import split_answer
from murar.answer.generate import strip_citations
from murar.answer.media import content_words
from murar.answer.prompts import EXAMPLE_ANSWER
from murar.schema import ScoredSnippet

MIN_SHARED = 3
"""Content words a sentence must share with one example sentence to copy it."""
MIN_SHARE = 0.75
"""Share of the sentence's own content words that must come from that example sentence."""


@functools.cache
def _example_words() -> tuple[frozenset[str], ...]:
    """Content words of each sentence of the example (a constant: split once per process)."""
    return tuple(frozenset(content_words(strip_citations(s))) for s in split_answer(EXAMPLE_ANSWER))


@dataclass(frozen=True, slots=True)
class ExampleEcho:
    """``echo(sentence)`` is True when ``sentence`` copies the prompt's example and no
    source supports it. Built once per answer by :func:`example_echo`; the sources'
    words are read only for a sentence that copies the example."""

    sources: tuple[str, ...]

    def _copied(self, sentence: str) -> frozenset[str] | None:
        """The content words of ``sentence`` when it reads as one of the example's sentences."""
        words = frozenset(content_words(strip_citations(sentence)))
        if len(words) >= MIN_SHARED:
            for ex in _example_words():
                shared = len(words & ex)
                if shared >= MIN_SHARED and shared / len(words) >= MIN_SHARE:
                    return words
        return None

    def copies_example(self, sentence: str) -> bool:
        """True when ``sentence`` (citations ignored) reads as one of the example's sentences."""
        return self._copied(sentence) is not None

    def __call__(self, sentence: str) -> bool:
        words = self._copied(sentence)
        return words is not None and not any(words <= content_words(src) for src in self.sources)


def example_echo(snippets: Sequence[ScoredSnippet]) -> ExampleEcho:
    """The echo test for an answer written from ``snippets`` (their full text). Pure;
    about 16 µs per sentence that does not copy the example."""
    return ExampleEcho(sources=tuple(s.snippet.text for s in snippets))


__all__ = ["ExampleEcho", "example_echo"]
