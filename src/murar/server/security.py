"""Security headers: a strict Content-Security-Policy for every response.

The web page's script is a static file (``script-src 'self'``) and builds the
DOM with ``textContent``, so no text from a document can run as script. Media
responses are sandboxed (an SVG opened directly cannot run script in the
server's origin) and may be embedded by chat UIs on other origins.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "media-src 'self'; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
DOCS_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'"
)
MEDIA_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox"
API_CSP = "default-src 'none'; frame-ancestors 'none'"


def csp_for(path: str, *, remote_images: bool = False) -> str:
    """The Content-Security-Policy for a request path.

    ``remote_images`` (``murar serve --remote-images show``) lets the web page
    load images from https hosts, the remote screenshots the docs link.
    """
    if path.startswith("/v1/media/"):
        return MEDIA_CSP
    if path == "/docs" or path.startswith("/docs/"):
        return DOCS_CSP
    if path.startswith("/v1/") or path in ("/openapi.json", "/healthz"):
        return API_CSP
    if remote_images:
        return PAGE_CSP.replace("img-src 'self' data:", "img-src 'self' data: https:")
    return PAGE_CSP


class BodyLimit:
    """ASGI middleware: refuse request bodies larger than ``max_bytes`` with 413.

    Checks ``Content-Length`` up front and counts chunked bodies as they arrive,
    so a huge upload cannot exhaust memory before validation runs.
    """

    def __init__(self, app: ASGIApp, max_bytes: int = 256 * 1024) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if (
                name == b"content-length"
                and value.isdigit()
                and int(value) > self.max_bytes
            ):
                await _too_large(send, self.max_bytes)
                return
        seen = 0
        exceeded = False

        async def limited_receive() -> Message:
            nonlocal seen, exceeded
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    exceeded = True  # the app sees a disconnect and stops reading
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if not exceeded:
                await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not exceeded:
                raise
        if exceeded:
            await _too_large(send, self.max_bytes)


async def _too_large(send: Send, limit: int) -> None:
    body = f'{{"detail":"request body larger than {limit} bytes"}}'.encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """ASGI middleware adding CSP, nosniff, referrer and framing headers."""

    def __init__(self, app: ASGIApp, *, remote_images: bool = False) -> None:
        self.app = app
        self.remote_images = remote_images

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        media = path.startswith("/v1/media/")
        extra = [
            (b"content-security-policy", csp_for(path, remote_images=self.remote_images).encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (
                b"cross-origin-resource-policy",
                b"cross-origin" if media else b"same-origin",
            ),
        ]
        if not media:
            extra.append((b"x-frame-options", b"DENY"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in {name for name, _ in extra}
                ]
                message = {**message, "headers": headers + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)
