"""LlamaCppChatModel: ChatML rendering, error mapping, and (slow) the real bundled models."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from murar.errors import LLMError, ModelError
from murar.llm.base import ChatMessage, ChatModel
from murar.llm.llamacpp import _as_dicts, _render_chatml

llama_cpp = pytest.importorskip("llama_cpp")

from murar.llm.llamacpp import LlamaCppChatModel
from murar.models import QWEN_CODER_0_5B, QWEN_CODER_1_5B, ensure_gguf


def test_system_messages_are_merged_first() -> None:
    msgs = [ChatMessage("user", "q"), ChatMessage("system", "a"), ChatMessage("system", "b")]
    assert _as_dicts(msgs) == [{"role": "system", "content": "a\n\nb"}, {"role": "user", "content": "q"}]
    assert _render_chatml(msgs) == (
        "<|im_start|>system\na\n\nb<|im_end|>\n<|im_start|>user\nq<|im_end|>\n<|im_start|>assistant\n"
    )


def test_chatml_matches_llama_cpp_formatter() -> None:
    from llama_cpp.llama_chat_format import format_chatml

    msgs = [
        ChatMessage("system", "S"),
        ChatMessage("user", "U1"),
        ChatMessage("assistant", "A1"),
        ChatMessage("user", "U2"),
    ]
    assert _render_chatml(msgs) == format_chatml(_as_dicts(msgs)).prompt  # type: ignore[arg-type]
    no_sys = [ChatMessage("user", "U")]
    assert _render_chatml(no_sys) == format_chatml(_as_dicts(no_sys)).prompt  # type: ignore[arg-type]


def test_constructor_does_no_io(tmp_path: Path) -> None:
    m = LlamaCppChatModel(tmp_path / "absent.gguf", n_ctx=1024, n_threads=1)
    assert isinstance(m, ChatModel)
    assert m.context_window == 1024 and not m.loaded and m.name == "absent"


def test_missing_file_is_llm_error(tmp_path: Path) -> None:
    with pytest.raises(LLMError, match="not found"):
        LlamaCppChatModel(tmp_path / "absent.gguf").complete([ChatMessage("user", "hi")])


def test_garbage_file_is_llm_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a gguf file" * 100)
    with pytest.raises(LLMError, match="could not load"):
        LlamaCppChatModel(bad).load()


@pytest.fixture(scope="module")
def small_model() -> LlamaCppChatModel:
    try:
        path = ensure_gguf(QWEN_CODER_0_5B)
    except ModelError as err:  # parts not installed on this machine
        pytest.skip(f"bundled 0.5B model unavailable: {err}")
    return LlamaCppChatModel(path, n_ctx=512)


@pytest.fixture(scope="module")
def bundled_model() -> LlamaCppChatModel:
    m = LlamaCppChatModel(recipe=QWEN_CODER_1_5B, n_ctx=2048)
    m.load()  # assembles the GGUF on first run (~8 s), then ~1-2 s
    return m


OK_PROMPT = [
    ChatMessage("system", "You are a terse assistant."),
    ChatMessage("user", "Reply with the word OK and nothing else."),
]


@pytest.mark.slow
def test_bundled_answers_and_streams(bundled_model: LlamaCppChatModel) -> None:
    out = bundled_model.complete(OK_PROMPT, max_tokens=8)
    assert "OK" in out.upper()
    pieces = list(bundled_model.stream(OK_PROMPT, max_tokens=8))
    assert len(pieces) >= 1
    assert "".join(pieces) == out  # greedy decoding is reproducible
    assert bundled_model.model_path is not None and bundled_model.model_path.name.endswith(".gguf")


@pytest.mark.slow
def test_bundled_tokenizer_and_budget(bundled_model: LlamaCppChatModel) -> None:
    assert bundled_model.count_tokens("Hello world") == 2
    n = bundled_model.count_message_tokens(OK_PROMPT)
    assert 20 < n < 40
    assert bundled_model.context_window == 2048


@pytest.mark.slow
def test_context_overflow_is_llm_error(small_model: LlamaCppChatModel) -> None:
    long = [ChatMessage("user", "word " * 800)]
    with pytest.raises(LLMError, match="context window"):
        small_model.complete(long, max_tokens=4)


@pytest.mark.slow
def test_stop_and_concurrent_callers(small_model: LlamaCppChatModel) -> None:
    msgs = [ChatMessage("user", "Count from 1 to 10, separated by commas.")]
    out = small_model.complete(msgs, max_tokens=24, stop=["5"])
    assert "5" not in out and "1" in out
    results: list[str] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            results.append(small_model.complete(OK_PROMPT, max_tokens=4))
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(results)) == 1, results
    assert time.perf_counter() - t0 < 30


@pytest.mark.slow
def test_abandoned_stream_releases_lock(small_model: LlamaCppChatModel) -> None:
    gen = small_model.stream([ChatMessage("user", "Write a long poem about the sea.")], max_tokens=64)
    next(gen)
    gen.close()
    assert small_model.complete(OK_PROMPT, max_tokens=4)


PREFIXED = [
    ChatMessage("system", "You are a terse documentation assistant. " * 6),
    ChatMessage("user", "Example question: what is a segment?"),
    ChatMessage("assistant", "A segment is a set of profiles that share attributes."),
]


@pytest.mark.slow
def test_prefix_cache_restores_the_fixed_prefix_after_other_prompts(small_model: LlamaCppChatModel) -> None:
    ask = [*PREFIXED, ChatMessage("user", "Reply with the word OK and nothing else.")]
    small_model.prefix_cache = True
    first = small_model.complete(ask, max_tokens=6)
    c1 = small_model.last_call
    assert c1 is not None and c1.prompt_tokens > 60 and c1.completion_tokens >= 1
    small_model.complete([ChatMessage("user", "Count from 1 to 3.")], max_tokens=6)  # another prompt in between
    again = small_model.complete(ask, max_tokens=6)
    c2 = small_model.last_call
    assert c2 is not None and c2.seq == c1.seq + 2
    # the system prompt + example came from the saved state, not from a new evaluation
    assert c2.cached_tokens >= c2.prompt_tokens - 20
    assert again == first  # restoring the state changes nothing in greedy output
    small_model.prefix_cache = False
    small_model.complete([ChatMessage("user", "Count from 1 to 3.")], max_tokens=6)
    assert small_model.complete(ask, max_tokens=6) == first
    c3 = small_model.last_call
    assert c3 is not None and c3.cached_tokens < 10
    small_model.prefix_cache = True


@pytest.mark.slow
def test_forget_prompt_makes_the_same_prompt_evaluate_again(small_model: LlamaCppChatModel) -> None:
    ask = [*PREFIXED, ChatMessage("user", "Reply with the word OK and nothing else.")]
    small_model.prefix_cache = True
    first = small_model.complete(ask, max_tokens=6)
    small_model.complete(ask, max_tokens=6)
    reused = small_model.last_call
    assert reused is not None and reused.cached_tokens >= reused.prompt_tokens - 1  # the whole prompt reused
    small_model.forget_prompt()
    assert small_model.complete(ask, max_tokens=6) == first
    fresh = small_model.last_call
    assert fresh is not None
    # the fixed prefix comes back from its saved state; the question is evaluated again
    assert fresh.prompt_tokens - 20 <= fresh.cached_tokens < fresh.prompt_tokens - 5


def test_extra_buffer_types_are_switched_off_only_inside_the_block() -> None:
    import llama_cpp.llama_cpp as api

    from murar.llm.llamacpp import without_extra_buffer_types

    original = api.llama_model_default_params
    with without_extra_buffer_types():
        assert api.llama_model_default_params().use_extra_bufts is False
    assert api.llama_model_default_params is original
    assert api.llama_model_default_params().use_extra_bufts is True


@pytest.mark.slow
def test_amx_build_loads_with_plain_cpu_kernels_and_answers() -> None:
    """ggml's AMX kernels crash (SIGILL) on some AMX machines; a build that has them
    loads the weights without extra buffer types, and a prompt evaluates."""
    from murar.llm.llamacpp import amx_in_build

    try:
        path = ensure_gguf(QWEN_CODER_0_5B)
    except ModelError as err:
        pytest.skip(f"bundled 0.5B model unavailable: {err}")
    m = LlamaCppChatModel(path, n_ctx=512)
    m.load()
    assert m._llm is not None
    assert m._llm.model_params.use_extra_bufts is (not amx_in_build())
    assert m.complete(OK_PROMPT, max_tokens=4).strip()
    m.close()
