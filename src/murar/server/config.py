"""Configuration of the HTTP service (plain data, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from murar.errors import ConfigError


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerConfig:
    """Options of :func:`murar.server.create_app`.

    Concurrency (the model runtime is shared, see :class:`murar.server.gate.WorkerGate`):

    - ``max_concurrency``: pipeline calls that run at the same time (default 1:
      one llama.cpp context cannot serve two prompts at once).
    - ``max_queue``: requests allowed to wait for a free worker; one more is
      answered ``503`` with ``Retry-After`` at once.
    - ``max_wait_s``: seconds a queued request waits before it is answered ``503``.
    - ``retry_after_s``: the ``Retry-After`` value (seconds) used until the
      server has measured how long an answer takes.

    Other options:

    - ``feedback_dir``: writable folder for ``feedback.jsonl``; ``None`` means a
      temporary folder created on the first feedback.
    - ``public_url``: absolute base URL (``https://host/prefix/``) for media links
      in Markdown answers; ``None`` derives it from each request.
    - ``title``/``examples``: shown by the web page.
    - ``model_name``: the model id the OpenAI-compatible API reports.
    - ``max_question_chars``: longer questions are rejected with 422.
    - ``chat_stream_progress``: stream stage names and the draft answer as
      ``reasoning_content`` deltas on ``/v1/chat/completions`` before the final
      Markdown (chat UIs show it as the model "thinking").
    - ``keepalive_s``: seconds between SSE comment lines while nothing else is sent.
    - ``recent_answers``: answers kept in memory so feedback can store them.
    - ``cors_origins``: origins allowed to call the API from a browser (for chat
      UIs served elsewhere); empty means same-origin only.
    - ``max_body_bytes``: larger request bodies are refused with 413.
    - ``remote_images``: the web page may load remote (https) images that the
      docs link; off by default, because the reader's browser would then contact
      third-party hosts (``murar serve --remote-images show``).
    """

    max_concurrency: int = 1
    max_queue: int = 8
    max_wait_s: float = 60.0
    retry_after_s: int = 5
    feedback_dir: Path | None = None
    public_url: str | None = None
    title: str = "murar assistant"
    examples: tuple[str, ...] = ()
    model_name: str = "murar"
    max_question_chars: int = 2000
    chat_stream_progress: bool = True
    keepalive_s: float = 10.0
    recent_answers: int = 256
    cors_origins: tuple[str, ...] = ()
    max_body_bytes: int = 256 * 1024
    remote_images: bool = False

    def __post_init__(self) -> None:
        if self.max_concurrency < 1:
            raise ConfigError(
                f"max_concurrency must be >= 1, got {self.max_concurrency}"
            )
        if self.max_queue < 0:
            raise ConfigError(f"max_queue must be >= 0, got {self.max_queue}")
        if self.max_wait_s <= 0:
            raise ConfigError(f"max_wait_s must be > 0 seconds, got {self.max_wait_s}")
        if self.retry_after_s < 1:
            raise ConfigError(
                f"retry_after_s must be >= 1 second, got {self.retry_after_s}"
            )
        if self.max_question_chars < 1:
            raise ConfigError("max_question_chars must be >= 1")
        if self.public_url is not None and not self.public_url.startswith(
            ("http://", "https://")
        ):
            raise ConfigError(
                f"public_url must start with http:// or https://, got {self.public_url!r}"
            )
