"""Source labels cite the live page when the index knows its address."""

from __future__ import annotations

from pathlib import Path

from murar.answer.pipeline import load_pipeline
from murar.answer.render import is_safe_url, source_label
from murar.api.assistant import Assistant
from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index
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
    # a '>' would close the <...> destination and let the rest be read as a Markdown link
    broken_out = "https://example.org/a>[x](javascript:alert(1))"
    assert not is_safe_url(broken_out)
    assert source_label(_scored(broken_out)).endswith("example.org/guide/index.html#install")


def test_retrieved_and_illustrated_sources_carry_the_canonical_url(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    page = ('<html><head><title>{t}</title><link rel="canonical" href="{u}"></head>'
            "<body><main><h1>{t}</h1><p>{body}</p></main></body></html>")
    (docs / "install.html").write_text(page.format(t="Install", u="https://docs.example.org/install/",
                                                   body="Run the Gizmo installer and accept the licence."))
    (docs / "evil.html").write_text(page.format(t="Evil", u="javascript:alert(1)",
                                                body="Uninstall the Widget tool from the control panel."))
    build_index(docs, tmp_path / "idx", embedder=HashingEmbedder())
    p = load_pipeline(tmp_path / "idx", llm="extractive")
    by_page = {s.snippet.page_title: s.page_url for s in p.retrieve("Gizmo installer licence Widget uninstall")[0]}
    assert by_page == {"Install": "https://docs.example.org/install/", "Evil": None}
    # an answer written elsewhere and illustrated from given sources (here a bare Snippet) cites the live page too
    hit = next(s for s in p.retrieve("Gizmo installer")[0] if s.snippet.page_title == "Install")
    answer = Assistant.from_pipeline(p).illustrate("Run the Gizmo installer [1].", sources=[hit.snippet])
    assert [s.page_url for s in answer.sources] == ["https://docs.example.org/install/"]
    # search results for other frameworks (LangChain/LlamaIndex metadata, MCP) carry the same link
    found = {h.metadata["page_title"]: h.metadata["page_url"] for h in Assistant.from_pipeline(p).search(
        "Gizmo installer licence Widget uninstall", k=2)}
    assert found == {"Install": "https://docs.example.org/install/", "Evil": None}
