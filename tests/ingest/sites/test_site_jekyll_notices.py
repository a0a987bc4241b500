"""Minimal Mistakes notices (kramdown block IALs and HTML blocks) get a label."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from murar.ingest.sites import jekyll


def test_minimal_mistakes_notice_classes_are_labelled() -> None:
    text = ("Back up the folder first.\n{: .notice--warning}\n\n"
            "{: .notice--info}\nThe cache lives in memory.\n\n"
            "Plain notice text.\n{: .notice}\n\n"
            '<div class="notice--danger" markdown="1">\nDropping the table loses its rows.\n</div>\n\n'
            "Just a styled paragraph.\n{: .text-center}\n")
    out = jekyll.strip_kramdown(text, jekyll.callout_titles({}))
    assert "**Warning:** Back up the folder first." in out
    assert "**Info:** The cache lives in memory." in out
    assert "**Note:** Plain notice text." in out
    assert "**Danger:** Dropping the table loses its rows." in out
    assert "**" not in out.split("Just a styled")[1] and "{:" not in out


def test_configured_callouts_still_decide() -> None:
    titles = jekyll.callout_titles({"site.callouts.notice--info.color": "blue"})  # configured, untitled
    out = jekyll.strip_kramdown("Text.\n{: .notice--info}\n", titles)
    assert out == "Text.\n"  # the configured (untitled) callout: no label, the text kept
    assert jekyll.strip_kramdown("Text.\n{: .notice--info}\n", {}) == "**Info:** Text.\n"  # unconfigured


def test_html_block_stays_whole_across_blank_lines_as_kramdown_reads_it() -> None:
    from markdown_it import MarkdownIt

    text = ("Intro.\n\n<div class=\"scroller\">\n<table>\n  <tbody>\n    \n      <tr>\n        <td>one</td>\n"
            "      </tr>\n    \n      <tr>\n        <td>two</td>\n      </tr>\n    \n  </tbody>\n</table>\n</div>\n\n"
            "After *the* table.\n\n<div>\nunclosed\n\n    indented code\n")
    out = jekyll.strip_kramdown(text, {})
    tokens = MarkdownIt("commonmark").parse(out)
    blocks = [t for t in tokens if t.type == "html_block"]
    assert "one" in blocks[0].content and "two" in blocks[0].content and "</div>" in blocks[0].content
    assert not any(t.type == "code_block" and "<td>" in t.content for t in tokens)
    assert "After *the* table." in out
    assert "unclosed\n\n    indented code" in out  # no closing tag: left alone
    # parse_block_html: the content is Markdown, blank lines matter
    assert "\n\n" in jekyll.strip_kramdown("<div>\n\n*x*\n\n</div>\n", {}, parse_block_html=True)


def test_comment_lines_before_a_quote_are_blocks_of_their_own() -> None:
    """kramdown applies a block IAL to the block just before it; an HTML comment line
    (``<!-- markdownlint-disable -->``) is a block of its own, so the quote after it is
    labelled, not the comment (the label went on the comment line and the quote read
    unlabelled); an IAL right after a comment labels nothing."""
    text = "<!-- lint-off -->\n> Back up first.\n{: .prompt-warning }\n\n<!-- lint-on -->\n{: .note }\n"
    assert jekyll.strip_kramdown(text) == "<!-- lint-off -->\n> **Warning:** Back up first.\n\n<!-- lint-on -->\n"


def test_ial_after_a_block_quote_labels_the_quote_not_its_last_paragraph() -> None:
    """kramdown applies a block IAL written on the line after a block quote to the
    whole quote: its label leads the quote's first line (it went on the quote's last
    paragraph, mid-quote), and a quote whose own first line already is that title
    (``> **Important**``) is not labelled twice."""
    titled = "> **Important**\n>\n> Keep your tokens secret.\n{: .important}\n"
    assert jekyll.strip_kramdown(titled) == "> **Important**\n>\n> Keep your tokens secret.\n"
    text = "> Save your recovery code.\n>\n> It recovers your account.\n{: .important }\n\nAfter.\n"
    assert jekyll.strip_kramdown(text) == ("> **Important:** Save your recovery code.\n>\n"
                                           "> It recovers your account.\n\nAfter.\n")
    # a lazy continuation line (no ``>``) still ends the quote's paragraph: the quote is labelled
    lazy = "> **Desktop for Linux**\n>\n> It is now GA, see\n[the docs](x.md).\n{: .important}\n"
    assert jekyll.strip_kramdown(lazy).startswith("> **Important:** **Desktop for Linux**\n>\n> It is now GA")
    # a paragraph inside the quote keeps its own IAL: that paragraph is labelled
    inner = "> Intro.\n>\n> Back up first.\n> {: .warning}\n"
    assert jekyll.strip_kramdown(inner).startswith("> Intro.\n>\n> **Warning:** Back up first.\n")


def test_a_callout_block_opened_by_a_heading_is_titled_by_it_not_sectioned(tmp_path: Path,
                                                                           write: Callable[..., Path]) -> None:
    """Jekyll's own docs write a note as ``<div class="note info" markdown="1">``, a blank
    line, then ``##### Problems installing Jekyll?``: the heading is the box's title. It
    was a section heading (the rest of the page up to the next heading, read as that
    note's section) and the note was not labelled, because of the blank line after the
    opening tag; an empty ``<div markdown="1"></div>`` before the title shows nothing."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "page.md", (
        "---\ntitle: P\n---\n## Install on macOS\n\nIntro.\n\n<div class=\"note info\" markdown=\"1\">\n\n"
        "##### Problems installing?\n\nSee the troubleshooting page.\n\n</div>\n\nMore macOS text.\n\n"
        "<div class=\"note protip\" markdown=\"1\">\n<div markdown=\"1\">\n</div>\n\n##### Use the `pages` gem\n\n"
        "Add it to your Gemfile.\n</div>\n\n## Ubuntu\n\nUbuntu text.\n"))
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "page.md", site=site, assets_dir=tmp_path / "_assets")
    titles = [s.heading_path[-1] for s in doc.sections]
    assert titles == ["Install on macOS", "Ubuntu"]
    mac = doc.sections[0].text
    assert "Info: Problems installing?" in mac and "Note: Use the pages gem" in mac
    assert "More macOS text." in mac and "#" not in mac
    # the content right after a blank line (no heading) is labelled too
    out = jekyll.strip_kramdown('<div class="warning" markdown="1">\n\nBack up first.\n\n</div>\n',
                                {"warning": "Warning"})
    assert "**Warning:** Back up first." in out


def test_an_html_callout_box_is_labelled_and_its_modifier_class_names_the_kind() -> None:
    """Jekyll's docs write most notes as HTML (``<div class="note warning">`` then ``<h5>`` and
    ``<p>``): the box read unlabelled, though the same note written as ``{: .note .warning}``
    was labelled, and that one as a Note: the class after ``note`` is the kind of box."""
    text = ('Intro.\n\n<div class="note warning">\n  <h5>Be sure to exclude <code>vendor</code></h5>\n'
            '  <p>Travis bundles all gems.</p>\n</div>\n\n<div class="tip">\n  <p>Cache the gems.</p>\n</div>\n\n'
            '{: .note .info}\nUse `jekyll serve` while writing.\n\n<div class="wrapper">\n  <p>Plain.</p>\n</div>\n')
    out = jekyll.strip_kramdown(text)
    assert "  <h5>Warning: Be sure to exclude <code>vendor</code></h5>\n  <p>Travis" in out
    assert "  <p><strong>Tip:</strong> Cache the gems.</p>" in out
    assert "**Info:** Use `jekyll serve` while writing." in out
    assert "  <p>Plain.</p>" in out
    # a box whose own first words are its kind is not labelled twice
    own = jekyll.strip_kramdown('<div class="note">\n  <p><b>Note:</b> Back up first.</p>\n</div>\n')
    assert own == '<div class="note">\n  <p><b>Note:</b> Back up first.</p>\n</div>\n'


def test_an_attribute_list_shown_in_a_code_span_stays() -> None:
    """Minimal Mistakes' "Utility Classes" shows the attribute lists themselves in code spans
    (``emphasized with the `{: .notice}` class``, a table cell `` `[Text](#link){: .btn}` ``):
    they were removed as if applied, leaving an empty code span; one written after a code
    span or a picture still goes."""
    text = ("Emphasized with the `{: .notice}` class.\n{: .notice}\n\n"
            "| `[Text](#link){: .btn}` | [Text](#link){: .btn} |\n\nA `gem`{: .language-ruby} and ``a ` {: .b}``.\n")
    out = jekyll.strip_kramdown(text)
    assert "**Note:** Emphasized with the `{: .notice}` class." in out
    assert "| `[Text](#link){: .btn}` | [Text](#link) |" in out
    assert "A `gem` and ``a ` {: .b}``." in out
