"""Configuration in one place: ``murar.toml``, ``[tool.murar]``, ``MURAR_*`` variables, flags.

Precedence, highest first:

1. command-line flags (``murar ask --llm openai``) and arguments given in Python
   (``murar.Assistant(index, llm=...)``);
2. environment variables: ``MURAR_<SECTION>_<KEY>`` (``MURAR_LLM_BASE_URL``,
   ``MURAR_ANSWER_TOP_K``), and the short forms ``MURAR_INDEX`` (``index.path``),
   ``MURAR_STORE`` (``index.store``), ``MURAR_LLM`` (``llm.kind``),
   ``MURAR_EMBEDDER`` (``embedder.kind``);
3. the configuration file: ``MURAR_CONFIG`` when set, else the nearest
   ``murar.toml`` from the current folder upward, else the nearest
   ``pyproject.toml`` with a ``[tool.murar]`` table (``murar.toml`` wins in
   the same folder); relative paths in it are relative to the file's folder;
4. the built-in defaults below.

Example ``murar.toml``::

    [index]
    path = "idx"            # every command's --index
    [llm]
    kind = "openai"         # bundled | bundled-small | openai | extractive | fake
    base_url = "http://127.0.0.1:8080/v1"
    model = "qwen2.5-coder"
    [answer]
    retriever = "dense"     # snippet search: hybrid (default: full-text + embedding) | dense | lexical
    strategy = "hybrid"

``murar config show`` prints the result with where each value came from.
Unknown keys and values of the wrong type are :class:`murar.errors.ConfigError`
naming the file (or variable) and the key.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from murar.errors import ConfigError

#: the snippet retriever of every entry point when nothing chooses one (``murar ask/serve/mcp --retriever``,
#: ``[answer] retriever``, :class:`murar.store.hybrid.RetrieverOptions`): BM25 full-text and embedding
#: lists fused by min-max scores, chosen by measurement (see :mod:`murar.store.hybrid`)
DEFAULT_RETRIEVER = "hybrid"

CONFIG_FILE = "murar.toml"
ENV_PREFIX = "MURAR_"
SHORT_ENV = {"MURAR_INDEX": "index.path", "MURAR_STORE": "index.store", "MURAR_LLM": "llm.kind",
             "MURAR_EMBEDDER": "embedder.kind"}
"""Short environment variables and the key each one sets."""


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexSettings:
    """``path``: the index folder (embedded LanceDB); ``store``: a
    ``postgresql://USER:PASSWORD@HOST:PORT/DB`` URL to use a PostgreSQL +
    pgvector store instead (``--store``; the password is never printed)."""

    path: Path = Path(".murar/index")
    store: str | None = None

    @property
    def target(self) -> Path | str:
        """Where the index lives: the store URL when set, else the folder."""
        return self.store or self.path


@dataclass(frozen=True, slots=True, kw_only=True)
class EmbedderSettings:
    """``kind``: ``auto`` (a refresh keeps the index's embedder; a new index gets ``mpnet``
    when ``murar models prepare --embedder mpnet`` has run on this machine, else ``minilm``) |
    ``minilm`` (bundled) | ``mpnet`` | ``openai`` (with ``base_url``, ``model``) | ``hashing`` (tests)."""

    kind: str = "auto"
    base_url: str | None = None
    model: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LLMSettings:
    """``kind``: ``bundled`` | ``bundled-small`` | ``openai`` | ``extractive`` | ``fake``;
    ``base_url``/``model``/``api_key`` for ``openai`` (the key is never printed)."""

    kind: str = "bundled"
    base_url: str | None = None
    model: str | None = None
    api_key: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerSettings:
    """The pipeline knobs of ``murar ask`` (see :class:`murar.PipelineConfig`):
    snippets given to the generator, their retriever (``hybrid`` | ``dense`` |
    ``lexical``, see :mod:`murar.store.hybrid`), media strategy, LLM refinement, LLM captions."""

    top_k: int = 5
    retriever: str = DEFAULT_RETRIEVER
    strategy: str = "section"
    refine: bool = True
    captions: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class ServeSettings:
    """``murar serve``: address, concurrency and queue bounds (seconds), page title."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    max_queue: int = 8
    max_wait: float = 60.0
    public_url: str | None = None
    title: str = "murar assistant"


@dataclass(frozen=True, slots=True, kw_only=True)
class MCPSettings:
    """``murar mcp``: its generator (``extractive`` by default: the client's own
    model writes the prose) and the address of ``--http``."""

    llm: str = "extractive"
    host: str = "127.0.0.1"
    port: int = 8765


@dataclass(frozen=True, slots=True, kw_only=True)
class MurarConfig:
    """The whole configuration; ``origins`` maps ``section.key`` to where its
    value came from (``default``, a file path, or ``env MURAR_...``);
    ``file`` is the configuration file read, if any."""

    index: IndexSettings = field(default_factory=IndexSettings)
    embedder: EmbedderSettings = field(default_factory=EmbedderSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    answer: AnswerSettings = field(default_factory=AnswerSettings)
    serve: ServeSettings = field(default_factory=ServeSettings)
    mcp: MCPSettings = field(default_factory=MCPSettings)
    origins: dict[str, str] = field(default_factory=dict)
    file: Path | None = None

    def get(self, key: str) -> Any:
        """The value of ``section.key``. Raises ConfigError for an unknown key."""
        section, _, name = key.partition(".")
        sub = getattr(self, section, None) if section in SECTIONS else None
        if sub is None or name not in {f.name for f in dataclasses.fields(sub)}:
            raise ConfigError(f"unknown configuration key {key!r}")
        return getattr(sub, name)

    def origin(self, key: str) -> str:
        return self.origins.get(key, "default")

    def items(self, *, secrets: bool = False) -> list[tuple[str, Any, str]]:
        """``(section.key, value, origin)`` for every key, in declaration order
        (``llm.api_key`` masked unless ``secrets``)."""
        out: list[tuple[str, Any, str]] = []
        for section in SECTIONS:
            for f in dataclasses.fields(getattr(self, section)):
                key = f"{section}.{f.name}"
                value = self.get(key)
                if key == "llm.api_key" and value and not secrets:
                    value = "***"
                elif key == "index.store" and value and not secrets:
                    value = _redact_url(str(value))
                out.append((key, value, self.origin(key)))
        return out


def _redact_url(url: str) -> str:
    """``scheme://user:***@host/db``: the password of a URL hidden."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


SECTIONS: dict[str, type[Any]] = {
    "index": IndexSettings, "embedder": EmbedderSettings, "llm": LLMSettings,
    "answer": AnswerSettings, "serve": ServeSettings, "mcp": MCPSettings,
}


def find_config_file(start: Path | None = None, *, env: Mapping[str, str] | None = None,
                     ) -> tuple[Path, dict[str, Any]] | None:
    """The configuration file that applies in ``start`` (default: the current folder)
    and its murar table, or ``None``. ``MURAR_CONFIG`` wins when set.

    Raises:
        ConfigError: ``MURAR_CONFIG`` names a missing file, or a file is not valid TOML.
    """
    explicit = (os.environ if env is None else env).get("MURAR_CONFIG")
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise ConfigError(f"MURAR_CONFIG={explicit} is not a file")
        data = _read_toml(path)
        return path, (data.get("tool", {}).get("murar", {}) if path.name == "pyproject.toml" else data)
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / CONFIG_FILE
        if candidate.is_file():
            return candidate, _read_toml(candidate)
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            table = _read_toml(pyproject).get("tool", {}).get("murar")
            if isinstance(table, dict):
                return pyproject, table
    return None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"cannot read {path}: {err}") from err


def _coerce(value: Any, target: Any, where: str) -> Any:
    """``value`` as the field type ``target`` (a string from the environment is parsed)."""
    kinds = {"Path": Path, "str": str, "int": int, "float": float, "bool": bool}
    names = [t.strip() for t in str(target).split("|")]
    optional = "None" in names
    base = kinds.get(next((n for n in names if n != "None"), "str"), str)
    if value is None or (optional and isinstance(value, str) and value == ""):
        if optional:
            return None
        raise ConfigError(f"{where} needs a value")
    if base is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            return value.strip().lower() in ("1", "true", "yes", "on")
    elif base is int and not isinstance(value, bool):
        try:
            return int(value)
        except (TypeError, ValueError):
            pass
    elif base is float and not isinstance(value, bool):
        try:
            return float(value)
        except (TypeError, ValueError):
            pass
    elif base is Path and isinstance(value, (str, Path)):
        return Path(value).expanduser()
    elif base is str and isinstance(value, str):
        return value
    raise ConfigError(f"{where} must be {base.__name__}, not {value!r}")


def load_config(*, start: Path | None = None, env: Mapping[str, str] | None = None,
                use_file: bool = True) -> MurarConfig:
    """Read the configuration that applies in ``start`` (default: the current folder).

    ``env`` defaults to ``os.environ``; ``use_file=False`` ignores configuration files.

    Raises:
        ConfigError: unreadable file, unknown section or key, or a value of the wrong type.
    """
    env = os.environ if env is None else env
    values: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
    origins: dict[str, str] = {}
    found = find_config_file(start, env=env) if use_file else None
    if found is not None:
        path, table = found
        for section, entries in table.items():
            if section not in SECTIONS or not isinstance(entries, dict):
                raise ConfigError(f"{path}: unknown section [{section}]; known: {', '.join(SECTIONS)}")
            fields = {f.name: f.type for f in dataclasses.fields(SECTIONS[section])}
            for key, raw in entries.items():
                if key not in fields:
                    raise ConfigError(f"{path}: unknown key {key!r} in [{section}]; known: {', '.join(fields)}")
                value = _coerce(raw, fields[key], f"{path}: {section}.{key}")
                if isinstance(value, Path) and not value.is_absolute():
                    value = (path.parent / value).resolve()
                values[section][key] = value
                origins[f"{section}.{key}"] = str(path)
    for section, cls in SECTIONS.items():
        for f in dataclasses.fields(cls):
            key = f"{section}.{f.name}"
            names = [f"{ENV_PREFIX}{section.upper()}_{f.name.upper()}"]
            names += [short for short, target in SHORT_ENV.items() if target == key]
            for name in names:
                if name in env:
                    values[section][f.name] = _coerce(env[name], f.type, f"environment variable {name}")
                    origins[key] = f"env {name}"
    built = {section: cls(**values[section]) for section, cls in SECTIONS.items()}
    return MurarConfig(**built, origins=origins, file=found[0] if found else None)


# -------------------------------------------------------------- CLI wiring

PARAM_KEYS: dict[str, str] = {
    "index": "index.path", "store": "index.store",
    "embedder": "embedder.kind", "embed_base_url": "embedder.base_url", "embed_model": "embedder.model",
    "llm": "llm.kind", "base_url": "llm.base_url", "model": "llm.model", "api_key": "llm.api_key",
    "top_k": "answer.top_k", "retriever": "answer.retriever", "strategy": "answer.strategy",
    "no_refine": "!answer.refine", "no_captions": "!answer.captions",
    "host": "serve.host", "port": "serve.port", "workers": "serve.workers", "max_queue": "serve.max_queue",
    "max_wait": "serve.max_wait", "public_url": "serve.public_url", "title": "serve.title",
}
"""Which configuration key gives the default of a command-line parameter (``!`` negates a flag)."""

COMMAND_KEYS: dict[str, dict[str, str]] = {
    "mcp": {"llm": "mcp.llm", "host": "mcp.host", "port": "mcp.port"},
}
"""Per-command exceptions to :data:`PARAM_KEYS`."""


def cli_defaults(config: MurarConfig, command: Any) -> dict[str, Any]:
    """A click ``default_map`` for ``command`` (a click group) and its subcommands:
    every parameter whose configuration key was set by a file or the environment.

    Flags given on the command line still win (click's own precedence).
    """
    out: dict[str, Any] = {}
    for name, sub in getattr(command, "commands", {}).items():
        if getattr(sub, "commands", None):
            nested = cli_defaults(config, sub)
            if nested:
                out[name] = nested
            continue
        table = {**PARAM_KEYS, **COMMAND_KEYS.get(name, {})}
        entries: dict[str, Any] = {}
        for param in getattr(sub, "params", []):
            key = table.get(param.name or "")
            if key is None:
                continue
            negate = key.startswith("!")
            key = key.lstrip("!")
            if config.origin(key) == "default":
                continue
            value = config.get(key)
            entries[param.name] = (not value) if negate else value
        if entries:
            out[name] = entries
    return out


__all__ = [
    "AnswerSettings",
    "EmbedderSettings",
    "IndexSettings",
    "LLMSettings",
    "MCPSettings",
    "MurarConfig",
    "ServeSettings",
    "cli_defaults",
    "find_config_file",
    "load_config",
]
