"""Source and built HTML of the same site answer alike: a tiny MkDocs site and a
tiny Sphinx project are built by the real generators in the test; ingesting the
source folder and the built folder must put the same picture (by content) first
for the same questions: the step's own screenshot. (Further pictures, picked with
the hashing test embedder from the other short pages, may differ.)"""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from murar.answer.pipeline import PipelineConfig, load_pipeline
from murar.embed.fake import HashingEmbedder
from murar.ingest.budget import FileBudget
from murar.ingest.index import build_index
from murar.schema import ImageItem

# Convert in-process: this test process has LanceDB indexes open from earlier cases, and
# forking it for the per-file time budget can deadlock the child (LanceDB warns that fork
# support is experimental); seen here as a 180 s timeout on the last case of a long session.
INLINE = FileBudget(max_seconds=0)

pytestmark = pytest.mark.integration

QUESTIONS = [
    ("How do I download the Widget installer for my platform?", "download"),
    ("How do I run the Widget setup wizard?", "wizard"),
    ("How do I register my Widget licence key?", "licence"),
]


def png(seed: int) -> bytes:
    img = Image.new("RGB", (360, 240), (seed * 70 % 256, 110, 180))
    for x in range(0, 360, 5):
        img.putpixel((x, (x * (seed + 2)) % 240), (255, 255, 255))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


SHOTS = {"download": png(1), "wizard": png(2), "licence": png(3)}
PAGES = {
    "download": ("Download the installer",
                 "Open the Widget download page, pick your platform and save the Widget installer file."),
    "wizard": ("Run the setup wizard",
               "Start the Widget setup wizard and press Next on every screen of the wizard until it finishes."),
    "licence": ("Register the licence",
                "Paste your Widget licence key into the registration box and press Register."),
}


def mkdocs_project(src: Path, write: Callable[..., Path]) -> tuple[Path, Path]:
    pytest.importorskip("mkdocs")
    write(src, "mkdocs.yml", "site_name: Widget Docs\nnav:\n  - index.md\n  - guide/install.md\n  - guide/licence.md\n")
    write(src, "docs/index.md", "# Widget\n\nWidget syncs your files between computers.\n")
    body = "# Install Widget\n\n"
    for key in ("download", "wizard"):
        title, text = PAGES[key]
        body += f"## {title}\n\n{text}\n\n![{title}](img/{key}.png)\n\n"
    write(src, "docs/guide/install.md", body)
    title, text = PAGES["licence"]
    write(src, "docs/guide/licence.md", f"# Licence\n\n## {title}\n\n{text}\n\n![{title}](/guide/img/licence.png)\n")
    for key, data in SHOTS.items():
        write(src, f"docs/guide/img/{key}.png", data)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(src / "mkdocs.yml"),
                    "-d", str(src / "site")], check=True, capture_output=True, timeout=120)
    return src, src / "site"


def sphinx_project(src: Path, write: Callable[..., Path]) -> tuple[Path, Path]:
    pytest.importorskip("sphinx")
    write(src, "conf.py", "project = 'Widget'\nhtml_theme = 'alabaster'\n")
    write(src, "index.rst", "Widget\n======\n\nWidget syncs your files between computers.\n\n"
                            ".. toctree::\n\n   install\n   licence\n")
    body = "Install Widget\n==============\n\n"
    for key in ("download", "wizard"):
        title, text = PAGES[key]
        body += f"{title}\n{'-' * len(title)}\n\n{text}\n\n.. figure:: shots/{key}.png\n\n   {title}\n\n"
    write(src, "install.rst", body)
    title, text = PAGES["licence"]
    write(src, "licence.rst", f"Licence\n=======\n\n{title}\n{'-' * len(title)}\n\n{text}\n\n"
                              f".. image:: shots/licence.png\n   :alt: {title}\n")
    for key, data in SHOTS.items():
        write(src, f"shots/{key}.png", data)
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src), str(src / "_build/html")],
                   check=True, capture_output=True, timeout=180)
    return src, src / "_build/html"


def picked(folder: Path, index: Path) -> tuple[str, dict[str, list[str]]]:
    """Generator detected and, per question, the pictures shown (as keys of SHOTS, by content)."""
    _, report = build_index(folder, index, embedder=HashingEmbedder(),
                    budget=INLINE)
    assert not report.failed and report.unresolved == [], (report.failed, report.unresolved[:3])
    by_hash = {hashlib.sha1(data).hexdigest(): key for key, data in SHOTS.items()}
    pipeline = load_pipeline(index, llm="extractive", embedder=HashingEmbedder(),
                             config=PipelineConfig(media_strategy="section"))
    root = Path(str(report.site.get("root", folder)))
    out: dict[str, list[str]] = {}
    for question, _ in QUESTIONS:
        answer = pipeline.answer(question)
        shown = [b.item for b in answer.media if isinstance(b.item, ImageItem) and b.item.path]
        out[question] = [by_hash.get(hashlib.sha1((root / str(i.path)).read_bytes()).hexdigest(), str(i.path))
                         for i in shown]
    return str(report.site.get("generator")), out


@pytest.mark.parametrize("project", [mkdocs_project, sphinx_project], ids=["mkdocs", "sphinx"])
def test_source_and_built_html_pick_the_same_images(project, tmp_path: Path, write: Callable[..., Path]) -> None:  # type: ignore[no-untyped-def]
    source, site = project(tmp_path / "project", write)
    gen_source, from_source = picked(source, tmp_path / "idx-source")
    gen_built, from_built = picked(site, tmp_path / "idx-built")
    assert gen_built == "html" and gen_source != "html"
    for question, gold in QUESTIONS:
        # the picture placed first (the one the answer is about) is the step's own, from both
        assert from_source[question][:1] == from_built[question][:1] == [gold], \
            (question, from_source[question], from_built[question])
