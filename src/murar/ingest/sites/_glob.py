"""One glob matcher for every generator module: patterns parsed into tokens
and brace groups, matched by a finite automaton, never by backtracking and
never by expanding the braces into strings.

A pattern is parsed into literals, ``?``, ``[...]`` classes, ``*`` (any run
of characters but ``/``), ``**`` (any run of characters) and ``{a,b}`` groups
whose alternatives are token sequences (nested groups allowed). The tokens
become a Thompson automaton (states; a star is a state that loops), run as a
set of states over the value: a lazily built DFA whose transitions are cached
per compiled pattern. Time is ``O(len(value) * len(pattern))`` at worst
(a cache miss costs one pass over the states), ``O(len(value))`` once warm,
whatever the pattern: ``*a*a*a*a*a*b`` on a 10,000-character name or thirty
``{...}`` groups of ten alternatives (10**30 strings if expanded) are a few
milliseconds. Expanding braces into strings also merged stars across a group
(``*{}*`` became ``**``, which crosses folders); tokens keep the two stars
two stars.

What differs between generators is a :class:`GlobSyntax`:

- :data:`PATH` — ``fnmatch``-like path globs, no braces: ``**`` crosses
  folders, ``*``/``?`` stay in one segment, ``[...]`` sets; MkDocs
  ``exclude_docs`` (gitignore lines, translated by the MkDocs module), Jekyll
  ``exclude``/``include`` and front-matter-default scopes, mystmd
  ``project.exclude`` and Jupyter Book TOC globs.
  ``**/`` also matches no folder at all, as in minimatch.
- :data:`SPHINX` — :data:`PATH` without that ``**/`` rule: Sphinx
  ``exclude_patterns`` as ``sphinx.util.matching.get_matching_files`` reads
  them when it discovers the source files (``_translate_pattern``: ``**`` is
  ``.*``, ``*`` is ``[^/]*``), so ``**/drafts`` needs a folder before
  ``drafts`` and ``a/**/b`` does not match ``a/b``.
- :data:`DOCUSAURUS` — :data:`PATH` plus braces (Docusaurus passes
  ``include``/``exclude`` to globby, i.e. micromatch): every paired
  ``{...}`` is a group; an unpaired brace is a literal.
- :data:`DOCFX` — :data:`PATH` plus braces as DocFX's file-mapping globs
  expand them (dotnet.github.io/docfx, "docfx.json" ``files``/``exclude``;
  ``docfx init`` writes ``**/*.{md,yml}``): a paired ``{...}`` holding a comma
  is a group, any other brace a literal; without regard to case (DocFX's
  ``GlobMatcher`` default options ignore case).
- :data:`INCLUDE_MARKDOWN` — mkdocs-include-markdown-plugin's globs (wcmatch
  ``glob`` with ``GLOBSTAR | BRACE``, the plugin's ``GLOB_FLAGS``): a paired
  ``{...}`` holding a comma is a group (``{a}`` stays literal, as bracex expands
  them), ``**`` crosses folders only as a whole path segment.
- :data:`HUGO` — gobwas/glob as Hugo uses it (gohugo.io "Glob patterns",
  pkg.go.dev/github.com/gobwas/glob): ``**`` any characters (no ``**/``
  rule: ``a/**/b`` does not match ``a/b``), every ``{...}`` a group and an
  unpaired brace an invalid pattern (no match), ``[`` a literal (as the Hugo
  module always read it), without regard to case, at most 512 characters.

Everywhere a comma outside a group is a literal comma.

Bounds: a pattern longer than the syntax's ``max_chars``, with groups nested
deeper than :data:`MAX_GROUP_DEPTH` or with more than :data:`MAX_ALTERNATIVES`
alternatives in all is refused: :func:`compile_glob` returns ``None`` and
:func:`glob_match` is ``False``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Literal

#: patterns nested deeper than this many ``{...}`` groups are refused
MAX_GROUP_DEPTH = 32
#: patterns whose groups hold more alternatives than this, all groups counted, are refused
MAX_ALTERNATIVES = 1024
#: cached DFA transitions (and characters' state sets) kept per compiled pattern; emptied when full
_MAX_TRANSITIONS = 8192

# automaton state kinds
_CHAR, _STAR, _GLOBSTAR, _SPLIT, _JUMP, _MATCH = range(6)


@dataclass(frozen=True, slots=True)
class GlobSyntax:
    """How one generator reads a glob.

    Attributes:
        braces: ``"none"``: ``{``, ``}`` and ``,`` are literals; ``"all"``:
            every paired ``{...}`` is a group of comma-separated alternatives
            (``{a}`` is one alternative); ``"comma"``: only a paired ``{...}``
            with a comma of its own (not one inside a nested pair) is a group.
        strict_braces: an unpaired ``{`` or ``}`` makes the pattern invalid
            (it matches nothing) instead of being a literal.
        classes: ``[abc]``, ``[a-z]``, ``[!...]`` are character classes (a
            negated class never matches ``/``); otherwise ``[`` is a literal.
        dir_globstar: ``**/`` also matches no folder at all (``**/x`` matches
            ``x``), as minimatch reads it; otherwise ``**`` is just any run of
            characters.
        ignore_case: pattern and value are compared lower-cased (``str.lower``).
        max_chars: longer patterns are refused (characters).
        segment_globstar: ``**`` crosses folders only as a whole path segment
            (``a/**/b``, ``**/x``, ``docs/**``); inside a segment (``n**.md``) it
            is a ``*``, as wcmatch's ``GLOBSTAR`` reads it.
    """

    braces: Literal["none", "all", "comma"] = "none"
    strict_braces: bool = False
    classes: bool = True
    dir_globstar: bool = True
    ignore_case: bool = False
    max_chars: int = 4096
    segment_globstar: bool = False


PATH = GlobSyntax()
SPHINX = GlobSyntax(dir_globstar=False)
INCLUDE_MARKDOWN = GlobSyntax(braces="comma", segment_globstar=True)
DOCUSAURUS = GlobSyntax(braces="all")
DOCFX = GlobSyntax(braces="comma", ignore_case=True)
HUGO = GlobSyntax(braces="all", strict_braces=True, classes=False, dir_globstar=False, ignore_case=True,
                  max_chars=512)


@dataclass(frozen=True, slots=True)
class _Class:
    """A ``[...]`` class: its single characters, ``(lo, hi)`` ranges, and whether it is negated."""

    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]
    negated: bool

    def accepts(self, ch: str) -> bool:
        inside = ch in self.chars or any(lo <= ch <= hi for lo, hi in self.ranges)
        return (not inside and ch != "/") if self.negated else inside


class _Refused(Exception):
    """The pattern is over a bound or invalid for its syntax."""


@dataclass(slots=True)
class Glob:
    """A compiled glob (:func:`compile_glob`); :meth:`match` tests a value.

    The automaton's states are bits of an ``int``; ``after[k]`` is the set of
    states reached once state ``k`` has consumed a character (the character's
    state's successor or, for a star, the star itself, each with its empty
    moves followed). ``folder`` holds the states from which only an
    alternative's trailing ``/`` literals are left before the end, and
    ``folder_end`` the ``**`` states followed by such a tail (see ``or_below``).
    """

    pattern: str
    ignore_case: bool
    start: int
    accept: int
    folder: int
    folder_end: int
    after: tuple[int, ...]
    literals: dict[str, int]
    not_slash: int  # '?' and '*' states
    any_char: int  # '**' states
    classes: tuple[tuple[int, _Class], ...]
    _consume: dict[str, int] = field(default_factory=dict)
    _steps: dict[tuple[int, str], int] = field(default_factory=dict)

    def match(self, value: str, *, or_below: bool = False) -> bool:
        """True when the whole ``value`` matches the pattern; with ``or_below``
        also when ``value`` lies below a folder that matches it, each brace
        alternative read without its trailing ``/`` (``drafts/`` and ``{a/,b}``
        exclude ``drafts/x.md`` and ``a/x.md``): what ``pattern.rstrip("/") +
        "/**"`` meant for every alternative. Never raises."""
        if self.ignore_case:
            value = value.lower()
        states, steps = self.start, self._steps
        for ch in value:
            if or_below and ch == "/" and states & self.folder:
                return True
            nxt = steps.get((states, ch))
            if nxt is None:
                nxt = self._step(states, ch)
                if len(steps) >= _MAX_TRANSITIONS:
                    steps.clear()
                steps[(states, ch)] = nxt
            if not nxt:
                return False
            states = nxt
        return bool(states & (self.accept | (self.folder_end if or_below else 0)))

    def _step(self, states: int, ch: str) -> int:
        """The states after ``ch`` from ``states`` (one pass over the states that consume it)."""
        consume = self._consume.get(ch)
        if consume is None:
            consume = self.literals.get(ch, 0) | self.any_char | (self.not_slash if ch != "/" else 0)
            for bit, cls in self.classes:
                if cls.accepts(ch):
                    consume |= bit
            if len(self._consume) >= _MAX_TRANSITIONS:
                self._consume.clear()
            self._consume[ch] = consume
        live, out = states & consume, 0
        while live:
            low = live & -live
            out |= self.after[low.bit_length() - 1]
            live ^= low
        return out


def glob_match(value: str, pattern: str, syntax: GlobSyntax = PATH, *, or_below: bool = False) -> bool:
    """True when the whole ``value`` (a posix path, or a Hugo target value)
    matches ``pattern`` read with ``syntax`` (with ``or_below``, also a value
    below a folder that matches, :meth:`Glob.match`); ``False`` for a refused
    pattern. ``O(len(value) * len(pattern))`` at worst. Never raises."""
    glob = compile_glob(pattern, syntax)
    return glob is not None and glob.match(value, or_below=or_below)


#: extglobs read in one pattern (more are refused: the pattern matches nothing)
MAX_EXTGLOBS = 8


def extglob_match(value: str, pattern: str, syntax: GlobSyntax = PATH) -> bool:
    """:func:`glob_match` for a pattern that may hold micromatch's extglobs (the
    globs Docusaurus hands to globby for ``include``/``exclude``; picomatch's
    translation): ``@(a|b)`` one of the alternatives, ``?(a|b)`` one or none,
    ``*(a|b)`` and ``+(a|b)`` any run (read loosely as ``*``), and ``!(a|b)``
    any run that does not start with an alternative there (picomatch's
    ``(?!(?:a|b))[^/]*?``; right after a ``*`` it is the same as ``*``, an
    alternative holding a ``*`` is tested with the rest of the pattern, as
    picomatch does). ``docs/!(drafts)/**`` matches ``docs/api/x.md`` and not
    ``docs/drafts/x.md``; ``**/*!(.partial).md`` matches every ``.md``, as
    globby does. A pattern with more than :data:`MAX_EXTGLOBS` extglobs or an
    unclosed one matches nothing. Never raises."""
    spans = _extglobs(pattern)
    if spans is None:
        return False
    if not spans:
        return glob_match(value, pattern, syntax)
    positive = _extglob_pattern(pattern, spans, None)
    if not glob_match(value, positive, syntax):
        return False
    for k, (start, end, op) in enumerate(spans):
        if op != "!" or (start > 0 and pattern[start - 1] == "*"):
            continue
        if glob_match(value, _extglob_pattern(pattern, spans, k), syntax):
            return False
    return True


def _extglobs(pattern: str) -> list[tuple[int, int, str]] | None:
    """``(start, end, operator)`` of each top-level extglob ``X(...)`` of
    ``pattern`` (``end`` past its ``)``); ``None`` when one never closes or
    there are more than :data:`MAX_EXTGLOBS`."""
    spans: list[tuple[int, int, str]] = []
    i = 0
    while i < len(pattern) - 1:
        if pattern[i] in "!@?+*" and pattern[i + 1] == "(":
            depth, j = 0, i + 1
            while j < len(pattern):
                depth += 1 if pattern[j] == "(" else -1 if pattern[j] == ")" else 0
                if depth == 0:
                    break
                j += 1
            if j >= len(pattern) or len(spans) >= MAX_EXTGLOBS:
                return None
            spans.append((i, j + 1, pattern[i]))
            i = j + 1
            continue
        i += 1
    return spans


def _extglob_pattern(pattern: str, spans: list[tuple[int, int, str]], negated: int | None) -> str:
    """``pattern`` with its extglobs as plain globs: each one as the run or group
    it stands for; with ``negated``, that ``!(...)`` as the group of its
    alternatives (then any run, unless an alternative holds a ``*``)."""
    out: list[str] = []
    pos = 0
    for k, (start, end, op) in enumerate(spans):
        out.append(pattern[pos:start])
        alts = pattern[start + 2:end - 1].split("|")
        group = "{" + ",".join(alts) + "}"
        if k == negated:
            out.append(group + ("" if any("*" in a for a in alts) else "*"))
        elif op == "@":
            out.append(group)
        elif op == "?":
            out.append("{" + ",".join([*alts, ""]) + "}")
        else:  # '!', '*', '+': any run
            out.append("*")
        pos = end
    out.append(pattern[pos:])
    return "".join(out)


@functools.lru_cache(maxsize=1024)
def compile_glob(pattern: str, syntax: GlobSyntax = PATH) -> Glob | None:
    """``pattern`` compiled for ``syntax``, or ``None`` when it is invalid for
    it (an unpaired brace under ``strict_braces``) or over a bound (longer than
    ``syntax.max_chars``, groups deeper than :data:`MAX_GROUP_DEPTH`, more than
    :data:`MAX_ALTERNATIVES` alternatives). Never raises."""
    if len(pattern) > syntax.max_chars:
        return None
    if syntax.ignore_case:
        pattern = pattern.lower()
    try:
        return _Builder(pattern, syntax).build()
    except _Refused:
        return None


class _Builder:
    """Parses a pattern straight into automaton states (see :class:`Glob`)."""

    def __init__(self, pattern: str, syntax: GlobSyntax) -> None:
        self.pattern, self.syntax = pattern, syntax
        self.kinds: list[int] = []
        self.args: list[object] = []  # _CHAR: a character, None ('?') or a _Class; _SPLIT: targets; _JUMP: target
        self.groups = self._groups() if syntax.braces != "none" else {}
        self.alternatives = 0

    def _groups(self) -> dict[int, list[int]]:
        """``{`` index -> indices of its separating commas and its ``}`` (last),
        for the pairs that are groups under the syntax. One pass with a stack."""
        pattern, syntax = self.pattern, self.syntax
        stack: list[tuple[int, list[int]]] = []
        groups: dict[int, list[int]] = {}
        for i, ch in enumerate(pattern):
            if ch == "{":
                stack.append((i, []))
            elif ch == "," and stack:
                stack[-1][1].append(i)
            elif ch == "}":
                if not stack:
                    if syntax.strict_braces:
                        raise _Refused
                    continue
                start, commas = stack.pop()
                if syntax.braces == "all" or commas:
                    groups[start] = commas + [i]
        if stack and syntax.strict_braces:
            raise _Refused
        return groups

    def build(self) -> Glob:
        self._sequence(0, len(self.pattern), 0)
        self._add(_MATCH, None)
        kinds, args, n = self.kinds, self.args, len(self.kinds)
        nexts = self._next_tokens()
        slashes = sum(1 << k for k in range(n) if kinds[k] == _CHAR and args[k] == "/")
        skips = self._dir_skips(nexts, slashes) if self.syntax.dir_globstar else {}
        folder = 1 << (n - 1)  # the end, and the '/' literals before it (through group exits only)
        for k in range(n - 2, -1, -1):
            if slashes >> k & 1 and nexts[k + 1] & folder:
                folder |= 1 << k
        folder_end = sum(1 << k for k in range(n) if kinds[k] == _GLOBSTAR and nexts[k + 1] & folder)
        closure = [0] * (n + 1)
        loops = [0] * n  # a star once it has consumed a character: no '**/' skip any more
        for k in range(n - 1, -1, -1):  # every empty move goes forward: one backward pass
            kind = kinds[k]
            if kind == _SPLIT:
                targets = args[k]
                assert isinstance(targets, list)
                closure[k] = functools.reduce(int.__or__, (closure[t] for t in targets), 0)
            elif kind == _JUMP:
                target = args[k]
                assert isinstance(target, int)
                closure[k] = closure[target]
            elif kind in (_STAR, _GLOBSTAR):
                loops[k] = closure[k] = 1 << k | closure[k + 1]
                for t in skips.get(k, ()):
                    closure[k] |= closure[t]
            else:
                closure[k] = 1 << k
        after = tuple(loops[k] or (closure[k + 1] if kinds[k] == _CHAR else 0) for k in range(n))
        literals: dict[str, int] = {}
        not_slash = any_char = 0
        classes: list[tuple[int, _Class]] = []
        for k, (kind, arg) in enumerate(zip(kinds, args, strict=True)):
            if kind == _STAR or (kind == _CHAR and arg is None):
                not_slash |= 1 << k
            elif kind == _GLOBSTAR:
                any_char |= 1 << k
            elif kind == _CHAR and isinstance(arg, str):
                literals[arg] = literals.get(arg, 0) | 1 << k
            elif kind == _CHAR and isinstance(arg, _Class):
                classes.append((1 << k, arg))
        return Glob(self.pattern, self.syntax.ignore_case, closure[0], 1 << (n - 1), folder, folder_end, after,
                    literals, not_slash, any_char, tuple(classes))

    def _add(self, kind: int, arg: object) -> int:
        self.kinds.append(kind)
        self.args.append(arg)
        return len(self.kinds) - 1

    def _sequence(self, lo: int, hi: int, depth: int) -> None:
        """States for ``pattern[lo:hi]``: runs of tokens between its groups, and the groups."""
        i = lo
        while i < hi:
            bounds = self.groups.get(i)
            if bounds is None:
                end = next((j for j in range(i, hi) if j in self.groups), hi)
                self._run(i, end)
                i = end
                continue
            if depth >= MAX_GROUP_DEPTH:
                raise _Refused
            self.alternatives += len(bounds)
            if self.alternatives > MAX_ALTERNATIVES:
                raise _Refused
            split = self._add(_SPLIT, None)
            starts, jumps, begin = [], [], i + 1
            for stop in bounds:
                starts.append(len(self.kinds))
                self._sequence(begin, stop, depth + 1)
                jumps.append(self._add(_JUMP, None))
                begin = stop + 1
            self.args[split] = starts
            for j in jumps:
                self.args[j] = len(self.kinds)
            i = bounds[-1] + 1

    def _run(self, lo: int, hi: int) -> None:
        """States for ``pattern[lo:hi]``, which holds no group: stars (``**``
        taken first in a run of them), ``?``, classes, literals."""
        pattern, i = self.pattern, lo
        while i < hi:
            ch = pattern[i]
            if ch == "*":
                double = i + 1 < hi and pattern[i + 1] == "*"
                alone = (i == 0 or pattern[i - 1] == "/") and (i + 2 >= len(pattern) or pattern[i + 2] == "/")
                self._add(_GLOBSTAR if double and (alone or not self.syntax.segment_globstar) else _STAR, None)
                i += 2 if double else 1
            elif ch == "?":
                self._add(_CHAR, None)
                i += 1
            elif ch == "[" and self.syntax.classes and (close := pattern.find("]", i + 1, hi)) != -1:
                self._add(_CHAR, _parse_class(pattern[i + 1:close]))
                i = close + 1
            else:
                self._add(_CHAR, ch)
                i += 1

    def _next_tokens(self) -> list[int]:
        """Per state, the token states reached through group entries and exits
        only (not through an empty star): a token state is its own."""
        kinds, args, n = self.kinds, self.args, len(self.kinds)
        nexts = [0] * n
        for k in range(n - 1, -1, -1):
            if kinds[k] == _SPLIT:
                targets = args[k]
                assert isinstance(targets, list)
                nexts[k] = functools.reduce(int.__or__, (nexts[t] for t in targets), 0)
            elif kinds[k] == _JUMP:
                target = args[k]
                assert isinstance(target, int)
                nexts[k] = nexts[target]
            else:
                nexts[k] = 1 << k
        return nexts

    def _dir_skips(self, nexts: list[int], slashes: int) -> dict[int, list[int]]:
        """For ``**/``: a ``**`` state whose next token is a ``/`` literal (through
        group entries and exits only, not through other stars) may skip both."""
        skips: dict[int, list[int]] = {}
        for k, kind in enumerate(self.kinds):
            hits = nexts[k + 1] & slashes if kind == _GLOBSTAR else 0
            while hits:
                low = hits & -hits
                skips.setdefault(k, []).append(low.bit_length())  # the state after that '/'
                hits ^= low
        return skips


def _parse_class(body: str) -> _Class:
    """A ``[...]`` body: ``!`` first negates; ``a-z`` is a range (a reversed one
    matches nothing); every other character stands for itself."""
    negated = body.startswith("!")
    body = body[1:] if negated else body
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    k = 0
    while k < len(body):
        if k + 2 < len(body) and body[k + 1] == "-":
            if body[k] <= body[k + 2]:
                ranges.append((body[k], body[k + 2]))
            k += 3
            continue
        chars.add(body[k])
        k += 1
    return _Class(frozenset(chars), tuple(ranges), negated)
