"""Hugo, Relearn / hugo-theme-learn sites: the ``resources`` and ``attachments`` shortcodes
show a box listing the page's files (a download page often holds nothing else)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from murar.ingest.corpus import convert_file
from murar.ingest.sites import hugo


def test_resources_and_attachments_list_the_pages_files(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hugo-theme-relearn"\n')
    write(tmp_path, "content/dl/index.md",
          '+++\ntitle = "Downloads"\n[[resources]]\n  src = "tool.zip"\n  title = "The tool"\n+++\n\n'
          '{{% resources title="Related **files**" pattern=".*\\.(pdf|zip)" /%}}\n\n'
          '{{% resources sort="desc" style="info" /%}}\n\n{{% resources title=" " pattern="^guide" /%}}\n\n'
          '{{% resources pattern="(a+)+$" /%}}\n')
    for name in ("guide.pdf", "tool.zip", "notes.txt"):
        write(tmp_path, f"content/dl/{name}", "x")
    write(tmp_path, "content/old/index.en.md", '+++\ntitle = "Old"\n+++\n\nGet them:\n\n{{% attachments /%}}\n')
    write(tmp_path, "content/old/index.en.files/setup.exe", "x")
    write(tmp_path, "content/old/index.en.files/readme.txt", "x")
    site = hugo.load(tmp_path)
    warnings: list[str] = []
    out = site.rewrite_shortcodes((tmp_path / "content/dl/index.md").read_text(), page_rel="content/dl/index.md",
                                  warnings=warnings)
    # the title as the theme shows it, the files the pattern finds, by name, a resource's title when it has one
    assert "**Related files**\n\n- guide.pdf\n- The tool\n\n" in out
    assert "**Info**\n\n- The tool\n- notes.txt\n- guide.pdf\n\n" in out  # a severity style titles the box
    assert "\n\n- guide.pdf\n\n" in out and "** **" not in out  # title=" ": no title
    assert "{{%" not in out and any("(a+)+$" in w for w in warnings)  # a runaway pattern lists nothing
    doc = convert_file(tmp_path / "content/old/index.en.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    assert doc.sections[0].text == "Get them:\n\nAttachments\n\nreadme.txt\n\nsetup.exe"


def test_a_projects_own_resources_shortcode_is_not_read_as_the_themes(tmp_path: Path,
                                                                       write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hugo-theme-relearn"\n')
    write(tmp_path, "layouts/shortcodes/resources.html", "<p>See the team's resources.</p>\n")
    write(tmp_path, "content/dl/index.md", '+++\ntitle = "D"\n+++\n\n{{% resources /%}}\n')
    write(tmp_path, "content/dl/guide.pdf", "x")
    site = hugo.load(tmp_path)
    out = site.rewrite_shortcodes((tmp_path / "content/dl/index.md").read_text(), page_rel="content/dl/index.md",
                                  warnings=[])
    assert "guide.pdf" not in out


def test_relearn_include_hidefirstheading_drops_the_files_opening_heading(tmp_path: Path,
                                                                           write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hugo-theme-relearn"\n')
    write(tmp_path, "content/inc/README.md", "# Standalone Title\n\nIncluded body.\n\n## Sub part\n\nMore.\n")
    write(tmp_path, "content/inc/_index.md",
          '+++\ntitle = "Inc"\n+++\n\nBefore.\n\n{{% include file="inc/README.md" hidefirstheading="true" %}}\n\n'
          '## Again\n\n{{% include "inc/README.md" true %}}\n\n## Whole\n\n{{% include "inc/README.md" %}}\n')
    site = hugo.load(tmp_path)
    doc = convert_file(tmp_path / "content/inc/_index.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    paths = [tuple(s.heading_path) for s in doc.sections]
    # hidden by name and as the second argument; shown without it
    assert paths == [("Inc",), ("Inc", "Sub part"), ("Inc", "Again"), ("Inc", "Sub part"), ("Inc", "Whole"),
                     ("Inc", "Standalone Title"), ("Inc", "Standalone Title", "Sub part")]
    assert doc.sections[0].text == "Before.\n\nIncluded body."


def test_listed_files_sort_as_go_sorts_strings(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hugo-theme-relearn"\n')
    write(tmp_path, "content/dl/index.md", '+++\ntitle = "D"\n+++\n\n{{% resources /%}}\n')
    for name in ("b.pdf", "A.pdf", "a.pdf"):
        write(tmp_path, f"content/dl/{name}", "x")
    site = hugo.load(tmp_path)
    out = site.rewrite_shortcodes((tmp_path / "content/dl/index.md").read_text(), page_rel="content/dl/index.md",
                                  warnings=[])
    assert "**Resources**\n\n- A.pdf\n- a.pdf\n- b.pdf\n" in out  # bytewise: capitals first
