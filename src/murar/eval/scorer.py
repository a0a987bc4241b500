"""Score one decomposed answer with MiRAGE, in reference or collection mode (seed 002, section 4).

:class:`MirageScorer` asks a :class:`~murar.eval.judge.SupportJudge` for the
judgments each metric needs (batched, in at most three rounds) and hands the
booleans to the pure arithmetic in :mod:`murar.eval.mirage`. Every judgment
is kept per claim in :attr:`MirageResult.records`.

Modes:

- ``reference``: predicted subclaims are judged against the reference text
  (InfoP); reference subclaims against the answer (InfoR). For CiteP/CiteR a
  cited source stands for the reference subclaims it attests
  (``Reference.claim_sources``, the MiRAGE reference proxy, seed 002 4.2.1);
  without that mapping, sources' own text is used when given.
- ``collection``: predicted subclaims are judged against each source on its
  own, any single supporting source counting (InfoP; CiteP over the cited
  ones). InfoR still needs reference subclaims; without them recall is
  ``None``.

Images, tables and videos enter as :class:`Source` built from their text
representation (:meth:`Source.from_media`), and :attr:`MirageResult.notes`
says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from murar.eval.claims import ClaimedAnswer
from murar.eval.errors import EvalError
from murar.eval.judge import Judgment, SupportJudge
from murar.eval.mirage import (
    PRF,
    cite_supported,
    prf,
    properly_attributed,
    supported_by_any,
)
from murar.schema import AnyMedia, Snippet

__all__ = ["ClaimRecord", "MirageResult", "MirageScorer", "Mode", "Reference", "Source"]

Mode = Literal["reference", "collection"]

MEDIA_NOTE = ("images, tables and videos were judged through their text representation "
              "(headings, caption, content, surrounding text, OCR/transcript), not their pixels or audio")


@dataclass(slots=True, kw_only=True)
class Source:
    """One unit of evidence: ``id`` (what citations refer to), ``text`` (what
    the judge reads), ``kind`` (``text``, ``image``, ``table``, ``video``)."""

    id: str
    text: str
    kind: str = "text"
    label: str = ""

    @classmethod
    def from_snippet(cls, snippet: Snippet) -> Source:
        return cls(id=snippet.id, text=snippet.text, kind="text",
                   label=" > ".join(snippet.heading_path))

    @classmethod
    def from_media(cls, item: AnyMedia, *, max_chars: int = 1200) -> Source:
        """A media item through its text representation (at most ``max_chars`` characters)."""
        return cls(id=item.id, text=item.representation(max_chars), kind=item.kind,
                   label=item.label)


@dataclass(slots=True, kw_only=True)
class Reference:
    """A reference answer: its ``text``, its subclaims, and optionally which
    source ids attest each subclaim (``claim_sources[claim] = [ids]``)."""

    text: str
    claims: list[str]
    claim_sources: dict[str, list[str]] | None = None

    def evidence_text(self) -> str:
        """The text predicted subclaims are judged against (the reference text,
        or its subclaims joined when no text is given)."""
        return self.text.strip() or "\n".join(self.claims)

    def source_proxy(self, source_id: str) -> str:
        """Reference-mode stand-in for a source: the subclaims it attests."""
        srcs = self.claim_sources or {}
        return "\n".join(c for c in self.claims if source_id in srcs.get(c, ()))


@dataclass(slots=True, kw_only=True)
class ClaimRecord:
    """The judgments made for one subclaim.

    ``role`` is ``prediction`` or ``reference``. For a predicted subclaim,
    ``info`` = supported by the evidence, ``cite`` = supported by one of its
    cited sources; for a reference subclaim, ``info`` = covered by the answer,
    ``cite`` = properly attributed. ``cite`` is ``None`` when CiteF1 was not
    computed. ``score`` is the info judgment's strength.
    """

    role: Literal["prediction", "reference"]
    claim: str
    sentence_index: int | None
    citations: list[str]
    info: bool
    cite: bool | None
    score: float
    supporting_sources: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class MirageResult:
    """MiRAGE scores of one answer. ``cite`` is ``None`` when citations could
    not be checked (no sources and no claim-to-source mapping)."""

    mode: Mode
    info: PRF
    cite: PRF | None
    records: list[ClaimRecord]
    judge: str
    judge_prompt_version: str
    decomposer: str
    notes: list[str] = field(default_factory=list)


class _Batch:
    """Memoised, batched access to a judge."""

    def __init__(self, judge: SupportJudge) -> None:
        self._judge = judge
        self._memo: dict[tuple[str, str], Judgment] = {}

    def run(self, pairs: Sequence[tuple[str, str]]) -> None:
        todo = list(dict.fromkeys(p for p in pairs if p not in self._memo))
        if todo:
            for p, j in zip(todo, self._judge.judge_many(todo), strict=True):
                self._memo[p] = j

    def get(self, claim: str, evidence: str) -> Judgment:
        if (claim, evidence) not in self._memo:
            self.run([(claim, evidence)])
        return self._memo[(claim, evidence)]


class MirageScorer:
    """Computes InfoP/InfoR/InfoF1 and CiteP/CiteR/CiteF1 for decomposed answers.

    The judge is injected (wrap it in :class:`~murar.eval.judge.CachedJudge`
    to save and reuse judgments).
    """

    def __init__(self, judge: SupportJudge) -> None:
        self.judge = judge

    def score(
        self,
        answer: ClaimedAnswer,
        *,
        mode: Mode = "reference",
        reference: Reference | None = None,
        sources: Sequence[Source] | None = None,
    ) -> MirageResult:
        """Score ``answer``.

        Raises:
            EvalError: ``reference`` mode without a reference, or ``collection``
                mode without sources.
        """
        if mode == "reference" and reference is None:
            raise EvalError("reference mode needs a Reference (text and subclaims)")
        if mode == "collection" and not sources:
            raise EvalError("collection mode needs the source collection (cited/retrieved items)")
        src = {s.id: s for s in sources or ()}
        b = _Batch(self.judge)
        claims = answer.claims
        cites = answer.claim_citations()
        ref_claims = reference.claims if reference is not None else []
        use_proxy = mode == "reference" and reference is not None and bool(reference.claim_sources)
        can_cite = use_proxy or bool(src)

        def source_text(d: str) -> str | None:
            if use_proxy:
                assert reference is not None
                return reference.source_proxy(d) or None
            s = src.get(d)
            return s.text if s is not None else None

        # round 1: InfoP, InfoR, CiteP
        pairs: list[tuple[str, str]] = []
        if mode == "reference":
            assert reference is not None
            ev = reference.evidence_text()
            pairs += [(c, ev) for c in claims]
        else:
            pairs += [(c, s.text) for c in claims for s in src.values()]
        pairs += [(r, answer.text) for r in ref_claims]
        if can_cite:
            for c, cs in zip(claims, cites, strict=True):
                pairs += [(c, t) for d in cs if (t := source_text(d)) is not None]
        b.run(pairs)

        records: list[ClaimRecord] = []
        sent_of = [i for i, s in enumerate(answer.sentences) for _ in s.claims]
        pred_info: list[bool] = []
        pred_cite: list[bool] = []
        for c, cs, si in zip(claims, cites, sent_of, strict=True):
            if mode == "reference":
                assert reference is not None
                j = b.get(c, reference.evidence_text())
                info, score, supp = j.supported, j.score, []
            else:
                js = {d: b.get(c, s.text) for d, s in src.items()}
                supp = [d for d, j in js.items() if j.supported]
                info = supported_by_any(j.supported for j in js.values())
                score = max((j.score for j in js.values()), default=0.0)
            cite: bool | None = None
            if can_cite:
                support = {d: b.get(c, t).supported for d in cs
                           if (t := source_text(d)) is not None}
                cite = cite_supported(cs, support)
                pred_cite.append(cite)
            pred_info.append(info)
            records.append(ClaimRecord(role="prediction", claim=c, sentence_index=si,
                                       citations=list(cs), info=info, cite=cite, score=score,
                                       supporting_sources=supp))

        ref_info = [b.get(r, answer.text).supported for r in ref_claims]

        # rounds 2-3: CiteR, only for covered reference subclaims
        ref_cite: list[bool] = []
        sent_cites = [s.citations for s in answer.sentences]
        cited_ids = list(dict.fromkeys(d for cs in sent_cites for d in cs))
        if can_cite and reference is not None:
            covered = [r for r, ok in zip(ref_claims, ref_info, strict=True) if ok]
            if not use_proxy:
                b.run([(r, t) for r in covered for d in cited_ids
                       if (t := source_text(d)) is not None])
            supports: dict[str, dict[str, bool]] = {}
            for r in covered:
                if use_proxy:
                    assert reference.claim_sources is not None
                    ok_ids = set(reference.claim_sources.get(r, ()))
                    supports[r] = {d: d in ok_ids for d in cited_ids}
                else:
                    supports[r] = {d: b.get(r, t).supported for d in cited_ids
                                   if (t := source_text(d)) is not None}
            b.run([(r, s.text) for r in covered for s in answer.sentences
                   if any(supports[r].get(d, False) for d in s.citations)])
            for r, ok in zip(ref_claims, ref_info, strict=True):
                if not ok:
                    ref_cite.append(False)
                    continue
                stated = [any(supports[r].get(d, False) for d in s.citations)
                          and b.get(r, s.text).supported for s in answer.sentences]
                ref_cite.append(properly_attributed(stated, sent_cites, supports[r]))
        for k, r in enumerate(ref_claims):
            j = b.get(r, answer.text)
            records.append(ClaimRecord(role="reference", claim=r, sentence_index=None,
                                       citations=[], info=ref_info[k],
                                       cite=ref_cite[k] if ref_cite else None, score=j.score))

        info_prf = prf(pred_info, ref_info if reference is not None else None)
        cite_prf: PRF | None = None
        if can_cite:
            cite_prf = prf(pred_cite, ref_cite if reference is not None else None)
        notes: list[str] = []
        kinds = {s.kind for s in src.values()}
        if kinds - {"text"}:
            notes.append(MEDIA_NOTE)
        if use_proxy:
            notes.append("citations judged in reference mode: a cited source stands for the "
                         "reference subclaims it attests")
        return MirageResult(mode=mode, info=info_prf, cite=cite_prf, records=records,
                            judge=self.judge.name, judge_prompt_version=self.judge.prompt_version,
                            decomposer=answer.decomposer, notes=notes)
