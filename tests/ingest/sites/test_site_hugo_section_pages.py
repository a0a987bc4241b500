"""Hugo sections: a folder with neither ``_index`` nor ``index`` is no section and no bundle,
so its pages belong to the nearest section above (Docsy's section index lists them)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from murar.ingest.sites import hugo


def test_pages_of_a_folder_without_index_belong_to_the_section_above(
    tmp_path: Path, write: Callable[..., Path]
) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = ["docsy"]\n')
    write(tmp_path, "content/docs/gauges/_index.md", "---\ntitle: Gauges\n---\n\nAll gauges.\n")
    write(tmp_path, "content/docs/gauges/dial.md", "---\ntitle: Dial\nweight: 2\n---\n")
    # no _index.md in parts/: its pages (and the leaf bundle in it) are the gauges section's
    write(tmp_path, "content/docs/gauges/parts/needle.md", "---\ntitle: Needle\ndescription: The needle.\n---\n")
    write(tmp_path, "content/docs/gauges/parts/deep/bezel/index.md", "---\ntitle: Bezel\n---\n")
    write(tmp_path, "content/docs/gauges/parts/deep/bezel/note.md", "---\ntitle: Bundle note\n---\n")
    # a folder with an _index.md is a section of its own: listed by its page only
    write(tmp_path, "content/docs/gauges/glass/_index.md", "---\ntitle: Glass\nweight: 5\n---\n")
    write(tmp_path, "content/docs/gauges/glass/pane.md", "---\ntitle: Pane\n---\n")
    # snippets the site never renders (cascaded build.render: never) are no pages
    write(tmp_path, "content/docs/gauges/parts/_includes/snip.md", "---\ntitle: Snip\n---\n")
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = ["docsy"]\n'
          "[[cascade]]\n[cascade.build]\nrender = 'never'\nlist = 'never'\n"
          "[cascade._target]\npath = '{,/**}/_includes{,/**}'\n")
    site = hugo.load(tmp_path)
    text = (tmp_path / "content/docs/gauges/_index.md").read_text()
    out = site.preprocess(text, page_rel="content/docs/gauges/_index.md").split("---\n", 2)[2].strip()
    assert out == "All gauges.\n\n**Dial**\n\n**Glass**\n\n**Bezel**\n\n**Needle**: The needle."
