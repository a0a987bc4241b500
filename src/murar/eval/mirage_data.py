"""Loader for the public MiRAGE WikiVideo release and human InfoP/InfoR from its judgments.

Layout of the release directory (``../shared/eval/mirage-wikivideo``):

- ``human_eval_subset.json``: per topic, the reference ``article`` (text) and,
  in ``claims_to_supporting_videos``, subclaims of the full Wikipedia article
  with the video ids attesting each. The reference subclaims scored by InfoR
  are the subset the short ``article`` states: the list every
  ``metric_reference_*`` judgment file holds (identical across files; the
  authors' recall denominators match it, e.g. 22 for the JWST topic).
- ``model_preds/<system>_relevant_citations.json``: per topic, ``prediction``,
  ``sentences``, per-sentence ``claims`` and ``citations`` (video file paths).
- ``human_judgments/metric_preference/metric_{prediction,reference}_<system>_annotator_<k>_DONE.json``:
  annotator ``k``'s judgment of each predicted subclaim (supported by the
  reference article?) and each reference subclaim (covered by the
  prediction?); ``true``/``false``/``null`` (left blank).

Human InfoP/InfoR (seed 002 section 6.1, appendix E.2): a predicted subclaim
counts as supported when the *majority* of the annotators who judged it said
so, a tie (possible when one left it blank) counting as not supported; human
InfoP of a topic = supported / all predicted subclaims, InfoR = covered / all
reference subclaims, InfoF1 their harmonic mean; a system's score is the
macro average over topics. Per-annotator scores use that annotator's labels,
a blank counting as not supported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from murar.eval.claims import ClaimedAnswer, claimed_answer_from_lists
from murar.eval.errors import EvalDataError
from murar.eval.mirage import PRF, MacroPRF, macro_average, majority_vote, prf
from murar.eval.scorer import Reference

__all__ = ["HumanLabels", "WikiVideoPrediction", "WikiVideoRelease", "WikiVideoTopic",
           "human_info_scores"]

_PRED_SUFFIX = "_relevant_citations.json"
_JUDGE_FILE = re.compile(r"metric_(prediction|reference)_(.+)_annotator_(\d+)_DONE\.json$")


def _read_json(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError as err:
        raise EvalDataError(f"MiRAGE release file not found: {path}") from err
    except json.JSONDecodeError as err:
        raise EvalDataError(f"MiRAGE release file is not valid JSON: {path} ({err})") from err


def video_id(path: str) -> str:
    """``/exp/.../all_videos/69uT90tEJdE.mp4`` -> ``69uT90tEJdE``."""
    return path.rsplit("/", 1)[-1].rsplit(".", 1)[0]


@dataclass(slots=True, kw_only=True)
class WikiVideoTopic:
    """A topic's reference: article text, subclaims, and attesting video ids."""

    topic: str
    article: str
    claims: list[str]
    claim_sources: dict[str, list[str]]

    def reference(self) -> Reference:
        return Reference(text=self.article, claims=list(self.claims),
                         claim_sources={k: list(v) for k, v in self.claim_sources.items()})


@dataclass(slots=True, kw_only=True)
class WikiVideoPrediction:
    """One system's article for one topic, decomposed (citations are video ids)."""

    system: str
    topic: str
    text: str
    sentences: list[str]
    claims: list[list[str]]
    citations: list[list[str]]

    def claimed(self) -> ClaimedAnswer:
        ans = claimed_answer_from_lists(self.sentences, self.claims, self.citations,
                                        text=self.text.strip())
        ans.decomposer = "mirage-release"
        return ans


@dataclass(slots=True, kw_only=True)
class HumanLabels:
    """One annotator's labels for one system: ``pred[topic][i]`` for predicted
    subclaim ``i`` (prediction order), ``ref[topic][j]`` for reference subclaim ``j``."""

    system: str
    annotator: int
    pred: dict[str, list[bool | None]]
    ref: dict[str, list[bool | None]]


class WikiVideoRelease:
    """Read access to the release directory ``root`` (nothing is read in the constructor).

    Raises (from the accessors):
        EvalDataError: a file is missing, malformed, or disagrees with the
            predictions it annotates (names the file).
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    @cached_property
    def topics(self) -> dict[str, WikiVideoTopic]:
        """Topics in file order."""
        data = _read_json(self.root / "human_eval_subset.json")
        judged: dict[str, list[str]] = {}
        rfiles = sorted((self.root / "human_judgments" / "metric_preference")
                        .glob("metric_reference_*_DONE.json"))
        if rfiles:
            rj = _read_json(rfiles[0])
            judged = {t: [str(x["claim"]) for x in row["claims"]] for t, row in rj.items()}
        out: dict[str, WikiVideoTopic] = {}
        for topic, row in data.items():
            c2v = row.get("claims_to_supporting_videos")
            if not isinstance(c2v, dict) or "article" not in row:
                raise EvalDataError(f"{self.root / 'human_eval_subset.json'}: topic {topic!r} "
                                    "lacks 'article' or 'claims_to_supporting_videos'")
            out[topic] = WikiVideoTopic(
                topic=topic, article=str(row["article"]), claims=judged.get(topic, list(c2v)),
                claim_sources={c: [str(v) for v in (d or {}).get("supporting_videos", [])]
                               for c, d in c2v.items()})
        return out

    def systems(self) -> list[str]:
        """Systems with predictions (``model_preds/<system>_relevant_citations.json``), sorted."""
        files = sorted((self.root / "model_preds").glob(f"*{_PRED_SUFFIX}"))
        if not files:
            raise EvalDataError(f"no predictions found under {self.root / 'model_preds'}")
        return [f.name[: -len(_PRED_SUFFIX)] for f in files]

    def human_systems(self) -> list[str]:
        """Systems with InfoP/InfoR human judgments, sorted."""
        d = self.root / "human_judgments" / "metric_preference"
        return sorted({m.group(2) for f in d.glob("*.json") if (m := _JUDGE_FILE.search(f.name))})

    def annotators(self, system: str) -> list[int]:
        d = self.root / "human_judgments" / "metric_preference"
        return sorted({int(m.group(3)) for f in d.glob(f"metric_prediction_{system}_annotator_*")
                       if (m := _JUDGE_FILE.search(f.name))})

    def predictions(self, system: str) -> dict[str, WikiVideoPrediction]:
        """One system's predictions per topic."""
        path = self.root / "model_preds" / f"{system}{_PRED_SUFFIX}"
        data = _read_json(path)
        out: dict[str, WikiVideoPrediction] = {}
        for topic, row in data.items():
            try:
                sents = [str(s) for s in row["sentences"]]
                claims = [[str(c) for c in cl] for cl in row["claims"]]
                cites = [[video_id(str(p)) for p in cs] for cs in row.get("citations") or
                         [[] for _ in sents]]
            except (KeyError, TypeError) as err:
                raise EvalDataError(f"{path}: topic {topic!r} is malformed ({err})") from err
            if not len(sents) == len(claims) == len(cites):
                raise EvalDataError(f"{path}: topic {topic!r} has {len(sents)} sentences but "
                                    f"{len(claims)} claim lists and {len(cites)} citation lists")
            out[topic] = WikiVideoPrediction(system=system, topic=topic,
                                             text=str(row["prediction"]), sentences=sents,
                                             claims=claims, citations=cites)
        return out

    def human_labels(self, system: str) -> list[HumanLabels]:
        """Every annotator's labels for ``system``, aligned with the predictions'
        subclaim order and the topics' reference subclaim order."""
        preds = self.predictions(system)
        d = self.root / "human_judgments" / "metric_preference"
        out: list[HumanLabels] = []
        for k in self.annotators(system):
            pfile = d / f"metric_prediction_{system}_annotator_{k}_DONE.json"
            rfile = d / f"metric_reference_{system}_annotator_{k}_DONE.json"
            pj, rj = _read_json(pfile), _read_json(rfile)
            pred: dict[str, list[bool | None]] = {}
            ref: dict[str, list[bool | None]] = {}
            for topic, p in preds.items():
                rows = [x for lst in pj[topic]["claims"].values() for x in lst]
                want = [c for cl in p.claims for c in cl]
                if [x["claim"] for x in rows] != want:
                    raise EvalDataError(f"{pfile}: topic {topic!r}: judged subclaims differ "
                                        "from the predictions' subclaims")
                pred[topic] = [_label(x.get("judgment")) for x in rows]
                rrows = rj[topic]["claims"]
                if [x["claim"] for x in rrows] != self.topics[topic].claims:
                    raise EvalDataError(f"{rfile}: topic {topic!r}: judged reference subclaims "
                                        "differ from human_eval_subset.json")
                ref[topic] = [_label(x.get("judgment")) for x in rrows]
            out.append(HumanLabels(system=system, annotator=k, pred=pred, ref=ref))
        if not out:
            raise EvalDataError(f"no human judgments for system {system!r} under {d}")
        return out


def _label(v: Any) -> bool | None:
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip().lower() in {"true", "false"}:
        return v.strip().lower() == "true"
    raise EvalDataError(f"unexpected judgment value {v!r} (want true, false or null)")


def majority_labels(labels: Sequence[HumanLabels], role: Literal["pred", "ref"],
                    topic: str) -> list[bool | None]:
    """Per-subclaim majority over annotators (tie -> False, all blank -> None)."""
    cols = [getattr(h, role)[topic] for h in labels]
    return [majority_vote(list(v)) for v in zip(*cols, strict=True)]


def human_info_scores(
    labels: Sequence[HumanLabels], *, annotator: int | None = None,
) -> tuple[dict[str, PRF], MacroPRF]:
    """Human InfoP/InfoR/InfoF1 per topic and macro-averaged over topics.

    ``annotator=None`` uses the majority vote (module docstring); otherwise
    that annotator's labels alone. A subclaim with no usable label counts as
    not supported.

    Raises:
        EvalDataError: ``annotator`` has no labels.
    """
    if annotator is not None:
        chosen = [h for h in labels if h.annotator == annotator]
        if not chosen:
            raise EvalDataError(f"no labels from annotator {annotator}")
    topics = list(labels[0].pred)
    per: dict[str, PRF] = {}
    for t in topics:
        if annotator is None:
            p, r = majority_labels(labels, "pred", t), majority_labels(labels, "ref", t)
        else:
            p, r = chosen[0].pred[t], chosen[0].ref[t]
        per[t] = prf([bool(x) for x in p], [bool(x) for x in r])
    return per, macro_average(list(per.values()))
