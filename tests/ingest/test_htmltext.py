"""Raw HTML in a page reads in blocks, as a browser lays it out (murar.ingest.htmltext)."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from murar.ingest.html import convert_html_text
from murar.ingest.htmltext import TextBlock, pre_text, text_blocks
from murar.ingest.markdown import convert_markdown
from murar.ingest.markup.notebook import convert_notebook
from murar.ingest.markup.rst import convert_rst_text
from murar.ingest.sites.base import PlainSite
from murar.ingest.sites.jupyterbook import JupyterBookSite

Deadline = Callable[[int, str], AbstractContextManager[None]]


def _md_text(tmp_path: Path, source: str) -> str:
    (tmp_path / "p.md").write_text(source, encoding="utf-8")
    return "\n\n".join(s.text for s in convert_markdown(tmp_path / "p.md", root=tmp_path).sections)


def test_a_pre_keeps_its_lines_inside_any_container(tmp_path: Path) -> None:
    """A <pre> in a <div>, <details>, <figure> or a tab pane keeps its lines (it was joined into
    one line unless the HTML block held <pre> elements only)."""
    text = _md_text(tmp_path, (
        "# Setup\n\n<details>\n<summary>Show the config</summary>\n"
        "<div class=\"highlight\"><pre><span></span><span class=\"k\">server</span> {\n"
        "    <span class=\"n\">listen</span> 8080;\n}\n</pre></div>\n</details>\n\n"
        "<figure class=\"listing\"><pre>    make build\n    make install</pre>"
        "<figcaption>Build it</figcaption></figure>\n\n"
        "<div class=\"tabs\"><div class=\"tab-pane\" data-lang=\"sh\"><pre><code>pump --start\n"
        "pump --status</code></pre></div></div>\n"))
    assert "Show the config\n\nserver {\n    listen 8080;\n}" in text
    assert "make build\nmake install" in text  # their shared indentation is the source's nesting
    assert "pump --start\npump --status" in text


def test_blocks_of_an_html_block_are_paragraphs_of_their_own(tmp_path: Path) -> None:
    """<summary>, <p> in a <div>, <li> items and <dt>/<dd> are blocks of their own, as a browser
    shows them (they ran together into one line); a <br> breaks the line; inline elements
    still join without a space."""
    text = _md_text(tmp_path, (
        "# Pump\n\n<div class=\"note\">\n<p>Check the <b>valve</b>.</p>\n<p>Then the seal:<br>twice.</p>\n"
        "<ul><li>inlet</li><li>out<i>let</i></li></ul>\n<dl><dt>Flow</dt><dd>litres per second</dd></dl>\n"
        "</div>\n"))
    paragraphs = text.split("\n\n")
    assert paragraphs[:6] == ["Check the valve.", "Then the seal:\ntwice.", "inlet", "outlet", "Flow",
                              "litres per second"]


def test_lines_inside_a_pre_break_at_br_and_at_blocks(tmp_path: Path) -> None:
    """Inside <pre> a <br> or a block element (old Pygments' <div class="line">) starts a line,
    never a paragraph; a <pre> nested in it belongs to it."""
    tree = LexborHTMLParser("<pre>a = 1<br>b = 2<div class=line>  c = 3</div><div class=line>d</div>"
                            "<pre>e</pre>f</pre>")
    node = tree.css_first("pre")
    assert node is not None and pre_text(node) == "a = 1\nb = 2\n  c = 3\nd\ne\nf"
    assert text_blocks(tree.body or tree.root) == [TextBlock("a = 1\nb = 2\n  c = 3\nd\ne\nf", pre=True)]
    page = convert_html_text("<main><h1>Code</h1><pre><div class=line>x = 1</div><div class=line>  y = 2</div>"
                             "</pre></main>", source_path="c.html")
    assert page.sections[0].text == "x = 1\n  y = 2"  # was a blank line between the two


def test_raw_html_of_rest_and_notebook_outputs_keep_pre_lines(tmp_path: Path) -> None:
    """The same walk reads a reST ``raw:: html`` block and a notebook's text/html output (an
    estimator's repr: a <pre> in nested <div>)."""
    rst = convert_rst_text("Title\n=====\n\n.. raw:: html\n\n   <div class=\"out\"><pre>first\n"
                           "      second</pre></div>\n", rel="p.rst", site=PlainSite(tmp_path))
    assert "first\n   second" in rst.sections[0].text
    (tmp_path / "_config.yml").write_text("title: T\n")
    html = ("<div class=\"model\"><div class=\"fallback\"><pre>Pipeline(steps=[\n    ('scale', Scaler()),\n"
            "    ('fit', Model())])</pre></div></div>")
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": "# Fit"},
        {"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1, "source": "pipe",
         "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                      "data": {"text/html": html, "text/plain": "Pipeline(...)"}}]}]}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    doc = convert_notebook(tmp_path / "nb.ipynb", site=JupyterBookSite(tmp_path, "_config.yml"),
                           assets_dir=tmp_path / "assets")
    assert "Pipeline(steps=[\n    ('scale', Scaler()),\n    ('fit', Model())])" in doc.sections[0].text


def test_twenty_thousand_nested_unclosed_pre_and_div_are_linear(tmp_path: Path, deadline: Deadline) -> None:
    """Hostile raw HTML: 20,000 unclosed <pre> and <div> nested in each other, in a Markdown HTML
    block and in an HTML page: read once, no recursion."""
    hostile = "".join(f"<div>d{i}<pre>p{i}\n" for i in range(10_000))
    with deadline(60, "nested pre/div in a Markdown HTML block"):
        text = _md_text(tmp_path, "# Deep\n\n" + hostile + "\n")
    assert "d0\n\np0\nd1\np1\nd2" in text  # one code block from the first <pre> on (cut at max_code_chars)
    with deadline(60, "nested pre/div in an HTML page"):
        page = convert_html_text("<main><h1>Deep</h1>" + hostile + "</main>", source_path="deep.html")
    assert "p9999" in page.sections[0].text
    tree = LexborHTMLParser("<pre>" * 20_000 + "x")
    with deadline(30, "20,000 nested pre"):
        assert text_blocks(tree.body or tree.root) == [TextBlock("x", pre=True)]


def test_html_nested_past_the_browser_limit_is_read_flat(tmp_path: Path, deadline: Deadline) -> None:
    """The HTML parser checks its stack of open elements at every tag: 40,000 nested <div> in a
    Markdown HTML block took 5-13 s to parse, 80,000 over a minute. Past MAX_TREE_DEPTH (512, Blink's
    and WebKit's parser limit) elements are read as text of the last one, with a warning."""
    (tmp_path / "p.md").write_text("# Deep\n\n" + "<div>" * 50_000 + "<p>deep text</p>" + "</div>" * 50_000
                                   + "\n\nThe rest.\n", encoding="utf-8")
    with deadline(8, "deep HTML block"):
        doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    assert doc.sections[0].text == "deep text\n\nThe rest."
    assert sum("deeper than 512" in w for w in doc.warnings) == 1
    from murar.ingest.htmltext import cap_depth

    assert cap_depth("<div>" * 3 + "x" + "</div>" * 3, 2) == ("<div><div>x</div></div>", True)
    flat = "<div><p>a<br/><img src=x><span>b</span></p><div><div>deep</div></div></div>"
    assert cap_depth(flat, 2) == ("<div><p>a<br/><img src=x>b</p><div>deep</div></div>", True)
    assert cap_depth("<div>x</div>" * 2_000) == ("<div>x</div>" * 2_000, False)


def test_self_closed_html_elements_nest_and_are_capped_too() -> None:
    """HTML ignores the self-closing flag on its own elements: "<div/>" opens a div, so 200,000 of
    them nest as deep as "<div>" does (the parser took minutes); only void elements and SVG/MathML
    content close themselves."""
    from murar.ingest.htmltext import cap_depth

    out, capped = cap_depth("<div/>" * 200_000 + "deep")
    assert capped and out.count("<div/>") == 512 and out.endswith("deep")
    svg = "<svg><g><path/><circle/></g><svg/></svg>"
    assert cap_depth("<div>" * 3 + svg + "</div>" * 3, 5) == ("<div>" * 3 + svg + "</div>" * 3, False)
    assert cap_depth("<p>a<br/><img/>b</p>" * 1_000, 2) == ("<p>a<br/><img/>b</p>" * 1_000, False)
    # an end tag closes the elements left open inside it ("<div/>", "<li>"), as the parser does
    cells = "<table><tr>" + "<td><div/>x</td><td><ul><li>a<li>b</ul></td>" * 1_000 + "</tr></table>"
    assert cap_depth(cells, 6) == (cells, False)


def test_an_html_page_nested_past_the_browser_limit_is_read_flat(deadline: Deadline) -> None:
    """An .html page got no depth cap (only HTML inside Markdown, MDX, reST and AsciiDoc did):
    160,000 nested <div> took 101 s to parse. It is read as the Markdown HTML block is."""
    page = ("<html><body><h1>Deep</h1>" + "<div>" * 100_000 + "<p>deep text</p>" + "</div>" * 100_000
            + "<p>The rest.</p></body></html>")
    with deadline(10, "deep HTML page"):
        doc = convert_html_text(page, source_path="deep.html")
    assert "deep text" in doc.sections[0].text and "The rest." in doc.sections[0].text
    assert sum("deeper than 512" in w for w in doc.warnings) == 1
