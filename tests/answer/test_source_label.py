"""Source labels cite the live page when the index knows its address."""

from __future__ import annotations

from murar.answer.render import source_label
from murar.schema import ScoredSnippet, Snippet


def _scored(page_url: str | None, anchor: str | None = "install") -> ScoredSnippet:
    sn = Snippet(id="s1", section_id="sec", source_path="example.org/guide/index.html", page_title="Guide",
                 heading_path=("Guide", "Install"), anchor=anchor, text="Run the installer.", position=0,
                 n_tokens=4)
    return ScoredSnippet(snippet=sn, score=0.9, citation=1, page_url=page_url)


def test_label_uses_the_live_url_with_the_section_anchor() -> None:
    assert source_label(_scored("https://example.org/guide/")) == "Guide › Install — <https://example.org/guide/#install>"
    # a canonical URL that already has a fragment keeps it
    assert source_label(_scored("https://example.org/guide/#top")).endswith("<https://example.org/guide/#top>")


def test_label_falls_back_to_the_path_without_a_safe_url() -> None:
    assert source_label(_scored(None)) == "Guide › Install — example.org/guide/index.html#install"
    assert "javascript" not in source_label(_scored("javascript:alert(1)"))
