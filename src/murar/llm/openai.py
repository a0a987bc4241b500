"""Chat model backed by any OpenAI-compatible HTTP endpoint (OpenAI, vLLM, Ollama, llama.cpp server).

Speaks ``POST {base_url}/chat/completions`` with plain httpx (no OpenAI SDK);
streaming uses server-sent events (``data: {...}`` lines ending with
``data: [DONE]``). The transport is injectable, so tests use
``httpx.MockTransport`` instead of monkeypatching.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from murar.errors import LLMConnectionError, LLMError, MurarError
from murar.llm.base import ChatMessage

_RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
_MAX_RETRY_AFTER = 30.0  # seconds; never sleep longer on a Retry-After header


def _hint(status: int | None) -> str:
    if status is None:
        return "Is the server running and is base_url right (usually ending in /v1)?"
    if status in (401, 403):
        return "Set api_key (or the OPENAI_API_KEY environment variable)."
    if status == 404:
        return "Check base_url (OpenAI-compatible servers usually serve under /v1) and the model name."
    if status in (400, 413, 422):
        return "The server rejected the request: check the model name and that the prompt fits its context window."
    if status == 429:
        return "The server is rate-limiting; retry later or lower the request rate."
    return "The server failed; check its logs."


class _JSONEndpoint:
    """POSTs JSON with retries on connect errors, 408/409/429 and 5xx; shared by chat and embeddings.

    ``error`` is the exception class raised on failure (the message holds the
    URL, the status and a hint).
    """

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None,
        timeout: float,
        transport: httpx.BaseTransport | None,
        max_retries: int,
        retry_backoff: float,
        error: type[MurarError],
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        self._timeout = timeout
        self._transport = transport
        self.max_retries = max_retries
        self.retry_backoff = retry_backoff
        self._error = error
        self._sleep = sleep
        self._client: httpx.Client | None = None
        self._client_lock = threading.Lock()

    def client(self) -> httpx.Client:
        if self._client is None:
            with self._client_lock:
                if self._client is None:
                    headers = {"Accept": "application/json"}
                    if self._api_key:
                        headers["Authorization"] = f"Bearer {self._api_key}"
                    self._client = httpx.Client(
                        timeout=httpx.Timeout(self._timeout, connect=min(self._timeout, 10.0)),
                        transport=self._transport,
                        headers=headers,
                    )
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path.lstrip('/')}"

    def _delay(self, attempt: int, response: httpx.Response | None) -> float:
        if response is not None:
            ra = response.headers.get("retry-after")
            if ra is not None:
                try:
                    return min(max(float(ra), 0.0), _MAX_RETRY_AFTER)
                except ValueError:
                    pass
        return float(self.retry_backoff * (2**attempt))

    def _fail(self, url: str, response: httpx.Response) -> MurarError:
        try:
            body = response.read().decode("utf-8", "replace")
        except httpx.HTTPError:
            body = ""
        body = " ".join(body.split())[:300]
        return self._error(
            f"POST {url} answered HTTP {response.status_code}"
            + (f": {body}" if body else "")
            + f". {_hint(response.status_code)}"
        )

    @contextmanager
    def post(self, path: str, payload: dict[str, Any], *, stream: bool = False) -> Iterator[httpx.Response]:
        """POST ``payload``; yields a 2xx response (streamed when ``stream``), retrying transient failures."""
        url = self.url(path)
        attempt = 0
        while True:
            response: httpx.Response | None = None
            try:
                request = self.client().build_request("POST", url, json=payload)
                response = self.client().send(request, stream=True)
            except (httpx.ConnectError, httpx.ConnectTimeout, httpx.RemoteProtocolError) as err:
                if attempt < self.max_retries:
                    self._sleep(self._delay(attempt, None))
                    attempt += 1
                    continue
                raise self._error(f"cannot reach {url} after {attempt + 1} attempt(s): {err}. {_hint(None)}") from err
            except httpx.TimeoutException as err:
                raise self._error(
                    f"POST {url} timed out after {self._timeout:g} s: {err}. Raise the timeout or lower max_tokens."
                ) from err
            except httpx.HTTPError as err:
                raise self._error(f"POST {url} failed: {err}. {_hint(None)}") from err
            try:
                if response.status_code in _RETRY_STATUS and attempt < self.max_retries:
                    delay = self._delay(attempt, response)
                    response.close()
                    self._sleep(delay)
                    attempt += 1
                    continue
                if not response.is_success:
                    raise self._fail(url, response)
                if not stream:
                    response.read()
                yield response
                return
            except httpx.TimeoutException as err:
                raise self._error(f"POST {url} timed out while reading the reply: {err}") from err
            except httpx.HTTPError as err:
                raise self._error(f"POST {url}: the connection broke while reading the reply: {err}") from err
            finally:
                response.close()

    def post_json(self, path: str, payload: dict[str, Any]) -> Any:
        """POST and decode the JSON reply; malformed JSON -> ``error`` naming the URL."""
        with self.post(path, payload) as response:
            try:
                return response.json()
            except ValueError as err:
                raise self._error(
                    f"POST {self.url(path)} returned malformed JSON ({err}): "
                    f"{response.text[:200]!r}. Is base_url an OpenAI-compatible API?"
                ) from err


class OpenAICompatibleChatModel:
    """Chat model served by an OpenAI-compatible ``/chat/completions`` endpoint.

    Args:
        base_url: API root, e.g. ``http://127.0.0.1:8080/v1`` or ``https://api.openai.com/v1``.
        model: model name sent with each request.
        api_key: bearer token; defaults to ``$OPENAI_API_KEY`` (none for local servers).
        timeout: seconds per request (connect capped at 10 s).
        transport: httpx transport, e.g. ``httpx.MockTransport(handler)`` in tests.
        max_retries: extra attempts on connect errors, 408/409/429 and 5xx (before
            any reply text is received; a stream broken midway is not retried).
        retry_backoff: first retry delay in seconds, doubled each retry;
            a numeric ``Retry-After`` header wins (capped at 30 s).

    The constructor does no I/O; the HTTP client is created on first use and is
    safe to share between threads.

    Raises (from ``complete``/``stream``):
        LLMConnectionError: unreachable endpoint or a non-2xx answer (message
            holds the URL, the status and a hint).
        LLMError: the reply is not the expected JSON.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 60.0,
        transport: httpx.BaseTransport | None = None,
        max_retries: int = 2,
        retry_backoff: float = 0.5,
    ) -> None:
        self._model = model
        self._http = _JSONEndpoint(
            base_url,
            api_key=api_key,
            timeout=timeout,
            transport=transport,
            max_retries=max_retries,
            retry_backoff=retry_backoff,
            error=LLMConnectionError,
        )

    @property
    def name(self) -> str:
        return self._model

    @property
    def base_url(self) -> str:
        return self._http.base_url

    def close(self) -> None:
        """Close the HTTP connection pool (it is reopened on next use)."""
        self._http.close()

    def _payload(
        self, messages: list[ChatMessage], max_tokens: int, temperature: float, stop: list[str] | None, stream: bool
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self._model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stream": stream,
        }
        if stop:
            payload["stop"] = list(stop)
        return payload

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> str:
        """Return the assistant reply (``choices[0].message.content``)."""
        data = self._http.post_json(
            "chat/completions", self._payload(messages, max_tokens, temperature, stop, stream=False)
        )
        try:
            content = data["choices"][0]["message"].get("content")
        except (KeyError, IndexError, TypeError, AttributeError) as err:
            raise LLMError(
                f"{self._http.url('chat/completions')} returned JSON without choices[0].message: "
                f"{json.dumps(data)[:200]}"
            ) from err
        return content or ""

    def stream(
        self,
        messages: list[ChatMessage],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> Iterator[str]:
        """Yield reply pieces (``choices[0].delta.content``) as the server sends them."""
        url = self._http.url("chat/completions")
        payload = self._payload(messages, max_tokens, temperature, stop, stream=True)
        with self._http.post("chat/completions", payload, stream=True) as response:
            for line in response.iter_lines():
                line = line.strip()
                if not line or line.startswith(":") or not line.startswith("data:"):
                    continue  # blank separators, SSE comments, event:/id: fields
                data = line[5:].strip()
                if data == "[DONE]":
                    return
                try:
                    event = json.loads(data)
                except ValueError as err:
                    raise LLMError(f"{url} sent a malformed stream event: {data[:200]!r}") from err
                if isinstance(event, dict) and "error" in event:
                    raise LLMConnectionError(f"{url} reported an error mid-stream: {json.dumps(event['error'])[:300]}")
                try:
                    choices = event["choices"]
                    if not choices:
                        continue  # e.g. a final usage-only chunk
                    piece = (choices[0].get("delta") or {}).get("content")
                except (KeyError, TypeError, AttributeError) as err:
                    raise LLMError(f"{url} sent a stream event without choices: {data[:200]!r}") from err
                if piece:
                    yield piece


__all__ = ["OpenAICompatibleChatModel"]
