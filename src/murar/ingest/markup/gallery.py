"""sphinx-gallery example scripts (``examples/plot_*.py``) read as the page the
extension writes for each (https://sphinx-gallery.github.io/stable/syntax.html).

sphinx-gallery turns every ``.py`` file of a gallery's examples folder into a
reST page of the gallery (``auto_examples/plot_x.rst``) before Sphinx reads the
sources; the site (:class:`murar.ingest.sites.sphinx.SphinxSite`) says which
files are examples. The page is built as ``sphinx_gallery.py_source_parser``
and ``gen_rst.rst_blocks`` build it (0.18):

- the module docstring is the page's first text block (its title and intro);
- the rest is cut into blocks at a line of 20 or more ``#`` or a ``# %%`` line:
  the comment lines right after it, ``#`` removed and dedented, are a reST text
  block, the lines up to the next such line a ``.. code-block:: python``;
- code between ``# sphinx_gallery_start_ignore`` and ``..._end_ignore`` is left
  out (``remove_ignore_blocks``); config comments stay, as with the extension's
  default ``remove_config_comments=False``.

What running the script produces (figures, printed output) and the download
footer are not there: scripts are never run. A script that does not parse is the
extension's ``SyntaxError`` page.
"""

from __future__ import annotations

import ast
import bisect
import inspect
import re
import textwrap
from pathlib import Path

from murar.ingest.markup.builder import MarkupOptions, page_rel, read_source
from murar.ingest.sites.base import Site
from murar.schema import ParsedDocument

__all__ = ["code_size", "convert_gallery", "example_blocks", "example_rst", "example_title", "rst_title",
           "thumbnail_list"]

# sphinx_gallery.py_source_parser (0.18): block separators and ignore blocks
_BLOCK_RE = re.compile(r"(?P<header_line>^#{20,}.*|^# ?%%.*)\s(?P<text_content>(?:^#.*\s?)*)", re.MULTILINE)
_COMMENT_MARK = re.compile(r"^#", re.MULTILINE)
_IGNORE_START = re.compile(r"^[ \t]*#\s*sphinx_gallery_start_ignore", re.MULTILINE)
_IGNORE_END = re.compile(r"^[ \t]*#\s*sphinx_gallery_end_ignore", re.MULTILINE)
# py_source_parser.INFILE_CONFIG_PATTERN: '# sphinx_gallery_<name> = <value>' (or a bare flag) lines
_CONFIG_COMMENT = re.compile(r"^[ \t]*#\s*sphinx_gallery_([A-Za-z0-9_]+)(\s*=\s*(.+))?[ \t]*\n?", re.MULTILINE)
_SYNTAX_ERROR = "SyntaxError\n===========\n\nExample script with invalid Python syntax\n"


def _docstring_and_rest(source: str) -> tuple[str, str]:
    """The module docstring (cleaned as :func:`ast.get_docstring` cleans it) and the
    source after the docstring's last line; sphinx-gallery's ``SyntaxError`` page
    text and the whole source when it does not parse, an empty docstring when it
    has none (the extension stops the build there)."""
    try:
        module = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _SYNTAX_ERROR, source
    first = module.body[0] if module.body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return "", source
    docstring = ast.get_docstring(module) or ""
    end = first.end_lineno or first.lineno
    return docstring, "\n".join(source.split("\n")[end:])


def _code_block(code: str) -> str:
    """``gen_rst.codestr2rst``: a python code block (``:dedent: 1`` when every line is indented)."""
    lines = code.splitlines()
    dedent = "   :dedent: 1\n" if all(not ln or ln.startswith((" ", "\t")) for ln in lines) else ""
    return f".. code-block:: python\n{dedent}\n" + textwrap.indent(code, "    ") + "\n"


def example_blocks(source: str) -> list[tuple[str, str]]:
    """``(kind, content)`` blocks of an example script, ``kind`` ``"text"`` or ``"code"``
    (``py_source_parser.split_code_and_text_blocks``); the docstring is the first."""
    docstring, rest = _docstring_and_rest(source)
    blocks: list[tuple[str, str]] = [("text", docstring)]
    pos = 0
    for m in _BLOCK_RE.finditer(rest):
        code = rest[pos:m.start()]
        if code.strip():
            blocks.append(("code", code))
        text = textwrap.dedent(_COMMENT_MARK.sub("", m.group("text_content"))).lstrip()
        if text.strip():
            blocks.append(("text", text))
        pos = m.end()
    if rest[pos:].strip():
        blocks.append(("code", rest[pos:]))
    return blocks


_LEADING_DOCSTRING = re.compile(r'\A(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*[rRuU]{0,2}("""|\'\'\')(.*?)\1', re.DOTALL)
_TITLE_RULE = re.compile(r"^(?!([\W _])\1{3,})(.+)", re.MULTILINE)
_ROLE_TITLE = re.compile(r"(\s|^):[^:\s]+:`\S+\s*<([^>`]+)>`(\W|$)")
_ROLE_TILDE = re.compile(r"(\s|^):[^:\s]+:`~([^`]+)`(\W|$)")
_ROLE_PLAIN = re.compile(r"(\s|^):[^:\s]+:`([^`]+)`(\W|$)")
_RST_SPECIAL = re.compile(r"([\\*`|_\[\]])")


def example_title(source: str) -> str:
    """The title sphinx-gallery shows on the example's thumbnail
    (``gen_rst.extract_intro_and_title``: the first line of the docstring's first
    paragraph that is not a line of one repeated punctuation character, roles reduced
    to their text); ``""`` when the docstring has none."""
    docstring, _ = _docstring_and_rest(source)
    if docstring == _SYNTAX_ERROR and (lead := _LEADING_DOCSTRING.match(source)) is not None:
        docstring = inspect.cleandoc(lead.group(2))  # a script cut short (or not parsing) past its docstring
    paragraphs = [p for p in docstring.lstrip().split("\n\n") if p and not p.startswith(".. ")]
    if not paragraphs or (m := _TITLE_RULE.search(paragraphs[0])) is None:
        return ""
    title = _ROLE_TITLE.sub(r"\1\2\3", m.group(0).strip()[:300])
    title = _ROLE_TILDE.sub(lambda t: t.group(1) + t.group(2).split(".")[-1] + t.group(3), title)
    return _ROLE_PLAIN.sub(r"\1\2\3", title)


_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+[ \t]*$")


def rst_title(text: str) -> str:
    """The first section title of a reST text (a line over an adornment line at least as
    long, with or without an overline); ``""`` when it has none. Reads at most 400 lines."""
    lines = text.split("\n", 400)[:400]
    for i in range(len(lines) - 1):
        line, under = lines[i].strip(), lines[i + 1].strip()
        if line and not _ADORNMENT.match(line) and _ADORNMENT.match(under) and len(under) >= len(line):
            return line
    return ""


def code_size(source: str) -> int:
    """Characters of code in an example script: the order key of sphinx-gallery's
    default ``within_subsection_order`` (``sorting.NumberOfCodeLinesSortKey``)."""
    return sum(len(content) for kind, content in example_blocks(source) if kind == "code")


def thumbnail_list(titles: list[str]) -> str:
    """reST for the thumbnails a gallery index shows under its header: one bullet
    per example title (the card's visible text), in gallery order."""
    return "\n".join("* " + _RST_SPECIAL.sub(r"\\\1", t) for t in titles if t)


def _remove_ignore_blocks(code: str) -> str:
    """``code`` without its ignore blocks, as ``py_source_parser.remove_ignore_blocks``
    removes them (``IGNORE_BLOCK_PATTERN``: from a start flag through the first end flag
    after it); unchanged when the flags are unpaired (the extension stops the build).
    Linear: each start flag looks its end up among the end flags found once (the lazy
    pattern rescanned the rest of the code from every start flag with no end after it)."""
    ends = [m.span() for m in _IGNORE_END.finditer(code)]
    if not ends or len(ends) != len(_IGNORE_START.findall(code)):
        return code
    starts = [e for e, _ in ends]
    out: list[str] = []
    pos = 0
    while (start := _IGNORE_START.search(code, pos)) is not None:
        i = bisect.bisect_left(starts, start.end())
        if i == len(ends):  # no end flag after it, nor after any later start flag
            break
        end = ends[i][1] + (code[ends[i][1]:ends[i][1] + 1] == "\n")
        out.append(code[pos:start.start()])
        pos = end
    out.append(code[pos:])
    return "".join(out)


def example_rst(source: str, *, remove_config_comments: bool = False) -> str:
    """The reST page sphinx-gallery writes for the example script ``source`` (without
    the outputs of running it and the download footer); see the module doc. With
    ``remove_config_comments`` (the extension's setting) ``# sphinx_gallery_x = v`` lines
    are taken out of the code (py_source_parser.remove_config_comments)."""
    out: list[str] = []
    for kind, content in example_blocks(source):
        if kind == "code":
            code = _remove_ignore_blocks(content)
            if remove_config_comments:
                code = _CONFIG_COMMENT.sub("", code)
            if code.strip():
                out.append(_code_block(code))
        else:
            out.append(content + ("\n" if content.endswith("\n") else "\n\n"))
    return "".join(out)


def convert_gallery(path: Path, *, site: Site, assets_dir: Path | None = None,
                    options: MarkupOptions | None = None) -> ParsedDocument:
    """Parse one sphinx-gallery example script (``path`` under ``site.config.root``)
    as the reST page the extension generates from it.

    Raises:
        IngestError: the file is outside the site root, unreadable or binary, or
            docutils gave up on the generated page.
    """
    from murar.ingest.markup.rst import (
        convert_rst_text,  # the sites import this module's readers
    )

    opts = options or MarkupOptions()
    rel = page_rel(path, site.config.root)
    warnings: list[str] = []
    source = read_source(path, max_bytes=opts.max_bytes, warnings=warnings)
    docstring, _ = _docstring_and_rest(source)
    if not docstring.strip():
        warnings.append("sphinx-gallery: the example has no docstring (its title); sphinx-gallery stops the "
                        "build on it")
    conf = getattr(getattr(site, "conf", None), "values", None) or {}
    sg = conf.get("sphinx_gallery_conf")
    remove = isinstance(sg, dict) and sg.get("remove_config_comments") is True
    text = example_rst(source, remove_config_comments=remove)
    return convert_rst_text(text, rel=rel, site=site, options=opts, warnings=warnings)
