"""A Liquid interpreter for reading templates without running a site build.

Liquid (shopify.github.io/liquid; the Ruby gem ``liquid`` 4, which Jekyll 4 uses)
renders a template in document order: ``{% assign %}`` and ``{% capture %}``
set variables that the tags after them read, ``{% if %}``/``{% unless %}``/
``{% case %}`` keep the branch their condition picks, ``{% for %}`` repeats its
body for each item of a list, a hash (each item a ``[key, value]`` pair) or a
range, with ``limit:``/``offset:``/``reversed``, ``forloop.*``, ``{% break %}``
and ``{% continue %}``, and ``{{ value | filter: arg }}`` writes a value through
Liquid's standard filters (string, array and math filters, ``default``,
``where``, ``map``, ``sort``, ``split``, ``join``, ``first``, ``last``,
``size`` ...).

A static reader does not know every value (a plugin's variables, ``page.url``,
``site.pages``): such a value is :data:`UNKNOWN`. A condition that reads one
keeps every branch from the first unknown one on (what a reader of the source
would see), a loop over one keeps its body once, and an unknown value writes
nothing. ``{% break %}``/``{% continue %}`` are only obeyed where the branch that
holds them is certain.

:func:`parse` turns a template into a tree of text and tags (``{% raw %}``
literal, ``{% comment %}`` dropped, whitespace control ``{%-``/``-%}`` applied,
unbalanced tags kept as single tags); :class:`Renderer` renders it with a
:class:`Context`. Tags and filters the interpreter does not know are left to
:meth:`Renderer.tag` and :meth:`Renderer.filter`, which a generator overrides
(Jekyll: ``include``, ``link``, ``relative_url`` ...). Every loop, value and
output is bounded (:class:`Context` ``left``), and so is the work of a page
(:class:`Context` ``work``): past it, the rest of the page is read as a static
reader reads values it does not know (text kept, tags write nothing, every branch
kept, loop bodies once)."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from murar.ingest.sites._common import sub_closed


class _Unknown:
    """The value of a variable a static reader cannot know."""

    def __repr__(self) -> str:
        return "UNKNOWN"


class _Special:
    """Liquid's ``empty`` and ``blank`` literals (only meaningful in comparisons)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNKNOWN: Any = _Unknown()
EMPTY: Any = _Special("empty")
BLANK: Any = _Special("blank")

#: nesting of block tags a file may open (deeper openers are kept as single tags, their text kept)
MAX_NESTING = 32
#: characters of one string value, items of one list value
MAX_VALUE_CHARS = 100_000
MAX_LIST_ITEMS = 10_000
#: items one loop renders
MAX_LOOP_LENGTH = 500
#: bits of a whole number (``assign a = a | times: a`` squares it: 40 times is 2**40 digits)
MAX_NUMBER_BITS = 1024
#: work of one page, in units of about 4 ns: each tag and output costs :data:`STEP_COST` plus
#: :data:`CHAR_COST` per character of its arguments, each filter :data:`STEP_COST` plus the
#: size of the value it reads (:data:`CHAR_COST` per character of a string, :data:`ITEM_COST`
#: per item of a list or hash; the slowest filter, escape_once, takes about 110 ns a
#: character). Loops, includes and output are bounded on their own, but not what a loop
#: body does: 500 iterations of 20,000 assigns, or 30,000 filters on a 100,000-character
#: value, ran for minutes; now a page stops within about 2 s
MAX_WORK = 400_000_000
STEP_COST = 1_000
#: a mark a tag leaves where it wrote nothing (a plugin's tag, :meth:`Renderer.tag`), for the
#: caller to clean the text around it; a ``capture`` holds the text without it
DROPPED = "\x1e"
CHAR_COST = 20
ITEM_COST = 1_000

_TOKEN = re.compile(r"\{%-?\s*(?P<tag>\w+)(?P<tagargs>.*?)-?%\}|\{\{-?(?P<expr>.*?)-?\}\}", re.DOTALL)
_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)\{%-?\s*endraw\s*-?%\}", re.DOTALL)
_RAW_END = re.compile(r"\{%-?\s*endraw\s*-?%\}")
_COMMENT = re.compile(r"\{%-?\s*comment\s*-?%\}.*?\{%-?\s*endcomment\s*-?%\}", re.DOTALL)
_COMMENT_END = re.compile(r"\{%-?\s*endcomment\s*-?%\}")
#: block tag -> the tags that start its further branches
BLOCKS: dict[str, tuple[str, ...]] = {"if": ("elsif", "else"), "unless": ("elsif", "else"), "case": ("when", "else"),
                                      "for": ("else",), "tablerow": (), "capture": (), "highlight": ()}
_FOR_ARGS = re.compile(r"^\s*([\w-]+)\s+in\s+(\([^()]*\)|[\w.\-]+(?:\.[\w-]+|\[[^\]]*\])*)(.*)$", re.DOTALL)
_COMPARISON = re.compile(r"^(.+?)(?<!\s)\s*(==|!=|<>|>=|<=|>|<|\bcontains\b)\s*(.+)$", re.DOTALL)
_STRING = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)')\s*$""", re.DOTALL)
#: at most 300 digits (Python's int() raises on 4,300; Liquid's numbers are Ruby's, whole numbers
#: of any size, which a page never writes)
_NUMBER = re.compile(r"^\s*(-?\d{1,300})(\.\d{1,300})?\s*$")
# the value path's parts; a bracket's inner text is stripped afterwards (blanks before the inner
# part taken once, possessively: "a[", 30,000 blanks and "x" took 3.4 s, backtracking over them)
_PATH_PART = re.compile(r"""\.?([\w-]+\??)|\[\s*+("[^"]*"\s*|'[^']*'\s*|[^\]]*)\]""")
# comparisons and and/or start after a word (a lazy left side tried at every blank of a run
# of blanks, scanning the run each time, was quadratic)
_AND_OR = re.compile(r"(?<!\s)\s+(and|or)\s+")
_WHEN_SEP = re.compile(r"(?<!\s)\s*,\s*|(?<!\s)\s+or\s+")


# ------------------------------------------------------------------ parsing

@dataclass(slots=True)
class Branch:
    """One branch of a block tag: the tag that opens it (``if``, ``elsif``, ``else``,
    ``when`` ...), its arguments and its body."""

    name: str
    args: str
    body: list[Node] = field(default_factory=list)


@dataclass(slots=True)
class Tag:
    """``{% name args %}``; ``name == "="`` is an output ``{{ args }}``. A block tag
    (:data:`BLOCKS`) closed by its end tag has ``branches``."""

    name: str
    args: str
    branches: list[Branch] | None = None


Node = str | Tag


def tokens(text: str) -> Iterator[re.Match[str]]:
    """The ``{% %}``/``{{ }}`` tokens of ``text`` in order, in linear time: an opener
    with no closer after it, and every later opener of its kind, is text (each used
    to be scanned to the end of the text: 5,000 ``{{`` took 2.3 s)."""
    closers = {"{%": "%}", "{{": "}}"}
    next_open = {"{%": -1, "{{": -1}  # the next position of each opener at or after pos (-2: none left)
    next_close = {"{%": -1, "{{": -1}  # the first closer after that opener
    pos = 0
    while True:
        for o, at in next_open.items():
            if -2 < at < pos:
                found = text.find(o, pos)
                next_open[o] = found if found >= 0 else -2
        live = [(at, o) for o, at in next_open.items() if at >= 0]
        if not live:
            return
        start, o = min(live)
        if next_close[o] < start + 2:
            next_close[o] = text.find(closers[o], start + 2)
        if next_close[o] < 0:
            next_open[o] = -2  # no closer after it: neither it nor a later one is a token
            continue
        m = _TOKEN.match(text, start)
        if m:
            yield m
            pos = m.end()
        else:
            pos = start + 1


def parse(text: str) -> list[Node]:
    """The tree of ``text``: ``{% raw %}`` bodies literal, ``{% comment %}`` bodies
    dropped, whitespace control applied (``{%-``/``{{-`` strip the whitespace before
    the tag, ``-%}``/``-}}`` the whitespace after it), block tags nested up to
    :data:`MAX_NESTING`. A block tag never closed, a branch tag outside its block and an
    end tag without its block are kept as single tags (rendered as nothing, the text
    around them kept), as Liquid's lax mode reads them. Linear in the length of ``text``."""
    raws: list[str] = []
    key = f"\x00LQ{id(raws)}-"

    def keep_raw(m: re.Match[str]) -> str:
        raws.append(m.group(1))
        return f"{key}{len(raws) - 1}\x00"

    if "{%" in text:
        text = sub_closed(_RAW, _RAW_END, keep_raw, text)
        # a comment leaves an empty tag that keeps its whitespace control ({%- comment -%})
        text = sub_closed(_COMMENT, _COMMENT_END, lambda m: "{%" + "-" * m.group(0).startswith("{%-")
                          + " comment_ " + "-" * m.group(0).endswith("-%}") + "%}", text)
    restore = re.compile(re.escape(key) + r"(\d{1,9})\x00")

    def restored(piece: str) -> str:
        return restore.sub(lambda r: raws[int(r.group(1))] if int(r.group(1)) < len(raws) else "", piece) \
            if raws and key in piece else piece

    flat: list[Node] = []
    pos = 0
    strip_next = False
    for m in tokens(text):
        piece = text[pos:m.start()]
        if strip_next:
            piece = piece.lstrip()
        opener = m.group(0)[:3]
        if opener in ("{%-", "{{-"):
            piece = piece.rstrip()
        if piece:
            flat.append(restored(piece))
        strip_next = m.group(0)[-3:] in ("-%}", "-}}")
        pos = m.end()
        if m.group("expr") is not None:
            flat.append(Tag("=", m.group("expr")))
        else:
            flat.append(Tag(m.group("tag"), m.group("tagargs").strip()))
    piece = text[pos:]
    if strip_next:
        piece = piece.lstrip()
    if piece:
        flat.append(restored(piece))
    return _tree(flat)


def _tree(flat: list[Node]) -> list[Node]:
    root: list[Node] = []
    stack: list[tuple[Tag, list[Node]]] = []  # open blocks, each with the list that holds it

    def body() -> list[Node]:
        branches = stack[-1][0].branches if stack else None
        return branches[-1].body if branches else root

    def unwind(block: Tag, holder: list[Node]) -> None:
        # a block never closed: its tags become single tags, its bodies plain content of its holder
        holder.pop()
        for k, branch in enumerate(block.branches or []):
            holder.append(Tag(block.name if k == 0 else branch.name, branch.args))
            holder.extend(branch.body)

    for node in flat:
        if isinstance(node, str) or node.name == "=":
            body().append(node)
            continue
        name = node.name
        if name in BLOCKS and len(stack) < MAX_NESTING:
            block = Tag(name, node.args, [Branch(name, node.args)])
            holder = body()
            holder.append(block)
            stack.append((block, holder))
        elif stack and name in BLOCKS[stack[-1][0].name]:
            assert stack[-1][0].branches is not None
            stack[-1][0].branches.append(Branch(name, node.args))
        elif name.startswith("end") and any(b.name == name[3:] for b, _ in stack):
            while stack and stack[-1][0].name != name[3:]:
                unwind(*stack.pop())
            stack.pop()
        elif name.startswith("end") and name[3:] in BLOCKS:
            continue  # an end tag without its block (or of a block too deep): nothing
        else:
            body().append(node)
    while stack:
        unwind(*stack.pop())
    return root


# ---------------------------------------------------------------- values

def range_bounds(expr: str) -> tuple[str, str] | None:
    """The two ends of a Liquid range ``(lo..hi)`` (``expr`` stripped), or None. As
    Liquid's ``RangesRegex`` reads it, the last ``..`` splits the two ends, each one
    word; an end holds no parenthesis, so a range never nests (``(1..(1..(...)))``
    3,000 deep was a RecursionError, and ``(`` with 60,000 dots a quadratic scan)."""
    if not (expr.startswith("(") and expr.endswith(")")):
        return None
    lo, sep, hi = expr[1:-1].rpartition("..")
    lo, hi = lo.strip(), hi.strip()
    if not sep or not lo or not hi or any(c.isspace() or c in "()" for c in lo + hi):
        return None
    return lo, hi


def literal(token: str) -> Any:
    """The value of a Liquid literal (``"a"``, ``'a'``, ``3``, ``-1.5``, ``true``,
    ``false``, ``nil``, ``empty``, ``blank``); :data:`UNKNOWN` when ``token`` is not one."""
    m = _STRING.match(token)
    if m:
        return m.group(1) if m.group(1) is not None else m.group(2)
    n = _NUMBER.match(token)
    if n:
        return float(n.group(1) + n.group(2)) if n.group(2) else int(n.group(1))
    word = token.strip()
    return {"true": True, "false": False, "nil": None, "null": None, "empty": EMPTY, "blank": BLANK}.get(word, UNKNOWN)


def to_text(value: Any) -> str:
    """How Liquid writes ``value``: ``nil`` and unknown values as nothing, ``true``/
    ``false``, numbers as Ruby prints them, a list as its items run together."""
    if value is None or value is UNKNOWN or isinstance(value, _Special):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else ""
    if isinstance(value, int) and value.bit_length() > MAX_NUMBER_BITS:
        return ""  # a data file's 4,000-digit number squared: str() raises past 4,300 digits
    if isinstance(value, list):
        return join_bounded(value, "")
    if isinstance(value, dict):
        return ""
    return str(value)


def join_bounded(items: list[Any], sep: str) -> str:
    """``sep.join`` of the items' texts, stopped at :data:`MAX_VALUE_CHARS` characters
    (10,000 items of 100,000 characters are not joined whole)."""
    out: list[str] = []
    size = 0
    for item in items[:MAX_LIST_ITEMS]:
        text = to_text(item)[:MAX_VALUE_CHARS]
        out.append(text)
        size += len(text) + len(sep)
        if size > MAX_VALUE_CHARS:
            break
    return sep.join(out)[:MAX_VALUE_CHARS]


def truthy(value: Any) -> Any:
    """Liquid truth: only ``false`` and ``nil`` are false; :data:`UNKNOWN` stays unknown."""
    if value is UNKNOWN:
        return UNKNOWN
    return value is not None and value is not False


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        n = _NUMBER.match(value)
        if n:
            return float(n.group(1) + n.group(2)) if n.group(2) else int(n.group(1))
    return None


def _is_empty(value: Any) -> bool:
    return value in ("", [], {}) if isinstance(value, (str, list, dict)) else False


def _is_blank(value: Any) -> bool:
    return value is None or value is False or (isinstance(value, str) and not value.strip()) or _is_empty(value)


def equal(left: Any, right: Any) -> Any:
    """Liquid ``==``: numbers by value (``1 == 1.0``), ``empty``/``blank`` as Liquid
    defines them, everything else as Ruby compares it (``"1" != 1``)."""
    if left is UNKNOWN or right is UNKNOWN:
        return UNKNOWN
    if isinstance(right, _Special):
        left, right = right, left
    if isinstance(left, _Special):
        return _is_empty(right) if left is EMPTY else _is_blank(right)
    a, b = _number(left) if not isinstance(left, str) else None, _number(right) if not isinstance(right, str) else None
    if a is not None and b is not None:
        return a == b
    if isinstance(left, bool) or isinstance(right, bool):
        return left is right
    return bool(type(left) is type(right) and left == right) or (left is None and right is None)


def compare(left: Any, op: str, right: Any) -> Any:
    """A Liquid comparison ``left op right``: ``True``/``False``, or :data:`UNKNOWN`."""
    if left is UNKNOWN or right is UNKNOWN:
        return UNKNOWN
    if op == "contains":
        if isinstance(left, str):
            return isinstance(right, (str, int, float)) and not isinstance(right, bool) and str(right) in left
        if isinstance(left, list):
            return any(equal(x, right) is True for x in left)
        if isinstance(left, dict):
            return right in left if isinstance(right, str) else False
        return False
    if op in ("==", "!=", "<>"):
        same = equal(left, right)
        return same if op == "==" else not same
    a, b = _number(left) if not isinstance(left, str) else None, _number(right) if not isinstance(right, str) else None
    if a is None or b is None:
        if isinstance(left, str) and isinstance(right, str):
            a2, b2 = left, right
            return {"<": a2 < b2, ">": a2 > b2, "<=": a2 <= b2, ">=": a2 >= b2}[op]
        return False  # Liquid: "comparison of String with Integer failed", rendered false
    return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


# --------------------------------------------------------------- context

@dataclass(slots=True)
class Context:
    """The variables of one rendering.

    ``scopes``: the variable scopes, outermost first; ``{% assign %}`` and
    ``{% capture %}`` write to ``scopes[0]`` (as Liquid does, so a value assigned in
    a loop body or an include stays set after it), a loop or an include pushes its
    own. ``globals``: objects such as ``site``/``page``; a name found nowhere is
    :data:`UNKNOWN`. ``left``: the shared budget (includes, included characters,
    rendered characters, a flag for one nesting warning, loop iterations).
    ``work``: the work left (:data:`MAX_WORK`; negative once spent).
    ``uncertain``: how many enclosing branches are kept without a known condition."""

    scopes: list[dict[str, Any]]
    globals: dict[str, Any]
    left: list[int]
    warnings: list[str]
    uncertain: int = 0
    interrupt: str = ""
    blocks: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    work: int = MAX_WORK

    def assign(self, name: str, value: Any) -> None:
        if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
            value = value[:MAX_VALUE_CHARS]
        elif isinstance(value, list) and len(value) > MAX_LIST_ITEMS:
            value = value[:MAX_LIST_ITEMS]
        self.scopes[0][name] = value


class Renderer:
    """Renders a parsed template (:func:`parse`) in a :class:`Context`. Subclasses add
    tags (:meth:`tag`, :meth:`block`), filters (:meth:`filter`) and rules for values
    an object lacks (:meth:`missing`)."""

    # -------------------------------------------------------- lookups
    def missing(self, path: list[str | int], depth: int) -> Any:
        """The value of ``path`` whose key ``depth`` is absent: ``nil`` (a hash or a
        list read whole), unless a subclass says it is not known."""
        return None

    def lookup(self, expr: str, ctx: Context) -> Any:
        """The value of a variable path (``a.b[0]["c"]``, ``a[b.c]``, ``list.size``,
        ``list.first``/``.last``), or of a literal; :data:`UNKNOWN` when not known."""
        expr = expr.strip()
        value = literal(expr)
        if value is not UNKNOWN:
            return value
        rng = range_bounds(expr)
        if rng:
            lo, hi = _number(self.lookup(rng[0], ctx)), _number(self.lookup(rng[1], ctx))
            if lo is None or hi is None:
                return UNKNOWN
            lo, hi = int(lo), int(hi)
            return list(range(lo, min(hi, lo + MAX_LOOP_LENGTH - 1) + 1))
        parts: list[str | int] = []
        pos = 0
        while pos < len(expr):
            m = _PATH_PART.match(expr, pos)
            if not m or m.end() == pos or (pos == 0 and m.group(0).startswith((".", "["))):
                return UNKNOWN
            if m.group(1) is not None:
                parts.append(m.group(1))
            else:
                inner = m.group(2).strip()
                key = literal(inner)
                if key is UNKNOWN:
                    key = self.lookup(inner, ctx) if inner and "[" not in inner else UNKNOWN
                if key is UNKNOWN or isinstance(key, (list, dict)) or key is None:
                    return UNKNOWN if key is UNKNOWN else None
                parts.append(int(key) if isinstance(key, (int, float)) and not isinstance(key, bool) else str(key))
            pos = m.end()
        if not parts or not isinstance(parts[0], str):
            return UNKNOWN
        head = parts[0]
        node: Any = UNKNOWN
        for scope in reversed(ctx.scopes):
            if head in scope:
                node = scope[head]
                break
        else:
            if head not in ctx.globals:
                return self.unset(head)
            node = ctx.globals[head]
        for depth, key in enumerate(parts[1:], start=1):
            if node is UNKNOWN or node is None:
                return node
            if isinstance(node, dict):
                if key in node:
                    node = node[key]
                elif key == "size":
                    node = len(node)
                else:
                    return self.missing(parts, depth)
            elif isinstance(node, list):
                if isinstance(key, int):
                    node = node[key] if -len(node) <= key < len(node) else None
                elif key in ("first", "last"):
                    node = (node[0] if key == "first" else node[-1]) if node else None
                elif key == "size":
                    node = len(node)
                else:
                    return None
            elif isinstance(node, str) and key == "size":
                node = len(node)
            else:
                return None
        return node

    def evaluate(self, expr: str, ctx: Context) -> Any:
        """The value of ``value | filter: arg, arg | ...``."""
        parts = split_outside_quotes(expr, "|")
        value = self.lookup(parts[0], ctx) if parts[0].strip() else None
        for flt in parts[1:]:
            if not self.spend(ctx, STEP_COST + _work_of(value)):
                return UNKNOWN
            name, _, argtext = flt.partition(":")
            name = name.strip()
            args = [self.lookup(a, ctx) for a in split_outside_quotes(argtext, ",") if a.strip()] if argtext else []
            value = self.filter(name, value, args, ctx)
        return value

    def condition(self, expr: str, ctx: Context) -> Any:
        """A Liquid condition: comparisons joined by ``and``/``or``, read right to left
        as Liquid does; :data:`UNKNOWN` when a value it needs is not known."""
        parts = _AND_OR.split(expr.strip())
        if not self.spend(ctx, STEP_COST * len(parts)):  # each comparison reads two values
            return UNKNOWN
        result: Any = None
        for i in range(len(parts) - 1, -1, -2):
            m = _COMPARISON.match(parts[i])
            if m:
                value = compare(self.lookup(m.group(1), ctx), m.group(2).strip(), self.lookup(m.group(3), ctx))
            else:
                value = truthy(self.lookup(parts[i], ctx))
            if i == len(parts) - 1:
                result = value
            elif parts[i + 1] == "and":
                result = False if value is False or result is False else \
                    UNKNOWN if UNKNOWN in (value, result) else True
            else:
                result = True if value is True or result is True else \
                    UNKNOWN if UNKNOWN in (value, result) else False
        return result

    # -------------------------------------------------------- filters
    def filter(self, name: str, value: Any, args: list[Any], ctx: Context) -> Any:
        """``value | name: args``: Liquid's standard filters (:data:`FILTERS`); an
        unknown value stays unknown (``default`` too: the value may be set); a filter
        not known here passes the value on."""
        if value is UNKNOWN:
            return UNKNOWN
        fn = FILTERS.get(name)
        if fn is None:
            return value
        args = [None if a is UNKNOWN else a for a in args]
        try:
            return _bounded(fn(value, args))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, KeyError, IndexError):
            return None

    def unset(self, name: str) -> Any:
        """The value of the top-level variable ``name`` that no scope and no global holds:
        :data:`UNKNOWN` (a generator may set it); a generator that knows its payload overrides."""
        return UNKNOWN

    # ----------------------------------------------------------- tags
    def tag(self, name: str, args: str, ctx: Context, out: list[str]) -> None:
        """A tag this interpreter does not know: nothing (a plugin's tag)."""

    def block(self, node: Tag, ctx: Context, out: list[str]) -> None:
        """A block tag other than if/unless/case/for/capture: its body rendered."""
        assert node.branches is not None
        self.render(node.branches[0].body, ctx, out)

    def over_budget(self, ctx: Context) -> None:
        """Called once when the rendered characters run out (a subclass warns)."""

    def over_loop_budget(self, ctx: Context) -> None:
        """Called once when the loop iterations run out."""
        ctx.warnings.append("Liquid loops over the iterations allowed for a page; the rest is left out")

    def over_work(self, ctx: Context) -> None:
        """Called once when the page's work (:data:`MAX_WORK`) runs out."""
        ctx.warnings.append("Liquid over the work allowed for a page; the tags after this point are not run")

    def spend(self, ctx: Context, units: int) -> bool:
        """Take ``units`` from the page's work (:attr:`Context.work`); False once it is
        spent (:meth:`over_work` called the first time)."""
        if ctx.work >= 0:
            ctx.work -= units
            if ctx.work < 0:
                self.over_work(ctx)
        return ctx.work >= 0

    # --------------------------------------------------------- render
    def render(self, nodes: list[Node], ctx: Context, out: list[str]) -> None:
        """Append the rendering of ``nodes`` to ``out``."""
        for node in nodes:
            if ctx.interrupt:
                return
            if ctx.left[2] <= 0:
                if ctx.left[2] > -(1 << 40):
                    self.over_budget(ctx)
                    ctx.left[2] = -(1 << 40)
                return
            if isinstance(node, str):
                out.append(node)
                ctx.left[2] -= len(node)
                continue
            if not self.spend(ctx, STEP_COST + CHAR_COST * len(node.args)) and node.branches is None:
                continue  # past the page's work: a single tag writes nothing (blocks: every branch, once)
            if node.name == "=":
                text = to_text(self.evaluate(node.args, ctx))
                out.append(text)
                ctx.left[2] -= len(text)
            elif node.branches is not None:
                ctx.blocks += 1
                try:
                    self._block(node, ctx, out)
                finally:
                    ctx.blocks -= 1
            elif node.name == "assign":
                name, _, expr = node.args.partition("=")
                if re.fullmatch(r"\s*[\w-]+\s*", name):
                    ctx.assign(name.strip(), self.evaluate(expr, ctx))
            elif node.name in ("break", "continue"):
                if not ctx.uncertain and ctx.state.get("loops", 0):
                    ctx.interrupt = node.name
                    return
            elif node.name in ("increment", "decrement"):
                counters = ctx.state.setdefault("counters", {})
                name = node.args.strip()
                if node.name == "decrement":
                    counters[name] = counters.get(name, 0) - 1
                    out.append(str(counters[name]))
                else:
                    out.append(str(counters.get(name, 0)))
                    counters[name] = counters.get(name, 0) + 1
            else:
                self.tag(node.name, node.args, ctx, out)

    def _block(self, node: Tag, ctx: Context, out: list[str]) -> None:
        branches = node.branches or []
        if node.name in ("if", "unless"):
            for k, branch in enumerate(branches):
                value = True if branch.name == "else" else self.condition(branch.args, ctx)
                if node.name == "unless" and k == 0 and value is not UNKNOWN:
                    value = not value
                if value is UNKNOWN:
                    self._uncertain([b.body for b in branches[k:]], ctx, out)
                    return
                if value:
                    self.render(branch.body, ctx, out)
                    return
        elif node.name == "case":
            subject = self.lookup(node.args, ctx) if ctx.work >= 0 else UNKNOWN
            matched = False
            for k, branch in enumerate(branches[1:], start=1):
                if branch.name == "else":
                    if not matched:
                        self.render(branch.body, ctx, out)
                    continue
                values = [self.lookup(v, ctx) for v in _WHEN_SEP.split(branch.args.strip()) if v]
                hits = [equal(subject, v) for v in values]
                if UNKNOWN in hits and True not in hits:
                    self._uncertain([b.body for b in branches[k:]], ctx, out)
                    return
                if True in hits:
                    matched = True
                    self.render(branch.body, ctx, out)
        elif node.name in ("for", "tablerow"):
            self._for(node, ctx, out)
        elif node.name == "capture":
            inner: list[str] = []
            self.render(branches[0].body, ctx, inner)
            name = node.args.strip().strip("'\"")
            if re.fullmatch(r"[\w-]+", name):
                ctx.assign(name, "".join(inner).replace(DROPPED, ""))
        else:
            self.block(node, ctx, out)

    def _uncertain(self, bodies: list[list[Node]], ctx: Context, out: list[str]) -> None:
        ctx.uncertain += 1
        try:
            for body in bodies:
                self.render(body, ctx, out)
        finally:
            ctx.uncertain -= 1

    def _for(self, node: Tag, ctx: Context, out: list[str]) -> None:
        branches = node.branches or []
        m = _FOR_ARGS.match(node.args)
        items: Any = self.lookup(m.group(2), ctx) if m and ctx.work >= 0 else UNKNOWN
        if isinstance(items, dict):
            items = [[k, v] for k, v in items.items()]
        elif isinstance(items, str):
            items = [items] if items else []
        elif items is None or isinstance(items, (int, float)):
            items = []
        if not isinstance(items, list) or m is None:
            # not known: the body once (its variables unknown), then the else branch
            layer = {m.group(1): UNKNOWN, "forloop": UNKNOWN} if m else {}
            ctx.scopes.append(layer)
            try:
                self._uncertain([b.body for b in branches], ctx, out)
            finally:
                ctx.scopes.pop()
            return
        params = dict(re.findall(r"(limit|offset)\s*:\s*([\w.\-\[\]\"']+)", m.group(3)))
        first = _number(self.lookup(params["offset"], ctx)) if "offset" in params else 0
        count = _number(self.lookup(params["limit"], ctx)) if "limit" in params else len(items)
        first, count = max(0, int(first or 0)), max(0, int(count if count is not None else len(items)))
        items = items[first:first + count]
        if re.search(r"\breversed\b", m.group(3)):
            items = items[::-1]
        if not items:
            for branch in branches[1:]:
                self.render(branch.body, ctx, out)
            return
        length = len(items)
        ctx.state["loops"] = ctx.state.get("loops", 0) + 1
        try:
            for index, item in enumerate(items[:MAX_LOOP_LENGTH]):
                if ctx.left[4] <= 0 or ctx.left[2] <= 0 or ctx.work < 0:
                    if ctx.left[4] == 0:
                        self.over_loop_budget(ctx)
                        ctx.left[4] = -1
                    break
                ctx.left[4] -= 1
                forloop = {"index": index + 1, "index0": index, "rindex": length - index, "rindex0": length - index - 1,
                           "first": index == 0, "last": index == length - 1, "length": length}
                ctx.scopes.append({m.group(1): item, "forloop": forloop})
                try:
                    self.render(branches[0].body, ctx, out)
                finally:
                    ctx.scopes.pop()
                if ctx.interrupt == "break":
                    ctx.interrupt = ""
                    break
                ctx.interrupt = ""
        finally:
            ctx.state["loops"] -= 1


def split_outside_quotes(text: str, sep: str) -> list[str]:
    """Split ``text`` on the character ``sep`` where it is outside single or double quotes
    (Liquid: ``a | f: 'x|y' | g`` on pipes, a filter's ``'a', "b,c"`` on commas)."""
    out, cur, quote_char = [], [], ""
    for ch in text:
        if quote_char:
            cur.append(ch)
            if ch == quote_char:
                quote_char = ""
        elif ch in "'\"":
            quote_char = ch
            cur.append(ch)
        elif ch == sep:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


# ---------------------------------------------------------------- filters

def _work_of(value: Any) -> int:
    """The work of reading ``value`` (:data:`MAX_WORK`'s units)."""
    if isinstance(value, str):
        return len(value) * CHAR_COST
    return len(value) * ITEM_COST if isinstance(value, (list, dict)) else 0


def _bounded(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_NUMBER_BITS:
        return UNKNOWN
    if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
        return value[:MAX_VALUE_CHARS]
    if isinstance(value, list) and len(value) > MAX_LIST_ITEMS:
        return value[:MAX_LIST_ITEMS]
    return value


def _arg(args: list[Any], i: int, default: Any = None) -> Any:
    return args[i] if len(args) > i else default


def _s(value: Any) -> str:
    return to_text(value)


def _num(value: Any) -> int | float:
    n = _number(value)
    return 0 if n is None else n


def _math(op: str) -> Any:
    def run(value: Any, args: list[Any]) -> Any:
        a, b = _num(value), _num(_arg(args, 0))
        if op == "plus":
            return a + b
        if op == "minus":
            return a - b
        if op == "times":
            return a * b
        if op == "divided_by":
            return a // b if isinstance(a, int) and isinstance(b, int) else a / b
        return a % b  # modulo
    return run


def _slice(value: Any, args: list[Any]) -> Any:
    start = int(_num(_arg(args, 0)))
    length = int(_num(_arg(args, 1, 1)))
    if isinstance(value, list):
        seq: Any = value
    else:
        seq = _s(value)
    if start < 0:
        start += len(seq)
    if start < 0 or start >= len(seq):
        return [] if isinstance(value, list) else ""
    return seq[start:start + max(0, length)]


def _prop(item: Any, key: Any) -> Any:
    if isinstance(item, dict):
        return item.get(key) if isinstance(key, str) else None
    return None


def _sort_key(value: Any) -> tuple[int, Any]:
    n = _number(value) if not isinstance(value, str) else None
    if n is not None:
        return (0, n)
    return (1, _s(value)) if value is not None else (2, "")


def _sort(value: Any, args: list[Any], natural: bool = False) -> Any:
    if not isinstance(value, list):
        return value
    key = _arg(args, 0)
    if key is not None:
        return sorted(value, key=lambda it: _sort_key(_prop(it, key)) if not natural
                      else (1, _s(_prop(it, key)).lower()))
    return sorted(value, key=(lambda it: (1, _s(it).lower())) if natural else _sort_key)


def _where(value: Any, args: list[Any]) -> Any:
    if isinstance(value, dict):
        value = list(value.values())
    if not isinstance(value, list):
        return []
    key, want = _arg(args, 0), args[1] if len(args) > 1 else UNKNOWN
    if want is UNKNOWN:  # where: "key" keeps the items whose key is truthy (Liquid 5)
        return [it for it in value if truthy(_prop(it, key)) is True]
    return [it for it in value if equal(_prop(it, key), want) is True
            or (isinstance(_prop(it, key), list) and any(equal(x, want) is True for x in _prop(it, key)))]


def _split(value: Any, args: list[Any]) -> Any:
    text, sep = _s(value), _s(_arg(args, 0, " "))
    if sep == " ":
        return text.split()
    if not sep:
        return list(text)
    parts = text.split(sep)
    while parts and parts[-1] == "":  # Ruby's String#split drops trailing empty fields
        parts.pop()
    return parts


def _truncate(value: Any, args: list[Any]) -> Any:
    text, size, end = _s(value), int(_num(_arg(args, 0, 50))), _s(_arg(args, 1, "..."))
    if len(text) <= size:
        return text
    return text[:max(0, size - len(end))] + end


def _truncatewords(value: Any, args: list[Any]) -> Any:
    words, size, end = _s(value).split(), max(1, int(_num(_arg(args, 0, 15)))), _s(_arg(args, 1, "..."))
    return " ".join(words) if len(words) <= size else " ".join(words[:size]) + end


def _default(value: Any, args: list[Any]) -> Any:
    return _arg(args, 0) if value is None or value is False or _is_empty(value) else value


def _first_last(which: int) -> Any:
    def run(value: Any, args: list[Any]) -> Any:
        if isinstance(value, list):
            return value[which] if value else None
        if isinstance(value, str):
            return value[which] if value else None
        return None
    return run


def _map(value: Any, args: list[Any]) -> Any:
    if isinstance(value, dict):
        value = [value]
    return [_prop(it, _arg(args, 0)) for it in value] if isinstance(value, list) else None


def _find(value: Any, args: list[Any]) -> Any:
    hits = _where(value, args)
    return hits[0] if hits else None


def _replace(text: str, old: str, new: str) -> str:
    """``text.replace(old, new)``, replacing no more occurrences than keep the result
    within :data:`MAX_VALUE_CHARS` (a 100,000-character value with each character
    replaced by 100,000 characters is not built)."""
    if not old:
        return text
    most = -1
    if len(new) > len(old):
        most = max(0, (MAX_VALUE_CHARS - len(text)) // (len(new) - len(old)) + 1)
    return text.replace(old, new, most)


def _uniq_key(item: Any) -> Any:
    if isinstance(item, bool) or item is None:
        return ("b", item)
    if isinstance(item, (int, float)):
        return ("n", item)
    if isinstance(item, str):
        return ("s", item)
    return ("o", repr(item)[:2000])


def _uniq(value: Any, args: list[Any]) -> Any:
    if not isinstance(value, list):
        return value
    seen: dict[Any, Any] = {}
    for item in value:
        seen.setdefault(_uniq_key(item), item)
    return list(seen.values())


def _size(value: Any, args: list[Any]) -> Any:
    return len(value) if isinstance(value, (str, list, dict)) else 0


def _slugify(value: Any, args: list[Any]) -> Any:
    return re.sub(r"[^a-z0-9]+", "-", _s(value).lower()).strip("-")


#: Liquid's standard filters and Jekyll's value filters (not those needing the site)
FILTERS: dict[str, Any] = {
    "append": lambda v, a: _s(v) + _s(_arg(a, 0)),
    "prepend": lambda v, a: _s(_arg(a, 0)) + _s(v),
    "remove": lambda v, a: _s(v).replace(_s(_arg(a, 0)), "") if _s(_arg(a, 0)) else _s(v),
    "remove_first": lambda v, a: _s(v).replace(_s(_arg(a, 0)), "", 1) if _s(_arg(a, 0)) else _s(v),
    "replace": lambda v, a: _replace(_s(v), _s(_arg(a, 0)), _s(_arg(a, 1))),
    "replace_first": lambda v, a: _s(v).replace(_s(_arg(a, 0)), _s(_arg(a, 1)), 1) if _s(_arg(a, 0)) else _s(v),
    "strip": lambda v, a: _s(v).strip(),
    "lstrip": lambda v, a: _s(v).lstrip(),
    "rstrip": lambda v, a: _s(v).rstrip(),
    "upcase": lambda v, a: _s(v).upper(),
    "downcase": lambda v, a: _s(v).lower(),
    "capitalize": lambda v, a: _s(v)[:1].upper() + _s(v)[1:].lower(),
    "strip_html": lambda v, a: re.sub(r"<[^<>]*>", "", _s(v)),
    "strip_newlines": lambda v, a: _s(v).replace("\r", "").replace("\n", ""),
    "newline_to_br": lambda v, a: _s(v).replace("\n", "<br />\n"),
    "escape": lambda v, a: html.escape(_s(v)) if v is not None else None,
    "escape_once": lambda v, a: html.escape(html.unescape(_s(v))),
    "xml_escape": lambda v, a: html.escape(_s(v)) if v is not None else None,
    "url_encode": lambda v, a: quote(_s(v), safe="") if v is not None else None,
    "url_decode": lambda v, a: unquote(_s(v)),
    "cgi_escape": lambda v, a: quote(_s(v), safe=""),
    "uri_escape": lambda v, a: quote(_s(v), safe="/:?#[]@!$&'()*+,;="),
    "truncate": _truncate,
    "truncatewords": _truncatewords,
    "split": _split,
    "join": lambda v, a: join_bounded(v, _s(_arg(a, 0, " "))) if isinstance(v, list) else _s(v),
    "first": _first_last(0),
    "last": _first_last(-1),
    "size": _size,
    "reverse": lambda v, a: v[::-1] if isinstance(v, list) else v,
    "concat": lambda v, a: (v if isinstance(v, list) else [v]) + (_arg(a, 0) if isinstance(_arg(a, 0), list)
                                                                   else [_arg(a, 0)]),
    "compact": lambda v, a: [x for x in v if x is not None] if isinstance(v, list) else v,
    "uniq": _uniq,
    "sort": _sort,
    "sort_natural": lambda v, a: _sort(v, a, natural=True),
    "map": _map,
    "where": _where,
    "find": _find,
    "slice": _slice,
    "default": _default,
    "plus": _math("plus"),
    "minus": _math("minus"),
    "times": _math("times"),
    "divided_by": _math("divided_by"),
    "modulo": _math("modulo"),
    "abs": lambda v, a: abs(_num(v)),
    "ceil": lambda v, a: math.ceil(_num(v)),
    "floor": lambda v, a: math.floor(_num(v)),
    # (digits clamped: round(10, -10**11) builds 10**(10**11))
    "round": lambda v, a: round(_num(v), max(-400, min(400, int(_num(_arg(a, 0)))))) if _arg(a, 0) else round(_num(v)),
    "at_least": lambda v, a: max(_num(v), _num(_arg(a, 0))),
    "at_most": lambda v, a: min(_num(v), _num(_arg(a, 0))),
    "slugify": _slugify,
    "number_of_words": lambda v, a: len(_s(v).split()),
    "normalize_whitespace": lambda v, a: re.sub(r"\s+", " ", _s(v)),
    "array_to_sentence_string": lambda v, a: (", ".join(_s(x) for x in v[:-1]) + f" {_s(_arg(a, 0, 'and'))} "
                                              + _s(v[-1]) if len(v) > 1 else _s(v[0]) if v else "")
    if isinstance(v, list) else _s(v),
}
