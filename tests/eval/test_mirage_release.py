"""Integration: the public MiRAGE WikiVideo release (../shared/eval/mirage-wikivideo)."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.embed.fake import HashingEmbedder
from murar.eval.conformance import claim_items, judge_agreement
from murar.eval.judge import EmbeddingJudge
from murar.eval.mirage_data import WikiVideoRelease, human_info_scores

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def release(eval_root: Path) -> WikiVideoRelease:
    return WikiVideoRelease(eval_root / "mirage-wikivideo")


def test_structure(release: WikiVideoRelease) -> None:
    assert release.systems() == ["qwen3_llm_only", "qwen_72b_cag", "qwen_72b_rag"]
    assert release.human_systems() == ["qwen_72b_cag", "qwen_72b_rag"]
    jwst = release.topics["Launch_and_commissioning_of_the_James_Webb_Space_Telescope"]
    assert len(jwst.claims) == 22  # the authors' recall denominator for this topic
    items = claim_items(release)
    assert sum(i.role == "pred" for i in items) == 705 and sum(i.role == "ref" for i in items) == 632


def test_human_scores_pinned(release: WikiVideoRelease) -> None:
    per, m = human_info_scores(release.human_labels("qwen_72b_cag"))
    assert m.precision == pytest.approx(0.3384, abs=1e-4)
    assert m.recall == pytest.approx(0.4371, abs=1e-4)
    assert m.f1 == pytest.approx(0.3673, abs=1e-4)
    jw = per["Launch_and_commissioning_of_the_James_Webb_Space_Telescope"]
    assert (jw.n_ref_hit, jw.n_ref) == (14, 22)
    _, r = human_info_scores(release.human_labels("qwen_72b_rag"))
    assert r.f1 == pytest.approx(0.1287, abs=1e-4)


def test_agreement_runs_on_sample(release: WikiVideoRelease) -> None:
    rep = judge_agreement(release, EmbeddingJudge(HashingEmbedder(), threshold=0.7), limit=60)
    assert rep.n_items == 60 and rep.sampled and 0.0 <= rep.accuracy <= 1.0
    assert rep.human_alpha == pytest.approx(0.6947, abs=1e-3)
