"""Sphinx autodoc and sphinx-automodapi, read statically: the reST a directive puts in the page.

``sphinx.ext.autodoc`` (https://www.sphinx-doc.org/en/master/usage/extensions/autodoc.html)
imports a module and inserts its docstrings into the document, where the directive
stands, as reStructuredText: ``.. automodule:: pkg.mod`` gives the module's
docstring, ``.. autoclass:: pkg.mod.Cls`` the class signature and docstring, and
``:members:`` (or ``autodoc_default_options``) adds the documented public members
(``__all__`` when the module defines it; ``:undoc-members:``, ``:private-members:``,
``:special-members:``, ``:exclude-members:``), ordered by ``autodoc_member_order``
(``alphabetical`` by default, ``bysource``, ``groupwise``). A docstring is reST of
the page: its figures resolve against the page, and its section titles are titles
of the page (autodoc parses it with titles allowed). With ``sphinx.ext.napoleon`` or
``numpydoc``, a NumPy-style section header (``Parameters`` over dashes) is a rubric,
not a title.

sphinx-automodapi's ``.. automodapi:: pkg.mod``
(https://sphinx-automodapi.readthedocs.io/en/latest/automodapi.html) writes a
``pkg.mod Module`` heading (``:no-heading:`` leaves it out; ``:headings:`` gives the
underline characters, ``-^`` by default), the module docstring
(``:no-main-docstr:`` leaves it out), then "Functions" and "Classes" headings over
autosummary tables of each public name (``__all__`` when defined; ``:skip:``,
``:include:``, ``:functions-only:``, ``:classes-only:``) with the first sentence of
its docstring.

murar never imports the code: the module's source is parsed with :mod:`ast`
(:mod:`murar.ingest.markup.pyapi`), so members are what the source defines. The
output is reST text for the caller to parse where the directive stood. Bounded:
:data:`MAX_MEMBERS` members per object, two levels (module, class).
"""

from __future__ import annotations

import ast
import inspect
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["AUTODOC_ALIASES", "AUTODOC_DIRECTIVES", "AutodocConfig", "autodoc_rst", "autosummary_rst", "autosummary_summary"]

MAX_MEMBERS = 300
#: documenters other extensions register under their own directive name, as the autodoc directive
#: they render like: autodoc-traits' ``autoconfigurable`` (a ClassDocumenter, "directivetype class")
#: and ``autotrait`` (an AttributeDocumenter)
AUTODOC_ALIASES = {"autoconfigurable": "autoclass", "autotrait": "autoattribute"}
AUTODOC_DIRECTIVES = frozenset({
    "automodule", "autoclass", "autoexception", "autofunction", "automethod", "autoattribute", "autodata",
    "autoproperty", "autodecorator", "automodapi", *AUTODOC_ALIASES,
})
# sphinx.ext.autodoc documenters' member_order (the "groupwise" order)
_GROUP = {"exception": 10, "class": 20, "function": 30, "data": 40, "method": 50, "property": 60, "attribute": 60}
# section headers of NumPy-style docstrings (numpydoc, sphinx.ext.napoleon)
_NUMPY_SECTIONS = frozenset({
    "parameters", "other parameters", "returns", "yields", "receives", "raises", "warns", "warnings",
    "see also", "notes", "references", "examples", "attributes", "methods", "keyword arguments",
    "keyword args", "example", "note", "warning", "todo", "args", "arguments", "return", "yield",
})
_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@dataclass(frozen=True, slots=True)
class AutodocConfig:
    """The conf.py settings autodoc output depends on: ``autodoc_default_options``,
    ``autodoc_member_order``, ``autoclass_content`` (``class``, ``init``, ``both``),
    ``add_module_names``, whether NumPy-style sections are rubrics (napoleon or
    numpydoc in ``extensions``), whether Google-style ones are read as napoleon
    renders them and whether NumPy-style fields (``name : type`` over an indented
    description) are (napoleon with ``napoleon_numpy_docstring``, its default)."""

    default_options: dict[str, Any] = field(default_factory=dict)
    member_order: str = "alphabetical"
    class_content: str = "class"
    add_module_names: bool = True
    numpy_sections: bool = False
    google_sections: bool = False
    numpy_fields: bool = False

    @classmethod
    def from_values(cls, values: dict[str, Any], extensions: Sequence[str]) -> AutodocConfig:
        defaults = values.get("autodoc_default_options")
        order = values.get("autodoc_member_order")
        content = values.get("autoclass_content")
        return cls(
            default_options={str(k): v for k, v in defaults.items()} if isinstance(defaults, dict) else {},
            member_order=order if order in ("alphabetical", "bysource", "groupwise") else "alphabetical",
            class_content=content if content in ("class", "init", "both") else "class",
            add_module_names=values.get("add_module_names", True) is not False,
            numpy_sections=any(e in ("sphinx.ext.napoleon", "numpydoc") for e in extensions),
            google_sections="sphinx.ext.napoleon" in extensions,
            numpy_fields=("sphinx.ext.napoleon" in extensions
                          and values.get("napoleon_numpy_docstring", True) is not False),
        )


def _kind(node: ast.AST, in_class: bool) -> str:
    if isinstance(node, ast.ClassDef):
        bases = {ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases}
        return "exception" if any(b.endswith(("Error", "Exception", "Warning")) for b in bases) else "class"
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        decorators = {ast.unparse(d).rsplit(".", 1)[-1] for d in node.decorator_list}
        if in_class and ("property" in decorators or "cached_property" in decorators):
            return "property"
        return "method" if in_class else "function"
    return "attribute" if in_class else "data"


def _docstring(node: ast.AST) -> str:
    if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return ast.get_docstring(node, clean=True) or ""
    return ""


def _unparse(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except (ValueError, TypeError, RecursionError):
        return "..."


def _arguments(node: ast.FunctionDef | ast.AsyncFunctionDef, *, drop_first: bool) -> str:
    """``(a, b: int = 1) -> int`` of a function as autodoc shows it (``inspect.Signature``'s
    text: ``name: annotation = default``, ``name=default``, ``/``, ``*``; ``self``/``cls``
    left out of methods)."""
    args = node.args

    def param(arg: ast.arg, default: ast.expr | None, star: str = "") -> str:
        text = star + arg.arg + (f": {_unparse(arg.annotation)}" if arg.annotation is not None else "")
        if default is not None:
            text += f" = {_unparse(default)}" if arg.annotation is not None else f"={_unparse(default)}"
        return text

    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    parts = [param(a, d) for a, d in zip(positional, defaults)]
    if args.posonlyargs:
        parts.insert(len(args.posonlyargs), "/")
    if args.vararg is not None:
        parts.append(param(args.vararg, None, "*"))
    elif args.kwonlyargs:
        parts.append("*")
    parts += [param(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.kwarg is not None:
        parts.append(param(args.kwarg, None, "**"))
    if drop_first and positional:
        parts.pop(0)
        if parts and parts[0] == "/":
            parts.pop(0)
    ret = f" -> {_unparse(node.returns)}" if node.returns is not None else ""
    return f"({', '.join(parts)}){ret}"


def _class_signature(node: ast.ClassDef) -> str:
    init = next((m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and m.name == "__init__"), None)
    if init is None:
        return ""
    return _arguments(init, drop_first=True).split(" -> ", 1)[0]


def _attribute_docs(body: Sequence[ast.stmt]) -> dict[str, str]:
    """Names assigned at this level that a string literal right after documents (autodoc's
    attribute docstrings), with that docstring."""
    out: dict[str, str] = {}
    for stmt, after in itertools.pairwise(body):
        target = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            target = stmt.targets[0].id
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            target = stmt.target.id
        if (target and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            out[target] = inspect.cleandoc(after.value.value)
    return out


def module_all(tree: ast.Module) -> list[str] | None:
    """The names a module's literal ``__all__`` lists, or None when it has none."""
    for stmt in tree.body:
        if (isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets)
                and isinstance(stmt.value, (ast.List, ast.Tuple))):
            return [e.value for e in stmt.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return None


def _option_names(value: Any) -> list[str] | None:
    """``:members: a, b`` -> ``["a", "b"]``; a flag (no value, True) -> None (all)."""
    if value is None or value is True or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return None


# Google-style sections (sphinx.ext.napoleon): header -> (kind, the label napoleon shows)
_GOOGLE_SECTIONS = {
    "args": ("params", "Parameters"), "arguments": ("params", "Parameters"), "parameters": ("params", "Parameters"),
    "params": ("params", "Parameters"), "keyword args": ("params", "Keyword Arguments"),
    "keyword arguments": ("params", "Keyword Arguments"), "kwargs": ("params", "Keyword Arguments"),
    "other parameters": ("params", "Other Parameters"), "attributes": ("params", "Attributes"),
    "raises": ("params", "Raises"), "raise": ("params", "Raises"), "exceptions": ("params", "Raises"),
    "warns": ("params", "Warns"), "methods": ("params", "Methods"),
    "returns": ("text", "Returns"), "return": ("text", "Returns"), "yields": ("text", "Yields"),
    "yield": ("text", "Yields"), "example": ("text", "Example"), "examples": ("text", "Examples"),
    "references": ("text", "References"), "note": ("note", "note"), "notes": ("note", "note"),
    "warning": ("note", "warning"), "warnings": ("note", "warning"), "see also": ("note", "seealso"),
    "todo": ("note", "todo"), "tip": ("note", "tip"), "hint": ("note", "hint"), "important": ("note", "important"),
    "attention": ("note", "attention"), "caution": ("note", "caution"), "danger": ("note", "danger"),
    "error": ("note", "error"),
}
_GOOGLE_HEADER = re.compile(r"^([ \t]*)([A-Za-z][A-Za-z ]{1,25}):[ \t]*$")
_GOOGLE_ITEM = re.compile(r"^(\*{0,2}[\w.\[\]]+)(?: ?\(([^()]*)\))?[ \t]*:(?:[ \t]+(.*)|$)")


def _width(line: str) -> int:
    return len(line) - len(line.lstrip())


def _google(lines: list[str]) -> list[str]:
    """Google-style sections as sphinx.ext.napoleon renders them: ``Args:`` over an
    indented block becomes a "Parameters" rubric and a list of ``name (type) – text``
    items, ``Returns:``/``Yields:``/``Example:`` a rubric over the block, ``Note:``/
    ``Warning:``/``See Also:`` the admonition. One pass over the lines."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _GOOGLE_HEADER.match(line)
        section = _GOOGLE_SECTIONS.get(m.group(2).strip().lower()) if m else None
        if m is None or section is None:
            out.append(line)
            i += 1
            continue
        base = _width(line)
        j = i + 1
        while j < len(lines) and (not lines[j].strip() or _width(lines[j]) > base):
            j += 1
        block = lines[i + 1:j]
        while block and not block[-1].strip():
            block.pop()
        if not any(b.strip() for b in block):
            out.append(line)
            i += 1
            continue
        strip = min(_width(b) for b in block if b.strip())
        block = [b[strip:] if b.strip() else "" for b in block]
        pad = line[:base]
        kind, label = section
        if kind == "note":
            out += [f"{pad}.. {label}::", "", *[f"{pad}   {b}" if b else "" for b in block], ""]
        elif kind == "text":
            out += [f"{pad}.. rubric:: {label}", "", *[f"{pad}{b}" if b else "" for b in block], ""]
        else:
            out += [f"{pad}.. rubric:: {label}", ""]
            items: list[tuple[str, list[str]]] = []  # (name (type), its text lines as written)
            for b in block:
                item = _GOOGLE_ITEM.match(b) if b and not b[0].isspace() else None
                if item:
                    name, typ = item.group(1).strip().replace("*", "\\*"), item.group(2)
                    first = (item.group(3) or "").strip()
                    items.append((f"{name} ({typ.strip()})" if typ else name, [first] if first else []))
                elif items:
                    items[-1][1].append(b)
                elif b.strip():
                    items.append(("", [b]))
            for head, texts in items:
                while texts and not texts[-1].strip():
                    texts.pop()
                first = texts[0].strip() if texts else ""
                rest = texts[1:]
                cut = min((_width(t) for t in rest if t.strip()), default=0)
                lead = f"{head} – {first}" if head and first else head or first
                out += [f"{pad}- {lead}", *[f"{pad}  {t[cut:]}" if t.strip() else "" for t in rest], ""]
        i = j
    return out


# NumPy-style sections whose entries are fields, as sphinx.ext.napoleon's NumpyDocstring reads
# them: header -> whether an entry without " : " is a type (Returns, Raises) rather than a name
_NUMPY_FIELDS = {
    "parameters": False, "other parameters": False, "keyword arguments": False, "keyword args": False,
    "receives": False, "args": False, "arguments": False,
    "returns": True, "return": True, "yields": True, "yield": True, "raises": True, "warns": True,
}
# napoleon's _xref_or_code_regex and _single_colon_regex: a field splits at its first colon
# outside roles and code
_XREF_OR_CODE = re.compile(r"(:(?:[a-zA-Z0-9]+[\-_+:.])*[a-zA-Z0-9]+:`.+?`|``.+?``|`.+?`)")
_SINGLE_COLON = re.compile(r"(?<!:):(?!:)")


def _partition_field(line: str) -> tuple[str, str]:
    """``name : type`` -> ``("name", "type")`` (napoleon's ``_partition_field_on_colon``);
    a line over 1,000 characters is a name (the role pattern rescans from every colon)."""
    if len(line) > 1_000:
        return line.strip(), ""
    pos = 0
    for piece in _XREF_OR_CODE.split(line):
        if not _XREF_OR_CODE.fullmatch(piece):
            colon = _SINGLE_COLON.search(piece)
            if colon:
                at = pos + colon.start()
                return line[:at].strip(), line[at + 1:].strip()
        pos += len(piece)
    return line.strip(), ""


# numpydoc sections written as parameter lists (numpydoc/docscrape_sphinx.py _str_param_list)
_NUMPYDOC_PARAM_LISTS = frozenset({"parameters", "other parameters", "receives", "attributes", "methods",
                                   "returns", "yields", "raises", "warns"})
# a See Also line: names (plain or ':role:`name`', comma-separated), then ': description'
_SEE_ALSO_NAME = re.compile(r"\s*(:[\w:.+-]+:`[^`]{1,300}`|`[^`]{1,300}`|[\w.~-]+)\s*(,?)")


def _see_also(block: list[str]) -> list[str]:
    """A NumPy-style 'See Also' section as numpydoc (docscrape._parse_see_also,
    docscrape_sphinx._str_see_also) and napoleon render it: a ``seealso`` box listing
    each line's names (plain ones as ``:obj:`` references), its description (after ``:``,
    and the indented lines under it) below them. One pass over the lines."""
    items: list[tuple[str, list[str]]] = []
    base = min((_width(b) for b in block if b.strip()), default=0)
    for b in block:
        if not b.strip():
            continue
        if _width(b) > base and items:
            items[-1][1].append(b.strip())
            continue
        text, names = b.strip()[:2_000], list[str]()
        pos = 0
        while pos < len(text) and len(names) < 50:
            m = _SEE_ALSO_NAME.match(text, pos)
            if m is None or m.end() == pos:
                break
            name = m.group(1)
            names.append(name if name.startswith(":") else f":obj:`{name.strip('`')}`")
            pos = m.end()
            if not m.group(2):
                break
        rest = text[pos:].strip()
        if not names or rest and not rest.startswith(":"):
            names, rest = [text], ""
        items.append((", ".join(names), [rest[1:].strip()] if rest[1:].strip() else []))
    out = [".. seealso::", ""]
    for names_line, desc in items:
        out.append(f"   {names_line}")
        if desc:
            out.append(f"      {' '.join(desc)}")
        out.append("")
    return out if items else []


def _numpy_header(lines: list[str], i: int) -> bool:
    line, nxt = lines[i], lines[i + 1] if i + 1 < len(lines) else ""
    return (line.strip().lower() in _NUMPY_SECTIONS and bool(nxt.strip()) and set(nxt.strip()) <= set("-=~^")
            and len(nxt.strip()) >= len(line.strip()))


def _numpy_fields(block: list[str], prefer_type: bool) -> list[str]:
    """The entries of one NumPy-style field section (``name : type`` at the section's
    indent, its description indented below) as sphinx.ext.napoleon renders them:
    ``- name (type) – description`` items (a lone word is the name, or with
    ``prefer_type`` the type, as in Returns and Raises). One pass over the lines."""
    items: list[tuple[str, list[str]]] = []
    base = min((_width(b) for b in block if b.strip()), default=0)
    for b in block:
        if b.strip() and _width(b) <= base:
            name, typ = _partition_field(b.strip())
            if prefer_type and not typ:
                name, typ = "", name
            name = name.replace("*", "\\*")
            items.append((f"{name} ({typ})" if name and typ else name or typ, []))
        elif items:
            items[-1][1].append(b)
    out: list[str] = []
    for head, texts in items:
        while texts and not texts[-1].strip():
            texts.pop()
        cut = min((_width(t) for t in texts if t.strip()), default=0)
        texts = [t[cut:] if t.strip() else "" for t in texts]
        texts = texts[next((k for k, t in enumerate(texts) if t), len(texts)):]  # (one slice: pop(0) each was quadratic)
        first = texts[0] if texts else ""
        lead = f"{head} – {first}" if head and first else head or first
        out += [f"- {lead}", *[f"  {t}" if t else "" for t in texts[1:]], ""]
    return out


def _lines(text: str, indent: str, numpy_sections: bool, google_sections: bool = False,
           numpy_fields: bool = False) -> list[str]:
    lines = text.split("\n")
    if google_sections:
        lines = _google(lines)
    if numpy_sections:  # "Parameters" over dashes is a rubric (numpydoc, napoleon), not a title
        out: list[str] = []
        i = 0
        while i < len(lines):
            if not _numpy_header(lines, i):
                out.append(lines[i])
                i += 1
                continue
            header = lines[i].strip()
            i += 2
            if header.lower() == "see also":
                j = i
                while j < len(lines) and not _numpy_header(lines, j):
                    j += 1
                out += _see_also(lines[i:j])
                i = j
                continue
            out += [f".. rubric:: {header}", ""]
            prefer_type = _NUMPY_FIELDS.get(header.lower())
            if not numpy_fields and header.lower() in _NUMPYDOC_PARAM_LISTS:
                # numpydoc's _str_param_list: one entry per name line, a blank line between entries,
                # the name shown as written ('*args'/'**kwargs' escaped)
                base = min((_width(b) for b in lines[i:i + 200] if b.strip()), default=0)
                while i < len(lines) and not _numpy_header(lines, i):
                    ln = lines[i]
                    if ln.strip() and _width(ln) == base:
                        if out and out[-1].strip():
                            out.append("")
                        ln = ln[:base] + "\\" + ln[base:] if ln[base:].startswith("*") else ln
                    out.append(ln)
                    i += 1
                continue
            if numpy_fields and prefer_type is not None:
                j = i
                while j < len(lines) and not _numpy_header(lines, j):
                    j += 1
                out += _numpy_fields(lines[i:j], prefer_type)
                i = j
        lines = out
    return [indent + ln if ln.strip() else "" for ln in lines]


class _Writer:
    def __init__(self, config: AutodocConfig, options: dict[str, Any],
                 cache: dict[Any, Any]) -> None:
        self.config = config
        self.cache = cache
        self.options = {**config.default_options, **options}
        self.count = 0

    def wanted(self, name: str, documented: bool, explicit: list[str] | None) -> bool:
        if explicit is not None:
            return name in explicit
        excluded = _option_names(self.options.get("exclude-members")) or []
        if name in excluded:
            return False
        if name.startswith("__") and name.endswith("__"):
            special = self.options.get("special-members")
            names = _option_names(special)
            if special is None or special is False:
                return False
            return (names is None or name in names) and documented
        if name.startswith("_"):
            private = self.options.get("private-members")
            names = _option_names(private)
            if private is None or private is False:
                return False
            return (names is None or name in names) and (documented or "undoc-members" in self.options)
        return documented or ("undoc-members" in self.options and self.options["undoc-members"] is not False)

    def _index(self, node: ast.Module | ast.ClassDef) -> list[tuple[str, ast.AST, int, bool, str]]:
        """``(name, node, position, documented, attribute docstring)`` of each member
        ``node`` defines (functions, classes, attributes with a docstring), computed once
        per node (a page may document one module many times)."""
        key = id(node)
        if key not in self.cache:
            in_class = isinstance(node, ast.ClassDef)
            attr_docs = _attribute_docs(node.body)
            entries: list[tuple[str, ast.AST, int, bool, str]] = []
            for pos, stmt in enumerate(node.body):
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    if not (in_class and stmt.name == "__init__"):
                        entries.append((stmt.name, stmt, pos, bool(_docstring(stmt)), ""))
                elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                    target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else getattr(
                        stmt, "target", None)
                    if isinstance(target, ast.Name) and target.id in attr_docs:
                        entries.append((target.id, stmt, pos, True, attr_docs[target.id]))
            self.cache[key] = entries
        index: list[tuple[str, ast.AST, int, bool, str]] = self.cache[key]
        return index

    def members(self, node: ast.Module | ast.ClassDef, *, qual: str, indent: str, depth: int) -> list[str]:
        raw = self.options.get("members")
        if raw is None or raw is False or depth > 1:
            return []
        explicit = _option_names(raw)
        in_class = isinstance(node, ast.ClassDef)
        names = module_all(node) if isinstance(node, ast.Module) and explicit is None else None
        public = set(names) if names is not None else None
        seen: set[str] = set()
        chosen: list[tuple[str, ast.AST, int]] = []
        docs: dict[str, str] = {}
        for name, member, pos, documented, attr_doc in self._index(node):
            if name in seen or (public is not None and name not in public):
                continue
            if self.wanted(name, documented, explicit):
                seen.add(name)
                chosen.append((name, member, pos))
                docs[name] = attr_doc
        order = str(self.options.get("member-order") or self.config.member_order)
        if order == "bysource":
            chosen.sort(key=lambda e: e[2])
        elif order == "groupwise":
            chosen.sort(key=lambda e: (_GROUP[_kind(e[1], in_class)], e[0]))
        else:
            chosen.sort(key=lambda e: e[0])
        out: list[str] = []
        for name, member, _ in chosen:
            if self.count >= MAX_MEMBERS:
                break
            out += self.object(member, name=name, qual=qual, indent=indent, in_class=in_class,
                               doc=docs[name], depth=depth + 1)
        return out

    def object(self, node: ast.AST, *, name: str, qual: str, indent: str, in_class: bool, doc: str = "",
               depth: int = 0, signature: str | None = None) -> list[str]:
        """The ``.. py:<kind>::`` block of one object, its docstring and (classes) members."""
        self.count += 1
        kind = _kind(node, in_class)
        prefix = f"{qual}." if qual and not in_class and self.config.add_module_names else ""
        if signature is None:
            if isinstance(node, ast.ClassDef):
                signature = _class_signature(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and kind != "property":
                signature = _arguments(node, drop_first=in_class and not any(
                    ast.unparse(d) == "staticmethod" for d in node.decorator_list))
            else:
                signature = ""
        directive = {"exception": "exception", "class": "class", "function": "function", "method": "method",
                     "property": "property", "attribute": "attribute", "data": "data"}[kind]
        out = [f"{indent}.. py:{directive}:: {prefix}{name}{signature}", ""]
        body = doc or _docstring(node)
        if isinstance(node, ast.ClassDef):
            init = next((m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and m.name == "__init__"), None)
            init_doc = _docstring(init) if init is not None else ""
            content = self.config.class_content
            body = init_doc if content == "init" else "\n\n".join(p for p in (body, init_doc) if p) \
                if content == "both" else body
        inner = indent + "   "
        if body:
            out += [*_lines(body, inner, self.config.numpy_sections, self.config.google_sections,
                                 self.config.numpy_fields), ""]
        if isinstance(node, ast.ClassDef):
            out += self.members(node, qual=f"{qual}.{name}" if qual else name, indent=inner, depth=depth)
        return out


def _find(tree: ast.Module, path: Sequence[str], cache: dict[Any, Any]) -> ast.AST | None:
    """The object at attribute ``path`` of ``tree`` (the first definition of each name,
    as :func:`murar.ingest.markup.pyapi.find_object`), through a name table per node kept
    in ``cache``."""
    node: ast.AST = tree
    for name in path:
        if not isinstance(node, (ast.Module, ast.ClassDef)):
            return None
        key = ("names", id(node))
        if key not in cache:
            table: dict[str, ast.AST] = {}
            aliases: dict[str, str] = {}
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    table.setdefault(stmt.name, stmt)
                elif (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                      and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Name)):
                    aliases.setdefault(stmt.targets[0].id, stmt.value.id)  # getLogger = get_logger
            for alias, target in aliases.items():
                if alias not in table and target in table:
                    table[alias] = table[target]
            cache[key] = table
        found = cache[key].get(name)
        if found is None:
            return None
        node = found
    return node


def assigned_name(tree: ast.Module, name: str) -> str | None:
    """The name a module-level ``name = other`` assignment gives ``name`` (``getLogger =
    get_logger``; in a chained ``s = attributes = attrs`` each target is bound to ``attrs``,
    as Python assigns them), so an alias of an imported object can be followed; None otherwise."""
    for stmt in tree.body:
        if (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name)
                and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)):
            return stmt.value.id
    return None


def _summary(doc: str) -> str:
    """The first sentence of a docstring's first paragraph (autosummary's summary)."""
    para = " ".join(doc.strip().split("\n\n", 1)[0].split())
    m = re.search(r"^.*?\.(?=\s|$)", para)
    return m.group(0) if m else para


def autosummary_summary(tree: ast.Module, path: Sequence[str], cache: dict[Any, Any] | None = None) -> str | None:
    """The summary ``sphinx.ext.autosummary`` shows for the object at attribute ``path`` of
    ``tree``: the first sentence of its docstring (``""`` without one); None when the
    module defines no such function, class or module."""
    node = _find(tree, path, cache if cache is not None else {})
    return None if node is None else _summary(_docstring(node))


def autosummary_rst(rows: Sequence[tuple[str, str]]) -> list[str]:
    """The table ``sphinx.ext.autosummary`` draws, as reST: one row per ``(name, summary)``."""
    out = [".. list-table::", ""]
    for name, summary in rows:
        shown = name.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`")
        out += [f"   * - {shown}", f"     - {summary or ' '}"]
    return [*out, ""]


def _automodapi(tree: ast.Module, module: str, options: dict[str, Any], config: AutodocConfig) -> list[str]:
    headings = str(options.get("headings") or "-^")
    top, sub = headings[0], headings[1] if len(headings) > 1 else "^"
    out: list[str] = []
    if "no-heading" not in options:
        title = f"{module} Module"
        out += [title, top * len(title), ""]
    if "no-main-docstr" not in options:
        doc = _docstring(tree)
        if doc:
            out += [*_lines(doc, "", config.numpy_sections, config.google_sections, config.numpy_fields), ""]
    public = module_all(tree)
    skip = set(_option_names(options.get("skip")) or [])
    include = _option_names(options.get("include"))
    defs = [s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if public is not None:
        by_name = {d.name: d for d in defs}
        defs = [by_name[n] for n in public if n in by_name]
    else:
        defs = sorted((d for d in defs if not d.name.startswith("_")), key=lambda d: d.name)
    defs = [d for d in defs if d.name not in skip and (include is None or d.name in include)][:MAX_MEMBERS]
    groups: list[tuple[str, list[_Def]]] = [
        ("Functions", [d for d in defs if not isinstance(d, ast.ClassDef)]),
        ("Classes", [d for d in defs if isinstance(d, ast.ClassDef)])]
    if "functions-only" in options:
        groups = groups[:1]
    elif "classes-only" in options:
        groups = groups[1:]
    for title, items in groups:
        if not items:
            continue
        out += [title, sub * len(title), "", ".. list-table::", ""]
        for item in items:
            name = item.name.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`")
            summary = _summary(_docstring(item)) or " "
            out += [f"   * - {name}", f"     - {summary}"]
        out.append("")
    return out


def autodoc_rst(tree: ast.Module, path: Sequence[str], *, directive: str, module: str,
                options: dict[str, Any], config: AutodocConfig, signature: str | None = None,
                cache: dict[Any, Any] | None = None, shown: str | None = None) -> list[str] | None:
    """The reST lines the autodoc or automodapi ``directive`` puts in the page for the
    object at attribute ``path`` of ``module`` (parsed as ``tree``), or None when the
    module holds no such object. ``options`` are the directive's options (flags as
    ``""``); ``signature`` an explicit one written in the directive (``f(a, b)``);
    ``cache`` keeps the member index of each class and module between calls (keyed by
    node identity: the trees must outlive it). ``module`` is the module the object is
    documented under (``structlog`` for ``structlog.get_logger`` defined in
    ``structlog._config``), ``shown`` the object's documented name when it differs from
    ``path[-1]`` (an alias such as ``getLogger = get_logger``)."""
    cache = cache if cache is not None else {}
    node = _find(tree, path, cache)
    attr_doc = ""
    if node is None and path and directive in ("autoattribute", "autodata"):
        # a data or class attribute: an assignment, documented by the string literal after it
        found = _assignment(_find(tree, path[:-1], cache), path[-1])
        if found is None:
            return None
        node, attr_doc = found
    if node is None:
        return None
    if directive == "automodapi":
        return _automodapi(tree, module, options, config) if not path else None
    writer = _Writer(config, options, cache)
    if isinstance(node, ast.Module):
        doc = "" if "no-docstring" in options else _docstring(node)
        out = [*_lines(doc, "", config.numpy_sections, config.google_sections, config.numpy_fields), ""] if doc else []
        return out + writer.members(node, qual=module, indent="", depth=0)
    in_class = len(path) > 1  # automethod/autoattribute: "Cls.name" as autodoc shows it
    names = [*path[:-1], shown or path[-1]]
    return writer.object(node, name=".".join(names[-2:]) if in_class else names[-1], qual="" if in_class else module,
                         indent="", in_class=in_class, signature=signature, depth=0, doc=attr_doc)


def _assignment(parent: ast.AST | None, name: str) -> tuple[ast.stmt, str] | None:
    """The first assignment to ``name`` in the body of ``parent`` (a module or class) and its
    attribute docstring (``""`` without one), as autodoc's AttributeDocumenter/DataDocumenter
    find it; None when ``parent`` assigns no such name."""
    if not isinstance(parent, (ast.Module, ast.ClassDef)):
        return None
    for stmt in parent.body:
        if ((isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets))
                or (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                    and stmt.target.id == name)):
            return stmt, _attribute_docs(parent.body).get(name, "")
    return None
