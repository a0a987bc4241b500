"""load_chat_model: kinds, config errors, the missing-extra path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import murar.llm as llm_pkg
from murar.errors import ConfigError, MissingExtraError
from murar.llm import (
    ChatMessage,
    ChatModel,
    OpenAICompatibleChatModel,
    ScriptedChatModel,
    echo_answer,
    load_chat_model,
)
from murar.models import QWEN_CODER_0_5B, QWEN_CODER_1_5B


def test_all_is_explicit_and_importable() -> None:
    for name in llm_pkg.__all__:
        assert hasattr(llm_pkg, name), name


def test_fake_is_deterministic() -> None:
    m = load_chat_model("fake")
    assert isinstance(m, ScriptedChatModel) and isinstance(m, ChatModel)
    msgs = [ChatMessage("system", "ignored"), ChatMessage("user", "How do I\n crop  a photo?")]
    a = m.complete(msgs)
    assert a == load_chat_model("fake").complete(msgs) == echo_answer(msgs)
    assert "How do I crop a photo?" in a
    assert "".join(m.stream(msgs)) == a
    assert "nothing" in echo_answer([])


def test_openai_requires_base_url_and_model() -> None:
    with pytest.raises(ConfigError, match="base_url and model"):
        load_chat_model("openai")
    with pytest.raises(ConfigError, match="model"):
        load_chat_model("openai", base_url="http://127.0.0.1:1/v1")
    m = load_chat_model("openai", base_url="http://127.0.0.1:1/v1", model="q", timeout=5.0)
    assert isinstance(m, OpenAICompatibleChatModel) and m.name == "q"


def test_unknown_kind() -> None:
    with pytest.raises(ConfigError, match="unknown chat model kind 'gpt'"):
        load_chat_model("gpt")


def test_bundled_kinds_pick_recipes_without_io(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    big = load_chat_model("bundled", cache_dir=tmp_path / "nothing-here")
    small = load_chat_model("bundled-small")
    assert big.name == QWEN_CODER_1_5B.name and small.name == QWEN_CODER_0_5B.name
    assert not (tmp_path / "nothing-here").exists()  # constructor did no I/O
    custom = load_chat_model("bundled", model_path=tmp_path / "my-model.gguf")
    assert custom.name == "my-model"


def test_bundled_without_llama_cpp_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # makes the import fail
    with pytest.raises(MissingExtraError, match=r"pip install 'murar\[llm\]'") as info:
        load_chat_model("bundled")
    assert info.value.package == "llama-cpp-python" and info.value.extra == "llm"
