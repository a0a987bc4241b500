"""Front matter of documentation pages: the one safe parser every converter uses.

**Converters: do not call ``yaml.load``/``yaml.safe_load`` or ``tomllib`` on page
text yourselves.** Call :func:`parse_front_matter` (or the two-value shortcut
:func:`split_front_matter`) on the decoded page text; use
:func:`load_yaml_safely` for other untrusted YAML (site configs such as
``mkdocs.yml``, ``_config.yml``, ``antora.yml``, notebook metadata cells).

Forms recognised at the very start of a page (Jekyll, Hugo, MkDocs, Docusaurus,
MyST and Jupyter Book all use one of them):

- ``---`` YAML ``---`` (Jekyll, Hugo, MkDocs ``meta``, Docusaurus/MDX, MyST);
- ``+++`` TOML ``+++`` (Hugo);
- a JSON object ``{...}`` (Hugo).

Why a dedicated loader (adversarial findings of issue 11): PyYAML's safe loader
still expands aliases (a 6-level "billion laughs" bomb never returns), builds
``!!timestamp`` values with a constructor that crashes on impossible dates
(``AttributeError``/``ValueError``) and parses 5,000-digit integers into a
``ValueError``. This loader

- refuses aliases (``*name``) outright, and nesting deeper than
  :data:`MAX_DEPTH` collections;
- accepts only the JSON-like core tags (``!!str``, ``!!int``, ``!!float``,
  ``!!bool``, ``!!null``, ``!!seq``, ``!!map``); any other tag (``!!timestamp``,
  ``!!binary``, ``!!python/...``, ``!custom``) is refused;
- never resolves plain scalars to dates: ``date: 2024-01-31`` stays the string
  ``"2024-01-31"`` (so impossible dates cannot fail; TOML dates become ISO strings);
- refuses blocks longer than :data:`MAX_CHARS` characters.

A refused or malformed block never fails the page: :func:`parse_front_matter`
returns empty metadata, the page body, and a warning for the ingest report.
Values in the returned metadata are JSON-like (``dict[str, ...]``, ``list``,
``str``, ``int``, ``float``, ``bool``, ``None``).
"""

from __future__ import annotations

import datetime as _dt
import json
import re
import tomllib
from dataclasses import dataclass
from typing import Any, ClassVar

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError, SafeConstructor

from murar.errors import IngestError

__all__ = [
    "MAX_CHARS",
    "MAX_DEPTH",
    "FrontMatter",
    "FrontMatterError",
    "load_yaml_safely",
    "parse_front_matter",
    "split_front_matter",
]

#: Longest front-matter block read, in characters; a longer one is ignored with a warning.
MAX_CHARS = 100_000
#: Deepest nesting of mappings/sequences accepted.
MAX_DEPTH = 32

_OPEN = re.compile(r"\A\ufeff?(---|\+\+\+)[ \t]*\r?\n")
_CLOSE = {"---": re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE), "+++": re.compile(r"^\+\+\+[ \t]*\r?$", re.MULTILINE)}
_CORE_TAGS = ("null", "bool", "int", "float", "str", "seq", "map")


class FrontMatterError(IngestError):
    """Front matter (or other untrusted YAML) that murar refuses to load: aliases,
    non-core tags, nesting beyond :data:`MAX_DEPTH`, oversize or malformed text."""


def _construct_int(loader: SafeConstructor, node: yaml.ScalarNode) -> int:
    try:
        return int(SafeConstructor.construct_yaml_int(loader, node))
    except ValueError as err:  # e.g. more digits than Python's int-string limit
        raise ConstructorError(None, None, "integer with too many digits", node.start_mark) from err


class _StrictLoader(yaml.SafeLoader):  # type: ignore[misc]
    """SafeLoader without aliases, dates or non-core tags, with a nesting limit."""

    #: whether ``*name`` aliases are read (site configs, their expansion bounded by the caller)
    allow_aliases: ClassVar[bool] = False

    yaml_implicit_resolvers: ClassVar[dict[Any, Any]] = {
        first: [(tag, rx) for tag, rx in resolvers if not tag.endswith(":timestamp")]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    yaml_constructors: ClassVar[dict[Any, Any]] = {
        f"tag:yaml.org,2002:{t}": SafeConstructor.yaml_constructors[f"tag:yaml.org,2002:{t}"] for t in _CORE_TAGS
    }
    yaml_constructors["tag:yaml.org,2002:int"] = _construct_int
    yaml_constructors[None] = SafeConstructor.construct_undefined
    yaml_multi_constructors: ClassVar[dict[Any, Any]] = {}

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        #: whether an alias was read (only then is the value expanded and counted)
        self.saw_alias = False
        #: entries ``<<`` merge keys added, and at most how many they may add
        self.merged_values = 0
        self.max_merged_values = 0

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        before = len(node.value)
        super().flatten_mapping(node)
        self.merged_values += max(0, len(node.value) - before)
        if self.merged_values > self.max_merged_values > 0:
            raise FrontMatterError(f"refused YAML: its aliases expand to more than {self.max_merged_values} values")

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            if not self.allow_aliases:
                event = self.peek_event()
                raise ComposerError(None, None, "aliases (*name) are not allowed", event.start_mark)
            self.saw_alias = True
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _LenientTagLoader(_StrictLoader):
    """:class:`_StrictLoader` that reads unknown tags as ``None`` (for site configs)."""

    yaml_constructors: ClassVar[dict[Any, Any]] = dict(_StrictLoader.yaml_constructors)
    yaml_constructors[None] = lambda loader, node: None
    yaml_multi_constructors: ClassVar[dict[Any, Any]] = {}


class _AliasLoader(_StrictLoader):
    """:class:`_StrictLoader` that reads aliases."""

    allow_aliases: ClassVar[bool] = True


class _AliasLenientTagLoader(_LenientTagLoader):
    """:class:`_LenientTagLoader` that reads aliases."""

    allow_aliases: ClassVar[bool] = True


def _expand_aliases(value: Any, limit: int, merged: int = 0) -> Any:
    """``value`` with every aliased node copied where it is used (no two places share a
    mapping or list), the aliases adding at most ``limit`` values and the whole at most
    :data:`MAX_DEPTH` levels.

    Only what aliases add is counted: a mapping or list met a second time (an alias of
    it, or a ``<<`` merge of its entries) counts every value copied beneath it; the
    values written out in the file do not count, so a large alias-free file is read whole.

    Raises:
        FrontMatterError: aliases adding more values, or more levels once expanded (a
            'billion laughs', an anchor used inside itself)."""
    count = merged  # entries ``<<`` merge keys added (their values are counted here if shared)
    seen: set[int] = set()  # ids of the mappings and lists met (all alive in ``value``)

    def copy(item: Any, depth: int, aliased: bool) -> Any:
        nonlocal count
        if depth > MAX_DEPTH:
            raise FrontMatterError(f"refused YAML: nested deeper than {MAX_DEPTH} levels once its aliases are expanded")
        if isinstance(item, (dict, list)) and not aliased:
            if id(item) in seen:
                aliased = True
            else:
                seen.add(id(item))
        if aliased:
            count += 1
            if count > limit:
                raise FrontMatterError(f"refused YAML: its aliases expand to more than {limit} values")
        if isinstance(item, dict):
            return {key: copy(sub, depth + 1, aliased) for key, sub in item.items()}
        if isinstance(item, list):
            return [copy(sub, depth + 1, aliased) for sub in item]
        return item

    return copy(value, 0, False)


def load_yaml_safely(text: str, *, max_chars: int = MAX_CHARS, unknown_tags: str = "refuse",
                     max_alias_values: int = 0) -> Any:
    """Load untrusted YAML ``text`` into JSON-like values (never dates; aliases only
    when ``max_alias_values`` allows them).

    ``unknown_tags``: ``"refuse"`` (front matter) or ``"null"`` (site configs
    such as ``mkdocs.yml``, whose ``!!python/name:...`` tags become ``None``).
    ``max_alias_values``: ``0`` refuses ``*name`` aliases; above it, anchors and aliases
    (and ``<<`` merge keys) are read as YAML defines them, as the generators' own
    loaders do for their config files (Hugo's ``hugo.yaml``: Go's yaml), each use
    a copy of its own, the aliases adding at most that many values once expanded
    (the values written out in the file are not counted).

    Raises:
        FrontMatterError: longer than ``max_chars`` characters, an alias (or more
            expanded values than ``max_alias_values``), a refused tag, nesting
            deeper than :data:`MAX_DEPTH`, or not YAML.
    """
    if len(text) > max_chars:
        raise FrontMatterError(f"YAML block of {len(text)} characters exceeds the {max_chars}-character limit")
    lenient = unknown_tags == "null"
    if max_alias_values > 0:
        loader_cls: type[_StrictLoader] = _AliasLenientTagLoader if lenient else _AliasLoader
    else:
        loader_cls = _LenientTagLoader if lenient else _StrictLoader
    loader: _StrictLoader | None = None
    try:
        loader = loader_cls(text)  # the reader already refuses control characters here
        loader.max_merged_values = max_alias_values
        data = loader.get_single_data()
        return _expand_aliases(data, max_alias_values, loader.merged_values) if loader.saw_alias else data
    except yaml.YAMLError as err:
        reason = getattr(err, "problem", None) or type(err).__name__
        raise FrontMatterError(f"refused YAML: {reason}") from err
    except (RecursionError, ValueError, TypeError, OverflowError) as err:
        raise FrontMatterError(f"refused YAML ({type(err).__name__})") from err
    finally:
        if loader is not None:
            loader.dispose()


def _jsonlike(value: Any, depth: int = 0) -> Any:
    if depth > MAX_DEPTH:
        return None
    if isinstance(value, dict):
        return {str(k): _jsonlike(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonlike(v, depth + 1) for v in value]
    if isinstance(value, (_dt.date, _dt.time)):  # TOML dates and datetimes
        return value.isoformat()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


@dataclass(frozen=True, slots=True)
class FrontMatter:
    """A page split into its front matter and body.

    ``meta``: the mapping (JSON-like values; ``{}`` when absent, refused or not
    a mapping). ``body``: the page text after the closing delimiter (the whole
    text when there is no front matter). ``syntax``: ``"yaml"``, ``"toml"`` or
    ``"json"`` or ``""``. ``warnings``: why the block was ignored, for the ingest report.
    """

    meta: dict[str, Any]
    body: str
    syntax: str
    warnings: tuple[str, ...] = ()


def parse_front_matter(text: str, *, max_chars: int = MAX_CHARS) -> FrontMatter:
    """Split and parse the front matter at the start of ``text`` (see the module docstring).

    Never raises: refused or malformed front matter gives ``meta={}``, the body
    after the block and a warning.
    """
    m = _OPEN.match(text)
    if not m:
        stripped = text.lstrip("\ufeff")
        if stripped.startswith("{"):
            return _json_front_matter(stripped, max_chars)
        return FrontMatter({}, text, "")
    delim = m.group(1)
    close = _CLOSE[delim].search(text, m.end())
    if close is None:
        # no closing delimiter: "---" is a thematic break, not front matter
        return FrontMatter({}, text, "")
    block = text[m.end() : close.start()]
    body = text[close.end() :]
    if body.startswith("\r\n"):
        body = body[2:]
    elif body.startswith("\n"):
        body = body[1:]
    syntax = "toml" if delim == "+++" else "yaml"
    try:
        if len(block) > max_chars:
            raise FrontMatterError(f"{len(block)} characters exceed the {max_chars}-character limit")
        if syntax == "toml":
            try:
                data: Any = tomllib.loads(block)
            except (tomllib.TOMLDecodeError, RecursionError, ValueError) as err:
                raise FrontMatterError(f"not valid TOML ({type(err).__name__})") from err
        else:
            data = load_yaml_safely(block, max_chars=max_chars)
    except FrontMatterError as err:
        return FrontMatter({}, body, syntax, (f"front matter ignored: {err}",))
    if data is None:
        return FrontMatter({}, body, syntax)
    if not isinstance(data, dict):
        return FrontMatter({}, body, syntax, (f"front matter ignored: a {type(data).__name__}, not a mapping",))
    return FrontMatter(_jsonlike(data), body, syntax)


def _json_front_matter(text: str, max_chars: int) -> FrontMatter:
    try:
        obj, end = json.JSONDecoder().raw_decode(text[: max_chars + 1])
    except (json.JSONDecodeError, RecursionError, ValueError):
        return FrontMatter({}, text, "")  # not JSON front matter: the page starts with "{"
    if not isinstance(obj, dict):
        return FrontMatter({}, text, "")
    return FrontMatter(_jsonlike(obj), text[end:].lstrip("\r\n"), "json")


def split_front_matter(text: str, warnings: list[str]) -> tuple[dict[str, Any], str]:
    """``(meta, body)`` of :func:`parse_front_matter`; its warnings are appended to ``warnings``."""
    fm = parse_front_matter(text)
    warnings.extend(fm.warnings)
    return fm.meta, fm.body
