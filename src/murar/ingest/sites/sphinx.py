"""Sphinx: ``conf.py`` settings and Sphinx's resolution rules.

Sphinx (https://www.sphinx-doc.org/en/master/usage/configuration.html) builds
every file under the source directory (the folder of ``conf.py``) whose suffix
is in ``source_suffix`` and that matches ``include_patterns`` (default: all),
minus ``exclude_patterns``. Link rules used here:

- ``.. image::``/``.. figure::`` paths are relative to the *document* being
  built (an included file's images resolve against the page that includes it);
  a leading ``/`` means the source directory (``env.relfn2path``).
- ``.. include::`` and ``literalinclude`` paths are relative to the document being
  built, also inside an included file (``env.relfn2path`` from ``env.docname``); a
  leading ``/`` means the source directory. (``csv-table :file:`` is docutils': relative
  to the file holding it.)
- Files pulled in by ``.. include::`` (or MyST ``{include}``) are content of
  the pages that include them, not pages of their own (murar's rule, see
  DESIGN.md), whatever their suffix.
- An image shows its language-specific file when that exists
  (``figure_language_filename``, default ``{root}.{language}{ext}``:
  ``img/a.png`` -> ``img/a.de.png`` with ``language = "de"``).
- A notebook that a ``toctree`` names while no ``source_suffix`` reads notebooks
  (no ``.rst`` of that name either) is that page: the site converts it before the
  build (``jupyter nbconvert --to rst`` in a build script).
- ``html_additional_pages`` (document name -> template): the template found in
  ``templates_path`` is that page, read as HTML after its Jinja2 tags are rendered (the
  theme layout it extends is not in the corpus), its links resolving from the document's
  place; a redirect stub is none.
- A raw-HTML picture under ``_images/`` (the HTML builder's image folder, where each
  picture a page shows is copied under its file name) is the one source picture of that name.
- With sphinx-multiproject, each project of ``multiproject_projects`` is built
  from its own folder (``path``, default its key, relative to conf.py's folder):
  a leading ``/`` and document names are that folder's.
- A conf.py (or a local extension it loads) whose ``setup(app)`` connects a ``source-read`` handler that renders
  the source as a Jinja2 template (``app.builder.templates.render_string(source[0],
  app.config.html_context)``, or ``jinja2.Template(...).render(...)``: the "rstjinja"
  recipe, pandas' ``{{ header }}``) has every page's own text rendered so, with that
  setting's literal entries as the names, before ``rst_prolog`` is added; an included
  file is not rendered (Sphinx emits ``source-read`` for documents only).

``conf.py`` is Python; it is never executed. :func:`read_conf` evaluates only
top-level assignments whose value is a literal (``ast.literal_eval``), so a
conf that imports a theme or computes a date still gives its plain settings;
a top-level ``if`` whose test it can read from those settings is followed into
the branch Python takes, with every environment variable unset (the default build:
``if os.environ.get("QUICKY_CHAPTERS") is None: master_doc = "contents"``).
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from murar.ingest.frontmatter import FrontMatterError, load_yaml_safely
from murar.ingest.markup.gallery import (
    code_size,
    example_title,
    rst_title,
    thumbnail_list,
)
from murar.ingest.paths import ResolvedLink, inside_root, is_remote, resolve_link
from murar.ingest.sites import _jinja
from murar.ingest.sites._common import (
    checked_rel,
    os_walk_files,
    regex_problem,
    scan_include_targets,
)
from murar.ingest.sites._glob import SPHINX, GlobSyntax, glob_match
from murar.ingest.sites._links import contained, join_rel
from murar.ingest.sites._xrefs import (
    XrefIndex,
    XrefTarget,
    read_capped,
    rst_substitutions,
    scan_xrefs,
    toctree_docnames,
    toctree_order,
)
from murar.ingest.sites.base import FileClass, FileRole, SiteConfig, asset_or_unknown

__all__ = ["SphinxConf", "SphinxSite", "bundled_extensions", "custom_notebook_suffixes", "makefile_source_dir", "makefile_tags", "markup_settings", "read_conf",
           "rtd_builder", "source_read_jinja", "sphinx_glob"]

_INCLUDE_RE = re.compile(
    r"^[ \t]*(?:\.\.[ \t]+(?:include|literalinclude|mdinclude)::[ \t]*(\S.*?)[ \t]*$"
    r"|[`:]{3,}[ \t]*\{(?:include|literalinclude)\}[ \t]*(\S.*?)[ \t]*$)",
    re.MULTILINE,
)
_ASSET_EXTS = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".bmp", ".tif", ".tiff", ".ico",
               ".mp4", ".webm", ".ogg", ".mov", ".pdf", ".css", ".js", ".woff", ".woff2", ".ttf",
               ".vtt", ".srt", ".csv", ".json", ".zip"}
# picture suffixes an HTML page shows (figure_language_filename applies to image nodes; a :download:
# of a PDF is never localized)
_IMAGE_EXTS = frozenset({".png", ".jpg", ".jpeg", ".gif", ".svg", ".svgz", ".webp", ".avif", ".bmp",
                         ".tif", ".tiff", ".ico"})
# the fields of figure_language_filename (Sphinx "Options for internationalization"), its default,
# and the longest path it may give
_FIGURE_FIELDS = frozenset({"root", "ext", "path", "basename", "docpath", "language"})
_DEFAULT_FIGURE_FORMAT = "{root}.{language}{ext}"
_MAX_FIGURE_PATH = 4096


def _figure_pieces(fmt: str) -> tuple[tuple[str, str], ...] | str | None:
    """``fmt`` as ``(literal, field)`` pieces (``string.Formatter().parse``); ``"default"``
    when a field has a format spec or conversion; ``None`` when a field is not one of
    :data:`_FIGURE_FIELDS` or ``fmt`` is not a format (an unmatched brace)."""
    import string

    try:
        parsed = list(string.Formatter().parse(fmt))
    except ValueError:
        return None
    pieces: list[tuple[str, str]] = []
    hostile = False
    for literal, name, spec, conversion in parsed:
        if name is not None and name not in _FIGURE_FIELDS:
            return None
        hostile = hostile or bool(spec) or conversion is not None
        pieces.append((literal, name or ""))
    return "default" if hostile else tuple(pieces)


# a page that sends the browser elsewhere (a redirect stub)
_REFRESH = re.compile(r"""<meta[^>]+http-equiv=["']?refresh""", re.IGNORECASE)
# Sphinx's own exclusions (sphinx.project.EXCLUDE_PATHS) plus build output
_DEFAULT_EXCLUDES = ("**/_sources", ".#*", "**/.#*", "*.lproj/**", "_build", "_build/**",
                     "**/.ipynb_checkpoints", "**/.ipynb_checkpoints/**", "Thumbs.db", ".DS_Store")


@dataclass(frozen=True, slots=True, kw_only=True)
class SphinxConf:
    """The ``conf.py`` settings that change what is a page and where files are.

    ``source_suffix`` maps a suffix (``.rst``) to its parser name
    (``restructuredtext``, ``markdown``, ``myst-nb``); ``values`` keeps every
    literal top-level setting by its Sphinx name.

    ``primary_domain`` is the domain whose directives and roles are written
    without a prefix (``.. class::`` is ``.. py:class::``; Sphinx's default
    ``"py"``, ``None`` when conf.py sets it to ``None``). ``extlinks`` maps a
    role of ``sphinx.ext.extlinks`` to its ``(url, caption)`` pattern, each
    with one ``%s`` (https://www.sphinx-doc.org/en/master/usage/extensions/extlinks.html).
    ``object_types`` are the ``(directive, role)`` names ``setup(app)`` adds
    (``app.add_object_type``, ``app.add_crossref_type``, Sphinx application API), in
    conf.py or in a local extension module it loads; ``target_directives`` the
    directives of the cross-reference types among them (``sphinx.domains.std.Target``:
    an index entry and an anchor, nothing shown).
    ``tags`` are the tags conf.py adds with ``tags.add("name")`` for ``.. only::``
    (https://www.sphinx-doc.org/en/master/usage/configuration.html#conf-tags).
    ``sys_path`` are the folders conf.py puts on ``sys.path`` (``sys.path.insert(0,
    os.path.abspath(".."))``), relative to conf.py's folder, where autodoc imports from.
    ``source_read_jinja`` is set when a ``source-read`` handler renders each page as a
    Jinja2 template (:func:`source_read_jinja`): the name of the setting whose dict is
    the template's context (``"html_context"``), ``""`` when the context is not a setting.
    """

    root_doc: str = "index"
    source_suffix: dict[str, str] = field(default_factory=lambda: {".rst": "restructuredtext"})
    exclude_patterns: tuple[str, ...] = ()
    html_static_path: tuple[str, ...] = ()
    html_extra_path: tuple[str, ...] = ()
    templates_path: tuple[str, ...] = ()
    language: str | None = None
    extensions: tuple[str, ...] = ()
    rst_prolog: str = ""
    rst_epilog: str = ""
    primary_domain: str | None = "py"
    extlinks: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    object_types: tuple[tuple[str, str], ...] = ()
    target_directives: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    sys_path: tuple[str, ...] = ()
    source_read_jinja: str | None = None
    values: dict[str, Any] = field(default_factory=dict)


def _strs(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(v for v in value if isinstance(v, str))
    return ()


#: bytes of conf.py read (a real one is a few kilobytes)
_MAX_CONF_BYTES = 2_000_000


def custom_notebook_suffixes(values: dict[str, Any], extensions: Sequence[str]) -> dict[str, str]:
    """Notebooks stored as text: the suffixes of ``nbsphinx_custom_formats`` (with nbsphinx)
    and myst-nb's ``nb_custom_formats`` (with myst_nb) as source suffixes, each read through
    the format jupytext is given (``{suffix: [converter, {"fmt": ...}]}``), as the parser
    name ``jupytext:<fmt>`` (see :meth:`SphinxSite.markup_for`)."""
    out: dict[str, str] = {}
    for setting, ext in (("nbsphinx_custom_formats", "nbsphinx"), ("nb_custom_formats", "myst_nb")):
        formats = values.get(setting)
        if ext in extensions and isinstance(formats, dict):
            for sfx, how in list(formats.items())[:50]:
                kwargs = next((h for h in how if isinstance(h, dict)), {}) if isinstance(how, (list, tuple)) else {}
                fmt = kwargs.get("fmt") if isinstance(kwargs.get("fmt"), str) else str(sfx).lstrip(".")
                if isinstance(sfx, str) and sfx.startswith("."):
                    out.setdefault(sfx, f"jupytext:{fmt}")
    return out


def read_conf(path: Path, warnings: list[str] | None = None, *, root: Path | None = None) -> SphinxConf:
    """Read the literal settings of a Sphinx ``conf.py`` without executing it.

    A value is kept when it is a literal, or is built only from literals and
    settings assigned earlier (a name, an f-string, ``+``, ``"...".format(...)``,
    ``"..." % (...)``, ``str(...)``, ``a if test else b``: ``f"{_repo}/issues/%s"``),
    or is ``os.environ.get(name, default)``/``os.getenv`` (the default: a build
    without that variable); anything else (a call, an import) is skipped, or only
    the entries (items) that need it in a dict (list) display; ``x += [...]`` and a top-level
    ``x.append(v)``/``x.extend([...])``/``x.insert(i, v)`` change a list.
    ``from module import *`` (or ``import a, b``) of a Python file found inside
    ``root`` on the folders conf.py puts on ``sys.path`` (a shared parent
    ``conf.py``) gives that file's settings read the same way, at that point.
    The object types a ``setup(app)`` registers with literal names
    (``app.add_object_type("confval", "confval")``, ``add_crossref_type``) are
    collected as ``(directive, role)`` pairs. A conf.py that is not valid
    Python, nests deeper than Python's parser goes (``x = ---...1`` 100,000 times:
    MemoryError, ``'a' + 'a' + ...``: RecursionError, out of the site's loading) or
    is over 2,000,000 bytes gives the defaults and a warning. Never raises for a
    bad file.
    """
    warns = warnings if warnings is not None else []
    try:
        with path.open("rb") as fh:
            raw = fh.read(_MAX_CONF_BYTES + 1)
        if len(raw) > _MAX_CONF_BYTES:
            raise ValueError("over 2,000,000 bytes")
        tree = ast.parse(raw.decode("utf-8", errors="replace"), filename=str(path))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError) as err:
        warns.append(f"{path.name}: cannot read settings ({type(err).__name__}); Sphinx defaults used")
        return SphinxConf()
    values = _conf_values(tree, path, root, depth=0)
    suffix_raw = values.get("source_suffix")
    suffix: dict[str, str]
    if isinstance(suffix_raw, dict):
        suffix = {str(k): str(v) for k, v in suffix_raw.items()}
    elif _strs(suffix_raw):
        suffix = {s: ("markdown" if s == ".md" else "restructuredtext") for s in _strs(suffix_raw)}
    else:
        suffix = {".rst": "restructuredtext"}
    extensions = bundled_extensions(_strs(values.get("extensions")))
    if any(e in ("myst_parser", "myst_nb") for e in extensions):
        suffix.setdefault(".md", "markdown")
    if "myst_nb" in extensions or "nbsphinx" in extensions:
        suffix.setdefault(".ipynb", "myst-nb" if "myst_nb" in extensions else "nbsphinx")
    if "nbsphinx_link" in extensions:  # a .nblink file shows a notebook kept elsewhere (nbsphinx-link)
        suffix.setdefault(".nblink", "nbsphinx-link")
    if "recommonmark" in extensions or "sphinx_markdown_parser" in extensions:
        suffix.setdefault(".md", "markdown")
    for sfx, parser in custom_notebook_suffixes(values, extensions).items():
        suffix.setdefault(sfx, parser)
    root_doc = values.get("root_doc") or values.get("master_doc") or "index"
    lang = values.get("language")
    sys_path = conf_sys_path(tree)
    setups = [(tree, values), *((t, {}) for t in _extension_trees(path, root, extensions, sys_path))]
    return SphinxConf(
        root_doc=str(root_doc),
        source_suffix=suffix,
        exclude_patterns=_strs(values.get("exclude_patterns")),
        html_static_path=_strs(values.get("html_static_path")),
        html_extra_path=_strs(values.get("html_extra_path")),
        templates_path=_strs(values.get("templates_path")),
        language=str(lang) if isinstance(lang, str) else None,
        extensions=extensions,
        rst_prolog=str(values.get("rst_prolog") or ""),
        rst_epilog=str(values.get("rst_epilog") or ""),
        **markup_settings(values),
        object_types=tuple(pair for t, v in setups for pair in _object_types(t, v)),
        target_directives=tuple(d for t, v in setups for d, _ in _object_types(t, v, ("add_crossref_type",))),
        tags=tuple(_conf_tags(tree.body, values)),
        sys_path=tuple(sys_path),
        source_read_jinja=next((found for t, _ in setups if (found := source_read_jinja(t)) is not None), None),
        values=values,
    )


#: extension packages whose ``setup()`` loads other extensions (``app.setup_extension``): the
#: ROCm projects' shared rocm-docs-core (``rocm_docs/core.py``) loads myst_nb, so its sites' .md
#: and .ipynb files are pages although conf.py lists only "rocm_docs"
_BUNDLED_EXTENSIONS: dict[str, tuple[str, ...]] = {
    "rocm_docs": ("myst_nb", "notfound.extension", "sphinx_copybutton", "sphinx_design", "sphinx_external_toc",
                  "sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.doctest", "sphinx.ext.duration",
                  "sphinx.ext.intersphinx"),
}


def bundled_extensions(extensions: Sequence[str]) -> tuple[str, ...]:
    """``extensions`` followed by those their ``setup()`` loads (:data:`_BUNDLED_EXTENSIONS`),
    each once, in order: the extensions Sphinx ends up running."""
    out = list(dict.fromkeys(extensions))
    for name in extensions:
        out.extend(e for e in _BUNDLED_EXTENSIONS.get(name, ()) if e not in out)
    return tuple(out)


_MAX_IMPORT_DEPTH = 3  # conf.py importing a shared conf.py importing another


_MAX_IMPORTED_FILES = 16  # shared conf files one read_conf follows imports into


_MAX_CONF_STATEMENTS = 20_000  # statements of conf.py's if branches taken read (beyond the top level)


def _conf_values(tree: ast.Module, path: Path, root: Path | None, *, depth: int,
                 budget: list[int] | None = None) -> dict[str, Any]:
    """The settings :func:`read_conf` reads from the top level of ``tree`` (the file ``path``),
    and from the branch Python takes of a top-level ``if`` whose test reads from literal
    settings (:func:`_test_value`; an environment variable is unset, as ``os.environ.get``
    gives its default: ``if os.environ.get("QUICK") is None: master_doc = "contents"``);
    an ``if`` it cannot read is skipped. ``budget`` counts the imported files still to be
    read (shared by the nested reads)."""
    budget = budget if budget is not None else [_MAX_IMPORTED_FILES]
    values: dict[str, Any] = {}
    syspath: list[str] | None = None
    paths: dict[str, str] = {}  # names holding a path expression, relative to conf.py's folder
    todo: list[ast.stmt] = list(tree.body)
    todo.reverse()  # popped from the end: the file's order
    steps = 0
    # every top-level statement is read, as before if branches were followed (a conf.py of 30,000
    # statements lost every setting after the 20,000th, unwarned); the cap bounds the branch bodies
    limit = len(tree.body) + _MAX_CONF_STATEMENTS
    while todo and steps < limit:
        steps += 1
        node = todo.pop()
        if isinstance(node, ast.If):
            try:
                taken = bool(_test_value(node.test, values))
            except (ValueError, TypeError, KeyError, IndexError, SyntaxError, RecursionError, MemoryError):
                continue
            todo.extend(reversed(node.body if taken else node.orelse))
            continue
        if isinstance(node, ast.With):  # with open("epilog.rst") as f: rst_epilog = f.read()
            values.update(_with_open_reads(node, paths, path, root))
            continue
        if isinstance(node, (ast.ImportFrom, ast.Import)):
            if root is None or depth >= _MAX_IMPORT_DEPTH:
                continue
            if syspath is None:
                syspath = conf_sys_path(tree)
            values.update(_imported_settings(node, path, root, syspath, depth, budget))
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value_node = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            name, value_node = node.target.id, node.value
        elif isinstance(node, ast.Expr) and (list_call := _list_call(node.value)) is not None:
            _apply_list_call(list_call, values)
            continue
        elif (isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add)
              and isinstance(node.target, ast.Name)):
            try:
                extra = (_readable_elements(node.value, values) if isinstance(node.value, ast.List)
                         else _value(node.value, values))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            base = values.get(node.target.id)
            if isinstance(base, list) and isinstance(extra, (list, tuple)):
                values[node.target.id] = base + list(extra)
            elif isinstance(base, str) and isinstance(extra, str):
                values[node.target.id] = base + extra
            continue
        else:
            continue
        read = _file_text(value_node, paths, path, root)
        if read is not None:  # rst_epilog = open(os.path.join(CURDIR, "epilog.rst")).read()
            values[name] = read
            continue
        where = _path_value(value_node, paths)
        if where is not None:
            paths[name] = where
        else:
            paths.pop(name, None)
        if isinstance(value_node, ast.Dict):  # keep the entries that can be read
            values[name] = _readable_items(value_node, values)
            continue
        if isinstance(value_node, ast.List):  # and the items
            values[name] = _readable_elements(value_node, values)
            continue
        try:
            values[name] = _value(value_node, values)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            values.pop(name, None)  # a setting Python reassigns to what murar cannot read is unknown
            continue
    return values


#: bytes of a file conf.py reads into a setting (an rst_epilog of substitutions and links): Sphinx
#: adds rst_epilog to every page, and each 100,000 characters of it take some 1.5 s a page to parse
_MAX_READ_SETTING_BYTES = 100_000
_OPEN_FUNCS = frozenset({"open", "io.open", "codecs.open"})


def _opened_file(call: ast.expr, paths: dict[str, str], conf: Path, root: Path | None) -> str | None:
    """The text of the file ``open(path, ...)`` names (``io.open``/``codecs.open`` too), read
    from conf.py's folder as Sphinx runs it there; ``None`` when the path is not made of known
    parts (:func:`_path_value`), leaves the site (``root``, else conf.py's folder) or cannot be
    read. At most 100,000 bytes (a longer file cut after its last whole line), decoded as UTF-8."""
    if not (isinstance(call, ast.Call) and call.args and ast.unparse(call.func) in _OPEN_FUNCS):
        return None
    where = _path_value(call.args[0], paths)
    return None if where is None else _read_beside(conf, where, root)


def _read_beside(conf: Path, where: str, root: Path | None) -> str | None:
    """The text of ``where`` (relative to conf.py's folder) when it is a file inside ``root``."""
    try:
        limit = (root or conf.parent).resolve()
        target = (conf.parent / where).resolve()
        if not target.is_relative_to(limit) or not target.is_file():
            return None
        with target.open("rb") as fh:
            data = fh.read(_MAX_READ_SETTING_BYTES + 1)
        if len(data) > _MAX_READ_SETTING_BYTES:  # cut at a line's end: no half directive
            data = data[:data.rfind(b"\n", 0, _MAX_READ_SETTING_BYTES) + 1]
        return data.decode("utf-8", errors="replace")
    except (OSError, ValueError, RuntimeError):
        return None


def _without_text_calls(node: ast.expr) -> ast.expr:
    """``node`` without the trailing ``.decode(...)``/``.strip()``/``.rstrip()``/``.lstrip()``
    calls (at most 4) conf.py writes after reading a file: the file's text stands for the value."""
    for _ in range(4):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("decode", "strip", "rstrip", "lstrip")):
            break
        node = node.func.value
    return node


def _file_text(node: ast.expr, paths: dict[str, str], conf: Path, root: Path | None) -> str | None:
    """A setting conf.py reads from a file (Sphinx runs conf.py, so the file's text is the
    value): ``open(p).read()`` (a trailing Python 2 ``.decode(...)`` or ``.strip()`` kept as
    the text) or ``Path(p).read_text()``; ``None`` for anything else."""
    node = _without_text_calls(node)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args):
        return None
    if node.func.attr == "read":
        return _opened_file(node.func.value, paths, conf, root)
    if node.func.attr == "read_text":
        where = _path_value(node.func.value, paths)
        return None if where is None else _read_beside(conf, where, root)
    return None


def _with_open_reads(node: ast.With, paths: dict[str, str], conf: Path, root: Path | None) -> dict[str, str]:
    """``with open(p) as f: name = f.read()``: ``{name: text of p}`` (see :func:`_opened_file`)."""
    if len(node.items) != 1 or not isinstance(node.items[0].optional_vars, ast.Name):
        return {}
    handle = node.items[0].optional_vars.id
    text: str | None = None
    out: dict[str, str] = {}
    for stmt in node.body[:20]:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        value = _without_text_calls(stmt.value)
        if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "read"
                and isinstance(value.func.value, ast.Name) and value.func.value.id == handle and not value.args):
            if text is None:
                text = _opened_file(node.items[0].context_expr, paths, conf, root)
            if text is not None:
                out[stmt.targets[0].id] = text
    return out


#: list settings whose Sphinx default is an empty list: a top-level ``x.append(...)`` on one that
#: conf.py got from an installed package (``from sphinx_astropy.conf.v1 import *``, not read)
#: adds to what murar knows of it (an empty list; the package's own items stay unknown)
_EMPTY_LIST_SETTINGS = frozenset({"extensions", "exclude_patterns", "templates_path", "html_static_path",
                                  "html_extra_path", "html_css_files", "html_js_files", "suppress_warnings"})


def _list_call(node: ast.expr) -> ast.Call | None:
    """``node`` when it is ``name.append(x)``, ``name.extend([...])`` or ``name.insert(i, x)``."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and not node.keywords
            and (node.func.attr, len(node.args)) in (("append", 1), ("extend", 1), ("insert", 2))):
        return node
    return None


def _apply_list_call(call: ast.Call, values: dict[str, Any]) -> None:
    """Apply a top-level ``x.append(v)``/``x.extend([...])``/``x.insert(i, v)`` to the list
    setting ``x``, as Python runs it (``exclude_patterns.append("_templates")``); a setting not
    read yet is a list only when Sphinx's default is one (:data:`_EMPTY_LIST_SETTINGS`). A value
    murar cannot read leaves the list as it was (its readable items, as for a list display)."""
    assert isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
    name, method = call.func.value.id, call.func.attr
    base = values.get(name, [] if name in _EMPTY_LIST_SETTINGS else None)
    if not isinstance(base, list):
        return
    try:
        if method == "extend":
            arg = call.args[0]
            extra = (_readable_elements(arg, values) if isinstance(arg, ast.List)
                     else list(_value(arg, values)))
            values[name] = base + extra
        elif method == "append":
            values[name] = [*base, _value(call.args[0], values)]
        else:
            index = _value(call.args[0], values)
            if isinstance(index, int):
                values[name] = base[:index] + [_value(call.args[1], values)] + base[index:]
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return


def _imported_settings(node: ast.ImportFrom | ast.Import, path: Path, root: Path, syspath: list[str],
                       depth: int, budget: list[int]) -> dict[str, Any]:
    """The names ``from module import *`` (public names, or ``__all__``) or ``from module
    import a, b as c`` bring into conf.py, when ``module`` is a Python file inside ``root``
    on conf.py's ``sys.path`` folders (never an installed package); read, never run."""
    if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
        return {}
    folder = path.parent
    stem = node.module.replace(".", "/")
    for entry, name in ((e, n) for e in syspath for n in (f"{stem}.py", f"{stem}/__init__.py")):
        candidate = folder / entry / name
        try:
            candidate = candidate.resolve()
            inside = candidate.is_relative_to(root.resolve())
        except (OSError, RuntimeError, ValueError):
            continue
        if not inside or candidate == path.resolve() or not candidate.is_file():
            continue
        if budget[0] <= 0:
            return {}
        budget[0] -= 1
        try:
            tree = ast.parse(candidate.read_text(encoding="utf-8", errors="replace")[:1_000_000])
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            return {}
        values = _conf_values(tree, candidate, root, depth=depth + 1, budget=budget)
        names = [(a.name, a.asname or a.name) for a in node.names]
        if names == [("*", "*")]:
            public = values.get("__all__")
            keep = set(public) if isinstance(public, (list, tuple)) else None
            return {k: v for k, v in values.items()
                    if (k in keep if keep is not None else not k.startswith("_"))}
        return {alias: values[name] for name, alias in names if name in values}
    return {}


_FORMAT_SPEC = re.compile(r"^(?:[<>^=]?[+\- ]?\d{0,3}(?:\.\d{1,3})?[sdfrgeoxX%]?)?$")
_PERCENT = re.compile(r"%(?:\((\w+)\))?([sdrif%])")


def _format(template: str, args: list[Any], kwargs: dict[str, Any]) -> str:
    """``template.format(*args, **kwargs)`` for plain fields (``{}``, ``{0}``, ``{name}``)
    with small format specs (``{:s}``, ``{:>3}``); raises ValueError for attribute or item
    access, nested or wide specs, which conf.py settings do not need."""
    import string

    for _, field_name, spec, conversion in string.Formatter().parse(template):
        if field_name is None:
            continue
        if field_name and not (field_name.isdigit() or field_name.isidentifier()):
            raise ValueError("field access")
        if conversion not in (None, "s", "r") or not _FORMAT_SPEC.match(spec or ""):
            raise ValueError("format spec")
    if not all(isinstance(v, (str, int, float)) for v in (*args, *kwargs.values())):
        raise ValueError("formatted value")
    fields = template.count("{")
    longest = max((len(str(v)) for v in (*args, *kwargs.values())), default=0)
    if len(template) + fields * longest > _MAX_VALUE_LEN:  # "{0}" repeated over a long value
        raise ValueError("value too long")
    return template.format(*args, **kwargs)


def _percent(template: str, operand: Any) -> str:
    """``template % operand`` for ``%s``/``%d``/``%(name)s`` fields only (raises ValueError else)."""
    if "%" in _PERCENT.sub("", template):
        raise ValueError("percent spec")
    items = operand if isinstance(operand, (tuple, dict)) else (operand,)
    values = list(items.values() if isinstance(items, dict) else items)
    if not all(isinstance(v, (str, int, float)) for v in values):
        raise ValueError("formatted value")
    longest = max((len(str(v)) for v in values), default=0)
    if len(template) + template.count("%") * longest > _MAX_VALUE_LEN:  # "%(a)s" repeated over a long value
        raise ValueError("value too long")
    return template % items


_MAX_VALUE_LEN = 100_000  # characters of a string, or items of a list, that conf.py may build


def _value(node: ast.expr, values: dict[str, Any]) -> Any:
    """``node`` evaluated from literals and the settings in ``values`` only.

    Raises:
        ValueError: the expression needs anything else (a call, an unknown name, a format spec),
            or builds a string or list over ``_MAX_VALUE_LEN`` long.
        TypeError: ``+`` or an f-string over values that do not support it.
    """
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in values:
            raise ValueError(f"unknown name {node.id}")
        return values[node.id]
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                if part.format_spec is not None or part.conversion != -1:
                    raise ValueError("formatted value")
                inner = _value(part.value, values)
                if not isinstance(inner, (str, int, float)):
                    raise TypeError("formatted value")
                parts.append(str(inner))
            else:
                parts.append(str(_value(part, values)))
        if sum(map(len, parts)) > _MAX_VALUE_LEN:
            raise ValueError("value too long")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _value(node.left, values), _value(node.right, values)
        if len(left) + len(right) > _MAX_VALUE_LEN:  # "a = a + a" forty times must not fill memory
            raise ValueError("value too long")
        if isinstance(left, str) and isinstance(right, str):
            return left + right
        if isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
            return list(left) + list(right)
        raise ValueError("unsupported +")
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = [_value(e, values) for e in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else set(items) if isinstance(node, ast.Set) else items
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise ValueError("dict unpacking")
        return {_value(k, values): _value(v, values) for k, v in zip(node.keys, node.values) if k is not None}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = _value(node.left, values)
        if not isinstance(left, str):
            raise TypeError("unsupported %")
        result = _percent(left, _value(node.right, values))
        if len(result) > _MAX_VALUE_LEN:
            raise ValueError("value too long")
        return result
    if isinstance(node, ast.IfExp):
        return _value(node.body if _test_value(node.test, values) else node.orelse, values)
    if isinstance(node, ast.Call):
        return _call_value(node, values)
    return ast.literal_eval(node)  # negative numbers and the like, else ValueError


def _call_value(node: ast.Call, values: dict[str, Any]) -> Any:
    """The calls :func:`_value` reads: ``"...".format(...)``, ``str(x)``, and
    ``os.environ.get(name, default)``/``os.getenv(name, default)`` (the default)."""
    func = node.func
    dotted = ast.unparse(func) if isinstance(func, (ast.Attribute, ast.Name)) else ""
    if dotted in ("os.environ.get", "os.getenv", "environ.get", "getenv") and 1 <= len(node.args) <= 2:
        return _value(node.args[1], values) if len(node.args) == 2 else None
    if dotted == "str" and len(node.args) == 1 and not node.keywords:
        inner = _value(node.args[0], values)
        if isinstance(inner, (str, int, float)) and not isinstance(inner, bool):
            return str(inner)
        raise ValueError("str()")
    if isinstance(func, ast.Attribute) and func.attr == "format":
        template = _value(func.value, values)
        if not isinstance(template, str) or any(isinstance(a, ast.Starred) for a in node.args):
            raise ValueError("format")
        args = [_value(a, values) for a in node.args]
        kwargs = {k.arg: _value(k.value, values) for k in node.keywords if k.arg}
        if len(kwargs) != len(node.keywords):
            raise ValueError("format")
        result = _format(template, args, kwargs)
        if len(result) > _MAX_VALUE_LEN:
            raise ValueError("value too long")
        return result
    raise ValueError("call")


def _readable_items(node: ast.Dict, values: dict[str, Any]) -> dict[Any, Any]:
    """The entries of a dict display that :func:`_value` can read; the others are left out."""
    out: dict[Any, Any] = {}
    for k, v in zip(node.keys, node.values):
        try:
            if k is not None:
                out[_value(k, values)] = _value(v, values)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
    return out


def _readable_elements(node: ast.List, values: dict[str, Any]) -> list[Any]:
    """The items of a list display that :func:`_value` can read; the others (an imported
    package's attribute, a call: ``templates_path = ["_templates", pkg.templates_path]``)
    are left out, as entries of a dict display are."""
    out: list[Any] = []
    for e in node.elts:
        try:
            out.append(_value(e, values))
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
    return out


def _conf_tags(body: list[ast.stmt], values: dict[str, Any], depth: int = 0) -> list[str]:
    """The tags conf.py's top level adds with ``tags.add("name")``, following an ``if``
    whose test reads from literal settings (``if html_context["isTesting"]:``) into the
    branch Python would take; an ``if`` it cannot read is skipped. Nesting is bounded."""
    out: list[str] = []
    if depth > 20:
        return out
    for stmt in body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            if (isinstance(call.func, ast.Attribute) and call.func.attr == "add"
                    and isinstance(call.func.value, ast.Name) and call.func.value.id == "tags"
                    and len(call.args) == 1 and isinstance(call.args[0], ast.Constant)
                    and isinstance(call.args[0].value, str)):
                out.append(call.args[0].value)
        elif isinstance(stmt, ast.If):
            try:
                taken = bool(_test_value(stmt.test, values))
            except (ValueError, TypeError, KeyError, IndexError, SyntaxError, RecursionError):
                continue
            out.extend(_conf_tags(stmt.body if taken else stmt.orelse, values, depth + 1))
    return out


def _test_value(node: ast.expr, values: dict[str, Any]) -> Any:
    """An ``if`` test from literal settings: names, subscripts, ``not``, ``and``/``or``,
    ``==``/``!=``/``in``/``not in``, ``is None``/``is not None`` (raises for anything else, as
    :func:`_value`)."""
    if isinstance(node, ast.Subscript):
        return _test_value(node.value, values)[_test_value(node.slice, values)]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _test_value(node.operand, values)
    if isinstance(node, ast.BoolOp):
        parts = [_test_value(v, values) for v in node.values]
        return all(parts) if isinstance(node.op, ast.And) else any(parts)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = _test_value(node.left, values), _test_value(node.comparators[0], values)
        op = node.ops[0]
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return (left == right) == isinstance(op, ast.Eq)
        if isinstance(op, (ast.Is, ast.IsNot)) and right is None:  # os.environ.get("X") is None
            return (left is None) == isinstance(op, ast.Is)
        if isinstance(op, (ast.In, ast.NotIn)):
            return (left in right) == isinstance(op, ast.In)
        raise ValueError("comparison")
    return _value(node, values)


_PATH_FUNCS = {"abspath", "realpath", "normpath", "dirname", "join", "getcwd", "fspath", "str", "Path",
               "PurePath", "resolve", "absolute", "joinpath", "expanduser"}


def conf_sys_path(tree: ast.Module) -> list[str]:
    """The folders conf.py adds to ``sys.path`` (``sys.path.insert(i, p)``,
    ``sys.path.append(p)``; at the top level or under ``if``/``try``), as posix paths
    relative to conf.py's folder (Sphinx runs conf.py there, so ``os.path.abspath("..")``
    is its parent). A path is read from literals, ``__file__``, ``os.getcwd()``,
    ``os.path`` functions (``abspath``, ``dirname``, ``join``, ...), ``os.pardir``/``os.curdir``
    (also as ``os.path.pardir``), ``pathlib.Path``
    (``/``, ``.parent``, ``.parents[n]``, ``.resolve()``) and names assigned such values
    earlier; anything else is skipped. Never raises."""
    env: dict[str, str] = {}
    out: list[str] = []
    todo: list[ast.stmt] = list(tree.body)
    steps = 0
    while todo and steps < 5_000:
        steps += 1
        stmt = todo.pop(0)
        if isinstance(stmt, (ast.If, ast.Try)):
            todo[:0] = [*stmt.body, *getattr(stmt, "orelse", [])]
            continue
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            value = _path_value(stmt.value, env)
            if value is not None:
                env[stmt.targets[0].id] = value
            else:
                env.pop(stmt.targets[0].id, None)
            continue
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr in ("insert", "append") and ast.unparse(call.func.value) == "sys.path"):
            continue
        arg = call.args[-1] if call.args else None
        value = _path_value(arg, env) if arg is not None else None
        if value is not None:
            out.append(posixpath.normpath(value))
    return list(dict.fromkeys(out))


def _path_value(node: ast.expr, env: dict[str, str], depth: int = 0) -> str | None:
    """A path expression of conf.py as a posix path relative to conf.py's folder
    (``".."`` for its parent), or None when it is not made of known parts."""
    if depth > 30:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value or "."
    if isinstance(node, ast.Name):
        if node.id == "__file__":
            return "conf.py"
        return env.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):  # pathlib's "/"
        left, right = _path_value(node.left, env, depth + 1), _path_value(node.right, env, depth + 1)
        return None if left is None or right is None else posixpath.normpath(posixpath.join(left, right))
    if isinstance(node, ast.Attribute) and node.attr in ("pardir", "curdir") and isinstance(node.value, ast.Name | ast.Attribute):
        return ".." if node.attr == "pardir" else "."  # os.pardir, os.path.pardir, os.curdir
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        inner = _path_value(node.value, env, depth + 1)
        return None if inner is None else _parent(inner)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "parents":
        inner = _path_value(node.value.value, env, depth + 1)
        index = node.slice.value if isinstance(node.slice, ast.Constant) else None
        if inner is None or not isinstance(index, int) or not 0 <= index < 30:
            return None
        for _ in range(index + 1):
            inner = _parent(inner)
        return inner
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name not in _PATH_FUNCS or node.keywords:
        return None
    if name == "getcwd":
        return "."
    # a method on a path (Path(x).resolve(), p.joinpath("a")) or a function of its arguments
    receiver = [func.value] if isinstance(func, ast.Attribute) and name in ("resolve", "absolute", "joinpath") else []
    args = [_path_value(a, env, depth + 1) for a in (*receiver, *node.args)]
    if not args or any(a is None for a in args):
        return None
    parts = [str(a) for a in args]
    if name in ("join", "joinpath"):
        return posixpath.normpath(posixpath.join(*parts))
    if name == "dirname":
        return _parent(parts[0])
    return posixpath.normpath(parts[0]) if len(parts) == 1 else None


def _parent(path: str) -> str:
    """The folder holding ``path`` (relative to conf.py's folder; ``".."`` above it)."""
    path = posixpath.normpath(path)
    if path == ".":
        return ".."
    if path.split("/")[-1] == "..":
        return posixpath.join(path, "..")
    return posixpath.dirname(path) or "."


#: local extension modules one conf.py's setup calls are read from, and characters read of each
_MAX_EXTENSION_FILES = 16
_MAX_EXTENSION_CHARS = 1_000_000
#: sys.path folders searched for local extensions (conf.py adds a few)
_MAX_EXTENSION_FOLDERS = 32


def _extension_trees(path: Path, root: Path | None, extensions: Sequence[str],
                     sys_path: Sequence[str]) -> list[ast.Module]:
    """The parsed sources of the ``extensions`` that are Python files inside ``root`` on
    conf.py's ``sys_path`` folders (a site's own ``_ext/scrapydocs.py``): Sphinx imports
    each extension and calls its ``setup(app)``, where object and cross-reference types
    are added. Installed packages are not read. At most :data:`_MAX_EXTENSION_FILES`
    files of :data:`_MAX_EXTENSION_CHARS` characters, searched for in the first
    :data:`_MAX_EXTENSION_FOLDERS` folders of ``sys_path`` that exist in ``root``
    (each resolved once: 200 extensions over 2,000 folders took two minutes); never raises."""
    if root is None:
        return []
    try:
        top, conf = root.resolve(), path.resolve()
    except (OSError, RuntimeError):
        return []
    folders: dict[Path, None] = {}
    for entry in (".", *sys_path):
        try:
            folder = (path.parent / entry).resolve()
            if folder.is_relative_to(top) and folder.is_dir():
                folders[folder] = None
        except (OSError, RuntimeError, ValueError):
            continue
        if len(folders) >= _MAX_EXTENSION_FOLDERS:
            break
    trees: list[ast.Module] = []
    for name in extensions[:200]:
        if name.startswith("sphinx.") or not all(part.isidentifier() for part in name.split(".")):
            continue
        stem = name.replace(".", "/")
        for folder, file in ((d, f) for d in folders for f in (f"{stem}.py", f"{stem}/__init__.py")):
            try:
                if not (folder / file).is_file():
                    continue
                candidate = (folder / file).resolve()
                if not candidate.is_relative_to(top) or candidate == conf or not candidate.is_file():
                    continue
                with candidate.open("rb") as fh:
                    raw = fh.read(_MAX_EXTENSION_CHARS)
                trees.append(ast.parse(raw.decode("utf-8", errors="replace")))
            except (OSError, RuntimeError, ValueError, SyntaxError, RecursionError, MemoryError):
                continue
            break
        if len(trees) >= _MAX_EXTENSION_FILES:
            break
    return trees


def _object_types(tree: ast.Module, values: dict[str, Any],
                  kinds: tuple[str, ...] = ("add_object_type", "add_crossref_type")) -> tuple[tuple[str, str], ...]:
    """``(directive, role)`` of each ``add_object_type``/``add_crossref_type`` call (``kinds``)
    with literal names."""
    out: list[tuple[str, str]] = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr in kinds):
            continue
        named = {k.arg: k.value for k in call.keywords if k.arg}
        dnode = call.args[0] if call.args else named.get("directivename")
        rnode = call.args[1] if len(call.args) > 1 else named.get("rolename")
        if dnode is None or rnode is None:
            continue
        try:
            directive, role = _value(dnode, values), _value(rnode, values)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            continue
        if isinstance(directive, str) and isinstance(role, str) and directive and role:
            out.append((directive, role))
    return tuple(out)


#: what makes a jinja2 template of a string (``jinja2.Template(src)``, ``env.from_string(src)``):
#: a ``.render(...)`` call is a Jinja2 pass only beside one of them (Sphinx's template bridge,
#: ``app.builder.templates.render_string(source, context)``, is one by itself)
_TEMPLATE_MAKERS = frozenset({"Template", "from_string"})


def _call_name(call: ast.Call) -> str:
    """The last name of what ``call`` calls (``jinja2.Template(...)`` -> ``"Template"``)."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def source_read_jinja(tree: ast.Module) -> str | None:
    """The context setting of a Jinja2 pass conf.py runs over every source: a function
    ``app.connect("source-read", fn)`` registers (Sphinx's ``source-read`` event, "emitted
    when a source file has been read", its text in ``source[0]``) that assigns
    ``source[0]`` and calls ``render_string`` (or ``render`` on a ``jinja2.Template``); the setting is the name the call's
    context ends with (``app.config.html_context`` -> ``"html_context"``), ``""`` when it is
    none (no context, a literal dict). ``None`` when conf.py has no such handler."""
    handlers = {call.args[1].id for call in ast.walk(tree)
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "connect"
                and len(call.args) >= 2 and isinstance(call.args[0], ast.Constant)
                and call.args[0].value == "source-read" and isinstance(call.args[1], ast.Name)}
    for fn in tree.body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name in handlers and fn.args.args):
            continue
        source = fn.args.args[-1].arg
        assigns = any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == source
                      for node in ast.walk(fn) if isinstance(node, ast.Assign) for t in node.targets)
        jinja = any(isinstance(c, ast.Call) and _call_name(c) in _TEMPLATE_MAKERS for c in ast.walk(fn))
        calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                 and (c.func.attr == "render_string" or (c.func.attr == "render" and jinja))]
        if not (assigns and calls):
            continue
        call = calls[0]
        args = call.args[1:] if _call_name(call) == "render_string" else call.args
        context = next(iter([*args, *(k.value for k in call.keywords if k.arg is None)]), None)
        if isinstance(context, ast.Attribute):
            return context.attr
        return context.id if isinstance(context, ast.Name) else ""
    return None


def markup_settings(values: dict[str, Any]) -> dict[str, Any]:
    """The :class:`SphinxConf` fields read from Sphinx settings ``values`` (conf.py,
    or a Jupyter Book's ``sphinx.config``) that change how rST text reads:
    ``primary_domain`` and ``extlinks`` (malformed extlinks entries are left out)."""
    domain = values.get("primary_domain", "py")
    raw = values.get("extlinks")
    extlinks: dict[str, tuple[str, str | None]] = {}
    for role, pattern in (raw.items() if isinstance(raw, dict) else ()):
        if (isinstance(role, str) and isinstance(pattern, (tuple, list)) and len(pattern) == 2
                and isinstance(pattern[0], str) and (pattern[1] is None or isinstance(pattern[1], str))):
            extlinks[role] = (pattern[0], pattern[1])
    return {"primary_domain": domain if isinstance(domain, str) and domain else None, "extlinks": extlinks}


def sphinx_glob(patterns: Iterable[str]) -> list[str]:
    """Sphinx ``exclude_patterns`` ready for :func:`murar.ingest.sites._glob.glob_match`
    with :data:`murar.ingest.sites._glob.SPHINX` (sphinx.util.matching: ``**`` crosses
    folders, ``*`` and ``?`` stay inside one path segment, ``[...]`` sets; the whole
    path must match): each pattern without
    its outer ``/``, empty ones dropped. ``glob_match`` stays linear on any pattern."""
    return [p.strip("/") for p in patterns if p.strip("/")]


_MAKE_ASSIGN = re.compile(r"^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*[:?+]?=[ \t]*(.*?)[ \t]*$")
_MAKE_VAR = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")
# sphinx-build options that take a value (sphinx.cmd.build): the source directory is the first
# argument that is neither an option nor an option's value
_VALUE_OPTIONS = frozenset({"-b", "-c", "-d", "-D", "-A", "-t", "-j", "-w", "-M", "--builder", "--jobs",
                            "--doctree-dir", "--conf-dir", "--define", "--html-define", "--tag",
                            "--warning-file", "--exception-on-warning"})


def _sphinx_build_commands(root: Path, confdir: str) -> list[list[str]]:
    """The ``sphinx-build`` command lines of the ``Makefile`` in conf.py's folder
    (``confdir``, relative to ``root``) as token lists from ``sphinx-build`` on, with
    ``$(VAR)`` expanded from the Makefile's own assignments. Reads at most 200,000
    bytes of a Makefile inside ``root`` (resolved); a variable expands to at most
    10,000 characters; empty when there is no such Makefile. Never raises."""
    base = (root / confdir).resolve() if confdir not in ("", ".") else root
    makefile = base / "Makefile"
    if inside_root(makefile, root).problem:
        return []  # a Makefile linked out of the root (to /dev/zero: read_text never ended)
    try:
        with makefile.open("rb") as fh:
            text = fh.read(200_000).decode("utf-8", errors="replace")
    except OSError:
        return []
    lines = text.replace("\\\n", " ").splitlines()[:5_000]
    values: dict[str, str] = {}
    for line in lines:
        m = _MAKE_ASSIGN.match(line)
        if m and not line.startswith("\t"):
            values.setdefault(m.group(1), m.group(2))

    def expand(s: str) -> str:
        # nested variables, bounded in depth and size (A = $(B)$(B)... four levels deep grew past
        # gigabytes before the cut: MemoryError out of the site's loading, every page lost)
        for _ in range(4):
            if "$" not in s:
                break
            out: list[str] = []
            size = pos = 0
            for v in _MAKE_VAR.finditer(s):
                piece = s[pos:v.start()] + values.get(v.group(1), "")[:10_000]
                out.append(piece)
                size += len(piece)
                pos = v.end()
                if size > 10_000:
                    break
            else:
                out.append(s[pos:])
            s = "".join(out)[:10_000]
        return s[:10_000]

    commands: list[list[str]] = []
    for line in lines:
        cmd = expand(line)
        if "sphinx-build" not in cmd and "sphinx.cmd.build" not in cmd:
            continue
        tokens = cmd.replace('"', " ").replace("'", " ").split()[:200]
        start = next((i for i, tok in enumerate(tokens) if "sphinx-build" in tok or tok == "sphinx.cmd.build"), None)
        if start is not None:
            commands.append(tokens[start:])
    return commands


def makefile_source_dir(root: Path, confdir: str) -> str | None:
    """The source directory a Sphinx project's ``Makefile`` builds when it keeps
    ``conf.py`` elsewhere: ``sphinx-build -c <confdir> ... SOURCEDIR OUTDIR``
    (sphinx-build's ``-c``: "use the given configuration directory instead of the
    source directory"). ``confdir`` is conf.py's folder relative to ``root``, where
    the Makefile is looked for; ``$(VAR)`` is expanded from the Makefile's own
    assignments. Returns the source directory relative to ``root`` when it is an
    existing folder inside ``conf.py``'s folder, else ``None`` (conf.py's folder is the
    source directory). Never raises."""
    base = (root / confdir).resolve() if confdir not in ("", ".") else root
    for tokens in _sphinx_build_commands(root, confdir):
        conf_dir, positional, k = None, [], 1
        while k < len(tokens):
            tok = tokens[k]
            if tok in _VALUE_OPTIONS:
                if tok in ("-c", "--conf-dir") and k + 1 < len(tokens):
                    conf_dir = tokens[k + 1]
                k += 2
                continue
            if not tok.startswith("-") and not tok.startswith("$"):
                positional.append(tok)
            k += 1
        if conf_dir is None or not positional:
            continue
        try:
            conf_path, src_path = (base / conf_dir).resolve(), (base / positional[0]).resolve()
            src_rel = src_path.relative_to(root).as_posix()
        except (OSError, ValueError):
            continue
        if conf_path == base and src_path != base and base in src_path.parents and src_path.is_dir():
            return src_rel
    return None


_HTML_BUILDERS = frozenset({"html", "dirhtml", "singlehtml"})


def makefile_tags(root: Path, confdir: str) -> list[str]:
    """The tags the ``Makefile``'s HTML builds pass to ``sphinx-build`` with ``-t NAME``
    (``--tag``; often through ``SPHINXOPTS ?= -t fulldocs``), for ``.. only::``
    (https://www.sphinx-doc.org/en/master/man/sphinx-build.html#cmdoption-sphinx-build-t).
    A command for another builder (``-b latex``, ``-M latexpdf``) is left out; a tag that
    is not a plain name (``-t $@``) is skipped. Never raises."""
    out: list[str] = []
    for tokens in _sphinx_build_commands(root, confdir):
        builder = next((tokens[i + 1] for i, tok in enumerate(tokens[:-1]) if tok in ("-b", "-M", "--builder")),
                       None)
        if builder and builder not in _HTML_BUILDERS and builder.isidentifier():
            continue
        out += [tokens[i + 1] for i, tok in enumerate(tokens[:-1])
                if tok in ("-t", "--tag") and tokens[i + 1].isidentifier()]
    return list(dict.fromkeys(out))


def rtd_builder(root: Path) -> str:
    """The Sphinx builder Read the Docs runs for the project (``.readthedocs.yaml``'s
    ``sphinx: builder:``, https://docs.readthedocs.io/en/stable/config-file/v2.html#sphinx-builder;
    ``html``, ``dirhtml`` or ``singlehtml``), ``"html"`` when not configured. Never raises."""
    for name in (".readthedocs.yaml", ".readthedocs.yml", "readthedocs.yaml", "readthedocs.yml"):
        try:
            text = (root / name).read_text(encoding="utf-8", errors="replace")[:200_000]
        except OSError:
            continue
        try:
            config = load_yaml_safely(text, unknown_tags="null")
        except FrontMatterError:
            return "html"
        sphinx = config.get("sphinx") if isinstance(config, dict) else None
        builder = sphinx.get("builder") if isinstance(sphinx, dict) else None
        if builder in _HTML_BUILDERS:
            return str(builder)
        return "html"
    return "html"


def _int_value(value: object, default: int) -> int:
    """A conf.py integer setting (``numfig_secnum_depth``), ``default`` when unset or not an integer."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else default


class SphinxSite:
    """A Sphinx project: ``root`` is the ingest root, ``config_file`` the path
    of ``conf.py`` relative to it (``source/conf.py``: the source directory is
    ``source/``). Every ``rel`` is relative to ``root``; files outside the
    source directory are not pages.

    ``classify`` scans the sources for include targets once, lazily, on first
    use (constructors do no I/O).
    """

    def __init__(self, root: Path, config_file: str | None = "conf.py", *, conf: SphinxConf | None = None,
                 generator: str = "sphinx", source_dir: str | None = None) -> None:
        self.generator = generator
        self._root = root.resolve()
        self._config_file = config_file
        confdir = PurePosixPath(config_file).parent.as_posix() if config_file else "."
        self._confdir = "" if confdir in (".", "") else confdir.strip("/") + "/"
        src = source_dir if source_dir is not None else confdir
        self._src = "" if src in (".", "") else src.strip("/") + "/"
        self._conf: SphinxConf | None = conf
        self._config: SiteConfig | None = None
        self._includes: frozenset[str] | None = None
        self._excludes: list[str] | None = None
        self._xrefs: XrefIndex | None = None
        self._gallery_pairs: tuple[tuple[str, str], ...] | None = None
        self._additional: dict[str, str] | None = None
        self._image_names: dict[str, list[str]] | None = None
        self._project_dirs: tuple[str, ...] | None = None
        self._label_sources: dict[str, str] | None = None
        self._gallery_ignore = re.compile(r"__init__\.py")
        self._gallery_bytes_left = 64_000_000
        self.load_warnings: list[str] = []
        self._figure_pieces: tuple[tuple[str, str], ...] | None = None
        self._named_notebooks: frozenset[str] | None = None

    @classmethod
    def load(cls, root: Path, config_file: str | None) -> SphinxSite:
        """Registry factory: ``config_file`` is ``conf.py``'s path relative to ``root``; the
        source directory is conf.py's folder unless that folder's Makefile builds another
        one with ``sphinx-build -c`` (:func:`makefile_source_dir`)."""
        confdir = PurePosixPath(config_file).parent.as_posix() if config_file else "."
        found = makefile_source_dir(root.resolve(), confdir)
        return cls(root, config_file, source_dir=found)

    @property
    def first_heading_titles_page(self) -> bool:
        """Sphinx titles a page by its first section, whatever its Markdown level (a MyST
        page starting at ``##`` is titled by it; front matter ``title`` is not shown), so
        the page builder puts no title above that heading."""
        return True

    # ---------------------------------------------------------------- config
    @property
    def srcdir(self) -> str:
        """The source directory relative to the root (``""`` for the root itself)."""
        return self._src.rstrip("/")

    @property
    def conf(self) -> SphinxConf:
        if self._conf is None:
            conf_path = self._root / (self._config_file or "conf.py")
            if conf_path.is_file() and inside_root(conf_path, self._root).problem:
                self.load_warnings.append(f"{self._config_file}: a link out of the corpus root; not read, "
                                          "Sphinx defaults used")
                conf = SphinxConf()
            else:
                conf = (read_conf(conf_path, self.load_warnings, root=self._root) if conf_path.is_file()
                        else SphinxConf())
            # tags of the build: the Makefile's "-t NAME" and the builder (Read the Docs' sphinx.builder)
            builder = rtd_builder(self._root)
            build_tags = [*makefile_tags(self._root, self._confdir.rstrip("/") or "."),
                          *((builder, f"builder_{builder}") if builder != "html" else ())]
            self._conf = replace(conf, tags=tuple(dict.fromkeys((*conf.tags, *build_tags))))
        return self._conf

    @property
    def config(self) -> SiteConfig:
        if self._config is None:
            conf = self.conf
            self._config = SiteConfig(
                generator=self.generator,
                root=self._root,
                config_file=self._config_file,
                content_dirs=(self.srcdir or ".",),
                # html_static_path and html_extra_path are relative to the configuration directory
                static_dirs=tuple(self._confdir + d.strip("/") for d in conf.html_static_path + conf.html_extra_path),
                exclude=tuple(dict.fromkeys(self._exclude_patterns())),  # each pattern once in the summary
                settings={"root_doc": conf.root_doc, "language": conf.language or "",
                          "source_suffix": " ".join(sorted(conf.source_suffix))},
                notes=self._gallery_notes(),
            )
        return self._config

    def _exclude_patterns(self) -> tuple[str, ...]:
        conf = self.conf
        own = [p.strip("/") for p in (*conf.templates_path, *conf.html_static_path, *conf.html_extra_path)]
        return (*conf.exclude_patterns, *own, *(f"{p}/**" for p in own), *_DEFAULT_EXCLUDES)

    def _toc_files(self) -> tuple[str, ...]:
        """The table-of-contents files the build reads (relative to the root): with
        sphinx-external-toc, ``external_toc_path`` (default ``_toc.yml``, relative to
        conf.py's folder)."""
        if "sphinx_external_toc" not in self.conf.extensions:
            return ()
        path = self.conf.values.get("external_toc_path")
        return (posixpath.normpath(self._confdir + (path if isinstance(path, str) and path else "_toc.yml")),)

    def _included(self, src_rel: str) -> bool:
        """``src_rel`` matches conf.py's ``include_patterns`` (Sphinx 5.1: the sources are the
        files matching them, less ``exclude_patterns``; default ``["**"]``, every file)."""
        patterns = _strs(self.conf.values.get("include_patterns"))
        if not patterns or "**" in patterns:
            return True
        return any(glob_match(src_rel, p, SPHINX) for p in sphinx_glob(patterns))

    def _in_static_dir(self, rel: str) -> bool:
        """``rel`` (relative to the site root) is under an ``html_static_path`` or
        ``html_extra_path`` folder (relative to the configuration directory)."""
        conf = self.conf
        return any(contained(rel, self._confdir + d.strip("/"))
                   for d in (*conf.html_static_path, *conf.html_extra_path) if d.strip("/") not in ("", "."))

    def _in_src(self, rel: str) -> str | None:
        """``rel`` relative to the source directory (its project's, with sphinx-multiproject),
        or ``None`` outside it."""
        src = self._src_of(rel)
        if src is None:
            return None
        if not src:
            return rel
        return rel[len(src):] if rel.startswith(src) else None

    def _projects(self) -> tuple[str, ...]:
        """The source directories of sphinx-multiproject's projects (``multiproject_projects``,
        https://sphinx-multiproject.readthedocs.io/page/configuration.html): each project is
        built from the folder its ``path`` names (default: its key), relative to conf.py's
        folder, which replaces Sphinx's source directory (``app.srcdir``) for that build;
        Read the Docs builds each project as a site of its own, so every project's folder is
        read, each as its own source directory. Folders outside the root, absolute paths and
        a ``path`` that is no string are left out; ``()`` without the extension."""
        if self._project_dirs is None:
            found: list[str] = []
            projects = self.conf.values.get("multiproject_projects")
            if "multiproject" in self.conf.extensions and isinstance(projects, dict):
                for key, opts in list(projects.items())[:100]:
                    path = opts.get("path", key) if isinstance(opts, dict) else key
                    if not isinstance(path, str) or not path.strip() or path.startswith(("/", "\\")) \
                            or PurePosixPath(path).is_absolute() or ":" in path:
                        continue
                    rel = join_rel((self._confdir or "") + path.strip().strip("/"), ".")
                    if rel in ("", "."):  # conf.py's own folder
                        found.append(self._confdir)
                        continue
                    if rel.startswith("..") or checked_rel(self._root, rel).rel_path is None:
                        continue
                    found.append(rel.rstrip("/") + "/")
            # the longest folder first: a project nested in another's folder is its own
            self._project_dirs = tuple(sorted(dict.fromkeys(found), key=len, reverse=True))
        return self._project_dirs

    def _src_of(self, rel: str) -> str | None:
        """The source directory ``rel`` is built from (``""``: the root): with
        sphinx-multiproject the project folder holding it (``None`` in none of them),
        else the source directory."""
        projects = self._projects()
        if not projects:
            return self._src
        return next((p for p in projects if rel.startswith(p)), None)

    def _excluded(self, src_rel: str) -> bool:
        if self._excludes is None:
            self._excludes = sphinx_glob(self._exclude_patterns())
        # a pattern that matches a folder excludes everything below it (Sphinx prunes the walk)
        return any(glob_match(src_rel, p, self._glob_syntax, or_below=True) for p in self._excludes)

    @property
    def _glob_syntax(self) -> GlobSyntax:
        """How the site's globs read (``sphinx.util.matching``: ``**/x`` needs a folder)."""
        return SPHINX

    # --------------------------------------------------------------- includes
    def include_targets(self) -> frozenset[str]:
        """Files (posix, relative to the root) pulled in by an include directive
        anywhere in the sources; computed once."""
        if self._includes is None:
            files = os_walk_files(self._root, self._src or ".", self.conf.source_suffix, skip_dirs=(),
                                  skip_hidden_files=True)
            self._includes = scan_include_targets(
                self._root, files, _INCLUDE_RE, lambda target, rel: self.resolve_include(target, page_rel=rel),
                from_document=self.includes_from_document,
                scope=lambda rel: posixpath.dirname(self._built_rel(rel)))  # resolve_asset reads only its folder
            self._includes |= self._prolog_includes()
        return self._includes

    def _prolog_includes(self) -> frozenset[str]:
        """Files ``rst_prolog``/``rst_epilog`` include (``.. include:: /substitutions.rst``):
        Sphinx adds them to every reST document, so they are content of those pages, never
        pages of their own. A leading ``/`` is the source directory; a relative path is read
        from the source directory (where the top-level pages are)."""
        found: set[str] = set()
        for m in _INCLUDE_RE.finditer(f"{self.conf.rst_prolog}\n{self.conf.rst_epilog}"):
            target = (m.group(1) or m.group(2) or "").strip()
            if not target or target.startswith("<"):
                continue
            for src in self._projects() or (self._src,):
                res = self.resolve_include(target, page_rel=f"{src}index.rst")
                if res.rel_path:
                    found.add(res.rel_path)
        return frozenset(found)

    # -------------------------------------------------------- cross-references
    def docname(self, rel: str) -> str:
        """The Sphinx document name of ``rel`` (relative to the source directory, no suffix)."""
        src_rel = self._in_src(rel) or rel
        for sfx in sorted(self.conf.source_suffix, key=len, reverse=True):
            if src_rel.endswith(sfx):
                return src_rel[: -len(sfx)]
        return PurePosixPath(src_rel).with_suffix("").as_posix()

    def xrefs(self) -> XrefIndex:
        """Labels and document titles of every source file (:mod:`murar.ingest.sites._xrefs`),
        for ``:ref:``/``:numref:``/``:doc:`` text; scanned once, on first use. Figures are
        numbered when conf.py sets ``numfig`` (Sphinx's default: off), in toctree order."""
        if self._xrefs is None:
            files = os_walk_files(self._root, self._src or ".", self.conf.source_suffix, skip_dirs=(),
                                  skip_hidden_files=True)
            pairs = [(rel, self.docname(rel)) for rel in files
                     if not self._excluded(self._in_src(rel) or rel)]
            # an excluded source file that a page includes (QGIS's generated expression help, kept
            # out of the build and included piecewise) is read as part of that page: its labels are
            # defined there, so a :ref: to one shows its title
            listed = {rel for rel, _ in pairs}
            pairs += [(rel, self.docname(rel)) for rel in sorted(self.include_targets())
                      if rel not in listed and posixpath.splitext(rel)[1] in self.conf.source_suffix]
            values = self.conf.values
            fmt = values.get("numfig_format")
            self._xrefs = scan_xrefs(self._root, pairs, order=self._doc_order(dict(pairs)),
                                     numfig=bool(values.get("numfig", self._numfig_default)),
                                     numfig_format=fmt if isinstance(fmt, dict) else None,
                                     per_page_numbers=self._per_page_numbers,
                                     math_numfig=bool(values.get("math_numfig", True)),
                                     eqref_format=values.get("math_eqref_format") if isinstance(
                                         values.get("math_eqref_format"), str) else None,
                                     secnum_depth=_int_value(values.get("numfig_secnum_depth"), 1),
                                     heading_depths=frozenset(d for d in values.get("mystmd_heading_depths") or ()
                                                              if isinstance(d, int)),
                                     mystmd_kinds=frozenset(values.get("mystmd_numbered_kinds",
                                                                       ("figure", "table", "equation"))),
                                     inserted_tocs=self._inserted_toctrees(),
                                     continuous_numbers="sphinx_multitoc_numbering" in (
                                         *self.conf.extensions, *_strs(values.get("extensions"))),
                                     substitutions=self._substitutions(),
                                     section_labels=self._section_labels())
            self._gallery_xrefs(self._xrefs)
        return self._xrefs

    def _gallery_xrefs(self, index: XrefIndex) -> None:
        """The labels and titles of the pages sphinx-gallery writes, for ``:ref:`` and
        ``:doc:``: ``sphx_glr_<gallery path>_<script>.py`` for an example (gen_rst
        EXAMPLE_HEADER, the path relative to the source directory with '/' as '_') and
        ``sphx_glr_<gallery path>`` for a gallery index, titled by the example's title and
        the header's first title; docnames are the generated pages' (``auto_examples/x``).
        At most 2,000 examples."""
        left = 2_000
        for examples, gallery in self._galleries():
            folders = [examples]
            try:
                folders += sorted(f"{examples}/{p.name}" for p in (self._root / examples).iterdir() if p.is_dir())
            except OSError:
                continue
            for folder in folders[:200]:
                header = self._gallery_header(folder)
                if header is None and folder != examples:
                    continue
                sub = folder[len(examples):]
                doc_dir = (self._in_src(gallery + sub) or (gallery + sub)).strip("/")
                if header is not None and (text := read_capped(self._root, header)) is not None:
                    title = rst_title(text)
                    index.doc_titles.setdefault(f"{doc_dir}/index", title)
                    index.labels.setdefault(f"sphx_glr_{doc_dir.replace('/', '_')}".lower(),
                                            XrefTarget(title=title, kind="section", docname=f"{doc_dir}/index"))
                try:
                    names = sorted(p.name for p in (self._root / folder).iterdir() if p.suffix == ".py")
                except OSError:
                    continue
                for name in names:
                    rel = f"{folder}/{name}"
                    fc = self._gallery_class(rel)
                    if left <= 0 or fc is None or fc.markup != "gallery":
                        continue
                    left -= 1
                    source = self._gallery_source(rel)
                    title = example_title(source) if source is not None else ""
                    docname = f"{doc_dir}/{name[:-3]}"
                    index.doc_titles.setdefault(docname, title)
                    index.labels.setdefault(f"sphx_glr_{doc_dir.replace('/', '_')}_{name}".lower(),
                                            XrefTarget(title=title, kind="section", docname=docname))

    def label_sources(self) -> dict[str, str]:
        """Where each MyST label is defined: lower-cased label -> the source file (relative
        to the root) holding its ``(label)=`` target or a directive's ``label:``/``:label:``/
        ``:name:`` option, the first in file order; for mystmd's ``{embed}``. Scanned once, on
        first use (at most 5,000 files of 2 MB)."""
        if self._label_sources is None:
            from murar.ingest.markup.myst import label_definitions
            from murar.ingest.markup.notebook import notebook_labels

            found: dict[str, str] = {}
            files = os_walk_files(self._root, self._src or ".", self.conf.source_suffix, skip_dirs=(),
                                  skip_hidden_files=True)
            for rel in sorted(files)[:5_000]:
                notebook = rel.lower().endswith(".ipynb")
                if (self.markup_for(rel) != "myst" and not notebook) or self._excluded(self._in_src(rel) or rel):
                    continue
                text = read_capped(self._root, rel)
                # a notebook's labelled code cells (mystmd "#| label:"); its stored outputs can be
                # large, only its first 2 MB are read
                labels = notebook_labels(text or "") if notebook else label_definitions(text or "")
                for label in labels:
                    found.setdefault(label.lower(), rel)
            self._label_sources = found
        return self._label_sources

    def _section_labels(self) -> tuple[bool, int | None] | None:
        """``(autosectionlabel_prefix_document, autosectionlabel_maxdepth)`` when conf.py
        loads sphinx.ext.autosectionlabel (every section title is a ``:ref:`` label,
        https://www.sphinx-doc.org/en/master/usage/extensions/autosectionlabel.html), else None."""
        values = self.conf.values
        if "sphinx.ext.autosectionlabel" not in (*self.conf.extensions, *_strs(values.get("extensions"))):
            return None
        depth = values.get("autosectionlabel_maxdepth")
        return (values.get("autosectionlabel_prefix_document") is True,
                depth if isinstance(depth, int) and not isinstance(depth, bool) and depth > 0 else None)

    def _substitutions(self) -> dict[str, str]:
        """Substitutions every rST page has: Sphinx's ``|version|``/``|release|`` (when
        conf.py sets them) and those ``rst_prolog``/``rst_epilog`` define."""
        values = self.conf.values
        subs = {k: str(values[k]) for k in ("version", "release") if isinstance(values.get(k), str)}
        subs.update(rst_substitutions(f"{self.conf.rst_prolog}\n{self.conf.rst_epilog}"))
        return subs

    def _inserted_toctrees(self) -> dict[str, list[tuple[tuple[str, ...], int]]]:
        """Toctrees an extension inserts at the end of documents (docname -> ``(entries,
        numbered depth)`` per toctree); none for a plain Sphinx project."""
        return {}

    _numfig_default = False  # Sphinx's numfig default
    #: include/literalinclude paths are relative to the document being built, also in included files
    includes_from_document = True
    # where skip reasons point: the setting that decided (a Jupyter Book names its own config)
    _source_dir_name = "Sphinx source directory"
    _exclude_source = "conf.py exclude_patterns or Sphinx defaults"
    _suffix_source = "not in conf.py source_suffix"
    _per_page_numbers = False

    def _doc_order(self, files: dict[str, str]) -> list[str]:
        """Docnames in toctree order from ``root_doc`` (see :func:`toctree_order`)."""
        by_doc = {doc: rel for rel, doc in files.items()}

        def read(doc: str) -> str | None:
            rel = by_doc.get(doc)
            return None if rel is None else read_capped(self._root, rel)

        return toctree_order(read, self.conf.root_doc)

    def toctree_notebooks(self) -> frozenset[str]:
        """Notebooks (posix paths relative to the root) that a ``toctree`` names while no
        ``source_suffix`` reads them: the entry ``guide/intro`` has no ``guide/intro.rst``
        (nor any other source suffix) but ``guide/intro.ipynb`` is there. Such a site
        turns its notebooks into documents before ``sphinx-build`` runs (a build script
        calling ``jupyter nbconvert --to rst``, a Makefile rule); the built page is the
        notebook's cells, so the notebook is read as that page. Empty when a notebook
        suffix is configured (nbsphinx, myst-nb: every notebook is already a source),
        and for notebooks under ``exclude_patterns``. Computed once; never raises."""
        if self._named_notebooks is None:
            found: set[str] = set()
            suffixes = self.conf.source_suffix
            if ".ipynb" not in suffixes:
                base = self._src or "."
                notebooks = set(os_walk_files(self._root, base, (".ipynb",), skip_dirs=(), skip_hidden_files=True))
                if notebooks:
                    for rel in os_walk_files(self._root, base, suffixes, skip_dirs=(), skip_hidden_files=True):
                        src_rel = self._in_src(rel)
                        if src_rel is None or self._excluded(src_rel):
                            continue
                        text = read_capped(self._root, rel)
                        if text is None or "toctree" not in text:
                            continue
                        src = self._src_of(rel) or ""
                        for doc in toctree_docnames(text, self.docname(rel)):
                            candidate = src + doc + ".ipynb"
                            if candidate in notebooks and not self._excluded(doc + ".ipynb") and not any(
                                    (self._root / (src + doc + sfx)).is_file() for sfx in suffixes):
                                found.add(candidate)
            self._named_notebooks = frozenset(found)
        return self._named_notebooks

    # ---------------------------------------------------------------- protocol
    def _docname_winner(self, rel: str) -> str:
        """The file Sphinx builds for the document ``rel`` belongs to: when several
        source files share a docname (``lesson.ipynb`` and its jupytext twin
        ``lesson.md``), Sphinx warns "multiple files found for the document" and
        keeps the first of them in sorted order; ``rel`` itself otherwise."""
        name = PurePosixPath(rel).name
        stem = next((name[: -len(sfx)] for sfx in sorted(self.conf.source_suffix, key=len, reverse=True)
                     if name.endswith(sfx)), None)
        if not stem:
            return rel
        folder = (self._root / rel).parent
        candidates = [rel]
        for sfx in self.conf.source_suffix:
            other = PurePosixPath(rel).with_name(stem + sfx).as_posix()
            if other != rel and (folder / (stem + sfx)).is_file() and not self._excluded(self._in_src(other) or other):
                candidates.append(other)
        return min(candidates)

    def notebook_renderer(self) -> str:
        """The extension that renders the notebooks: ``"nbsphinx"`` when conf.py loads
        nbsphinx and not myst-nb (their raw cells differ), else ``"myst-nb"``."""
        exts = (*self.conf.extensions, *_strs(self.conf.values.get("extensions")))
        return "nbsphinx" if "nbsphinx" in exts and "myst_nb" not in exts else "myst-nb"

    def markup_for(self, rel: str) -> str | None:
        """The markup that parses ``rel`` by its suffix, or ``None``."""
        name = PurePosixPath(rel).name
        for suffix, parser in sorted(self.conf.source_suffix.items(), key=lambda kv: -len(kv[0])):
            if name.endswith(suffix):
                p = parser.lower()
                if p.startswith("jupytext:"):  # a custom notebook format (read_conf)
                    fmt = p[len("jupytext:"):]
                    if "percent" in fmt:
                        return "percent"
                    return "myst" if fmt.split(":")[0] in ("md", "rmd", "markdown", "myst") else None
                if p == "nbsphinx-link":
                    return "nblink"
                if suffix == ".ipynb" or p.endswith("nb") or "notebook" in p:
                    return "notebook"
                if "markdown" in p or "myst" in p or suffix == ".md":
                    return "myst"
                return "rst"
        return None

    # ------------------------------------------------------------ sphinx-gallery
    def _galleries(self) -> tuple[tuple[str, str], ...]:
        """``(examples folder, gallery folder)`` pairs of sphinx-gallery, relative to the
        root, when conf.py loads ``sphinx_gallery.gen_gallery``: ``sphinx_gallery_conf``'s
        ``examples_dirs`` and ``gallery_dirs`` (a string or a list each, paired in order;
        defaults ``../examples`` and ``auto_examples``), relative to the source directory
        (gen_gallery.generate_gallery_rst). An examples folder outside the root is left out."""
        if self._gallery_pairs is None:
            values = self.conf.values
            pairs: list[tuple[str, str]] = []
            if "sphinx_gallery.gen_gallery" in (*self.conf.extensions, *_strs(values.get("extensions"))):
                sg = values.get("sphinx_gallery_conf")
                sg = sg if isinstance(sg, dict) else {}
                examples = _strs(sg.get("examples_dirs", "../examples"))
                galleries = _strs(sg.get("gallery_dirs", "auto_examples"))
                base = self.srcdir or "."
                for ex, gal in zip(examples, galleries, strict=False):
                    ex_rel, gal_rel = join_rel(base, ex), join_rel(base, gal)
                    if not ex_rel.startswith("..") and ex_rel != "." and not gal_rel.startswith(".."):
                        pairs.append((ex_rel, gal_rel))
                pattern = sg.get("ignore_pattern", r"__init__\.py")
                if isinstance(pattern, str) and regex_problem(pattern) is None:
                    self._gallery_ignore = re.compile(pattern)
            self._gallery_pairs = tuple(pairs)
        return self._gallery_pairs

    def _gallery_notes(self) -> tuple[str, ...]:
        """A note for each sphinx-gallery examples folder outside the ingest root: its
        example pages cannot be read (ingest the folder that holds both)."""
        values = self.conf.values
        if "sphinx_gallery.gen_gallery" not in (*self.conf.extensions, *_strs(values.get("extensions"))):
            return ()
        sg = values.get("sphinx_gallery_conf")
        sg = sg if isinstance(sg, dict) else {}
        base = self.srcdir or "."
        pattern = sg.get("ignore_pattern")
        problem = regex_problem(pattern) if isinstance(pattern, str) else None
        refused = (f"sphinx_gallery_conf ignore_pattern {str(pattern)[:100]!r} {problem}: the default "
                   r"'__init__\.py' is used")
        return tuple(f"sphinx-gallery examples folder {ex!r} is outside the corpus root: its gallery pages are "
                     "not read (ingest the folder that holds it and the docs)"
                     for ex in _strs(sg.get("examples_dirs", "../examples"))[:20]
                     if join_rel(base, ex).startswith("..")) + ((refused,) if problem else ())

    def _gallery_source(self, rel: str) -> str | None:
        """The first 256 KB of an example script, for its title and size (the docstring is at
        the top); None once 64 MB have been read for gallery listings, or when unreadable or
        its real path (a symlink) is outside the root."""
        if self._gallery_bytes_left <= 0 or checked_rel(self._root, rel).rel_path is None:
            return None
        try:
            with (self._root / rel).open("rb") as fh:
                data = fh.read(262_144)
        except OSError:
            return None
        self._gallery_bytes_left -= len(data)
        return data.decode("utf-8", errors="replace")

    def _gallery_header(self, folder: str) -> str | None:
        """The gallery header of an examples folder (gen_rst._get_gallery_header): the first
        of GALLERY_HEADER, README, readme with ``.txt`` then each source suffix that exists."""
        for ext in (".txt", *sorted(self.conf.source_suffix)):
            for name in ("GALLERY_HEADER", "README", "readme"):
                rel = f"{folder}/{name}{ext}"
                if (self._root / rel).is_file() and checked_rel(self._root, rel).rel_path is not None:
                    return rel
        return None

    def _gallery_class(self, rel: str) -> FileClass | None:
        """sphinx-gallery's part of the sources: an example script of an examples folder
        or of a subfolder one level below it that has a gallery header is a page
        (markup ``gallery``, the reST page the extension writes for it), the header a page
        of its own (the gallery's index text); sources under the gallery folder are the
        extension's output from an earlier build, rewritten from the examples. None for
        other files."""
        for examples, gallery in self._galleries():
            if contained(rel, gallery) and self.markup_for(rel) is not None:
                return FileClass(role=FileRole.EXCLUDED,
                                 reason=f"written by sphinx-gallery from {examples}/ (read there)")
            if not contained(rel, examples):
                continue
            parts = rel[len(examples) + 1:].split("/")
            if len(parts) > 2:
                return None
            folder = examples if len(parts) == 1 else f"{examples}/{parts[0]}"
            header = self._gallery_header(folder)
            if len(parts) == 2 and header is None:
                return None  # not a subsection of the gallery
            if rel == header:
                return FileClass(role=FileRole.PAGE, markup=self.markup_for(rel) or "rst")
            name = parts[-1]
            if name.endswith(".py") and self._gallery_ignore.search(name) is None:
                return FileClass(role=FileRole.PAGE, markup="gallery")
            return None
        return None

    def _gallery_thumbnails(self, header: str) -> str:
        """The thumbnails sphinx-gallery puts under a gallery header on its index page,
        as reST (one bullet per example title; gen_rst.generate_dir_rst), in the order of
        ``within_subsection_order``: file name (``FileNameSortKey``), title
        (``ExampleTitleSortKey``), file size (``FileSizeSortKey``) or, by default, the
        characters of code (``NumberOfCodeLinesSortKey``). At most 500 examples a folder."""
        folder = PurePosixPath(header).parent.as_posix()
        try:
            names = sorted(p.name for p in (self._root / folder).iterdir() if p.suffix == ".py" and p.is_file())
        except OSError:
            return ""
        order = self.conf.values.get("sphinx_gallery_conf")
        order = order.get("within_subsection_order") if isinstance(order, dict) else None
        order = order.rsplit(".", 1)[-1] if isinstance(order, str) else "NumberOfCodeLinesSortKey"
        entries: list[tuple[object, str, str]] = []
        for name in names[:500]:
            rel = f"{folder}/{name}"
            fc = self._gallery_class(rel)
            source = self._gallery_source(rel) if fc is not None and fc.markup == "gallery" else None
            if source is None:
                continue
            title = example_title(source)
            key: object = {"FileNameSortKey": name, "ExampleTitleSortKey": title,
                           "FileSizeSortKey": len(source.encode())}.get(order, None)
            entries.append((code_size(source) if key is None else key, name, title))
        entries.sort(key=lambda e: (e[0], e[1]))
        return thumbnail_list([title for _, _, title in entries])

    # ------------------------------------------------------ html_additional_pages
    def _additional_pages(self) -> dict[str, str]:
        """``html_additional_pages`` ("Options for HTML output": document name -> template
        name, "additional templates that should be rendered to HTML pages"): the template
        file each one is rendered from, relative to the root, mapped to its document name.
        A template is looked for in the ``templates_path`` folders in order (relative to
        conf.py's folder; the theme's own templates are not in the corpus). At most 200.
        A template that is a redirect stub (``<meta http-equiv="refresh">`` in its first
        4 KB) maps to ``""``: no page."""
        if self._additional is None:
            found: dict[str, str] = {}
            pages = self.conf.values.get("html_additional_pages")
            # the templates_path folders that exist, at most 50 (each page was looked for in every
            # entry: 5,000 entries x 200 pages took 40 s before the first file was classified)
            folders = [f for f in self.conf.templates_path if self._additional_folder(f)][:50] if pages else []
            for docname, template in list(pages.items())[:200] if isinstance(pages, dict) else ():
                name = str(docname).strip("/") if isinstance(docname, str) else ""
                if not name or not isinstance(template, str) or ".." in name.split("/"):
                    continue
                for folder in folders:
                    rel = checked_rel(self._root, join_rel(self._confdir + folder.strip("/"), template)).rel_path
                    if rel is not None and rel not in found and (self._root / rel).is_file():
                        found[rel] = name
                        break
            for rel in list(found):  # a redirect stub (<meta http-equiv="refresh">) is no page to read
                try:
                    with (self._root / rel).open("rb") as fh:
                        head = fh.read(4096).decode("utf-8", errors="replace")
                except OSError:
                    continue
                if _REFRESH.search(head):
                    found[rel] = ""
            self._additional = found
        return self._additional

    def _additional_folder(self, folder: str) -> bool:
        """Whether the ``templates_path`` entry ``folder`` is a folder inside the root."""
        rel = checked_rel(self._root, join_rel(self._confdir + folder.strip("/"), ".")).rel_path
        return rel is not None and (self._root / rel).is_dir()

    def _additional_render(self, text: str) -> str:
        """An additional page's template as Sphinx's HTML builder renders it (handle_page with
        the global context): the page's own HTML; the theme layout it extends is not in the
        corpus, so its blocks are the page, the layout's main content (a ``<main>`` around
        them, unless the template writes a whole document). Names are conf.py's literal
        ``project``, ``version``, ``release``, ``copyright`` and ``html_context`` entries."""
        values = self.conf.values
        context: dict[str, Any] = {k: values[k] for k in ("project", "version", "release", "copyright")
                                   if isinstance(values.get(k), str)}
        extra = values.get("html_context")
        if isinstance(extra, dict):
            context.update({k: v for k, v in extra.items() if isinstance(k, str)})
        html = _jinja.render(text, context)
        if re.search(r"<(?:html|body)\b", html[:100_000], re.IGNORECASE):
            return html
        return f"<main>\n{html}\n</main>\n"

    def classify(self, rel: str) -> FileClass:
        suffix = PurePosixPath(rel).suffix.lower()
        if (gallery := self._gallery_class(rel)) is not None:
            return gallery
        if (docname := self._additional_pages().get(rel)) is not None:
            if not docname:
                return FileClass(role=FileRole.EXCLUDED, reason="html_additional_pages redirect stub")
            return FileClass(role=FileRole.PAGE, markup="html")
        src_rel = self._in_src(rel)
        markup = self.markup_for(rel)
        if src_rel is None:
            if suffix in _ASSET_EXTS:
                return FileClass(role=FileRole.ASSET)
            if rel in self.include_targets():  # docs/index.md: ```{include} ../README.md
                return FileClass(role=FileRole.INCLUDE, markup=markup or "rst")
            return FileClass(role=FileRole.EXCLUDED, reason=f"outside the {self._source_dir_name} {self.srcdir}/")
        if markup is not None and rel in self.include_targets():
            return FileClass(role=FileRole.INCLUDE, markup=markup)
        if rel in self._toc_files():
            return FileClass(role=FileRole.EXCLUDED, reason="table of contents (read for its rules)")
        if self._excluded(src_rel):
            if suffix in _ASSET_EXTS and self._in_static_dir(rel):
                # html_static_path/html_extra_path files are never source documents, but they are
                # copied to the output: a page's ``.. image:: /_static/shot.png`` shows one
                return FileClass(role=FileRole.ASSET, reason="html_static_path/html_extra_path file")
            return FileClass(role=FileRole.EXCLUDED, reason=f"excluded by {self._exclude_source}")
        if markup is not None and not self._included(src_rel):
            return FileClass(role=FileRole.EXCLUDED, reason="not matched by conf.py include_patterns")
        if markup is None and suffix == ".ipynb" and rel in self.toctree_notebooks():
            return FileClass(role=FileRole.PAGE, markup="notebook")
        if markup is not None:
            winner = self._docname_winner(rel)
            if winner != rel:
                return FileClass(role=FileRole.EXCLUDED,
                                 reason=f"another file of the same document; Sphinx builds {winner}")
            return FileClass(role=FileRole.PAGE, markup=markup)
        if rel in self.include_targets():
            return FileClass(role=FileRole.INCLUDE, markup="rst")
        if suffix in _ASSET_EXTS:
            return FileClass(role=FileRole.ASSET)
        fc = asset_or_unknown(rel)
        if fc.role is FileRole.UNKNOWN:
            return FileClass(role=FileRole.UNKNOWN, reason=f"{fc.reason} ({self._suffix_source})")
        return fc

    def _built_rel(self, rel: str) -> str:
        """Where Sphinx reads ``rel`` from: a sphinx-gallery example or header is built as the
        page sphinx-gallery writes under its gallery folder (``examples/sub/plot_x.py`` ->
        ``<gallery>/sub/plot_x.rst``, a header -> ``<gallery>/sub/index.rst``), so the links,
        images and includes written in it resolve from there; ``rel`` itself otherwise."""
        docname = self._additional_pages().get(rel)
        if docname:
            return join_rel(self._src or ".", f"{docname}.html")
        fc = self._gallery_class(rel) if self._galleries() else None
        if fc is None or fc.role is not FileRole.PAGE:
            return rel
        for examples, gallery in self._galleries():
            if contained(rel, examples):
                inner = PurePosixPath(rel[len(examples) + 1:])
                name = f"{inner.stem}.rst" if fc.markup == "gallery" else "index.rst"
                return join_rel(gallery, (inner.parent / name).as_posix())
        return rel

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        page_rel = self._built_rel(page_rel)
        link = link.strip()
        localized = self._language_figure(link, page_rel)
        if localized is not None:
            return localized
        return self._resolve_built(link, page_rel)

    def _resolve_built(self, link: str, page_rel: str) -> ResolvedLink:
        if link.startswith("/") and not link.startswith("//"):
            # Sphinx: a leading "/" is the source directory
            src = self._src_of(page_rel)
            return resolve_link(link.lstrip("/"), page_rel=(self._src if src is None else src) + "index",
                                root=self._root)
        res = resolve_link(link, page_rel=page_rel, root=self._root)
        if res.rel_path is None or (self._root / res.rel_path).exists():
            return res
        return self._copied_file(link, page_rel) or res

    def _language_figure(self, link: str, page_rel: str) -> ResolvedLink | None:
        """The language-specific picture Sphinx shows instead of an image's file: the
        image path formatted with ``figure_language_filename`` (default
        ``{root}.{language}{ext}``: ``img/a.png`` -> ``img/a.de.png``; also ``{path}``,
        ``{basename}``, ``{docpath}``), used when that file exists
        (``sphinx.util.i18n.search_image_for_language``, applied to every image node;
        ``language`` ``None`` is ``"en"`` since Sphinx 5). Only a local link to a
        picture file (by its suffix); ``None`` otherwise or when no such file exists."""
        if not link or is_remote(link) or link.startswith("//") or any(c in link for c in "?#*"):
            return None
        root, ext = posixpath.splitext(link)
        if ext.lower() not in _IMAGE_EXTS:
            return None
        pieces = self._figure_format()
        if not pieces:
            return None
        inner = self._in_src(page_rel) or ""
        dirname, docpath = posixpath.dirname(root), posixpath.dirname(inner)
        values = {"root": root, "ext": ext, "path": dirname and dirname + "/", "basename": posixpath.basename(root),
                  "docpath": docpath and docpath + "/", "language": self.conf.language or "en"}
        if sum(len(literal) + len(values[name]) if name else len(literal) for literal, name in pieces) \
                > _MAX_FIGURE_PATH:
            return None
        translated = "".join(literal + (values[name] if name else "") for literal, name in pieces)
        if translated == link:
            return None
        res = self._resolve_built(translated, page_rel)
        return res if res.rel_path is not None and (self._root / res.rel_path).is_file() else None

    def _figure_format(self) -> tuple[tuple[str, str], ...]:
        """``figure_language_filename`` as ``(literal, field)`` pieces (``field`` ``""`` after
        the last), read once. Only the fields Sphinx documents (:data:`_FIGURE_FIELDS`), with no
        format spec or conversion: a spec such as ``{root:>999999999}`` padded each image link
        to a gigabyte; such a format gives Sphinx's default ``{root}.{language}{ext}`` and a
        warning. A field Sphinx refuses too (``{nokey}``, ``{0}``, an unmatched brace) gives
        ``()`` (no language figure) and a warning; so does a value that is not a string."""
        if self._figure_pieces is None:
            fmt = self.conf.values.get("figure_language_filename", _DEFAULT_FIGURE_FORMAT)
            pieces = _figure_pieces(fmt) if isinstance(fmt, str) else None
            if pieces is None:
                self.load_warnings.append(f"{self._config_file or 'conf.py'}: figure_language_filename "
                                          f"{str(fmt)[:80]!r} is not a format Sphinx reads; no language figures")
                pieces = ()
            elif pieces == "default":
                self.load_warnings.append(f"{self._config_file or 'conf.py'}: figure_language_filename "
                                          f"{fmt[:80]!r} has a format spec or conversion; "
                                          f"{_DEFAULT_FIGURE_FORMAT!r} used")
                pieces = _figure_pieces(_DEFAULT_FIGURE_FORMAT)
            assert not isinstance(pieces, str) and pieces is not None
            self._figure_pieces = pieces
        return self._figure_pieces

    def _copied_file(self, link: str, page_rel: str) -> ResolvedLink | None:
        """The file a relative link that names no source file reaches in the built site
        (a raw-HTML ``<img src="../_static/logo.png">``, which Sphinx writes untouched):
        the HTML builder writes page ``a/b.rst`` as ``a/b.html``, so the browser resolves
        the link from the page's folder; a path under ``_static/`` is a file of the
        ``html_static_path`` folders (copied there in order, the last one winning), any
        other path a file of the ``html_extra_path`` folders (copied to the output root)
        (Sphinx "Options for HTML output"); a file of ``_images/`` is a picture of the
        source directory that the HTML builder copied there under its own name (its
        ``imagedir``): the one picture file of that name there (two of one name get
        numbered copies, so neither is sure). ``None`` when no such file exists."""
        from urllib.parse import unquote

        inner = self._in_src(page_rel)
        path = unquote(link.split("#", 1)[0].split("?", 1)[0]).strip()
        if inner is None or not path or is_remote(path):
            return None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(inner), path))
        if target.startswith(".."):
            return None
        conf = self.conf
        if target.startswith("_images/") and "/" not in target[len("_images/"):]:
            same = self._source_pictures().get(target[len("_images/"):], [])
            return checked_rel(self._root, same[0]) if len(same) == 1 else None
        if target.startswith("_static/"):
            candidates = [join_rel(self._confdir + d.strip("/"), target[len("_static/"):])
                          for d in reversed(conf.html_static_path)]
        else:
            candidates = [join_rel(self._confdir + d.strip("/"), target) for d in reversed(conf.html_extra_path)]
        for rel in candidates:
            found = checked_rel(self._root, rel)
            if found.rel_path and (self._root / found.rel_path).is_file():
                return found
        return None

    def _source_pictures(self) -> dict[str, list[str]]:
        """The picture files under the source directory by file name (build output and
        hidden folders aside), listed once; at most 20,000 files."""
        if self._image_names is None:
            found: dict[str, list[str]] = {}
            files = os_walk_files(self._root, self._src or ".", _IMAGE_EXTS,
                                  skip_dirs=("_build", "node_modules"))
            for rel in files[:20_000]:
                found.setdefault(PurePosixPath(rel).name, []).append(rel)
            self._image_names = found
        return self._image_names

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        return self.resolve_asset(target, page_rel=page_rel)

    def resolve_python_object(self, identifier: str) -> tuple[str, list[str]] | None:
        """The source file of the module holding ``identifier`` (``pkg.mod.Class.method``)
        and the attribute path below it, for ``sphinx.ext.autodoc``: Sphinx imports the
        module from ``sys.path``, so the longest module prefix is looked for as ``a/b.py``
        or ``a/b/__init__.py`` in the folders conf.py adds to ``sys.path``, then in the
        root and its ``src`` folder (where the project that the docs build installs
        usually lives). None when not found inside the root. Never raises."""
        parts = [p for p in identifier.strip().split(".") if p]
        if not parts or len(parts) > 30 or not all(p.isidentifier() for p in parts):
            return None
        confdir = self._confdir.rstrip("/") or "."
        bases = [join_rel(confdir, p) for p in self.conf.sys_path]
        for base in dict.fromkeys([*bases, ".", "src"]):
            if base.startswith(".."):
                continue
            for cut in range(len(parts), 0, -1):
                stem = join_rel(base, "/".join(parts[:cut]))
                for rel in (f"{stem}.py", f"{stem}/__init__.py"):
                    res = checked_rel(self._root, rel)
                    if res.rel_path and (self._root / res.rel_path).is_file():
                        return res.rel_path, parts[cut:]
        return None

    def _source_read_render(self, text: str) -> str:
        """``text`` after conf.py's ``source-read`` Jinja2 pass (:func:`source_read_jinja`):
        rendered by :func:`murar.ingest.sites._jinja.render` with the context setting's
        literal entries as names. A name conf.py computes (pandas' ``header``, an f-string
        of a path) prints nothing, unwarned: it is the same on every page."""
        name = self.conf.source_read_jinja
        context = self.conf.values.get(name) if name else None
        return _jinja.render(text, dict(context) if isinstance(context, dict) else {})

    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """Sphinx prepends ``rst_prolog`` and appends ``rst_epilog`` to every
        reStructuredText source, after conf.py's ``source-read`` Jinja2 pass if it has one."""
        conf = self.conf
        if self._additional_pages().get(page_rel):
            return self._additional_render(text)
        fc = self._gallery_class(page_rel)
        if fc is not None and fc.markup != "gallery" and fc.role is FileRole.PAGE:
            # a gallery header: its index page lists the examples' thumbnails under it
            thumbs = self._gallery_thumbnails(page_rel)
            text = f"{text.rstrip()}\n\n{thumbs}\n" if thumbs else text
        markup = self.markup_for(page_rel)
        if conf.source_read_jinja is not None and markup in ("rst", "myst"):
            text = self._source_read_render(text)
        rst = markup == "rst" or (fc is not None and fc.markup in ("rst", "gallery"))
        if not rst or not (conf.rst_prolog or conf.rst_epilog):
            return text
        return "\n\n".join(p for p in (conf.rst_prolog, text, conf.rst_epilog) if p)
