"""The exception tree of murar.

Every error murar raises on purpose derives from :class:`MurarError`::

    MurarError
    ├── ConfigError              bad option or combination of options
    ├── MissingExtraError        an optional dependency is not installed (message holds the pip command)
    ├── IngestError              a document could not be read or parsed
    │   ├── UnsafePathError      a link or path escapes the corpus root
    │   └── NoPagesError         an ingest found no page it could read (names the extensions found)
    ├── IndexError_              the index is missing, corrupt or of another version
    │   ├── IndexNotFoundError
    │   ├── StoreUnavailableError  the store's database server cannot be reached
    │   ├── StoreSchemaError       the database lacks pgvector or holds another murar schema
    │   └── EmbedderMismatchError  the query embedder is not the one the index's vectors come from
    ├── ModelError               a bundled model is missing or fails its checksum
    ├── EmbeddingError           the embedder failed (bad input, server error)
    └── LLMError                 the generator failed
        └── LLMConnectionError   an OpenAI-compatible endpoint is unreachable or answered an error

Messages name the input that failed and the fix.
"""

from __future__ import annotations


class MurarError(Exception):
    """Root of all errors raised by murar."""


class ConfigError(MurarError):
    """An option or combination of options is invalid."""


class MissingExtraError(MurarError):
    """An optional dependency is missing; the message holds the install command."""

    def __init__(self, package: str, extra: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{package} is not installed. Install it with: pip install 'murar[{extra}]'"
        )


class IngestError(MurarError):
    """A document could not be read or parsed."""


class UnsafePathError(IngestError):
    """A path resolves outside the corpus root."""


class NoPagesError(IngestError):
    """An ingest found no page it could read; the message lists the file
    extensions it found and the site types murar knows."""


class IndexError_(MurarError):
    """The index is missing, corrupt, or was written by an incompatible version."""


class IndexNotFoundError(IndexError_):
    """No index exists at the given directory."""


class StoreUnavailableError(IndexError_):
    """The database server of a store cannot be reached (message names the server and the cause)."""


class StoreSchemaError(IndexError_):
    """The database lacks the pgvector extension or holds a murar schema of another version
    (message holds the SQL or command that fixes it)."""


class EmbedderMismatchError(IndexError_):
    """The embedder given or found for querying an index is not the one its vectors were
    made with (another name, or a tuned embedder whose folder is missing or altered)."""


class ModelError(MurarError):
    """A bundled model is missing, incomplete or fails its checksum."""


class EmbeddingError(MurarError):
    """The embedder failed."""


class LLMError(MurarError):
    """The generator failed."""


class LLMConnectionError(LLMError):
    """An OpenAI-compatible endpoint is unreachable or answered with an error."""


__all__ = [
    "ConfigError",
    "EmbedderMismatchError",
    "EmbeddingError",
    "IndexError_",
    "IndexNotFoundError",
    "IngestError",
    "LLMConnectionError",
    "LLMError",
    "MissingExtraError",
    "ModelError",
    "MurarError",
    "UnsafePathError",
]
