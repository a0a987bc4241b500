"""Python API reference text, read statically from source files (mkdocstrings' ``::: identifier``).

mkdocstrings (with its Python handler, which loads code statically with griffe)
replaces a ``::: package.module.Object`` block by the object's documentation:
its heading, signature and docstring, then its public members. murar does the
same with :mod:`ast` (the code is never imported or run):

- a module gives its docstring and its public classes and functions (names not
  starting with ``_``), a class its docstring, ``__init__`` signature and public
  methods, a function or method its signature and docstring;
- ``members: [a, b]`` keeps those members only, ``members: false`` none;
  ``show_root_heading`` puts a heading for the object itself (level
  ``heading_level``, default 2), members get the next level (or
  ``heading_level`` when the root has no heading), as mkdocstrings' defaults;
- a parameter annotated ``Annotated[T, Doc("text")]`` (griffe's typingdoc
  extension) shows as ``T`` in the signature and ``text`` in a parameter list.

The output is Markdown. Bounded: at most :data:`MAX_MEMBERS` members per object
and :data:`MAX_DEPTH` levels.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

MAX_MEMBERS = 200
MAX_DEPTH = 2

_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _members(node: ast.Module | ast.ClassDef) -> list[_Def]:
    return [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def find_object(tree: ast.Module, path: Sequence[str]) -> ast.Module | _Def | None:
    """The node ``path`` (attribute names below the module) names in ``tree``; None when absent."""
    node: ast.Module | _Def = tree
    for name in path:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        found = next((m for m in _members(node) if m.name == name), None)
        if found is None:
            return None
        node = found
    return node


_T = TypeVar("_T")


def _dotted(node: ast.expr) -> str | None:
    """``a.b.C`` of a class base written as a name or attribute chain; None otherwise."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute) and len(parts) < 30:
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def follow_object(
    identifier: str,
    *,
    find: Callable[[str], tuple[str, list[str]] | None],
    tree_of: Callable[[str], ast.Module | None],
    render: Callable[[ast.Module, list[str], str], _T | None],
    alias_of: Callable[[ast.Module, str], str | None] | None = None,
    max_hops: int = 8,
) -> _T | None:
    """Render the Python object ``identifier`` (dotted) where it is defined, following
    the names a module only imports, as griffe (mkdocstrings) and Sphinx autodoc find
    a documented object.

    ``find(dotted)`` gives ``(rel, path)``: the source file of the longest module
    prefix of ``dotted`` (relative to the site root) and the attribute names left
    below it, or None. ``tree_of(rel)`` gives that file's tree (None: unread, that
    candidate is passed over). ``render(tree, path, module)`` gives the object's text,
    or None when the module does not define it; then each place the module imports
    the name from (:func:`imported_names`) is tried, and with ``alias_of`` a
    module-level alias too (``getLogger = get_logger``: autodoc documents the object
    the name is bound to). At most ``max_hops`` names are looked up; None when none
    renders.
    """
    queue, seen = [identifier], set[str]()
    while queue and len(seen) < max_hops:
        target = queue.pop(0)
        if target in seen:
            continue
        seen.add(target)
        found = find(target)
        if found is None:
            continue
        rel, path = found
        tree = tree_of(rel)
        if tree is None:
            continue
        module = ".".join(target.split(".")[: len(target.split(".")) - len(path)])
        result = render(tree, path, module)
        if result is not None:
            return result
        if "." in module:
            # Python's attribute lookup, as autodoc imports 'pkg' and takes 'pkg.C': what the package
            # binds to C ('from .C import C' or 'from .C import *' shadows the submodule C), so
            # 'pkg.C' may be the class the submodule C defines (pyqtgraph.imageview.ImageView) and
            # 'pkg.C.method' its member (pyqtgraph.opengl.GLViewWidget.__init__)
            own = find_object(tree, [module.rpartition(".")[2]]) is not None  # the submodule defines C
            queue[:0] = [lead for lead in _package_binding(module, path, own, find=find, tree_of=tree_of)
                         if lead not in seen]
        if not path:
            continue
        owner = find_object(tree, path[:-1]) if len(path) > 1 else None
        if isinstance(owner, ast.ClassDef):
            # a member the class does not define is looked up in its bases, in order (Python's attribute
            # lookup, as autodoc's getattr finds an inherited method): 'class DiGraph(Graph)' sends
            # DiGraph.add_edge to Graph.add_edge, where this module defines or imports Graph
            bases = [d for d in map(_dotted, owner.bases) if d]
            # a base names something of this module (defined or imported: 'Graph', 'base.Named'), or,
            # dotted, a module by its full name
            queue[:0] = [lead for d in bases for lead in (".".join([module, *path[:-2], d, path[-1]]),
                                                          *((f"{d}.{path[-1]}",) if "." in d else ()))]
            continue
        head = path[0]
        if alias_of is not None:
            head = alias_of(tree, path[0]) or path[0]
            if head != path[0] and len(path) == 1:
                queue.append(f"{module}.{head}")
        explicit, starred = _imported_names(tree, head, module=module, is_package=rel.endswith("__init__.py"))
        # a module that names the object in an import binds it there: that lead is followed before the
        # star imports still waiting (a package of 20 'from .x import *' lines would use up the hops first)
        queue[:0] = [".".join([alias, *path[1:]]) for alias in explicit]
        # the star imports of a module named like the object first ('from .graphicsItems.ROI import *'
        # for ROI): the same lookups in another order, so a package of 70 star imports finds a class
        # whose module is the 25th within the hops (Python binds whichever defines it)
        starred.sort(key=lambda alias: alias.rsplit(".", 2)[-2:-1] != [head])
        queue += [".".join([alias, *path[1:]]) for alias in starred]
    return None


def _package_binding(module: str, path: list[str], defines_own: bool, *,
                     find: Callable[[str], tuple[str, list[str]] | None],
                     tree_of: Callable[[str], ast.Module | None]) -> list[str]:
    """Where the package of the submodule ``module`` may bind the submodule's own name,
    followed by ``path``: ``pkg.C`` + ``["method"]`` gives ``pkg.C.C.method`` when
    ``pkg/__init__.py`` has ``from .C import C``, or ``from .C import *`` when the
    submodule defines ``C`` (``defines_own``). Empty when the package binds no such name."""
    parent, _, leaf = module.rpartition(".")
    found = find(parent)
    if found is None or found[1] or not found[0].endswith("__init__.py"):
        return []
    tree = tree_of(found[0])
    if tree is None:
        return []
    explicit, starred = _imported_names(tree, leaf, module=parent, is_package=True)
    own = f"{module}.{leaf}"  # the star import of the submodule itself binds C if it defines C
    stars = [own] if defines_own and own in starred else []
    return [".".join([lead, *path]) for lead in [*explicit, *stars] if lead != module]


def imported_names(source: str | ast.Module | None, name: str, *, module: str, is_package: bool) -> list[str]:
    """Where ``name`` may come from when the module ``source`` (its text, or its tree
    from :func:`parse_module`) imports it, as absolute dotted names, as griffe
    follows aliases: ``from .main import BaseModel`` in ``pkg/__init__.py`` gives
    ``pkg.main.BaseModel`` (explicit imports first, at the top level or under an
    ``if``/``try``), then ``pkg.x.BaseModel`` for each ``from .x import *``. Empty
    when ``name`` is not imported there or the source does not parse."""
    explicit, starred = _imported_names(source, name, module=module, is_package=is_package)
    return explicit + starred


def _imported_names(source: str | ast.Module | None, name: str, *, module: str,
                    is_package: bool) -> tuple[list[str], list[str]]:
    """:func:`imported_names` apart: the explicit imports of ``name`` and the star imports."""
    tree = parse_module(source) if isinstance(source, str) else source
    if tree is None:
        return [], []
    explicit: list[str] = []
    starred: list[str] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        stmt = todo.pop(0)
        if isinstance(stmt, ast.If):
            todo.extend(stmt.body + stmt.orelse)
        elif isinstance(stmt, ast.Try):
            todo.extend(stmt.body)
        elif isinstance(stmt, ast.ImportFrom):
            package = module.split(".") if is_package else module.split(".")[:-1]
            if stmt.level:
                package = package[: len(package) - (stmt.level - 1)] if stmt.level > 1 else package
                base = [*package, *(stmt.module.split(".") if stmt.module else [])]
            else:
                base = stmt.module.split(".") if stmt.module else []
            for alias in stmt.names:
                if alias.name == "*" and base:
                    starred.append(".".join([*base, name]))
                elif (alias.asname or alias.name) == name and base:
                    explicit.append(".".join([*base, alias.name]))
    return explicit, starred


def _typing_doc(annotation: ast.expr | None) -> tuple[ast.expr | None, str]:
    """``Annotated[T, Doc("text")]`` (typing_extensions.Doc, read by griffe's typingdoc
    extension) -> ``(T, "text")``; any other annotation -> ``(annotation, "")``."""
    if not (isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple)):
        return annotation, ""
    head = annotation.value
    name = head.attr if isinstance(head, ast.Attribute) else head.id if isinstance(head, ast.Name) else ""
    if name != "Annotated" or not annotation.slice.elts:
        return annotation, ""
    for extra in annotation.slice.elts[1:]:
        if isinstance(extra, ast.Call) and extra.args and isinstance(extra.args[0], ast.Constant) \
                and isinstance(extra.args[0].value, str):
            func = extra.func
            if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == "Doc":
                return annotation.slice.elts[0], " ".join(extra.args[0].value.split())
    return annotation, ""


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef, *, drop_self: bool) -> tuple[str, list[str]]:
    """``(signature, parameter lines)``: ``Annotated[T, Doc(...)]`` parameters are
    shown as ``T`` in the signature and their text as ``name: text`` lines."""
    args = node.args
    params: list[str] = []
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, *filter(None, (args.vararg, args.kwarg))):
        arg.annotation, doc = _typing_doc(arg.annotation)
        if doc:
            params.append(f"- `{arg.arg}`: {doc}")
    try:
        text = ast.unparse(args)
    except (ValueError, TypeError, RecursionError):
        text = "..."
    if drop_self:
        parts = [p.strip() for p in text.split(",")]
        if parts and parts[0] in ("self", "cls"):
            text = ", ".join(parts[1:])
    ret = ""
    if node.returns is not None:
        try:
            ret = f" -> {ast.unparse(_typing_doc(node.returns)[0] or node.returns)}"
        except (ValueError, TypeError, RecursionError):
            ret = ""
    return f"{node.name}({text}){ret}", params


def _escape(text: str) -> str:
    """A Python name as Markdown text (``__init__`` is not emphasis)."""
    return re.sub(r"([\\`*_\[\]<>])", r"\\\1", text)


def _block(node: ast.Module | _Def, *, qualname: str, heading: int | None, child_heading: int, members: Any,
           depth: int, in_class: bool) -> list[str]:
    out: list[str] = []
    if heading is not None:
        out += [f"{'#' * min(heading, 6)} {_escape(qualname)}", ""]
    params: list[str] = []
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        sig, params = _signature(node, drop_self=in_class)
        out += [f"`{sig}`", ""]
    elif isinstance(node, ast.ClassDef):
        init = next((m for m in _members(node) if m.name == "__init__" and not isinstance(m, ast.ClassDef)), None)
        sig = node.name
        if init is not None:  # the constructor's parameters, without its "-> None"
            init_sig, params = _signature(init, drop_self=True)
            sig = init_sig.replace("__init__", node.name, 1).split(") -> ", 1)[0]
            sig += ")" if not sig.endswith(")") else ""
        out += [f"`class {sig}`", ""]
    doc = ast.get_docstring(node, clean=True) if not isinstance(node, ast.Module) or node.body else None
    if doc:
        out += [doc, ""]
    if params:
        out += ["Parameters:", "", *params, ""]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or depth >= MAX_DEPTH or members is False:
        return out
    assert isinstance(node, (ast.Module, ast.ClassDef))
    wanted = [str(m) for m in members] if isinstance(members, list) else None
    children = [m for m in _members(node) if (m.name in wanted if wanted is not None else not m.name.startswith("_"))]
    for child in children[:MAX_MEMBERS]:
        out += _block(child, qualname=child.name, heading=child_heading, child_heading=child_heading + 1,
                      members=None, depth=depth + 1, in_class=isinstance(node, ast.ClassDef))
    return out


def parse_module(source: str) -> ast.Module | None:
    """The syntax tree of the module ``source``; None when it does not parse. Never raises."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def render_object(source: str | ast.Module | None, path: Sequence[str], *, identifier: str,
                  options: dict[str, Any]) -> str | None:
    """Markdown documenting the object at attribute ``path`` of the module ``source``
    (its text, or its tree from :func:`parse_module`, so that a page documenting
    many objects of one module parses it once).

    ``identifier`` is the dotted name written after ``:::`` (the root heading);
    ``options`` the block's and the site's mkdocstrings options. Returns None
    when the source does not parse or holds no such object. Never raises.
    """
    tree = parse_module(source) if isinstance(source, str) else source
    if tree is None:
        return None
    node = find_object(tree, path)
    try:
        level = int(options.get("heading_level") or 2)
    except (TypeError, ValueError):
        level = 2
    root_heading = level if options.get("show_root_heading") is True else None
    if node is None:
        return _attribute(tree, path, identifier=identifier, heading=root_heading)
    # members sit one level below a root heading, else at heading_level (mkdocstrings' layout)
    lines = _block(node, qualname=identifier, heading=root_heading,
                   child_heading=level + 1 if root_heading is not None else level, members=options.get("members"),
                   depth=0, in_class=False)
    return "\n".join(lines).strip("\n")


#: characters of an attribute's value shown in its signature line
_MAX_VALUE_CHARS = 300


def _attribute(tree: ast.Module, path: Sequence[str], *, identifier: str, heading: int | None) -> str | None:
    """An attribute (``NAME = value``, ``name: T = value`` in a module or class) as
    mkdocstrings-python renders one: its signature line ``name: T = value`` (the value
    cut at :data:`_MAX_VALUE_CHARS` characters) and its docstring (the string right after
    the assignment, as griffe reads it). None when ``path`` names no such assignment."""
    if not path:
        return None
    parent = find_object(tree, path[:-1])
    if not isinstance(parent, (ast.Module, ast.ClassDef)):
        return None
    name, body = path[-1], parent.body
    for k, stmt in enumerate(body):
        annotation: ast.expr | None
        value: ast.expr | None
        if isinstance(stmt, ast.Assign):
            hit = any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
            annotation, value = None, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            hit = stmt.target.id == name
            annotation, value = stmt.annotation, stmt.value
        else:
            continue
        if not hit:
            continue
        try:
            sig = name + (f": {ast.unparse(annotation)}" if annotation is not None else "")
            if value is not None:
                shown = ast.unparse(value)
                sig += " = " + (shown if len(shown) <= _MAX_VALUE_CHARS else shown[:_MAX_VALUE_CHARS] + "...")
        except (ValueError, TypeError, RecursionError):
            sig = name
        out = [f"{'#' * min(heading, 6)} {_escape(identifier)}", ""] if heading is not None else []
        sig = sig.replace("\n", " ")
        out += [f"`` {sig} ``" if "`" in sig else f"`{sig}`", ""]
        after = body[k + 1] if k + 1 < len(body) else None
        if (isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            out += [inspect.cleandoc(after.value.value), ""]
        return "\n".join(out).strip("\n")
    return None
