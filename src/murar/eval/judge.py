"""Support judges: does evidence E support claim c? (seed 002, section 3 "support function").

Backends implement :class:`SupportJudge`:

- :class:`LLMJudge` -- any :class:`~murar.llm.base.ChatModel` (the bundled
  Qwen2.5 GGUF or an OpenAI-compatible endpoint) asked a calibrated yes/no
  question, greedy decoding, 1-3 tokens of output.
- :class:`EmbeddingJudge` -- cosine similarity between the claim and the best
  window of evidence sentences, thresholded; cheap, for smoke runs.
- :class:`CachedJudge` -- wraps any judge; judgments are keyed by
  sha256(judge name, prompt version, claim, evidence) and appended to a JSONL
  file, so re-runs are free and every judgment is saved.

Multimodal evidence (an image, table or video) is judged through its text
representation (:meth:`murar.schema.MediaItem.representation`: headings,
caption, content, surrounding text, OCR/transcript); reports say so.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from murar.embed.base import Embedder
from murar.eval.claims import split_sentences
from murar.eval.errors import JudgeError
from murar.llm.base import ChatMessage, ChatModel

__all__ = [
    "LLM_JUDGE_PROMPT_VERSION",
    "CachedJudge",
    "EmbeddingJudge",
    "Judgment",
    "LLMJudge",
    "SupportJudge",
    "judgment_key",
    "parse_yes_no",
]

LLM_JUDGE_PROMPT_VERSION = "support-yn-v1"


@dataclass(frozen=True, slots=True, kw_only=True)
class Judgment:
    """One support judgment.

    ``supported`` is the binary decision; ``score`` in [0, 1] is the judge's
    strength (cosine similarity for the embedding judge, 1.0/0.0 for the LLM
    judge); ``raw`` is the model's reply (or the best-matching evidence window);
    ``judge`` and ``prompt_version`` identify what produced it.
    """

    claim: str
    evidence_sha: str
    supported: bool
    score: float
    judge: str
    prompt_version: str
    raw: str = ""
    cached: bool = False


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def judgment_key(judge: str, prompt_version: str, claim: str, evidence: str) -> str:
    """Cache key: sha256 over the judge name, prompt version, claim and evidence."""
    return _sha(f"{judge}\x1f{prompt_version}\x1f{claim}\x1f{evidence}")


@runtime_checkable
class SupportJudge(Protocol):
    """Decides whether ``evidence`` supports ``claim``.

    ``judge_many`` takes (claim, evidence) pairs and returns one
    :class:`Judgment` per pair, in order; backends may batch.

    Raises:
        JudgeError: the backend failed.
    """

    @property
    def name(self) -> str: ...

    @property
    def prompt_version(self) -> str: ...

    def judge(self, claim: str, evidence: str) -> Judgment: ...

    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[Judgment]: ...


# ------------------------------------------------------------------ LLM judge

_JUDGE_SYSTEM = (
    "You check facts. You get EVIDENCE and a CLAIM. Answer 'yes' only if every "
    "part of the claim is stated in the evidence or follows directly from it, "
    "with the same names, numbers and dates. Answer 'no' if the evidence "
    "contradicts the claim, does not mention it, or supports only part of it. "
    "Do not use outside knowledge. Reply with one word: yes or no."
)
# calibration shots: one clear yes, one partial (no), one unmentioned (no)
_SHOTS: tuple[tuple[str, str, str], ...] = (
    ("The museum opened in 1902 and has 40 rooms.", "The museum has 40 rooms.", "yes"),
    ("The museum opened in 1902 and has 40 rooms.", "The museum opened in 1902 in Berlin.", "no"),
    ("Click Save to store the report.", "The report can be exported as a PDF.", "no"),
)

_YES = re.compile(r"^\W*(yes|supported|true|entailed|correct)\b", re.IGNORECASE)
_NO = re.compile(r"^\W*(no|not|unsupported|false|refuted|incorrect)\b", re.IGNORECASE)


def parse_yes_no(raw: str) -> bool | None:
    """Read a yes/no verdict from the start of a reply (``yes``/``Yes.``,
    ``"no"``, ``Supported``, ``False`` ...); ``None`` when neither is found
    first."""
    text = raw.strip()
    if _YES.match(text):
        return True
    if _NO.match(text):
        return False
    low = text.lower()
    y, n = low.find("yes"), low.find("no")
    if y == -1 and n == -1:
        return None
    return n == -1 or (y != -1 and y < n)


class LLMJudge:
    """A chat model as a yes/no support judge (DESIGN.md: the 1.5B model was
    8/8 on a small entailment check, ~0.5 s per claim on 2 CPU cores).

    The evidence comes first in the prompt and the claim last, so backends
    that reuse the key/value cache of a shared prompt prefix (llama.cpp) pay
    for a long evidence once per run of claims against it. Evidence longer
    than ``max_evidence_chars`` characters is cut. An unparseable reply counts
    as *not supported* (its text is kept in ``raw``).

    Raises (from :meth:`judge`):
        JudgeError: the model raised an error.
    """

    prompt_version = LLM_JUDGE_PROMPT_VERSION

    def __init__(self, model: ChatModel, *, max_evidence_chars: int = 6000) -> None:
        self._model = model
        self._max_evidence_chars = max_evidence_chars

    @property
    def name(self) -> str:
        return f"llm:{self._model.name}"

    def messages(self, claim: str, evidence: str) -> list[ChatMessage]:
        """The chat messages sent for one judgment."""
        msgs = [ChatMessage("system", _JUDGE_SYSTEM)]
        for ev, cl, verdict in _SHOTS:
            msgs.append(ChatMessage("user", f"EVIDENCE:\n{ev}\n\nCLAIM: {cl}\nSupported?"))
            msgs.append(ChatMessage("assistant", verdict))
        ev = evidence.strip()[: self._max_evidence_chars] or "(no evidence)"
        msgs.append(ChatMessage("user", f"EVIDENCE:\n{ev}\n\nCLAIM: {claim.strip()}\nSupported?"))
        return msgs

    def judge(self, claim: str, evidence: str) -> Judgment:
        try:
            raw = self._model.complete(self.messages(claim, evidence), max_tokens=3,
                                       temperature=0.0, stop=["\n"])
        except Exception as err:  # backend errors vary; wrap with context
            raise JudgeError(f"judge {self.name} failed on claim {claim[:80]!r}: {err}") from err
        verdict = parse_yes_no(raw)
        return Judgment(claim=claim, evidence_sha=_sha(evidence), supported=bool(verdict),
                        score=1.0 if verdict else 0.0, judge=self.name,
                        prompt_version=self.prompt_version, raw=raw.strip())

    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[Judgment]:
        # group by evidence so a prefix-caching backend reuses the evidence prefix
        order = sorted(range(len(pairs)), key=lambda i: (pairs[i][1], i))
        out: list[Judgment | None] = [None] * len(pairs)
        for i in order:
            out[i] = self.judge(*pairs[i])
        return [j for j in out if j is not None]


# ------------------------------------------------------------ embedding judge


class EmbeddingJudge:
    """Cosine similarity between the claim and the best evidence window.

    The evidence is split into sentences; windows of 1..``window`` consecutive
    sentences are embedded; ``score`` = max cosine similarity with the claim;
    ``supported`` = ``score >= threshold``. Evidence embeddings are memoised per
    evidence text for the judge's lifetime. The default threshold 0.6 suits
    all-MiniLM-L6-v2; calibrate it for other embedders (see
    ``benchmarks/mirage_conformance.py``).
    """

    def __init__(self, embedder: Embedder, *, threshold: float = 0.6, window: int = 2) -> None:
        self._embedder = embedder
        self.threshold = threshold
        self._window = max(1, window)
        self._memo: dict[str, tuple[list[str], np.ndarray]] = {}

    @property
    def name(self) -> str:
        return f"embedding:{self._embedder.name}"

    @property
    def prompt_version(self) -> str:
        return f"cos>={self.threshold:.3f},w={self._window}"

    def _windows(self, evidence: str) -> tuple[list[str], np.ndarray]:
        hit = self._memo.get(evidence)
        if hit is not None:
            return hit
        sents = split_sentences(evidence) or ([evidence.strip()] if evidence.strip() else [])
        wins: list[str] = []
        for size in range(1, self._window + 1):
            for i in range(max(0, len(sents) - size + 1)):
                wins.append(" ".join(sents[i : i + size]))
        vecs = (self._embedder.embed(wins) if wins
                else np.zeros((0, self._embedder.dim), dtype=np.float32))
        self._memo[evidence] = (wins, vecs)
        return wins, vecs

    def scores(self, claims: Sequence[str], evidence: str) -> list[tuple[float, str]]:
        """Best cosine similarity and best window for each claim against ``evidence``."""
        wins, vecs = self._windows(evidence)
        if not claims:
            return []
        if not wins:
            return [(0.0, "") for _ in claims]
        cv = self._embedder.embed(list(claims))
        sims = cv @ vecs.T
        best = sims.argmax(axis=1)
        return [(float(sims[k, best[k]]), wins[int(best[k])]) for k in range(len(claims))]

    def judge(self, claim: str, evidence: str) -> Judgment:
        return self.judge_many([(claim, evidence)])[0]

    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[Judgment]:
        by_ev: dict[str, list[int]] = {}
        for i, (_, ev) in enumerate(pairs):
            by_ev.setdefault(ev, []).append(i)
        out: list[Judgment | None] = [None] * len(pairs)
        for ev, idx in by_ev.items():
            scored = self.scores([pairs[i][0] for i in idx], ev)
            for i, (score, win) in zip(idx, scored, strict=True):
                out[i] = Judgment(claim=pairs[i][0], evidence_sha=_sha(ev),
                                  supported=score >= self.threshold, score=score,
                                  judge=self.name, prompt_version=self.prompt_version,
                                  raw=win[:300])
        return [j for j in out if j is not None]


# --------------------------------------------------------------------- cache


class CachedJudge:
    """Caches another judge's judgments in memory and, when ``path`` is given,
    in a JSONL file (one :class:`Judgment` plus its ``key`` per line, appended
    as judgments are made). The file is read on first use, not in the
    constructor.

    Raises:
        JudgeError: the cache file exists but a line is not valid JSON.
    """

    def __init__(self, inner: SupportJudge, path: str | Path | None = None) -> None:
        self._inner = inner
        self._path = Path(path) if path is not None else None
        self._mem: dict[str, Judgment] | None = None
        self.hits = 0
        self.misses = 0

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def prompt_version(self) -> str:
        return self._inner.prompt_version

    def _load(self) -> dict[str, Judgment]:
        if self._mem is not None:
            return self._mem
        mem: dict[str, Judgment] = {}
        if self._path is not None and self._path.exists():
            with self._path.open(encoding="utf-8") as fh:
                for n, line in enumerate(fh, 1):
                    if not line.strip():
                        continue
                    try:
                        row = json.loads(line)
                        key = row.pop("key")
                        mem[key] = Judgment(**{**row, "cached": True})
                    except (json.JSONDecodeError, KeyError, TypeError) as err:
                        raise JudgeError(
                            f"judgment cache {self._path} line {n} is unreadable ({err}); "
                            "delete the file to rebuild it") from err
        self._mem = mem
        return mem

    def _key(self, claim: str, evidence: str) -> str:
        return judgment_key(self.name, self.prompt_version, claim, evidence)

    def judge(self, claim: str, evidence: str) -> Judgment:
        return self.judge_many([(claim, evidence)])[0]

    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[Judgment]:
        mem = self._load()
        keys = [self._key(c, e) for c, e in pairs]
        todo = [i for i, k in enumerate(keys) if k not in mem]
        todo_unique: dict[str, int] = {}
        for i in todo:
            todo_unique.setdefault(keys[i], i)
        self.hits += len(pairs) - len(todo)
        self.misses += len(todo_unique)
        if todo_unique:
            fresh = self._inner.judge_many([pairs[i] for i in todo_unique.values()])
            lines = []
            for key, j in zip(todo_unique, fresh, strict=True):
                mem[key] = j
                lines.append(json.dumps({"key": key, **{k: v for k, v in asdict(j).items()
                                                         if k != "cached"}}))
            if self._path is not None:
                self._path.parent.mkdir(parents=True, exist_ok=True)
                with self._path.open("a", encoding="utf-8") as fh:
                    fh.write("\n".join(lines) + "\n")
        return [mem[k] for k in keys]
