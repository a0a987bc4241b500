"""The docsite question files of benchmarks/docsites.py point at real pages, sections and pictures.

A gold image that no longer exists, a page the site does not build (a MyST page
outside the table of contents) or a section path that is not the rendered one
(an ``include`` changes heading levels) would score as a miss for every
selection and hide a regression; no two files share a page, so each held-out
file stays independent of the tuning file and of the other held-out files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.embed.fake import HashingEmbedder
from murar.eval.media_metrics import load_gold
from murar.eval.retrieval_metrics import is_relevant
from murar.ingest.chunking import chunk_section
from murar.ingest.corpus import convert_file
from murar.ingest.sites.detect import open_site

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
# every question file docsites.py reads: a new held-out file is checked without being listed here
FILES = sorted(p.name for p in BENCH.glob("docsites_*.jsonl"))


@pytest.mark.parametrize("name", FILES)
def test_every_question_names_a_built_page_its_rendered_section_and_gold_images(
        name: str, docsites_root: Path, tmp_path: Path) -> None:
    """Each page is converted by murar's own site module (the generator's page rules,
    includes, heading levels); the gold section must be one the retrieval metric finds."""
    path = BENCH / name
    golds = load_gold(path)
    assert len({g.id for g in golds}) == len(golds)
    assert all(g.corpus for g in golds), "every line names its corpus"
    emb = HashingEmbedder()
    sites = {}
    for g in golds:
        root = docsites_root / g.corpus
        if g.corpus not in sites:
            sites[g.corpus] = open_site(root).site
        site = sites[g.corpus]
        page = root / g.page
        assert page.is_file(), f"{g.id}: page {g.page} is missing"
        role = site.classify(page.resolve().relative_to(site.config.root).as_posix())
        assert role.markup is not None, f"{g.id}: {g.page} is not a page of the site ({role.reason})"
        doc = convert_file(page, root=site.config.root, assets_dir=tmp_path, site=site)
        assert any(is_relevant(sn, g) for sec in doc.sections for sn in chunk_section(sec, emb)), \
            f"{g.id}: no section of {g.page} is {' > '.join(g.section)}"
        assert (g.kind == "text-only") == (not g.gold_images), f"{g.id}: kind {g.kind} vs gold images"
        for image in g.gold_images:
            assert (root / image).is_file(), f"{g.id}: gold image {image} is missing"


def test_no_two_question_files_share_a_page_or_an_id() -> None:
    """``benchmarks/docsites.py --questions`` pools several files: a shared id would be two questions."""
    assert len(FILES) >= 7  # the tuning file and six held-out files at least
    files: dict[str, set[tuple[str, str]]] = {}
    ids: list[str] = []
    for name in FILES:
        golds = load_gold(BENCH / name)
        files[name] = {(g.corpus, g.page) for g in golds}
        ids += [g.id for g in golds]
    for i, a in enumerate(FILES):
        for b in FILES[i + 1:]:
            assert not files[a] & files[b], f"{a} and {b} share {sorted(files[a] & files[b])[:3]}"
    assert len(set(ids)) == len(ids), f"ids in two files: {sorted({i for i in ids if ids.count(i) > 1})}"


@pytest.mark.parametrize(("name", "corpus", "docs"), [("unseen_glue_questions.jsonl", "glue-core-0.14.2", "doc/"),
                                                    ("unseen_taurus_questions.jsonl", "taurus-5.4.1", "doc/"),
                                                    ("unseen_silx_questions.jsonl", "silx-3.1.3", "doc/"),
                                                    ("unseen_sardana_questions.jsonl", "sardana-3.7.1", "doc/"),
                                                    ("unseen_nbgrader_questions.jsonl", "nbgrader-0.9.6",
                                                     "nbgrader/docs/")])
def test_the_unseen_docs_question_files_are_well_formed(name: str, corpus: str, docs: str) -> None:
    """The ``unseen_*`` files are about corpora outside ``../shared`` (PyPI sdists, fetched by the
    README command), so only their shape is checked here: unique ids, one corpus, no gold on
    text-only questions, gold of the question's own kind on the others, and gold paths inside the
    corpus root (``doc/...``; nbgrader keeps its docs inside the package folder)."""
    golds = load_gold(BENCH / name)
    assert len({g.id for g in golds}) == len(golds) == 20
    assert {g.corpus for g in golds} == {corpus}
    for g in golds:
        gold = g.gold_keys()
        if g.kind == "text-only":
            assert not gold, g.id
        else:
            assert any(kind == g.kind for kind, _ in gold), g.id
        assert all(key.startswith(docs) for _, key in gold), g.id
    assert sum(g.kind == "text-only" for g in golds) == 12
