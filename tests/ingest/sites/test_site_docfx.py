"""DocFX / Microsoft Learn rules: docfx.json globs, includes, :::image:::, alerts."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from murar.errors import ConfigError
from murar.ingest.sites import _glob, docfx
from murar.ingest.sites.base import FileRole, Site

DOCFX = {"build": {
    "content": [{"files": ["**/*.md", "**/*.yml"], "exclude": ["**/includes/**", "README.md", "drafts/**"]}],
    "resource": [{"files": ["**/*.png"]}],
    "globalMetadata": {"breadcrumb_path": "/product/breadcrumb/toc.json"}}}


@pytest.fixture()
def repo(tmp_path: Path, write: Callable[..., Path], png: bytes) -> Path:
    write(tmp_path, "docs/docfx.json", json.dumps(DOCFX))
    write(tmp_path, "docs/toc.yml", "- name: A\n  href: a.md\n")
    write(tmp_path, "docs/README.md", "# readme\n")
    write(tmp_path, "docs/drafts/wip.md", "# wip\n")
    write(tmp_path, "docs/media/a/shot.png", png)
    write(tmp_path, "docs/media/a/big.png", png)
    write(tmp_path, "docs/media/a/icon.png", png)
    write(tmp_path, "docs/media/inc/from-include.png", png)
    write(tmp_path, "docs/media/a/diagram.png", png)
    write(tmp_path, "docs/snippets/query.m", "let Source = 1 in Source\n")
    write(tmp_path, "docs/includes/steps.md",
          "---\nms.topic: include\n---\n1. Sign in.\n\n   ![signin](../media/inc/from-include.png)\n\n"
          "2. Select **Connect**.\n")
    write(tmp_path, "docs/includes/note.md", "This note comes from an include.\n")
    write(tmp_path, "docs/a.md", (
        "---\ntitle: A\n---\n# Connect\n\n"
        "> [!NOTE]\n> Some capabilities differ.\n\n"
        "[!INCLUDE [steps](includes/steps.md)]\n\n"
        ':::image type="content" source="media/a/shot.png" alt-text="Screenshot of the dialog." '
        'lightbox="media/a/big.png":::\n\n'
        'Select the :::image type="icon" source="media/a/icon.png" border="false"::: settings icon.\n\n'
        ':::image type="complex" source="~/media/a/diagram.png" alt-text="Architecture diagram.":::\n'
        "   The gateway sits between the service and the database.\n:::image-end:::\n\n"
        "> [!TIP]\n> [!INCLUDE [note](includes/note.md)]\n\n"
        "![root](/product/media/a/shot.png)\n\n"
        "> [!VIDEO https://learn.microsoft.com/video/embed/x]\n\n"
        ":::row:::\n:::column:::\nColumn text.\n:::column-end:::\n:::row-end:::\n\n"
        "[!code-powerquery[main](snippets/query.m)]\n\n"
        "> [!div class=\"nextstepaction\"]\n> [Next](b.md)\n"))
    return tmp_path


def images(markdown: str) -> list[tuple[str, str, str]]:
    out = []
    for tok in MarkdownIt("commonmark", {"html": True}).parse(markdown):
        for c in tok.children or []:
            if c.type == "image":
                out.append((str(c.attrs["src"]), c.content, str(c.attrs.get("title") or "")))
    return out


def test_a_utf16_page_is_scanned_for_its_uid_and_includes(repo: Path) -> None:
    # a page saved as UTF-16 with its byte-order mark is read by its mark (as .NET's reader, so DocFX,
    # reads it); the uid/include scan read it as UTF-8 and found nothing between the NUL bytes, so
    # <xref:wide-page> had no title and the file it pulls in was not known as an include
    (repo / "docs/shared").mkdir()
    (repo / "docs/shared/wide-part.md").write_text("Shared steps.\n")
    (repo / "docs/wide.md").write_bytes("---\nuid: wide-page\n---\n# Wide page\n\n"
                                        "[!INCLUDE [part](shared/wide-part.md)]\n".encode("utf-16"))
    site = docfx.load(repo, "docs/docfx.json")
    assert site.uid_titles().get("wide-page") == "Wide page"
    assert "docs/shared/wide-part.md" in site.included_files()


def test_config_and_classify(repo: Path) -> None:
    site = docfx.load(repo, "docs/docfx.json")
    assert isinstance(site, Site)
    assert site.config.generator == "docfx" and site.config.base_url == "/product/"
    assert site.classify("docs/a.md").role is FileRole.PAGE
    assert site.classify("docs/includes/steps.md").role is FileRole.INCLUDE
    assert site.classify("docs/README.md").role is FileRole.EXCLUDED
    assert site.classify("docs/drafts/wip.md").role is FileRole.EXCLUDED
    assert site.classify("docs/toc.yml").role is FileRole.EXCLUDED
    assert site.classify("docs/media/a/shot.png").role is FileRole.ASSET
    assert site.classify("LICENSE").role is FileRole.EXCLUDED


def test_publish_config_fallback_without_docfx_json(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, ".openpublishing.publish.config.json",
          json.dumps({"docsets_to_publish": [{"docset_name": "d", "build_source_folder": "articles"}]}))
    write(tmp_path, "articles/page.md", "# P\n")
    write(tmp_path, "articles/includes/part.md", "part\n")
    write(tmp_path, "other/x.md", "# X\n")
    site = docfx.load(tmp_path, ".openpublishing.publish.config.json")
    assert site.classify("articles/page.md").role is FileRole.PAGE
    assert site.classify("articles/includes/part.md").role is FileRole.INCLUDE
    assert site.classify("other/x.md").role is FileRole.EXCLUDED
    # nothing at all: DocFX's defaults over the whole folder
    bare = docfx.load(tmp_path / "articles")
    assert bare.classify("page.md").role is FileRole.PAGE


def test_bad_config_is_typed_error(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "docfx.json", "{ not json")
    with pytest.raises(ConfigError, match="docfx.json"):
        docfx.load(tmp_path, "docfx.json")


def test_preprocess_extensions(repo: Path) -> None:
    site = docfx.load(repo, "docs/docfx.json")
    warnings: list[str] = []
    out = site.preprocess((repo / "docs/a.md").read_text(), page_rel="docs/a.md", warnings=warnings)
    assert warnings == []
    assert out.startswith("---\ntitle: A\n---\n")
    assert "> **Note:** \n> Some capabilities differ." in out
    # the include's list and its image (rebased from includes/ to the page) sit where [!INCLUDE] was
    assert re.search(r"1\. Sign in\.\s+!\[signin\]\(media/inc/from-include\.png\)\s+2\. Select", out)
    # an include inside a quote stays inside the quote
    assert "> **Tip:** \n> This note comes from an include." in out
    imgs = images(out)
    assert ("media/inc/from-include.png", "signin", "") in imgs
    assert ("media/a/shot.png", "Screenshot of the dialog.", "") in imgs
    assert ("~/media/a/diagram.png", "Architecture diagram.",
            "The gateway sits between the service and the database.") in imgs
    assert "[![Screenshot of the dialog.](<media/a/shot.png>)](<media/a/big.png>)" in out
    assert '<img src="media/a/icon.png" alt="" width="16" height="16" class="icon">' in out
    assert '<iframe src="https://learn.microsoft.com/video/embed/x"></iframe>' in out
    assert ":::" not in out and "Column text." in out
    assert "```powerquery\nlet Source = 1 in Source\n```" in out
    assert "[!div" not in out and "[Next](b.md)" in out
    resolved = {src: site.resolve_asset(src, page_rel="docs/a.md").rel_path for src, _, _ in imgs}
    assert resolved["~/media/a/diagram.png"] == "docs/media/a/diagram.png"
    assert resolved["/product/media/a/shot.png"] == "docs/media/a/shot.png"
    assert resolved["media/inc/from-include.png"] == "docs/media/inc/from-include.png"


def test_missing_include_and_image_reported(repo: Path) -> None:
    site = docfx.load(repo, "docs/docfx.json")
    warnings: list[str] = []
    site.preprocess("[!INCLUDE [x](includes/none.md)]\n", page_rel="docs/a.md", warnings=warnings)
    assert warnings and "includes/none.md" in warnings[0]
    res = site.resolve_asset("media/none.png", page_rel="docs/a.md")
    assert res.problem and "docs/media/none.png" in res.problem


def test_nested_include_resolves_from_the_include(tmp_path: Path) -> None:
    """QA: an include inside an include was looked for at includes/includes/y.md (its link
    was rebased to the page, then resolved again from the include's folder)."""
    (tmp_path / "includes" / "media").mkdir(parents=True)
    (tmp_path / "docfx.json").write_text('{"build": {"content": [{"files": ["**/*.md"]}]}}')
    (tmp_path / "includes" / "x.md").write_text("X text.\n\n[!INCLUDE [y](y.md)]\n")
    (tmp_path / "includes" / "y.md").write_text("Y text.\n\n![shot](media/s.png)\n")
    (tmp_path / "includes" / "media" / "s.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    site = docfx.load(tmp_path, "docfx.json")
    warnings: list[str] = []
    out = site.preprocess("# A\n\n[!INCLUDE [x](includes/x.md)]\n", page_rel="a.md", warnings=warnings)
    assert warnings == []
    assert "X text." in out and "Y text." in out and "includes/media/s.png" in out


@pytest.mark.integration
def test_real_docfx_corpus_resolves_every_image(docsite: Callable[[str], Path],
                                                count_refs: Callable[..., Any]) -> None:
    root = docsite("docfx-powerquery-docs")
    site = docfx.load(root, "powerquery-docs/docfx.json")
    counts = count_refs(site)
    # SOURCE.md: 54 pages, 119 includes, 1838 local image references that all resolve
    assert counts.pages == 54
    assert counts.unresolved == [] and counts.warnings == []
    assert counts.resolved >= 1800
    assert sum(site.classify(f"powerquery-docs/connectors/includes/{p}").role is FileRole.INCLUDE
               for p in ("snowflake/snowflake-capabilities-supported.md", "xml-capabilities-supported.md")) == 2


def test_icons_are_never_answer_images(repo: Path) -> None:
    """``:::image type="icon":::`` reaches the index flagged (tiny, inline), so selection skips it."""
    from murar.ingest.markup.registry import converter_for
    from murar.ingest.media_flags import is_selectable

    site = docfx.load(repo, "docs/docfx.json")
    doc = converter_for("markdown")(repo / "docs/a.md", site=site, assets_dir=repo / "_assets")
    images = {m.path: m for m in doc.media if m.kind == "image"}
    icon = images["docs/media/a/icon.png"]
    assert icon.flags and not is_selectable(icon)
    assert "tiny" in icon.flags and "inline" in icon.flags
    assert "docs/media/a/shot.png" in images


def test_icon_right_before_a_word_is_an_icon_not_text(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """``:::image type="icon" source="..."::`` + ``:SQL Server``: the closing ``:::`` may touch the next
    word (Learn's "Applies to" includes write ``:::image type="icon" source="media/yes-icon.png":::SQL
    Server``); the icon is an image and the word stays, no ``:::image`` text is left in the page."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"], "exclude": ["**/includes/**"]}]}}')
    write(tmp_path, "includes/media/yes.png", png)
    write(tmp_path, "includes/applies.md",
          '**Applies to:** :::image type="icon" source="media/yes.png":::SQL Server '
          ':::image type="icon" source="media/yes.png":::Azure SQL Database\n')
    write(tmp_path, "a/b.md", "# B\n\n[!INCLUDE[applies](../includes/applies.md)]\n\nBody text.\n")
    site = docfx.load(tmp_path, "docfx.json")
    doc = converter_for("markdown")(tmp_path / "a/b.md", site=site, assets_dir=tmp_path / "_assets")
    text = doc.sections[0].text
    assert ":::" not in text and "image type" not in text
    assert "Applies to: SQL Server Azure SQL Database" in text
    icons = [m for m in doc.media if m.kind == "image"]
    assert [m.path for m in icons] == ["includes/media/yes.png"] * 2
    assert all("tiny" in (m.flags or ()) for m in icons)


def test_include_link_in_another_case_is_the_includes_file(tmp_path: Path, write: Callable[..., Path],
                                                           png: bytes) -> None:
    """An include's ``![](media/Shot.PNG)`` naming ``includes/media/shot.png`` in another case is that
    file (links of an include are relative to it, and DocFX v3 matches a file link in any case), not a
    missing ``media/Shot.PNG`` next to the page."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"], "exclude": ["**/includes/**"]}]}}')
    write(tmp_path, "includes/media/shot.png", png)
    write(tmp_path, "includes/inc.md", "![Shot](media/Shot.PNG)\n")
    write(tmp_path, "a/b.md", "# B\n\n[!INCLUDE[x](../includes/inc.md)]\n")
    site = docfx.load(tmp_path, "docfx.json")
    doc = converter_for("markdown")(tmp_path / "a/b.md", site=site, assets_dir=tmp_path / "_assets")
    assert [m.path for m in doc.media if m.kind == "image"] == ["includes/media/shot.png"]
    assert not any("not found" in w for w in doc.warnings)


def test_tab_headings_are_tabs_not_sections(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """``# [Label](#tab/id)`` headings label tabs (DocFX "Tabs"); the group ends at ``---``."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    for name in ("linux.png", "windows.png", "after.png"):
        write(tmp_path, f"media/{name}", png)
    write(tmp_path, "a.md", (
        "# Install\n\nPick your system.\n\n"
        "## [Linux](#tab/linux)\n\nRun apt.\n\n![](media/linux.png)\n\n"
        "## [Windows](#tab/windows/x64)\n\nRun the installer.\n\n![](media/windows.png)\n\n---\n\n"
        "Then restart.\n\n![](media/after.png)\n\n"
        "```markdown\n# [Not a tab](#tab/code)\n```\n"))
    site = docfx.load(tmp_path, "docfx.json")
    doc = converter_for("markdown")(tmp_path / "a.md", site=site, assets_dir=tmp_path / "_assets")
    tabs = [(Path(m.path or "").name, m.tab, m.tab_set) for m in doc.media if isinstance(m, ImageItem)]
    assert tabs == [("linux.png", "Linux", ("Linux", "Windows")), ("windows.png", "Windows", ("Linux", "Windows")),
                    ("after.png", "", ())]
    # one section: the labels read as lines of the page, not as headings
    assert [s.heading_path for s in doc.sections] == [("Install",)]
    text = doc.sections[0].text
    assert "Linux\n\nRun apt." in text and "Then restart." in text and "murar-tabs" not in text
    assert "# [Not a tab](#tab/code)" in text


def test_next_tab_is_not_under_the_previous_tabs_last_heading(tmp_path: Path, write: Callable[..., Path],
                                                              png: bytes) -> None:
    """DocFX "Tabs": a heading inside a tab is part of that tab, so the next tab's text (and the
    text after the group's ``---``) stands in the section around the group, not under the previous
    tab's last heading (a Learn article with ``## [Go](#tab/go)`` then ``### Options`` in it)."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "media/odbc.png", png)
    write(tmp_path, "a.md", (
        "# Sign in\n\nPick a version.\n\n"
        "## [Go](#tab/go)\n\nGo signs in with azidentity.\n\n### Options\n\nUse --auth.\n\n#### Default\n\nTries all.\n\n"
        "## [ODBC](#tab/odbc)\n\nODBC uses -G.\n\n![ODBC dialog](media/odbc.png)\n\n### Passwords\n\nGive -U and -P.\n\n"
        "---\n\nBoth need a login.\n\n## Related\n\nMore.\n"))
    site = docfx.load(tmp_path, "docfx.json")
    doc = converter_for("markdown")(tmp_path / "a.md", site=site, assets_dir=tmp_path / "_assets")
    sections = [(s.heading_path, s.text) for s in doc.sections]
    under = {path: text for path, text in sections}
    assert "ODBC uses -G." not in under[("Sign in", "Options", "Default")]
    odbc = [path for path, text in sections if "ODBC uses -G." in text]
    assert odbc == [("Sign in",)]
    after = [path for path, text in sections if "Both need a login." in text]
    assert after == [("Sign in",)]
    assert "Both need a login." not in under[("Sign in", "Passwords")]
    assert ("Sign in", "Related") in under
    shot = next(m for m in doc.media if isinstance(m, ImageItem))
    assert shot.tab == "ODBC" and shot.tab_set == ("Go", "ODBC")


def test_cross_references_read_as_their_titles_or_names(tmp_path: Path, write: Callable[..., Path]) -> None:
    """DocFX "Links and Cross References": ``<xref:uid>`` and ``@uid`` show the target
    page's title, an API uid its name; ``[text](xref:uid)`` keeps its text; code is left alone."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "files.md", "---\nuid: file-kinds\ntitle: Kinds of files\n---\n# Kinds\n")
    write(tmp_path, "noted.md", "---\nuid: noted\n---\n# Heading title\n")
    write(tmp_path, "a.md", (
        "# A\n\nSee <xref:file-kinds#diagram> and @noted, or [the list](xref:file-kinds).\n"
        "Call <xref:System.String.Format*>, <xref:System.Collections.Generic.List%601.Insert(System.Int32,%600)>, "
        '<xref href="System.Int32?displayProperty=fullName"/> and [](xref:Contoso.Widget?text=the+widget).\n'
        "Mail me@example.com, tag @someone; `<xref:noted>` stays.\n\n```md\n<xref:file-kinds>\n```\n"))
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess((tmp_path / "a.md").read_text(), page_rel="a.md")
    assert "See Kinds of files and Heading title, or [the list](xref:file-kinds)." in out
    assert "Call Format, Insert(Int32, \\`0), System.Int32 and the widget." in out
    assert "Mail me@example.com, tag @someone; `<xref:noted>` stays." in out
    assert "```md\n<xref:file-kinds>\n```" in out


def test_xref_html_tags_show_their_content_or_the_name(tmp_path: Path, write: Callable[..., Path]) -> None:
    """DocFX makes ``<a href="xref:uid">`` an ``<xref>`` tag, and an ``<xref>`` shows its
    inner HTML first, else the name its ``displayProperty`` asks for: an empty link was
    no text at all, and the inner text of ``<xref ...>text</xref>`` followed the name
    with the closing tag left in the page."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "noted.md", "---\nuid: noted\n---\n# Heading title\n")
    write(tmp_path, "a.md", (
        '# A\n\nFull <a href="xref:Contoso.Widget?displayProperty=fullName"/>, member '
        "<a href='xref:Contoso.Widget.Size?displayProperty=nameWithType'></a>, page <a href=\"xref:noted\"/>, "
        '<a href="xref:noted">own words</a>.\n'
        'Tag <xref href="Contoso.Widget">the widget</xref> and <xref uid="Contoso.Gear"></xref>.\n'))
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess((tmp_path / "a.md").read_text(), page_rel="a.md")
    assert ("Full Contoso.Widget, member Widget.Size, page Heading title, "
            '<a href="xref:noted">own words</a>.') in out
    assert "Tag the widget and Gear." in out


def test_code_snippets_take_the_part_asked_for(tmp_path: Path, write: Callable[..., Path]) -> None:
    """DocFX "Code Snippet": ``#tag``/``?name=``/``id`` a named snippet (comment tags or
    ``#region``), ``#L2-L3``/``?range=``/``range`` lines; a missing name is a warning."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "src/app.cs", (
        "using System;\nclass App\n{\n    // <Greet>\n    void Greet()\n    {\n        // <inner>\n"
        "        Say(\"hi\");\n        // </inner>\n    }\n    // </Greet>\n    #region Setup\n"
        "    void Setup() { }\n    #endregion\n}\n"))
    write(tmp_path, "src/run.py", "import os\n# <main>\nprint(os.name)\n# </main>\n")
    write(tmp_path, "a.md", (
        "# A\n\n[!code-csharp[](src/app.cs#greet \"Greeting\")]\n\n[!code-csharp[](src/app.cs?name=Setup)]\n\n"
        ':::code language="python" source="src/run.py" id="main":::\n\n[!code-csharp[](src/app.cs#L1-L2)]\n\n'
        ':::code language="csharp" source="src/app.cs" range="13":::\n\n[!code-csharp[](src/app.cs#nothere)]\n'))
    site = docfx.load(tmp_path, "docfx.json")
    warnings: list[str] = []
    out = site.preprocess((tmp_path / "a.md").read_text(), page_rel="a.md", warnings=warnings)
    blocks = re.findall(r"```(\w*)\n(.*?)\n```", out, re.DOTALL)
    assert blocks == [("csharp", 'void Greet()\n{\n    Say("hi");\n}'), ("csharp", "void Setup() { }"),
                      ("python", "print(os.name)"), ("csharp", "using System;\nclass App"),
                      ("csharp", "void Setup() { }")]
    assert len(warnings) == 1 and "nothere" in warnings[0]
    assert "[!code" not in out


def test_brace_globs_of_docfx_init_select_the_pages(tmp_path: Path, write: Callable[..., Path]) -> None:
    """``docfx init`` writes ``"files": ["**/*.{md,yml}"]``; DocFX expands the braces
    (nested too), so every Markdown file is a page."""
    write(tmp_path, "docfx.json", json.dumps({"build": {
        "content": [{"files": ["**/*.{md,yml}"], "exclude": ["_site/**", "{drafts,old/{a,b}}/**"]}]}}))
    for rel in ("index.md", "docs/intro.md", "drafts/x.md", "old/b/y.md", "old/c/z.md"):
        write(tmp_path, rel, "# T\n")
    site = docfx.load(tmp_path, "docfx.json")
    roles = {rel: site.classify(rel).role for rel in ("index.md", "docs/intro.md", "drafts/x.md", "old/b/y.md",
                                                      "old/c/z.md")}
    assert roles == {"index.md": FileRole.PAGE, "docs/intro.md": FileRole.PAGE, "drafts/x.md": FileRole.EXCLUDED,
                     "old/b/y.md": FileRole.EXCLUDED, "old/c/z.md": FileRole.PAGE}
    assert _glob.glob_match("a{b}c", "a{b}c", _glob.DOCFX) and not _glob.glob_match("abc", "a{b}c", _glob.DOCFX)
    assert _glob.glob_match("ab" * 10, "{a,b}" * 20, _glob.DOCFX)  # a million alternatives, never expanded


def test_markdown_toc_is_not_a_page(tmp_path: Path, write: Callable[..., Path]) -> None:
    """DocFX reads ``toc.md`` (any case) as a table of contents, like ``toc.yml``."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    for rel in ("guide/toc.md", "TOC.md", "guide/intro.md", "guide/toc-notes.md"):
        write(tmp_path, rel, "# [Intro](intro.md)\n")
    site = docfx.load(tmp_path, "docfx.json")
    assert site.classify("guide/toc.md").role is FileRole.EXCLUDED and site.classify("TOC.md").role is FileRole.EXCLUDED
    assert site.classify("guide/intro.md").role is FileRole.PAGE
    assert site.classify("guide/toc-notes.md").role is FileRole.PAGE


def test_file_mapping_globs_ignore_case(tmp_path: Path, write: Callable[..., Path]) -> None:
    """DocFX globs match without regard to case (GlobMatcher.DefaultOptions: IgnoreCase)."""
    write(tmp_path, "docfx.json", json.dumps({"build": {
        "content": [{"files": ["Articles/**/*.MD"], "exclude": ["**/Drafts/**"]}]}}))
    for rel in ("articles/setup.md", "articles/drafts/wip.md"):
        write(tmp_path, rel, "# T\n")
    site = docfx.load(tmp_path, "docfx.json")
    assert site.classify("articles/setup.md").role is FileRole.PAGE
    assert site.classify("articles/drafts/wip.md").role is FileRole.EXCLUDED


def test_zone_pivots_are_labelled_tabs(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Learn zone pivots: each ``::: zone pivot="a,b"`` is a tab titled from the zone
    pivot definition file (``zone_pivot_group_filename`` or the docset's
    ``zone-pivot-groups.yml``), adjacent zones one set; images record their zone."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "docs/docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "docs/zone-pivot-groups.yml", (
        "groups:\n- id: os\n  title: OS\n  pivots:\n  - id: os-linux\n    title: Linux\n"
        "  - id: os-macos\n    title: macOS\n  - id: os-windows\n    title: Windows\n"))
    for name in ("nix.png", "win.png"):
        write(tmp_path, f"docs/media/{name}", png)
    write(tmp_path, "docs/a.md", (
        "---\ntitle: A\nzone_pivot_groups: os\n---\n# A\n\n1. Set the path.\n\n    ::: zone pivot=\"os-linux,os-macos\"\n\n"
        "    Run export.\n\n    ![](media/nix.png)\n\n    ::: zone-end\n\n    ::: zone pivot=\"os-windows\"\n\n"
        "    Run set.\n\n    ![](media/win.png)\n\n    ::: zone-end\n\n    Then go on.\n\n"
        "```md\n::: zone pivot=\"os-windows\"\n```\n"))
    site = docfx.load(tmp_path, "docs/docfx.json")
    doc = converter_for("markdown")(tmp_path / "docs/a.md", site=site, assets_dir=tmp_path / "_assets")
    tabs = [(Path(m.path or "").name, m.tab, m.tab_set) for m in doc.media if isinstance(m, ImageItem)]
    assert tabs == [("nix.png", "Linux / macOS", ("Linux / macOS", "Windows")),
                    ("win.png", "Windows", ("Linux / macOS", "Windows"))]
    text = "\n".join(s.text for s in doc.sections)
    assert "Linux / macOS\n\nRun export." in text and "Then go on." in text and "::: zone pivot" in text


def test_code_snippet_in_a_list_step_stays_in_the_step(tmp_path: Path, write: Callable[..., Path]) -> None:
    """``:::code`` inside a numbered step: the code block keeps the step's indentation,
    so the step's next paragraph stays prose (it was read as an indented code block)."""
    from markdown_it import MarkdownIt as _Md

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "src/a.txt", "line one\n\nline three\n")
    write(tmp_path, "a.md", "# A\n\n1. Create the file.\n\n    :::code language=\"text\" source=\"src/a.txt\":::\n\n"
                            "    Then save `a.txt` here.\n\n2. Next step.\n")
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess((tmp_path / "a.md").read_text(), page_rel="a.md")
    tokens = _Md("commonmark").parse(out)
    assert [t.type for t in tokens].count("ordered_list_open") == 1
    assert any(t.type == "fence" and t.content == "line one\n\nline three\n" for t in tokens)
    assert not any(t.type == "code_block" for t in tokens)


def test_video_in_a_list_step_stays_in_the_step(tmp_path: Path, write: Callable[..., Path]) -> None:
    """``> [!VIDEO url]`` indented in a numbered step keeps the step's indentation."""
    from markdown_it import MarkdownIt as _Md

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess("1. Watch this.\n\n    > [!VIDEO https://learn.microsoft.com/_video/x]\n\n    Then go on.\n\n"
                          "2. Next.\n", page_rel="a.md")
    tokens = _Md("commonmark").parse(out)
    assert [t.type for t in tokens].count("ordered_list_open") == 1 and not any(t.type == "code_block" for t in tokens)
    assert '    <iframe src="https://learn.microsoft.com/_video/x"></iframe>' in out


def test_content_src_outside_the_docfx_folder(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """DocFX "docfx.json": ``src`` is relative to docfx.json and may leave its folder
    (``"src": "../articles"``); those files are pages of the docset, ``~/`` still its root."""
    write(tmp_path, "site/docfx.json", json.dumps({"build": {
        "content": [{"files": ["**/*.md"], "src": "../articles", "dest": "articles"}, {"files": ["*.md"]}]}}))
    write(tmp_path, "site/index.md", "# Home\n")
    write(tmp_path, "articles/img/a.png", png)
    write(tmp_path, "articles/includes/note.md", "Shared note.\n")
    write(tmp_path, "articles/guide.md", "# Guide\n\n[!INCLUDE [n](includes/note.md)]\n\n![a](~/../articles/img/a.png)\n")
    write(tmp_path, "other/stray.md", "# Stray\n")
    site = docfx.load(tmp_path, "site/docfx.json")
    assert site.classify("articles/guide.md").role is FileRole.PAGE
    # selected by "**/*.md" (no exclude): DocFX builds it as a page, though guide.md includes it
    assert site.classify("articles/includes/note.md").role is FileRole.PAGE
    assert site.classify("other/stray.md").role is FileRole.EXCLUDED
    assert site.resolve_asset("~/../articles/img/a.png", page_rel="articles/guide.md").rel_path == "articles/img/a.png"
    assert "Shared note." in site.preprocess((tmp_path / "articles/guide.md").read_text(), page_rel="articles/guide.md")


def test_root_relative_links_through_resource_dest(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """docfx.json ``{"src": "content/assets/images", "dest": "images"}`` publishes
    ``content/assets/images/x.png`` at ``/images/x.png``; a page linking that URL finds the file."""
    write(tmp_path, "docfx.json", json.dumps({"build": {
        "content": [{"files": "**/*.md", "src": "content/guide", "dest": "guide"}],
        "resource": [{"files": "**", "src": "content/assets/images", "dest": "images"}]}}))
    write(tmp_path, "content/assets/images/shot.png", png)
    write(tmp_path, "content/guide/a.md", "# A\n")
    site = docfx.load(tmp_path, "docfx.json")
    assert site.resolve_asset("/images/shot.png", page_rel="content/guide/a.md").rel_path == \
        "content/assets/images/shot.png"
    assert site.resolve_asset("/images/none.png", page_rel="content/guide/a.md").problem


def test_inline_no_loc_reads_as_its_text(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Learn ``:::no-loc text="x":::`` inline (and alone on a line) is its text; code keeps it."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess('In the _:::no-loc text="Program.cs":::_ file call :::no-loc text="\\"Run\\"":::.\n\n'
                          ':::no-loc text="Standalone":::\n\n`:::no-loc text="kept":::`\n', page_rel="a.md")
    assert 'In the _Program.cs_ file call "Run".' in out and "\nStandalone\n" in out
    assert '`:::no-loc text="kept":::`' in out


def test_syntax_examples_in_code_fences_stay_as_written(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A Markdown example of DocFX syntax in a fenced code block (DocFX's own docs
    show ``[!code-csharp[](Program.cs)]``, ``> [!NOTE]``, ``[!INCLUDE]``) is not expanded,
    nor warned about; the same syntax outside code still is."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "includes/inc.md", "Included.\n")
    example = ("```markdown\n[!code-csharp[](Program.cs#L1-L2)]\n> [!NOTE]\n> Example note.\n"
               "[!INCLUDE [inc](includes/inc.md)]\n:::image type=\"content\" source=\"x.png\" alt-text=\"x\":::\n```\n")
    write(tmp_path, "a.md", "# A\n\n" + example + "\n> [!NOTE]\n> Real note.\n\n[!INCLUDE [inc](includes/inc.md)]\n")
    site = docfx.load(tmp_path, "docfx.json")
    warnings: list[str] = []
    out = site.preprocess((tmp_path / "a.md").read_text(), page_rel="a.md", warnings=warnings)
    assert example in out and warnings == []
    assert "> **Note:** \n> Real note." in out and out.rstrip().endswith("Included.")


def test_bad_pivot_file_and_huge_ranges_do_not_crash(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Malformed zone pivot definitions and absurd line ranges never crash a page."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "zone-pivot-groups.yml", "groups:\n  a: [x, y]\n")
    write(tmp_path, "src/a.txt", "one\ntwo\n")
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess('::: zone pivot="x"\n\nText.\n\n::: zone-end\n\n'
                          ':::code language="text" source="src/a.txt" range="1-999999999999":::\n', page_rel="a.md")
    assert "Text." in out and "one\ntwo" in out
    assert docfx.code_snippet("a\nb\nc", start="2", end="99999999999") == "b\nc"


def test_code_snippet_ranges_are_clamped_to_the_file() -> None:
    """``?range=1-999999999``/``#L1-L99999999`` ask for the whole file, not a list of a
    billion line numbers; repeated ranges stop at the snippet's line limit."""
    code = "a\nb\nc"
    assert docfx.code_snippet(code, ranges="1-999999999") == code
    assert docfx.code_snippet(code, start="2", end="99999999999999") == "b\nc"
    assert docfx.code_snippet(code, ranges="50-60") == ""
    assert docfx.code_snippet(code, ranges="3-1") == code
    many = docfx.code_snippet("x\n" * 50_000, ranges=",".join(["1-50000"] * 500))
    assert many is not None and many.count("\n") < 200_000


def test_include_fan_out_without_cycles_is_bounded(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Ten includes of a file that includes the next file ten times, eight deep, is
    10**8 includes with no cycle: the page stops at the include limit, one warning."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["*.md"]}]}}')
    write(tmp_path, "index.md", "# I\n\n" + "[!INCLUDE [x](includes/f0.md)]\n\n" * 10)
    for i in range(8):
        write(tmp_path, f"includes/f{i}.md", f"x{i}\n\n" + f"[!INCLUDE [x](f{i + 1}.md)]\n\n" * 10)
    write(tmp_path, "includes/f8.md", "leaf\n")
    site = docfx.load(tmp_path, "docfx.json")
    warnings: list[str] = []
    out = site.preprocess((tmp_path / "index.md").read_text(), page_rel="index.md", warnings=warnings)
    assert out.count("x0") + out.count("x1") + out.count("leaf") < 300
    assert sum("later ones not inlined" in w for w in warnings) == 1
    assert len(warnings) <= 2  # one per limit, not one per refused include (1,751)


@pytest.mark.parametrize(("opener", "count"), [("[!INCLUDE [", 20_000), ("<xref:", 40_000)])
def test_unclosed_includes_and_xrefs_are_linear(tmp_path: Path, write: Callable[..., Path], opener: str,
                                                count: int, deadline: Callable[[int, str], Any]) -> None:
    """10,000 ``[!INCLUDE [`` (33 s) or ``<xref:`` (5 s) on one page took that long before:
    each was scanned to the end of the page. The counts here are 2x and 4x that (old code
    not run at these counts: quadratic growth puts them past the 60 s safety net)."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["*.md"]}]}}')
    site = docfx.load(tmp_path, "docfx.json")
    with deadline(60, opener):
        out = site.preprocess("# T\n\n" + opener * count + "\n", page_rel="index.md", warnings=[])
    assert out.count(opener.strip("[")) >= count
    assert "x" in site.preprocess("[!INCLUDE [a \\] b](inc.md)]x\n", page_rel="index.md", warnings=[])


def test_code_snippet_numbers_beyond_int_parsing() -> None:
    """``?range=1-`` with 5,000 digits raised ValueError (Python's 4,300-digit limit:
    the page was lost) and ``²`` (``isdigit`` but not ``int``) did too."""
    code = "a\nb\nc"
    assert docfx.code_snippet(code, ranges="1-" + "9" * 5000) == code
    assert docfx.code_snippet(code, ranges="2-²") == "b"
    assert docfx.code_snippet(code, start="²", end="9" * 5000) == code


def test_included_file_selected_by_content_globs_is_a_page_and_fenced_includes_are_examples(
        tmp_path: Path, write: Callable[..., Path]) -> None:
    """DocFX builds every file its content globs select, included or not; an
    [!INCLUDE] inside a code fence is an example and pulls nothing in."""
    write(tmp_path, "docfx.json", json.dumps({"build": {"content": [
        {"files": ["**/*.md"], "exclude": ["**/includes/**", "shared/**"]}]}}))
    write(tmp_path, "guide.md", "# Guide\n\n[!INCLUDE [common](common.md)]\n\n"
                                "```md\n[!INCLUDE [x](shared/example.md)]\n```\n\n[!INCLUDE [s](shared/real.md)]\n")
    write(tmp_path, "common.md", "# Common\n\nShared steps.\n")
    write(tmp_path, "shared/example.md", "Example only.\n")
    write(tmp_path, "shared/real.md", "Real include.\n")
    site = docfx.load(tmp_path, "docfx.json")
    assert site.classify("common.md").role is FileRole.PAGE
    assert site.classify("shared/real.md").role is FileRole.INCLUDE
    assert site.classify("shared/example.md").role is FileRole.EXCLUDED
    out = site.preprocess((tmp_path / "guide.md").read_text(), page_rel="guide.md", warnings=[])
    assert "Shared steps." in out and "Real include." in out and "[!INCLUDE [x](shared/example.md)]" in out


def test_markdown_image_of_a_video_is_a_video(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """DocFX's Markdown pipeline has Markdig's MediaLinks: ![alt](clip.mp4) renders a
    <video> and ![alt](YouTube/Vimeo link) an <iframe>, not an <img>; other images,
    code spans and fences stay as written."""
    write(tmp_path, "docfx.json", json.dumps({"build": {"content": [{"files": ["**/*.md"]}]}}))
    write(tmp_path, "media/shot.png", png)
    write(tmp_path, "videos/clip.mp4", "not really a video")
    page = ("# P\n\n![The reload working ](./videos/clip.mp4)\n\n![Talk](https://www.youtube.com/watch?v=abc)\n\n"
            "![Shot](media/shot.png)\n\nWrite `![x](y.mp4)` for a video.\n\n```md\n![x](z.mp4)\n```\n")
    write(tmp_path, "p.md", page)
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess(page, page_rel="p.md", warnings=[])
    assert '<video src="./videos/clip.mp4" title="The reload working"></video>' in out
    assert '<iframe src="https://www.youtube.com/watch?v=abc" title="Talk"></iframe>' in out
    assert "![Shot](media/shot.png)" in out and "`![x](y.mp4)`" in out and "\n![x](z.mp4)\n" in out


def test_column_content_is_markdown_at_any_indentation(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Learn's "Columns" syntax indents content under :::column:::; DocFX's NestedColumnParser reads it as
    blocks (the :::image line opens at any indentation). Images indented six spaces in a column, in a
    row inside a numbered step, and a Markdown image in a column were indented code (no image)."""
    from markdown_it import MarkdownIt as _Md

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess(
        "Compare the two recordings.\n\n:::row:::\n   :::column span=\"\":::\n"
        '      :::image type="complex" source="media/off.png" alt-text="Samples off" lightbox="media/off.png":::\n'
        "         A recording with samples off  \n      :::image-end:::  \n   :::column-end:::\n"
        "   :::column span=\"2\":::\n      ![Samples on](media/on.png)\n\n      Text beside it.\n"
        "   :::column-end:::\n:::row-end:::\n\n"
        "1.  Open the tool.\n\n    :::row:::\n       :::column span=\"\":::\n          ![Blurred](media/blur.png)\n"
        "       :::column-end:::\n    :::row-end:::\n\n    Then close it.\n\n1.  Done.\n", page_rel="a.md")
    tokens = _Md("commonmark").parse(out)
    assert not any(t.type == "code_block" for t in tokens)
    assert [src for src, _alt, _title in images(out)] == ["media/off.png", "media/on.png", "media/blur.png"]
    assert [t.type for t in tokens].count("ordered_list_open") == 1 and "Then close it." in out


def test_complex_image_description_is_read_as_text(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A type="complex" long description is Markdown that Learn renders; the caption held its marks
    ("Display using **Blurred Vision** simulation")."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess(':::image type="complex" source="media/b.png" alt-text="Blurred":::\n'
                          "   Display using **Blurred Vision** simulation, see `render` [docs](x.md)\n:::image-end:::\n",
                          page_rel="a.md")
    assert images(out) == [("media/b.png", "Blurred", "Display using Blurred Vision simulation, see render docs")]


def test_complex_images_without_an_end_are_linear(tmp_path: Path, write: Callable[..., Path],
                                                  deadline: Callable[[int, str], Any]) -> None:
    """Each complex image searched the rest of the page for its ':::image-end:::': 40,000
    after the last one took 45 s; now half a second. An image before an end still takes it."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    site = docfx.load(tmp_path, "docfx.json")
    page = (':::image type="complex" source="media/b.png" alt-text="B":::\nLong text.\n:::image-end:::\n\n'
            + ':::image type="complex" source="media/a.png" alt-text="A":::\n\n' * 40_000)
    with deadline(20, "complex images without an end"):
        out = site.preprocess(page, page_rel="a.md")
    assert images(out)[0] == ("media/b.png", "B", "Long text.") and len(images(out)) == 40_001


def test_moniker_zones_show_the_default_view(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A Learn page opened without ``?view=`` shows the newest version it exists in; each
    ``::: moniker range`` zone is shown only when that version is in its range. Every zone was
    kept, so the page read both products' steps and both screenshots."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess(
        "# Settings\n\n::: moniker range=\">=tool-2024\"\nOpen **Preferences** from the gear menu.\n::: moniker-end\n\n"
        "::: moniker range=\"tool-2021\"\nOpen **Options** from the Tools menu.\n\n"
        "![Old dialog](media/2021/dialog.png)\n::: moniker-end\n\n"
        "::: moniker range=\"<=tool-2021\"\nLegacy profiles are kept.\n::: moniker-end\n\n"
        "::: moniker range=\"tool-2024\"\n![New dialog](media/2024/dialog.png)\n::: moniker-end\n\n"
        "::: moniker range=\"tool-2021 || >= other-3.0\"\nShared with the other product.\n::: moniker-end\n\n"
        "```markdown\n::: moniker range=\"tool-2021\"\nAn example stays.\n::: moniker-end\n```\n\nCommon text.\n",
        page_rel="a.md")
    assert "Preferences" in out and "Common text." in out and "Shared with the other product." in out
    assert "Options** from the Tools menu" not in out and "Legacy profiles" not in out
    assert [src for src, _alt, _title in images(out)] == ["media/2024/dialog.png"]
    assert '::: moniker range="tool-2021"\nAn example stays.' in out


def test_moniker_default_view_keeps_to_the_page_range(tmp_path: Path, write: Callable[..., Path]) -> None:
    """The default view of a page is the newest version in the page's own range (front matter
    ``monikerRange``, else ``fileMetadata.monikerRange``, else its content group's
    ``moniker_range``); a product whose versions cannot be ordered keeps every zone."""
    write(tmp_path, "docfx.json", json.dumps({"build": {
        "content": [{"files": ["**/*.md"], "group": "current"}],
        "groups": {"current": {"moniker_range": ">= kit-1.0"}},
        "fileMetadata": {"monikerRange": {"old/**/*.md": "<= kit-1.2"}}}}))
    site = docfx.load(tmp_path, "docfx.json")
    zones = ("::: moniker range=\"kit-1.2\"\nOne two.\n::: moniker-end\n\n"
             "::: moniker range=\">kit-1.2\"\nOne three.\n::: moniker-end\n")
    assert "One three." in site.preprocess(zones, page_rel="new/a.md")
    assert "One two." not in site.preprocess(zones, page_rel="new/a.md")
    old = site.preprocess(zones, page_rel="old/a.md")
    assert "One two." in old and "One three." not in old
    pinned = site.preprocess("---\nmonikerRange: kit-1.2\n---\n" + zones, page_rel="new/b.md")
    assert "One two." in pinned and "One three." not in pinned
    mixed = ("::: moniker range=\"edge-2020-11\"\nYear release.\n::: moniker-end\n\n"
             "::: moniker range=\"edge-1.4\"\nNumbered release.\n::: moniker-end\n\n"
             "::: moniker range=\"cloud-latest\"\nLatest only.\n::: moniker-end\n")
    out = site.preprocess(mixed, page_rel="new/c.md")
    assert "Year release." in out and "Numbered release." in out and "Latest only." in out
    builds = site.preprocess("::: moniker range=\"<hub-1811\"\nBefore 1811.\n::: moniker-end\n\n"
                             "::: moniker range=\">=hub-2008\"\nSince 2008.\n::: moniker-end\n", page_rel="new/d.md")
    assert "Since 2008." in builds and "Before 1811." not in builds


def test_a_page_two_groups_select_shows_the_newest_of_both_ranges(tmp_path: Path,
                                                                   write: Callable[..., Path]) -> None:
    """Visual Studio docs (docfx.json of 2017): groups ``vs-2015`` and ``vs-2017`` (``>= vs-2017``)
    both select ``**/*.md``, so DocFX builds each page in both. The page range was the first group's
    alone (``vs-2015``), so its ``>= vs-2022`` and ``vs-2019`` zones were all dropped: text and
    every screenshot of the current version lost. The page now exists in both ranges, and the
    default view is the newest."""
    write(tmp_path, "docfx.json", json.dumps({"build": {
        "content": [{"files": ["**/*.md"], "group": "vs-2015", "exclude": ["vs-2015/**"]},
                    {"files": ["**/*.md"], "group": "vs-2017"}],
        "groups": {"vs-2015": {"moniker_range": "vs-2015", "dest": "temp2015"},
                   "vs-2017": {"moniker_range": ">= vs-2017"}}}}))
    site = docfx.load(tmp_path, "docfx.json")
    zones = ("::: moniker range=\">= vs-2022\"\nCurrent window.\n::: moniker-end\n"
             "::: moniker range=\"vs-2019\"\nOlder window.\n::: moniker-end\n"
             "::: moniker range=\"vs-2015\"\nOldest window.\n::: moniker-end\n")
    out = site.preprocess(zones, page_rel="debugger/autos.md")
    assert "Current window." in out and "Older window." not in out and "Oldest window." not in out


def test_a_numberless_moniker_others_lie_below_is_the_default_view(tmp_path: Path,
                                                                   write: Callable[..., Path]) -> None:
    """A moniker without a version number that ranges bound from above (``range="< cloudsvc"``)
    is the newest of its line, the cloud service over its server releases: the default view
    shows its zones and hides the ``<`` ones, unless the page's own range leaves it out. Both
    zones were kept, so every paragraph written twice (service, server) was read twice."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    site = docfx.load(tmp_path, "docfx.json")
    zones = ("::: moniker range=\"cloudsvc\"\nInvite users from the portal.\n::: moniker-end\n\n"
             "::: moniker range=\"< cloudsvc\"\nAdd users to the server group.\n::: moniker-end\n\n"
             "::: moniker range=\"<=cloudsvc\"\nBoth kinds of users sign in.\n::: moniker-end\n\n"
             "::: moniker range=\">= cloudsvc-server-2020\"\nSince the 2020 server.\n::: moniker-end\n")
    out = site.preprocess(zones, page_rel="a.md")
    assert "Invite users" in out and "Both kinds" in out and "Since the 2020 server." in out
    assert "server group" not in out
    server = site.preprocess("---\nmonikerRange: '< cloudsvc'\n---\n" + zones, page_rel="b.md")
    assert "server group" in server and "Both kinds" in server and "Invite users" not in server
    newer = site.preprocess(zones + "::: moniker range=\"> cloudsvc\"\nNext.\n::: moniker-end\n", page_rel="c.md")
    assert "Invite users" in newer and "server group" in newer  # order unknown: every zone kept
    only = site.preprocess("::: moniker range=\"cloud-latest\"\nLatest only.\n::: moniker-end\n", page_rel="d.md")
    assert "Latest only." in only
    # its numbered releases lie below it: a zone for releases only is not the service's view,
    # and is the view of a page for the releases
    spans = ("::: moniker range=\">= cloudsvc-2019 < cloudsvc\"\nServer 2019 and later.\n::: moniker-end\n\n"
             "::: moniker range=\"<= cloudsvc-2020\"\nUp to server 2020.\n::: moniker-end\n\n"
             "::: moniker range=\"cloudsvc\"\nService.\n::: moniker-end\n")
    top = site.preprocess(spans, page_rel="e.md")
    assert "Service." in top and "Server 2019" not in top and "Up to server 2020" not in top
    servers = site.preprocess("---\nmonikerRange: '>= cloudsvc-2019 < cloudsvc'\n---\n" + spans, page_rel="f.md")
    assert "Server 2019 and later." in servers and "Service." not in servers


def test_content_group_of_an_older_version_is_not_the_default_page(tmp_path: Path,
                                                                   write: Callable[..., Path]) -> None:
    """DocFX content ``groups`` with a ``moniker_range`` publish versions of one page from two
    folders at one URL; the default view shows the newest, so the older folder's twin is reported,
    not read. An older-version page without a twin is still a page (Learn shows that version)."""
    write(tmp_path, "docfx.json", json.dumps({"build": {
        "content": [{"files": ["**/*.md"], "src": "./v1", "group": "old"},
                    {"files": ["**/*.md"], "exclude": ["v1/**"], "group": "new"}],
        "groups": {"old": {"moniker_range": "app-1"}, "new": {"moniker_range": ">= app-2"}}}}))
    write(tmp_path, "v1/setup/install.md", "# Install (version 1)\n")
    write(tmp_path, "v1/setup/legacy.md", "# Only in version 1\n")
    write(tmp_path, "setup/install.md", "# Install\n")
    site = docfx.load(tmp_path, "docfx.json")
    old = site.classify("v1/setup/install.md")
    assert old.role is FileRole.EXCLUDED and "setup/install.md" in old.reason
    assert site.classify("v1/setup/legacy.md").role is FileRole.PAGE
    assert site.classify("setup/install.md").role is FileRole.PAGE


def test_content_version_names_its_files_moniker(tmp_path: Path, write: Callable[..., Path]) -> None:
    """``"version"`` on a content entry is DocFX's older name of ``"group"`` (FileMappingItem.GroupName
    = group ?? version); a Learn docset versions its content with it, the name being the files'
    moniker. Two versions publishing one URL: the default view shows the newest, so the older twin is
    reported, not read; an older page without a twin, or with one at another ``dest``, stays a page;
    a ``groups`` range still wins."""
    write(tmp_path, "docfx.json", json.dumps({"build": {
        "content": [{"files": ["**/*.md"], "src": "docs/tool-2.0", "version": "tool-2.0", "dest": "tool"},
                    {"files": ["**/*.md"], "src": "docs/tool-3.0", "version": "tool-3.0", "dest": "tool"},
                    {"files": ["**/*.md"], "src": "docs/kit-1", "version": "kitv1"},
                    {"files": ["**/*.md"], "src": "docs/kit-2", "version": "kitv2"},
                    {"files": ["**/*.md"], "src": "docs/app-1", "version": "app-1", "dest": "v1"},
                    {"files": ["**/*.md"], "src": "docs/app-2", "version": "app-2", "dest": "v2"}],
        "groups": {"kitv1": {"moniker_range": ">= kit-5"}, "kitv2": {"moniker_range": "kit-4"}}}}))
    for rel in ("docs/tool-2.0/overview.md", "docs/tool-2.0/archive.md", "docs/tool-3.0/overview.md",
                "docs/kit-1/a.md", "docs/kit-2/a.md", "docs/app-1/a.md", "docs/app-2/a.md"):
        write(tmp_path, rel, "# Page\n")
    site = docfx.load(tmp_path, "docfx.json")
    old = site.classify("docs/tool-2.0/overview.md")
    assert old.role is FileRole.EXCLUDED and "docs/tool-3.0/overview.md" in old.reason
    assert site.classify("docs/tool-2.0/archive.md").role is FileRole.PAGE
    assert site.classify("docs/tool-3.0/overview.md").role is FileRole.PAGE
    assert site.classify("docs/kit-1/a.md").role is FileRole.PAGE
    assert site.classify("docs/kit-2/a.md").role is FileRole.EXCLUDED
    assert site.classify("docs/app-1/a.md").role is FileRole.PAGE  # another dest: another URL


def test_zones_for_other_targets_are_not_on_the_docs_page(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Learn shows ``::: zone target="docs"`` content on the site; ``target="chromeless"`` zones are
    for the page embedded in a product (the Azure portal) and ``target="pdf"`` for the PDF (DocFX's
    ZoneExtension writes data-target). Both targets were read, so a page had two titles and a
    chromeless '## [Backup](#tab/backup)' heading read as a tab. Also inside an include."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "includes/more.md", '::: zone target="chromeless"\n\nPortal only.\n\n::: zone-end\n\nShared.\n')
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess(
        '::: zone target="docs"\n\n# Guide: protect your data\n\n::: zone-end\n\n'
        '::: zone target="chromeless"\n\n# Protect your data\n\n::: zone-end\n\nIntro text.\n\n'
        '::: zone target="docs"\n\n## Backup\n\n::: zone-end\n::: zone target="chromeless"\n\n'
        '## [Backup](#tab/backup)\n\n::: zone-end\n\nBackup text.\n\n::: zone target="pdf"\n\nPrint only.\n\n'
        "::: zone-end\n\n[!INCLUDE [more](includes/more.md)]\n\n"
        '```markdown\n::: zone target="chromeless"\nExample stays.\n::: zone-end\n```\n', page_rel="a.md")
    assert "# Guide: protect your data" in out and "## Backup" in out and "Intro text." in out
    assert "# Protect your data" not in out and "#tab/backup" not in out and "Print only." not in out
    assert "Portal only." not in out and "Shared." in out
    assert '::: zone target="chromeless"\nExample stays.' in out


def test_a_hidden_zone_never_closed_is_reported(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A hidden ``::: zone target="pdf"`` or ``::: moniker`` zone without its ``-end`` line runs to
    the end of the page (DocFX's TripleColonBlockParser keeps the block open, with the warning
    'No "::: zone-end" found'): the rest of the page was dropped without a word."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    site = docfx.load(tmp_path, "docfx.json")
    warnings: list[str] = []
    out = site.preprocess("# Print\n\nShown.\n\n::: zone target=\"pdf\"\nFor the PDF.\n\nAnd the rest.\n",
                          page_rel="a.md", warnings=warnings)
    assert "Shown." in out and "For the PDF." not in out and "And the rest." not in out
    expected = ('::: zone on line 5 has no "::: zone-end": the rest of the page is in the zone and hidden '
                "(DocFX: blocks should be explicitly closed)")
    assert [w for w in warnings if "zone-end" in w] == [expected]
    warnings.clear()
    out = site.preprocess("# V\n\n::: moniker range=\">= kit-2\"\nNew.\n::: moniker-end\n\n"
                          "::: moniker range=\"kit-1\"\nOld.\n\nTail.\n", page_rel="a.md", warnings=warnings)
    assert "New." in out and "Tail." not in out
    assert sum('no "::: moniker-end"' in w for w in warnings) == 1
    warnings.clear()
    site.preprocess("# Closed\n\n::: zone target=\"pdf\"\nx\n::: zone-end\n\nEnd.\n", page_rel="a.md", warnings=warnings)
    assert warnings == []


def test_learn_faq_yaml_is_a_page_of_questions(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """A ``.yml`` the content globs select that starts ``### YamlMime:FAQ`` is a Learn
    structured FAQ article (title, summary, sections of question/answer Markdown); it was
    skipped with the TOCs. It reads as the page Learn shows: a heading per section and
    question, the answers' Markdown (includes, images) as on any page."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md", "**/*.yml"]}]}}')
    write(tmp_path, "toc.yml", "- name: FAQ\n  href: faq.yml\n")
    write(tmp_path, "media/distro.png", png)
    write(tmp_path, "includes/arm.md", "Arm CPUs too.\n")
    write(tmp_path, "faq.yml", (
        "### YamlMime:FAQ\nmetadata:\n  title: FAQ's about WSL\n  ms.topic: faq\n"
        "title: Frequently Asked Questions about WSL\nsummary: |\n  Answers to common questions.\n\n"
        "sections:\n  - name: General\n    questions:\n      - question: |\n         What can I do with WSL?\n"
        "        answer: |\n          Run Linux tools:\n\n          ![Distro details](media/distro.png)\n\n"
        "      - question: |\n         What processors does WSL support?\n"
        "        answer: \n         WSL supports x64. [!INCLUDE [arm](includes/arm.md)]\n"))
    site = docfx.load(tmp_path, "docfx.json")
    assert site.classify("faq.yml").role is FileRole.PAGE and site.classify("toc.yml").role is FileRole.EXCLUDED
    doc = converter_for("markdown")(tmp_path / "faq.yml", site=site, assets_dir=tmp_path / "_assets")
    assert doc.title == "Frequently Asked Questions about WSL"
    assert [(s.heading_path[1:], s.text) for s in doc.sections] == [
        ((), "Answers to common questions."),
        (("General",), ""),
        (("General", "What can I do with WSL?"), "Run Linux tools:"),
        (("General", "What processors does WSL support?"), "WSL supports x64. Arm CPUs too.")]
    assert [m.path for m in doc.media if isinstance(m, ImageItem)] == ["media/distro.png"]


def test_learn_training_units_and_modules_are_pages(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Learn training content is YAML: a ``### YamlMime:ModuleUnit`` file is a unit page
    (its title, its ``content`` Markdown, usually one ``[!include[]]`` of the unit's text,
    then its quiz questions and choices); a ``### YamlMime:Module`` file is the module's
    overview (title, summary, abstract, prerequisites). Both were skipped as YAML, and the
    unit text lived only in excluded ``includes/``, so a module read as nothing."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md", "**/*.yml"], '
                                  '"exclude": ["**/includes/**"]}]}}')
    write(tmp_path, "m/media/chart.png", png)
    write(tmp_path, "m/includes/cloud.md", "Cloud computing is renting compute.\n\n"
                                           "## Models\n\n![Chart.](../media/chart.png)\n")
    write(tmp_path, "m/index.yml", (
        "### YamlMime:Module\nuid: learn.m\nmetadata:\n  title: Intro\ntitle: Introduction to Azure\n"
        "summary: The basics of Azure.\nabstract: |\n  In this module, you will:\n  - Describe cloud computing\n"
        "prerequisites: |\n  - Basic computing concepts\nunits:\n- learn.m.cloud\n"))
    write(tmp_path, "m/cloud.yml", (
        "### YamlMime:ModuleUnit\nuid: learn.m.cloud\ntitle: What is cloud computing?\nmetadata:\n"
        "  title: What is cloud computing?\ndurationInMinutes: 10\ncontent: |\n  [!include[](includes/cloud.md)]\n"
        "quiz:\n  title: Check your knowledge\n  questions:\n    - content: \"What is Azure?\"\n      choices:\n"
        "        - content: \"A cloud platform\"\n          isCorrect: true\n          explanation: \"Yes.\"\n"))
    site = docfx.load(tmp_path, "docfx.json")
    assert site.classify("m/cloud.yml").role is FileRole.PAGE and site.classify("m/index.yml").role is FileRole.PAGE
    assert site.classify("m/includes/cloud.md").role is FileRole.INCLUDE
    convert = converter_for("markdown")
    unit = convert(tmp_path / "m/cloud.yml", site=site, assets_dir=tmp_path / "_assets")
    assert [(s.heading_path, s.text) for s in unit.sections] == [
        (("What is cloud computing?",), "Cloud computing is renting compute."),
        (("What is cloud computing?", "Models"), ""),
        (("What is cloud computing?", "Check your knowledge"), ""),
        (("What is cloud computing?", "Check your knowledge", "What is Azure?"), "A cloud platform")]
    assert [m.path for m in unit.media if isinstance(m, ImageItem)] == ["m/media/chart.png"]
    module = convert(tmp_path / "m/index.yml", site=site, assets_dir=tmp_path / "_assets")
    assert [(s.heading_path, s.text) for s in module.sections] == [
        (("Introduction to Azure",), "The basics of Azure.\n\nIn this module, you will:\n\nDescribe cloud computing"),
        (("Introduction to Azure", "Prerequisites"), "Basic computing concepts")]


def test_architecture_center_articles_are_pages(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """The Azure Architecture Center writes each article as ``### YamlMime:Architecture``
    (``name``: the H1; ``content``: an include of ``<article>-content.md``, which the
    content globs exclude). The .yml was skipped and the -content.md was 'not selected':
    every article was missing. It reads as ``# name`` and the content; the -content.md is
    known as an include."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md", "**/*.yml"], '
                                  '"exclude": ["**/includes/**", "**/**/*-content.md"]}]}}')
    write(tmp_path, "ai/media/arch.png", png)
    write(tmp_path, "ai/call-center-content.md", (
        "This article describes call center analytics.\n\n## Architecture\n\n"
        ':::image type="content" source="./media/arch.png" alt-text="Diagram of the architecture.":::\n'))
    write(tmp_path, "ai/call-center.yml", (
        "### YamlMime:Architecture\nmetadata:\n  title: Extract and analyze call center data by using Azure OpenAI\n"
        "  ms.topic: conceptual\nazureCategories:\n  - analytics\nname: Extract and analyze call center data\n"
        "summary: Learn how to extract insights.\ncontent: |\n   [!include[](call-center-content.md)]\n"))
    site = docfx.load(tmp_path, "docfx.json")
    assert site.classify("ai/call-center.yml").role is FileRole.PAGE
    assert site.classify("ai/call-center-content.md").role is FileRole.INCLUDE
    doc = converter_for("markdown")(tmp_path / "ai/call-center.yml", site=site, assets_dir=tmp_path / "_assets")
    assert doc.title == "Extract and analyze call center data"
    assert [(s.heading_path[1:], s.text) for s in doc.sections] == [
        ((), "This article describes call center analytics."), (("Architecture",), "")]
    assert [m.path for m in doc.media if isinstance(m, ImageItem)] == ["ai/media/arch.png"]


def test_learn_yaml_tutorial_steps_are_sections(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A ``### YamlMime:Tutorial`` page is a title and ``items`` (steps), each a ``title``
    and its ``content`` Markdown (often an include); it was skipped as YAML."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md", "**/*.yml"], '
                                  '"exclude": ["**/includes/**"]}]}}')
    write(tmp_path, "t/includes/01-exercise.md", "Create the resource group.\n")
    write(tmp_path, "t/app.yml", (
        "### YamlMime:Tutorial\ntitle: Build an app\nmetadata:\n  title: Build an app\n  level: Intermediate\n"
        "items:\n  - title: |\n      Overview\n    durationInMinutes: 2\n    content: |\n      You build a web app.\n"
        "  - title: |\n      Exercise\n    durationInMinutes: 10\n    content: |\n"
        "      [!INCLUDE [](includes/01-exercise.md)]\n"))
    site = docfx.load(tmp_path, "docfx.json")
    doc = converter_for("markdown")(tmp_path / "t/app.yml", site=site, assets_dir=tmp_path / "_assets")
    assert [(s.heading_path, s.text) for s in doc.sections] == [
        (("Build an app",), ""), (("Build an app", "Overview"), "You build a web app."),
        (("Build an app", "Exercise"), "Create the resource group.")]


def test_tabs_inside_a_list_step_are_tabs_of_the_step(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Learn writes tabs inside numbered steps (the tab headings indented with the
    step's content, closed by an indented ``---`` or the step's end; DocFX groups the
    tab headings of any container). They were headings of the page, so every later
    section hung under the last tab's label ('Azure Container Apps > Next steps')."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "media/fa.png", png)
    write(tmp_path, "a.md", (
        "# Configure\n\n## Assign the identity\n\n1. Get the resource ID.\n\n1. Assign the identity to app.\n\n"
        "    # [Durable Functions](#tab/df)\n\n    Run the functionapp command.\n\n    ![](media/fa.png)\n\n"
        "    # [Azure Container Apps](#tab/aca)\n\n    Run the containerapp command.\n\n    ---\n\n"
        "1. Restart the app.\n\n## Next steps\n\nDebug the app.\n"))
    site = docfx.load(tmp_path, "docfx.json")
    doc = converter_for("markdown")(tmp_path / "a.md", site=site, assets_dir=tmp_path / "_assets")
    assert [s.heading_path for s in doc.sections] == [
        ("Configure",), ("Configure", "Assign the identity"), ("Configure", "Next steps")]
    text = doc.sections[1].text
    assert "Durable Functions\n\nRun the functionapp command." in text and "Restart the app." in text
    assert [(m.tab, m.tab_set) for m in doc.media if isinstance(m, ImageItem)] == [
        ("Durable Functions", ("Durable Functions", "Azure Container Apps"))]


def test_inline_include_text_has_no_edge_spaces(tmp_path: Path, write: Callable[..., Path]) -> None:
    """An [!INCLUDE] inside a sentence is inline content (DocFX InclusionInline): the
    spaces and line end around the included file's text are not part of the sentence.
    SQL docs' product-name includes (' Transact-SQL ', front matter then ' SQL Server
    Management Studio \\n') read 'by using ... Studio or Transact-SQL .'; a block include
    (alone on its line, in a list step too) keeps its lines."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"], "exclude": ["**/includes/**"]}]}}')
    write(tmp_path, "includes/tsql-md.md", " Transact-SQL ")
    write(tmp_path, "includes/ssms-md.md", "---\nms.topic: include\n---\n SQL Server Management Studio \n")
    write(tmp_path, "includes/steps.md", "Sign in.\n\nOpen the portal.\n")
    write(tmp_path, "a.md", (
        "# Create tables\n\nUse [!INCLUDE[ssms](includes/ssms-md.md)] or [!INCLUDE[tsql](includes/tsql-md.md)].\n\n"
        "1. [!INCLUDE[steps](includes/steps.md)]\n"))
    site = docfx.load(tmp_path, "docfx.json")
    doc = converter_for("markdown")(tmp_path / "a.md", site=site, assets_dir=tmp_path / "_assets")
    assert doc.sections[0].text == ("Use SQL Server Management Studio or Transact-SQL.\n\nSign in.\n\n"
                                    "Open the portal.")


def test_backslash_paths_are_folders(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """DocFX splits a file path at '\\' as at '/' (Docfx.Common RelativePath): a page written on
    Windows links '..\\compositor\\media\\asset.png'; an include does so too, and its links are
    rebased to the page with '/'. Both were left unresolved."""
    write(tmp_path, "docfx.json", json.dumps({"build": {"content": [{"files": ["manual/**/*.md"]}]}}))
    write(tmp_path, "manual/compositor/media/asset.png", png)
    write(tmp_path, "includes/media/pan.png", png)
    write(tmp_path, "includes/nav.md", "Pan the camera.\n\n![pan](media\\pan.png)\n")
    site = docfx.load(tmp_path, "docfx.json")
    res = site.resolve_asset("..\\compositor\\media\\asset.png", page_rel="manual/lights/probes.md")
    assert res.rel_path == "manual/compositor/media/asset.png"
    out = site.preprocess("# Probes\n\n[!INCLUDE [nav](..\\..\\includes\\nav.md)]\n", page_rel="manual/lights/probes.md")
    assert "Pan the camera." in out
    assert images(out) == [("../../includes/media/pan.png", "pan", "")]


def test_file_links_resolve_without_regard_to_case(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """DocFX resolves a file link without regard to case (v3, Learn's build: "media/ImAGe.PNG"
    is media/image.png; v2 reads a Windows file system): a page links "dialog-v2.PNG" for the
    file dialog-v2.png, an include is named in other capitals; both were "file not found".
    The exact name wins when both exist; a path leaving the root stays unresolved."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"], "exclude": ["**/includes/**"]}]}}')
    write(tmp_path, "Media/Share/dialog-v2.png", png)
    write(tmp_path, "shots/exact.PNG", png)
    write(tmp_path, "shots/exact.png", png)
    write(tmp_path, "includes/prod_short.md", "Contoso Books\n")
    site = docfx.load(tmp_path, "docfx.json")
    assert site.resolve_asset("media/share/dialog-v2.PNG", page_rel="a.md").rel_path == "Media/Share/dialog-v2.png"
    assert site.resolve_asset("media/share/dialog-v2.PNG", page_rel="a.md").problem is None
    assert site.resolve_asset("shots/exact.PNG", page_rel="a.md").rel_path == "shots/exact.PNG"
    assert site.resolve_asset("media/missing.png", page_rel="a.md").problem
    assert site.resolve_asset("../Media/Share/dialog-v2.png", page_rel="a.md").rel_path != "Media/Share/dialog-v2.png"
    out = site.preprocess("# A\n\nUse [!INCLUDE[prod](includes/Prod_Short.md)].\n", page_rel="a.md")
    assert "Use Contoso Books." in out


def test_video_alert_is_a_video_whatever_its_url(tmp_path: Path, write: Callable[..., Path]) -> None:
    """``> [!VIDEO url]`` embeds a video player (DocFX "Video"), whatever the URL: Business
    Central's ``> [!Video https://go.microsoft.com/fwlink/?linkid=2086039]`` (a redirect to the
    player) was an <iframe> the builder did not take for a video, so the page had none; a
    player URL stays an <iframe>."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import VideoItem

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "a.md", "# Excel\n\n## Options\n\n> [!Video https://go.microsoft.com/fwlink/?linkid=2086039]\n\n"
                            "## Player\n\n> [!VIDEO https://learn-video.azurefd.net/vod/player?id=x]\n")
    site = docfx.load(tmp_path, "docfx.json")
    assert '<iframe src="https://learn-video.azurefd.net/vod/player?id=x"></iframe>' in site.preprocess(
        (tmp_path / "a.md").read_text(), page_rel="a.md")
    doc = converter_for("markdown")(tmp_path / "a.md", site=site, assets_dir=tmp_path / "_assets")
    assert [(m.url, m.section_id == doc.sections[i].id) for i, m in ((1, doc.media[0]), (2, doc.media[1]))
            if isinstance(m, VideoItem)] == [("https://go.microsoft.com/fwlink/?linkid=2086039", True),
                                             ("https://learn-video.azurefd.net/vod/player?id=x", True)]


def test_video_alert_with_a_learn_video_id(tmp_path: Path, write: Callable[..., Path]) -> None:
    """``> [!VIDEO fd4468f4-...]`` names a Microsoft Learn video by its id (Power Automate's
    trigger conditions page): it is that video's player, not a file beside the page (it was an
    <iframe> of the bare id, no video, then a 'file not found' video)."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import VideoItem

    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "a.md", "# Triggers\n\n> [!VIDEO fd4468f4-6d56-499e-98d0-4d98086cf9d5]\n")
    site = docfx.load(tmp_path, "docfx.json")
    doc = converter_for("markdown")(tmp_path / "a.md", site=site, assets_dir=tmp_path / "_assets")
    assert [m.url for m in doc.media if isinstance(m, VideoItem)] == [
        "https://learn-video.azurefd.net/vod/player?id=fd4468f4-6d56-499e-98d0-4d98086cf9d5"]
    assert not doc.warnings


def test_case_insensitive_lookup_reads_only_folder_listings(tmp_path: Path, write: Callable[..., Path],
                                                          png: bytes) -> None:
    """The case-insensitive match of a missing file never asks the system about the name as
    written: a name too long for it, or holding a NUL, made the lookup raise; an exact
    folder name wins over its other-case twin."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "Media/x.png", png)
    write(tmp_path, "media/Y.png", png)
    site = docfx.load(tmp_path, "docfx.json")
    assert site.resolve_asset("media/" + "a" * 300 + ".png", page_rel="a.md").problem
    assert site.resolve_asset("me\x00dia/y.png", page_rel="a.md").problem
    assert site.resolve_asset("media/y.PNG", page_rel="a.md").rel_path == "media/Y.png"


def test_root_relative_links_under_a_base_path_of_several_segments(tmp_path: Path, write: Callable[..., Path],
                                                                  png: bytes) -> None:
    """Learn publishes a docset under a base path set outside the repository, often two
    segments deep (the Azure DevOps docs at ``/azure/devops/``): an include's
    ``/azure/devops/_img/icons/edit.png`` is the docset's ``_img/icons/edit.png``."""
    write(tmp_path, "docs/docfx.json", json.dumps({"build": {
        "content": [{"files": ["**/*.md"], "exclude": ["**/_shared/**"]}],
        "resource": [{"files": ["**/*.png"]}],
        "globalMetadata": {"breadcrumb_path": "~/breadcrumb/toc.yml"}}}))
    write(tmp_path, "docs/_img/icons/edit.png", png)
    write(tmp_path, "docs/boards/media/form.png", png)
    write(tmp_path, "docs/boards/_shared/tip.md", "Choose ![ ](/azure/devops/_img/icons/edit.png) **Edit**.\n\n"
                                                  "![Form](/azure/devops/boards/media/form.png)\n")
    write(tmp_path, "docs/boards/page.md", "# Page\n\n[!INCLUDE [tip](_shared/tip.md)]\n")
    site = docfx.load(tmp_path, "docs/docfx.json")
    page = "docs/boards/page.md"
    assert site.resolve_asset("/azure/devops/_img/icons/edit.png", page_rel=page).rel_path == "docs/_img/icons/edit.png"
    assert site.resolve_asset("/azure/devops/boards/media/form.png", page_rel=page).rel_path == \
        "docs/boards/media/form.png"
    assert site.resolve_asset("/azure/devops/boards/media/none.png", page_rel=page).problem
    # a folder of the docset named first is a path in the docset, not a base path
    assert site.resolve_asset("/boards/media/form.png", page_rel=page).rel_path == "docs/boards/media/form.png"
    warnings: list[str] = []
    out = site.preprocess((tmp_path / page).read_text(), page_rel=page, warnings=warnings)
    assert not warnings and "/azure/devops/boards/media/form.png" in out


def test_a_numberless_newest_view_lies_above_another_line(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Azure DevOps docs (2019-2022): zones for the service (``azure-devops``, above the server
    releases by ``< azure-devops``) sit next to zones for TFS, the server's older name
    (``<= tfs-2018``). The page's one view is the service, above every moniker of the list: the
    TFS-only zones were each read at tfs-2018 and kept, so the old steps and screenshots were
    read along with the service's; ``>= tfs-2017`` (through the service) stays."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    site = docfx.load(tmp_path, "docfx.json")
    zones = ("::: moniker range=\">= azure-devops-2019\"\nOpen **Project settings**.\n\n"
             "![Settings](media/settings-vert.png)\n::: moniker-end\n\n"
             "::: moniker range=\"<= tfs-2018\"\nOpen the gear menu.\n\n![Gear](media/gear-tfs.png)\n"
             "::: moniker-end\n\n"
             "::: moniker range=\"tfs-2018 || azure-devops-2019\"\nGrant report permissions.\n::: moniker-end\n\n"
             "::: moniker range=\">= tfs-2017\"\nThe new form.\n::: moniker-end\n\n"
             "::: moniker range=\"azure-devops\"\nInvite users.\n::: moniker-end\n\n"
             "::: moniker range=\"< azure-devops\"\nAdd domain users.\n::: moniker-end\n")
    out = site.preprocess(zones, page_rel="a.md")
    assert "Project settings" in out and "The new form." in out and "Invite users." in out
    assert "gear menu" not in out and "report permissions" not in out and "domain users" not in out
    assert [src for src, _alt, _title in images(out)] == ["media/settings-vert.png"]
    # a page for the server releases only keeps reading each line at its own newest version
    server = site.preprocess("---\nmonikerRange: '< azure-devops'\n---\n" + zones, page_rel="b.md")
    assert "gear menu" in server and "domain users" in server and "Invite users." not in server


def test_the_newest_moniker_of_the_docset_is_the_view_of_every_page(tmp_path: Path, write: Callable[..., Path]) -> None:
    """The order of monikers is the docset's (one list in Learn's moniker service): when one file of
    the docset writes ``< azure-devops``, the service is the newest moniker on every page, also on a
    page that pairs ``>= azure-devops-2019`` with ``<= tfs-2018`` and names the service nowhere; both
    were read (each line at its own newest release), so the TFS steps and screenshots doubled the
    current ones. A zone written in fenced code is an example, not a range of the docset."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    write(tmp_path, "users.md", "# Users\n\n::: moniker range=\"< azure-devops\"\nAdd domain users.\n::: moniker-end\n")
    page = ("# Bugs\n\n::: moniker range=\">= azure-devops-2019\"\n![Board](media/board-vert.png)\n::: moniker-end\n\n"
            "::: moniker range=\"<= tfs-2018\"\n![Board](media/board-tfs.png)\n::: moniker-end\n\n"
            "::: moniker range=\">= tfs-2017\"\nThe new form.\n::: moniker-end\n")
    write(tmp_path, "bugs.md", page)
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess(page, page_rel="bugs.md")
    assert [src for src, _alt, _title in images(out)] == ["media/board-vert.png"] and "The new form." in out
    # without a file that bounds it, the order is unknown: both lines are read, as before
    (tmp_path / "users.md").write_text("# Users\n\n```markdown\n::: moniker range=\"< azure-devops\"\n```\n")
    again = docfx.load(tmp_path, "docfx.json").preprocess(page, page_rel="bugs.md")
    assert [src for src, _alt, _title in images(again)] == ["media/board-vert.png", "media/board-tfs.png"]


def test_a_moniker_range_shown_as_code_is_no_range_of_the_docset(tmp_path: Path, write: Callable[..., Path]) -> None:
    """The docset's moniker order was read by a regex over the whole of each file: a
    ``monikerRange: '< azure-devops'`` shown in a fenced code example (or a zone marker with
    mismatched quotes, which is no zone) made the service the newest moniker of every page, so
    a page's TFS-only zones were dropped. Only the front matter's ``monikerRange`` and the zones
    outside fenced code (written as the page reads them) order the docset."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    page = ("# Bugs\n\n::: moniker range=\">= azure-devops-2019\"\n![Board](media/board-vert.png)\n::: moniker-end\n\n"
            "::: moniker range=\"<= tfs-2018\"\n![Board](media/board-tfs.png)\n::: moniker-end\n")
    write(tmp_path, "bugs.md", page)
    both = ["media/board-vert.png", "media/board-tfs.png"]
    for example in ("# Versions\n\n```yaml\n---\nmonikerRange: '< azure-devops'\n---\n```\n",
                    "# Versions\n\n::: moniker range=\"< azure-devops'\nA typo.\n::: moniker-end\n"):
        (tmp_path / "users.md").write_text(example)
        out = docfx.load(tmp_path, "docfx.json").preprocess(page, page_rel="bugs.md")
        assert [src for src, _alt, _title in images(out)] == both, example
    # the front matter's own range still orders the docset
    (tmp_path / "users.md").write_text("---\nmonikerRange: '< azure-devops'\n---\n# Users\n")
    out = docfx.load(tmp_path, "docfx.json").preprocess(page, page_rel="bugs.md")
    assert [src for src, _alt, _title in images(out)] == ["media/board-vert.png"]


def test_a_lone_numberless_moniker_beside_a_capped_line_is_the_newest(tmp_path: Path,
                                                                       write: Callable[..., Path]) -> None:
    """Visual Studio docs: Visual Studio 2026's moniker is ``visualstudio``, written beside
    ``<= vs-2022`` zones and never as ``< visualstudio``. A range ``<= vs-2022`` (the line's newest
    release) leaves out only what lies above it in the docset's list, and the one moniker without a
    number is it: the default view (Learn opens such pages at Visual Studio 2026). Both versions'
    screenshots were read (``visualstudio`` unordered, ``vs-2022`` the newest), doubling each step.
    A page whose own range leaves it out (``monikerRange: vs-2022``) keeps its line's newest; with
    a second numberless moniker (another product's) the order is unknown and every zone is kept."""
    write(tmp_path, "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}}')
    page = ("# Compare\n\n:::moniker range=\"visualstudio\"\n\n"
            ":::image type=\"content\" source=\"media/visualstudio/compare.png\" alt-text=\"New.\":::\n\n"
            ":::moniker-end\n\n:::moniker range=\"vs-2022\"\n\n![Old.](media/vs-2022/compare.png)\n\n"
            ":::moniker-end\n\n::: moniker range=\"<=vs-2022\"\nOld steps.\n::: moniker-end\n\n"
            "::: moniker range=\">=vs-2022\"\nCurrent steps.\n::: moniker-end\n")
    write(tmp_path, "compare.md", page)
    older = ("---\nmonikerRange: vs-2022\n---\n# Chat\n\n::: moniker range=\"vs-2022\"\nChat 2022.\n::: moniker-end\n\n"
             "::: moniker range=\"vs-2019\"\nChat 2019.\n::: moniker-end\n")
    write(tmp_path, "chat.md", older)
    site = docfx.load(tmp_path, "docfx.json")
    out = site.preprocess(page, page_rel="compare.md")
    assert "media/visualstudio/compare.png" in out and "media/vs-2022/compare.png" not in out
    assert "Current steps." in out and "Old steps." not in out
    chat = site.preprocess(older, page_rel="chat.md")
    assert "Chat 2022." in chat and "Chat 2019." not in chat
    write(tmp_path, "sql.md", "# SQL\n\n::: moniker range=\"azuresqldb-current\"\nAzure.\n::: moniker-end\n")
    again = docfx.load(tmp_path, "docfx.json").preprocess(page, page_rel="compare.md")
    assert "media/visualstudio/compare.png" in again and "media/vs-2022/compare.png" in again


def test_an_include_reference_definition_is_relative_to_the_include(tmp_path: Path, write: Callable[..., Path],
                                                                     png: bytes) -> None:
    """Visual Studio docs' container quickstart include (``includes/vs-2019/container-tools.md``) draws
    ``![Create registry][0]`` with ``[0]: ../../media/hosting/registry.png`` at its end: DocFX reads an
    include as a document of its own, so a link reference definition is relative to the include, as
    its inline links are. It was left as written and resolved from the page, outside the docset."""
    write(tmp_path, "docs/docfx.json", json.dumps(DOCFX))
    write(tmp_path, "docs/containers/media/hosting/registry.png", png)
    write(tmp_path, "docs/containers/includes/vs-2019/tools.md",
          "1. Fill in the values.\n\n    ![Create registry][0]\n\n[0]: ../../media/hosting/registry.png\n")
    page = "# Docker\n\n[!include[Tools](includes/vs-2019/tools.md)]\n"
    write(tmp_path, "docs/containers/tools.md", page)
    out = docfx.load(tmp_path, "docs/docfx.json").preprocess(page, page_rel="docs/containers/tools.md")
    assert "[0]: media/hosting/registry.png" in out
    md = MarkdownIt("commonmark")
    assert 'src="media/hosting/registry.png"' in md.render(out)
