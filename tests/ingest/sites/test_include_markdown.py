"""mkdocs-include-markdown-plugin directives on MkDocs pages (made-up pages reproducing the patterns)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PIL import Image

from murar.ingest.markup.pymdown import convert_pymdown
from murar.ingest.sites.base import FileRole
from murar.ingest.sites.mkdocs import MkDocsSite
from murar.schema import ImageItem, ParsedDocument

CONFIG = """site_name: S
theme:
  name: material
plugins:
  - search
  - include-markdown
markdown_extensions:
  - admonition
  - attr_list
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
"""


def _png(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (320, 200), (10, 120, 200)).save(path)


def _project(tmp_path: Path, files: dict[str, str], config: str = CONFIG) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "mkdocs.yml").write_text(config)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _convert(root: Path, rel: str) -> ParsedDocument:
    return convert_pymdown(root / rel, site=MkDocsSite.load(root, "mkdocs.yml"), assets_dir=root.parent / "a")


def _images(doc: ParsedDocument) -> list[ImageItem]:
    return [m for m in doc.media if isinstance(m, ImageItem)]


def test_included_walkthrough_is_page_text_with_its_images_rebased(tmp_path: Path) -> None:
    """A page that starts with {% include-markdown "./../../templates/intro.md" %} (a path from the
    page's folder, over several lines, with an argument the plugin does not know) read the directive
    as text; the plugin puts the file there, its relative image links rewritten to the page's folder."""
    root = _project(tmp_path, {
        "docs/templates/intro.md": ("# Appliance walkthrough\n\nOpen the control panel first.\n\n"
                                    "![Control panel](../assets/panel.png)\n\nThen come back here.\n"),
        "docs/guide/install/nas.md": ('---\nhide:\n  - toc\n---\n{%\n    include-markdown "./../../templates/intro.md"\n'
                                      "    replace='{\"X\": \"Y\"}'\n%}\n\n## Steps\n\nPress the power button.\n"),
    })
    _png(root / "docs" / "assets" / "panel.png")
    doc = _convert(root, "docs/guide/install/nas.md")
    assert doc.sections[0].heading_path == ("Appliance walkthrough",)
    text = "\n".join(s.text for s in doc.sections)
    assert "Open the control panel first." in text and "include-markdown" not in text and "{%" not in text
    (img,) = _images(doc)
    assert img.path == "docs/assets/panel.png" and img.exists
    assert "Open the control panel first." in img.context_before and "Then come back here." in img.context_after
    assert any("'replace' ignored" in w for w in doc.warnings)
    # MkDocs leaves docs/templates/ out of the site by default (exclude_docs defaults: .*, /templates/)
    assert MkDocsSite.load(root, "mkdocs.yml").classify("docs/templates/intro.md").role == FileRole.EXCLUDED


def test_start_end_markers_indent_in_a_tab_and_heading_offset(tmp_path: Path) -> None:
    """A docs_dir-relative include inside a content tab: only the text between the markers, every
    line indented like the directive (so it stays in the tab); heading-offset adds '#' to lines that
    start with one, so the indented heading in the tab keeps its level and the top-level one moves
    down (as mkdocs build renders it: h1 in the tab, h2 under "Other")."""
    root = _project(tmp_path, {
        "docs/partials/steps.md": ("Not this.\n<!--begin-->\n# Prepare\n\n1. Plug in the cable.\n\n"
                                   "    ![Cable](img/cable.png)\n\n<!--finish-->\nNor this.\n"),
        "docs/how/p.md": ('# Setup\n\n=== "Linux"\n\n    {% include-markdown "partials/steps.md" start="<!--begin-->" '
                          'end="<!--finish-->" heading-offset=1 %}\n\n=== "Windows"\n\n    Run the installer.\n\n## Other\n\n'
                          '{% include-markdown "partials/steps.md" start="<!--begin-->" end="<!--finish-->" '
                          'heading-offset=1 %}\n'),
    })
    _png(root / "docs" / "partials" / "img" / "cable.png")
    doc = _convert(root, "docs/how/p.md")
    text = "\n".join(s.text for s in doc.sections)
    assert "Not this." not in text and "Nor this." not in text and "Plug in the cable." in text
    assert [s.heading_path for s in doc.sections] == [("Setup",), ("Prepare",), ("Prepare", "Other"),
                                                      ("Prepare", "Prepare")]
    in_tab, below = _images(doc)
    assert in_tab.path == below.path == "docs/partials/img/cable.png"
    assert in_tab.tab == "Linux" and "Plug in the cable." in in_tab.context_before
    assert below.tab == "" and below.heading_path[-1] == "Prepare"


def test_include_directive_keeps_links_and_nested_includes_resolve_from_their_file(tmp_path: Path) -> None:
    """{% include %} (no link rewriting) pulls a file verbatim; a nested include-markdown inside an
    included file is found from that file's folder; a missing file leaves nothing and a warning."""
    root = _project(tmp_path, {
        "docs/parts/outer.md": 'Outer text.\n\n{% include-markdown "./deeper/inner.md" %}\n',
        "docs/parts/deeper/inner.md": "Inner text.\n",
        "docs/p.md": ('# P\n\n{% include "parts/outer.md" %}\n\n{% include-markdown "parts/none.md" %}\n\n'
                      "```yaml\n{% include 'parts/deeper/inner.md' %}\n```\n"),
    })
    doc = _convert(root, "docs/p.md")
    text = doc.sections[0].text
    assert "Outer text." in text and text.count("Inner text.") == 2  # in the page and in the code block
    assert "{%" not in text
    assert any("parts/none.md" in w and "not found" in w for w in doc.warnings)


def test_custom_tags_and_plugin_order_with_macros(tmp_path: Path) -> None:
    """The plugin's opening_tag/closing_tag options; listed before macros, its directives are expanded
    first and the included text is then rendered by macros, as MkDocs runs the plugins in order."""
    config = CONFIG.replace("  - include-markdown\n", "  - include-markdown:\n      opening_tag: '{!'\n"
                            "      closing_tag: '!}'\n  - macros\n") + "extra:\n  product: Gizmo\n"
    root = _project(tmp_path, {"docs/inc/x.md": "Made by {{ product }}.\n",
                               "docs/p.md": '# P\n\n{! include-markdown "inc/x.md" !}\n'}, config=config)
    assert "Made by Gizmo." in _convert(root, "docs/p.md").sections[0].text


def test_unclosed_directives_stay_and_stay_linear(tmp_path: Path) -> None:
    """Thousands of openers without a closing tag: left as written, in linear time."""
    page = "# P\n\n" + '{% include-markdown "a.md"\n' * 20000 + "end\n"
    root = _project(tmp_path, {"docs/p.md": page, "docs/a.md": "A\n"})
    t0 = time.perf_counter()
    doc = _convert(root, "docs/p.md")
    assert time.perf_counter() - t0 < 20
    assert "end" in doc.sections[0].text


def test_glob_includes_every_matching_file_in_path_order(tmp_path: Path) -> None:
    root = _project(tmp_path, {"docs/faq/b.md": "Second answer.\n", "docs/faq/a.md": "First answer.\n",
                               "docs/faq/notes.txt": "Not markdown.\n",
                               "docs/p.md": '# FAQ\n\n{% include-markdown "faq/*.md" %}\n'})
    text = _convert(root, "docs/p.md").sections[0].text
    assert text.index("First answer.") < text.index("Second answer.") and "Not markdown." not in text


def _expanded(root: Path, page: str) -> tuple[str, list[str]]:
    site = MkDocsSite.load(root, "mkdocs.yml")
    warnings: list[str] = []
    return site.preprocess(page + "\nText after.\n", page_rel="docs/p.md", warnings=warnings), warnings


def test_fan_out_of_includes_is_bounded(tmp_path: Path, deadline: Any) -> None:
    """Twenty files that each include '*.md' (every other one) nest 20**6 inclusions
    deep down to the depth limit; a page of 50,000 directives summed its whole output
    after each (quadratic). Both ran past a minute with millions of warnings; now the
    page stops including after its limit, with at most about a hundred warnings."""
    files = {f"docs/p{i:02}.md": f"# P{i}\n\n" + '{% include-markdown "*.md" %}\n' for i in range(20)}
    root = _project(tmp_path, {**files, "docs/a.md": "A", "docs/p.md": "x"})
    for page in ('{% include-markdown "p*.md" %}', '{% include-markdown "a.md" %}' * 50_000,
                 '{% include-markdown "missing.md" %}' * 50_000):
        with deadline(20, page[:40]):
            text, warnings = _expanded(root, page)
        assert text.endswith("Text after.\n") and len(warnings) <= 110


def test_an_indentation_times_the_lines_is_bounded(tmp_path: Path) -> None:
    """The text before a directive on its line indents every included line
    (preserve-includer-indent): 100,000 letters before it times a file of 1,000 lines
    built 100,000,000 characters; now the page stops including there and keeps its text."""
    root = _project(tmp_path, {"docs/a.md": "A\n" * 1000, "docs/p.md": "x"})
    text, warnings = _expanded(root, "a" * 100_000 + '{% include-markdown "a.md" %}\n')
    assert len(text) < 200_000 and text.startswith("a" * 100_000) and text.endswith("Text after.\n")
    assert any("indented by 100000 characters" in w for w in warnings)


def test_globs_read_as_wcmatch_reads_them(tmp_path: Path) -> None:
    # the plugin globs with wcmatch (GLOBSTAR | BRACE): "{a,b}" is a group ("{a}" a literal name),
    # "**" crosses folders only as a whole segment ("n**" is "n*"), "../" starts from the page's parent
    root = _project(tmp_path, {
        "docs/parts/intro.md": "Intro text.\n", "docs/parts/usage.md": "Usage text.\n",
        "docs/parts/other.md": "Other text.\n", "docs/parts/{a}.md": "Braced name.\n",
        "docs/notes/n1.md": "Note one.\n", "docs/notes/nx/n3.md": "Note three.\n",
        "docs/guide/page.md": ('# Page\n\n{% include-markdown "../parts/{intro,usage}.md" %}\n\n'
                               '{% include-markdown "parts/{a}.md" %}\n\n{% include-markdown "notes/n**/*.md" %}\n')})
    doc = _convert(root, "docs/guide/page.md")
    assert doc.sections[0].text == "Intro text. Usage text.\n\nBraced name.\n\nNote three."
    assert doc.warnings == []
