"""Fusion functions and retriever options of murar.store.hybrid."""

from __future__ import annotations

import pytest

from murar.errors import ConfigError
from murar.store.hybrid import (
    RRF_C,
    RetrieverOptions,
    minmax_fusion,
    reciprocal_rank_fusion,
)


def test_reciprocal_rank_fusion_sums_reciprocal_ranks() -> None:
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["c", "d"]])
    scores = dict(fused)
    assert scores["c"] == pytest.approx(1 / (RRF_C + 3) + 1 / (RRF_C + 1))
    assert scores["a"] == pytest.approx(1 / (RRF_C + 1))
    assert [k for k, _ in fused] == ["c", "a", "b", "d"]  # b and d tie (rank 2): b appeared first
    assert reciprocal_rank_fusion([["x", "y"], ["y", "x"]])[0][0] == "x"  # a tie keeps first appearance
    assert reciprocal_rank_fusion([]) == []


def test_minmax_fusion_normalises_each_list() -> None:
    fused = dict(minmax_fusion([[("a", 0.9), ("b", 0.5), ("c", 0.1)], [("c", 30.0), ("d", 10.0)]]))
    assert fused["a"] == pytest.approx(0.5) and fused["b"] == pytest.approx(0.25)
    assert fused["c"] == pytest.approx(0.5) and fused["d"] == pytest.approx(0.0)
    assert dict(minmax_fusion([[("a", 2.0)], []])) == {"a": pytest.approx(0.5)}  # one item normalises to 1


def test_retriever_options_are_checked() -> None:
    assert RetrieverOptions(kind="hybrid").name == "hybrid-minmax"  # measured best of the two (notes)
    assert RetrieverOptions(kind="dense").name == "dense"
    assert RetrieverOptions(kind="hybrid", fusion="rrf").name == "hybrid-rrf"
    with pytest.raises(ConfigError, match="retriever must be one of"):
        RetrieverOptions(kind="sparse")
    with pytest.raises(ConfigError, match="fusion"):
        RetrieverOptions(fusion="sum")
    with pytest.raises(ConfigError, match="depth"):
        RetrieverOptions(depth=0)
