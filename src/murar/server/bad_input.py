"""Replies to malformed requests: never a 500, never a reset connection.

Issue 11 found that ``{"question": "\\ud800x"}`` (a lone surrogate, valid JSON
but not valid Unicode text) got a 500 because FastAPI's 422 reply echoes the
input and cannot be encoded as UTF-8, and that a body of invalid UTF-8 bytes
was not answered cleanly. Here:

- a body that is not valid UTF-8 gets **400** ``request body is not valid UTF-8``;
- a validation error gets **422** with the inputs it echoes made encodable
  (lone surrogates written as ``\\ud800``);
- a text field holding a lone surrogate gets **422** from
  :func:`check_text` (the models' tokenizers cannot read it either).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

__all__ = ["check_text", "has_lone_surrogate", "scrub", "validation_error_response"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(text: str) -> bool:
    """True when ``text`` holds a UTF-16 surrogate code point (not encodable as UTF-8)."""
    return bool(_SURROGATE.search(text))


def check_text(text: str, field: str = "question") -> str:
    """``text`` unchanged, or HTTP 422 when it holds a lone surrogate."""
    m = _SURROGATE.search(text)
    if m:
        raise HTTPException(
            422, f"{field} is not valid Unicode text (lone surrogate U+{ord(m.group(0)):04X} at {m.start()})"
        )
    return text


def scrub(value: Any) -> Any:
    """``value`` (JSON-like) with every string made UTF-8 encodable (surrogates as ``\\udXXX``)."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8") if has_lone_surrogate(value) else value
    if isinstance(value, dict):
        return {scrub(k): scrub(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(v) for v in value]
    return value


async def validation_error_response(request: Request, err: RequestValidationError) -> JSONResponse:
    """400 for a body that is not UTF-8, else FastAPI's 422 made safe to encode."""
    try:
        body = await request.body()
    except Exception:  # noqa: BLE001 - the body may be gone (disconnect); answer anyway
        body = b""
    if body:
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as exc:
            return JSONResponse(
                {"detail": f"request body is not valid UTF-8 (byte {exc.start}); send UTF-8 JSON"}, status_code=400
            )
    return JSONResponse({"detail": scrub(jsonable_encoder(err.errors()))}, status_code=422)
