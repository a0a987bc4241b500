"""Jupyter Book: ``_config.yml`` + ``_toc.yml`` (Jupyter Book 1) or ``myst.yml`` (Jupyter Book 2).

Jupyter Book 1 (https://jupyterbook.org/en/stable/customize/config.html) is
Sphinx underneath: pages are ``.md`` (MyST), ``.ipynb`` (notebooks) and
``.rst`` files under the book root (the folder of ``_config.yml``), links
resolve as Sphinx resolves them (relative to the page; a leading ``/`` is the
book root), ``exclude_patterns`` excludes files. Which files are pages:

- ``only_build_toc_files: true``: exactly the files listed in ``_toc.yml``
  (``root``, ``file:`` entries and ``glob:`` patterns), as Jupyter Book builds;
- otherwise (Jupyter Book's default) every page file under the book root,
  TOC or not (Jupyter Book builds them too, with a warning).

Files pulled in by ``{include}`` are content of the including pages, never
pages. Jupyter Book 2 (``myst.yml``, https://mystmd.org/guide/table-of-contents)
lists pages in ``project.toc`` and excludes ``project.exclude``; with a TOC,
only its files are pages; without one, every ``.md`` and ``.ipynb`` file is
(mystmd reads no reST), hidden folders, ``_build`` and ``node_modules`` aside.
"""

from __future__ import annotations

import posixpath
from pathlib import Path, PurePosixPath
from typing import Any

from murar.ingest.frontmatter import FrontMatterError, load_yaml_safely
from murar.ingest.sites._glob import PATH, SPHINX, GlobSyntax, glob_match
from murar.ingest.sites.base import FileClass, FileRole
from murar.ingest.sites.sphinx import (
    SphinxConf,
    SphinxSite,
    custom_notebook_suffixes,
    markup_settings,
    sphinx_glob,
)

__all__ = ["JupyterBookSite", "read_book_config", "toc_trees"]

_PAGE_SUFFIXES = {".md": "markdown", ".ipynb": "myst-nb", ".rst": "restructuredtext", ".myst": "markdown"}
# mystmd (Jupyter Book 2) reads MyST Markdown and notebooks, not reST, and skips node_modules
# ("Table of Contents": hidden folders, _build and node_modules are excluded)
_MYSTMD_SUFFIXES = {".md": "markdown", ".ipynb": "myst-nb"}
_MYSTMD_EXCLUDES = ("node_modules", "**/node_modules")
_BOOK_EXCLUDES = ("_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints", "**/.ipynb_checkpoints/**",
                  "_toc.yml", "_config.yml")


def _load_yaml(path: Path, warnings: list[str]) -> dict[str, Any]:
    try:
        data = load_yaml_safely(path.read_text(encoding="utf-8", errors="replace"), unknown_tags="null")
    except (OSError, FrontMatterError) as err:
        warnings.append(f"{path.name}: cannot read ({err}); Jupyter Book defaults used")
        return {}
    return data if isinstance(data, dict) else {}


def _strs(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(str(v) for v in value if isinstance(v, (str, int, float)))
    return ()


def _toc_entries(node: Any, files: list[str], globs: list[str]) -> None:
    """Collect ``file:``/``glob:`` (JB1) and ``file:``/``pattern:`` (JB2) entries, recursively."""
    if isinstance(node, dict):
        for key in ("root", "file"):
            if isinstance(node.get(key), str):
                files.append(node[key])
        for key in ("glob", "pattern"):
            if isinstance(node.get(key), str):
                globs.append(node[key])
        for value in node.values():
            if isinstance(value, (list, dict)):
                _toc_entries(value, files, globs)
    elif isinstance(node, list):
        for item in node:
            _toc_entries(item, files, globs)


_SUBTREES_KEYS = ("parts", "subtrees")
_ITEMS_KEYS = ("chapters", "sections", "entries")


def _numbered_value(value: object) -> int:
    """A toctree's ``numbered`` as Sphinx's depth: ``True`` 999, a positive integer itself, else 0."""
    if value is True:
        return 999
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def toc_trees(data: object, *, limit: int = 10_000) -> dict[str, list[tuple[tuple[str, ...], int]]]:
    """The toctrees a Jupyter Book 1 ``_toc.yml`` puts in its documents, as
    sphinx-external-toc inserts them (``parse_toc_data``/``insert_toctrees``): document
    stem -> ``(entry stems, numbered depth)`` per toctree. The ``root`` document and every
    ``file:`` item with children get one toctree per part (``parts:``/``subtrees:``, each
    with its own options) or one for a ``chapters:``/``sections:``/``entries:`` list (its
    ``options:``); ``numbered`` (``true`` or a depth) comes from the toctree or the TOC's
    ``defaults``. Entries are docnames from the book root, written ``/ch/sec`` (sphinx-external-toc
    puts the TOC's own docnames in the toctree, so a chapter ``ch/overview`` lists ``ch/sec``, not a
    path from its folder). Glob and URL entries are left out; at most ``limit`` documents are read."""
    out: dict[str, list[tuple[tuple[str, ...], int]]] = {}
    if not isinstance(data, dict):
        return out
    defaults = data.get("defaults") if isinstance(data.get("defaults"), dict) else {}
    assert isinstance(defaults, dict)
    stack: list[tuple[dict[str, Any], str]] = [(data, "root")]
    steps = 0
    while stack and len(out) < limit and steps < 10 * limit:  # bounded: YAML aliases can make cycles
        steps += 1
        item, key = stack.pop()
        doc = item.get(key)
        if not isinstance(doc, str) or not doc.strip():
            continue
        subtrees: list[tuple[list[Any], dict[str, Any]]] = []
        items_key = next((k for k in _ITEMS_KEYS if isinstance(item.get(k), list)), None)
        if items_key is not None:
            opts = item.get("options") if isinstance(item.get("options"), dict) else {}
            assert isinstance(opts, dict)
            subtrees.append((item[items_key], opts))
        else:
            parts: list[Any] = next((item[k] for k in _SUBTREES_KEYS if isinstance(item.get(k), list)), [])
            for part in parts:
                if isinstance(part, dict):
                    listed: list[Any] = next((part[k] for k in _ITEMS_KEYS if isinstance(part.get(k), list)), [])
                    subtrees.append((listed, part))
        trees: list[tuple[tuple[str, ...], int]] = []
        children: list[dict[str, Any]] = []
        for entries, opts in subtrees:
            files = [e for e in entries if isinstance(e, dict) and isinstance(e.get("file"), str)]
            numbered = opts["numbered"] if "numbered" in opts else defaults.get("numbered")
            # entries are docnames from the book root ("/" here: _xrefs reads other entries from the document's folder)
            trees.append((tuple("/" + _stem(e["file"]) for e in files), _numbered_value(numbered)))
            children.extend(files)
        if trees:
            out.setdefault(_stem(doc), trees)
        stack.extend((c, "file") for c in reversed(children))
    return out


def _numbered_true(data: object, *, limit: int = 100_000) -> bool:
    """True when a ``_toc.yml`` sets ``numbered: true`` anywhere (a part, ``options``,
    ``defaults``): Jupyter Book loads sphinx-multitoc-numbering only then (its build
    checks the dumped site map for ``numbered: true``; a depth such as ``numbered: 2``
    does not count). At most ``limit`` nodes are read (YAML aliases can make cycles)."""
    stack: list[object] = [data]
    seen = 0
    while stack and seen < limit:
        seen += 1
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("numbered") is True:
                return True
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    return False


def _numbered_headings(numbering: object) -> list[int]:
    """The heading depths mystmd numbers (``project.numbering``: ``true`` numbers
    everything, ``headings: true`` every depth, ``heading_2: true`` one depth)."""
    if numbering is True:
        return [1, 2, 3, 4, 5, 6]
    if not isinstance(numbering, dict):
        return []
    every = numbering.get("headings") is True
    return [d for d in range(1, 7) if numbering.get(f"heading_{d}", every) is True]


def _numbered_kinds(numbering: object) -> list[str]:
    """The target kinds mystmd numbers: figures, tables and equations unless
    ``project.numbering`` turns them off, code only when it turns code on
    (myst-transforms ``ReferenceState``); ``numbering: false`` numbers none."""
    if isinstance(numbering, bool):
        return ["figure", "table", "equation", "code-block"] if numbering else []
    options = numbering if isinstance(numbering, dict) else {}
    defaults = {"figure": True, "table": True, "equation": True, "code": False}
    kinds = {"figure": "figure", "table": "table", "equation": "equation", "code": "code-block"}
    return [kinds[k] for k, on in defaults.items() if options.get(k, on) is not False and (on or options.get(k))]


def read_book_config(root: Path, config_file: str | None, warnings: list[str]) -> tuple[SphinxConf, dict[str, Any]]:
    """The Sphinx-equivalent settings of a Jupyter Book and its TOC facts.

    Returns ``(conf, book)``: ``book`` holds ``only_toc`` (bool), ``toc_files``
    (paths without suffix, relative to the book root), ``toc_globs``, ``has_toc`` and
    ``toc_trees`` (the toctrees ``_toc.yml`` inserts, :func:`toc_trees`); the conf's
    ``extensions`` are ``sphinx.extra_extensions``. Never raises for a bad file (warnings instead).
    """
    cfg_path = root / (config_file or "_config.yml")
    book_dir = cfg_path.parent
    values: dict[str, Any] = {}
    files: list[str] = []
    globs: list[str] = []
    only_toc = False
    has_toc = False
    exclude: list[str] = []
    static: tuple[str, ...] = ()
    trees: dict[str, list[tuple[tuple[str, ...], int]]] = {}
    suffixes = dict(_PAGE_SUFFIXES)
    if cfg_path.name == "myst.yml":
        data = _load_yaml(cfg_path, warnings) if cfg_path.is_file() else {}
        project = data.get("project") if isinstance(data.get("project"), dict) else {}
        assert isinstance(project, dict)
        exclude.extend(_strs(project.get("exclude")))
        exclude.extend(_MYSTMD_EXCLUDES)
        suffixes = dict(_MYSTMD_SUFFIXES)
        values["mystmd_heading_depths"] = _numbered_headings(project.get("numbering"))
        values["mystmd_numbered_kinds"] = _numbered_kinds(project.get("numbering"))
        if project.get("toc") is not None:
            has_toc = only_toc = True
            _toc_entries(project.get("toc"), files, globs)
    else:
        data = _load_yaml(cfg_path, warnings) if cfg_path.is_file() else {}
        exclude.extend(_strs(data.get("exclude_patterns")))
        only_toc = bool(data.get("only_build_toc_files"))
        sphinx = data.get("sphinx") if isinstance(data.get("sphinx"), dict) else {}
        assert isinstance(sphinx, dict)
        sconf = sphinx.get("config") if isinstance(sphinx.get("config"), dict) else {}
        assert isinstance(sconf, dict)
        values.update(sconf)
        exclude.extend(_strs(sconf.get("exclude_patterns")))
        static = _strs(sconf.get("html_static_path"))
        parse = data.get("parse") if isinstance(data.get("parse"), dict) else {}
        assert isinstance(parse, dict)
        if isinstance(parse.get("myst_substitutions"), dict):
            values["myst_substitutions"] = parse["myst_substitutions"]
        extra = sphinx.get("extra_extensions")
        values["extensions"] = [str(e) for e in extra] if isinstance(extra, list) else []
        # Jupyter Book always loads myst_nb: nb_custom_formats under sphinx.config add text notebooks
        # (Jupyter Book docs, "Custom notebook formats and Jupytext")
        for sfx, parser in custom_notebook_suffixes(values, ["myst_nb"]).items():
            suffixes.setdefault(sfx, parser)
        for toc_name in ("_toc.yml", "_toc.yaml"):
            toc_path = book_dir / toc_name
            if toc_path.is_file():
                has_toc = True
                toc = _load_yaml(toc_path, warnings)
                _toc_entries(toc, files, globs)
                trees = toc_trees(toc)
                # chapters are numbered on across parts by default (html.use_multitoc_numbering,
                # true unless set false: Jupyter Book >= 0.11.2 loads sphinx-multitoc-numbering
                # when the TOC numbers with "numbered: true")
                html = data.get("html") if isinstance(data.get("html"), dict) else {}
                assert isinstance(html, dict)
                multitoc = sconf.get("use_multitoc_numbering", html.get("use_multitoc_numbering", True))
                if multitoc is not False and _numbered_true(toc):
                    values["extensions"].append("sphinx_multitoc_numbering")
                break
    conf = SphinxConf(
        root_doc=next(iter(files), "intro"),
        source_suffix=suffixes,
        exclude_patterns=tuple(exclude),
        html_static_path=static,
        extensions=tuple(_strs(values.get("extensions"))),
        **markup_settings(values),
        values=values,
    )
    stems = tuple(_stem(f) for f in files)
    return conf, {"only_toc": only_toc, "toc_files": stems, "toc_globs": tuple(globs), "has_toc": has_toc,
                  "toc_trees": trees}


def _stem(rel: str) -> str:
    text = rel.strip()
    # "../README.md": a mystmd TOC entry above the project folder keeps its "../" (a path relative to myst.yml)
    p = PurePosixPath(posixpath.normpath(text) if text.startswith("../") else text.lstrip("./").lstrip("/"))
    return p.with_suffix("").as_posix() if p.suffix.lower() in _PAGE_SUFFIXES else p.as_posix()


class JupyterBookSite(SphinxSite):
    """A Jupyter Book: ``root`` is the ingest root, ``config_file`` the path of
    ``_config.yml`` (or ``myst.yml``) relative to it; its folder is the book root."""

    def __init__(self, root: Path, config_file: str | None = "_config.yml") -> None:
        super().__init__(root, config_file, generator="jupyterbook")
        # Jupyter Book 1 builds with Sphinx (includes from the document); mystmd keeps the including file's folder
        self.includes_from_document = PurePosixPath(config_file or "").name != "myst.yml"
        self._book: dict[str, Any] | None = None
        self._toc_globs: list[str] | None = None

    @classmethod
    def load(cls, root: Path, config_file: str | None) -> JupyterBookSite:
        """Registry factory (see :mod:`murar.ingest.sites.detect`)."""
        return cls(root, config_file)

    @property
    def conf(self) -> SphinxConf:
        if self._conf is None:
            self._conf, self._book = read_book_config(self._root, self._config_file, self.load_warnings)
        return self._conf

    @property
    def book(self) -> dict[str, Any]:
        """TOC facts from :func:`read_book_config`."""
        if self._book is None:
            self._conf, self._book = read_book_config(self._root, self._config_file, self.load_warnings)
        return self._book

    def _exclude_patterns(self) -> tuple[str, ...]:
        return (*super()._exclude_patterns(), *_BOOK_EXCLUDES)

    @property
    def _mystmd(self) -> bool:
        return PurePosixPath(self._config_file or "").name == "myst.yml"

    @property
    def first_heading_titles_page(self) -> bool:
        """Jupyter Book 1 builds with Sphinx (the first heading titles the page); mystmd shows
        the front matter ``title`` above the page's headings."""
        return not self._mystmd

    @property
    def _glob_syntax(self) -> GlobSyntax:
        """Jupyter Book 1 hands ``exclude_patterns`` to Sphinx and sphinx-external-toc matches
        TOC ``glob`` entries with ``sphinx.util.matching.patmatch``; mystmd reads
        ``project.exclude`` and TOC ``pattern`` entries as minimatch globs (``**/x`` also matches ``x``)."""
        return PATH if self._mystmd else SPHINX

    @property
    def _source_dir_name(self) -> str:  # type: ignore[override]
        return "Jupyter Book folder"

    @property
    def _exclude_source(self) -> str:  # type: ignore[override]
        if self._mystmd:
            return "myst.yml project.exclude or mystmd defaults (_build, node_modules, hidden files)"
        name = PurePosixPath(self._config_file or "_config.yml").name
        return f"{name} exclude_patterns or Jupyter Book defaults (_build, .ipynb_checkpoints, ...)"

    @property
    def _suffix_source(self) -> str:  # type: ignore[override]
        kinds = ", ".join(sorted(self.conf.source_suffix))
        return f"not a {'mystmd' if self._mystmd else 'Jupyter Book'} page type ({kinds})"

    # Jupyter Book 1 turns Sphinx's numfig on; mystmd numbers figures on every page from 1
    _numfig_default = True

    @property
    def _per_page_numbers(self) -> bool:  # type: ignore[override]
        return self._mystmd

    def _toc_files(self) -> tuple[str, ...]:
        """Jupyter Book 1's ``_toc.yml`` (or ``_toc.yaml``) beside ``_config.yml``."""
        if self._mystmd:
            return ()
        book = PurePosixPath(self._config_file or "_config.yml").parent
        return tuple(posixpath.normpath(f"{book}/{name}") for name in ("_toc.yml", "_toc.yaml"))

    def _doc_order(self, files: dict[str, str]) -> list[str]:
        """The order of the table of contents (``_toc.yml``, ``project.toc``)."""
        return list(self.book["toc_files"]) or super()._doc_order(files)

    def _inserted_toctrees(self) -> dict[str, list[tuple[tuple[str, ...], int]]]:
        """The toctrees ``_toc.yml`` inserts at the end of its documents (Jupyter Book 1)."""
        return {} if self._mystmd else dict(self.book.get("toc_trees") or {})

    def in_toc(self, rel: str) -> bool:
        """True when ``rel`` (relative to the ingest root) is listed in the TOC."""
        src_rel = self._in_src(rel)
        if src_rel is None:
            return False
        stem = _stem(src_rel)
        if stem in self.book["toc_files"]:
            return True
        if self._toc_globs is None:
            self._toc_globs = sphinx_glob(self.book["toc_globs"])
        syntax = self._glob_syntax
        return any(glob_match(stem, p, syntax) or glob_match(src_rel, p, syntax) for p in self._toc_globs)

    def _toc_above(self, rel: str) -> bool:
        """mystmd: ``rel`` (relative to the ingest root, outside the project folder) is a file
        the TOC lists by a path relative to ``myst.yml`` going up (``- file: ../README.md``:
        mystmd reads TOC paths relative to the config file, DeepLabCut's docs open with the
        repository's README)."""
        if not self._mystmd or not self._src or not self.book["has_toc"]:
            return False
        up = posixpath.relpath(rel, self._src.rstrip("/"))
        return up.startswith("../") and _stem(up) in self.book["toc_files"]

    def classify(self, rel: str) -> FileClass:
        fc = super().classify(rel)
        if fc.role is FileRole.EXCLUDED and self._in_src(rel) is None and self._toc_above(rel):
            markup = self.markup_for(rel)
            if markup is not None:
                return FileClass(role=FileRole.PAGE, markup=markup)
        if fc.role is FileRole.PAGE and self.book["only_toc"] and not self.in_toc(rel):
            return FileClass(role=FileRole.EXCLUDED,
                             reason="not in the table of contents (only_build_toc_files is true)")
        return fc
