"""Hugo: mermaid diagrams stay code, cards without inner content keep their titles,
and an ``index.md`` at the content root makes the home page a leaf bundle."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from murar.ingest.sites import hugo
from murar.ingest.sites.base import FileRole

PAGE = """---
title: Flow
---
{{< mermaid align="center" >}}
graph LR
  Build --> Test
{{< /mermaid >}}

{{< cards >}}
  {{< card link="../setup" title="Set up the agent" subtitle="A <b>short</b> start." />}}
  {{< card link="../tune" title="Tune it" icon="cog" >}}
  {{< hextra/feature-card title="Fast builds" subtitle="Seconds, not minutes." >}}
{{< /cards >}}
"""


def test_mermaid_shortcode_is_a_code_block_and_cards_keep_titles(tmp_path: Path,
                                                                   write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'title = "T"\n')
    write(tmp_path, "content/flow.md", PAGE)
    site = hugo.load(tmp_path, "hugo.toml")
    text = site.preprocess(PAGE, page_rel="content/flow.md", warnings=[])
    assert "```mermaid\ngraph LR\n  Build --> Test\n```" in text
    assert "**Set up the agent** A short start." in text
    assert "**Tune it** " in text
    assert "**Fast builds** Seconds, not minutes." in text


def test_index_md_at_the_content_root_makes_a_leaf_home(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'title = "T"\n')
    write(tmp_path, "content/_index.md", "---\ntitle: Home\n---\nhome\n")
    write(tmp_path, "content/guide/a.md", "---\ntitle: A\n---\na\n")
    site = hugo.load(tmp_path, "hugo.toml")
    assert site.classify("content/_index.md").role is FileRole.PAGE
    assert site.classify("content/guide/a.md").role is FileRole.PAGE
    write(tmp_path, "content/index.md", "---\ntitle: Leaf home\n---\nleaf\n")
    site = hugo.load(tmp_path, "hugo.toml")
    assert site.classify("content/index.md").role is FileRole.PAGE
    for rel in ("content/_index.md", "content/guide/a.md"):
        assert site.classify(rel).role is FileRole.INCLUDE, rel  # what Hugo 0.168 publishes: only the home


def test_card_image_is_a_picture_above_its_title(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    write(tmp_path, "hugo.toml", 'title = "T"\n')
    write(tmp_path, "static/img/wide.png", png)
    write(tmp_path, "assets/pics/tall.png", png)
    page = ('{{< cards >}}\n  {{< card link="/" title="Static one" image="/img/wide.png" subtitle="From static." >}}\n'
            '  {{< card link="/" title="Processed" image="pics/tall.png" subtitle="From assets." method="Resize" >}}\n'
            "{{< /cards >}}\n")
    write(tmp_path, "content/docs/cards.md", page)
    site = hugo.load(tmp_path, "hugo.toml")
    text = site.preprocess(page, page_rel="content/docs/cards.md", warnings=[])
    assert '![Static one](<../../static/img/wide.png> "From static.")\n\n**Static one** From static.' in text
    assert '![Processed](<../../assets/pics/tall.png> "From assets.")\n\n**Processed** From assets.' in text


def test_a_card_wrapping_content_shows_its_image(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    write(tmp_path, "hugo.toml", 'title = "T"\n')
    write(tmp_path, "content/docs/tiles/shot.png", png)  # published at the page's URL folder
    page = '{{% columns %}}\n- {{< card image="shot.png" >}}\n  Tile text.\n  {{< /card >}}\n{{% /columns %}}\n'
    write(tmp_path, "content/docs/tiles.md", page)
    site = hugo.load(tmp_path, "hugo.toml")
    text = site.preprocess(page, page_rel="content/docs/tiles.md", warnings=[])
    assert "![](<tiles/shot.png>)" in text and "Tile text." in text
