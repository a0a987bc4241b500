"""Synthetic (question, snippet) training pairs written by the local LLM over the corpus itself.

MuRAR section 2.1 retrieves snippets by embedding similarity with an
off-the-shelf embedder; here the embedder is adapted to one documentation set
without any gold question: a chat model reads a sample of the indexed
snippets and writes, per snippet and in one call, 1-3 short questions a user
of the docs might ask that the snippet answers. Each (question, snippet) is a
positive pair for contrastive training (:mod:`murar.tune.train`).

Sampling (:func:`sample_snippets`) prefers snippets whose section holds media
(the answers MuRAR illustrates) and spreads the sample over distinct sections
and pages. Replies are parsed leniently (:func:`parse_questions`) and cached on
disk (:class:`PairCache`) keyed by model, prompt version and snippet text, so
a re-run reuses every reply already paid for.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from murar.errors import LLMError, MurarError
from murar.ingest.chunking import embedding_text
from murar.llm.base import ChatMessage, ChatModel
from murar.schema import AnyMedia, Snippet

PROMPT_VERSION = "tune-q1"
"""Changes whenever the prompt changes, so cached replies of another prompt are not reused."""

_SYSTEM = ("You help build a search engine for a documentation site. You write the questions "
           "its users type into the search box.")

_USER = """Page: {title}
Section: {section}

{text}

Write {n} short questions (at most 20 words each) that a user of this product could ask and that \
the passage above answers. Ask about the user's task or problem in their own words; do not quote \
headings, do not mention "the passage", "the text" or "the section". One question per line, each \
ending with a question mark. No numbering, no answers."""

_LEAD = re.compile(r"^\s*(?:[-*•]+|\(?\d{1,2}[.):]|\(?[a-z][.)]|q\d*[.:)]|question\s*\d*\s*[:.)-])\s*", re.IGNORECASE)
_META = re.compile(r"\b(?:the|this|above)\s+(?:passage|text|section|snippet|excerpt)\b", re.IGNORECASE)
MIN_WORDS = 3
MAX_WORDS = 30


@dataclass(frozen=True, slots=True, kw_only=True)
class TrainingPair:
    """One positive pair: a generated ``question`` and the snippet it was written for.

    ``passage`` is the exact text the index embeds for the snippet
    (:func:`murar.ingest.chunking.embedding_text`: heading prefix + text).
    ``negatives`` are passages of other snippets of the same page (hard
    negatives, optional; empty by default).
    """

    question: str
    passage: str
    snippet_id: str
    source_path: str
    negatives: tuple[str, ...] = ()


@dataclass(slots=True, kw_only=True)
class PairStats:
    """Counts of one generation run: snippets asked, model calls made, replies reused from
    the cache, replies that gave no usable question, and pairs produced."""

    snippets: int = 0
    calls: int = 0
    cached: int = 0
    empty: int = 0
    failed: int = 0
    pairs: int = 0
    errors: list[str] = field(default_factory=list)


def parse_questions(reply: str, *, limit: int = 3) -> list[str]:
    """The questions in a model reply, cleaned; at most ``limit``, in reply order.

    Accepts one question per line with or without bullets or numbering
    (``1.``, ``-``, ``Q1:``), several questions on one line, and surrounding
    quotes. Drops lines that are not questions, questions shorter than 3 or
    longer than 30 words, questions about "the passage"/"the text", and
    duplicates (case-insensitive). Never raises.
    """
    out: list[str] = []
    seen: set[str] = set()
    for line in reply.replace("\r", "\n").split("\n"):
        line = _LEAD.sub("", line.strip().strip("*").strip())
        for piece in re.findall(r"[^?]*\?", line):
            q = _LEAD.sub("", piece.strip().strip("\"'`“”‘’*").strip())
            q = q.strip("\"'`“”‘’ ")
            if not q.endswith("?"):
                q += "?"
            words = q.split()
            if not (MIN_WORDS <= len(words) <= MAX_WORDS) or _META.search(q):
                continue
            key = " ".join(w.casefold() for w in words)
            if key in seen:
                continue
            seen.add(key)
            out.append(q)
            if len(out) >= limit:
                return out
    return out


def build_prompt(snippet: Snippet, n_questions: int) -> list[ChatMessage]:
    """The chat messages asking for ``n_questions`` user questions about ``snippet``."""
    section = " > ".join(snippet.heading_path) or snippet.page_title
    return [ChatMessage(role="system", content=_SYSTEM),
            ChatMessage(role="user", content=_USER.format(title=snippet.page_title, section=section,
                                                          text=snippet.text.strip(), n=n_questions))]


class PairCache:
    """Model replies on disk (JSON lines), keyed by model name, prompt version,
    questions asked and the snippet's embedded text.

    The raw reply is stored, not the parsed questions, so a better parser
    reuses old replies. A torn last line (a killed run) is ignored.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._replies: dict[str, str] = {}
        self._loaded = False

    @staticmethod
    def key(model: str, passage: str, n_questions: int) -> str:
        """SHA-1 hex of (model, prompt version, questions asked, passage)."""
        return hashlib.sha1(f"{model}\x1f{PROMPT_VERSION}\x1f{n_questions}\x1f{passage}".encode()).hexdigest()

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        if not self.path.is_file():
            return
        for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                rec = json.loads(line)
                self._replies[str(rec["key"])] = str(rec["reply"])
            except (ValueError, KeyError, TypeError):
                continue  # a torn line from a killed run

    def get(self, key: str) -> str | None:
        self._load()
        return self._replies.get(key)

    def put(self, key: str, reply: str, *, model: str, snippet_id: str) -> None:
        """Record one reply (appended and flushed at once: a killed run keeps what it paid for)."""
        self._load()
        self._replies[key] = reply
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps({"key": key, "model": model, "prompt": PROMPT_VERSION,
                                 "snippet_id": snippet_id, "reply": reply}, ensure_ascii=False) + "\n")

    def __len__(self) -> int:
        self._load()
        return len(self._replies)


def sample_snippets(
    snippets: Sequence[Snippet],
    media: Iterable[AnyMedia],
    *,
    count: int,
    seed: int = 0,
    min_chars: int = 80,
) -> list[Snippet]:
    """Up to ``count`` snippets to write questions for, deterministic for a ``seed``.

    Snippets shorter than ``min_chars`` characters are skipped (too little to
    ask about). One snippet per section first, sections holding media before
    the others, round-robin over pages so that no page dominates; further
    snippets of already-sampled sections only when ``count`` exceeds the
    number of sections.
    """
    rng = random.Random(seed)
    with_media = {m.section_id for m in media if not getattr(m, "flags", ())}
    by_section: dict[str, list[Snippet]] = defaultdict(list)
    for s in snippets:
        if len(s.text.strip()) >= min_chars:
            by_section[s.section_id].append(s)
    for group in by_section.values():
        rng.shuffle(group)
    rounds: list[list[Snippet]] = []
    depth = 0
    while True:
        layer = [g[depth] for g in by_section.values() if len(g) > depth]
        if not layer:
            break
        rounds.append(layer)
        depth += 1
    picked: list[Snippet] = []
    for layer in rounds:
        for media_first in (True, False):
            part = [s for s in layer if (s.section_id in with_media) == media_first]
            picked.extend(_round_robin_pages(part, rng))
            if len(picked) >= count:
                return picked[:count]
    return picked[:count]


def _round_robin_pages(snippets: list[Snippet], rng: random.Random) -> list[Snippet]:
    by_page: dict[str, list[Snippet]] = defaultdict(list)
    for s in snippets:
        by_page[s.source_path].append(s)
    pages = sorted(by_page)
    rng.shuffle(pages)
    out: list[Snippet] = []
    while any(by_page[p] for p in pages):
        for p in pages:
            if by_page[p]:
                out.append(by_page[p].pop())
    return out


def generate_pairs(
    snippets: Sequence[Snippet],
    model: ChatModel,
    cache: PairCache,
    *,
    n_questions: int = 3,
    max_tokens: int = 120,
    hard_negatives: dict[str, list[str]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[TrainingPair], PairStats]:
    """Ask ``model`` for ``n_questions`` (1-3) questions per snippet, one call each.

    Cached replies are reused (no call); a new reply is cached at once. A model
    error on one snippet is counted in ``stats.failed`` (first messages in
    ``stats.errors``) and the run goes on; ``progress(1)`` is called after each
    snippet. ``hard_negatives`` maps a snippet id to passages of other snippets
    of its page.

    Raises:
        LLMError: every call failed (nothing to train on): the message holds the first error.
    """
    if not 1 <= n_questions <= 3:
        raise ValueError(f"n_questions must be 1, 2 or 3, got {n_questions}")
    pairs: list[TrainingPair] = []
    stats = PairStats(snippets=len(snippets))
    for s in snippets:
        passage = embedding_text(s)
        key = PairCache.key(model.name, passage, n_questions)
        reply = cache.get(key)
        if reply is None:
            try:
                reply = model.complete(build_prompt(s, n_questions), max_tokens=max_tokens, temperature=0.0)
            except MurarError as err:
                stats.failed += 1
                if len(stats.errors) < 5:
                    stats.errors.append(f"{s.source_path}#{s.id}: {err}")
                if progress is not None:
                    progress(1)
                continue
            stats.calls += 1
            cache.put(key, reply, model=model.name, snippet_id=s.id)
        else:
            stats.cached += 1
        questions = parse_questions(reply, limit=n_questions)
        if not questions:
            stats.empty += 1
        negs = tuple((hard_negatives or {}).get(s.id, ()))
        pairs.extend(TrainingPair(question=q, passage=passage, snippet_id=s.id, source_path=s.source_path,
                                  negatives=negs) for q in questions)
        if progress is not None:
            progress(1)
    stats.pairs = len(pairs)
    if snippets and stats.failed == len(snippets):
        raise LLMError(f"question generation failed for all {len(snippets)} snippets: {stats.errors[0]}")
    return pairs, stats


def page_negatives(sampled: Sequence[Snippet], all_snippets: Sequence[Snippet], *,
                   per_snippet: int = 1, seed: int = 0) -> dict[str, list[str]]:
    """Hard negatives: for each sampled snippet, passages of other sections of the same page
    (other sections, so a negative never answers the question as well as the positive)."""
    rng = random.Random(seed)
    by_page: dict[str, list[Snippet]] = defaultdict(list)
    for s in all_snippets:
        by_page[s.source_path].append(s)
    out: dict[str, list[str]] = {}
    for s in sampled:
        others = [o for o in by_page[s.source_path] if o.section_id != s.section_id]
        if others:
            out[s.id] = [embedding_text(o) for o in rng.sample(others, min(per_snippet, len(others)))]
    return out


__all__ = [
    "PROMPT_VERSION",
    "PairCache",
    "PairStats",
    "TrainingPair",
    "build_prompt",
    "generate_pairs",
    "page_negatives",
    "parse_questions",
    "sample_snippets",
]
