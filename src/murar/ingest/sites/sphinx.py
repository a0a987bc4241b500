"""Sphinx: ``conf.py`` settings and Sphinx's resolution rules.

Sphinx (https://www.sphinx-doc.org/en/master/usage/configuration.html) builds
every file under the source directory (the folder of ``conf.py``) whose suffix
is in ``source_suffix``, minus ``exclude_patterns``. Link rules used here:

- ``.. image::``/``.. figure::`` paths are relative to the *document* being
  built (an included file's images resolve against the page that includes it);
  a leading ``/`` means the source directory (``env.relfn2path``).
- ``.. include::`` paths are relative to the file that holds the directive; a
  leading ``/`` means the source directory.
- Files pulled in by ``.. include::`` (or MyST ``{include}``) are content of
  the pages that include them, not pages of their own (murar's rule, see
  DESIGN.md), whatever their suffix.

``conf.py`` is Python; it is never executed. :func:`read_conf` evaluates only
top-level assignments whose value is a literal (``ast.literal_eval``), so a
conf that imports a theme or computes a date still gives its plain settings.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from murar.ingest.paths import ResolvedLink, inside_root, resolve_link
from murar.ingest.sites._common import glob_match, os_walk_files, scan_include_targets
from murar.ingest.sites._xrefs import XrefIndex, read_capped, scan_xrefs, toctree_order
from murar.ingest.sites.base import FileClass, FileRole, SiteConfig, asset_or_unknown

__all__ = ["SphinxConf", "SphinxSite", "makefile_source_dir", "markup_settings", "read_conf", "sphinx_glob"]

_INCLUDE_RE = re.compile(
    r"^[ \t]*(?:\.\.[ \t]+(?:include|literalinclude)::[ \t]*(\S.*?)[ \t]*$"
    r"|[`:]{3,}[ \t]*\{(?:include|literalinclude)\}[ \t]*(\S.*?)[ \t]*$)",
    re.MULTILINE,
)
_ASSET_EXTS = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".bmp", ".tif", ".tiff", ".ico",
               ".mp4", ".webm", ".ogg", ".mov", ".pdf", ".css", ".js", ".woff", ".woff2", ".ttf",
               ".vtt", ".srt", ".csv", ".json", ".zip"}
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
    (``app.add_object_type``, ``app.add_crossref_type``, Sphinx application API).
    ``tags`` are the tags conf.py adds with ``tags.add("name")`` for ``.. only::``
    (https://www.sphinx-doc.org/en/master/usage/configuration.html#conf-tags).
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
    tags: tuple[str, ...] = ()
    values: dict[str, Any] = field(default_factory=dict)


def _strs(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(v for v in value if isinstance(v, str))
    return ()


#: bytes of conf.py read (a real one is a few kilobytes)
_MAX_CONF_BYTES = 2_000_000


def read_conf(path: Path, warnings: list[str] | None = None) -> SphinxConf:
    """Read the literal settings of a Sphinx ``conf.py`` without executing it.

    A value is kept when it is a literal, or is built only from literals and
    settings assigned earlier (a name, an f-string, ``+``: ``f"{_repo}/issues/%s"``);
    anything else (a call, an import) is skipped, or only its entries that need
    it in a dict display; ``x += [...]`` extends a list.
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
    values: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value_node = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            name, value_node = node.target.id, node.value
        elif (isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add)
              and isinstance(node.target, ast.Name)):
            try:
                extra = _value(node.value, values)
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
        if isinstance(value_node, ast.Dict):  # keep the entries that can be read
            values[name] = _readable_items(value_node, values)
            continue
        try:
            values[name] = _value(value_node, values)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
    suffix_raw = values.get("source_suffix")
    suffix: dict[str, str]
    if isinstance(suffix_raw, dict):
        suffix = {str(k): str(v) for k, v in suffix_raw.items()}
    elif _strs(suffix_raw):
        suffix = {s: ("markdown" if s == ".md" else "restructuredtext") for s in _strs(suffix_raw)}
    else:
        suffix = {".rst": "restructuredtext"}
    extensions = _strs(values.get("extensions"))
    if any(e in ("myst_parser", "myst_nb") for e in extensions):
        suffix.setdefault(".md", "markdown")
    if "myst_nb" in extensions or "nbsphinx" in extensions:
        suffix.setdefault(".ipynb", "myst-nb" if "myst_nb" in extensions else "nbsphinx")
    if "recommonmark" in extensions or "sphinx_markdown_parser" in extensions:
        suffix.setdefault(".md", "markdown")
    root_doc = values.get("root_doc") or values.get("master_doc") or "index"
    lang = values.get("language")
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
        object_types=_object_types(tree, values),
        tags=tuple(_conf_tags(tree.body, values)),
        values=values,
    )


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
    return ast.literal_eval(node)  # negative numbers and the like, else ValueError


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
    ``==``/``!=``/``in``/``not in`` (raises for anything else, as :func:`_value`)."""
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
        if isinstance(op, (ast.In, ast.NotIn)):
            return (left in right) == isinstance(op, ast.In)
        raise ValueError("comparison")
    return _value(node, values)


def _object_types(tree: ast.Module, values: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """``(directive, role)`` of each ``add_object_type``/``add_crossref_type`` call with literal names."""
    out: list[tuple[str, str]] = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr in ("add_object_type", "add_crossref_type")):
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
    """Sphinx ``exclude_patterns`` ready for :func:`murar.ingest.sites._common.glob_match`
    (sphinx.util.matching: ``**`` crosses folders, ``*`` and ``?`` stay inside one
    path segment, ``[...]`` sets; the whole path must match): each pattern without
    its outer ``/``, empty ones dropped. ``glob_match`` stays linear on any pattern."""
    return [p.strip("/") for p in patterns if p.strip("/")]


_MAKE_ASSIGN = re.compile(r"^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*[:?+]?=[ \t]*(.*?)[ \t]*$")
_MAKE_VAR = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")
# sphinx-build options that take a value (sphinx.cmd.build): the source directory is the first
# argument that is neither an option nor an option's value
_VALUE_OPTIONS = frozenset({"-b", "-c", "-d", "-D", "-A", "-t", "-j", "-w", "-M", "--builder", "--jobs",
                            "--doctree-dir", "--conf-dir", "--define", "--html-define", "--tag",
                            "--warning-file", "--exception-on-warning"})


def makefile_source_dir(root: Path, confdir: str) -> str | None:
    """The source directory a Sphinx project's ``Makefile`` builds when it keeps
    ``conf.py`` elsewhere: ``sphinx-build -c <confdir> ... SOURCEDIR OUTDIR``
    (sphinx-build's ``-c``: "use the given configuration directory instead of the
    source directory"). ``confdir`` is conf.py's folder relative to ``root``, where
    the Makefile is looked for; ``$(VAR)`` is expanded from the Makefile's own
    assignments. Returns the source directory relative to ``root`` when it is an
    existing folder inside ``conf.py``'s folder, else ``None`` (conf.py's folder is the
    source directory). Reads at most 200,000 bytes of a Makefile inside ``root``
    (resolved); a variable expands to at most 10,000 characters; never raises."""
    base = (root / confdir).resolve() if confdir not in ("", ".") else root
    makefile = base / "Makefile"
    if inside_root(makefile, root).problem:
        return None  # a Makefile linked out of the root (to /dev/zero: read_text never ended)
    try:
        with makefile.open("rb") as fh:
            text = fh.read(200_000).decode("utf-8", errors="replace")
    except OSError:
        return None
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

    for line in lines:
        cmd = expand(line)
        if "sphinx-build" not in cmd and "sphinx.cmd.build" not in cmd:
            continue
        tokens = cmd.replace('"', " ").replace("'", " ").split()[:200]
        start = next((i for i, tok in enumerate(tokens) if "sphinx-build" in tok or tok == "sphinx.cmd.build"), None)
        if start is None:
            continue
        conf_dir, positional, k = None, [], start + 1
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
        self.load_warnings: list[str] = []

    @classmethod
    def load(cls, root: Path, config_file: str | None) -> SphinxSite:
        """Registry factory: ``config_file`` is ``conf.py``'s path relative to ``root``; the
        source directory is conf.py's folder unless that folder's Makefile builds another
        one with ``sphinx-build -c`` (:func:`makefile_source_dir`)."""
        confdir = PurePosixPath(config_file).parent.as_posix() if config_file else "."
        found = makefile_source_dir(root.resolve(), confdir)
        return cls(root, config_file, source_dir=found)

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
                self._conf = SphinxConf()
            else:
                self._conf = read_conf(conf_path, self.load_warnings) if conf_path.is_file() else SphinxConf()
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
                exclude=self._exclude_patterns(),
                settings={"root_doc": conf.root_doc, "language": conf.language or "",
                          "source_suffix": " ".join(sorted(conf.source_suffix))},
            )
        return self._config

    def _exclude_patterns(self) -> tuple[str, ...]:
        conf = self.conf
        own = [p.strip("/") for p in (*conf.templates_path, *conf.html_static_path, *conf.html_extra_path)]
        return (*conf.exclude_patterns, *own, *(f"{p}/**" for p in own), *_DEFAULT_EXCLUDES)

    def _in_src(self, rel: str) -> str | None:
        """``rel`` relative to the source directory, or ``None`` outside it."""
        if not self._src:
            return rel
        return rel[len(self._src):] if rel.startswith(self._src) else None

    def _excluded(self, src_rel: str) -> bool:
        if self._excludes is None:
            self._excludes = sphinx_glob(self._exclude_patterns())
        # a pattern that matches a folder excludes everything below it (Sphinx prunes the walk)
        parts = src_rel.split("/")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        return any(glob_match(prefix, p) for p in self._excludes for prefix in prefixes)

    # --------------------------------------------------------------- includes
    def include_targets(self) -> frozenset[str]:
        """Files (posix, relative to the root) pulled in by an include directive
        anywhere in the sources; computed once."""
        if self._includes is None:
            files = os_walk_files(self._root, self._src or ".", self.conf.source_suffix, skip_dirs=(),
                                  skip_hidden_files=True)
            self._includes = scan_include_targets(
                self._root, files, _INCLUDE_RE, lambda target, rel: self.resolve_include(target, page_rel=rel))
        return self._includes

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
                                         *self.conf.extensions, *_strs(values.get("extensions"))))
        return self._xrefs

    def _inserted_toctrees(self) -> dict[str, list[tuple[tuple[str, ...], int]]]:
        """Toctrees an extension inserts at the end of documents (docname -> ``(entries,
        numbered depth)`` per toctree); none for a plain Sphinx project."""
        return {}

    _numfig_default = False  # Sphinx's numfig default
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

    def markup_for(self, rel: str) -> str | None:
        """The markup that parses ``rel`` by its suffix, or ``None``."""
        name = PurePosixPath(rel).name
        for suffix, parser in sorted(self.conf.source_suffix.items(), key=lambda kv: -len(kv[0])):
            if name.endswith(suffix):
                p = parser.lower()
                if suffix == ".ipynb" or p.endswith("nb") or "notebook" in p:
                    return "notebook"
                if "markdown" in p or "myst" in p or suffix == ".md":
                    return "myst"
                return "rst"
        return None

    def classify(self, rel: str) -> FileClass:
        suffix = PurePosixPath(rel).suffix.lower()
        src_rel = self._in_src(rel)
        markup = self.markup_for(rel)
        if src_rel is None:
            if suffix in _ASSET_EXTS:
                return FileClass(role=FileRole.ASSET)
            return FileClass(role=FileRole.EXCLUDED, reason=f"outside the {self._source_dir_name} {self.srcdir}/")
        if markup is not None and rel in self.include_targets():
            return FileClass(role=FileRole.INCLUDE, markup=markup)
        if self._excluded(src_rel):
            return FileClass(role=FileRole.EXCLUDED, reason=f"excluded by {self._exclude_source}")
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

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        link = link.strip()
        if link.startswith("/") and not link.startswith("//"):
            # Sphinx: a leading "/" is the source directory
            return resolve_link(link.lstrip("/"), page_rel=self._src + "index", root=self._root)
        return resolve_link(link, page_rel=page_rel, root=self._root)

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        return self.resolve_asset(target, page_rel=page_rel)

    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """Sphinx prepends ``rst_prolog`` and appends ``rst_epilog`` to every
        reStructuredText source."""
        conf = self.conf
        if self.markup_for(page_rel) != "rst" or not (conf.rst_prolog or conf.rst_epilog):
            return text
        return "\n\n".join(p for p in (conf.rst_prolog, text, conf.rst_epilog) if p)
