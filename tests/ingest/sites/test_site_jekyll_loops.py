"""Jekyll Liquid ``{% for %}`` loops over known lists and ``{% post_url %}``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from murar.ingest.sites import jekyll

PAGE = """---
title: Tools
area: guides
steps: [Install, Configure]
nothing: []
---
{% for s in page.steps %}{{ forloop.index }}. {{ s }}
{% endfor %}
{% for t in site.data.tools.cli reversed %}{% if forloop.first %}Tools: {% endif %}{{ t.name }}\
{% unless forloop.last %}, {% endunless %}{% endfor %}

{% for t in site.data.tools.cli limit: 1 offset: 1 %}Second: {{ t.name }} ({{ t.note }}){% endfor %}

{% for x in page.nothing %}never{% else %}No extras.{% endfor %}

{% for t in site.data.tools.cli %}{% if t.badge %}({{ t.badge }}){% endif %}{% if t.tags contains "fast" %}Fast {{ t.name }}.{% endif %}{% endfor %}

{% for t in site.posts %}Post {{ t.title }}{% endfor %}

{% for i in (1..2) %}{% for t in site.data.tools.cli %}[{{ i }}{{ t.name }}]{% endfor %}{% endfor %}

{% for i in (-2..1) %}<{{ i }}>{% endfor %}

{% include row.html items=site.data.tools.cli %}

{% capture names %}{% for t in site.data.tools.cli %}{{ t.name }}/{% endfor %}{% endcapture %}Names: {{ names }}

Read [the news]({% post_url 2021-03-04-release %}) and [setup]({% link {{ page.area }}/setup.md %}).
"""


def _site(tmp_path: Path, write: Callable[..., Path]) -> jekyll.JekyllSite:
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "_data/tools.yml", "cli:\n  - name: alpha\n    note: first\n    badge: new\n    tags: [fast]\n  - name: beta\n    note: second\n"
          "  - name: gamma\n    note: third\n")
    write(tmp_path, "_includes/row.html", "{% for t in include.items limit: 2 %}<b>{{ t.note }}</b>{% endfor %}")
    write(tmp_path, "_posts/2021-03-04-release.md", "---\ntitle: R\n---\nnews\n")
    write(tmp_path, "index.md", PAGE)
    return jekyll.load(tmp_path, "_config.yml")


def test_for_loops_over_known_lists_are_expanded(tmp_path: Path, write: Callable[..., Path]) -> None:
    site = _site(tmp_path, write)
    warnings: list[str] = []
    text = site.preprocess(PAGE, page_rel="index.md", warnings=warnings)
    assert "1. Install\n2. Configure\n" in text
    assert "Tools: gamma, beta, alpha" in text
    assert "Second: beta (second)" in text
    assert "No extras." in text and "never" not in text
    assert "(new)Fast alpha.\n" in text and "()" not in text  # a key the item lacks is nil
    assert "Post " in text  # an unknown list: the body once, as before
    assert "[1alpha][1beta][1gamma][2alpha][2beta][2gamma]" in text
    assert "<-2><-1><0><1>" in text  # Liquid ranges may start below zero
    assert "<b>first</b><b>second</b>" in text and "third" not in text
    assert "Names: alpha/beta/gamma/" in text
    assert "[the news](/_posts/2021-03-04-release.md) and [setup](/guides/setup.md)" in text
    assert "{%" not in text and "{{" not in text
    assert warnings == []


def test_loops_are_bounded(tmp_path: Path, write: Callable[..., Path], deadline: Callable[..., Any]) -> None:
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "_data/big.yml", "".join(f"- n{i}\n" for i in range(3000)))
    site = jekyll.load(tmp_path, "_config.yml")
    page = "{% for a in site.data.big %}{% for b in site.data.big %}{% for c in (1..1000) %}" \
           "{{ a }}{{ b }}{{ c }}{% endfor %}{% endfor %}{% endfor %}"
    warnings: list[str] = []
    with deadline(20, "nested loops"):
        text = site.preprocess(page, page_rel="index.md", warnings=warnings)
    assert text.count("n0n0") <= jekyll._MAX_LOOP_LENGTH
    assert any("loops over" in w for w in warnings)


def test_each_include_sees_the_capture_made_before_it(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "_data/sizes.yml", "- small\n- large\n")
    write(tmp_path, "_includes/demo.html", '<div class="demo">{{ include.content }}</div>\n')
    page = ("{% capture sample %}{% for s in site.data.sizes %}<b>{{ s }}</b>{% endfor %}{% endcapture %}\n"
            "{% include demo.html content=sample %}\n\n"
            "{% capture sample %}<i>second</i>{% endcapture %}\n{% include demo.html content=sample %}\n")
    site = jekyll.load(tmp_path, "_config.yml")
    text = site.preprocess(page, page_rel="index.md", warnings=[])
    assert '<div class="demo"><b>small</b><b>large</b></div>' in text
    assert '<div class="demo"><i>second</i></div>' in text
    assert "\x00" not in text


def test_include_named_by_an_unknown_variable_says_so(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "_includes/v1/note.md", "Versioned note.\n")
    site = jekyll.load(tmp_path, "_config.yml")
    warnings: list[str] = []
    page = ("---\nrelease: v1\nprefix: ''\n---\n{% include {{ page.release }}/note.md %}\n"
            "{% include {{ page.version.name }}/note.md %}\n{% include v1/{{ page.prefix }}note.md %}\n")
    text = site.preprocess(page, page_rel="index.md", warnings=warnings)
    assert text.count("Versioned note.") == 2  # an empty value is known
    assert warnings == [("{% include {{ page.version.name }}/note.md %}: page.version.name is not known here"
                         " (a plugin's variable?); not included")]
