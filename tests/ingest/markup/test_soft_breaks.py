"""A paragraph wrapped over several source lines is one stream of sentences in every markup.

Sphinx, Antora and most hand-written HTML sources are hard-wrapped; a soft line
break must not end a sentence ("...run the development" / "server.") in the
section text that snippets, evidence and attribution are split from.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.ingest.chunking import split_sentences
from murar.ingest.corpus import convert_file

_WRAPPED = ("PyCharm provides a special run configuration to run the development\n"
            "server. For other commands you need to\n"
            "create a custom run configuration.")
_SENTENCES = ["PyCharm provides a special run configuration to run the development server.",
              "For other commands you need to create a custom run configuration."]

_PAGES = {
    "page.rst": f"Wrapped\n=======\n\n{_WRAPPED}\n\n- first item wraps\n  onto a line\n- second item\n",
    "page.adoc": f"= Wrapped\n\n{_WRAPPED}\n\n* first item wraps\nonto a line\n* second item\n",
    "page.html": (f"<html><head><title>Wrapped</title></head><body><h1>Wrapped</h1><p>{_WRAPPED}</p>"
                  "<ul><li>first item wraps\nonto a line</li><li>second item</li></ul></body></html>"),
    "page.md": f"# Wrapped\n\n{_WRAPPED}\n\n- first item wraps\n  onto a line\n- second item\n",
}


@pytest.mark.parametrize("name", sorted(_PAGES))
def test_a_wrapped_paragraph_reads_as_whole_sentences(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(_PAGES[name], encoding="utf-8")
    doc = convert_file(tmp_path / name, root=tmp_path, assets_dir=tmp_path / "assets")
    text = "\n\n".join(s.text for s in doc.sections)
    assert split_sentences(text)[:2] == _SENTENCES
    # list items stay apart from each other and from the paragraph
    paragraphs = text.split("\n\n")
    assert "first item wraps onto a line" in paragraphs and "second item" in paragraphs


def test_code_and_line_breaks_that_mean_something_are_kept(tmp_path: Path) -> None:
    (tmp_path / "p.rst").write_text(
        "Code\n====\n\nRun this::\n\n    pip install murar\n    murar ingest docs\n", encoding="utf-8")
    (tmp_path / "p.html").write_text(
        "<html><body><h1>Lines</h1><p>Line one<br>Line two</p><pre>a = 1\nb = 2</pre></body></html>",
        encoding="utf-8")
    rst = convert_file(tmp_path / "p.rst", root=tmp_path, assets_dir=tmp_path / "assets")
    assert "pip install murar\nmurar ingest docs" in rst.sections[0].text
    html = convert_file(tmp_path / "p.html", root=tmp_path, assets_dir=tmp_path / "assets")
    text = "\n\n".join(s.text for s in html.sections)
    assert "Line one\nLine two" in text and "a = 1\nb = 2" in text
