"""Jupyter notebooks (``.ipynb``, read with nbformat) walked into a page.

As Jupyter Book / MyST-NB render a notebook (https://myst-nb.readthedocs.io/):

- Markdown cells are MyST Markdown (:class:`murar.ingest.markup.myst.MystParser`),
  their headings are the page's sections; cell attachments
  (``![x](attachment:x.png)``) are written under the index's assets folder;
- code cells are code text; their stored outputs are read: ``image/png``,
  ``image/jpeg``, ``image/gif`` and ``image/svg+xml`` outputs are written under
  the assets folder (``nb/<page id>/cell<N>-<k>.<ext>``, ``ImageItem.stored_path``
  relative to it) and become images in the section the cell sits in, with the
  cell's code and the surrounding text as context; ``text/html`` outputs are
  read for tables (a DataFrame), ``text/markdown`` outputs (``display(Markdown(...))``)
  as MyST Markdown; short ``text/plain`` and stream outputs join the text;
- the cell tags ``remove-cell``, ``remove-input`` and ``remove-output`` remove
  what Jupyter Book removes;
- values stored with myst-nb's ``glue()`` are shown where the notebook's
  Markdown pastes them (``{glue:}`name```, ``{glue:text}``, ``{glue:figure}``
  with its caption), as myst-nb renders them.

Notebooks are never executed.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import re
import warnings as pywarnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from murar.errors import IngestError, MissingExtraError
from murar.ingest.markup.builder import (
    MarkupOptions,
    PageBuilder,
    page_rel,
    read_source,
)
from murar.ingest.markup.myst import MystParser, site_substitutions
from murar.ingest.sites.base import Site
from murar.schema import ParsedDocument, stable_id

__all__ = ["NotebookDisplay", "convert_notebook"]

@dataclass(frozen=True, slots=True, kw_only=True)
class NotebookDisplay:
    """What of a notebook's cells the site's renderer shows: cells carrying one of
    ``remove_cell_tags`` are left out, as are the code of cells tagged with one of
    ``remove_input_tags`` (every cell's code when ``show_input`` is false) and the outputs
    of cells tagged with one of ``remove_output_tags``. The default is Jupyter Book's
    (myst-nb's ``remove-cell``/``remove-input``/``remove-output``); a site gives its own
    with an optional ``notebook_display()`` method (mkdocs-jupyter's options)."""

    remove_cell_tags: frozenset[str] = frozenset({"remove-cell"})
    remove_input_tags: frozenset[str] = frozenset({"remove-input"})
    remove_output_tags: frozenset[str] = frozenset({"remove-output"})
    show_input: bool = True


_IMAGE_MIME = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/svg+xml": "svg",
               "image/webp": "webp"}
_MAX_IMAGE_BYTES = 20_000_000
_MAX_TEXT_OUTPUT = 500


# jupytext percent format (https://jupytext.readthedocs.io/en/latest/formats-scripts.html#the-percent-format)
_PERCENT_CELL = re.compile(r"^[ \t]*#[ \t]*%%(?!%)(.*)$")
_PERCENT_KIND = re.compile(r"\[(markdown|md|raw)\]")
_TRIPLE_QUOTED = re.compile(r'^[rRuU]?("""|\'\'\')\n?(.*?)\n?\1$', re.DOTALL)
_MD_HEADING = re.compile(r"^#{1,6}[ \t]+(.{1,300})$", re.MULTILINE)
_MD_LINK = re.compile(r"\[([^\]\n]{1,300})\]\([^)\s]{1,500}[^)]{0,300}\)")
_RAW_MIMETYPE = re.compile(r'raw_mimetype="([^"]{0,100})"')
_COMMENTED_MAGIC = re.compile(r"^# ?([%!].*)$")
#: cells read from one percent script
_MAX_PERCENT_CELLS = 5_000


def _uncomment(lines: list[str]) -> str:
    """Markdown/raw cell lines of a percent script without their comment marks ('# ' or '#')."""
    return "\n".join(ln[2:] if ln.startswith("# ") else ln.removeprefix("#") for ln in lines)


def percent_notebook(text: str) -> dict[str, Any]:
    """The notebook jupytext reads from a Python script in the percent format
    (``jupytext.reads(text, fmt="py:percent")``, checked with jupytext 1.16): a cell
    starts at each ``# %%`` line (``[markdown]``/``[md]`` or ``[raw]`` after it make a
    Markdown or raw cell; a cell title and ``key=value`` metadata are not shown); the
    lines of a Markdown or raw cell lose their ``#`` comment marks, or the cell is one
    triple-quoted string; code before the first marker is a code cell, a commented
    YAML header (``# ---`` ... ``# ---``) the notebook's metadata (left out), commented
    magics (``# %matplotlib``, ``# !pip``) are uncommented, a raw cell's
    ``raw_mimetype="..."`` is kept (how the page shows it); leading and trailing blank
    lines of a cell are dropped. Code cells have no outputs (scripts are never run)."""
    lines = text.split("\n")
    start = 0
    if lines and lines[0].rstrip() == "# ---":
        end = next((i for i in range(1, min(len(lines), 2_000)) if lines[i].rstrip() == "# ---"), None)
        if end is not None:
            start = end + 1
    cells: list[dict[str, Any]] = []
    kind, body = "code", list[str]()
    meta: dict[str, str] = {}

    def close() -> None:
        nonlocal body
        # the cell's lines without its leading and trailing blank ones (one slice: popping the
        # first line of a list one at a time is quadratic on a cell of many blank lines)
        first = next((i for i, ln in enumerate(body) if ln.strip()), len(body))
        last = next((i for i in range(len(body) - 1, first - 1, -1) if body[i].strip()), first - 1)
        body = body[first:last + 1]
        if not body or len(cells) >= _MAX_PERCENT_CELLS:
            return
        if kind == "code":
            source = "\n".join(m.group(1) if (m := _COMMENTED_MAGIC.match(ln)) else ln for ln in body)
            cells.append({"cell_type": "code", "source": source, "metadata": {}, "outputs": []})
            return
        joined = "\n".join(body)
        quoted = _TRIPLE_QUOTED.match(joined.strip())
        source = quoted.group(2).strip("\n") if quoted else _uncomment(body)
        cells.append({"cell_type": "raw" if kind == "raw" else "markdown", "source": source, "metadata": meta})

    for line in lines[start:]:
        marker = _PERCENT_CELL.match(line)
        if marker is None:
            body.append(line)
            continue
        close()
        found = _PERCENT_KIND.search(marker.group(1))
        kind = "code" if found is None else ("raw" if found.group(1) == "raw" else "markdown")
        mime = _RAW_MIMETYPE.search(marker.group(1))
        meta = {"raw_mimetype": mime.group(1)} if mime else {}
        body = []
    close()
    return {"cells": cells, "metadata": {}}


# mystmd cell options: "#| key: value" comment lines opening a code cell (any comment mark: "#|",
# "//|", "%|", "--|"); "label" names the cell for cross-references and embeds ("Label a Notebook Cell")
_CELL_OPTION = re.compile(r"^\s*(?:#|//|%|--)+\s*\|\s*([\w-]+)\s*:\s*(.*?)\s*$")


def cell_label(cell: Any) -> str | None:
    """The label mystmd gives a code cell: its metadata ``label``, else a ``#| label: name``
    line among the option lines opening its source ("Embed and Reuse Jupyter Outputs")."""
    if not isinstance(cell, dict) or cell.get("cell_type") != "code":
        return None
    meta = cell.get("metadata")
    if isinstance(meta, dict) and isinstance(meta.get("label"), str) and meta["label"].strip():
        return str(meta["label"]).strip()
    for line in _text(cell.get("source")).split("\n")[:50]:
        m = _CELL_OPTION.match(line)
        if m is None:
            break
        if m.group(1) == "label" and m.group(2):
            return m.group(2).strip().strip("'\"")
    return None


# a "#| label: name" line as notebook JSON stores it (a source line string), for a notebook read in part
_JSON_LABEL_LINE = re.compile(r'"[ \t]*(?:#|//|%|--)+[ \t]*\|[ \t]*label[ \t]*:[ \t]*([^\s"\\]+)')


def notebook_labels(text: str) -> list[str]:
    """The labels of the code cells of notebook JSON ``text`` (:func:`cell_label`); in text
    that is no whole notebook (its first megabytes, cut in its outputs), the ``#| label:``
    lines it holds."""
    cells = notebook_cells(text)
    if cells:
        return [c for c in map(cell_label, cells) if c]
    return [m.group(1).strip("'") for m in _JSON_LABEL_LINE.finditer(text)]


def notebook_cells(text: str) -> list[Any]:
    """The cells of notebook JSON ``text`` (none when it is no notebook)."""
    try:
        nb = json.loads(text)
    except ValueError:
        return []
    cells = nb.get("cells") if isinstance(nb, dict) else None
    return [c for c in cells if isinstance(c, dict)] if isinstance(cells, list) else []


def embed_cell_outputs(cells: list[Any], label: str, builder: PageBuilder, *, site: Site, assets_dir: Path,
                       options: MarkupOptions, folder: str) -> bool:
    """Show the outputs of the cell labelled ``label`` (mystmd embeds a labelled cell's outputs:
    ``![](#label)``, ``{figure} #label``, ``{embed}``) in ``builder``'s page, images written
    under ``assets_dir``/``folder``. False when no cell has that label."""
    key = label.strip().lower()
    for k, cell in enumerate(cells):
        found = cell_label(cell)
        if found is not None and found.lower() == key:
            walker = _Notebook(builder, site=site, assets_dir=assets_dir, options=options)
            walker.folder, walker.cell_no = folder, k + 1
            meta = cell.get("metadata") if isinstance(cell.get("metadata"), dict) else {}
            outputs = cell.get("outputs")
            walker.outputs([o for o in outputs if isinstance(o, dict)] if isinstance(outputs, list) else [], meta)
            return True
    return False


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return str(value or "")


class _Notebook:
    def __init__(self, builder: PageBuilder, *, site: Site, assets_dir: Path, options: MarkupOptions) -> None:
        self.b = builder
        self.assets_dir = assets_dir
        self.folder = f"nb/{stable_id(builder.rel, 'notebook')}"
        self.parser = MystParser(builder, site=site, options=options, substitutions=site_substitutions(site))
        self.parser.assets_dir = assets_dir
        self.site, self.options = site, options
        renderer = getattr(site, "notebook_renderer", None)
        self.nbsphinx = callable(renderer) and renderer() == "nbsphinx"
        display = getattr(site, "notebook_display", None)
        shown = display() if callable(display) else None
        self.display = shown if isinstance(shown, NotebookDisplay) else NotebookDisplay()
        self.cell_no = 0
        self.written = 0
        self.attachments: dict[str, dict[str, Any]] = {}
        self.parser.image_hook = self._attachment
        self.parser.glue_hook = self._glue
        self.glued: dict[str, dict[str, Any]] = {}
        self.glue_no = 0

    def collect_glue(self, cells: list[Any]) -> None:
        """The outputs myst-nb's ``glue(name, value)`` stored: a display output whose
        metadata ``scrapbook`` names it, its data keys behind ``mime_prefix``
        (``application/papermill.record/`` when ``display=False``)."""
        for cell in cells:
            outputs = cell.get("outputs") if cell.get("cell_type") == "code" else None
            for out in outputs or []:
                scrap = (out.get("metadata") or {}).get("scrapbook")
                if not isinstance(scrap, dict) or not isinstance(scrap.get("name"), str):
                    continue
                prefix = str(scrap.get("mime_prefix") or "")
                data = out.get("data") or {}
                self.glued[scrap["name"]] = {k[len(prefix):]: v for k, v in data.items() if k.startswith(prefix)}

    def _glue(self, kind: str, key: str, caption: str) -> str | None:
        """myst-nb "glue": ``{glue}``/``{glue:}``/``{glue:any}`` show the value (image or
        text), ``{glue:text}`` its text (``name:.2f`` formats a number), ``{glue:md}``
        its Markdown, ``{glue:figure}`` its image with the directive's caption."""
        name, fmt = key, ""
        if name not in self.glued and ":" in name:  # "name:format" ({glue:text}`pvalue:0.3g`)
            name, fmt = name.rsplit(":", 1)
        bundle = self.glued.get(name.strip())
        if bundle is None:
            return None
        image = next((m for m in _IMAGE_MIME if m in bundle), None)
        if image is not None and kind in ("glue", "glue:", "glue:any", "glue:figure"):
            payload = self._decode(image, bundle[image])
            if payload is not None:
                self.glue_no += 1
                self._store(payload, _IMAGE_MIME[image], f"glue{self.glue_no}-{name.strip()[:40]}", alt=name.strip(),
                            caption=caption)
            return ""
        text = _text(bundle.get("text/markdown") if kind == "glue:md" else bundle.get("text/plain")).strip()
        if fmt:
            try:
                text = format(float(text), fmt)
            except ValueError:
                pass
        return text[:_MAX_TEXT_OUTPUT]

    def _store(self, data: bytes, ext: str, name: str, *, alt: str, caption: str) -> None:
        if len(data) > _MAX_IMAGE_BYTES:
            self.b.warnings.append(f"cell {self.cell_no}: output image larger than {_MAX_IMAGE_BYTES} bytes skipped")
            return
        width = height = None
        if ext != "svg":
            try:
                from PIL import Image

                with Image.open(io.BytesIO(data)) as img:
                    width, height = img.size
            except Exception as err:  # noqa: BLE001 - Pillow raises assorted errors on bad data
                self.b.warnings.append(f"cell {self.cell_no}: output image is not a valid {ext} ({type(err).__name__})")
                return
        elif b"<svg" not in data[:4096].lower():
            self.b.warnings.append(f"cell {self.cell_no}: SVG output without an <svg> root skipped")
            return
        rel = f"{self.folder}/{name}.{ext}"
        out = self.assets_dir / rel
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
        except OSError as err:
            raise IngestError(f"cannot write notebook image {out}: {err}") from err
        self.written += 1
        self.b.stored_image(rel, alt=alt, caption=caption, width=width, height=height)

    def _decode(self, mime: str, payload: Any) -> bytes | None:
        raw = _text(payload)
        if mime == "image/svg+xml":
            return raw.encode("utf-8")
        try:
            return base64.b64decode(raw, validate=False)
        except (binascii.Error, ValueError):
            self.b.warnings.append(f"cell {self.cell_no}: {mime} output is not valid base64")
            return None

    def _attachment(self, src: str, alt: str, caption: str) -> bool:
        if not src.startswith("attachment:"):
            return False
        name = src[len("attachment:"):]
        bundle = self.attachments.get(name)
        if not bundle:
            self.b.warnings.append(f"cell {self.cell_no}: attachment {name!r} not found in the cell")
            return True
        for mime, ext in _IMAGE_MIME.items():
            if mime in bundle:
                data = self._decode(mime, bundle[mime])
                if data is not None:
                    stem = Path(name).stem or "attachment"
                    self._store(data, ext, f"cell{self.cell_no}-{stem}", alt=alt, caption=caption)
                return True
        self.b.warnings.append(f"cell {self.cell_no}: attachment {name!r} is not an image")
        return True

    def cell(self, cell: Any) -> None:
        self.cell_no += 1
        kind = cell.get("cell_type")
        meta = cell.get("metadata") or {}
        tags = {str(t) for t in meta.get("tags") or [] if isinstance(t, str)}
        show = self.display
        if tags & show.remove_cell_tags:
            return
        source = _text(cell.get("source"))
        if self.nbsphinx and (meta.get("nbsphinx") == "hidden" or kind == "markdown" and self.nbsphinx_toc(source, meta)):
            return
        if kind == "markdown":
            self.attachments = dict(cell.get("attachments") or {})
            self.parser.feed(source)
            self.b.end_paragraph()
            self.attachments = {}
        elif kind == "code":
            if source.strip() and show.show_input and not tags & show.remove_input_tags:
                self.b.code(source)
            if not tags & show.remove_output_tags:
                self.outputs(cell.get("outputs") or [], meta)
        elif kind == "raw":
            fmt = str(meta.get("format") or meta.get("raw_mimetype") or "").lower()
            if self.nbsphinx:
                self.nbsphinx_raw(source, fmt)
            elif "html" in fmt:
                self.b.html(source)

    def nbsphinx_toc(self, source: str, meta: dict[str, Any]) -> bool:
        """A Markdown cell nbsphinx turns into a toctree or gallery (metadata key or tag
        ``nbsphinx-gallery``, ``nbsphinx-toctree``, ``nbsphinx-link-gallery``; nbsphinx
        _extract_gallery_or_toctree): its links are the entries, named by their text, and its
        first heading the caption unless the options give one. A gallery shows the caption and
        the entries' names (written here); a toctree is navigation, not page text. False for
        other cells."""
        tags = meta.get("tags") or []
        found = next((k for k in ("nbsphinx-gallery", "nbsphinx-toctree", "nbsphinx-link-gallery")
                      if k in meta or k in tags), None)
        if found is None:
            return False
        if found == "nbsphinx-toctree":
            return True
        options = meta.get(found)
        caption = options.get("caption") if isinstance(options, dict) else None
        if not isinstance(caption, str):
            heading = _MD_HEADING.search(source)
            caption = heading.group(1).strip() if heading else ""
        names = [m.group(1).strip() for m in _MD_LINK.finditer(source)][:500]
        lines = [caption] if caption else []
        lines += [f"- {name}" for name in names if name]
        if lines:
            self.parser.feed("\n\n".join(lines[:1]) + ("\n\n" + "\n".join(lines[1:]) if len(lines) > 1 else ""))
            self.b.end_paragraph()
        return True

    def nbsphinx_raw(self, source: str, fmt: str) -> None:
        """A raw cell as nbsphinx's RST template writes it (nbsphinx/__init__.py, block rawcell):
        no ``raw_mimetype`` or ``text/html`` is raw HTML, ``text/markdown`` Markdown,
        ``text/restructuredtext`` reST of the page; other formats (LaTeX) are not in the HTML."""
        if fmt in ("", "text/html"):
            self.b.html(source)
        elif fmt == "text/markdown":
            self.parser.feed(source)
            self.b.end_paragraph()
        elif fmt == "text/restructuredtext":
            from murar.ingest.markup.rst import parse_rst_into

            try:
                parse_rst_into(self.b, source, rel=self.b.rel, site=self.site, options=self.options,
                               depth=self.b.cur.level)
            except IngestError as err:
                self.b.warnings.append(f"raw reST cell skipped: {err}")

    def outputs(self, outputs: list[Any], meta: dict[str, Any]) -> None:
        caption = ""
        for key in ("caption", "fig_caption"):
            if isinstance(meta.get(key), str):
                caption = meta[key]
        for k, out in enumerate(outputs):
            otype = out.get("output_type")
            if otype == "stream":
                text = _text(out.get("text")).strip()
                if text:
                    self.b.code(text[:_MAX_TEXT_OUTPUT])
                continue
            if otype == "error":
                self.b.code(f"{out.get('ename', 'Error')}: {out.get('evalue', '')}"[:_MAX_TEXT_OUTPUT])
                continue
            data = out.get("data") or {}
            image = next((m for m in _IMAGE_MIME if m in data), None)
            alt = _text(data.get("text/plain")).strip()
            if alt.startswith(("<Figure size", "<matplotlib")):
                alt = ""
            if image is not None:
                payload = self._decode(image, data[image])
                if payload is not None:
                    self._store(payload, _IMAGE_MIME[image], f"cell{self.cell_no}-{k}", alt=alt[:200],
                                caption=caption)
            elif "text/markdown" in data:  # myst-nb renders a Markdown output as MyST Markdown
                self.parser.feed(_text(data["text/markdown"]))
                self.b.end_paragraph()
            elif "text/html" in data:
                self.b.html(_text(data["text/html"]))
            elif alt and len(alt) <= _MAX_TEXT_OUTPUT and "application/vnd.jupyter.widget-view+json" not in data:
                self.b.code(alt)


def convert_notebook(path: Path, *, site: Site, assets_dir: Path, options: MarkupOptions | None = None,
                     percent: bool = False, builder: PageBuilder | None = None) -> ParsedDocument:
    """Parse one ``.ipynb`` page (``path`` under ``site.config.root``); output
    images are written under ``assets_dir``. With ``percent``, the file is a
    Python script in jupytext's percent format (:func:`percent_notebook`). ``builder``:
    the page to fill (another page showing this notebook, :func:`convert_nblink`).

    Raises:
        IngestError: the file is outside the root, unreadable, not a notebook, or
            an image cannot be written.
        MissingExtraError: nbformat is not installed.
    """
    try:
        import nbformat
    except ImportError as err:  # pragma: no cover - core dependency
        raise MissingExtraError("nbformat", "core") from err
    opts = options or MarkupOptions()
    root = site.config.root
    rel = page_rel(path, root)
    builder = builder or PageBuilder(rel=rel, site=site, options=opts)
    rel = builder.rel
    text = read_source(path, max_bytes=max(opts.max_bytes, 50_000_000), warnings=builder.warnings)
    if percent:
        return _walk(percent_notebook(text), builder, site=site, assets_dir=assets_dir, options=opts)
    with pywarnings.catch_warnings(record=True) as caught:
        pywarnings.simplefilter("always")
        try:
            nb = nbformat.reads(text, as_version=4)  # type: ignore[no-untyped-call]
        except Exception as err:  # nbformat raises NotJSONError, ValidationError, KeyError...
            raise IngestError(f"{rel}: not a readable notebook ({type(err).__name__}: {err})") from err
        try:
            nbformat.validate(nb)
        except Exception as err:  # noqa: BLE001 - an invalid but readable notebook is still read
            builder.warnings.append(f"notebook does not validate: {str(err).splitlines()[0][:200]}")
    for w in caught:
        # a 4.5 notebook without cell ids (written by older tools) is read as Jupyter reads it:
        # nbformat gives the cells ids (normalize) and the notebook is fine; not a problem to report
        if type(w.message).__name__ == "MissingIDFieldWarning":
            continue
        builder.warnings.append(f"nbformat: {str(w.message).splitlines()[0][:200]}")
    return _walk(nb, builder, site=site, assets_dir=assets_dir, options=opts)


def convert_nblink(path: Path, *, site: Site, assets_dir: Path, options: MarkupOptions | None = None
                   ) -> ParsedDocument:
    """An nbsphinx-link ``.nblink`` page: a JSON file whose ``path`` names a notebook (relative
    to the link's folder, often outside Sphinx's source folder: ``../../examples/demo.ipynb``)
    that Sphinx shows as this page (https://github.com/vidartf/nbsphinx-link). The notebook is
    read as :func:`convert_notebook` reads one, as the link's page; its image links resolve
    from the notebook's own folder (whose pictures the link's ``extra-media`` copies beside it).

    Raises:
        IngestError: the link file is not such JSON, or its notebook is missing, outside the
            root or unreadable.
    """
    opts = options or MarkupOptions()
    rel = page_rel(path, site.config.root)
    try:
        link = json.loads(read_source(path, max_bytes=1_000_000, warnings=[]))
    except ValueError as err:
        raise IngestError(f"{rel}: not an nbsphinx-link file ({err})") from err
    target = link.get("path") if isinstance(link, dict) else None
    if not isinstance(target, str) or not target.strip():
        raise IngestError(f"{rel}: nbsphinx-link file without a notebook 'path'")
    res = site.resolve_include(target.strip(), page_rel=rel)
    notebook = site.config.root / res.rel_path if res.rel_path else None
    if notebook is None or not notebook.is_file():
        raise IngestError(f"{rel}: linked notebook {target!r}: {res.problem or f'file not found ({res.rel_path})'}")
    return convert_notebook(notebook, site=site, assets_dir=assets_dir, options=opts,
                            builder=_linked_builder(rel, res.rel_path, site, opts))


def _linked_builder(rel: str, notebook_rel: str | None, site: Site, options: MarkupOptions) -> PageBuilder:
    builder = PageBuilder(rel=rel, site=site, options=options)
    builder.link_base = notebook_rel
    return builder


def convert_percent_notebook(path: Path, *, site: Site, assets_dir: Path,
                             options: MarkupOptions | None = None) -> ParsedDocument:
    """A notebook stored as a jupytext percent-format script (nbsphinx_custom_formats /
    myst-nb nb_custom_formats ``fmt: py:percent``), read as :func:`convert_notebook` reads one."""
    return convert_notebook(path, site=site, assets_dir=assets_dir, options=options, percent=True)


def _walk(nb: Any, builder: PageBuilder, *, site: Site, assets_dir: Path, options: MarkupOptions) -> ParsedDocument:
    """Walk a read notebook's cells into ``builder``."""
    opts = options
    meta = nb.get("metadata") or {}
    title = meta.get("title")
    if isinstance(title, str) and title.strip():
        builder.title = title.strip()
    titled = getattr(site, "notebook_title", None)  # a title the site gives instead of the first h1
    given = titled(builder.rel) if callable(titled) and not builder.title else None
    if isinstance(given, str) and given.strip():
        builder.title = given.strip()
    walker = _Notebook(builder, site=site, assets_dir=assets_dir, options=opts)
    walker.collect_glue(nb.get("cells") or [])
    for cell in nb.get("cells") or []:
        walker.cell(cell)
    kernel = (meta.get("kernelspec") or {}).get("name")
    return builder.finish(metadata={"kernel": kernel} if isinstance(kernel, str) else {})
