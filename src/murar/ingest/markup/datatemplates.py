"""sphinxcontrib-datatemplates (and sphinx-jinja): reST written by a Jinja2 template.

The extension (https://sphinxcontribdatatemplates.readthedocs.io/, "Using
datatemplate") adds ``.. datatemplate:json:: data.json`` (``yaml``, ``csv``,
``nodata``; the legacy ``.. datatemplate::`` names its file with ``:source:``).
Its template -- the directive's body, or the file its ``:template:`` option names
in ``templates_path`` -- is rendered with ``data`` (the loaded file; ``None`` for
``nodata``), ``config`` (Sphinx's configuration) and the ``make_list_table`` /
``make_list_table_from_mappings`` helpers, and the output is parsed as reST where
the directive stands (ROCm's install guides loop over
``config.html_context['ubuntu_version_numbers']`` to write one tab per release).

sphinx-jinja (https://github.com/tardyp/sphinx-jinja) adds ``.. jinja:: context``: its
body (or the ``:file:`` template, relative to the source directory) rendered with
conf.py's ``jinja_contexts[context]`` (and ``jinja_globals``), output parsed as reST.

murar renders the template with jinja2's sandbox (no access to Python internals,
no file or network I/O) bounded in work and value sizes
(:class:`murar.ingest.markup.jinjabox.BoundedSandbox`), ``config`` being conf.py's settings as murar reads them
(literals, see :func:`murar.ingest.sites.sphinx.read_conf`): a setting it cannot
read is undefined, which renders as nothing. Output stops at
:data:`MAX_OUTPUT_CHARS`.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from jinja2 import TemplateError

from murar.errors import IngestError
from murar.ingest.frontmatter import FrontMatterError, load_yaml_safely
from murar.ingest.markup.jinjabox import BoundedSandbox

__all__ = ["KINDS", "MAX_OUTPUT_CHARS", "DataTemplateError", "load_data", "make_list_table",
           "make_list_table_from_mappings", "render", "render_template"]

MAX_OUTPUT_CHARS = 1_000_000

KINDS = ("json", "yaml", "csv", "nodata")  # the datatemplate:<kind> directives


class DataTemplateError(IngestError):
    """A datatemplate whose data or template cannot be read or rendered (the message says why)."""


class _Config:
    """Sphinx's ``config`` as a template reads it: ``config.name`` is conf.py's setting."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self._values = dict(values)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name: str) -> Any:
        return self._values[name]


def load_data(kind: str, text: str, options: Mapping[str, Any]) -> Any:
    """The data of a datatemplate ``kind`` (``json``, ``yaml``, ``csv``) from the file ``text``.

    ``yaml`` with the ``multiple-documents`` option is a list of every document; ``csv``
    is a list of rows (lists of strings), of mappings by the first row's names with the
    ``headers`` option, read with the ``dialect`` option's csv dialect (``excel`` by
    default, ``auto`` sniffs it). Raises :class:`DataTemplateError` for a file that does
    not parse (JSON nested too deep for Python's parser too)."""
    try:
        if kind == "json":
            return json.loads(text)
        if kind == "yaml":
            if "multiple-documents" in options:
                return [load_yaml_safely(part) for part in text.split("\n---")]
            return load_yaml_safely(text)
        if kind == "csv":
            dialect_name = str(options.get("dialect") or "excel").strip()
            dialect: Any = (csv.Sniffer().sniff(text[:4096]) if dialect_name == "auto"
                            else dialect_name if dialect_name in csv.list_dialects() else "excel")
            if "headers" in options:
                return list(csv.DictReader(io.StringIO(text), dialect=dialect))
            return list(csv.reader(io.StringIO(text), dialect=dialect))
    except (ValueError, FrontMatterError, csv.Error, RecursionError) as err:
        # (RecursionError: JSON nested deeper than Python's parser recurses, '[' * 100000)
        raise DataTemplateError(f"cannot read the {kind} data ({type(err).__name__}: {err})") from err
    return None


def _cells(row: Iterable[Any]) -> list[str]:
    return [" ".join(str(c if c is not None else "").split()) for c in row]


def _list_table(headers: Sequence[Any], rows: Iterable[Iterable[Any]], title: str, columns: Any) -> str:
    lines = [f".. list-table:: {title}".rstrip()]
    if headers:
        lines.append("   :header-rows: 1")
    if columns:
        lines.append("   :widths: " + " ".join(str(c) for c in columns))
    lines.append("")
    for row in ([_cells(headers)] if headers else []) + [_cells(r) for r in rows]:
        for i, cell in enumerate(row):
            lines.append(f"   {'*' if i == 0 else ' '} - {cell}".rstrip())
    return "\n".join(lines) + "\n"


def make_list_table(headers: Sequence[Any], data: Iterable[Iterable[Any]], title: str = "",
                    columns: Any = None) -> str:
    """A ``list-table`` directive of ``headers`` (one header row) over the rows of ``data``."""
    return _list_table(headers, data, title, columns)


def make_list_table_from_mappings(headers: Sequence[Sequence[Any]], data: Iterable[Mapping[str, Any]],
                                  title: str = "", columns: Any = None) -> str:
    """A ``list-table`` of ``data``'s mappings: ``headers`` are ``(header, key)`` pairs."""
    names = [h[0] for h in headers]
    keys = [h[1] for h in headers]
    return _list_table(names, ([row.get(k, "") for k in keys] for row in data), title, columns)


def render_template(template: str, *, data: Any, config: Mapping[str, Any]) -> str:
    """``template`` rendered in jinja2's sandbox with ``data``, ``config`` (conf.py's
    settings, ``config.html_context['x']``) and the list-table helpers; at most
    :data:`MAX_OUTPUT_CHARS` characters. Raises :class:`DataTemplateError` for a template
    that does not parse or fails while rendering."""
    return render(template, {"data": data, "config": _Config(config), "make_list_table": make_list_table,
                             "make_list_table_from_mappings": make_list_table_from_mappings})


def render(template: str, variables: Mapping[str, Any]) -> str:
    """``template`` rendered in jinja2's sandbox with ``variables`` (an unknown name is
    undefined: it prints nothing, a loop over it runs no time); at most
    :data:`MAX_OUTPUT_CHARS` characters. Raises :class:`DataTemplateError` for a template
    that does not parse, fails while rendering or goes over the sandbox's budget of steps
    and value sizes (:mod:`murar.ingest.markup.jinjabox`)."""
    env = BoundedSandbox(autoescape=False, keep_trailing_newline=True)
    try:
        compiled = env.bounded_template(template)
        out: list[str] = []
        size = 0
        for chunk in compiled.generate(**{str(k): v for k, v in variables.items()}):
            out.append(chunk)
            size += len(chunk)
            if size > MAX_OUTPUT_CHARS:
                break
    except (TemplateError, ArithmeticError, TypeError, ValueError, LookupError, AttributeError,
            RecursionError, MemoryError) as err:
        raise DataTemplateError(f"template failed ({type(err).__name__}: {err})") from err
    return "".join(out)[:MAX_OUTPUT_CHARS]
