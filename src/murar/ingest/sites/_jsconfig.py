"""Reading a few settings from a JavaScript/TypeScript config file, without running it.

Generators such as Docusaurus and VitePress keep their config in code
(``module.exports = {...}``, ``export default defineConfig({...})``). murar only
needs a handful of literal settings (``baseUrl``, ``staticDirectories``, the docs
plugin's ``path``/``routeBasePath``/``exclude``), so these helpers read them with
patterns that accept string, template and array literals and resolve template
placeholders bound by a top-level ``const NAME = '...'``. Anything computed is
reported as unknown (``None``) and the generator's documented default applies.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

_CONST = re.compile(r"""(?m)^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(['"`])([^'"`\n]*)\2""")
_STRING = r"""(?:'([^'\n]*)'|"([^"\n]*)"|`([^`\n]*)`)"""
_DIRNAME_PATH = re.compile(rf"(?:path\s*\.\s*)?(?:join|resolve)\(\s*__dirname\s*((?:,\s*{_STRING}\s*)+),?\s*\)")


def strip_comments(code: str) -> str:
    """``code`` with ``/* */`` and ``//`` comments removed (string contents kept)."""
    out: list[str] = []
    i, n = 0, len(code)
    quote: str | None = None
    while i < n:
        c = code[i]
        if quote:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(code[i + 1])
                i += 2
                continue
            if c == quote:
                quote = None
            i += 1
            continue
        if c in "'\"`":
            quote = c
            out.append(c)
            i += 1
        elif code.startswith("/*", i):
            end = code.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif code.startswith("//", i) and (i == 0 or code[i - 1] != ":"):
            end = code.find("\n", i)
            i = n if end < 0 else end
        else:
            out.append(c)
            i += 1
    return "".join(out)


def constants(code: str) -> dict[str, str]:
    """Top-level ``const NAME = 'literal'`` bindings of ``code``."""
    return {m.group(1): m.group(3) for m in _CONST.finditer(code)}


def _literal(groups: tuple[str | None, ...], consts: dict[str, str]) -> str | None:
    value = next((g for g in groups if g is not None), None)
    if value is None:
        return None
    unresolved = False

    def sub(m: re.Match[str]) -> str:
        nonlocal unresolved
        name = m.group(1).strip()
        if name in consts:
            return consts[name]
        unresolved = True
        return ""

    value = re.sub(r"\$\{([^}]*)\}", sub, value)
    return None if unresolved else value


def _key(key: str) -> str:
    """A pattern for the object key ``key`` written as a name or a quoted string
    (``docs:``, ``"docs":``, ``'docs':``; a JSON-style config is JavaScript too)."""
    k = re.escape(key)
    return rf"""(?:\b{k}|"{k}"|'{k}')"""


def string_setting(code: str, key: str, consts: dict[str, str] | None = None) -> str | None:
    """The first ``key: 'literal'`` in ``code`` (template placeholders resolved), else ``None``."""
    consts = consts if consts is not None else constants(code)
    m = re.search(rf"{_key(key)}\s*:\s*{_STRING}", code)
    if not m:
        return None
    return _literal(m.groups(), consts)


def array_setting(code: str, key: str, consts: dict[str, str] | None = None) -> list[str] | None:
    """The string elements of the first ``key: [...]`` in ``code``, else ``None``."""
    consts = consts if consts is not None else constants(code)
    m = re.search(rf"{_key(key)}\s*:\s*\[([^\]]*)\]", code)
    if not m:
        return None
    out: list[str] = []
    for item in re.finditer(_STRING, m.group(1)):
        value = _literal(item.groups(), consts)
        if value is not None:
            out.append(value)
    return out


def object_block(code: str, key: str) -> str | None:
    """The text of the first ``key: { ... }`` object literal in ``code`` (braces balanced)."""
    m = re.search(rf"{_key(key)}\s*:\s*\{{", code)
    if not m:
        return None
    return object_at(code, m.end() - 1)


def object_blocks(code: str, key: str) -> list[str]:
    """The text of every ``key: { ... }`` object literal in ``code``, in order."""
    out: list[str] = []
    for m in re.finditer(rf"{_key(key)}\s*:\s*\(?\s*\{{", code):
        block = object_at(code, m.end() - 1)
        if block is not None:
            out.append(block)
    return out


def top_level_keys(block: str) -> list[str]:
    """The names of the entries of the object literal body ``block`` at its own level."""
    keys: list[str] = []
    for entry in _top_level_entries(block):
        m = re.match(r"""\s*['"]?([A-Za-z_$][\w$-]*)['"]?\s*:""", entry)
        if m:
            keys.append(m.group(1))
    return keys


def object_entries(block: str) -> list[str]:
    """The entries of the object literal body ``block`` at its own level (``key: value``,
    shorthand ``name``, spread ``...other``), stripped, empty ones left out."""
    return [e.strip() for e in _top_level_entries(block) if e.strip()]


def _top_level_entries(block: str) -> list[str]:
    """The ``key: value`` entries of the object literal body ``block`` at its own
    level (split at commas outside strings, brackets and braces)."""
    n = len(block)
    starts = [0] + [i + 1 for i, c, depth in _structure(block, 0) if c == "," and depth == 0]
    return [block[a:b - 1 if b < n else b] for a, b in zip(starts, [*starts[1:], n + 1], strict=True)]


def top_level_value(block: str, key: str) -> str | None:
    """The source text of ``key``'s value in the object literal body ``block`` at
    its own level (not in a nested object such as ``versions: {current: {path: ...}}``),
    stripped; ``None`` when the object has no such key."""
    for entry in _top_level_entries(block):
        m = re.match(rf"\s*['\"]?{re.escape(key)}['\"]?\s*:(.*)$", entry, re.DOTALL)
        if m:
            return m.group(1).strip()
    return None


def top_level_strings(block: str, key: str, consts: dict[str, str] | None = None) -> list[str] | None:
    """The string elements of ``key``'s array literal at the top level of
    ``block`` (see :func:`top_level_value`; template placeholders resolved,
    other elements skipped), else ``None`` (no such key, or not an array literal)."""
    value = top_level_value(block, key)
    if value is None or not value.startswith("[") or not value.endswith("]"):
        return None
    consts = consts if consts is not None else constants(block)
    out: list[str] = []
    for entry in _top_level_entries(value[1:-1]):
        m = re.fullmatch(_STRING, entry.strip())
        literal = _literal(m.groups(), consts) if m else None
        if literal is not None:
            out.append(literal)
    return out


def array_entries(code: str, key: str) -> list[str] | None:
    """The top-level entries (source text, stripped) of the first ``key: [ ... ]``
    array literal in ``code``, else ``None`` (no such key, or its value is not an
    array literal, e.g. a variable)."""
    m = re.search(rf"{_key(key)}\s*:\s*(\S)", code)
    if not m or m.group(1) != "[":
        return None
    body = _bracketed(code, m.start(1))
    if body is None:
        return None
    return [e.strip() for e in _top_level_entries(body) if e.strip()]


def plugin_entries(code: str) -> list[tuple[str, str | None]]:
    """``(name, options)`` of every entry of every ``plugins: [...]`` array in
    ``code``: a name written as a string literal or ``require.resolve('...')`` is
    that string, any other (``path.resolve(__dirname, './plugins/x')``) its
    source text; ``options`` is the body of the entry's object literal (possibly
    in parentheses or followed by ``satisfies T``), ``None`` without one.

    A ``plugins`` value the config computes (a function it calls, ``(() => {
    let plugins = [...]; if (x) plugins = [...plugins, [...]]; return plugins;
    })()``, a variable) is not an array literal: then every ``['name', {...}]``
    pair written anywhere in ``code`` (a name literal followed by an options
    object) is an entry too, as such code builds the array from them."""
    out: list[tuple[str, str | None]] = []
    for m in re.finditer(rf"{_key('plugins')}\s*:\s*\[", code):
        body = _bracketed(code, m.end() - 1)
        for entry in _top_level_entries(body or ""):
            named = _plugin_entry(entry.strip())
            if named is not None:
                out.append(named)
    computed = any(m.group(1) != "[" for m in re.finditer(rf"{_key('plugins')}\s*:\s*(\S)", code))
    if computed:
        pair = re.compile(rf"\[\s*(?:require\.resolve\(\s*)?{_STRING}\s*\)?\s*,\s*\(?\s*\{{")
        for m in pair.finditer(code):
            body = _bracketed(code, m.start())
            named = _plugin_entry(f"[{body}]") if body is not None else None
            if named is not None and named not in out:
                out.append(named)
    return out


def _plugin_entry(entry: str) -> tuple[str, str | None] | None:
    """``(name, options)`` of one ``plugins`` array entry's source text (see
    :func:`plugin_entries`), ``None`` for an empty one."""
    parts = [entry]
    if entry.startswith("["):
        parts = [e.strip() for e in _top_level_entries(_bracketed(entry, 0) or "")]
    head = parts[0] if parts else ""
    lit = re.fullmatch(rf"(?:require\.resolve\(\s*)?{_STRING}\s*\)?", head)
    name = next((g for g in lit.groups() if g is not None), "") if lit else head
    options = None
    if len(parts) > 1:
        opt = parts[1].lstrip("(").strip()
        if opt.startswith("{"):
            options = object_at(opt, 0)
    return (name, options) if name else None


def preset_entries(code: str) -> list[tuple[str, str | None]] | None:
    """``(name, options)`` of every entry of the ``presets`` array of a Docusaurus
    config: ``'classic'`` gives ``('classic', None)``; ``['classic', {...}]`` (the
    name possibly in ``require.resolve(...)``, the object possibly in parentheses)
    gives the object's body. ``None`` when ``presets`` is missing or not an array
    literal; an entry whose options are not an object literal gets ``None``."""
    entries = array_entries(code, "presets")
    if entries is None:
        return None
    out: list[tuple[str, str | None]] = []
    for entry in entries:
        parts = [entry]
        if entry.startswith("["):
            body = _bracketed(entry, 0)
            parts = [e.strip() for e in _top_level_entries(body or "")]
        m = re.search(_STRING, parts[0]) if parts else None
        name = next((g for g in m.groups() if g is not None), "") if m else ""
        options = None
        if len(parts) > 1:
            opt = parts[1].lstrip("(").strip()
            if opt.startswith("{"):
                options = object_at(opt, 0)
        out.append((name, options))
    return out


def _structure(code: str, start: int) -> Iterator[tuple[int, str, int]]:
    """``(index, char, depth)`` of each bracket and comma of the JavaScript ``code``
    from ``start`` on, outside string and template literals; ``depth`` is the
    bracket depth after the character (an opening bracket counts itself)."""
    depth, quote, i, n = 0, "", start, len(code)
    while i < n:
        c = code[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"`":
            quote = c
        elif c in "{[(,}])":
            depth += 1 if c in "{[(" else -1 if c != "," else 0
            yield i, c, depth
        i += 1


def _bracketed(code: str, start: int) -> str | None:
    """The inside of the bracketed literal opened at ``code[start]`` (``[``, ``{``
    or ``(``; nested brackets and strings skipped), else ``None``."""
    for i, c, depth in _structure(code, start):
        if depth == 0 and c in "}])":
            return code[start + 1 : i]
    return None


def top_level_string(block: str, key: str, consts: dict[str, str] | None = None) -> str | None:
    """The string value of ``key`` at the top level of ``block`` (see
    :func:`top_level_value`): a string literal (template placeholders resolved),
    a name bound by a top-level ``const NAME = '...'``, or
    ``path.join(__dirname, 'a', 'b')`` / ``path.resolve(...)`` as the posix path
    ``a/b`` relative to the config's folder; else ``None``."""
    value = top_level_value(block, key)
    if value is None:
        return None
    consts = consts if consts is not None else constants(block)
    m = re.fullmatch(_STRING, value)
    if m:
        return _literal(m.groups(), consts)
    if value in consts:  # path: DOCS_DIR, bound by const DOCS_DIR = '...'
        return consts[value]
    call = _DIRNAME_PATH.fullmatch(value)
    if call:  # path.join(__dirname, '../docs'): relative to the config's folder
        parts = [_literal(p.groups(), consts) for p in re.finditer(_STRING, call.group(1))]
        return None if any(p is None for p in parts) else posixpath.join(*(p for p in parts if p is not None))
    return None


def object_at(code: str, start: int) -> str | None:
    """The inside of the object literal whose ``{`` is at ``code[start]`` (braces balanced)."""
    m_end = start + 1
    depth, i = 0, start
    while i < len(code):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return code[m_end:i]
        i += 1
    return None
