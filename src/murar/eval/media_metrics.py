"""Media-selection metrics against gold (issue "Media and retrieval metrics"; MuRAR section 2.3-2.4).

Gold comes from ``../shared/eval/dev.jsonl`` (format in its README). Matching:

- images by file path relative to the corpus root (``corpora/adobe-docs``),
  normalised (``./`` and ``..`` resolved, forward slashes); with the corpus
  root given, an image whose file is byte-identical to a gold image's file
  matches that gold image: docs sites copy one figure under two names (a
  MyST book shows ``images/Truss1.svg`` on one page and the same bytes as
  ``examples/theory_questions_images/Truss1.svg`` on another), and the reader
  sees the same picture;
- tables by (page path, ``index_in_page``);
- videos by URL up to the numeric id (query string and trailing path dropped,
  scheme and host case ignored).

Per question: precision/recall/F1 per media kind and over all kinds,
ordering agreement of the matched items (pairs of the same kind: the gold
lists each kind in document order), placement correctness, and for
``text-only`` questions whether the answer correctly has no media. Aggregates
are micro (pooled counts) and macro (mean over questions where a value
exists).
"""

from __future__ import annotations

import posixpath
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from murar.eval.errors import EvalDataError, json_object_lines
from murar.eval.mirage import f1_score
from murar.ingest.media_flags import content_hash
from murar.schema import (
    MEDIA_KINDS,
    Answer,
    ImageItem,
    MediaBlock,
    TableItem,
    VideoItem,
)

__all__ = ["GoldQuestion", "KindScore", "MediaScores", "MediaSummary", "load_gold",
           "media_key", "normalise_path", "normalise_video_url", "ordering_agreement",
           "score_media", "summarise_media"]


@dataclass(frozen=True, slots=True, kw_only=True)
class GoldQuestion:
    """One line of ``dev.jsonl``. ``gold_tables`` holds ``(page, index_in_page)``; ``corpus``
    names the documentation set a question is about when one file spans several (the
    folder name under ``corpora/docsites/`` in the docs-site question files), else ``""``."""

    id: str
    question: str
    kind: str
    page: str
    section: tuple[str, ...]
    gold_images: tuple[str, ...] = ()
    gold_tables: tuple[tuple[str, int], ...] = ()
    gold_videos: tuple[str, ...] = ()
    answer_points: tuple[str, ...] = ()
    corpus: str = ""

    def gold_keys(self) -> list[tuple[str, str]]:
        """Gold media as ``(kind, key)`` in file order (images, tables, videos)."""
        return ([("image", normalise_path(p)) for p in self.gold_images]
                + [("table", f"{normalise_path(p)}#{i}") for p, i in self.gold_tables]
                + [("video", normalise_video_url(u)) for u in self.gold_videos])


def load_gold(path: str | Path) -> list[GoldQuestion]:
    """Read a gold questions file (JSON lines).

    Raises:
        EvalDataError: the file is missing, unreadable, not UTF-8, holds no question,
            or a line is malformed (line number given): not a JSON object, no
            ``question`` string (or an empty one), a ``kind``, ``page`` or ``corpus``
            that is not a string, a list field (``section``,
            ``gold_images``, ``gold_videos``, ``answer_points``) that is not a
            list of strings, a ``gold_tables`` entry without a string ``page``
            and a whole ``index_in_page`` >= 0.
    """
    p = Path(path)
    if not p.exists():
        raise EvalDataError(f"questions file not found: {p}")
    out: list[GoldQuestion] = []
    for n, r in json_object_lines(p, "question"):
        try:
            question = _field_text(r, "question")
            if not question.strip():
                raise ValueError("'question' is empty")
            gid = r.get("id", f"q{n}")
            if isinstance(gid, bool) or not isinstance(gid, (str, int)):
                raise TypeError(f"'id' must be a string, not {type(gid).__name__}")
            out.append(GoldQuestion(
                id=str(gid), question=question, kind=_field_text(r, "kind", ""), page=_field_text(r, "page", ""),
                section=_field_texts(r, "section"), gold_images=_field_texts(r, "gold_images"),
                gold_tables=_gold_tables(r), gold_videos=_field_texts(r, "gold_videos"),
                answer_points=_field_texts(r, "answer_points"), corpus=_field_text(r, "corpus", "")))
        except (KeyError, TypeError, ValueError) as err:
            raise EvalDataError(f"{p} line {n}: malformed question ({err})") from err
    if not out:  # an evaluation of nothing is not a result
        raise EvalDataError(f"no questions in {p} (one JSON object per line, with a 'question' field)")
    return out


def _field_text(r: dict[str, object], key: str, default: str | None = None) -> str:
    """The string ``r[key]`` (``default`` when missing or null; required without one)."""
    value = r.get(key)
    if value is None and default is not None:
        return default
    if not isinstance(value, str):
        got = "missing" if key not in r else "null" if value is None else type(value).__name__
        raise TypeError(f"{key!r} must be a string, not {got}")
    return value


def _field_texts(r: dict[str, object], key: str) -> tuple[str, ...]:
    """The list of strings ``r[key]`` (empty when missing or null). A bare string is an
    error, not its characters: ``"gold_images": "a.png"`` read as eight gold images
    ('a', '.', 'p', ...) and scored every answer against them without a word."""
    value = r.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        got = type(value).__name__ if not isinstance(value, list) else "a list holding " + ", ".join(
            sorted({type(v).__name__ for v in value if not isinstance(v, str)}))
        raise TypeError(f"{key!r} must be a list of strings, not {got}")
    return tuple(value)


def _gold_tables(r: dict[str, object]) -> tuple[tuple[str, int], ...]:
    """``gold_tables`` as ``(page, index_in_page)``: a list of objects with a string
    ``page`` and a whole ``index_in_page`` >= 0."""
    value = r.get("gold_tables")
    if value is None:
        return ()
    if not isinstance(value, list):
        raise TypeError(f"'gold_tables' must be a list of objects, not {type(value).__name__}")
    out: list[tuple[str, int]] = []
    for t in value:
        if not isinstance(t, dict):  # e.g. an image-style "page.md#0": say what an entry looks like
            raise TypeError(f'each gold_tables entry is an object {{"page": PATH, "index_in_page": N}} '
                            f"(N counts the page's tables from 0), not {t!r}")
        index = t.get("index_in_page")
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise ValueError(f"'index_in_page' must be a whole number >= 0, not {index!r}")
        out.append((_field_text(t, "page"), index))
    return tuple(out)


def normalise_path(path: str) -> str:
    """``a/./b/../c.png`` -> ``a/c.png``; backslashes become slashes; no leading ``/``."""
    p = posixpath.normpath(path.replace("\\", "/")).lstrip("/")
    return "" if p == "." else p


_VIDEO_ID = re.compile(r"^(?P<base>.*?/\d+)(?:[/?#].*)?$")


def normalise_video_url(url: str) -> str:
    """``https://Video.tv.adobe.com/v/3486313/?learn=on`` -> ``https://video.tv.adobe.com/v/3486313``.

    URLs without a numeric path segment are compared without query string or fragment.
    """
    u = url.strip()
    u = re.sub(r"^http://", "https://", u, flags=re.IGNORECASE)
    m = re.match(r"^(https://)([^/]+)(.*)$", u, flags=re.IGNORECASE)
    if m:
        u = m.group(1).lower() + m.group(2).lower() + m.group(3)
    hit = _VIDEO_ID.match(u)
    if hit:
        return hit.group("base")
    return re.split(r"[?#]", u, maxsplit=1)[0].rstrip("/")


def media_key(block: MediaBlock, corpus_root: str | Path | None = None) -> tuple[str, str] | None:
    """``(kind, key)`` of an answer's media block, comparable with
    :meth:`GoldQuestion.gold_keys`; ``None`` when it cannot be keyed (remote
    image without path). Absolute image paths are made relative to ``corpus_root``."""
    item = block.item
    if isinstance(item, ImageItem):
        if not item.path:
            return None
        p = item.path
        if corpus_root is not None and Path(p).is_absolute():
            try:
                p = Path(p).resolve().relative_to(Path(corpus_root).resolve()).as_posix()
            except ValueError:
                return None
        return "image", normalise_path(p)
    if isinstance(item, TableItem):
        return "table", f"{normalise_path(item.source_path)}#{item.index_in_page}"
    if isinstance(item, VideoItem):
        return "video", normalise_video_url(item.url)
    return None


def _same_pictures(pred: Sequence[str], gold: Sequence[str], corpus_root: Path) -> dict[str, str]:
    """Predicted image keys that are not gold but whose file has the bytes of a gold
    image's file, mapped to that gold key (files read under ``corpus_root``; an
    unreadable file matches nothing)."""
    extra = [k for k in dict.fromkeys(pred) if k not in gold]
    if not extra or not gold:
        return {}
    by_digest: dict[str, str] = {}
    for g in gold:
        if digest := content_hash(corpus_root / g):  # the hash the index dedupes media by
            by_digest.setdefault(digest, g)
    return {k: by_digest[d] for k in extra if (d := content_hash(corpus_root / k)) and d in by_digest}


def _ordering_counts(predicted: Sequence[str], gold: Sequence[str]) -> tuple[int, int]:
    common = [k for k in dict.fromkeys(predicted) if k in gold]
    pos = {k: gold.index(k) for k in common}
    pairs = list(combinations(common, 2))  # in predicted order
    return sum(1 for a, b in pairs if pos[a] < pos[b]), len(pairs)


def ordering_agreement(predicted: Sequence[str], gold: Sequence[str]) -> float | None:
    """Share of pairs of matched items (in both lists) that the answer orders as
    the gold does; ``None`` when fewer than two items match."""
    good, total = _ordering_counts(predicted, gold)
    return good / total if total else None


@dataclass(frozen=True, slots=True, kw_only=True)
class KindScore:
    """Matches of one media kind (or all kinds) for one question.

    ``precision`` is ``None`` when the answer has no media of the kind,
    ``recall`` when the gold has none; ``f1`` is ``None`` only when both are
    ``None`` (nothing to score), else 0 when either side is missing.
    """

    tp: int
    n_pred: int
    n_gold: int
    precision: float | None
    recall: float | None
    f1: float | None


def _kind_score(pred: Iterable[str], gold: Iterable[str]) -> KindScore:
    ps, gs = list(dict.fromkeys(pred)), list(dict.fromkeys(gold))
    tp = len(set(ps) & set(gs))
    p = tp / len(ps) if ps else None
    r = tp / len(gs) if gs else None
    if p is None and r is None:
        f: float | None = None
    elif p is None or r is None:
        f = 0.0
    else:
        f = f1_score(p, r)
    return KindScore(tp=tp, n_pred=len(ps), n_gold=len(gs), precision=p, recall=r, f1=f)


@dataclass(slots=True, kw_only=True)
class MediaScores:
    """Media metrics of one answer against one gold question.

    ``by_kind`` has ``image``, ``table``, ``video`` and ``all``. ``placement``
    is the share of media placed after a sentence attributed to a snippet of
    the item's own section (``None`` without media or trace). ``no_media_correct``
    is set for ``text-only`` questions only.
    """

    question_id: str
    by_kind: dict[str, KindScore]
    ordering: float | None
    placement: float | None
    no_media_correct: bool | None
    unmatched: list[str] = field(default_factory=list)


def _placement(answer: Answer) -> float | None:
    sel = answer.trace.media_selected
    if not answer.media or not sel:
        return None
    section_of = {s.snippet.id: s.snippet.section_id
                  for s in [*answer.trace.retrieved, *answer.sources]}
    attributed = {a.sentence_index: a.snippet_id for a in answer.trace.attributions}
    ok = 0
    for m in sel:
        snip = attributed.get(m.sentence_index)
        ok += snip is not None and section_of.get(snip) == m.item.section_id
    return ok / len(sel)


def _ordering_by_kind(pred: Sequence[tuple[str, str]], gold: Sequence[tuple[str, str]]) -> float | None:
    # gold lists each kind in document order but says nothing about order across kinds,
    # so only pairs of the same kind are compared (pooled over kinds)
    good = total = 0
    for kind in MEDIA_KINDS:
        g, t = _ordering_counts([k for x, k in pred if x == kind], [k for x, k in gold if x == kind])
        good, total = good + g, total + t
    return good / total if total else None


def score_media(answer: Answer, gold: GoldQuestion,
                corpus_root: str | Path | None = None) -> MediaScores:
    """Compare ``answer.media`` with ``gold`` (see module docstring)."""
    keyed = [(b, media_key(b, corpus_root)) for b in answer.media]
    pred = [k for _, k in keyed if k is not None]
    gold_keys = gold.gold_keys()
    if corpus_root is not None:  # the same picture under another file name is the gold picture
        same = _same_pictures([k for t, k in pred if t == "image"],
                              [k for t, k in gold_keys if t == "image"], Path(corpus_root))
        pred = [(t, same.get(k, k) if t == "image" else k) for t, k in pred]
    by_kind: dict[str, KindScore] = {kind: _kind_score([k for t, k in pred if t == kind],
                                 [k for t, k in gold_keys if t == kind]) for kind in MEDIA_KINDS}
    by_kind["all"] = _kind_score([f"{t}:{k}" for t, k in pred],
                                 [f"{t}:{k}" for t, k in gold_keys])
    gold_set = set(gold_keys)
    unmatched = [f"{t}:{k}" for t, k in pred if (t, k) not in gold_set]
    return MediaScores(
        question_id=gold.id, by_kind=by_kind,
        ordering=_ordering_by_kind(pred, gold_keys),
        placement=_placement(answer),
        no_media_correct=(len(answer.media) == 0) if gold.kind == "text-only" else None,
        unmatched=unmatched)


@dataclass(slots=True, kw_only=True)
class MediaSummary:
    """Aggregates over questions: ``micro[kind]`` = (P, R, F1) from pooled
    counts; ``macro[kind]`` = means of per-question P, R, F1 where defined;
    ``ordering``/``placement`` means where defined; ``no_media_rate`` over
    text-only questions; ``n_*`` say how many questions each mean covers."""

    micro: dict[str, dict[str, float | None]]
    macro: dict[str, dict[str, float | None]]
    ordering: float | None
    placement: float | None
    no_media_rate: float | None
    n_questions: int
    n_ordering: int
    n_placement: int
    n_text_only: int


def _mean(vals: Iterable[float | None]) -> float | None:
    v = [x for x in vals if x is not None]
    return statistics.fmean(v) if v else None


def summarise_media(scores: Sequence[MediaScores]) -> MediaSummary:
    """Micro and macro aggregates of per-question :class:`MediaScores`."""
    micro: dict[str, dict[str, float | None]] = {}
    macro: dict[str, dict[str, float | None]] = {}
    for kind in (*MEDIA_KINDS, "all"):
        ks = [s.by_kind[kind] for s in scores]
        tp, npred, ngold = sum(k.tp for k in ks), sum(k.n_pred for k in ks), sum(k.n_gold for k in ks)
        p = tp / npred if npred else None
        r = tp / ngold if ngold else None
        micro[kind] = {"precision": p, "recall": r,
                       "f1": f1_score(p, r) if p is not None and r is not None else None,
                       "tp": float(tp), "n_pred": float(npred), "n_gold": float(ngold)}
        macro[kind] = {"precision": _mean(k.precision for k in ks),
                       "recall": _mean(k.recall for k in ks), "f1": _mean(k.f1 for k in ks)}
    text_only = [s.no_media_correct for s in scores if s.no_media_correct is not None]
    return MediaSummary(
        micro=micro, macro=macro, ordering=_mean(s.ordering for s in scores),
        placement=_mean(s.placement for s in scores),
        no_media_rate=(sum(text_only) / len(text_only)) if text_only else None,
        n_questions=len(scores), n_ordering=sum(s.ordering is not None for s in scores),
        n_placement=sum(s.placement is not None for s in scores), n_text_only=len(text_only))
