"""Regression tests built from the issue-11 adversarial findings on the converters."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from murar.ingest.html import convert_html, convert_html_text
from murar.ingest.markdown import convert_markdown
from murar.ingest.paths import MAX_LINK_DEPTH, link_path_problem, resolve_link
from murar.ingest.tables import cell_text, parse_html_table
from murar.schema import ImageItem, TableItem

DEEP_SRC = "/".join(["a"] * 2000) + "/x.png"


def test_five_thousand_nested_divs_do_not_recurse() -> None:
    html = "<html><body><main>" + "<div>" * 5000 + "<p>deep text</p>" + "</div>" * 5000 + "</main></body></html>"
    doc = convert_html_text(html, source_path="deep.html")
    assert "deep text" in doc.sections[0].text


def test_hundreds_of_nested_tables_do_not_recurse() -> None:
    inner = "<table><tr><td>core</td><td>cell</td></tr><tr><td>a</td><td>b</td></tr></table>"
    html = "<main>" + "<table><tr><td>" * 100 + inner + "</td></tr></table>" * 100 + "</main>"
    doc = convert_html_text(html, source_path="tables.html")
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert tables and tables[0].rows[-1] == ["a", "b"]
    # past the parser's depth (512 elements: 400 tables nest 1,200+) the page is read flat, with a warning
    html = "<main>" + "<table><tr><td>" * 400 + inner + "</td></tr></table>" * 400 + "</main>"
    doc = convert_html_text(html, source_path="tables.html")
    assert any("deeper than 512" in w for w in doc.warnings)
    assert "core" in " ".join(s.text for s in doc.sections)


def test_cell_text_of_deep_tree() -> None:
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser("<div>" + "<span><b>" * 3000 + "x" + "</b></span>" * 3000 + "</div>")
    node = tree.css_first("div")
    assert node is not None and cell_text(node) == "x"
    _headers, rows = parse_html_table("<table>" + "<tr><td>" + "<div>" * 3000 + "v" + "</div>" * 3000 + "</td><td>w</td></tr>" * 2 + "</table>")
    assert rows[0] == ["v", "w"]


def test_html_image_with_two_thousand_segments_is_refused_with_warning(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text(f'<main><p>Text.</p><img src="{DEEP_SRC}" alt="deep"></main>', encoding="utf-8")
    doc = convert_html(page, root=tmp_path)  # was OSError: [Errno 36] File name too long
    assert not any(isinstance(m, ImageItem) and m.path for m in doc.media)
    assert any("link path" in w for w in doc.warnings)


def test_markdown_image_with_long_paths(tmp_path: Path) -> None:
    long_segment = "b" * 400 + ".png"
    page = tmp_path / "p.md"
    page.write_text(f"# T\n\n![deep]({DEEP_SRC})\n\n![long]({long_segment})\n\n![root](/{long_segment})\n",
                    encoding="utf-8")
    doc = convert_markdown(page, root=tmp_path)
    assert not [m for m in doc.media if isinstance(m, ImageItem)]
    assert sum("link path" in w for w in doc.warnings) == 3


def test_file_scheme_images_are_warned_and_never_kept(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("# T\n\n![pw](file:///etc/passwd)\n\n<img src='file:///etc/hosts'>\n", encoding="utf-8")
    doc = convert_markdown(page, root=tmp_path)
    assert not [m for m in doc.media if isinstance(m, ImageItem)]
    assert sum("'file'" in w for w in doc.warnings) == 2
    html = tmp_path / "p.html"
    html.write_text("<main><p>x</p><img src='file:///etc/passwd' alt='pw'></main>", encoding="utf-8")
    hdoc = convert_html(html, root=tmp_path)
    # the HTML converter keeps unreadable images as exists=False placeholders, never with the file: URL
    assert all(m.url is None and m.path is None and not m.exists for m in hdoc.media if isinstance(m, ImageItem))
    assert any("'file'" in w for w in hdoc.warnings)


def test_link_limits_live_in_paths(tmp_path: Path) -> None:
    assert link_path_problem("a/b/c.png") is None
    assert link_path_problem("/".join(["a"] * (MAX_LINK_DEPTH + 1)))
    assert link_path_problem("x" * 300)
    assert link_path_problem("a\x00b")
    assert resolve_link("https://example.com/x.png", page_rel="p.md", root=tmp_path).url
    assert resolve_link("//cdn.example.com/x.png", page_rel="p.md", root=tmp_path).url
    for bad in ("file:///etc/passwd", "javascript:alert(1)", "C:\\x.png", "ftp://h/x.png"):
        link = resolve_link(bad, page_rel="p.md", root=tmp_path)
        assert link.url is None and link.rel_path is None and link.problem, bad


def test_video_link_with_hostile_name_does_not_crash(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(f"# T\n\nText.\n\n>[!VIDEO]({'v' * 600}.mp4)\n\n>[!VIDEO](a%00b.mp4)\n", encoding="utf-8")
    doc = convert_markdown(page, root=tmp_path)
    assert doc.sections[0].text.startswith("Text.")


def test_large_pipe_table_is_cut_with_a_warning(tmp_path: Path) -> None:
    page = tmp_path / "big.md"
    rows = "".join(f"| r{i} | v{i} |\n" for i in range(5000))
    page.write_text(f"# T\n\n| name | value |\n|---|---|\n{rows}\nAfter the table.\n\n```\n| a | b |\n|---|---|\n```\n",
                    encoding="utf-8")
    doc = convert_markdown(page, root=tmp_path)
    table = next(m for m in doc.media if isinstance(m, TableItem))
    assert table.headers == ["name", "value"] and len(table.rows) == 1000 and table.rows[-1] == ["r999", "v999"]
    assert any("5000 rows cut to its first 1000" in w for w in doc.warnings)
    assert "After the table." in doc.sections[0].text


def test_unmatched_brackets_are_escaped_and_links_still_parse(tmp_path: Path) -> None:
    from murar.ingest.mdlimits import escape_unmatched_brackets

    assert escape_unmatched_brackets("[a](b) [[") == "[a](b) [["  # under the limit: unchanged
    escaped = escape_unmatched_brackets("[a](b) " + "[" * 20)
    assert escaped.startswith("[a](b) ") and escaped.count("\\[") == 20
    (tmp_path / "i.png").write_bytes(b"")
    page = tmp_path / "p.md"
    row = "| ![x](i.png) " + "![" * 40 + " | c |\n"
    page.write_text("# T\n\n| a | b |\n|---|---|\n" + row * 3, encoding="utf-8")
    doc = convert_markdown(page, root=tmp_path)
    assert len([m for m in doc.media if isinstance(m, ImageItem)]) == 3


def test_asciidoc_line_of_backticks_does_not_backtrack(tmp_path: Path) -> None:
    pytest.importorskip("asciidoc")
    from murar.ingest.markup.registry import converter_for
    from murar.ingest.sites.base import PlainSite

    page = tmp_path / "p.adoc"
    page.write_text("= Title\n\nSome text.\n\n" + "`" * 40 + "\n\nMore text.\n", encoding="utf-8")
    doc = converter_for("asciidoc")(page, site=PlainSite(tmp_path), assets_dir=tmp_path)  # was exponential
    assert "More text." in " ".join(s.text for s in doc.sections)


def test_site_link_resolution_refuses_hostile_names(tmp_path: Path) -> None:
    from murar.ingest.assets import resolve_reference
    from murar.ingest.sites.base import PlainSite

    site = PlainSite(tmp_path)
    for link in ("b" * 400 + ".png", DEEP_SRC, "file:///etc/passwd"):
        ref = resolve_reference(site, link, page_rel="p.md")
        assert ref.status == "unsupported" and ref.path is None, link


def test_bounded_int_never_raises() -> None:
    from murar.ingest.mdlimits import bounded_int

    assert bounded_int("9" * 5000) == 1_000_000_000 and bounded_int("-" + "9" * 5000) == -1_000_000_000
    assert bounded_int(" 0012 ") == 12 and bounded_int("²") is None and bounded_int("1e3") is None
    assert bounded_int("0" * 5000 + "7") == 7 and bounded_int("") is None


@pytest.mark.parametrize("deep", ["- " * 19 + "x", "1. " * 30 + "x", "> " * 30 + "x",
                                  "".join(" " * i + "- x\n" for i in range(0, 400, 2))])
def test_deep_nesting_does_not_drop_the_rest_of_the_page(tmp_path: Path, deep: str) -> None:
    """markdown-it stops at maxNesting (20 in the commonmark preset) and drops every
    later line: one line of 19 list markers lost the rest of the page, silently."""
    page = tmp_path / "deep.md"
    page.write_text(f"# T\n\nhead\n\n{deep}\n\nThe rest of the page.\n", encoding="utf-8")
    doc = convert_markdown(page, root=tmp_path)
    assert "The rest of the page." in " ".join(s.text for s in doc.sections)


@pytest.mark.parametrize("deep", ["- " * 30, "[^a]: " * 200])
def test_deep_nesting_in_myst_keeps_the_rest(tmp_path: Path, deep: str) -> None:
    """Lists, and footnote definitions (each holds a block), nested past maxNesting."""
    from murar.ingest.markup.myst import convert_myst
    from murar.ingest.sites.base import PlainSite

    page = tmp_path / "deep.md"
    page.write_text("# T\n\n" + deep + "x\n\nThe rest of the page.\n", encoding="utf-8")
    doc = convert_myst(page, site=PlainSite(tmp_path))
    assert "The rest of the page." in " ".join(s.text for s in doc.sections)
    assert any("nested deeper than" in w for w in doc.warnings)


def test_unclosed_html_comments_are_linear(deadline: Callable[[int, str], Any]) -> None:
    """20,000 ``<!--`` without ``-->`` took 9.7 s in the comment stripping of every
    Markdown page (each scanned to the end of the text); the alarm is a safety net."""
    from murar.ingest.adobe import normalise

    with deadline(60, "comments"):
        assert normalise("head\n" + "<!--" * 100_000 + "\n\ntail") == "head\n"
    assert normalise("a<!-- x -->b<!-- murar-tabs: set -->c<!--\ny-->d<!--open") == "ab<!-- murar-tabs: set -->cd"


def test_a_huge_included_file_is_cut_not_loaded_whole(tmp_path: Path) -> None:
    # a snippet (MkDocs), a [!INCLUDE] (DocFX) or a Hugo include of a 6 MB file reads 5 MB, with a warning
    from murar.ingest.markup.builder import MAX_INCLUDE_BYTES, read_include
    from murar.ingest.sites.detect import open_site

    big = "word " * (6_000_000 // 5)
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: S\nmarkdown_extensions:\n  - pymdownx.snippets\n")
    (tmp_path / "big.txt").write_text(big)
    (tmp_path / "docs" / "index.md").write_text("# Page\n\nBefore.\n\n--8<-- \"big.txt\"\n\nAfter.\n")
    from murar.ingest.markup.pymdown import convert_pymdown

    doc = convert_pymdown(tmp_path / "docs" / "index.md", site=open_site(tmp_path).site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Before." in text and "After." in text
    assert any("larger than 5000000 bytes" in w for w in doc.warnings)
    warnings: list[str] = []
    assert len(read_include(tmp_path / "big.txt", label="x", warnings=warnings)) == MAX_INCLUDE_BYTES
    assert warnings == ["x: file larger than 5000000 bytes, cut there"]
    assert read_include(tmp_path / "docs" / "index.md", label="y", max_bytes=10) == "# Page\n\nBe"


# ---- many media items in one paragraph / section: each item's context is linear overall
_MANY = 20_000


def _many_images_page(tmp_path: Path, body: str) -> Any:
    page = tmp_path / "p.md"
    page.write_text("# Many\n\n" + body + "\n", encoding="utf-8")
    return convert_markdown(page, root=tmp_path)


@pytest.mark.timeout(60)
def test_twenty_thousand_images_in_one_paragraph(tmp_path: Path) -> None:
    # was quadratic: each image re-joined the paragraph before it and re-collapsed the section
    doc = _many_images_page(tmp_path, " ".join(f"w{i} ![p](https://example.org/{i}.png)" for i in range(_MANY)))
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert len(images) == _MANY
    assert images[0].context_before == "w0" and images[0].context_after.startswith("w1 w2 ")
    assert images[-1].context_before.endswith(f"w{_MANY - 2} w{_MANY - 1}") and images[-1].context_after == ""


@pytest.mark.timeout(60)
def test_twenty_thousand_images_in_one_section(tmp_path: Path) -> None:
    doc = _many_images_page(tmp_path, "\n\n".join(f"w{i}\n\n![p](https://example.org/{i}.png)" for i in range(_MANY)))
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert len(images) == _MANY
    k = _MANY // 2
    assert images[k].context_before.endswith(f"w{k - 1}\nw{k}")
    assert images[k].context_after.startswith(f"w{k + 1}\nw{k + 2}")


@pytest.mark.timeout(60)
def test_twenty_thousand_images_in_one_html_paragraph(tmp_path: Path) -> None:
    # was quadratic: the fragment's text up to each picture was cleaned again for every picture
    doc = _many_images_page(
        tmp_path, "<p>" + " ".join(f'w{i} <img src="https://example.org/{i}.png">' for i in range(_MANY)) + "</p>")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert len(images) == _MANY
    k = _MANY // 2
    assert images[k].context_before.endswith(f"w{k - 1} w{k}")
    assert images[k].context_after.startswith(f"w{k + 1} w{k + 2}")


def test_text_before_a_video_in_an_html_paragraph_is_not_repeated(tmp_path: Path) -> None:
    # the paragraph text up to each video was written again after it (quadratic text with many videos)
    doc = _many_images_page(
        tmp_path, '<p>intro words <iframe src="https://www.youtube.com/embed/abc"></iframe> more words '
                  '<iframe src="https://www.youtube.com/embed/def"></iframe> end</p>')
    assert doc.sections[0].text == "intro words\n\nmore words\n\nend"
    assert [(m.context_before, m.context_after) for m in doc.media] == [
        ("intro words", "more words\nend"), ("intro words\nmore words", "end")]


def test_page_warnings_are_capped_with_an_exact_count(tmp_path: Path) -> None:
    # 5,000 broken image links gave 5,000 warning lines in the report (unbounded with the page)
    from murar.ingest.budget import FileBudget
    from murar.ingest.corpus import MAX_PAGE_WARNINGS, IngestReport, convert_corpus

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "p.md").write_text("# P\n\n" + "\n\n".join(f"![x](gone{i}.png)" for i in range(5000)) + "\n",
                               encoding="utf-8")
    everything = len(convert_markdown(docs / "p.md", root=docs).warnings)
    assert everything >= 5000
    report = IngestReport()
    # the 5,000 pictures would also hit the media budget (one more warning, after the cap)
    (doc,) = convert_corpus(docs, assets_dir=tmp_path / "assets", report=report, budget=FileBudget(max_media=0))
    (page,) = [f for f in report.files if f.path == "p.md"]
    assert len(page.warnings) == MAX_PAGE_WARNINGS + 1 == len(doc.warnings)
    assert page.warnings[-1] == f"... and {everything - MAX_PAGE_WARNINGS} more warnings of this page (not kept)"
    assert page.more_warnings == doc.warnings_dropped == everything - MAX_PAGE_WARNINGS
    assert report.warning_count == everything and len(report.warnings) == MAX_PAGE_WARNINGS + 1


@pytest.mark.timeout(60)
def test_a_table_row_of_ten_thousand_icons(tmp_path: Path) -> None:
    # each icon joined and collapsed the whole row around it: quadratic in the row
    n = 10_000
    cells = "".join(f'<td>c{i} <img src="https://example.org/{i}.png"></td>' for i in range(n))
    doc = _many_images_page(tmp_path, f"<table><tr>{cells}</tr></table>")
    icons = [m for m in doc.media if isinstance(m, ImageItem)]
    assert len(icons) == n
    assert icons[0].context_before == "" and icons[0].context_after.startswith("c0\nc1\nc2")
    assert icons[n // 2].context_before.endswith(f"c{n // 2 - 2}\nc{n // 2 - 1}")
    assert icons[-1].context_after == f"c{n - 1}"
    pipe = "| " + " | ".join(f"c{i} ![p](https://example.org/{i}.png)" for i in range(n)) + " |\n|" + "---|" * n
    doc = _many_images_page(tmp_path, pipe)
    icons = [m for m in doc.media if isinstance(m, ImageItem)]
    assert len(icons) == n and icons[n // 2].context_after.startswith(f"c{n // 2}\nc{n // 2 + 1}")


def test_backtracking_ignore_regexes_of_a_site_config_are_not_run(
        tmp_path: Path, deadline: Callable[[int, str], Any]) -> None:
    """Hugo's ignoreFiles and mkdocs-exclude's regex are searched in every path with Python's
    re, which backtracks (Hugo's Go RE2 does not): '(a+)+\\.x$' took 0.6 s on a 22-letter
    name, doubling per letter (40 letters: days). Such a pattern is refused with a warning,
    as sphinx-gallery's ignore_pattern already was; the others still exclude."""
    from murar.ingest.sites import hugo
    from murar.ingest.sites.base import FileRole
    from murar.ingest.sites.mkdocs import MkDocsSite

    name = "a" * 40 + ".md"
    (tmp_path / "h" / "content").mkdir(parents=True)
    (tmp_path / "h" / "hugo.toml").write_text('ignoreFiles = ["(a+)+\\\\.x$", "\\\\.draft\\\\.md$"]\n')
    site = hugo.load(tmp_path / "h")
    with deadline(20, "hugo ignoreFiles"):
        assert site.classify(f"content/{name}").role is FileRole.PAGE
        assert site.classify("content/x.draft.md").role is FileRole.EXCLUDED
    (tmp_path / "m" / "docs").mkdir(parents=True)
    (tmp_path / "m" / "mkdocs.yml").write_text(
        "site_name: S\nplugins:\n  - exclude:\n      regex:\n        - '(a|aa)+\\.x$'\n        - '^drafts/'\n")
    mk = MkDocsSite.load(tmp_path / "m", "mkdocs.yml")
    with deadline(20, "mkdocs-exclude regex"):
        assert mk.classify(f"docs/{name}").role is FileRole.PAGE
        assert mk.classify("docs/drafts/x.md").role is FileRole.EXCLUDED


def test_adobe_line_rules_are_linear(deadline: Callable[[int, str], Any]) -> None:
    """normalise() runs on every Markdown page. An unclosed attribute list of 30 comma-joined
    pairs backtracked exponentially ('{a=b,c=d,...': 20 pairs 1 s, x1.8 per pair); a '+++'
    line or a heading with a long run of spaces inside was quadratic (40,000 spaces: 16 s
    and 11 s). Same results on ordinary lines."""
    from murar.ingest.adobe import normalise, split_anchor

    with deadline(20, "adobe line rules"):
        assert normalise("{a=b" + ",c=d" * 30) == "{a=b" + ",c=d" * 30
        assert normalise("{a=b," * 100_000) == "{a=b," * 100_000  # each '{' scanned to the end: 123 s at 16,000
        assert normalise("+++x" + " " * 200_000 + "y") == "\n**x" + " " * 200_000 + "y**\n"
        assert split_anchor("T" + " " * 200_000 + "x") == ("T" + " " * 200_000 + "x", None)
        assert split_anchor("T" + "{#" * 200_000) == ("T" + "{#" * 200_000, None)
    assert normalise('+++  Response \t\nA {width="600" modal="regular"} b {a=b,c = d}.\n+++') == \
        "\n**Response**\n\nA  b .\n"
    assert split_anchor("Title  {#my-id}  ") == ("Title", "my-id")
    assert split_anchor("Title {#a{#b}") == ("Title", "a{#b")


def test_jekyll_hidden_element_scan_is_linear(deadline: Callable[[int, str], Any]) -> None:
    """An include's hidden elements are dropped (aria-hidden modals); the opening-tag regex
    scanned from every '<' to the end when no '>' followed (20,000 '<a ': 21 s) and
    backtracked through 'hidden' in them (cubic: 20,000 '<a hidden' did not end in 5 min)."""
    from murar.ingest.sites.jekyll import _strip_hidden

    with deadline(20, "hidden elements"):
        assert _strip_hidden("<a " * 100_000) == "<a " * 100_000
        assert _strip_hidden("<a hidden" * 100_000) == "<a hidden" * 100_000
        assert _strip_hidden("<div hidden>" + "<div " * 100_000) == "<div hidden>" + "<div " * 100_000
    assert _strip_hidden('a<div aria-hidden="true"><div>x</div></div>b<p hidden>y</p>c') == "abc"


def test_rebasing_an_included_files_links_is_linear(deadline: Callable[[int, str], Any]) -> None:
    """An include's links are rebased to the page (Jekyll include_relative, Hugo readfile,
    DocFX [!INCLUDE], MDX partials, include-markdown); each '[' without a ']' after it
    scanned to the end of the file: 40,000 '[' took 44 s, an include of 5 MB for ever."""
    from murar.ingest.sites._common import rebase_links

    def rebase(text: str) -> str:
        return rebase_links(text, from_rel="inc/part.md", to_rel="p.md", exists=lambda p: p == "inc/shot.png")

    with deadline(20, "rebase links"):
        for unit in ("[", "![", "[a", "[](<)"):
            assert rebase(unit * 100_000) == unit * 100_000
    assert rebase("See [a [b](shot.png) and ![x](<shot.png>) and [y](shot.png).") == \
        "See [a [b](inc/shot.png) and ![x](<inc/shot.png>) and [y](inc/shot.png)."


def test_collapsing_a_long_whitespace_run_is_linear(tmp_path: Path, deadline: Callable[[int, str], Any]) -> None:
    """The text around a media item is collapsed (captions.collapse_whitespace); its paragraph-break
    split searched again from every space of a long run without two newlines: a page with
    80,000 spaces inside a paragraph took 16 s (320,000: 172 s in that one call)."""
    from murar.ingest.captions import collapse_whitespace

    page = tmp_path / "p.md"
    page.write_text("# T\n\nA" + " " * 400_000 + "B\n\n![shot](https://example.org/x.png)\n\nC\u00a0" * 2 + "D\n")
    with deadline(30, "whitespace run"):
        assert collapse_whitespace("a" + " " * 1_000_000 + "b") == "a b"
        doc = convert_markdown(page, root=tmp_path)
    assert any(isinstance(m, ImageItem) and m.context_before.endswith("A B") for m in doc.media)
    assert collapse_whitespace(" one\t two \n\n three \n four\n \n") == "one two\nthree four"


def test_attr_list_lines_are_linear(tmp_path: Path, deadline: Callable[[int, str], Any]) -> None:
    """MkDocs attr_list lines: a list that never closes backtracked exponentially over its commas
    ('x {.a,.a,...': 22 commas 1.8 s, doubling per comma), and a trailing, cell or heading list was
    searched again from every space of a long run (three 80,000-space lines: 48 s)."""
    from murar.ingest.markup.pymdown import convert_pymdown
    from murar.ingest.sites.detect import open_site

    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: S\nmarkdown_extensions:\n  - attr_list\n")
    gap = " " * 100_000
    (tmp_path / "docs" / "p.md").write_text(
        f"# T\n\nx{gap}y {{.c\n\n| a{gap}b {{.c |\n|---|\n| c |\n\n- item{gap}z {{.c\n\n## H{gap}x\n\n"
        "Commas {.a" + ",.a" * 40 + "\n\nKept {.a,.b #id k=\"v w\"}\n")
    with deadline(30, "attr_list lines"):
        doc = convert_pymdown(tmp_path / "docs" / "p.md", site=open_site(tmp_path).site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Commas {.a,.a" in text and "Kept" in text and "#id" not in text


def test_lone_surrogate_escapes_in_json_and_yaml_do_not_lose_the_ingest(tmp_path: Path) -> None:
    """A notebook cell (JSON) or front matter (YAML) may write '\\ud800': the parsers decode it
    to a lone surrogate, which no UTF-8 writer takes. The ingest ended in a UnicodeEncodeError
    at the embedding stage after every page was parsed (nothing indexed); a heading holding
    one failed its page when its id was hashed. Now U+FFFD, with a warning."""
    import json

    from murar.embed.fake import HashingEmbedder
    from murar.ingest.index import build_index, open_index

    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "metadata": {}, "id": "a", "source": "# Heading \ud800\n\nText \udfff here, \ud83d\ude00.\n"},
        {"cell_type": "code", "metadata": {}, "id": "b", "source": "print(1)", "execution_count": 1,
         "outputs": [{"output_type": "stream", "name": "stdout", "text": "out \ud800\n"}]}]}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    (tmp_path / "fm.md").write_text('---\ntitle: "Title \\ud800 here"\n---\n# Body\n\nSome text.\n')
    (tmp_path / "ok.md").write_text("# Ok\n\nFine.\n")
    _manifest, report = build_index(tmp_path, tmp_path / "idx", embedder=HashingEmbedder())
    assert report.pages == 3 and not report.failed
    texts = {s.source_path: (s.page_title, " ".join(s.heading_path), s.text)
             for s in open_index(tmp_path / "idx").store.all_snippets()}
    assert texts["fm.md"][0] == "Title \ufffd here"
    assert "Heading \ufffd" in texts["nb.ipynb"][1] and "Text \ufffd here, \U0001f600." in texts["nb.ipynb"][2]
    warned = {f.path for f in report.files if any("lone UTF-16 surrogates" in w for w in f.warnings)}
    assert warned == {"nb.ipynb", "fm.md"}


def test_repository_urls_of_thousands_of_segments_are_looked_up_quickly(
        tmp_path: Path, deadline: Callable[[int, str], Any]) -> None:
    """A raw GitHub URL maps to the corpus file named by the longest tail of its path
    (assets.repository_copy): every tail of a 20,000-segment URL was joined and checked,
    2 s for one picture (a page of 30 such pictures: 64 s). Only the tails a link path
    may be (64 segments, 2,048 characters) are tried now."""
    from murar.ingest.assets import repository_copy

    (tmp_path / "docs/img").mkdir(parents=True)
    (tmp_path / "docs/img/x.png").write_bytes(b"png")
    root = tmp_path.resolve()
    raw = "https://raw.githubusercontent.com/o/r/"
    with deadline(10, "repository URL tails"):
        for i in range(30):
            assert repository_copy(f"{raw}main/{'a/' * 20_000}docs/img/x{i}.png", root) is None
        assert repository_copy(f"{raw}main/{'a/' * 20_000}docs/img/x.png", root) == "docs/img/x.png"
    assert repository_copy(f"{raw}{'b' * 2030}/docs/img/x.png", root) == "docs/img/x.png"
    assert repository_copy(f"{raw}main/%2e%2e%2f%2e%2e%2fetc%2fpasswd", root) is None


def test_asciidoc_monospace_breaks_and_section_ids_are_linear(deadline: Callable[[int, str], Any]) -> None:
    """A paragraph of 20,000 lines '`a +' (a span opened before each hard break, closed nowhere)
    searched every later line of the paragraph for its closing backtick (127 s); 20,000 sections
    titled alike counted their ids up from 2 each time (35 s); a section title with a run of
    spaces inside (the title line's lazy text and the inline anchor's leading blanks) or many
    '[[a,' was searched again from every character (400,000 spaces: minutes). Same results."""
    from murar.ingest.markup.asciidoc_blocks import monospace_hard_breaks, section_ids

    with deadline(20, "asciidoc monospace breaks and section ids"):
        assert monospace_hard_breaks(["`a +"] * 20_000) == ["`a +"] * 20_000
        ids = [line for line in section_ids(["== A", ""] * 20_000) if line.startswith("[[")]
        assert ids[:3] == ["[[_a]]", "[[_a_2]]", "[[_a_3]]"] and ids[-1] == "[[_a_20000]]"
        assert len(section_ids(["== a" + " " * 400_000 + "b", "", "== " + "[[a," * 100_000 + "b"])) == 5
    assert monospace_hard_breaks(["`a +", "b +", "c` d", "", "`x +", "y"]) == \
        ["`a` +", "`b` +", "`c` d", "", "`x +", "y"]
    assert section_ids(["== A", "", "[[_a_2]]", "== A", "", "== A", "", "== B  [[b,x y]]  "]) == \
        ["[[_a]]", "== A", "", "[[_a_2]]", "== A", "", "[[_a_3]]", "== A", "", "== B  [[b,x y]]  "]


def test_a_figure_div_of_many_pictures_is_linear(tmp_path: Path, deadline: Callable[[int, str], Any]) -> None:
    """Each picture in a <div class="figure"> read all of the div's children for its <p class="caption">,
    twice: one div of 5,000 images took 6.4 s, 20,000 more than a minute. The caption is read once
    per div; every picture still gets it, and it is no paragraph of its own."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\n<div class=\"figure\">" + "<img src=\"https://example.org/x.png\" alt=\"\">" * 20_000
                    + "<p class=\"caption\">Cap</p></div>\n\nRest.\n", encoding="utf-8")
    with deadline(20, "figure div of many pictures"):
        doc = convert_markdown(page, root=tmp_path)
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert len(images) == 20_000 and {m.caption for m in images} == {"Cap"}
    assert "Rest." in doc.sections[-1].text and "Cap" not in doc.sections[-1].text


def test_role_text_with_a_long_run_of_blanks_is_linear(deadline: Callable[..., Any]) -> None:
    """A role's text ('title <target>' or not) was split with '^(.*?)\\s*<([^<>]*)>\\s*$', which
    retried its blanks from each character of a long run: {prf:ref} (sphinx-proof) and {ref}
    with 100,000 spaces inside took 1.5 s per 40,000, minutes at 200,000 (quadratic)."""
    from murar.ingest.markup.roles import role_text
    from murar.ingest.sites._xrefs import XrefIndex

    blanks = "a" + " " * 200_000 + "b"
    with deadline(20, "the role text's blanks were retried from each of their characters"):
        assert role_text("ref", blanks) == blanks.strip()
        assert XrefIndex().proof_ref_text(blanks) == blanks
        assert role_text("ref", "Title" + " " * 200_000 + "<lbl>") == "Title"
    from murar.ingest.markup.roles import explicit_target

    assert explicit_target("a <b>c>") is None and explicit_target("<b>") == ("", "b")
