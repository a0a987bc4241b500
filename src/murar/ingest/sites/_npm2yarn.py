"""Docusaurus' npm2yarn remark plugin: an npm command block shown as package-manager tabs.

``@docusaurus/remark-plugin-npm2yarn`` (listed in a content plugin's
``remarkPlugins``) replaces each code block whose meta is exactly ``npm2yarn``
(```` ```bash npm2yarn ````) with ``<Tabs>``: an ``npm`` tab holding the code as
written, then one tab per converter (Docusaurus 3: ``converters``, default
``['yarn', 'pnpm']``, labelled ``Yarn`` and ``pnpm``; Docusaurus 2: ``Yarn``
only), each holding the code converted by the ``npm-to-yarn`` package.

:func:`convert_npm` follows npm-to-yarn 2.2 (``convert(code, to)``): every
``npm ...`` run up to ``&`` or the line end is one command, split on spaces
outside quotes, its sub-command mapped by the package's tables (``install x``
→ ``yarn add x`` / ``pnpm add x``, ``-D`` → ``--dev`` for Yarn, ``run build``
→ ``yarn build``, ...); a command the tables lack reads ``npm <command>`` plus
the package's ``# couldn't auto-convert command`` line. Checked against
npm-to-yarn 2.2.1 under Node on the test cases.
"""

from __future__ import annotations

import re

from murar.ingest.markup.tabs import set_close, set_open, tab_start

__all__ = ["LABELS", "convert_npm", "npm2yarn_tabs"]

#: a converter's tab label (the plugin labels "yarn" "Yarn" and the others by their name)
LABELS = {"yarn": "Yarn", "pnpm": "pnpm"}

_COMMAND = re.compile(r"npm(?: +([^&\n\r]*))?")
_UNCHANGED = frozenset({"test", "login", "logout", "link", "unlink", "publish", "cache", "start", "stop"})
_YARN_COMMANDS = frozenset({
    "init", "run", "add", "audit", "autoclean", "bin", "check", "config", "create", "dedupe",
    "generate-lock-entry", "global", "help", "import", "info", "install", "licenses", "list", "lockfile",
    "outdated", "owner", "pack", "policies", "prune", "remove", "self-update", "tag", "team", "upgrade",
    "upgrade-interactive", "version", "versions", "why", "workspace", "workspaces"})
_YARN_INSTALL_FLAGS = {"--save-dev": "--dev", "-D": "--dev", "--save-prod": "--production", "-P": "--production",
                       "--no-package-lock": "--no-lockfile", "--save-optional": "--optional", "-O": "--optional",
                       "--save-exact": "--exact", "-E": "--exact", "--save": "", "-S": "", "--global": "",
                       "-g": ""}
_UNCONVERTED = "\n# couldn't auto-convert command"


def _split(command: str) -> list[str]:
    """npm-to-yarn's ``parse``: the words of ``command`` split on spaces outside quotes."""
    args: list[str] = []
    part, quote, escaped = "", "", False
    for ch in command:
        if ch == "\\":
            part, escaped = part + ch, True
            continue
        if ch == " " and not quote:
            args.append(part)
            part = ""
        elif not escaped and ch in "\"'":
            part += ch
            quote = "" if ch == quote else (quote or ch)
        else:
            part += ch
        escaped = False
    args.append(part)
    return args


def _yarn_install_args(args: list[str]) -> list[str]:
    if "--global" in args or "-g" in args:
        args = ["global", *args]
    return [_YARN_INSTALL_FLAGS.get(a, a) for a in args]


def _to_yarn(args: list[str]) -> list[str] | None:
    cmd = args[0]
    if cmd in _UNCHANGED:
        return args
    if cmd in ("install", "i"):
        return ["install"] if len(args) == 1 else _yarn_install_args(["add", *args[1:]])
    if cmd in ("uninstall", "un", "remove", "r", "rm"):
        return _yarn_install_args(["remove", *args[1:]])
    if cmd == "version":
        return [f"--{a}" if a in ("major", "minor", "patch") else a for a in args]
    if cmd in ("rebuild", "rb"):
        return ["add", *args[1:], "--force"]
    if cmd in ("run", "exec"):
        args = ["run", *args[1:]]
        if len(args) > 1 and args[1] and args[1] not in _UNCHANGED and args[1] not in _YARN_COMMANDS:
            args = args[1:]
        return args
    if cmd in ("ls", "list"):
        packages: list[str] = []
        for item in args[1:]:
            if item.startswith("-"):
                break
            packages.append(item)
        rest = args[1 + len(packages):]
        return ["list", *(["--pattern", '"' + "|".join(packages) + '"'] if packages else []), *rest]
    if cmd == "init":
        args = ["create", *args[1:]] if len(args) > 1 and args[1] and not args[1].startswith("-") else args
        return [a for a in args if a != "--scope"]
    if cmd in ("ln", "t", "tst", "outdated"):
        return [{"ln": "link", "t": "test", "tst": "test"}.get(cmd, cmd), *args[1:]]
    if cmd == "pack":
        return [re.sub(r"^--pack-destination[\s=]", "--filename ", a) for a in args]
    return None


def _pnpm_filter(args: list[str]) -> list[str]:
    names = [a for a in args[1:] if not a.startswith("-")]
    if len(args) > 1 and names:
        return [args[0], *(a for a in args[1:] if a.startswith("-")), "--filter", " ".join(names)]
    return args


def _to_pnpm(args: list[str]) -> list[str] | None:
    cmd = args[0]
    install_flags = {"--save": "", "-S": "", "--no-package-lock": "--frozen-lockfile"}
    if cmd in ("install", "i"):
        if len(args) > 1 and sum(not a.startswith("-") for a in args) > 1:
            args = ["add", *args[1:]]
        return [install_flags.get(a, a) for a in args]
    if cmd in ("uninstall", "un", "remove", "r", "rm"):
        return [install_flags.get(a, a) for a in ["remove", *args[1:]]]
    if cmd in ("rebuild", "rb"):
        return _pnpm_filter(["rebuild", *args[1:]])
    if cmd in ("ls", "list"):
        return [f"--depth {a.split('=')[1]}" if a.startswith("--depth=") else
                {"--production": "--prod", "--development": "--dev"}.get(a, a) for a in args]
    if cmd == "init":
        args = ["create", *args[1:]] if len(args) > 1 and args[1] and not args[1].startswith("-") else args
        return [a for a in args if a != "--scope"]
    if cmd == "unlink":
        return _pnpm_filter(args)
    if cmd == "pack":
        return [re.sub(r"^--pack-destination[\s=]", "--pack-destination ", a) for a in args]
    simple = {"run": "run", "exec": "exec", "ln": "link", "t": "test", "test": "test", "tst": "test",
              "start": "start", "link": "link", "outdated": "outdated"}
    return [simple[cmd], *args[1:]] if cmd in simple else None


def convert_npm(code: str, to: str) -> str:
    """``code`` with each npm command converted for the package manager ``to``
    (``yarn`` or ``pnpm``), as npm-to-yarn 2.2 converts it (module doc).
    Linear in the length of ``code``."""
    table = {"yarn": _to_yarn, "pnpm": _to_pnpm}[to]

    def one(m: re.Match[str]) -> str:
        command = m.group(1)
        args = _split((command or "").strip())
        if "--" in args:
            args.remove("--")
        out = table(args) if args and args[0] else None
        if out is None:  # a bare "npm" prints JavaScript's undefined, as the package does
            return f"npm {'undefined' if command is None else command}{_UNCONVERTED}"
        return f"{to} " + " ".join(a for a in out if a)

    return _COMMAND.sub(one, code)


_OPEN = re.compile(r"^(?P<indent>[ \t]{0,3}(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?[ \t]*)"
                   r"(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[^\s`]+)[ \t]+npm2yarn[ \t]*$")


def npm2yarn_tabs(text: str, converters: tuple[str, ...]) -> str:
    """``text`` with each fenced block whose meta is ``npm2yarn`` written as a tab set
    (module doc): the ``npm`` tab with the code as written, then a tab per converter
    (``yarn``, ``pnpm``; the plugin's known ones). Other blocks and lines are left as they are; an
    unclosed block is left alone. Linear in the lines of ``text``."""
    if "npm2yarn" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    fence_re = re.compile(r"^[ \t]*(`{3,}|~{3,})")
    inside: str | None = None  # the fence of the code block the scan is in
    while i < len(lines):
        line = lines[i]
        if inside is not None:
            m = fence_re.match(line)
            if m and m.group(1)[0] == inside[0] and len(m.group(1)) >= len(inside) and not line.strip()[
                    len(m.group(1)):].strip():
                inside = None
            out.append(line)
            i += 1
            continue
        m = _OPEN.match(line)
        if m is None:
            fm = fence_re.match(line)
            if fm:
                inside = fm.group(1)
            out.append(line)
            i += 1
            continue
        fence = m.group("fence")
        end = next((j for j in range(i + 1, len(lines))
                    if lines[j].strip().startswith(fence) and set(lines[j].strip()) <= {fence[0]}
                    and len(lines[j].strip()) >= len(fence)), None)
        if end is None:  # an unclosed block runs to the end of the page: the rest is its code
            out += lines[i:]
            break
        lead = m.group("indent")
        pad = " " * len(lead)  # the lines under a list marker are indented as far as its content
        body = lines[i + 1:end]
        code = "\n".join(b[len(pad):] if b.startswith(pad) else b.lstrip(" ") for b in body)
        blocks = [("npm", code)] + [(LABELS[c], convert_npm(code, c)) for c in converters if c in LABELS]
        if lead.strip():
            out.append(lead.rstrip())
            out.append("")
        out += [pad + set_open(), ""]
        for label, shown in blocks:
            out += [pad + tab_start(label), "", f"{pad}**{label}**", "", f"{pad}{fence}{m.group('lang')}",
                    *(pad + x if x else x for x in shown.split("\n")), pad + fence, ""]
        out.append(pad + set_close())
        i = end + 1
    return "\n".join(out)
