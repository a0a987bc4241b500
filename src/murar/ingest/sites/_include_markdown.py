"""The mkdocs-include-markdown-plugin directives, as the plugin (7.x) expands them.

``{% include-markdown "file.md" %}`` and ``{% include "file.md" %}`` in a page
(the plugin's ``on_page_markdown``, before Python-Markdown) are replaced by the
file they name (plugin documentation, "Usage"; ``event.py``, ``process.py``):

- a path starting with ``./`` or ``../`` is relative to the file holding the
  directive, any other relative path to ``docs_dir``; a path with glob
  characters includes every matching file (sorted by path); URLs and absolute
  paths are not read (never fetched, never outside the corpus);
- ``start="<!--s-->"`` / ``end="<!--e-->"`` keep the text between the markers
  (Python escapes such as ``\\n`` are read);
- the directive's indentation (the run of spaces, word characters, ``.`` and
  ``\\`` before ``{%``) prefixes the first included line; the other lines get as
  many spaces with ``preserve-includer-indent`` (default true); ``dedent``
  dedents; ``trailing-newlines=false`` strips them;
- ``include-markdown`` only: relative links and images of the included text
  are rewritten to point at the same files from the including page
  (``rewrite-relative-urls``, default true), ``heading-offset`` adds (or
  removes) ``#`` to its headings, ``comments`` (default false) wraps it in
  ``BEGIN``/``END INCLUDE`` comments;
- included text is expanded again (``recursive``, default true), paths then
  relative to the included file;
- unknown arguments (``replace=...``) are ignored, as the plugin ignores them.

The plugin's own options (``opening_tag``, ``closing_tag`` and the argument
defaults) come from ``mkdocs.yml``. Everything is bounded: nesting depth,
files per glob, files included and characters read or indented per page (a file
including twenty others that each include them all again is 20**6 inclusions),
warnings per page; a directive without its closing tag is left as written.
"""

from __future__ import annotations

import bisect
import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

from murar.ingest.markup.builder import read_include
from murar.ingest.sites._common import checked_rel, rebase_links
from murar.ingest.sites._glob import INCLUDE_MARKDOWN, glob_match

MAX_DEPTH = 6
MAX_GLOB_FILES = 100
MAX_WALK_FILES = 5000
MAX_OUTPUT_CHARS = 4_000_000
#: files one page includes, at all depths
MAX_INCLUDES = 500
#: warnings one page's directives give (then one saying the rest are not listed)
MAX_WARNINGS = 100
_INDENT_CHARS = frozenset(" \t\\._")  # plus word characters (str.isalnum)
_HEAD = re.compile(r"""\s*(include-markdown|include)\s+(?:"((?:[^"\\]|\\.)+)"|'((?:[^'\\]|\\.)+)')""", re.DOTALL)
_HEADING = re.compile(r"^(#+)")
_QUOTED = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")
_ARG_NAME = re.compile(r"(?<![\w-])([\w-]+)=")
_ARGS = {"start", "end", "exclude", "encoding", "order", "preserve-includer-indent", "dedent",
         "trailing-newlines", "recursive"}
_MARKDOWN_ARGS = _ARGS | {"rewrite-relative-urls", "heading-offset", "comments"}
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


@dataclass(frozen=True, slots=True)
class IncludeOptions:
    """The plugin's argument defaults (``mkdocs.yml`` ``plugins: - include-markdown: {...}``)."""

    opening_tag: str = "{%"
    closing_tag: str = "%}"
    preserve_includer_indent: bool = True
    dedent: bool = False
    trailing_newlines: bool = True
    comments: bool = False
    rewrite_relative_urls: bool = True
    heading_offset: int = 0
    recursive: bool = True
    start: str | None = None
    end: str | None = None


def options_from_config(raw: dict[str, Any]) -> IncludeOptions:
    """:class:`IncludeOptions` from the plugin's ``mkdocs.yml`` options (unknown or
    badly typed values keep the default)."""
    base = IncludeOptions()
    values: dict[str, Any] = {}
    for name, default in (("opening_tag", base.opening_tag), ("closing_tag", base.closing_tag),
                          ("start", None), ("end", None)):
        if isinstance(raw.get(name), str) and raw[name]:
            values[name] = raw[name]
        elif default is not None:
            values[name] = default
    for name in ("preserve_includer_indent", "dedent", "trailing_newlines", "comments",
                 "rewrite_relative_urls", "recursive"):
        if isinstance(raw.get(name), bool):
            values[name] = raw[name]
    if isinstance(raw.get("heading_offset"), int) and not isinstance(raw.get("heading_offset"), bool):
        values["heading_offset"] = max(-6, min(6, raw["heading_offset"]))
    return replace(base, **values)


def _str_arg(args: str, name: str) -> str | None:
    m = re.search(rf"""(?<![\w-]){re.escape(name)}=(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""", args)
    if not m:
        return None
    return m.group(1).replace('\\"', '"') if m.group(1) is not None else m.group(2).replace("\\'", "'")


def _word_arg(args: str, name: str) -> str | None:
    m = re.search(rf"(?<![\w-]){re.escape(name)}=([^\s\"']*)", args)
    return m.group(1) if m else None


def _escapes(value: str) -> str:
    """Python string escapes read, as the plugin reads ``start``/``end``."""
    try:
        return value.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except UnicodeDecodeError:
        return value


def _between(text: str, start: str | None, end: str | None) -> str:
    """The plugin's ``filter_inclusions``: the text after ``start`` and before ``end``
    (every ``start``...``end`` span when both are given)."""
    if start and not end:
        return text.split(start, 1)[1] if start in text else ""
    if end and not start:
        return text.split(end, 1)[0]
    if start and end:
        parts = text.split(start)
        kept: list[str] = []
        for part in parts[1:] if len(parts) > 1 else [text]:
            kept.extend(piece for i, piece in enumerate(part.split(end)) if i % 2 == 0)
        return "".join(kept)
    return text


def _shift_headings(text: str, offset: int) -> str:
    """``#`` added to (or removed from, never below one) every ATX heading outside code fences."""
    out: list[str] = []
    fence = ""
    for line in text.split("\n"):
        m = _FENCE.match(line)
        if m and (not fence or m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)):
            fence = "" if fence else m.group(1)
        elif not fence and line.startswith("#"):
            hashes = _HEADING.match(line)
            n = len(hashes.group(1)) if hashes else 0
            line = "#" * max(1, n + offset) + line[n:]
        out.append(line)
    return "\n".join(out)


def _includer_indent(text: str, opener: int, floor: int) -> int:
    """Start of the run of spaces, word characters, ``.`` and ``\\`` just before the
    opening tag at ``opener`` (not before ``floor``): the plugin's ``_includer_indent``."""
    i = opener
    while i > floor and (text[i - 1].isalnum() or text[i - 1] in _INDENT_CHARS):
        i -= 1
    return i


class IncludeMarkdownExpander:
    """Expands the directives of one page (see the module doc).

    ``root`` is the corpus root, ``docs_dir`` the docs folder relative to it.
    Problems (a missing file, a remote or absolute path, a cycle, nesting deeper
    than :data:`MAX_DEPTH`) go to ``warnings`` (at most :data:`MAX_WARNINGS`); the
    directive then leaves nothing. Past :data:`MAX_INCLUDES` files or
    :data:`MAX_OUTPUT_CHARS` characters read or indented, the page's later
    directives leave nothing (one warning)."""

    def __init__(self, root: Path, docs_dir: str, options: IncludeOptions, warnings: list[str]) -> None:
        self.root = root
        self.docs_dir = docs_dir
        self.options = options
        self.warnings = warnings
        self.problems = 0
        self.includes_left = MAX_INCLUDES
        self.chars_left = MAX_OUTPUT_CHARS
        self.stopped = False

    def warn(self, message: str) -> None:
        """Add ``message`` to the warnings, up to :data:`MAX_WARNINGS` of them."""
        self.problems += 1
        if self.problems <= MAX_WARNINGS:
            self.warnings.append(message)
        elif self.problems == MAX_WARNINGS + 1:
            self.warnings.append(f"include-markdown: more than {MAX_WARNINGS} problems on the page; the rest "
                                 "are not listed")

    def _stop(self, why: str) -> None:
        if not self.stopped:
            self.stopped = True
            self.warnings.append(f"include-markdown: {why}; later directives not expanded")

    def expand(self, text: str, *, file_rel: str, depth: int = 0, stack: tuple[str, ...] = ()) -> str:
        """``text`` (the content of ``file_rel``, relative to the root) with its directives replaced."""
        opening, closing = self.options.opening_tag, self.options.closing_tag
        if opening not in text:
            return text
        closers = [m.start() for m in re.finditer(re.escape(closing), text)]
        if not closers:
            return text
        out: list[str] = []
        size = 0
        pos = 0
        for opener in self._openers(text, opening):
            if opener < pos:
                continue
            head = _HEAD.match(text, opener + len(opening))
            if head is None:
                continue
            k = bisect.bisect_left(closers, head.end())
            if k == len(closers):
                break  # no closing tag after it: neither this nor any later directive is closed
            close = closers[k]
            start = _includer_indent(text, opener, pos)
            name = head.group(2).replace('\\"', '"') if head.group(2) is not None else head.group(3).replace("\\'", "'")
            body = self._directive(head.group(1), name, text[head.end():close], text[start:opener],
                                   file_rel=file_rel, depth=depth, stack=stack)
            if body is None:  # nothing included: the text before the directive on its line stays
                body = text[start:opener]
            out.append(text[pos:start])
            out.append(body)
            size += start - pos + len(body)  # (a sum over out after each directive was quadratic)
            pos = close + len(closing)
            if size > MAX_OUTPUT_CHARS:
                self.warnings.append(f"include-markdown: {file_rel} grows past {MAX_OUTPUT_CHARS} characters; "
                                     "later directives not expanded")
                break
        out.append(text[pos:])
        return "".join(out)

    @staticmethod
    def _openers(text: str, opening: str) -> Iterator[int]:
        i = text.find(opening)
        while i != -1:
            yield i
            i = text.find(opening, i + len(opening))

    def _bool(self, args: str, name: str, default: bool) -> bool:
        value = _word_arg(args, name)
        if value in (None, ""):
            return default
        if value in ("true", "false"):
            return value == "true"
        self.warn(f"include-markdown: {name}={value!r} is not true or false; default used")
        return default

    def _directive(self, kind: str, name: str, args: str, indent: str, *, file_rel: str, depth: int,
                   stack: tuple[str, ...]) -> str | None:
        """The text that replaces one directive (``indent``: the text before it on its
        line, which the included text is placed after); ``None`` when no file is
        included (a problem, or the page's limits reached)."""
        opts = self.options
        markdown = kind == "include-markdown"
        if self.stopped:
            return None
        if depth >= MAX_DEPTH:
            self.warn(f"{kind} {name!r}: nested more than {MAX_DEPTH} levels; not included")
            return None
        known = _MARKDOWN_ARGS if markdown else _ARGS
        for arg in dict.fromkeys(_ARG_NAME.findall(_QUOTED.sub('""', args))):
            if arg not in known:
                self.warn(f"{kind} {name!r}: argument {arg!r} ignored (the plugin has no such argument)")
        files = self._resolve(name, file_rel)
        if not files:
            return None
        start = _str_arg(args, "start") or opts.start
        end = _str_arg(args, "end") or opts.end
        start, end = (_escapes(start) if start else None), (_escapes(end) if end else None)
        recursive = self._bool(args, "recursive", opts.recursive)
        trailing = self._bool(args, "trailing-newlines", opts.trailing_newlines)
        dedent = self._bool(args, "dedent", opts.dedent)
        preserve = self._bool(args, "preserve-includer-indent", opts.preserve_includer_indent)
        rewrite = markdown and self._bool(args, "rewrite-relative-urls", opts.rewrite_relative_urls)
        comments = markdown and self._bool(args, "comments", opts.comments)
        offset = opts.heading_offset
        raw_offset = _word_arg(args, "heading-offset") if markdown else None
        if raw_offset:
            try:
                offset = max(-6, min(6, int(raw_offset)))
            except ValueError:
                self.warn(f"include-markdown: heading-offset={raw_offset!r} is not a number; ignored")
        parts: list[str] = []
        for rel in files:
            if rel in stack or rel == file_rel:
                self.warn(f"{kind} {rel} includes itself; not included again")
                continue
            if self.includes_left <= 0 or self.chars_left <= 0:
                self._stop(f"the page includes more than {MAX_INCLUDES} files or {MAX_OUTPUT_CHARS} characters")
                break
            self.includes_left -= 1
            try:
                body = read_include(self.root / rel, label=f"{kind} {name!r}", warnings=self.warnings)
            except OSError as err:
                self.warn(f"{kind} {name!r}: cannot read ({err})")
                continue
            self.chars_left -= len(body)
            if start or end:
                body = _between(body, start, end)
            if recursive:
                body = self.expand(body, file_rel=rel, depth=depth + 1, stack=(*stack, file_rel))
            if not trailing:
                body = body.rstrip("\r\n")
            if rewrite:
                body = rebase_links(body, from_rel=rel, to_rel=file_rel,
                                    exists=lambda target: (self.root / target).exists())
            # the indentation every line gets: 100,000 letters before the directive times a file's lines
            added = len(indent) * (body.count("\n") + 1 if preserve else 1)
            if added > self.chars_left:
                self._stop(f"{name!r} indented by {len(indent)} characters would pass {MAX_OUTPUT_CHARS}")
                break
            self.chars_left -= added
            parts.append(self._placed(body, indent, markdown=markdown, comments=comments, dedent=dedent,
                                      preserve=preserve, name=name))
        if not parts:
            return None
        text = "".join(parts)
        return _shift_headings(text, offset) if markdown and offset else text

    @staticmethod
    def _placed(body: str, indent: str, *, markdown: bool, comments: bool, dedent: bool, preserve: bool,
                name: str) -> str:
        if not markdown:  # include: every line gets the directive's indentation
            if dedent:
                body = textwrap.dedent(body)
            if preserve:
                return "".join(indent + line for line in (body.splitlines(keepends=True) or [""]))
            return indent + body
        if comments:
            body = f"{indent}<!-- BEGIN INCLUDE {name} -->\n{body}\n<!-- END INCLUDE -->"
        else:
            body = indent + body
        if dedent:
            body = textwrap.dedent(body)
        if preserve and body:
            lines = body.splitlines(keepends=True)
            filled = " " * len(indent)
            body = lines[0] + "".join(filled + line for line in lines[1:])
        return body

    def _resolve(self, name: str, file_rel: str) -> list[str]:
        """The files (relative to the root) ``name`` includes from ``file_rel``, as the
        plugin finds them; ``[]`` with a warning when none."""
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]+:", name):
            self.warn(f"include-markdown {name!r}: remote file, not fetched")
            return []
        if name.startswith("/"):
            self.warn(f"include-markdown {name!r}: absolute file system path, not read")
            return []
        base = str(PurePosixPath(file_rel).parent) if name.startswith(("./", "../")) else self.docs_dir
        res = checked_rel(self.root, f"{base}/{name}" if base not in ("", ".") else name)
        if res.rel_path and (self.root / res.rel_path).is_file():
            return [res.rel_path]
        if not any(ch in name for ch in "*?[{"):
            self.warn(f"include-markdown {name!r} not found (tried {res.rel_path or res.problem})")
            return []
        found = self._glob(base, name)
        if not found:
            self.warn(f"include-markdown {name!r}: no file matches")
        return found

    def _glob(self, base: str, pattern: str) -> list[str]:
        """Files under ``base`` matching the glob ``pattern`` as the plugin's wcmatch reads
        it (``{a,b}`` groups, ``**`` segments cross folders; leading ``./`` and ``../``
        from ``base``), sorted, bounded."""
        parts = pattern.split("/")
        while len(parts) > 1 and parts[0] in (".", ".."):
            if parts.pop(0) == "..":
                base = f"{base}/.." if base not in ("", ".") else ".."
        pattern = "/".join(parts)
        folder = checked_rel(self.root, base or ".")
        if folder.rel_path is None:
            return []
        top = self.root / folder.rel_path
        prefix = "" if folder.rel_path in ("", ".") else folder.rel_path + "/"
        matches: list[str] = []
        for path in _walk(top, _bounded=MAX_WALK_FILES):
            inner = path.relative_to(top).as_posix()
            if glob_match(inner, pattern, INCLUDE_MARKDOWN):
                matches.append(prefix + inner)
                if len(matches) >= MAX_GLOB_FILES:
                    self.warn(f"include-markdown {pattern!r}: more than {MAX_GLOB_FILES} files; "
                              "the first ones included")
                    break
        return sorted(matches)


def _walk(top: Path, *, _bounded: int) -> Iterator[Path]:
    """Files below ``top`` (no symlinked folders followed), at most ``_bounded``."""
    count = 0
    stack = [top]
    while stack and count < _bounded:
        folder = stack.pop()
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir() and not entry.is_symlink():
                stack.append(entry)
            elif entry.is_file():
                count += 1
                yield entry
                if count >= _bounded:
                    return


def expand_page(text: str, *, root: Path, docs_dir: str, page_rel: str, options: IncludeOptions,
                warnings: list[str]) -> str:
    """The page ``text`` (of ``page_rel``) with its include directives expanded."""
    return IncludeMarkdownExpander(root, docs_dir, options, warnings).expand(text, file_rel=page_rel)

