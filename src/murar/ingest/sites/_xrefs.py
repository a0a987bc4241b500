"""Cross-reference targets of a Sphinx project or Jupyter Book, for ``ref``/``numref``/``doc``/``eq``.

Sphinx shows a cross-reference by what it points to, across the whole
project (https://www.sphinx-doc.org/en/master/usage/referencing.html):

- ``:ref:`label``` (MyST ``{ref}`label```, ``[](#label)``): the title of the
  section the label stands before, or the caption of the figure (the title of
  the table, the caption of the code block) it names; labels are
  case-insensitive;
- ``:doc:`path``` (MyST ``{doc}``, ``[](page.md)``): the target document's
  title (its first section title), the path relative to the referring document
  unless it starts with ``/`` (the source directory);
- ``:numref:`label```: ``numfig_format`` for the target's kind (``"Fig. %s"``,
  ``"Table %s"``, ``"Listing %s"``, ``"Section %s"``) or the role's own title
  with ``%s``/``{number}`` replaced by the number and ``{name}`` by the title.
  With ``numfig`` on, Sphinx numbers the labelled figures (captioned tables and
  code blocks) of the whole project in table-of-contents order; mystmd
  (``myst.yml``) numbers them per page;
- ``:eq:`label``` (MyST ``{eq}``): the labelled equation's number, ``(1)``
  (``math_eqref_format``); equations are numbered per page, or over the
  project with ``numfig`` and ``math_numfig``.

:func:`scan_xrefs` reads the labels with line rules (a label line, then the
next title or directive), without parsing whole pages; it is run once per
site, lazily.
"""

from __future__ import annotations

import codecs
import json
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from murar.ingest.frontmatter import FrontMatterError, load_yaml_safely
from murar.ingest.paths import inside_root

__all__ = ["PROOF_TYPES", "XrefIndex", "XrefTarget", "block_lead", "read_capped", "scan_xrefs", "solution_lead",
           "toctree_docnames", "toctree_order"]

_MAX_FILE_BYTES = 2_000_000
_NUMFIG_FORMAT = {"figure": "Fig. %s", "table": "Table %s", "code-block": "Listing %s", "section": "Section %s",
                  "exercise": "Exercise %s"}  # sphinx-exercise's numfig_format
# mystmd's reference templates ("Cross-references": "Figure 1", "Table 1", "Program 1")
_MYSTMD_FORMAT = {"figure": "Figure %s", "table": "Table %s", "code-block": "Program %s", "section": "Section %s"}

_RST_LABEL = re.compile(r"^\.\.[ \t]+_(?:`([^`]+)`|([^:`][^:]*?)):[ \t]*$")
_RST_DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)\.\.[ \t]+(?P<name>[\w:.-]+)::[ \t]*(?P<arg>.*)$")
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+[ \t]*$")
_OPTION = re.compile(r"^[ \t]*:([\w-]+):[ \t]*(.*)$")
_DOLLAR_LABEL = re.compile(r"\$\$[ \t]*\(([^()\s]+)\)[ \t]*$")  # "$$ ... $$ (label)" (MyST dollarmath)
_MYST_LABEL = re.compile(r"^[ \t]{0,3}\(([^()\n]+)\)=[ \t]*$")
_MYST_HEADING = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+(.*)$")  # closing #s: _heading_text
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})[ \t]*(?P<info>.*)$")
_DIRECTIVE_INFO = re.compile(r"^\{(?P<name>[\w:.+-]+)\}[ \t]*(?P<arg>.*)$")
_FIGURES = {"figure": "figure", "figure-md": "figure", "table": "table", "list-table": "table",
            "csv-table": "table", "code-block": "code-block", "code": "code-block", "sourcecode": "code-block",
            "literalinclude": "code-block", "math": "equation"}
# sphinx-proof's enumerable prf:<type> directives (each type numbered on its own, sphinx_proof
# ``add_enumerable_node(node, type)``; its ``proof`` is not numbered) and sphinx-exercise's exercise:
# numbered like figures unless ``:nonumber:``, labelled by their ``:label:`` option
PROOF_TYPES = frozenset({"axiom", "theorem", "lemma", "definition", "remark", "conjecture", "corollary",
                          "algorithm", "criterion", "example", "property", "observation", "proposition",
                          "assumption", "notation"})
_ALWAYS_NUMBERED = frozenset({"exercise", *(f"prf:{t}" for t in PROOF_TYPES)})


def _numbered_block(name: str) -> str | None:
    """The kind of a sphinx-proof or sphinx-exercise directive ``name`` (``prf:theorem``,
    ``exercise``, the gated ``exercise-start``), None for any other."""
    if name in ("exercise", "exercise-start"):
        return "exercise"
    prefix, _, typ = name.partition(":")
    return f"prf:{typ}" if prefix == "prf" and typ in PROOF_TYPES else None



def block_lead(word: str, number: str, title: str) -> str:
    """The header of a sphinx-proof or sphinx-exercise block: ``word``, its number when it
    has one, its title in parentheses when it has one ("Theorem 2 (Pythagoras)", "Exercise")."""
    return f"{word} {number}".strip() + (f" ({title})" if title else "")


def solution_lead(xrefs: XrefIndex | None, label: str) -> str:
    """sphinx-exercise's header of a ``solution`` whose argument is ``label``: "Solution to
    Exercise 2 (Title)" for the exercise that label names (its number and title, as either
    it has), "Solution to Exercise" without a site or when no exercise has that label."""
    label = label.strip()
    tgt = xrefs.target(label) if xrefs is not None and label else None
    if tgt is None or tgt.kind != "exercise":
        return "Solution to Exercise"
    return block_lead("Solution to Exercise", tgt.number, tgt.title if tgt.title != "Exercise" else "")


_INLINE_MARKUP = re.compile(r"\{[\w:.+-]+\}`([^`]*)`|:[\w:.+-]+:`([^`]*)`|`([^`]*)`_{0,2}|\*\*?|\\(.)")


@dataclass(frozen=True, slots=True)
class XrefTarget:
    """What a label names: ``kind`` is ``section``, ``figure``, ``table``,
    ``code-block`` or ``equation``; ``title`` the section title or caption (``""``
    when none); ``number`` its number (``""`` when it has none)."""

    title: str
    kind: str
    docname: str
    number: str = ""


@dataclass(slots=True)
class XrefIndex:
    """Labels (lower case) -> targets and docnames -> titles of one project;
    ``numfig``, ``numfig_format`` and ``eqref_format`` as the project sets them;
    ``mystmd`` for a ``myst.yml`` project (its references read "Figure 1")."""

    labels: dict[str, XrefTarget] = field(default_factory=dict)
    doc_titles: dict[str, str] = field(default_factory=dict)
    numfig: bool = False
    numfig_format: dict[str, str] = field(default_factory=lambda: dict(_NUMFIG_FORMAT))
    mystmd: bool = False
    eqref_format: str = "({number})"
    # mystmd numbers every display formula of a page, labelled or not (myst.yml numbering.equation)
    number_all_equations: bool = False

    def eq_text(self, label: str) -> str:
        """What ``:eq:``/``{eq}`` shows for an equation label: ``math_eqref_format``
        filled (Sphinx's default ``({number})``), the label when unknown."""
        tgt = self.target(label)
        if tgt is None or tgt.kind != "equation" or not tgt.number:
            return label
        return _fill(self.eqref_format, tgt.number, label)

    def link_text(self, label: str, text: str) -> str | None:
        """What mystmd shows for a link ``[text](#label)``: an empty text is the
        target's "Figure 1" when it is numbered, else its title; ``%s``/``{number}``
        and ``{name}`` in a given text are filled. ``None`` when ``label`` is unknown
        (or, under myst-parser, for an empty text: the caller's rule applies)."""
        tgt = self.target(label)
        if tgt is None:
            return None
        if not text.strip():
            if tgt.kind == "equation" and tgt.number:
                return _fill(self.eqref_format, tgt.number, label)
            if self.mystmd and tgt.number:
                return _fill(self.numfig_format.get(tgt.kind, "%s"), tgt.number, tgt.title)
            return tgt.title or None
        if self.mystmd and re.search(r"%s|\{number\}|\{name\}", text):
            return _fill(text, tgt.number or "??", tgt.title or label)
        return text

    def target(self, label: str) -> XrefTarget | None:
        """The target of ``label`` (Sphinx's label normalisation: case and runs of spaces ignored)."""
        return self.labels.get(_norm(label))

    def doc_title(self, target: str, *, docname: str) -> str | None:
        """The title of the document ``target`` refers to from ``docname`` (both
        relative to the source directory, without suffix); ``None`` when unknown."""
        target = target.strip()
        if not target:
            return None
        if target.startswith("/"):
            path = target.lstrip("/")
        else:
            path = posixpath.join(posixpath.dirname(docname), target)
        path = posixpath.normpath(path)
        if path in self.doc_titles:
            return self.doc_titles[path]
        stem, dot, _ = path.rpartition(".")
        return self.doc_titles.get(stem) if dot else None

    def proof_ref_text(self, text: str) -> str:
        """What sphinx-proof's ``{prf:ref}`` shows for role text ``text``: an explicit
        title as written, else the target's type and number ("Theorem 2"; the type
        alone for a ``:nonumber:`` one, sphinx_proof ``ProofDomain.resolve_xref``); the
        label as written when no proof block defines it."""
        from murar.ingest.markup.roles import explicit_target

        explicit = explicit_target(text)
        if explicit and explicit[0]:
            return explicit[0]
        label = explicit[1] if explicit else text.strip()
        tgt = self.target(label)
        if tgt is None or not tgt.kind.startswith("prf:"):
            return label
        return f"{tgt.kind[4:].title()} {tgt.number}".strip()

    def block_number(self, docname: str, kind: str, n: int) -> str:
        """The number of the ``n``-th sphinx-proof (``kind`` ``prf:<type>``) or
        sphinx-exercise (``exercise``) block of its kind on the page ``docname``
        ("2.1"), ``""`` when it has none (``:nonumber:``, mystmd, unknown)."""
        tgt = self.labels.get(_norm(f"{docname}{_BLOCK}{kind}{_BLOCK}{n}"))
        return tgt.number if tgt is not None and tgt.kind == kind else ""

    def numref_text(self, label: str, template: str | None) -> str:
        """What ``:numref:`` shows for ``label`` with the role's own title ``template``
        (``None``: the ``numfig_format`` of the target's kind). A target without a
        number shows its title (Sphinx warns and cannot number it); an unknown
        label shows the template without its number, else the label."""
        tgt = self.target(label)
        if tgt is None:
            if template:
                return _fill(template, "", label).strip()
            return label
        fmt = template or self.numfig_format.get(tgt.kind, "%s")
        if not tgt.number:
            return tgt.title or (_fill(template, "", label).strip() if template else label)
        return _fill(fmt, tgt.number, tgt.title)


def _fill(template: str, number: str, name: str) -> str:
    out = template.replace("%s", number).replace("{number}", number).replace("{name}", name)
    return re.sub(r"\s{2,}", " ", out)


def _heading_text(text: str) -> str:
    """An ATX heading's text without its closing sequence (CommonMark: ``#``s after
    a space, or alone), in linear time (a regex for it backtracks on long runs of spaces)."""
    text = text.rstrip(" \t")
    bare = text.rstrip("#")
    return bare.rstrip(" \t") if bare != text and (not bare or bare[-1] in " \t") else text


def _norm(label: str) -> str:
    return " ".join(label.split()).lower()


def _plain_myst(text: str) -> str:
    """A MyST title reduced to its text as :func:`_plain` does, by Markdown's rules:
    ``$...$`` math is kept whole and a backslash escapes ASCII punctuation only
    (CommonMark), so ``$\\hat{y}$`` and ``\\word`` keep their backslashes."""
    parts = _MYST_MATH.split(text)
    out = [part if n % 2 else _markup_text(part, myst=True) for n, part in enumerate(parts)]
    return " ".join("".join(out).split())


_MYST_MATH = re.compile(r"(\$\$[^$]+\$\$|(?<!\\)\$[^$]+\$)")
_MD_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"


def _plain(text: str) -> str:
    """Inline rST/MyST markup of a title reduced to its text (roles to their content)."""
    return " ".join(_markup_text(text).split())


def _markup_text(text: str, *, myst: bool = False) -> str:
    """:func:`_plain` without folding white space. ``myst``: a backslash before other
    than ASCII punctuation is a backslash (CommonMark)."""
    def sub(m: re.Match[str]) -> str:
        if myst and m.lastindex == 4 and m.group(4) not in _MD_PUNCT:
            return "\\" + m.group(4)
        for g in m.groups():
            if g is not None:
                # 'text <target>': the text (rfind, not a regex: linear on long runs of spaces)
                k = g.rfind("<")
                head = g[:k].rstrip() if k > 0 and g.endswith(">") and ">" not in g[k + 1:-1] else ""
                return head or g
        return ""
    # Markdown links/images (no bracket inside the text, one level of parentheses in the target:
    # linear on runs of '[' or '[a](')
    text = re.sub(r"!?\[([^\[\]]*)\]\((?:[^()]|\([^()]*\))*\)", r"\1", text)
    return _INLINE_MARKUP.sub(sub, text)


_SUBST_DEF = re.compile(r"^\.\.[ \t]+\|([^|\n]+)\|[ \t]+(image|figure|replace)::[ \t]*(.*)$", re.MULTILINE)
_SUBST_REF = re.compile(r"\|([^|\s](?:[^|\n]*[^|\s])?)\|(?:__?)?")


def rst_substitutions(text: str) -> dict[str, str]:
    """The substitutions ``text`` defines (``.. |name| replace:: text``, ``.. |name| image::``)
    as the text they put in a title, by name: a replacement's text (one line), nothing
    for an image (Sphinx takes a title's text without image alts, ``clean_astext``)."""
    out: dict[str, str] = {}
    for m in _SUBST_DEF.finditer(text):
        out.setdefault(m.group(1).strip(), "" if m.group(2) != "replace" else _plain(m.group(3)))
    return out


def _substituted(title: str, subs: dict[str, str]) -> str:
    """``|name|`` references in a title replaced by what ``subs`` gives them (docutils
    matches a name exactly, then without regard to case); unknown ones stay."""
    if "|" not in title or not subs:
        return title
    lower = {k.lower(): v for k, v in subs.items()}

    def sub(m: re.Match[str]) -> str:
        name = m.group(1)
        found = subs.get(name, lower.get(name.lower()))
        return m.group(0) if found is None else found

    return _SUBST_REF.sub(sub, title)


# the label of a numbered target no label names (an unlabelled figure with a caption): counted, never shown
_UNLABELLED = "\x00"
# a proof or exercise block's own target, "\x01<kind>\x01<n>" (the page's n-th of its kind), stored
# under its document's name: the page reads its header's number by it
_BLOCK = "\x01"


@dataclass(slots=True)
class _Found:
    title: str | None = None
    labels: list[tuple[str, XrefTarget]] = field(default_factory=list)
    figures: list[tuple[str, str, str]] = field(default_factory=list)  # (label, kind, caption) in page order
    # (label, first label) of a target holding several ('.. _a:' over a figure with ':name: b'): one number
    aliases: list[tuple[str, str]] = field(default_factory=list)
    # the page's outline in order, for Sphinx's section and figure numbers under a numbered toctree:
    # ("sec", level, labels), ("toc", entries, numbered depth), ("fig", label, kind)
    events: list[tuple[str, object, object]] = field(default_factory=list)
    sections: list[tuple[int, str]] = field(default_factory=list)  # (level, title) in page order
    blocks: dict[str, int] = field(default_factory=dict)  # sphinx-proof/sphinx-exercise blocks seen, by kind

    def add_figure(self, names: list[str], kind: str, caption: str) -> bool:
        """Record a figure-like target (a figure, table, code block or equation; ``kind`` as
        in ``_FIGURES``) that ``names`` label (the first is its own, the rest aliases of it):
        each name refers to ``caption``; the target goes into the page's numbered figures
        when it is labelled and a figure, an equation or captioned. Returns whether it went
        in; what happens to the others is the caller's (reST and MyST pages differ)."""
        for label in names:
            self.labels.append((label, XrefTarget(caption, kind, "")))
        if not names or not (kind in ("figure", "equation") or caption):
            return False
        self.figures.append((names[0], kind, caption))
        self.aliases.extend((n, names[0]) for n in names[1:])
        self.events.append(("fig", names[0] if caption or kind == "equation" else "", kind))
        return True


def _rst_figure_body(lines: list[str], start: int, indent: int) -> tuple[dict[str, str], str, int]:
    """Options and first body paragraph of a directive whose block starts at ``start``."""
    options: dict[str, str] = {}
    i = start
    body: list[str] = []
    while i < len(lines):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        m = _OPTION.match(line)
        if m and not body and line.strip():
            options[m.group(1)] = m.group(2).strip()
        elif line.strip():
            body.append(line.strip())
        elif body:
            break
        i += 1
    return options, " ".join(body), i


def _scan_rst(text: str, substitutions: dict[str, str] | None = None) -> _Found:
    found = _Found()
    subs = {**(substitutions or {}), **rst_substitutions(text)}
    lines = text.splitlines()
    pending: list[str] = []
    styles: dict[tuple[str, bool], int] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        toc = _TOCTREE_RST.match(line)
        if toc:
            indent = len(toc.group("indent"))
            end = next((k for k in range(i + 1, len(lines))
                        if lines[k].strip() and len(lines[k]) - len(lines[k].lstrip()) <= indent), len(lines))
            block = lines[i:end]
            found.events.append(("toc", tuple(_toctree_entries("\n".join(block))), _numbered_depth(block)))
            pending = []
            i = end
            continue
        m = _RST_LABEL.match(line)
        if m:
            pending.append(m.group(1) or m.group(2))
            i += 1
            continue
        title = None
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if (line.strip() and not line[0].isspace() and _RST_ADORNMENT.match(nxt)
                and len(nxt.rstrip()) >= len(line.rstrip()) - 1 and not _RST_ADORNMENT.match(line)):
            title, step, style = line.strip(), 2, (nxt.strip()[0], False)
        elif (_RST_ADORNMENT.match(line) and i + 2 < len(lines) and nxt.strip()
              and _RST_ADORNMENT.match(lines[i + 2]) and lines[i + 2].strip()[0] == line.strip()[0]):
            title, step, style = nxt.strip(), 3, (line.strip()[0], True)
        if title is not None:
            title = " ".join(_plain(_substituted(title, subs)).split())
            if found.title is None:
                found.title = title
            # docutils: a title's level is the order in which its adornment style first appears
            level = styles.setdefault(style, len(styles) + 1)
            found.events.append(("sec", level, tuple(pending)))
            found.sections.append((level, title))
            for label in pending:
                found.labels.append((label, XrefTarget(title, "section", "")))
            pending = []
            i += step
            continue
        d = _RST_DIRECTIVE.match(line)
        numbered = _numbered_block(d.group("name").lower()) if d else None
        if d and numbered:
            options, _, _ = _rst_figure_body(lines, i + 1, len(d.group("indent")))
            _add_numbered_block(found, numbered, _plain(d.group("arg").strip()), options)
            pending = []
            i += 1  # its body is scanned on: figures and targets in it count as the page's
            continue
        if d and d.group("name").lower() in _FIGURES:
            kind = _FIGURES[d.group("name").lower()]
            indent = len(d.group("indent"))
            options, body, end = _rst_figure_body(lines, i + 1, indent)
            caption = body if kind == "figure" else (options.get("caption") if kind == "code-block"
                                                      else "" if kind == "equation" else d.group("arg").strip())
            caption = _plain(caption or "")
            names = [*pending, *[options[k] for k in ("name", "label") if options.get(k)]]
            if not found.add_figure(names, kind, caption) and caption and kind != "equation":
                # numbered too, so it counts before the labelled ones after it
                found.figures.append(("", kind, caption))
                found.events.append(("fig", _UNLABELLED, kind))
            pending = []
            i = max(end, i + 1)
            continue
        if line.strip() and not line.lstrip().startswith(".. "):
            pending = []
        i += 1
    return found


def _scan_myst(text: str) -> _Found:
    found = _Found()
    lines = text.splitlines()
    start = 0
    if lines and lines[0].strip() == "---":  # front matter
        end = next((k for k in range(1, len(lines)) if lines[k].strip() in ("---", "...")), None)
        if end is not None:
            start = end + 1
    _scan_myst_lines(lines[start:], found, depth=0)
    return found


def _scan_myst_lines(lines: list[str], found: _Found, *, depth: int) -> None:
    pending: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _MYST_LABEL.match(line)
        if m:
            pending.append(m.group(1).strip())
            i += 1
            continue
        if line.lstrip().startswith("$$"):  # a display formula: numbered by mystmd even without a label
            rest = line.lstrip()[2:]
            end = i if "$$" in rest else next((k for k in range(i + 1, len(lines)) if "$$" in lines[k]), i)
            if not _DOLLAR_LABEL.search(lines[end]):
                found.figures.append(("", "equation", ""))
                pending = []
                i = end + 1
                continue
            line = lines[end]
            i = end
        eq = _DOLLAR_LABEL.search(line) if "$$" in line else None
        if eq:
            found.labels.append((eq.group(1), XrefTarget("", "equation", "")))
            found.figures.append((eq.group(1), "equation", ""))
            found.events.append(("fig", eq.group(1), "equation"))
            pending = []
            i += 1
            continue
        h = _MYST_HEADING.match(line)
        if h:
            title = _plain_myst(_heading_text(h.group(2)))
            if found.title is None:
                found.title = title
            found.events.append(("sec", len(h.group(1)), tuple(pending)))
            found.sections.append((len(h.group(1)), title))
            for label in pending:
                found.labels.append((label, XrefTarget(title, "section", "")))
            pending = []
            i += 1
            continue
        f = _FENCE.match(line)
        if f:
            fence = f.group("fence")
            close = re.compile(r"^[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$")
            end = next((k for k in range(i + 1, len(lines)) if close.match(lines[k])), len(lines))
            d = _DIRECTIVE_INFO.match(f.group("info").strip())
            name = d.group("name").lower() if d else ""
            if d and name in _FIGURES:
                kind = _FIGURES[name]
                options, caption = _myst_directive_body(lines[i + 1:end], kind, d.group("arg").strip())
                names = [*pending, *[options[k] for k in ("name", "label") if options.get(k)]]  # label: mystmd
                if name == "figure-md" and d.group("arg").strip():
                    names.append(d.group("arg").strip())
                if not found.add_figure(names, kind, caption) and not names:
                    # mystmd numbers unlabelled figures, tables and formulas too
                    found.figures.append(("", kind, caption))
                    if caption and kind != "equation":  # and Sphinx those with a caption
                        found.events.append(("fig", _UNLABELLED, kind))
            elif name == "toctree":
                body = lines[i:end + 1]
                found.events.append(("toc", tuple(_toctree_entries("\n".join(body))), _numbered_depth(body)))
            elif d and depth < 20:  # admonitions, tabs...: their body holds headings and figures too
                body = lines[i + 1:end]
                block = _numbered_block(name)
                if block:
                    options, _ = _myst_directive_body(body, "", "")
                    _add_numbered_block(found, block, _plain_myst(d.group("arg").strip()), options)
                if name == "eval-rst":
                    inner = _scan_rst("\n".join(body))
                    found.labels.extend(inner.labels)
                    found.figures.extend(inner.figures)
                    found.events.extend(e for e in inner.events if e[0] != "sec")
                else:
                    _scan_myst_lines(body, found, depth=depth + 1)
            pending = []
            i = end + 1
            continue
        if line.strip():
            pending = []
        i += 1


def _add_numbered_block(found: _Found, kind: str, title: str, options: dict[str, str]) -> None:
    """Record a sphinx-proof (``kind`` ``prf:<type>``) or sphinx-exercise (``exercise``)
    block: numbered per kind unless ``:nonumber:`` (labelled or not: both extensions give
    every block an id), its ``:label:`` a target whose title is the block's title (an
    exercise without one reads "Exercise", sphinx-exercise "Referencing Exercises")."""
    label = options.get("label", "").strip()
    if kind == "exercise" and not title:
        title = "Exercise"
    if "hidden" in options:  # sphinx-exercise leaves a :hidden: exercise out of the page
        return
    # the block's place among the page's blocks of its kind: what the page's own header reads
    # its number by (XrefIndex.block_number), labelled or not
    found.blocks[kind] = found.blocks.get(kind, 0) + 1
    own = f"{_BLOCK}{kind}{_BLOCK}{found.blocks[kind]}"
    found.labels.append((own, XrefTarget(title, kind, "")))
    if label:
        found.labels.append((label, XrefTarget(title, kind, "")))
    if "nonumber" in options:
        return
    found.figures.append((own, kind, title))
    found.events.append(("fig", own, kind))
    if label:
        found.aliases.append((label, own))


def _myst_directive_body(body: list[str], kind: str, arg: str) -> tuple[dict[str, str], str]:
    # the page parser's own reading of option values (imported here: myst imports this module)
    from murar.ingest.markup.myst import option_value

    options: dict[str, str] = {}
    k = 0
    if body and body[0].strip() == "---":
        end = next((j for j in range(1, len(body)) if body[j].strip() == "---"), None)
        if end is not None:
            try:
                data = load_yaml_safely("\n".join(body[1:end]), unknown_tags="null")
            except FrontMatterError:
                data = None
            if isinstance(data, dict):
                options = {str(a): str(b) for a, b in data.items() if isinstance(b, (str, int, float))}
            k = end + 1
    else:
        while k < len(body) and _OPTION.match(body[k]):
            om = _OPTION.match(body[k])
            assert om is not None
            options[om.group(1)] = option_value(om.group(2)).strip()
            k += 1
    rest = [ln.strip() for ln in body[k:]]
    if kind == "figure":
        caption_lines: list[str] = []
        for ln in rest:
            if re.match(r"^(!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>)$", ln, re.IGNORECASE):
                continue
            if not ln and caption_lines:
                break
            if ln:
                caption_lines.append(ln)
        return options, _plain_myst(" ".join(caption_lines))
    if kind == "code-block":
        return options, _plain_myst(options.get("caption", ""))
    if kind == "equation":
        return options, ""
    return options, _plain_myst(arg)


def _numbered_depth(block: list[str]) -> int:
    """The ``numbered`` option of a toctree block: its depth, 999 when given without one
    (Sphinx: all levels), 0 when absent or false."""
    for line in block[1:]:
        m = re.match(r"^[ \t]*:?numbered:?[ \t]*(.*?)[ \t]*$", line)
        if m and (line.lstrip().startswith(":") or re.match(r"^[ \t]*numbered:", line)):
            value = m.group(1).strip().lower()
            if value in ("", "true", "yes", "on"):
                return 999
            return int(value) if value.isdigit() else 0
    return 0


def _doc_entry(docname: str, entry: str) -> str:
    """A toctree entry of ``docname`` as a docname (relative to the document, ``/`` the source dir)."""
    path = entry.lstrip("/") if entry.startswith("/") else posixpath.join(posixpath.dirname(docname), entry)
    path = posixpath.normpath(path)
    stem, dot, ext = path.rpartition(".")
    return stem if dot and ext in ("rst", "md", "ipynb", "txt") else path


def _outline(events: list[tuple[str, object, object]]) -> list[tuple[object, ...]]:
    """The events of one page nested by section level (``("sec", index, labels, children)``)."""
    top: list[tuple[object, ...]] = []
    stack: list[tuple[int, list[tuple[object, ...]]]] = [(0, top)]
    for n, (kind, a, b) in enumerate(events):
        if kind == "sec":
            level = int(a)  # type: ignore[call-overload]
            while len(stack) > 1 and stack[-1][0] >= level:
                stack.pop()
            children: list[tuple[object, ...]] = []
            stack[-1][1].append(("sec", n, b, children))
            stack.append((level, children))
        else:
            stack[-1][1].append((kind, a, b))
    return top


def _sphinx_numbers(per_doc: dict[str, _Found], root_doc: str, *, secnum_depth: int,
                    kinds: frozenset[str],
                    inserted: dict[str, list[tuple[tuple[str, ...], int]]] | None = None,
                    continuous: bool = False) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """Sphinx's numbers under a numbered toctree: ``(figures, sections)``, each
    docname -> label -> number ("3.2").

    Section numbers (``assign_section_numbers``): every document a toctree with
    ``:numbered:`` lists (and the ones its documents' toctrees list, in place
    among their sections) is numbered in order, its title ``n``, its sections
    ``n.1``..., up to the ``numbered`` depth. Figure numbers
    (``assign_figure_numbers``): the documents are walked from ``root_doc``,
    toctree entries where the toctree stands; a figure of a kind in ``kinds`` is
    counted under the first ``numfig_secnum_depth`` parts of its section's number
    (``0``: one count over the project) and numbered by that prefix and count.

    ``inserted`` toctrees (Jupyter Book's ``_toc.yml``) end their document's last top-level
    section, where sphinx-external-toc appends them; ``continuous`` numbers the chapters
    of every numbered toctree on from the last one (sphinx-multitoc-numbering) instead of
    from 1.
    """
    trees = {doc: _outline(found.events) for doc, found in per_doc.items()}
    for doc, added in (inserted or {}).items():
        tree = trees.get(doc)
        if tree is None:
            continue
        last_top = next((item for item in reversed(tree) if item[0] == "sec"), None)
        place = last_top[3] if last_top is not None else tree
        assert isinstance(place, list)
        place.extend(("toc", entries, depth) for entries, depth in added)
    secnums: dict[str, dict[int, tuple[int, ...]]] = {}
    assigned: set[str] = set()
    numstack: list[int] = [0]

    def walk_items(doc: str, items: list[tuple[object, ...]], depth: int) -> None:
        for item in items:
            if item[0] == "sec":
                numstack[-1] += 1
                if depth > 0:
                    secnums.setdefault(doc, {})[int(item[1])] = tuple(numstack)  # type: ignore[call-overload]
                children = item[3]
                assert isinstance(children, list)
                if children:
                    numstack.append(0)
                    walk_items(doc, children, depth - 1)
                    numstack.pop()
            elif item[0] == "toc":
                walk_toctree(doc, item[1], depth)  # type: ignore[arg-type]

    def walk_toctree(doc: str, entries: tuple[str, ...], depth: int) -> None:
        if depth <= 0:
            return
        for entry in entries:
            ref = _doc_entry(doc, entry)
            if ref in assigned or ref not in trees:
                continue
            assigned.add(ref)
            walk_items(ref, trees[ref], depth)

    def numbered_tocs(items: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
        out: list[tuple[object, ...]] = []
        for item in items:
            if item[0] == "toc" and int(item[2]) > 0:  # type: ignore[call-overload]
                out.append(item)
            elif item[0] == "sec":
                out.extend(numbered_tocs(item[3]))  # type: ignore[arg-type]
        return out

    for doc in [root_doc, *sorted(trees)]:  # documents with a numbered toctree, each toctree numbered anew
        tocs = numbered_tocs(trees.get(doc, []))
        if tocs:
            assigned.add(doc)
        for toc in tocs:
            numstack[:] = [numstack[0] if continuous else 0]
            walk_toctree(doc, toc[1], int(toc[2]))  # type: ignore[arg-type, call-overload]

    figures: dict[str, dict[str, str]] = {}
    counters: dict[tuple[str, tuple[int, ...]], int] = {}
    walked: set[str] = set()

    def walk_doc(doc: str, secnum: tuple[int, ...]) -> None:
        if doc in walked or doc not in trees:
            return
        walked.add(doc)
        walk_tree(doc, trees[doc], secnum)

    def walk_tree(doc: str, items: list[tuple[object, ...]], secnum: tuple[int, ...]) -> None:
        for item in items:
            if item[0] == "sec":
                walk_tree(doc, item[3], secnums.get(doc, {}).get(int(item[1])) or secnum)  # type: ignore[arg-type, call-overload]
            elif item[0] == "toc":
                for entry in item[1]:  # type: ignore[attr-defined]
                    walk_doc(_doc_entry(doc, entry), secnum)
            elif item[1] and item[2] in kinds:
                prefix = secnum[:secnum_depth]
                key = (str(item[2]), prefix)
                counters[key] = counters.get(key, 0) + 1
                if item[1] != _UNLABELLED:
                    figures.setdefault(doc, {}).setdefault(str(item[1]), ".".join(map(str, (*prefix, counters[key]))))

    walk_doc(root_doc, ())
    sections = {doc: {label: ".".join(map(str, nums[int(item[1])]))  # type: ignore[call-overload]
                      for item in _flat_sections(trees[doc]) if int(item[1]) in nums  # type: ignore[call-overload]
                      for label in item[2]}  # type: ignore[attr-defined]
                for doc, nums in secnums.items()}
    return figures, sections


def _flat_sections(items: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for item in items:
        if item[0] == "sec":
            out.append(item)
            out.extend(_flat_sections(item[3]))  # type: ignore[arg-type]
    return out


def _notebook_markdown(text: str) -> str:
    try:
        nb = json.loads(text)
    except ValueError:
        return ""
    cells = nb.get("cells") if isinstance(nb, dict) else None
    out: list[str] = []
    for cell in cells if isinstance(cells, list) else ():
        if isinstance(cell, dict) and cell.get("cell_type") == "markdown":
            src = cell.get("source")
            out.append("".join(src) if isinstance(src, list) else str(src or ""))
    return "\n\n".join(out)


def read_capped(root: Path, rel: str) -> str | None:
    """The text of the source file ``rel`` (relative to ``root``): its first
    2,000,000 bytes as UTF-8 (errors replaced), or as UTF-16 when they start with its
    byte-order mark (as the page itself is read: builder.read_source); ``None`` when it
    cannot be read or its real path (symlinks followed) is outside ``root``."""
    try:
        if inside_root(root / rel, root.resolve()).rel_path is None:
            return None
        with (root / rel).open("rb") as fh:
            data = fh.read(_MAX_FILE_BYTES)
    except OSError:
        return None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and not data.startswith(codecs.BOM_UTF32_LE):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8", errors="replace")


def scan_xrefs(root: Path, files: Iterable[tuple[str, str]], *, order: Iterable[str] = (), numfig: bool = False,
               numfig_format: dict[str, str] | None = None, per_page_numbers: bool = False,
               math_numfig: bool = True, eqref_format: str | None = None,
               secnum_depth: int = 1, heading_depths: frozenset[int] = frozenset(),
               mystmd_kinds: frozenset[str] = frozenset({"figure", "table", "equation"}),
               inserted_tocs: dict[str, list[tuple[tuple[str, ...], int]]] | None = None,
               continuous_numbers: bool = False, substitutions: dict[str, str] | None = None,
               section_labels: tuple[bool, int | None] | None = None) -> XrefIndex:
    """Collect the labels and document titles of ``files``: ``(rel, docname)``
    pairs (``rel`` relative to ``root``, ``docname`` relative to the source
    directory without suffix). Figures, captioned tables and code blocks with a
    label are numbered per kind when ``numfig``: over the whole project in
    ``order`` (docnames; the others follow in name order), or from 1 on every
    page when ``per_page_numbers`` (mystmd, whose references also read "Figure 1"
    and fill link texts, :meth:`XrefIndex.link_text`). The first definition of a label
    wins, as Sphinx keeps it ("duplicate label" warning). Labelled equations
    (``$$ ... $$ (label)``, ``math`` with ``:label:``) are always numbered: over
    the project under ``numfig`` and ``math_numfig``, else per page, and read
    ``eqref_format`` (Sphinx's ``math_eqref_format``, default ``({number})``). Unreadable files are
    skipped. ``inserted_tocs`` are toctrees a TOC file puts at the end of documents
    (Jupyter Book 1's ``_toc.yml``, with their ``numbered`` depth) and
    ``continuous_numbers`` continues chapter numbers over numbered toctrees
    (sphinx-multitoc-numbering), both for :func:`_sphinx_numbers`. ``substitutions``
    are the project-wide ones (Sphinx's ``|version|``, ``rst_prolog``'s definitions)
    that rST titles may use, by name (:func:`rst_substitutions`).
    ``section_labels`` is ``(prefix_document, maxdepth)`` under sphinx.ext.autosectionlabel:
    every section title down to ``maxdepth`` (None: all) is also a label, written
    ``docname:Title`` with the prefix, after the explicit labels (which win). Returns the
    :class:`XrefIndex`.
    """
    index = XrefIndex(numfig=numfig, mystmd=per_page_numbers,
                      number_all_equations=per_page_numbers and "equation" in mystmd_kinds)
    if eqref_format:
        index.eqref_format = eqref_format
    if per_page_numbers:
        index.numfig_format.update(_MYSTMD_FORMAT)
    if numfig_format:
        index.numfig_format.update({k: v for k, v in numfig_format.items() if isinstance(v, str)})
    per_doc: dict[str, _Found] = {}
    for rel, docname in files:
        text = read_capped(root, rel)
        if text is None:
            continue
        suffix = posixpath.splitext(rel)[1].lower()
        if suffix == ".ipynb":
            found = _scan_myst(_notebook_markdown(text))
        elif suffix == ".rst" or suffix == ".txt":
            found = _scan_rst(text, substitutions)
        else:
            found = _scan_myst(text)
            fm = _front_matter_title(text)
            if fm and per_page_numbers:  # mystmd: the front matter title is the page title
                found.title = fm
            elif per_page_numbers and found.events and found.events[0][:2] == ("sec", 1):
                found.events[0] = ("title", 1, found.events[0][2])  # mystmd lifts a first "# Title" out
        per_doc.setdefault(docname, found)
    listed = [d for d in dict.fromkeys(order) if d in per_doc]
    docs = listed + sorted(set(per_doc) - set(listed))
    counters: dict[str, int] = {}
    # equations are always numbered: over the project like figures under numfig (math_numfig),
    # else from 1 on every page
    eq_global = numfig and math_numfig and not per_page_numbers
    # a numbered toctree: Sphinx prefixes figure numbers with the section number (numfig_secnum_depth)
    sphinx_figs: dict[str, dict[str, str]] = {}
    sphinx_secs: dict[str, dict[str, str]] = {}
    inserted_tocs = inserted_tocs or {}
    if numfig and not per_page_numbers and listed and (any(
            e[0] == "toc" and int(e[2]) > 0 for f in per_doc.values() for e in f.events)  # type: ignore[call-overload]
            or any(depth > 0 for tocs in inserted_tocs.values() for _, depth in tocs)):
        kinds = frozenset({"figure", "table", "code-block", *_ALWAYS_NUMBERED}
                          | ({"equation"} if eq_global else set()))
        sphinx_figs, sphinx_secs = _sphinx_numbers(per_doc, listed[0], secnum_depth=secnum_depth, kinds=kinds,
                                                   inserted=inserted_tocs, continuous=continuous_numbers)
    for docname in docs:
        found = per_doc[docname]
        if found.title:
            index.doc_titles[docname] = found.title
        if per_page_numbers:
            counters = {}
        if not eq_global:
            counters.pop("equation", None)
        numbers: dict[str, str] = {}
        for label, kind, caption in found.figures:
            if per_page_numbers and kind not in mystmd_kinds:
                continue  # mystmd numbers figures, tables and equations unless myst.yml numbering says otherwise
            if not per_page_numbers and (not label if kind == "equation" else not caption
                                         and kind not in _ALWAYS_NUMBERED):
                continue  # Sphinx numbers a figure, table or code block with a caption (labelled or not), no other
            counters[kind] = counters.get(kind, 0) + 1
            if label:
                numbers[label] = str(counters[kind])
        if per_page_numbers and heading_depths:
            numbers.update(_mystmd_heading_numbers(found, heading_depths))
        if sphinx_figs or sphinx_secs:  # Sphinx's own walk numbered what it reaches
            numbers = {label: n for label, n in numbers.items() if _kind_of(found, label) == "equation"
                       and not eq_global}
            numbers.update(sphinx_figs.get(docname, {}))
            numbers.update(sphinx_secs.get(docname, {}))
        for alias, first in found.aliases:  # Sphinx numbers the node, whichever of its ids a numref names
            if first in numbers:
                numbers.setdefault(alias, numbers[first])
        for label, tgt in found.labels:
            key = _norm(docname + label if label[:1] == _BLOCK else label)
            if key not in index.labels:
                # sphinx-proof and sphinx-exercise turn numfig on themselves
                number = numbers.get(label, "") if numfig or tgt.kind == "equation" or (
                    tgt.kind in _ALWAYS_NUMBERED) else ""
                index.labels[key] = XrefTarget(tgt.title, tgt.kind, docname, number)
    if section_labels is not None:  # sphinx.ext.autosectionlabel: titles are labels too
        prefix, maxdepth = section_labels
        for docname in docs:
            for level, title in per_doc[docname].sections:
                if title and (maxdepth is None or level <= maxdepth):
                    index.labels.setdefault(_norm(f"{docname}:{title}" if prefix else title),
                                            XrefTarget(title, "section", docname, ""))
    return index


def _mystmd_heading_numbers(found: _Found, depths: frozenset[int]) -> dict[str, str]:
    """mystmd's heading numbers on one page (``numbering: headings``; myst-transforms
    ``enumerate``): a count per heading depth the page uses, a heading's number its
    counts down to its depth ("2.1"; depths the page skips left out, trailing zeros
    dropped); the title lifted from a first ``# Title`` is not a heading. Returns
    label -> number for the labelled headings."""
    levels = sorted({int(e[1]) for e in found.events if e[0] == "sec"})  # type: ignore[call-overload]
    counts = {level: 0 for level in levels}
    out: dict[str, str] = {}
    for kind, level, labels in found.events:
        if kind != "sec" or int(level) not in depths:  # type: ignore[call-overload]
            continue
        for other in levels:
            if other == level:
                counts[other] += 1
            elif other > int(level):  # type: ignore[call-overload]
                counts[other] = 0
        nums = [counts[other] for other in levels]
        while nums and nums[-1] == 0:
            nums.pop()
        for label in labels:  # type: ignore[attr-defined]
            out[str(label)] = ".".join(map(str, nums))
    return out


def _kind_of(found: _Found, label: str) -> str:
    return next((kind for lab, kind, _ in found.figures if lab == label), "")


def _front_matter_title(text: str) -> str | None:
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    if end < 0:
        return None
    try:
        data = load_yaml_safely(text[3:end])
    except FrontMatterError:
        return None
    title = data.get("title") if isinstance(data, dict) else None
    return title.strip() if isinstance(title, str) and title.strip() else None


_TOCTREE_RST = re.compile(r"^(?P<indent>[ \t]*)\.\.[ \t]+toctree::")
_TOCTREE_MYST = re.compile(r"^[ \t]*(`{3,}|:{3,})[ \t]*\{toctree\}")


def _toctree_entries(text: str) -> list[str]:
    """Document entries of the ``toctree`` directives of one source (``title <doc>``
    gives ``doc``; options, globs and URLs left out)."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        rst = _TOCTREE_RST.match(lines[i])
        myst = _TOCTREE_MYST.match(lines[i]) if not rst else None
        if not rst and not myst:
            i += 1
            continue
        i += 1
        while i < len(lines):
            line = lines[i]
            if myst and re.match(r"^[ \t]*" + re.escape(myst.group(1)) + r"[ \t]*$", line):
                break
            if rst and line.strip() and len(line) - len(line.lstrip()) <= len(rst.group("indent")):
                break
            entry = line.strip()
            if entry and not entry.startswith(":") and entry != "---" and not re.match(r"^[\w-]+:\s", entry):
                m = re.match(r"^.*<([^<>]+)>$", entry)
                target = (m.group(1) if m else entry).strip()
                if "*" not in target and "://" not in target and target != "self":
                    out.append(target)
            i += 1
    return out


def toctree_docnames(text: str, docname: str) -> list[str]:
    """The documents the ``toctree`` directives of ``text`` (the source of ``docname``)
    list, as docnames in order: an entry is relative to the document, a leading ``/``
    is the source directory, and a written suffix (``.rst``, ``.md``, ``.ipynb``,
    ``.txt``) is dropped (Sphinx's ``TocTree.parse_content``); globs, URLs and ``self``
    are left out."""
    return [_doc_entry(docname, entry) for entry in _toctree_entries(text)]


def toctree_order(read: Callable[[str], str | None], root_doc: str, *, limit: int = 10_000) -> list[str]:
    """Docnames in the order Sphinx walks the ``toctree`` directives from ``root_doc``
    (depth first, each document once); ``read(docname)`` gives a document's source."""
    order: list[str] = []
    seen: set[str] = set()
    stack = [root_doc]
    while stack and len(order) < limit:
        doc = stack.pop()
        if doc in seen:
            continue
        seen.add(doc)
        text = read(doc)
        if text is None:
            continue
        order.append(doc)
        stack.extend(reversed(toctree_docnames(text, doc)))
    return order
