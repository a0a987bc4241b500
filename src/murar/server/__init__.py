"""The HTTP service and web page of murar.

``create_app(service, config=ServerConfig(...))`` builds a FastAPI app around
any :class:`murar.answer.service.AnswerService`; run it with uvicorn or
``murar serve --index DIR``. Needs the ``server`` extra
(``pip install 'murar[server]'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from murar.server.config import ServerConfig

if TYPE_CHECKING:
    from murar.server.app import create_app

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        try:
            from murar.server.app import create_app
        except ImportError as err:
            if err.name in ("fastapi", "starlette", "uvicorn", "anyio"):
                from murar.errors import MissingExtraError

                raise MissingExtraError(err.name, "server") from err
            raise
        return create_app
    raise AttributeError(f"module 'murar.server' has no attribute {name!r}")
