"""just-the-docs: a ``has_children`` page lists its child pages, as the theme's layout draws them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from murar.ingest.sites import jekyll

THEME = "title: Kettle manual\nremote_theme: just-the-docs/just-the-docs@v0.8.2\n"


def _pre(root: Path, rel: str) -> str:
    site = jekyll.load(root, "_config.yml")
    return site.preprocess((root / rel).read_text(), page_rel=rel)


def test_parent_page_lists_its_children_in_nav_order(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "_config.yml", THEME + "nav_sort: case_insensitive\n")
    write(tmp_path, "brewing/index.md", "---\ntitle: Brewing\nhas_children: true\n---\n# Brewing\n\nHow to brew.\n")
    write(tmp_path, "brewing/steep.md", "---\ntitle: Steeping\nparent: Brewing\nnav_order: 2\n"
                                        "summary: Times per leaf.\n---\n# Steeping\n")
    write(tmp_path, "brewing/boil.md", "---\ntitle: Boiling\nparent: Brewing\nnav_order: 1\n---\n# Boiling\n")
    write(tmp_path, "brewing/cups.md", "---\ntitle: cups\nparent: Brewing\n---\n# cups\n")
    write(tmp_path, "brewing/alpha.md", "---\ntitle: Alpha\nparent: Brewing\n---\n# Alpha\n")
    # a page of another "Brewing" (under another parent) and a grandchild are not children
    write(tmp_path, "other/brewing.md", "---\ntitle: Timer\nparent: Brewing\ngrand_parent: Cold drinks\n---\nx\n")
    write(tmp_path, "brewing/steep/green.md", "---\ntitle: Green\nparent: Steeping\ngrand_parent: Brewing\n---\nx\n")
    write(tmp_path, "brewing/draft.md", "---\ntitle: Draft\nparent: Brewing\npublished: false\n---\nx\n")
    out = _pre(tmp_path, "brewing/index.md")
    assert out.endswith("How to brew.\n\n---\n\n## Table of contents\n\n"
                        "- Boiling\n- Steeping - Times per leaf.\n- Alpha\n- cups\n")
    # the child with a grandparent: its parent page lists it (grand_parent = that page's parent)
    write(tmp_path, "brewing/steep.md", "---\ntitle: Steeping\nparent: Brewing\nhas_children: true\n---\n# Steeping\n")
    assert _pre(tmp_path, "brewing/steep.md").endswith("## Table of contents\n\n- Green\n")
    # has_toc: false, a page without has_children, and a site on another theme: no list
    write(tmp_path, "brewing/index.md", "---\ntitle: Brewing\nhas_children: true\nhas_toc: false\n---\n# B\n")
    assert "Table of contents" not in _pre(tmp_path, "brewing/index.md")
    write(tmp_path, "brewing/index.md", "---\ntitle: Brewing\nhas_children: true\n---\n# B\n")
    write(tmp_path, "_config.yml", "title: Kettle manual\ntheme: minima\n")
    assert "Table of contents" not in _pre(tmp_path, "brewing/index.md")


def test_children_of_a_collection_page_and_own_layout(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "_config.yml", THEME + "collections:\n  guides:\n    output: true\n")
    write(tmp_path, "_guides/setup.md", "---\ntitle: Setup\nhas_children: true\nchild_nav_order: desc\n---\n# Setup\n")
    write(tmp_path, "_guides/a.md", "---\ntitle: Install\nparent: Setup\nnav_order: 1\n---\nx\n")
    write(tmp_path, "_guides/b.md", "---\ntitle: Configure\nparent: Setup\nnav_order: 2\n---\nx\n")
    write(tmp_path, "loose.md", "---\ntitle: Elsewhere\nparent: Setup\n---\nx\n")  # not in the collection
    assert _pre(tmp_path, "_guides/setup.md").endswith("## Table of contents\n\n- Configure\n- Install\n")
    # the site's own default layout that no longer draws the list
    write(tmp_path, "_layouts/default.html", "<main>{{ content }}</main>\n")
    assert "Table of contents" not in _pre(tmp_path, "_guides/setup.md")


def test_a_huge_own_layout_is_not_read_whole(tmp_path: Path, write: Callable[..., Path]) -> None:
    # the site's _layouts/default.html is read for "has_children" only in its first 200,000
    # characters; a 60 MB one was read whole (120 MB of memory: the bytes and the text)
    import tracemalloc

    write(tmp_path, "_config.yml", THEME)
    write(tmp_path, "index.md", "---\ntitle: Home\nhas_children: true\n---\n# Home\n")
    write(tmp_path, "a.md", "---\ntitle: A page\nparent: Home\n---\nx\n")
    write(tmp_path, "_layouts/default.html", "<main>{{ content }}</main>{% include children_nav.html %}\n")
    with (tmp_path / "_layouts" / "default.html").open("r+b") as fh:
        fh.truncate(60_000_000)  # sparse: no disk used
    tracemalloc.start()
    try:
        out = _pre(tmp_path, "index.md")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out.endswith("## Table of contents\n\n- A page\n")
    assert peak < 20_000_000
