"""Hand-checked MiRAGE arithmetic (seed 002, section 4)."""

from __future__ import annotations

import math

import pytest

from murar.eval.mirage import (
    PRF,
    cite_supported,
    f1_score,
    macro_average,
    majority_vote,
    prf,
    properly_attributed,
    ratio,
    supported_by_any,
)


def test_prf_hand_computed() -> None:
    # 3 of 4 predicted subclaims supported, 1 of 2 reference subclaims covered
    s = prf([True, True, False, True], [True, False])
    assert s.precision == 0.75
    assert s.recall == 0.5
    assert s.f1 == pytest.approx(2 * 0.75 * 0.5 / 1.25)  # 0.6
    assert (s.n_pred, s.n_pred_hit, s.n_ref, s.n_ref_hit) == (4, 3, 2, 1)


def test_no_claims_scores_zero_not_perfect() -> None:
    s = prf([], [True, False])
    assert s.precision == 0.0 and s.recall == 0.5 and s.f1 == 0.0
    s = prf([], [])
    assert (s.precision, s.recall, s.f1, s.n_pred, s.n_ref) == (0.0, 0.0, 0.0, 0, 0)


def test_unsupported_everything() -> None:
    s = prf([False] * 5, [False] * 3)
    assert (s.precision, s.recall, s.f1) == (0.0, 0.0, 0.0)


def test_no_reference_gives_none_recall() -> None:
    s = prf([True, False], None)
    assert s.precision == 0.5 and s.recall is None and s.f1 is None
    assert f1_score(0.5, None) is None


def test_ratio_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        ratio(3, 2)
    assert ratio(0, 0, empty=1.0) == 1.0


def test_cite_supported_no_citations_is_unsupported() -> None:
    assert cite_supported([], {"a": True}) is False
    assert cite_supported(["a", "b"], {"a": False, "b": True}) is True
    assert cite_supported(["zzz"], {"a": True}) is False  # unknown id never supports


def test_cite_precision_hand_computed() -> None:
    # claim1 cites a (supports); claim2 cites nothing; claim3 cites b (does not support)
    flags = [cite_supported(["a"], {"a": True}), cite_supported([], {}),
             cite_supported(["b"], {"b": False})]
    s = prf(flags, [True, False, False, False])
    assert s.precision == pytest.approx(1 / 3)
    assert s.recall == 0.25
    assert s.f1 == pytest.approx(2 * (1 / 3) * 0.25 / (1 / 3 + 0.25))  # 2/7


def test_properly_attributed_needs_same_sentence() -> None:
    # stated in sentence 0 (cites b, which does not attest), sentence 1 cites a (attests) but
    # does not state it -> not attributed
    assert properly_attributed([True, False], [["b"], ["a"]], {"a": True, "b": False}) is False
    assert properly_attributed([True, True], [["b"], ["a"]], {"a": True, "b": False}) is True
    assert properly_attributed([], [], {}) is False
    with pytest.raises(ValueError):
        properly_attributed([True], [], {})


def test_collection_any_single_source() -> None:
    assert supported_by_any([False, True, False]) is True
    assert supported_by_any([]) is False


def test_macro_vs_micro() -> None:
    a = prf([True, True], [True, True, True, False])  # P 1, R .75
    b = prf([False] * 3 + [True], [False, False])  # P .25, R 0
    m = macro_average([a, b])
    assert m.precision == pytest.approx(0.625)
    assert m.recall == pytest.approx(0.375)
    assert m.f1 == pytest.approx((a.f1 + 0.0) / 2)  # a.f1 = 6/7
    assert a.f1 == pytest.approx(6 / 7)
    assert m.f1_of_means == pytest.approx(2 * 0.625 * 0.375 / 1.0)
    assert m.micro_precision == pytest.approx(3 / 6)
    assert m.micro_recall == pytest.approx(3 / 6)
    assert m.micro_f1 == pytest.approx(0.5)
    assert m.precision_sd == pytest.approx(0.375)
    assert m.n_answers == 2


def test_macro_skips_missing_recall() -> None:
    m = macro_average([prf([True], None), prf([False], [True])])
    assert m.precision == 0.5 and m.recall == 1.0 and m.micro_recall == 1.0
    with pytest.raises(ValueError):
        macro_average([])


def test_majority_vote() -> None:
    assert majority_vote([True, True, False]) is True
    assert majority_vote([True, None, False]) is False  # tie -> not supported
    assert majority_vote([True, None, False], tie=True) is True
    assert majority_vote([None, None]) is None
    assert majority_vote([None, True]) is True


def test_prf_is_frozen() -> None:
    s = prf([True], [True])
    assert isinstance(s, PRF) and not math.isnan(s.f1 or 0)
    with pytest.raises(AttributeError):
        s.precision = 0.0  # type: ignore[misc]
