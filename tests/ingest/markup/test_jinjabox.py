"""The bounded jinja2 sandbox that renders datatemplates and sphinx-jinja templates: a
template that would loop, recurse or build values without end is a DataTemplateError
(a warning on the page), never minutes of work or gigabytes of memory.

Each input is scaled so that, without the bounds, it renders in about a second (and so
the test fails by asserting, not by hanging); the measured full-size attacks are in the
commit message."""

from __future__ import annotations

import pytest

from murar.ingest.markup.datatemplates import DataTemplateError, render

_NESTED = ('{% set a = ["xxxxxxxxxx"] * 10 %}{% set b = [a,a,a,a,a,a,a,a,a,a] %}{% set c = [b,b,b,b,b,b,b,b,b,b] %}'
           '{% set d = [c,c,c,c,c,c,c,c,c,c] %}{% set e = [d,d,d,d,d,d,d,d,d,d] %}'
           '{% set f = [e,e,e,e,e,e,e,e,e,e] %}')


@pytest.mark.parametrize(("template", "why"), [
    # loop iterations: 2,000,000 (two nested range(100000) loops were 10**10, minutes)
    (("{% for i in range(1000) %}{% for j in range(1000) %}{% for k in range(2) %}{% endfor %}{% endfor %}"
     "{% endfor %}"), "loop iterations"),
    # a macro calling itself twice per level: 2**18 calls (2**40 ran for ever)
    ("{% macro f(n) %}{% if n %}{{ f(n-1) }}{{ f(n-1) }}{% endif %}{% endmacro %}{{ f(17) }}", "loop iterations"),
    ('{{ "x" * 20000000 }}', "characters"),  # "x" * 500000000: over 20 s, 500 MB
    ('{{ "a" | center(20000000) }}', "characters"),  # center(500000000): 18.7 s, 1.9 GB
    ('{{ "%20000000s" % "a" }}', "characters"),  # 12.5 s, 1.9 GB
    ('{{ "{:>20000000}".format("a") }}', "characters"),
    (('{% set ns = namespace(s="ab") %}{% for i in range(24) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}'
     "{{ ns.s | length }}"), "characters"),  # doubled 34 times: MemoryError after 12 s
    (_NESTED + "{{ f }}", "characters"),  # lists referenced ten times a level: printed 10**5 times over
    (_NESTED + "{{ f | tojson | length }}", "characters"),
    ("{% set a = 9 %}{{ (a ** 200000) | string | length }}", "bits"),  # a ** 99999999 never ended
])
def test_hostile_templates_stop_at_the_budget(template: str, why: str) -> None:
    with pytest.raises(DataTemplateError, match=why):
        render(template, {})


def test_ordinary_templates_still_render() -> None:
    template = ('{% for v in versions %}* {{ "v%s" | format(v) }} {{ "%02d" % loop.index }} {{ v | center(6) }}\n'
                '{% endfor %}{% set ns = namespace(n=0) %}{% for i in range(1000) %}{% set ns.n = ns.n + i %}'
                '{% endfor %}{{ ns.n }} {{ "{:>3}".format("x") }} {{ versions | join(",") }} {{ 2 ** 10 }}'
                '{% for x in [[1, [2]], [3]] recursive %}{% if x is iterable %}{{ loop(x) }}{% else %}{{ x }}'
                '{% endif %}{% endfor %}')
    assert render(template, {"versions": ["6.1", "6.2"]}) == (
        "* v6.1 01  6.1  \n* v6.2 02  6.2  \n499500   x 6.1,6.2 1024123")


def test_a_large_data_file_is_not_refused() -> None:
    rows = [{"name": f"gpu{i}", "arch": f"gfx{i}"} for i in range(20_000)]
    out = render("{% for r in data %}{{ r.name }} {{ r['arch'] | upper }}\n{% endfor %}", {"data": rows})
    assert out.count("\n") == 20_000 and out.endswith("gpu19999 GFX19999\n")


def test_a_data_file_nested_too_deep_is_a_data_template_error() -> None:
    """A 200 KB JSON data file of 100,000 nested arrays raised RecursionError out of the
    directive: the whole page failed ('docutils failed'), its other text lost."""
    from murar.ingest.markup.datatemplates import load_data

    with pytest.raises(DataTemplateError, match="RecursionError"):
        load_data("json", "[" * 100_000 + "]" * 100_000, {})
    assert load_data("json", "[[1]]", {}) == [[1]]
