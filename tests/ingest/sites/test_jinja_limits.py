"""Hostile templates for the Jinja2 reducer of the macros plugin (:mod:`murar.ingest.sites._jinja`)."""

from __future__ import annotations

import subprocess
import sys

from murar.ingest.sites import _jinja


def test_unclosed_delimiters_are_linear() -> None:
    """200,000 ``{#``/``{%``/``{{``/``{% raw %}`` without a closer stay text; each used
    to rescan the rest of the page (20,000 ``{{`` took 35 s). Run in a subprocess,
    the 60 s limit only a safety net."""
    code = ("from murar.ingest.sites import _jinja\n"
            "for t in ('{#' * 200000, '{%' * 200000, '{{' * 200000):\n"
            "    assert _jinja.render(t, {}) == t\n"
            "assert _jinja.render('{% raw %}' * 50000, {}) == ''\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_delimiters_still_reduce() -> None:
    text = 'a {% raw %}{{x}}{% endraw %} {{ y }} {#c#} {%- set z = "q" -%}{{z}} {{-z-}}\n{% if x %}\nb\n'
    assert _jinja.render(text, {"y": "Y"}) == "a {{x}} Y  q q\nb\n"


def test_self_include_fan_out_is_bounded_with_one_warning_per_reason() -> None:
    """A file that includes itself 30 times is 30**4 includes at depth 4; the page
    stops at MAX_INCLUDES and says so once."""
    calls: list[str] = []

    def include(name: str) -> str:
        calls.append(name)
        return "x\n" + '{% include "b" %}\n' * 30

    warnings: list[str] = []
    out = _jinja.render('{% include "b" %}\n' * 30, {}, include=include, warnings=warnings)
    assert len(calls) == _jinja.MAX_INCLUDES
    assert out.count("x") == _jinja.MAX_INCLUDES
    assert len(warnings) == 2 and "too deep" in warnings[0] and "over 200 includes" in warnings[1]


def test_large_includes_stop_at_the_output_limit() -> None:
    warnings: list[str] = []
    out = _jinja.render('{% include "b" %}' * 30, {}, include=lambda _: "y" * 2_000_000, warnings=warnings)
    assert len(out) <= _jinja.MAX_OUTPUT_CHARS + 2_000_000 and len(warnings) == 1


def test_placeholder_text_in_the_page_is_left_alone() -> None:
    """A page holding the NUL placeholder of a raw block itself (a number never handed
    out, or 5,000 digits) used to raise IndexError/ValueError."""
    text = "{{ x }}\x00raw9\x00 \x00raw" + "9" * 5000 + "\x00"
    assert _jinja.render(text, {"x": "X"}) == text.replace("{{ x }}", "X")


def test_an_imported_macro_is_bounded_too() -> None:
    """A page the sandbox renders (it imports a macro) spends its budget in the imported file's
    loops as well: two nested range(100000) loops there stop at the step budget, and the page is
    reduced instead (run in a subprocess, the 60 s limit only a safety net)."""
    code = ("from murar.ingest.sites import _jinja\n"
            "files = {'m.html': '{% macro big() %}{% for i in range(100000) %}{% for j in range(100000) %}x'\n"
            "                   '{% endfor %}{% endfor %}{% endmacro %}'}\n"
            "out = _jinja.render('{% import \"m.html\" as m %}A{{ m.big() }}B', {}, include=files.get)\n"
            "assert out == 'AB', out\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_rendered_page_warns_of_what_murar_cannot_know_of_the_page() -> None:
    """n8n's section pages import a macro that lists 'page.parent.children' (MkDocs' nav):
    murar's page has no nav, so the list is empty and the page says so."""
    files = {"toc.html": "{% macro toc(page) %}<ul>{% for c in page.parent.children %}<li>{{ c.title }}</li>"
                         "{% endfor %}</ul>{% endmacro %}"}
    warnings: list[str] = []
    page = {"meta": {}, "title": "T"}
    out = _jinja.render('{% import "toc.html" as t %}{{ t.toc(page) }}', {"page": page}, include=files.get,
                        warnings=warnings)
    assert out == "<ul></ul>"
    assert warnings == ["macros: 1 expression(s) not rendered (site macros are not run): 'parent'"]


def test_a_file_the_pages_import_is_read_and_compiled_once_for_the_site() -> None:
    """Each page rendered in the sandbox had its own Jinja2 environment, so a macro file every
    page imports ({% import "_macros/x.html" as fns %}: n8n) was read and compiled again on every
    page. The site's environment is kept (by its include and delimiters): the file is read once,
    while each page still has its own budget, its own unknown names and its own count of files."""
    calls: list[str] = []
    files = {"m.html": "{% macro card(x) %}<b>{{ x }}</b>{% for i in range(800) %}{% for j in range(750) %}{% endfor %}{% endfor %}"
                           "{% endmacro %}"}
    files |= {f"f{i}.html": "{% macro f() %}x{% endmacro %}" for i in range(_jinja.MAX_INCLUDES + 1)}

    def include(name: str) -> str | None:
        calls.append(name)
        return files.get(name)

    for n in range(2):  # 600,000 steps a page: a budget spent across pages would stop the second
        warnings: list[str] = []
        page = '{% import "m.html" as m %}{{ m.card("pN") }}{{ nopeN() }}'.replace("N", str(n))
        out = _jinja.render(page, {}, include=include, warnings=warnings)
        assert out == f"<b>p{n}</b>"
        assert warnings == [f"macros: 1 expression(s) not rendered (site macros are not run): 'nope{n}'"]
    assert calls == ["m.html"]
    loop = "{% for i in [1, 2, 3] %}L{% endfor %}"
    imports = "".join(f'{{% import "f{i}.html" as a{i} %}}' for i in range(_jinja.MAX_INCLUDES))
    for _ in range(2):  # at most MAX_INCLUDES files a page, cached ones too: the limit is not the site's
        assert _jinja.render(imports + loop, {}, include=include) == "LLL"
    over = imports + '{% import "f200.html" as over %}'
    assert _jinja.render(over + loop, {}, include=include) == "L"  # refused: the reduced pass


def test_a_file_included_many_times_counts_every_time() -> None:
    """The sandbox counted the distinct files a page loaded, so f0..f5, each including the next
    ten times, were 7 files and 10**6 includes (about 4 s) with no warning. Every load counts,
    a cached file's too: the page is refused past MAX_INCLUDES, said, and reduced instead."""
    calls: list[str] = []
    files = {f"f{i}.html": f'{{% include "f{i + 1}.html" %}}' * 10 for i in range(6)} | {"f6.html": "x"}

    def include(name: str) -> str | None:
        calls.append(name)
        return files.get(name)

    warnings: list[str] = []
    out = _jinja.render('{% for i in [1] %}{% include "f0.html" %}{% endfor %}', {}, include=include,
                        warnings=warnings)
    assert out.count("x") <= _jinja.MAX_INCLUDES
    assert any("over murar's bounds" in w and "includes" in w for w in warnings), warnings
    # the site's include is asked a bounded number of times, the reduced pass included (207 here)
    assert len(calls) < 2 * _jinja.MAX_INCLUDES, len(calls)
