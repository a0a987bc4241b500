"""AsciiDoc rules found by rebuilding Red Hat-style modular docs (Eclipse Che); made-up pages."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from murar.ingest.markup.asciidoc import convert_asciidoc
from murar.ingest.sites.antora import AntoraSite
from murar.schema import ImageItem

MOD = "docs/modules/guide"


def _component(tmp_path: Path, files: dict[str, str]) -> AntoraSite:
    (tmp_path / "docs").mkdir(parents=True, exist_ok=True)
    (tmp_path / "docs" / "antora.yml").write_text(
        "name: docs\nversion: stable\nasciidoc:\n  attributes:\n    context: demo\n    project-context: demo\n")
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return AntoraSite(tmp_path, "docs/antora.yml")


def test_included_module_comments_and_titled_block_stay_in_the_list_item(tmp_path: Path) -> None:
    """Eclipse Che: a procedure step ends with '+' and include::example$...adoc[], whose file starts
    with its '// Module included in ...' comments, a '+', '.Example - ...', '+' and the paragraph.
    Asciidoctor skips the comment lines and keeps the block title pending across the second '+'
    (the step shows a titled paragraph and the listing); murar showed '+ .Example - ...' and
    '+ In the following ...' as text."""
    (tmp_path / MOD / "images").mkdir(parents=True)
    Image.new("RGB", (8, 6), "white").save(tmp_path / MOD / "images" / "editor.png")
    site = _component(tmp_path, {
        f"{MOD}/pages/adding.adoc": """\
= Adding projects

. Open the *Devfile* tab.
+
image::editor.png[Edit Devfile Content]
+
For an example, see below:
+
include::example$demo-adding-a-project.adoc[leveloffset=+1]

. Click btn:[Save].
""",
        f"{MOD}/examples/demo-adding-a-project.adoc": """\
// Module included in the following assemblies:
//
// adding-projects
+
.Example - Adding a project
+
In the following instance, the project `{project-context}` is a user's project.
+
[source,yaml]
----
projects:
  - name: demo
----
+
For more, see the reference.
"""})
    doc = convert_asciidoc(tmp_path / MOD / "pages" / "adding.adoc", site=site)
    text = doc.sections[0].text
    assert ("For an example, see below:\n\nExample - Adding a project\n\nIn the following instance, the project "
            "demo is a user’s project.\n\nprojects:\n  - name: demo\n\nFor more, see the reference.\n\nClick Save."
            ) in text
    assert "+" not in text and ".Example" not in text
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.alt, m.context_after.split("\n")[0]) for m in images] == [("Edit Devfile Content",
                                                                         "For an example, see below:")]
