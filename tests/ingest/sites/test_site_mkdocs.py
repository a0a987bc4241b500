"""MkDocs / Material: docs_dir (also as a symlink), exclude_docs, links, snippets and the pymdown dialect."""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from sample_png import PNG_64PX as PNG

from murar.errors import ConfigError
from murar.ingest.corpus import IngestReport, convert_corpus, walk_site
from murar.ingest.markup.pymdown import convert_pymdown
from murar.ingest.sites.base import FileRole, SiteVariant
from murar.ingest.sites.detect import open_site
from murar.ingest.sites.mkdocs import MkDocsSite, snippet_targets
from murar.schema import ImageItem, ParsedDocument

MKDOCS_YML = """site_name: Demo
site_url: https://docs.example.org/product/en/
docs_dir: content
exclude_docs: |
  /drafts/
  *.tmp.md
theme:
  name: material
  custom_dir: content/overrides
markdown_extensions:
  - admonition
  - attr_list
  - pymdownx.details
  - pymdownx.tabbed:
      alternate_style: true
  - pymdownx.snippets:
      base_path: ["includes"]
  - pymdownx.emoji:
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
  - markdown_version_annotations
"""

PAGE = """---
title: Create a device
---

# Create a device

+++ 2.1.0

Open the **Devices** menu.

![Device list](img/devices-light.png#only-light){ .on-glb loading=lazy width=600 }
![Device list](img/devices-dark.png#only-dark){ .on-glb }

!!! note "Permissions"
    You need the *add device* permission.

    ![Permission form](/img/perm.png){ width=300 }

??? tip
    Collapsed tip text.

=== "Web UI"

    Click **Add Device** in the toolbar.

=== "REST API"

    Send a POST request to the devices endpoint.

--8<-- "abbreviations.md"

<figure markdown>
  ![Saved view](img/saved.png)
  <figcaption>A saved view</figcaption>
</figure>
"""


def _site(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for rel in ("content/guide/img/devices-light.png", "content/guide/img/devices-dark.png", "content/img/perm.png",
                "content/guide/img/saved.png"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(PNG)
    (root / "mkdocs.yml").write_text(MKDOCS_YML)
    (root / "content" / "guide" / "devices.md").write_text(PAGE)
    (root / "content" / "index.md").write_text("# Home\n")
    (root / "content" / "README.md").write_text("# Readme shadowed by index.md\n")
    (root / "content" / "drafts").mkdir()
    (root / "content" / "drafts" / "wip.md").write_text("# WIP\n")
    (root / "content" / "old.tmp.md").write_text("# tmp\n")
    (root / "content" / "overrides").mkdir()
    (root / "content" / "overrides" / "main.html").write_text("<html></html>")
    (root / "includes").mkdir()
    (root / "includes" / "abbreviations.md").write_text("Abbreviation text from a snippet.\n")
    (root / "README.md").write_text("# Repository readme\n")
    return root



def _convert_page(tmp_path: Path, config: str, page: str) -> ParsedDocument:
    """``page`` as ``docs/p.md`` of a project whose ``mkdocs.yml`` is ``config``, converted."""
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(config)
    (root / "docs" / "p.md").write_text(page)
    return convert_pymdown(root / "docs" / "p.md", site=MkDocsSite.load(root, "mkdocs.yml"), assets_dir=tmp_path / "a")

def test_pages_includes_and_exclusions(tmp_path: Path) -> None:
    root = _site(tmp_path)
    site = MkDocsSite.load(root, "mkdocs.yml")
    assert site.config.base_url == "/product/en/"
    roles = {rel: site.classify(rel).role for rel in (
        "content/guide/devices.md", "content/index.md", "content/README.md", "content/drafts/wip.md",
        "content/old.tmp.md", "content/overrides/main.html", "includes/abbreviations.md", "README.md",
        "content/img/perm.png")}
    assert roles == {
        "content/guide/devices.md": FileRole.PAGE, "content/index.md": FileRole.PAGE,
        "content/README.md": FileRole.EXCLUDED, "content/drafts/wip.md": FileRole.EXCLUDED,
        "content/old.tmp.md": FileRole.EXCLUDED, "content/overrides/main.html": FileRole.EXCLUDED,
        "includes/abbreviations.md": FileRole.INCLUDE, "README.md": FileRole.EXCLUDED,
        "content/img/perm.png": FileRole.ASSET,
    }
    assert "exclude_docs" in site.classify("content/drafts/wip.md").reason


def test_draft_docs_are_not_pages(tmp_path: Path) -> None:
    """MkDocs 1.6 ``draft_docs`` (gitignore-style, like exclude_docs): pages ``mkdocs serve``
    shows and ``mkdocs build`` leaves out; they were ingested as pages."""
    root = _site(tmp_path)
    yml = (root / "mkdocs.yml").read_text().replace("theme:\n", "draft_docs: |\n  _unpublished.md\n  wip/\ntheme:\n", 1)
    (root / "mkdocs.yml").write_text(yml)
    for rel in ("content/guide/_unpublished.md", "content/wip/next.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("# Soon\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    draft = site.classify("content/guide/_unpublished.md")
    assert draft.role is FileRole.EXCLUDED and "draft_docs" in draft.reason
    assert site.classify("content/wip/next.md").role is FileRole.EXCLUDED
    assert site.classify("content/guide/devices.md").role is FileRole.PAGE


def test_page_reads_like_material_renders_it(tmp_path: Path) -> None:
    root = _site(tmp_path)
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "content" / "guide" / "devices.md", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Added in version 2.1.0" in text
    assert "Note: Permissions" in text and "You need the add device permission." in text
    assert "Tip:" in text and "Collapsed tip text." in text
    assert "Web UI" in text and "Click Add Device in the toolbar." in text and "REST API" in text
    assert "===" not in text and "!!!" not in text and "{" not in text and "8<" not in text
    assert "Abbreviation text from a snippet." in text
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(i.alt, i.path) for i in images] == [
        ("Device list", "content/guide/img/devices-light.png"),  # the dark twin is counted, not kept
        ("Permission form", "content/img/perm.png"),             # root-relative: from docs_dir
        ("Saved view", "content/guide/img/saved.png"),
    ]
    assert all(i.exists for i in images)
    assert sorted(r.status for r in doc.asset_refs) == ["resolved"] * 4


def test_site_url_prefix_and_missing_snippet(tmp_path: Path) -> None:
    root = _site(tmp_path)
    (root / "content" / "guide" / "more.md").write_text(
        "# More\n\n![P](/product/en/img/perm.png)\n\n--8<-- \"nope.md\"\n\n;--8<-- \"escaped.md\"\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "content" / "guide" / "more.md", site=site, assets_dir=tmp_path / "a")
    assert [m.path for m in doc.media if isinstance(m, ImageItem)] == ["content/img/perm.png"]
    assert any("nope.md" in w for w in doc.warnings)
    assert '--8<-- "escaped.md"' in "\n".join(s.text for s in doc.sections)


def test_snippet_block_form_and_line_ranges() -> None:
    text = '--8<--\na.md\n;b.md\nc.md:2:4\n--8<--\n\n--8<-- "d.md:section"\n'
    assert snippet_targets(text) == ["a.md", "c.md", "d.md"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_docs_dir_as_symlink_and_as_git_text_link(tmp_path: Path) -> None:
    for kind in ("symlink", "textfile"):
        root = tmp_path / kind
        (root / "pkg" / "docs" / "img").mkdir(parents=True)
        (root / "pkg" / "docs" / "img" / "x.png").write_bytes(PNG)
        (root / "pkg" / "docs" / "page.md").write_text("# Page\n\n![X](img/x.png)\n")
        (root / "mkdocs.yml").write_text("site_name: s\n")
        if kind == "symlink":
            (root / "docs").symlink_to("pkg/docs", target_is_directory=True)
        else:
            (root / "docs").write_text("pkg/docs")
        sel = open_site(root)
        walk = walk_site(sel.site)
        report = IngestReport()
        docs = convert_corpus(root, assets_dir=tmp_path / "a", report=report, site=sel.site, walk=walk)
        assert len(docs) == 1, (kind, [f for f in report.files])
        assert report.assets.resolution_rate == 1.0
        assert [m.path for m in docs[0].media] == ["pkg/docs/img/x.png"]


@pytest.mark.integration
def test_nautobot_docs_resolve_like_mkdocs(tmp_path: Path, docsites_root: Path) -> None:
    corpus = docsites_root / "mkdocs-material-nautobot"
    if not corpus.is_dir():
        pytest.skip("mkdocs corpus absent")
    sel = open_site(corpus)
    assert sel.site.config.generator == "mkdocs"
    report = IngestReport()
    docs = convert_corpus(corpus, assets_dir=tmp_path, report=report, site=sel.site, walk=walk_site(sel.site))
    # SOURCE.md: 55 guide pages (+ the user-guide index page), 310 image references, all resolvable
    assert len(docs) == 56 and not report.failed
    assert report.assets.references == 310 and report.assets.resolution_rate == 1.0
    images = [m for d in docs for m in d.media if isinstance(m, ImageItem)]
    assert not any("_dark" in (i.path or "") and "only-dark" in (i.path or "") for i in images)
    assert len(images) == 310 - 148  # 148 #only-dark twins counted, not kept
    text = " ".join(s.text for d in docs for s in d.sections)
    assert "{ .on-glb }" not in text and "!!! note" not in text


def test_html_figure_caption_is_the_image_caption(tmp_path: Path) -> None:
    root = _site(tmp_path)
    (root / "content" / "guide" / "fig.md").write_text(
        "# Fig\n\n<figure>\n<img src=\"img/saved.png\" alt=\"alt text\">\n"
        "<figcaption>The saved view dialog</figcaption>\n</figure>\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "content" / "guide" / "fig.md", site=site, assets_dir=tmp_path / "a")
    (img,) = [m for m in doc.media if isinstance(m, ImageItem)]
    assert img.caption == "The saved view dialog" and img.path == "content/guide/img/saved.png"


def test_markdown_figure_caption_is_the_image_caption(tmp_path: Path) -> None:
    # md_in_html: <figure markdown> holding a Markdown image and a <figcaption>, also inside an admonition
    root = _site(tmp_path)
    (root / "content" / "guide" / "mdfig.md").write_text(
        "# Fig\n\n!!! tip \"In the toolbar\"\n    <figure markdown=\"span\">\n"
        "      ![Toolbar icon](img/saved.png){ width=\"300\" }\n"
        "      <figcaption>The save icon</figcaption>\n    </figure>\n\n"
        "    Click it once.\n\n<figure markdown>\n  ![List](img/devices-light.png)\n"
        "  <figcaption>\n    The device list\n  </figcaption>\n</figure>\n\n"
        "<figure markdown>\n| a | b |\n|---|---|\n| 1 | 2 |\n<figcaption>Counts</figcaption>\n</figure>\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "content" / "guide" / "mdfig.md", site=site, assets_dir=tmp_path / "a")
    images = [(m.path, m.caption) for m in doc.media if isinstance(m, ImageItem)]
    assert images == [("content/guide/img/saved.png", "The save icon"),
                      ("content/guide/img/devices-light.png", "The device list")]
    text = " ".join(s.text for s in doc.sections)
    assert "Click it once." in text and "Counts" in text and "figure>" not in text


def test_blocks_icons_and_abbreviations(tmp_path: Path) -> None:
    root = _site(tmp_path)
    yml = (root / "mkdocs.yml").read_text().replace("  - admonition\n", "  - admonition\n  - abbr\n")
    (root / "mkdocs.yml").write_text(yml)
    (root / "content" / "guide" / "blocks.md").write_text(
        "# Blocks\n\n/// warning | Careful\n    type: warning\n\nDo not delete the device.\n///\n\n"
        "/// tab | Python\nUse the client.\n///\n\nClick :material-plus: to add.\n\n*[API]: Application interface\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "content" / "guide" / "blocks.md", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Warning: Careful" in text and "Do not delete the device." in text and "type: warning" not in text
    assert "Python" in text and "Use the client." in text and "///" not in text
    assert "Click to add." in text and ":material" not in text and "Application interface" not in text


def test_the_toc_marker_is_the_table_of_contents_not_text(tmp_path: Path) -> None:
    """MkDocs always runs Python-Markdown's toc extension, which replaces a paragraph that
    is only its marker (``[TOC]``, or the ``marker`` option) by the page's table of
    contents: the marker was left in the text; in code, or inside a sentence, it stays."""
    root = _site(tmp_path)
    page = root / "content" / "guide" / "toc.md"
    page.write_text("# Guide\n\n[TOC]\n\nRead on. The [TOC] marker.\n\n```\n[TOC]\n```\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    text = convert_pymdown(page, site=site, assets_dir=tmp_path / "a").sections[0].text
    assert text.split("\n\n") == ["Read on. The [TOC] marker.", "[TOC]"]
    yml = (root / "mkdocs.yml").read_text().replace("  - admonition\n", "  - admonition\n  - toc:\n      marker: '{{toc}}'\n")
    (root / "mkdocs.yml").write_text(yml)
    page.write_text("# Guide\n\n{{toc}}\n\n[TOC]\n")
    text = convert_pymdown(page, site=MkDocsSite.load(root, "mkdocs.yml"), assets_dir=tmp_path / "a").sections[0].text
    assert text == "[TOC]"


def test_an_attribute_list_width_draws_a_picture_small(tmp_path: Path) -> None:
    """attr_list: ``![save](save.png){ width="20" }`` is drawn 20 px wide, a glyph (``tiny``)
    whatever the file's size, in a table cell or a sentence too (MkDocs icon legends); the width
    was dropped before parsing, so the icon was an unflagged picture. A wide one stays."""
    root = _site(tmp_path)
    img = root / "content" / "guide" / "img"
    img.mkdir(parents=True, exist_ok=True)
    for name in ("save", "shot"):
        Image.new("RGB", (400, 300), (len(name) * 20, 90, 40)).save(img / f"{name}.png")
    page = root / "content" / "guide" / "icons.md"
    page.write_text('# Icons\n\n| Icon | Action |\n|---|---|\n| ![save](img/save.png){ width="20" } | Saves |\n\n'
                    '![The dialog](img/shot.png){ width="600" }\n')
    doc = convert_pymdown(page, site=MkDocsSite.load(root, "mkdocs.yml"), assets_dir=tmp_path / "a")
    assert [(Path(m.path or "").name, m.flags) for m in doc.media if isinstance(m, ImageItem)] == [
        ("save.png", ["tiny"]), ("shot.png", [])]
    assert "width" not in " ".join(s.text for s in doc.sections)


def test_inherit_merges_the_parent_config(tmp_path: Path) -> None:
    root = tmp_path / "p"
    (root / "site" / "pages").mkdir(parents=True)
    (root / "base.yml").write_text("docs_dir: pages\nsite_url: https://x.org/docs/\n")
    (root / "site" / "mkdocs.yml").write_text("INHERIT: ../base.yml\nsite_name: child\n")
    site = MkDocsSite.load(root, "site/mkdocs.yml")
    assert site.config.content_dirs == ("site/pages",) and site.config.base_url == "/docs/"


def test_inherit_merges_mappings_deeply(tmp_path: Path) -> None:
    """MkDocs merges a config into the one it INHERITs deeply (mappings key by key, lists
    replaced). A language's config that adds one extension in mapping form (Grist's help/en:
    theme, markdown_extensions) replaced the parent's mapping whole: its attr_list went, and
    every ``{: .screenshot-half }`` under a screenshot was page text."""
    root = tmp_path / "p"
    (root / "site" / "pages").mkdir(parents=True)
    (root / "base.yml").write_text("docs_dir: pages\ntheme:\n  name: material\n  custom_dir: overrides\n"
                                   "markdown_extensions:\n  attr_list: {}\n  admonition: {}\nplugins:\n  - search\n")
    (root / "site" / "mkdocs.yml").write_text("INHERIT: ../base.yml\ntheme:\n  language: en\n"
                                              "markdown_extensions:\n  toc:\n    permalink: true\n")
    site = MkDocsSite.load(root, "site/mkdocs.yml")
    assert {"attr_list", "admonition", "toc"} <= site.extensions
    (root / "site" / "pages" / "p.md").write_text("# P\n\nOpen the menu:\n\n*![Menu](menu.png)*\n{: .screenshot-half }\n")
    doc = convert_pymdown(root / "site" / "pages" / "p.md", site=site, assets_dir=tmp_path / "a")
    assert doc.sections[0].text == "Open the menu:"


def test_snippets_auto_append_and_file_base_paths(tmp_path: Path) -> None:
    # pymdownx.snippets: a base_path entry that is a file is found by its name; auto_append
    # snippets end every page (and are not pages); full Python-Markdown names count as short
    root = tmp_path / "proj"
    (root / "docs" / "snippets").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        "site_name: S\nmarkdown_extensions:\n  - markdown.extensions.abbr\n  - pymdownx.snippets:\n"
        "      base_path: [docs/snippets, SECURITY.md]\n      auto_append: [glossary.md]\n")
    (root / "SECURITY.md").write_text("Report vulnerabilities by email.\n")
    (root / "docs" / "snippets" / "glossary.md").write_text("*[CLI]: Command line interface\n\nShared footer text.\n")
    (root / "docs" / "glossary.md").write_text("# Not the appended one\n")
    (root / "docs" / "security.md").write_text('# Security\n\n--8<-- "SECURITY.md"\n')
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "security.md", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Report vulnerabilities by email." in text and "Shared footer text." in text
    assert "Command line interface" not in text and "*[" not in text  # abbr definitions are not text
    assert doc.warnings == []
    assert site.classify("docs/snippets/glossary.md").role is FileRole.INCLUDE
    assert site.classify("docs/glossary.md").role is FileRole.PAGE


def _pages_and_skips(root: Path, language: str | None = None) -> tuple[list[str], dict[str, str]]:
    walk = walk_site(open_site(root, variant=SiteVariant(language=language) if language else None).site)
    return [p.rel for p in walk.pages], {f.path: f.error for f in walk.others if f.status == "skipped"}


def test_i18n_plugin_suffix_structure_keeps_the_default_locale(tmp_path: Path) -> None:
    # mkdocs-static-i18n v1 (suffix structure, the default): page.fr.md is the French
    # translation of page.md; page.en.md (default locale) is a page of its own unless page.md
    # is beside it; an unconfigured suffix of a locale's form (zh) is a translation too (the plugin
    # takes it for a locale), any other suffix is part of the name
    root = tmp_path / "suffix"
    (root / "docs" / "setup").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        "site_name: S\nplugins:\n  - search\n  - i18n:\n      languages:\n        - locale: en\n"
        "          default: true\n          name: English\n        - locale: fr\n          name: Francais\n"
        "        - locale: pt-BR\n          name: Portugues\n          build: false\n")
    for name in ("index.md", "index.fr.md", "setup/install.md", "setup/install.fr.md", "setup/install.pt-BR.md",
                 "setup/tune.en.md", "setup/tune.fr.md", "setup/both.md", "setup/both.en.md", "setup/notes.v2.md",
                 "setup/install.zh.md"):
        (root / "docs" / name).write_text(f"# {name}\n\nMade-up text.\n")
    pages, skipped = _pages_and_skips(root)
    assert pages == ["docs/index.md", "docs/setup/both.md", "docs/setup/install.md", "docs/setup/notes.v2.md",
                     "docs/setup/tune.en.md"]
    assert skipped["docs/setup/install.fr.md"] == "translation (locale fr); default locale en"
    assert skipped["docs/setup/install.pt-BR.md"] == "translation (locale pt-BR); default locale en"
    assert skipped["docs/setup/both.en.md"] == "both.md is the default locale's page (en)"
    assert skipped["docs/setup/install.zh.md"] == "translation (locale zh, not a configured locale); default locale en"


def test_i18n_plugin_folder_structure_and_v0_mapping(tmp_path: Path) -> None:
    # folder structure: docs/<locale>/ holds each language; the default locale's folder holds the
    # pages. The v0.x form (default_language + languages mapping) is read too.
    root = tmp_path / "folder"
    for name in ("de/index.md", "de/guide/start.md", "fr/index.md", "fr/guide/start.md", "shared.md"):
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(f"# {name}\n\nMade-up text.\n")
    (root / "mkdocs.yml").write_text(
        "site_name: S\nplugins:\n  i18n:\n    docs_structure: folder\n    default_language: de\n"
        "    languages:\n      de: Deutsch\n      fr: Francais\n")
    pages, skipped = _pages_and_skips(root)
    assert pages == ["docs/de/guide/start.md", "docs/de/index.md", "docs/shared.md"]
    assert skipped["docs/fr/guide/start.md"] == "translation (locale fr); default locale de"


def test_i18n_a_chosen_locale_reads_its_pages_else_the_default_ones(tmp_path: Path) -> None:
    """mkdocs-static-i18n builds a language (reconfigure_files) from each page's file of that
    locale, else, with fallback_to_default (the default), its default-locale file; linked
    images are looked up as image.fr.png, image.en.png, image.png (I18nFiles.get_file_from_path)."""
    root = tmp_path / "suffix"
    (root / "docs" / "setup").mkdir(parents=True)
    config = ("site_name: S\nplugins:\n  - i18n:\n      languages:\n        - locale: en\n          default: true\n"
              "          name: English\n        - locale: fr\n          name: Francais\n"
              "        - locale: de\n          name: Deutsch\n")
    (root / "mkdocs.yml").write_text(config)
    for name in ("index.md", "index.fr.md", "setup/install.md", "setup/install.de.md", "setup/tune.en.md",
                 "setup/both.md", "setup/both.en.md", "setup/both.fr.md"):
        (root / "docs" / name).write_text(f"# {name}\n\n![Shot](shot.png)\n")
    for name in ("shot.png", "shot.fr.png", "setup/shot.png", "setup/logo.en.png"):
        (root / "docs" / name).write_bytes(b"png")
    # the default locale's build finds logo.en.png for logo.png too
    assert open_site(root).site.resolve_asset("logo.png", page_rel="docs/setup/install.md").rel_path == \
        "docs/setup/logo.en.png"
    pages, skipped = _pages_and_skips(root, "fr")
    assert pages == ["docs/index.fr.md", "docs/setup/both.fr.md", "docs/setup/install.md", "docs/setup/tune.en.md"]
    assert skipped["docs/index.md"] == "read from its translation docs/index.fr.md (locale fr)"
    assert skipped["docs/setup/install.de.md"] == "translation (locale de); murar reads locale fr"
    assert skipped["docs/setup/both.en.md"] == "both.md is the default locale's page (en)"
    site = open_site(root, variant=SiteVariant(language="fr")).site
    assert site.config.language == "fr"
    assert site.resolve_asset("shot.png", page_rel="docs/index.fr.md").rel_path == "docs/shot.fr.png"
    assert site.resolve_asset("shot.png", page_rel="docs/setup/install.md").rel_path == "docs/setup/shot.png"
    # without fallback_to_default an untranslated page is not in the French site
    (root / "mkdocs.yml").write_text(config.replace("  - i18n:\n", "  - i18n:\n      fallback_to_default: false\n"))
    pages, skipped = _pages_and_skips(root, "fr")
    assert pages == ["docs/index.fr.md", "docs/setup/both.fr.md"]
    assert skipped["docs/setup/install.md"] == "no translation in locale fr (mkdocs-static-i18n fallback_to_default: false)"
    with pytest.raises(ConfigError, match=r"'es' is not a locale of this MkDocs site; it has en, fr, de"):
        open_site(root, variant=SiteVariant(language="es"))


def test_i18n_folder_structure_chosen_locale(tmp_path: Path) -> None:
    root = tmp_path / "folder"
    for name in ("en/index.md", "en/guide/start.md", "en/guide/shot.png", "fr/index.md", "de/index.md", "shared.md"):
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(f"# {name}\n")
    (root / "mkdocs.yml").write_text(
        "site_name: S\nplugins:\n  i18n:\n    docs_structure: folder\n    default_language: en\n"
        "    languages:\n      en: English\n      fr: Francais\n      de: Deutsch\n")
    pages, skipped = _pages_and_skips(root, "fr")
    assert pages == ["docs/en/guide/start.md", "docs/fr/index.md", "docs/shared.md"]
    assert skipped["docs/en/index.md"] == "read from its translation docs/fr/index.md (locale fr)"
    assert skipped["docs/de/index.md"] == "translation (locale de); murar reads locale fr"
    site = open_site(root, variant=SiteVariant(language="fr")).site
    # fr/guide/shot.png is not there: the default locale's image (en/guide/shot.png)
    assert site.resolve_asset("guide/shot.png", page_rel="docs/fr/index.md").rel_path == "docs/en/guide/shot.png"


def test_without_i18n_plugin_a_language_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: S\n")
    with pytest.raises(ConfigError, match="this MkDocs site has no languages to choose from"):
        open_site(tmp_path, variant=SiteVariant(language="fr"))


def test_without_i18n_plugin_locale_suffixes_are_pages(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    (root / "docs" / "fr").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: S\nplugins:\n  - search\n")
    for name in ("index.md", "index.fr.md", "fr/page.md"):
        (root / "docs" / name).write_text("# T\n")
    pages, _ = _pages_and_skips(root)
    assert pages == ["docs/fr/page.md", "docs/index.fr.md", "docs/index.md"]


def test_snippet_sections_and_line_range_lists(tmp_path: Path) -> None:
    # pymdownx.snippets: "file:name" is the part between the [start:name]/[end:name] markers
    # (dedented with dedent_subsections); marker lines never show; ranges may be listed with commas
    root = tmp_path / "proj"
    (root / "docs" / "examples").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        "site_name: S\nmarkdown_extensions:\n  - pymdownx.snippets:\n"
        "      base_path: docs\n      dedent_subsections: true\n")
    (root / "docs" / "examples" / "app.py").write_text(
        "import widgets\n\n\nclass App:\n    def setup(self):\n        # --8<-- [start:connect]\n"
        "        self.link = widgets.connect(retries=3)\n        # --8<-- [end:connect]\n"
        "        # --8<-- [start:other]\n        self.other = 1\n        # --8<-- [end:other]\n")
    (root / "docs" / "guide.md").write_text(
        '# Guide\n\nConnect:\n\n```python\n--8<-- "examples/app.py:connect"\n```\n\n'
        'Whole file:\n\n```python\n--8<-- "examples/app.py"\n```\n\n'
        'Two ranges:\n\n```python\n--8<-- "examples/app.py:1:1,4:4"\n```\n\n'
        '```python\n--8<-- "examples/app.py:missing"\n```\n')
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "guide.md", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Connect:\n\nself.link = widgets.connect(retries=3)\n\nWhole file:" in text
    assert "8<--" not in text and "self.other = 1" in text
    assert "Two ranges:\n\nimport widgets\nclass App:" in text
    missing = "snippet 'examples/app.py': section 'missing' not found; not included"
    assert [w for w in doc.warnings if "snippet" in w] == [missing]


def test_attribute_lists_are_not_text(tmp_path: Path) -> None:
    # attr_list: a heading's "{ #id }" is its anchor; a block's own "{: .class }" line, a list item's
    # trailing list and one after an icon or emphasis are attributes; code and other braces stay
    root = _site(tmp_path)
    (root / "content" / "guide" / "attrs.md").write_text(
        "# Install { #install-guide }\n\n## Upgrade {: .wide data-x=\"1\" }\n\nRead this first.\n{: .lead }\n\n"
        "- :material-clock:{ .lg .middle } __Set up quickly__\n- Second item { .annotate }\n\n"
        "Some *stress*{ .x } here, {{ name }} and { not attributes }.\n\n```json\n{ \"key\": 1 }\n{ .kept }\n```\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "content" / "guide" / "attrs.md", site=site, assets_dir=tmp_path / "a")
    assert [(s.heading_path, s.anchor) for s in doc.sections] == [
        (("Install",), "install-guide"), (("Install", "Upgrade"), None)]
    text = doc.sections[1].text
    assert text.startswith("Read this first.\n\nSet up quickly\n\nSecond item\n\nSome stress here, {{ name }} and "
                           "{ not attributes }.")
    assert '{ "key": 1 }\n{ .kept }' in text


def test_attribute_lists_of_bare_words_are_not_text(tmp_path: Path) -> None:
    # Python-Markdown's attr_list also takes bare words ("{ on-glb }" sets on-glb="on-glb"): after an image
    # or link, ending a heading, a list item or a table cell, and as the last line of a block; a list that
    # starts its own paragraph, or follows a plain parenthesis, is text there too
    root = _site(tmp_path)
    (root / "content" / "guide" / "words.md").write_text(
        "# Shots { on-glb }\n\n![Main](main.png){ on-glb }\n\n![Zoom](main.png){: #zoom on-glb }\n\n"
        "Read [this](https://example.org){ target=_blank } now.\nMore text.\n{ data-search-exclude }\n\n"
        "- First { .x }\n- Second {: hidden }\n\n| a | b { nowrap } |\n|---|---|\n| 1 | 2 |\n\n"
        "Call f(x){ y } here.\n\n{ standalone }\n")
    (root / "content" / "guide" / "main.png").write_bytes(b"png")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "content" / "guide" / "words.md", site=site, assets_dir=tmp_path / "a")
    assert [s.heading_path for s in doc.sections] == [("Shots",)]
    assert doc.sections[0].text == ("Read this now. More text.\n\nFirst\n\nSecond\n\nCall f(x){ y } here.\n\n"
                                    "{ standalone }")
    assert [getattr(m, "headers", None) for m in doc.media if type(m).__name__ == "TableItem"] == [["a", "b"]]
    assert len([m for m in doc.media if type(m).__name__ == "ImageItem"]) == 2


def test_mdx_include_and_markdown_include(tmp_path: Path) -> None:
    # "{!file!}" (mdx_include, markdown-include): relative to the extension's base_path, itself relative to
    # mkdocs.yml's folder; inside code fences too; "{!> file!}" indents like its line; line selections
    root = tmp_path / "proj"
    (root / "site" / "docs").mkdir(parents=True)
    (root / "examples").mkdir()
    (root / "examples" / "hello.py").write_text("import sys\n\nprint('hello')\nsys.exit(0)\n")
    (root / "site" / "mkdocs.yml").write_text(
        "site_name: S\nmarkdown_extensions:\n  - mdx_include:\n      base_path: docs\n  - pymdownx.tabbed\n")
    (root / "site" / "docs" / "page.md").write_text(
        "# Page\n\n```python\n{!../../examples/hello.py!}\n```\n\n=== \"Tab\"\n\n    ```python\n"
        "    {!> ../../examples/hello.py [ln:3-4]!}\n    ```\n\nLiteral \\{!not/included.md!} and {!missing.md!} end.\n")
    site = MkDocsSite.load(root, "site/mkdocs.yml")
    doc = convert_pymdown(root / "site" / "docs" / "page.md", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "import sys\n\nprint('hello')\nsys.exit(0)\n\nTab\n\nprint('hello')\nsys.exit(0)" in text
    assert "Literal {!not/included.md!} and end." in text
    assert [w for w in doc.warnings if "include" in w] == ["include 'missing.md' not found (tried site/docs/missing.md)"]
    (root / "site" / "mkdocs.yml").write_text("site_name: S\nmarkdown_extensions:\n  - markdown_include.include\n")
    (root / "site" / "docs" / "page.md").write_text("# Page\n\n{!../examples/hello.py!lines=3 1}\n")
    site = MkDocsSite.load(root, "site/mkdocs.yml")
    doc = convert_pymdown(root / "site" / "docs" / "page.md", site=site, assets_dir=tmp_path / "a")
    assert doc.sections[0].text == "print('hello') import sys"


def test_macros_plugin_renders_variables_and_drops_code(tmp_path: Path) -> None:
    # mkdocs-macros: pages are Jinja2 templates over extra/config/front matter; includes come from
    # include_dir; the site's Python macros are not run (dropped, with a warning); snippets come after
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "partials").mkdir()
    (root / "mkdocs.yml").write_text(
        "site_name: Widget Docs\nrepo_url: https://git.example.org/widget\nextra:\n  release: '4.2'\n"
        "  tag: !ENV [DOCS_TAG, stable]\nplugins:\n  - macros:\n      include_dir: partials\n"
        "markdown_extensions:\n  - pymdownx.snippets:\n      base_path: partials\n")
    (root / "partials" / "support.md").write_text("Support covers {{ release }}.\n")
    (root / "partials" / "template.html").write_text("<p>{{ user.name }}</p>\n")
    (root / "docs" / "index.md").write_text(
        "---\nproduct: Widget\n---\n\n# {{ product }} {{ release }}\n\n{% set os = 'Linux' %}\n"
        "Get [the source]({{ config.repo_url }}/tree/{{ config.extra.tag }}) for {{ os }}.\n\n"
        "{% if release %}\nShown when released.\n{% endif %}\n{# a comment #}\n"
        "{% include 'support.md' %}\n\n{{ button('Download', '/dl') }} and {% raw %}{{ literal }}{% endraw %}.\n\n"
        "```html\n--8<-- \"template.html\"\n```\n")
    (root / "docs" / "skip.md").write_text("---\nignore_macros: true\n---\n\n# Skip\n\nKeep {{ release }}.\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "index.md", site=site, assets_dir=tmp_path / "a")
    assert doc.title == "Widget 4.2"
    assert doc.sections[0].text == (
        "Get the source for Linux.\n\nShown when released.\n\nSupport covers 4.2.\n\nand {{ literal }}.\n\n"
        "<p>{{ user.name }}</p>")
    assert [w for w in doc.warnings if w.startswith("macros")] == [
        "macros: 1 expression(s) not rendered (site macros are not run): \"button('Download', '/dl')\""]
    skip = convert_pymdown(root / "docs" / "skip.md", site=site, assets_dir=tmp_path / "a")
    assert skip.sections[0].text == "Keep {{ release }}."


def test_mkdocstrings_blocks_become_api_text(tmp_path: Path) -> None:
    # "::: pkg.Object" (mkdocstrings, Python handler): the object's signature, docstring and public
    # members, read statically; re-exports followed; Annotated[T, Doc(...)] parameters listed
    root = tmp_path / "proj"
    (root / "src" / "kettle").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "mkdocs.yml").write_text(
        "site_name: K\nplugins:\n  - mkdocstrings:\n      handlers:\n        python:\n          paths: [src]\n"
        "          options:\n            show_root_heading: true\n")
    (root / "src" / "kettle" / "__init__.py").write_text('"""Kettle."""\nfrom .core import Kettle as Kettle\n')
    (root / "src" / "kettle" / "core.py").write_text(
        "from typing import Annotated\nfrom typing_extensions import Doc\n\n\nclass Kettle:\n"
        '    """Boils water."""\n\n    def __init__(self, litres: float = 1.5) -> None:\n        self.litres = litres\n\n'
        "    def boil(self, target: Annotated[int, Doc('Temperature in Celsius.')] = 100) -> bool:\n"
        '        """Heat until the target."""\n        return True\n\n'
        '    def descale(self) -> None:\n        """Remove limescale."""\n\n    def _relay(self):\n        pass\n')
    (root / "docs" / "api.md").write_text(
        "# API\n\n::: kettle.Kettle\n    options:\n      members:\n        - boil\n\n"
        "```md\n::: kettle.Kettle\n```\n\n::: kettle.Teapot\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "api.md", site=site, assets_dir=tmp_path / "a")
    assert [s.heading_path for s in doc.sections] == [("API",), ("API", "kettle.Kettle"),
                                                      ("API", "kettle.Kettle", "boil")]
    assert doc.sections[1].text == "class Kettle(litres: float=1.5)\n\nBoils water."
    assert doc.sections[2].text.startswith(
        "boil(target: int=100) -> bool\n\nHeat until the target.\n\nParameters:\n\ntarget: Temperature in Celsius.")
    assert "::: kettle.Kettle" in doc.sections[2].text  # the fenced example stays as written
    assert "descale" not in " ".join(s.text for s in doc.sections)
    assert [w for w in doc.warnings if "mkdocstrings" in w] == [
        "mkdocstrings ::: kettle.Teapot: source not found; API text left out"]


def test_autorefs_cross_references_show_their_title(tmp_path: Path) -> None:
    # mkdocs-autorefs (on with mkdocstrings): [title][identifier] and [identifier][] show the title;
    # references the page defines, code spans and fences stay
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: S\nplugins:\n  - search\n  - mkdocstrings\n")
    (root / "docs" / "bus.md").write_text(
        "# Bus\n\nIt returns a [`Subscription`][kettle.bus.Subscription] handle; see [kettle.bus.Bus][] and "
        "the [guide][guide-ref].\n\nLiteral `[a][b]` stays.\n\n```text\n[x][y]\n```\n\n"
        "[guide-ref]: https://example.org/guide\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "bus.md", site=site, assets_dir=tmp_path / "a")
    text = doc.sections[0].text
    assert text.startswith("It returns a Subscription handle; see kettle.bus.Bus and the guide.\n\nLiteral [a][b] stays.")
    assert "[x][y]" in text


def test_inlinehilite_shebang_is_not_text(tmp_path: Path) -> None:
    # pymdownx.inlinehilite: `#!python code` / `:::js code` highlight code; the mock shebang is not shown
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - pymdownx.inlinehilite\n",
        "# P\n\nCall `#!python range(3)` or `:::js let x = 1;`; ``#!js `tick` `` and `#!` stay code.\n\n"
        "```md\n`#!python kept`\n```\n")
    assert doc.sections[0].text == "Call range(3) or let x = 1;; `tick` and #! stay code.\n\n`#!python kept`"


def test_attribute_lists_colon_form_and_escaped_ids(tmp_path: Path) -> None:
    # "{: .x }" after a link or code span (Python-Markdown's colon form, which the parser's attrs plugin
    # does not read) and a heading id with a backslash escape ("{: #\\8.0}")
    root = _site(tmp_path)
    (root / "content" / "guide" / "ver.md").write_text(
        "# 8.0 Notes {: #\\8.0}\n\n[Source][src]{: .source-link } and `code`{: .x } here.\n\n"
        "[src]: https://example.org/src\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "content" / "guide" / "ver.md", site=site, assets_dir=tmp_path / "a")
    assert [(s.heading_path, s.anchor) for s in doc.sections] == [(("8.0 Notes",), "8.0")]
    assert doc.sections[0].text == "Source and code here."


def test_reference_definition_under_paragraph_text_is_a_definition(tmp_path: Path) -> None:
    # Python-Markdown reads "[label]: url" lines anywhere in a block (the "[//]: # comment" idiom),
    # also right under text and inside an admonition; CommonMark alone would show them
    root = _site(tmp_path)
    (root / "content" / "guide" / "refs.md").write_text(
        "# Refs\n\nSee the [docs][d] first.\n[d]: https://example.org/docs\n"
        "[//]: # \"a hidden note\"\n\n!!! note\n    Body text.\n    [//]: # \"hidden too\"\n\n"
        "```md\nText\n[x]: kept\n```\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "content" / "guide" / "refs.md", site=site, assets_dir=tmp_path / "a")
    assert doc.sections[0].text == "See the docs first.\n\nNote:\n\nBody text.\n\nText\n[x]: kept"


@pytest.mark.parametrize("structure", ["suffix", "folder"])
def test_static_i18n_reads_the_default_language(tmp_path: Path, structure: str) -> None:
    # mkdocs-static-i18n: other locales' pages are translations; suffix: page.fr.md (and page.en.md beside
    # page.md); folder: fr/page.md. The 0.x configuration (default_language, languages mapping) too.
    # (notes.zh.md: the plugin takes any locale-shaped suffix for a locale, configured or not)
    root = tmp_path / "proj"
    files = (["index.md", "index.fr.md", "guide/setup.md", "guide/setup.fr.md", "topic/index.md", "topic/index.en.md",
              "notes.zh.md"] if structure == "suffix" else ["en/index.md", "fr/index.md", "en/guide.md", "fr/guide.md"])
    for rel in files:
        (root / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / rel).write_text(f"# {rel}\n")
    v1 = (f"plugins:\n  - i18n:\n      docs_structure: {structure}\n      languages:\n"
          "        - locale: en\n          default: true\n        - locale: fr\n")
    v0 = (f"plugins:\n  - i18n:\n      docs_structure: {structure}\n      default_language: en\n"
          "      languages:\n        en: english\n        fr: français\n")
    for config in (v1, v0):
        (root / "mkdocs.yml").write_text("site_name: S\n" + config)
        site = MkDocsSite.load(root, "mkdocs.yml")
        pages = sorted(rel for rel in files if site.classify(f"docs/{rel}").role is FileRole.PAGE)
        expected = (["guide/setup.md", "index.md", "topic/index.md"] if structure == "suffix"
                    else ["en/guide.md", "en/index.md"])
        assert pages == expected


def test_exclude_plugin_globs_and_regexes(tmp_path: Path) -> None:
    # mkdocs-exclude: fnmatch globs ("*" crosses folders) and regexes on paths relative to docs_dir
    root = tmp_path / "proj"
    for rel in ("index.md", "drafts/wip.md", "guide/notes.tmp.md", "guide/setup.md", "internal/a/b.md"):
        (root / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / rel).write_text(f"# {rel}\n")
    (root / "mkdocs.yml").write_text(
        "site_name: S\nplugins:\n  - search\n  - exclude:\n      glob:\n        - drafts/*\n        - \"*.tmp.md\"\n"
        "      regex:\n        - '^internal/'\n        - '['\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    roles = {rel: site.classify(f"docs/{rel}").role for rel in (
        "index.md", "drafts/wip.md", "guide/notes.tmp.md", "guide/setup.md", "internal/a/b.md")}
    assert roles == {"index.md": FileRole.PAGE, "drafts/wip.md": FileRole.EXCLUDED,
                     "guide/notes.tmp.md": FileRole.EXCLUDED, "guide/setup.md": FileRole.PAGE,
                     "internal/a/b.md": FileRole.EXCLUDED}


def test_mkdocstrings_follows_star_imports(tmp_path: Path) -> None:
    # griffe follows "from .main import *" re-exports (pydantic v1 style); the first module defining it wins
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "mkdocs.yml").write_text("site_name: P\nplugins:\n  - mkdocstrings\n")
    (root / "pkg" / "__init__.py").write_text("from .errors import *\nfrom .main import *\n")
    (root / "pkg" / "errors.py").write_text("class Oops(Exception):\n    pass\n")
    (root / "pkg" / "main.py").write_text(
        'def create(name: str) -> int:\n    """Create a record."""\n    return 1\n\n\nclass Model:\n'
        '    def __init__(self, **data):\n        """Build from data."""\n')
    (root / "docs" / "api.md").write_text(
        "# API\n\n::: pkg.create\n\n::: pkg.Model\n    options:\n      members: [__init__]\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "api.md", site=site, assets_dir=tmp_path / "a")
    assert doc.sections[0].text.startswith("create(name: str) -> int\n\nCreate a record.")
    assert [s.heading_path for s in doc.sections] == [("API",), ("API", "__init__")]  # not emphasis
    assert not doc.warnings


def test_pymdown_inline_syntax_reads_as_shown(tmp_path: Path) -> None:
    # keys, mark, caret, tilde and critic: the text a reader sees; code and setext underlines stay
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - pymdownx.keys\n  - pymdownx.mark\n  - pymdownx.caret\n"
        "  - pymdownx.tilde\n  - pymdownx.critic\n",
        "Setup\n=====\n\nPress ++ctrl+shift+p++ or ++cmd+"
        "\"My Key\"++. Water is H~2~O, x^2^ grows, ==marked== ^^added^^ ~~gone~~ text.\n\n"
        "Edit: {++new words++}{--old words--} {~~cat~>dog~~}{>>a note<<} and `++not+keys++` and a == b.\n")
    assert doc.title == "Setup" or doc.sections[0].heading_path == ("Setup",)
    assert doc.sections[0].text == (
        "Press Ctrl+Shift+P or Cmd+My Key. Water is H2O, x2 grows, marked added gone text.\n\n"
        "Edit: new words dog and ++not+keys++ and a == b.")


def test_emoji_shortcodes_are_not_text(tmp_path: Path) -> None:
    # pymdownx.emoji: ":smile:" and ":man_raising_hand:" render as emoji images; code, times and URLs stay
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - pymdownx.emoji\n",
        ":man_raising_hand: I'm an annotation :+1: at 10:30:15 on http://x.org/a:b: with `:smile:` and "
        ":octicons-heart-16:{ .heart } love.\n")
    assert doc.sections[0].text == "I'm an annotation at 10:30:15 on http://x.org/a:b: with :smile: and love."


def test_an_icon_in_a_tab_title_leaves_no_stray_space(tmp_path: Path) -> None:
    # Material's own docs title tabs ':octicons-file-code-16: `mkdocs.yml`': the icon is dropped,
    # and its space with it, so the label is bold text, not '** mkdocs.yml**' with its asterisks showing
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - pymdownx.tabbed\n  - pymdownx.emoji\n",
        '# P\n\n=== ":octicons-file-code-16: `mkdocs.yml`"\n\n    Config.\n\n=== "macOS :material-apple:"\n\n'
        "    Run it.\n\nAdd :material-check: here.\n")
    text = "\n".join(s.text for s in doc.sections)
    assert "*" not in text and ":" not in text
    assert "mkdocs.yml\n\nConfig.\n\nmacOS\n\nRun it.\n\nAdd here." in text


def test_hostile_lines_are_bounded_work(tmp_path: Path) -> None:
    # long lines of unclosed autorefs, marks, critic edits, Jinja tags and figure markup finish quickly
    # (run in a child process: a regex stuck in backtracking holds the interpreter)
    import subprocess
    import sys

    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        "site_name: S\nplugins:\n  - mkdocstrings\n  - macros\nmarkdown_extensions:\n  - md_in_html\n"
        "  - pymdownx.mark\n  - pymdownx.critic\n  - attr_list\n")
    hostile = ["[" + "`a`b" * 3000, "==a " * 5000, "{~~a~>" * 5000, "{# a" * 5000, "{{ a" * 5000,
               "<figure markdown>\n" + "![a](" * 3000 + "\n" + "<figcaption>" * 3000 + "\n</figure>"]
    (root / "docs" / "p.md").write_text("# P\n\n" + "\n\n".join(hostile) + "\n")
    code = ("import sys; from pathlib import Path; from murar.ingest.sites.mkdocs import MkDocsSite; "
            "from murar.ingest.markup.pymdown import convert_pymdown; r = Path(sys.argv[1]); "
            "s = MkDocsSite.load(r, 'mkdocs.yml'); "
            "print(len(convert_pymdown(r / 'docs' / 'p.md', site=s, assets_dir=Path(sys.argv[2])).sections))")
    done = subprocess.run([sys.executable, "-c", code, str(root), str(tmp_path / "a")], capture_output=True,
          text=True, timeout=90, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "1", done.stderr[-500:]


def test_snippet_line_selectors_are_clamped() -> None:
    """``file.md:1:<5,000 digits>`` raised ValueError (the page was lost) and
    ``:1:-1,1:-1,...`` 20,000 times selected 10**8 lines."""
    from murar.ingest.markup.pymdown import _select_lines

    lines = ["l"] * 5000
    assert _select_lines(lines, ":1:" + "9" * 5000) == lines
    assert _select_lines(lines, ":-" + "9" * 5000 + ":2") == ["l", "l"]
    assert len(_select_lines(lines, ":" + ",".join(["1:-1"] * 20_000)) or []) <= 100_000


def test_mkdocstrings_blocks_parse_each_module_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """300 ``::: pkg.mod.fN`` blocks on a 1.9 MB module parsed it (and, when it did not
    parse, parsed it again looking for a re-export) once per block: the page hit the
    180 s budget and was lost. Each module is now parsed once per page, and a page's
    API sources are bounded (_MAX_API_SOURCE_CHARS)."""
    import ast

    from murar.ingest.markup import pyapi

    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "mkdocs.yml").write_text("site_name: K\nplugins:\n  - mkdocstrings\n")
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "mod.py").write_text("".join(f'def f{i}(a):\n    """Doc {i}."""\n' for i in range(50)))
    (root / "pkg" / "bad.py").write_text("def broken(:\n")
    (root / "docs" / "api.md").write_text(
        "# API\n\n" + "".join(f"::: pkg.mod.f{i}\n\n::: pkg.bad.g{i}\n\n" for i in range(50)))
    parsed: list[int] = []
    real_parse = ast.parse

    def counting_parse(source: str, *args: object, **kwargs: object) -> ast.Module:
        parsed.append(len(source))
        return real_parse(source, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(pyapi.ast, "parse", counting_parse)
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "api.md", site=site, assets_dir=tmp_path / "a")
    text = " ".join(s.text for s in doc.sections)
    assert all(f"Doc {i}." in text for i in range(50))
    assert len(parsed) == 2


def _math_site(tmp_path: Path, page: str, features: str = "") -> tuple[MkDocsSite, Path]:
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        f"site_name: T\ntheme:\n  name: material\n  features: [{features}]\n"
        "markdown_extensions:\n  - attr_list\n  - pymdownx.superfences\n  - pymdownx.arithmatex:\n"
        "      generic: true\n")
    (tmp_path / "docs" / "index.md").write_text(page)
    return MkDocsSite.load(tmp_path, "mkdocs.yml"), tmp_path / "docs" / "index.md"


def test_arithmatex_math_keeps_its_latex(tmp_path: Path) -> None:
    # pymdownx.arithmatex: "$...$", "\(...\)", "$$...$$", "\[...\]" are LaTeX MathJax typesets; the
    # Markdown parser must not read their "_", "{...}" and "\" (emphasis, attribute lists, escapes)
    site, page = _math_site(tmp_path, "# Sums\n\nWith $x_i + y_i$ and \\(a_{n}\\), for $5 or $10.\n\n"
                                      "$$\n\\sum_{i=1}^n x_i\n$$\n\n\\[\nE = mc^2\n\\]\n")
    text = "\n".join(s.text for s in convert_pymdown(page, site=site, assets_dir=tmp_path / "a").sections)
    assert "With $x_i + y_i$ and $a_{n}$, for $5 or $10." in text
    assert "$$\n\\sum_{i=1}^n x_i\n$$" in text and "$$\nE = mc^2\n$$" in text


def test_code_annotations_keep_marker_and_note_together(tmp_path: Path) -> None:
    # Material: "# (1)!" in an annotated code block is a bubble (the comment stripped); the ordered
    # list after the block holds the notes. The marker reads "(1)", its note follows as "(1) ..."
    site, page = _math_site(tmp_path, "# Conf\n\n``` yaml\nport: 80 # (1)!\nhost: a # (2)\n```\n\n"
                                      "1.  The port to serve on.\n2.  The host name.\n\n"
                                      "Plain (1) text.\n{ .annotate }\n\n1.  A note on text.\n\n"
                                      "Steps:\n\n1. one\n", features="content.code.annotate")
    text = "\n".join(s.text for s in convert_pymdown(page, site=site, assets_dir=tmp_path / "a").sections)
    assert "port: 80 # (1)\nhost: a # (2)" in text and "(1)!" not in text
    assert "(1) The port to serve on." in text and "(2) The host name." in text
    assert "Plain (1) text." in text and "(1) A note on text." in text
    assert "(1) one" not in text


def test_annotations_of_admonitions_divs_and_notes(tmp_path: Path) -> None:
    # Material: "!!! note annotate" and <div class="annotate" markdown> take the list after them as
    # their notes; a note with { .annotate } holds nested notes
    site, page = _math_site(tmp_path, "# A\n\n!!! note annotate \"Title\"\n\n    Body (1) here.\n\n"
                                      "1.  Admonition note.\n\n<div class=\"annotate\" markdown>\n\n"
                                      "Quote (1) here.\n\n</div>\n\n1.  Div note (1)\n    { .annotate }\n\n"
                                      "    1.  Nested note.\n")
    (tmp_path / "mkdocs.yml").write_text((tmp_path / "mkdocs.yml").read_text() + "  - admonition\n  - md_in_html\n")
    site = MkDocsSite.load(tmp_path, "mkdocs.yml")
    text = "\n".join(s.text for s in convert_pymdown(page, site=site, assets_dir=tmp_path / "a").sections)
    assert "(1) Admonition note." in text and "(1) Div note (1)" in text and "(1) Nested note." in text


def test_backslash_escape_inside_an_attribute_list_after_a_link(tmp_path: Path) -> None:
    """Paperless-ngx's home page: [Demo](url){ .md-button target=\\_blank } is a button (Python-Markdown
    reads the escape inside the list); the escaped list showed as text after "Demo"."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - attr_list\n",
                        "# Home\n\n[Get started](setup.md){ .md-button .md-button--primary }\n"
                        "[Demo](https://demo.example.org){ .md-button .md-button--secondary target=\\_blank }\n\n"
                        "Next paragraph.\n")
    text = doc.sections[0].text
    assert "Get started Demo" in text and "{" not in text and "target" not in text


def test_admonition_goes_on_across_blank_lines_and_holds_a_tab_set(tmp_path: Path) -> None:
    """Python-Markdown's admonition goes on across any number of blank lines while the next line is
    indented (mkdocs build: both paragraphs in the note, the tab set's screenshots in the tip); the parser's
    admonition plugin ended at the second blank line and the rest was an indented code block."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - admonition\n  - pymdownx.superfences\n"
                        "  - pymdownx.tabbed:\n      alternate_style: true\n",
                        "# T\n\n!!! note\n\n    Para 1.\n\n\n    Para 2.\n\n"
                        '!!! tip "Two ways"\n\n    === "Desktop"\n\n        ![Desktop view](img/m.png)\n\n'
                        '    === "Mobile"\n\n        ![Mobile view](img/n.png)\n\nAfter.\n\n'
                        "```text\nkeep\n\n\ntwo blank lines\n```\n")
    text = doc.sections[0].text
    assert text.startswith("Note:\n\nPara 1.\n\nPara 2.\n\nTip: Two ways")
    assert "![" not in text and "murar-tabs" not in text and "keep\n\n\ntwo blank lines" in text
    assert [(m.alt, m.tab) for m in doc.media if isinstance(m, ImageItem)] == [("Desktop view", "Desktop"),
                                                                                ("Mobile view", "Mobile")]


@pytest.mark.parametrize("page", [
    "/// caption\n" * 30_000,  # openers without a closer: each scanned to the end
    "![a](x.png)\n" * 20_000 + "/// caption\nCap\n///\n\n" * 5_000,  # one block read again per caption
    "/// caption | a" + " " * 100_000 + "b\nCap\n///\n",  # a lazy argument before trailing blanks
])
def test_caption_blocks_are_linear(tmp_path: Path, page: str, deadline: Any) -> None:
    """Each of these ran past a minute; now a few seconds at most."""
    config = "site_name: S\nmarkdown_extensions:\n  - pymdownx.blocks.caption\n"
    with deadline(30, page[:20]):
        doc = _convert_page(tmp_path, config, "# P\n\n" + page + "\nText after.\n")
    assert "Text after." in doc.sections[-1].text


def test_caption_block_option_lines_are_skipped_in_linear_time(deadline: Any) -> None:
    """A caption block's option lines were dropped one at a time by re-slicing the rest of
    the block: 300,000 of them took over a minute."""
    from murar.ingest.markup.pymdown import CAPTION_TYPES, _caption_blocks

    lines = ["![Pump](pump.png)", "", "/// caption", *["    attrs: {}"] * 300_000, "The pump.", "///", "After."]
    with deadline(10, "caption options"):
        out = _caption_blocks(lines, CAPTION_TYPES, auto=True)
    assert out[0] == '![Pump](pump.png "The pump.")' and out[-1] == "After."


def test_caption_blocks_caption_the_image_before_them(tmp_path: Path) -> None:
    """pymdownx.blocks.caption: '/// figure-caption' after an image makes it a figure with 'Figure 1.'
    and the caption (mkdocs build: <figcaption><span class="caption-prefix">Figure 1.</span> ...);
    murar read the block as an admonition-like 'Caption:' paragraph and the image had no caption.
    A table caption numbers tables apart; after text the caption stays text."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - tables\n  - pymdownx.blocks.caption\n",
                        "# P\n\n![A](img/a.png)\n\n/// figure-caption\nFirst **figure**\n///\n\n"
                        "| a | b |\n|---|---|\n| 1 | 2 |\n\n/// table-caption\nThe table\n///\n\n"
                        "![B](img/b.png)\n\n/// figure-caption | <\nSecond figure\n///\n\n"
                        "Text.\n\n/// caption\nA text caption\n///\n")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.alt, m.caption) for m in images] == [("A", "Figure 1. First figure"), ("B", "Figure 2. Second figure")]
    text = doc.sections[0].text
    assert "Table 1. The table" in text and "A text caption" in text and "Caption" not in text


def test_a_blank_line_of_a_pre_inside_a_raw_html_block_is_kept(tmp_path: Path) -> None:
    """Python-Markdown keeps a block-level element opened at a line start raw up to its closing
    tag, blank lines included: a ``<details>`` whose ``<pre>`` shows two runs of output keeps the
    empty line between them and the indented line after it (CommonMark ended the HTML block at
    the blank line: the rest read as a paragraph). A ``<pre>`` in a fenced code block is code."""
    doc = _convert_page(tmp_path, "site_name: S\n", (
        "# Runs\n\n<details>\n<summary>Show the runs</summary>\n<pre>\nfirst run: ok\n\nsecond run:\n"
        "    retried once\n</pre>\n</details>\n\n```html\n<div><pre>a\n\nb</pre></div>\n```\n"))
    text = doc.sections[0].text
    assert text.startswith("Show the runs\n\nfirst run: ok\n\nsecond run:\n    retried once\n\n")
    assert text.endswith("<div><pre>a\n\nb</pre></div>")


def test_a_pre_the_raw_blocks_closing_tag_ends_keeps_its_lines(tmp_path: Path) -> None:
    """``<div class="highlight"><pre>`` ... ``</div>`` with no ``</pre>`` (Textual's CSS
    syntax boxes, opened and closed by two snippets): the HTML parser closes the ``<pre>`` at
    ``</div>``, so every line of it shows as written. murar ended the HTML block at the
    blank line and joined the rest into one paragraph: 'border-top: b; border-right: c;'."""
    doc = _convert_page(tmp_path, "site_name: S\n", (
        "# Border\n\n<div class=\"highlight\"><pre>\nborder: a;\n\nborder-top: b;\nborder-right: c;\n</div>\n\n"
        "After.\n\n<div><pre>\nnever closed\n\nstill\n"))
    text = doc.sections[0].text
    assert text.startswith("border: a;\n\nborder-top: b;\nborder-right: c;\n\nAfter.")

def test_raw_pre_blank_lines_of_twenty_thousand_unclosed_elements_are_linear(deadline: Any) -> None:
    """20,000 unclosed ``<div>``/``<pre>`` lines with blank lines between: one pass."""
    from murar.ingest.markup.pymdown import _raw_pre_blank_lines

    lines = ["<div>", "<pre>", ""] * 10_000 + ["</pre>"]
    with deadline(30, "raw pre blank lines"):
        out = _raw_pre_blank_lines(lines)
    assert len(out) == len(lines) and out[2] == "<span></span>" and out[-1] == "</pre>"


def test_nested_blocks_use_more_slashes_and_html_blocks_wrap_without_a_label(tmp_path: Path) -> None:
    """pymdownx.blocks: fences are three or more slashes, a nested block uses another count
    ('//// note' around '/// details'); '/// html | div.result' wraps its content in that element
    (its argument is a tag and selector, never text); a titled generic admonition shows its title.
    A '////' caption block captions the image inside the block that holds it."""
    config = ("site_name: S\nmarkdown_extensions:\n  - pymdownx.blocks.admonition\n  - pymdownx.blocks.details\n"
              "  - pymdownx.blocks.html\n  - pymdownx.blocks.caption\n")
    doc = _convert_page(tmp_path, config, (
        "# P\n\n//// note | Heads up\n/// details | More\n    type: warning\nHidden detail.\n///\n\nOuter text.\n////\n\n"
        "/// html | div.result\n//// admonition | Custom title\nCustom body.\n////\n///\n\n"
        "/// html | div\n![Shot](img/a.png)\n\n//// figure-caption\nThe shot\n////\n///\n"))
    assert doc.sections[0].text == ("Note: Heads up\n\nMore\n\nHidden detail.\n\nOuter text.\n\n"
                                    "Custom title\n\nCustom body.")
    assert [(m.alt, m.caption) for m in doc.media if isinstance(m, ImageItem)] == [("Shot", "Figure 1. The shot")]


def test_extra_loads_attr_list_abbr_and_the_other_bundled_extensions(tmp_path: Path) -> None:
    """Python-Markdown's 'extra' (and pymdownx.extra) load attr_list, abbr, def_list, footnotes,
    tables, md_in_html: a site that lists only 'extra' has heading ids and abbreviations read."""
    page = ("# P\n\n## Phases of processing {: #stages }\n\nThe HTML spec.\n\n*[HTML]: Hyper Text Markup Language\n")
    for extension in ("extra", "markdown.extensions.extra", "pymdownx.extra"):
        doc = _convert_page(tmp_path / extension, f"site_name: S\nmarkdown_extensions:\n  - {extension}\n", page)
        assert [s.heading_path[-1] for s in doc.sections] == ["P", "Phases of processing"], extension
        assert doc.sections[-1].anchor == "stages" and doc.sections[-1].text == "The HTML spec.", extension


def test_braces_inside_a_code_span_are_code_not_an_attribute_list(tmp_path: Path) -> None:
    # attr_list reads lists after inline elements; text inside a code span is the <code>'s, never attributes
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - attr_list\n",
                        "# P\n\nCall `tidy(html, options={...})` or `run(x=*{a}*)`; *this*{ .x } goes.\n")
    assert doc.sections[0].text == "Call tidy(html, options={...}) or run(x=*{a}*); this goes."


def test_snippets_base_path_relative_tags(tmp_path: Path) -> None:
    """MkDocs 1.5+ '!relative $config_dir' / '!relative $docs_dir/sub' paths (mkdocs/utils/yaml.py
    placeholders): a snippet base_path written so is mkdocs.yml's folder or a docs_dir folder, not a
    folder named '$config_dir'."""
    root = tmp_path / "proj"
    (root / "site" / "docs" / "snips").mkdir(parents=True)
    (root / "site" / "mkdocs.yml").write_text(
        "site_name: S\nmarkdown_extensions:\n  - pymdownx.snippets:\n"
        "      base_path:\n        - !relative $config_dir\n        - !relative $docs_dir/snips\n        - !relative\n")
    (root / "site" / "CHANGELOG.md").write_text("Version 2 fixed the sync.\n")
    (root / "site" / "docs" / "snips" / "note.md").write_text("A shared note.\n")
    (root / "site" / "docs" / "p.md").write_text('# P\n\n--8<-- "CHANGELOG.md"\n\n--8<-- "note.md"\n')
    site = MkDocsSite.load(root, "site/mkdocs.yml")
    doc = convert_pymdown(root / "site" / "docs" / "p.md", site=site, assets_dir=tmp_path / "a")
    assert doc.sections[0].text == "Version 2 fixed the sync.\n\nA shared note."
    assert doc.warnings == []


def test_relative_tags_in_other_path_settings(tmp_path: Path) -> None:
    """'!relative $config_dir/sub' is a folder of mkdocs.yml's wherever a path is asked for
    (MkDocs' ConfigDirPlaceholder is an os.PathLike): docs_dir, theme.custom_dir and mkdocstrings'
    paths. docs_dir kept the tag's text, so every page was 'outside docs_dir' and nothing was read."""
    root = tmp_path / "proj"
    (root / "pages").mkdir(parents=True)
    (root / "overrides").mkdir()
    (root / "src").mkdir()
    (root / "mkdocs.yml").write_text(
        "site_name: S\ndocs_dir: !relative $config_dir/pages\ntheme:\n  name: material\n"
        "  custom_dir: !relative $config_dir/overrides\nplugins:\n  - mkdocstrings:\n      handlers:\n"
        "        python:\n          paths: [!relative $config_dir/src]\n")
    (root / "src" / "pump.py").write_text('def start():\n    """Start the pump."""\n')
    (root / "pages" / "p.md").write_text("# P\n\n::: pump.start\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    assert site.classify("pages/p.md").role is FileRole.PAGE
    assert site.config.settings["theme.custom_dir"] == "overrides"
    doc = convert_pymdown(root / "pages" / "p.md", site=site, assets_dir=tmp_path / "a")
    assert "Start the pump." in doc.sections[0].text


def test_mkdocstrings_documents_attributes(tmp_path: Path) -> None:
    # mkdocstrings-python renders a module or class attribute: "name: T = value" and the docstring
    # griffe reads from the string after the assignment (re-exported names followed, as for functions)
    root = tmp_path / "proj"
    (root / "pkg" / "_impl").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "mkdocs.yml").write_text("site_name: P\nplugins:\n  - mkdocstrings\n")
    (root / "pkg" / "__init__.py").write_text("from pkg._impl.visit import builtin_hooks, Style\n")
    (root / "pkg" / "_impl" / "__init__.py").write_text("")
    (root / "pkg" / "_impl" / "visit.py").write_text(
        'builtin_hooks: dict[str, str] = {"prop": "property"}\n"""Hooks known without importing them."""\n\n'
        'Style = Literal["google", "numpy"]\n"""The docstring styles."""\n\n'
        'class Visitor:\n    depth = 0\n    """How deep the visit is."""\n')
    (root / "docs" / "api.md").write_text("# API\n\n::: pkg.builtin_hooks\n\n::: pkg.Style\n\n"
                                          "::: pkg._impl.visit.Visitor.depth\n")
    doc = convert_pymdown(root / "docs" / "api.md", site=MkDocsSite.load(root, "mkdocs.yml"), assets_dir=tmp_path / "a")
    assert doc.sections[0].text == (
        "builtin_hooks: dict[str, str] = {'prop': 'property'}\n\nHooks known without importing them.\n\n"
        "Style = Literal['google', 'numpy']\n\nThe docstring styles.\n\ndepth = 0\n\nHow deep the visit is.")
    assert not doc.warnings


def test_a_definition_right_after_a_heading_has_no_term(tmp_path: Path) -> None:
    """def_list (Python-Markdown DefListProcessor): ':   text' after a heading has no paragraph to take
    terms from and becomes a <dd> alone, its indented lines inside it; the ':' is not text and the
    indented lines are not code. After a paragraph the definition keeps its term."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - def_list\n", (
        "# API\n\n## `register(item, name)`\n\n:   Add an item to the registry.\n\n    Arguments:\n\n"
        "    * `item`: the item.\n\nApple\n:   A fruit.\n"))
    assert [s.text for s in doc.sections] == ["", ("Add an item to the registry.\n\nArguments:\n\nitem: the item.\n\n"
                                                   "Apple\n\nA fruit.")]


def test_mkdocs_click_blocks_leave_no_option_text(tmp_path: Path) -> None:
    # mkdocs-click replaces '::: mkdocs-click' and its ':option: value' lines with a reference built by
    # importing the command; murar never imports, so the block is left out with a warning (its options were
    # page text: 'hatch.cli hatch 0 table'). Without the extension the block is ordinary text.
    page = ("# CLI\n\nThe commands:\n\n::: mkdocs-click\n    :module: lumen.cli\n    :command: lumen\n"
            "    :depth: 1\n\nAfter.\n\n```\n::: mkdocs-click\n    :module: kept.in.code\n```\n")
    doc = _convert_page(tmp_path, "site_name: K\nmarkdown_extensions:\n  - mkdocs-click\n", page)
    text = doc.sections[0].text
    assert "lumen.cli" not in text and ":depth:" not in text and "mkdocs-click\n    :module: lumen" not in text
    assert text.startswith("The commands:") and "After." in text and "kept.in.code" in text
    assert doc.warnings == [("mkdocs-click lumen.cli:lumen: the command reference is built by importing the "
                            "package; not read")]


def test_version_annotations_read_as_the_extension_writes_them(tmp_path: Path) -> None:
    # markdown-version-annotations 1.0.1: "+++"/"+/-"/"---" then a version, an optional quoted
    # summary, at any indent; the line becomes an admonition whose indented lines are its body
    page = ('# Fields\n\n+++ 2.1.0 "Added `__isnull` support"\n    Nullable fields accept it.\n\n'
            '+/- 2.2\n\n- item\n\n    --- 3.0\n\n~~~ 2.0\nprint("a fence, not an annotation")\n~~~\n')
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - admonition\n"
                        "  - markdown_version_annotations\n", page)
    text = "\n".join(s.text for s in doc.sections)
    assert "Added in version 2.1.0 — Added __isnull support" in text
    assert "Nullable fields accept it." in text and "Changed in version 2.2" in text
    assert "Removed in version 3.0" in text
    assert "+++" not in text and "+/-" not in text and "Version added" not in text
    assert "in version 2.0" not in text
def test_properdocs_yml_is_the_mkdocs_config_properdocs_reads_first(tmp_path: Path) -> None:
    # ProperDocs (properdocs/config/base.py _open_config_file) tries properdocs.yml,
    # properdocs.yaml, mkdocs.yml, mkdocs.yaml in that order: same schema as MkDocs 1.6
    root = tmp_path / "proj"
    (root / "guide").mkdir(parents=True)
    (root / "properdocs.yml").write_text("site_name: Wheels\ndocs_dir: guide\nnav:\n  - Getting set up: setup.md\n")
    (root / "mkdocs.yml").write_text("site_name: Old\ndocs_dir: old\n")
    (root / "guide" / "setup.md").write_text("Install the tool first.\n")
    (root / "README.md").write_text("# Repository readme\n")
    sel = open_site(root)
    site = sel.site
    assert site.config.generator == "mkdocs" and site.config.config_file == "properdocs.yml"
    assert site.classify("guide/setup.md").role == FileRole.PAGE
    assert site.classify("README.md").role == FileRole.EXCLUDED
    doc = convert_pymdown(root / "guide" / "setup.md", site=site, assets_dir=tmp_path / "a")
    assert doc.title == "Getting set up"
    assert open_site(root, site_type="properdocs").site.config.config_file == "properdocs.yml"


def test_zensical_toml_is_read_as_zensical_reads_it(tmp_path: Path) -> None:
    # Zensical (zensical/config.py): the [project] table of zensical.toml, docs_dir "docs" by
    # default, `pymdownx` keys of markdown_extensions a namespace, and with no markdown_extensions
    # at all its default set (admonition, pymdownx.tabbed, ...)
    root = tmp_path / "proj"
    (root / "guide").mkdir(parents=True)
    (root / "zensical.toml").write_text(
        '[project]\nsite_name = "Widgets"\ndocs_dir = "guide"\n'
        'nav = [{ "Start here" = "start.md" }]\n'
        '[project.markdown_extensions.admonition]\n'
        '[project.markdown_extensions.pymdownx.tabbed]\nalternate_style = true\n'
        '[project.markdown_extensions.pymdownx.superfences]\n')
    (root / "guide" / "start.md").write_text(
        "Intro line.\n\n!!! tip \"Fast path\"\n    Press the blue button.\n\n"
        "=== \"Linux\"\n\n    Run the installer.\n\n=== \"Windows\"\n\n    Open the setup file.\n")
    (root / "README.md").write_text("# Repository readme\n")
    sel = open_site(root)
    site = sel.site
    assert site.config.generator == "mkdocs" and site.config.config_file == "zensical.toml"
    assert site.classify("guide/start.md").role == FileRole.PAGE
    assert site.classify("README.md").role == FileRole.EXCLUDED
    assert {"admonition", "pymdownx.tabbed", "pymdownx.superfences", "toc", "tables"} <= set(
        site.config.settings["markdown_extensions"].split())
    doc = convert_pymdown(root / "guide" / "start.md", site=site, assets_dir=tmp_path / "a")
    assert doc.title == "Start here"
    text = doc.sections[0].text
    assert "Fast path" in text and "Press the blue button." in text and "!!!" not in text
    assert "Linux" in text and "Open the setup file." in text and '===' not in text

    # no markdown_extensions: Zensical's defaults, so admonitions and tabs still render
    (root / "zensical.toml").write_text('[project]\nsite_name = "Widgets"\ndocs_dir = "guide"\n')
    site = open_site(root).site
    doc = convert_pymdown(root / "guide" / "start.md", site=site, assets_dir=tmp_path / "a")
    assert "!!!" not in doc.sections[0].text and "===" not in doc.sections[0].text


def test_mkdocs_jupyter_notebooks_and_scripts_are_pages(tmp_path: Path) -> None:
    # mkdocs-jupyter (its plugin.py should_include): .ipynb and .py files under docs_dir matching
    # `include` (default *.py, *.ipynb) and no `ignore` pattern are pages, rendered with their
    # stored outputs; without the plugin a notebook is only a file MkDocs copies
    import json as _json

    root = tmp_path / "proj"
    (root / "docs" / "tours").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        "site_name: Maps\nplugins:\n  - search\n  - mkdocs-jupyter:\n      ignore: [\"scratch/*.ipynb\", \"conf.py\"]\n")
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "# Drawing a route\n\nAdd the layer first."},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "m = Map()\nm.add_route()",
         "outputs": [{"output_type": "display_data", "metadata": {},
                      "data": {"image/png": base64.b64encode(PNG).decode(), "text/plain": "<Figure>"}}]},
        {"cell_type": "markdown", "metadata": {}, "source": "The route shows in red."},
    ]
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                                      "display_name": "Python 3"}},
          "nbformat": 4, "nbformat_minor": 4}
    (root / "docs" / "tours" / "route.ipynb").write_text(_json.dumps(nb))
    (root / "docs" / "scratch").mkdir()
    (root / "docs" / "scratch" / "try.ipynb").write_text(_json.dumps(nb))
    (root / "docs" / "layers.py").write_text("# %% [markdown]\n# # Layers\n# Stack them in order.\n\n# %%\nm.add_layer(x)\n")
    (root / "docs" / "conf.py").write_text("x = 1\n")
    (root / "docs" / "index.md").write_text("# Maps\n")
    pages, skipped = _pages_and_skips(root)
    assert pages == ["docs/index.md", "docs/layers.py", "docs/tours/route.ipynb"]
    assert "docs/scratch/try.ipynb" in skipped and "docs/conf.py" in skipped
    report = IngestReport()
    sel = open_site(root)
    docs = convert_corpus(root, assets_dir=tmp_path / "a", report=report, site=sel.site, walk=walk_site(sel.site))
    route = next(d for d in docs if d.source_path == "docs/tours/route.ipynb")
    assert route.title == "Drawing a route"
    (img,) = [m for m in route.media if isinstance(m, ImageItem)]
    assert "Add the layer first." in img.context_before and img.context_after.startswith("The route shows in red.")
    script = next(d for d in docs if d.source_path == "docs/layers.py")
    assert script.title == "Layers" and "m.add_layer(x)" in script.sections[-1].text

    # ignore_h1_titles: MkDocs titles the page (its nav title), the h1 stays a heading of the text
    (root / "mkdocs.yml").write_text(
        "site_name: Maps\nnav:\n  - Route tour: tours/route.ipynb\nplugins:\n  - mkdocs-jupyter:\n"
        "      ignore_h1_titles: true\n")
    sel = open_site(root)
    docs = convert_corpus(root, assets_dir=tmp_path / "b", report=IngestReport(), site=sel.site,
                          walk=walk_site(sel.site))
    route = next(d for d in docs if d.source_path == "docs/tours/route.ipynb")
    assert route.title == "Route tour" and route.sections[-1].heading_path[-1] == "Drawing a route"

    (root / "mkdocs.yml").write_text("site_name: Maps\n")
    pages, skipped = _pages_and_skips(root)
    assert pages == ["docs/index.md"] and "docs/tours/route.ipynb" in skipped


def test_mkdocs_jupyter_shows_cells_as_its_nbconvert_settings_do(tmp_path: Path) -> None:
    # mkdocs-jupyter (nbconvert2.get_nbconvert_app): show_input false hides every cell's code, cells are
    # removed by tag only through remove_tag_config (its first tag), Jupyter Book's remove-* tags do nothing
    import json as _json

    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        "site_name: Maps\nplugins:\n  - mkdocs-jupyter:\n      show_input: false\n"
        "      remove_tag_config:\n        remove_cell_tags: [\"draft\", \"other\"]\n")
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "# Tour\n\nIntro text."},
        {"cell_type": "markdown", "metadata": {"tags": ["remove-cell"]}, "source": "Shown under mkdocs-jupyter."},
        {"cell_type": "markdown", "metadata": {"tags": ["draft"]}, "source": "A draft note."},
        {"cell_type": "markdown", "metadata": {"tags": ["other"]}, "source": "Only the first tag counts."},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "secret_setup()",
         "outputs": [{"output_type": "stream", "name": "stdout", "text": "ready"}]},
    ]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
    (root / "docs" / "tour.ipynb").write_text(_json.dumps(nb))
    sel = open_site(root)
    docs = convert_corpus(root, assets_dir=tmp_path / "a", report=IngestReport(), site=sel.site,
                          walk=walk_site(sel.site))
    text = docs[0].sections[0].text
    assert "Shown under mkdocs-jupyter." in text and "Only the first tag counts." in text
    assert "A draft note." not in text and "secret_setup" not in text and "ready" in text


def test_nav_page_written_from_the_notebook_beside_it_is_that_notebook(tmp_path: Path) -> None:
    # a nav lists guide/tour.md, which a pre-build step (nbconvert/jupytext) writes from guide/tour.ipynb:
    # the built site has that page, so the notebook is read as it; unlisted notebooks stay files
    import json as _json

    root = tmp_path / "proj"
    (root / "docs" / "guide").mkdir(parents=True)
    (root / "zensical.toml").write_text(
        '[project]\nsite_name = "Maps"\nnav = [{ "Home" = "index.md" }, { "Tour" = "guide/tour.md" }, '
        '{ "Notes" = "guide/notes.md" }]\n')
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "# Tour\n\nPan the map."}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
    for name in ("tour", "scratch", "notes"):
        (root / "docs" / "guide" / f"{name}.ipynb").write_text(_json.dumps(nb))
    (root / "docs" / "guide" / "notes.md").write_text("# Notes\n")
    (root / "docs" / "index.md").write_text("# Maps\n")
    pages, skipped = _pages_and_skips(root)
    assert pages == ["docs/guide/notes.md", "docs/guide/tour.ipynb", "docs/index.md"]
    assert "docs/guide/scratch.ipynb" in skipped and "docs/guide/notes.ipynb" in skipped


def test_material_blog_drafts_are_not_built(tmp_path: Path) -> None:
    """Material's blog plugin builds a post (a page under post_dir) marked draft only with
    its draft option; draft_if_future_date leaves out a post dated after today unless its
    own draft: false says otherwise. Pages outside post_dir are never posts."""
    (tmp_path / "mkdocs.yml").write_text("site_name: S\ntheme: material\nplugins:\n  - blog:\n"
                                         "      blog_dir: news\n      draft_if_future_date: true\n")
    files = {
        "index.md": "# Home\n",
        "news/index.md": "# News\n",
        "news/posts/launch.md": "---\ndate: 2024-01-10\n---\n# Launch\n",
        "news/posts/wip.md": "---\ndate: 2024-02-01\ndraft: true\n---\n# Work in progress\n",
        "news/posts/later.md": "---\ndate: 2999-01-01\n---\n# Later\n",
        "news/posts/pinned.md": "---\ndate: 2999-01-01\ndraft: false\n---\n# Pinned\n",
        "guide/draft.md": "---\ndraft: true\n---\n# Guide\n",
    }
    for rel, text in files.items():
        (tmp_path / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / rel).write_text(text)
    site = MkDocsSite.load(tmp_path, "mkdocs.yml")
    roles = {rel: site.classify(f"docs/{rel}").role for rel in files}
    assert [rel for rel, role in roles.items() if role is FileRole.PAGE] == [
        "index.md", "news/index.md", "news/posts/launch.md", "news/posts/pinned.md", "guide/draft.md"]
    assert "draft" in site.classify("docs/news/posts/wip.md").reason
    (tmp_path / "mkdocs.yml").write_text("site_name: S\nplugins:\n  - material/blog:\n      draft: true\n")
    (tmp_path / "docs" / "blog" / "posts").mkdir(parents=True)
    (tmp_path / "docs" / "blog" / "posts" / "wip.md").write_text("---\ndraft: true\n---\n# WIP\n")
    site = MkDocsSite.load(tmp_path, "mkdocs.yml")
    assert site.classify("docs/blog/posts/wip.md").role is FileRole.PAGE
@pytest.mark.parametrize(("name", "text", "says"), [
    ("mkdocs.yml", "site_name: [Docs\n  nav: : :\n", "mkdocs.yml is not valid YAML"),
    ("zensical.toml", '[project\nsite_name = "Docs"\n', "zensical.toml is not valid TOML"),
])
def test_a_config_that_does_not_parse_is_noted(tmp_path: Path, name: str, text: str, says: str) -> None:
    """MkDocs and Zensical stop on a configuration that does not parse; murar read the site with
    the defaults and said nothing, so a site whose docs_dir or nav it set was read wrong silently."""
    from murar.ingest.sites.detect import open_site

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n")
    (tmp_path / name).write_text(text)
    selection = open_site(tmp_path)
    assert isinstance(selection.site, MkDocsSite)
    assert any(n.startswith(says) and "read with its defaults" in n for n in selection.notes)


def test_consecutive_tab_blocks_are_one_tab_set(tmp_path: Path) -> None:
    """pymdownx.blocks.tab: consecutive ``/// tab | Title`` blocks are one tab set (``new: true``
    starts another); the page shows one tab at a time, so each screenshot belongs to its tab.
    The tabs were read as plain labelled blocks: the images had no tab."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - pymdownx.blocks.tab\n",
                        "# T\n\n/// tab | Cloud\nOpen the list:\n\n![Cloud list](img/c.png)\n///\n\n"
                        "/// tab | Self-hosted\n![Server list](img/s.png)\n///\n\n"
                        "/// tab | Linux\n    new: true\n\n![Linux](img/l.png)\n///\n\n"
                        "//// tab | macOS\n/// tab | Intel\n![Intel](img/i.png)\n///\n/// tab | ARM\nNo picture.\n///\n////\n\n"
                        "![After](img/a.png)\n")
    assert [(m.alt, m.tab, m.tab_set) for m in doc.media if isinstance(m, ImageItem)] == [
        ("Cloud list", "Cloud", ("Cloud", "Self-hosted")), ("Server list", "Self-hosted", ("Cloud", "Self-hosted")),
        ("Linux", "Linux", ("Linux", "macOS")), ("Intel", "Intel", ("Intel", "ARM")), ("After", "", ())]
    text = doc.sections[0].text
    assert "Cloud\n\nOpen the list:" in text and "murar-tabs" not in text and "new: true" not in text


def test_i18n_a_locale_suffixed_page_takes_its_nav_and_file_name_title(tmp_path: Path) -> None:
    """mkdocs-static-i18n serves ``sogo.en.md`` as the page ``sogo.md``: a page without a level-1
    heading takes the title its ``nav`` entry gives ``sogo.md`` ("SOGo"), else the file name
    without the locale ("Mail filters"); murar titled them "Sogo.en" and "Mail filters.en"."""
    root = tmp_path / "proj"
    (root / "docs" / "guide").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        "site_name: S\nnav:\n  - SOGo: guide/sogo.md\nplugins:\n  - i18n:\n      languages:\n"
        "        - locale: en\n          default: true\n        - locale: de\n")
    for name in ("sogo.en.md", "sogo.de.md", "mail_filters.en.md"):
        (root / "docs" / "guide" / name).write_text("Intro text.\n\n## Setup\n\nSteps.\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    titles = {p: convert_pymdown(root / "docs" / "guide" / p, site=site, assets_dir=tmp_path / "a").title
              for p in ("sogo.en.md", "mail_filters.en.md")}
    assert titles == {"sogo.en.md": "SOGo", "mail_filters.en.md": "Mail filters"}


def test_macros_delimiters_set_in_the_config_are_the_pages_jinja(tmp_path: Path) -> None:
    """mkdocs-macros' j2_*_string options change the Jinja2 delimiters (n8n: ``[[% %]]`` and
    ``[[ ]]``, so that its expression syntax ``{{ $json.name }}`` stays text). murar used
    Jinja2's: the ``[[% import %]]`` line was text and ``{{ $json.name }}`` was dropped."""
    doc = _convert_page(tmp_path, (
        "site_name: S\nplugins:\n  - macros:\n      j2_block_start_string: '[[%'\n      j2_block_end_string: '%]]'\n"
        "      j2_variable_start_string: '[['\n      j2_variable_end_string: ']]'\nextra:\n  product: n8n\n"),
        "# Flow\n\n[[ product ]] runs workflows.\n\n[[% import \"_macros/toc.html\" as toc %]]\n\n"
        "[[ toc.toc(page) ]]\n\nMap a field with {{ $json.name }}.\n")
    assert doc.sections[0].text == "n8n runs workflows.\n\nMap a field with {{ $json.name }}."


def test_details_with_only_a_quoted_title_is_read_with_that_summary(tmp_path: Path) -> None:
    """pymdownx.details: ``??? "Raw database instructions"`` (a quoted title, no type) is a
    collapsible block whose summary is the title (details.py START: the type is optional
    before a quoted title). murar read the quote and first word as the type:
    '"raw: database instructions"'."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - admonition\n  - pymdownx.details\n",
                        "# T\n\n??? \"Raw database instructions\"\n    Run the query.\n\n"
                        "???+ \"Shown open\"\n    Open body.\n\n??? info \"Typed title\"\n    Typed body.\n")
    assert doc.sections[0].text == ("Raw database instructions\n\nRun the query.\n\nShown open\n\nOpen body.\n\n"
                                    "Info: Typed title\n\nTyped body.")


def test_a_named_mkdocs_config_without_a_default_one_is_the_site(tmp_path: Path) -> None:
    """A site built with ``mkdocs build -f mkdocs-online.yml`` has no ``mkdocs.yml``: the
    ``mkdocs*.yml`` leaf (not the base its siblings INHERIT, not one without ``site_name``)
    is its config, the one naming ``site_url`` before another. murar read such a folder as
    plain Markdown (generator 'plain', no snippets, no exclude rules)."""
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs-common.yml").write_text("site_name: Demo\nmarkdown_extensions:\n  - pymdownx.snippets\n")
    (root / "mkdocs-nav.yml").write_text("nav:\n  - index.md\n")
    (root / "mkdocs-offline.yml").write_text("INHERIT: mkdocs-common.yml\nplugins:\n  offline:\n")
    (root / "mkdocs-online.yml").write_text("INHERIT: mkdocs-common.yml\nsite_url: https://docs.example.org/\n")
    (root / "docs" / "index.md").write_text("# Home\n\nText.\n")
    sel = open_site(root)
    assert (sel.site.config.generator, sel.site.config.config_file) == ("mkdocs", "mkdocs-online.yml")
    (root / "mkdocs-online.yml").unlink()
    assert open_site(root).site.config.config_file == "mkdocs-offline.yml"
    (root / "mkdocs.yml").write_text("site_name: Default\n")
    assert open_site(root).site.config.config_file == "mkdocs.yml"


def test_an_svg_snippet_is_the_pages_picture(tmp_path: Path) -> None:
    """pymdownx.snippets pulls a whole ``.svg`` file in as markup the browser draws
    (``<div class="excalidraw">`` then ``--8<-- "docs/images/a.svg"``, Textual's diagrams):
    the page's image. murar kept nothing of it (or its XML as text); in a code block the
    file stays code."""
    root = tmp_path / "proj"
    (root / "docs" / "images").mkdir(parents=True)
    (root / "docs" / "guide").mkdir()
    (root / "mkdocs.yml").write_text("site_name: S\nmarkdown_extensions:\n  - md_in_html\n  - pymdownx.snippets\n")
    (root / "docs" / "images" / "stack.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500"><text>stack</text></svg>\n')
    (root / "docs" / "guide" / "screens.md").write_text(
        '# Screens\n\nThe stack:\n\n<div class="excalidraw">\n--8<-- "docs/images/stack.svg"\n</div>\n\n'
        'Source:\n\n```xml\n--8<-- "docs/images/stack.svg"\n```\n\n~~~\n--8<--\ndocs/images/stack.svg\n--8<--\n~~~\n')
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "guide" / "screens.md", site=site, assets_dir=tmp_path / "a")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.path, m.exists) for m in images] == [("docs/images/stack.svg", True)]
    text = "\n".join(s.text for s in doc.sections)
    assert text.count("<svg") == 2  # the code blocks' copies (one-line and block forms)
