"""The corpus walker asks the Site about every file and never drops one silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from murar.embed.fake import HashingEmbedder
from murar.errors import NoPagesError
from murar.ingest.corpus import IngestReport, convert_corpus, walk_site
from murar.ingest.index import build_index, current_version_dir, open_index
from murar.ingest.sites.base import FileRole, PlainSite

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63"
                    "f8ffff3f0005fe02fea7d6a4e60000000049454e44ae426082")


def test_every_file_is_a_page_or_reported_with_reason_and_extension(tmp_path: Path) -> None:
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "shot.png").write_bytes(PNG)
    (tmp_path / "a.md").write_text("# A\n\n![Shot](img/shot.png)\n\n![Gone](img/gone.png)\n")
    (tmp_path / "notes.tex").write_text("Title\n=====\n")
    (tmp_path / "data.xyz").write_text("?")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "b.md").write_text("# B\n")
    site = PlainSite(tmp_path)
    walk = walk_site(site)
    assert [p.rel for p in walk.pages] == ["a.md"]
    by_path = {f.path: f for f in walk.others}
    assert by_path["img/shot.png"].status == "asset"
    assert by_path["notes.tex"].status == "skipped" and by_path["notes.tex"].ext == ".tex"
    assert "unsupported file type .xyz" in by_path["data.xyz"].error
    assert by_path[".hidden/"].status == "skipped"
    report = IngestReport()
    docs = convert_corpus(tmp_path, assets_dir=tmp_path / "out", report=report, site=site, walk=walk)
    assert len(docs) == 1
    statuses = sorted(r.status for r in report.asset_refs)
    assert statuses == ["missing", "resolved"]
    assert report.assets.resolution_rate == 1.0  # gone.png exists nowhere: broken upstream
    assert [r.link for r in report.unresolved] == ["img/gone.png"]
    assert (".tex", "unsupported file type .tex", 1) in report.skipped_by_reason()


def test_zero_pages_is_an_error_naming_extensions_and_site_types(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.tex").write_text("= Title\n")
    (corpus / "b.tex").write_text("= Title\n")
    (corpus / "logo.png").write_bytes(PNG)
    with pytest.raises(NoPagesError) as err:
        build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    msg = str(err.value)
    assert "2 .tex" in msg and "docusaurus" in msg and "mkdocs" in msg
    assert "not pages: 2 .tex skipped (unsupported file type .tex)" in msg
    assert not (tmp_path / "idx" / "CURRENT").exists()


def test_zero_pages_message_says_why_files_were_not_pages(tmp_path: Path) -> None:
    """QA: a Sphinx project whose two files include each other had no page and the
    error did not say why (both were partials)."""
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "conf.py").write_text("project = 'x'\n")
    (corpus / "index.rst").write_text("Title\n=====\n\nText.\n\n.. include:: a.rst\n")
    (corpus / "a.rst").write_text(".. include:: index.rst\n")
    with pytest.raises(NoPagesError) as err:
        build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    assert "2 .rst include (partial" in str(err.value)


def test_plain_folder_of_asciidoc_rst_and_notebooks_is_read(tmp_path: Path) -> None:
    """QA: without a generator config, .adoc/.rst/.ipynb files were all skipped as
    'unsupported' and the ingest failed with no page, though their converters exist."""
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.adoc").write_text("= Alpha\n\nThe alpha page explains exports.\n\ninclude::b.adoc[]\n")
    (corpus / "b.adoc").write_text("Shared text.\n\ninclude::b.adoc[]\n")  # a cycle: a warning, not a hang
    (corpus / "c.rst").write_text("Gamma\n=====\n\nThe gamma page explains imports.\n")
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Delta\n", "Plot the loss."]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
    (corpus / "d.ipynb").write_text(json.dumps(nb))
    _manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    assert report.site["generator"] == "plain"
    assert sorted(f.path for f in report.files if f.status == "ok") == ["a.adoc", "c.rst", "d.ipynb"]
    assert [f.path for f in report.files if f.status == "include"] == ["b.adoc"]


def test_plain_folder_include_targets_are_partials_not_pages(tmp_path: Path) -> None:
    """A file pulled in by an AsciiDoc ``include::`` or a reST ``.. include::`` is
    content of the page that includes it, never a page of its own (it was indexed
    twice: inside the including page and alone); the target resolves relative to
    the including file, in a subfolder too."""
    corpus = tmp_path / "c"
    (corpus / "guide" / "parts").mkdir(parents=True)
    (corpus / "guide" / "setup.adoc").write_text(
        "= Setup\n\nInstall the agent first.\n\ninclude::parts/proxy.adoc[leveloffset=+1]\n")
    (corpus / "guide" / "parts" / "proxy.adoc").write_text("= Proxy\n\nSet HTTPS_PROXY for the agent.\n")
    (corpus / "api.rst").write_text("API\n===\n\nCall the endpoint.\n\n.. include:: snippets/auth.rst\n")
    (corpus / "snippets").mkdir()
    (corpus / "snippets" / "auth.rst").write_text("Send the token in the Authorization header.\n")
    (corpus / "orphan.adoc").write_text("= Orphan\n\nNobody includes this page.\n")
    site = PlainSite(corpus)
    assert site.include_targets() == {"guide/parts/proxy.adoc", "snippets/auth.rst"}
    _manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    by_status = {f.path: f.status for f in report.files}
    assert by_status["guide/parts/proxy.adoc"] == "include" and by_status["snippets/auth.rst"] == "include"
    assert {p for p, st in by_status.items() if st == "ok"} == {"guide/setup.adoc", "api.rst", "orphan.adoc"}
    # the included text is indexed once, inside the page that includes it
    store = open_index(tmp_path / "idx").store
    hits = [s for s in store.all_snippets() if "HTTPS_PROXY" in s.text]
    assert [s.source_path for s in hits] == ["guide/setup.adoc"]
    assert any("Authorization header" in s.text and s.source_path == "api.rst" for s in store.all_snippets())


def test_partials_reached_through_a_symlinked_folder_are_includes_not_pages(tmp_path: Path) -> None:
    """Modular AsciiDoc guides link a shared folder into each guide (``guide/modules ->
    ../modules``) and include through the link. The include resolves to the real file, but
    the walk met it first under the link's path and called it a page: every module was
    indexed twice, once alone (a page of attribute entries and a bare fragment)."""
    corpus = tmp_path / "c"
    (corpus / "modules").mkdir(parents=True)
    (corpus / "modules" / "attrs.adoc").write_text(":product: Relay\n")
    (corpus / "modules" / "proxy.adoc").write_text("= Proxy\n\nSet HTTPS_PROXY for {product}.\n")
    (corpus / "a-guide").mkdir()
    (corpus / "a-guide" / "modules").symlink_to("../modules", target_is_directory=True)
    (corpus / "a-guide" / "index.adoc").write_text(
        "= Guide\ninclude::modules/attrs.adoc[]\n\ninclude::modules/proxy.adoc[leveloffset=+1]\n")
    walk = walk_site(PlainSite(corpus))
    assert [p.rel for p in walk.pages] == ["a-guide/index.adoc"]
    assert {f.path for f in walk.others if f.status == "include"} == {
        "a-guide/modules/attrs.adoc", "a-guide/modules/proxy.adoc"}


def test_plain_folder_include_target_through_an_attribute_of_a_shared_attributes_file(tmp_path: Path) -> None:
    """Asciidoctor substitutes attribute references in an ``include::`` target, and an entry in an
    included file (a shared attributes file, itself including a local one) sets the attribute for
    the including page: ``include::{snippets}/proxy.adoc[]`` names ``_parts/proxy.adoc``, a partial.
    The target was not recognised, so each partial was also a page of its own (indexed twice)."""
    corpus = tmp_path / "c"
    (corpus / "_parts" / "tools").mkdir(parents=True)
    (corpus / "_common.adoc").write_text(":product: Relay\n:parts-dir: _parts\ninclude::_local.adoc[]\n")
    (corpus / "_local.adoc").write_text(":snippets: ./{parts-dir}\n:tools: {snippets}/tools\n:gone: x\n:gone!:\n")
    (corpus / "setup.adoc").write_text(
        "= Setup\ninclude::_common.adoc[]\n\nInstall {product}.\n\ninclude::{snippets}/proxy.adoc[]\n\n"
        "include::{tools}/cli.adoc[]\n\ninclude::{gone}/x.adoc[]\n")
    (corpus / "_parts" / "proxy.adoc").write_text("Set HTTPS_PROXY for the agent.\n")
    (corpus / "_parts" / "tools" / "cli.adoc").write_text("Run the relay command.\n")
    site = PlainSite(corpus)
    assert site.include_targets() == {"_common.adoc", "_local.adoc", "_parts/proxy.adoc", "_parts/tools/cli.adoc"}
    assert site.classify("setup.adoc").role is FileRole.PAGE


def test_site_and_reference_counts_reach_the_report_files(tmp_path: Path) -> None:
    corpus = tmp_path / "site"
    (corpus / "docs").mkdir(parents=True)
    (corpus / "static" / "img").mkdir(parents=True)
    (corpus / "static" / "img" / "x.png").write_bytes(PNG)
    (corpus / "docusaurus.config.js").write_text("module.exports = { baseUrl: '/' };\n")
    (corpus / "docs" / "a.md").write_text("# A\n\nSee ![X](/img/x.png)\n")
    manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    assert report.site["generator"] == "docusaurus" and manifest.extra["site"]["generator"] == "docusaurus"
    assert report.assets.resolution_rate == 1.0
    saved = json.loads((current_version_dir(tmp_path / "idx") / "report.json").read_text())
    assert saved["assets"]["by_status"] == {"resolved": 1}


def test_an_index_inside_the_corpus_is_not_walked(tmp_path: Path) -> None:
    """QA: `murar ingest DOCS --index DOCS/idx` listed the index's own .lance/.json/.txn
    files as 20 skipped files on every later ingest."""
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n\nText about exports.\n")
    build_index(corpus, corpus / "idx", embedder=HashingEmbedder())
    _manifest, report = build_index(corpus, corpus / "idx", embedder=HashingEmbedder())
    assert [(f.path, f.error) for f in report.skipped] == [("idx/", "a murar index, not walked")]
    assert report.pages == 1


def test_names_that_are_not_utf8_are_skipped_with_their_reason(tmp_path: Path) -> None:
    """A Latin-1 file or folder name (an old archive unpacked) decodes with lone surrogates:
    each such page failed with a bare UnicodeEncodeError, its report path unprintable."""
    import os

    root = os.fsencode(tmp_path)
    (tmp_path / "ok.md").write_text("# Ok\n\nFine page.\n")
    with open(root + b"/caf\xe9.md", "wb") as fh:
        fh.write(b"# Cafe\n\nCoffee.\n")
    os.mkdir(root + b"/d\xe9")
    with open(root + b"/d\xe9/p.md", "wb") as fh:
        fh.write(b"# Inner\n\nInner page.\n")
    _manifest, report = build_index(tmp_path, tmp_path / "idx", embedder=HashingEmbedder())
    assert report.pages == 1 and not report.failed
    by_path = {f.path: f for f in report.files}
    assert by_path["caf\\xe9.md"].status == "skipped"
    assert "'caf\\xe9.md' is not UTF-8 text; rename it" in by_path["caf\\xe9.md"].error
    assert "not walked" in by_path["d\\xe9/"].error
    json.dumps([f.path for f in report.files], ensure_ascii=False).encode("utf-8")  # every path is text


def test_plain_folder_of_asc_files_is_an_asciidoc_book(tmp_path: Path) -> None:
    """'.asc' is an AsciiDoc extension Asciidoctor reads (books such as Pro Git use it): every
    file was skipped as 'unsupported file type .asc' and the ingest found no page. The master file
    is the page, the chapters it includes are its content, and an OpenPGP signature (also '.asc')
    beside them is no page."""
    corpus = tmp_path / "c"
    (corpus / "book" / "sections").mkdir(parents=True)
    (corpus / "book.asc").write_text("= The Book\n:doctype: book\n\ninclude::ch01.asc[]\n")
    (corpus / "ch01.asc").write_text("== Getting Started\n\nWhy version control.\n\n"
                                     "include::book/sections/local.asc[]\n")
    (corpus / "book" / "sections" / "local.asc").write_text("=== Local Systems\n\nCopy files into another folder.\n")
    (corpus / "release.tar.gz.asc").write_text("-----BEGIN PGP SIGNATURE-----\n\niQIzBAABCAAdFiEE\n"
                                               "-----END PGP SIGNATURE-----\n")
    site = PlainSite(corpus)
    assert site.classify("book.asc").role is FileRole.PAGE
    assert site.classify("ch01.asc").role is FileRole.INCLUDE
    assert site.classify("book/sections/local.asc").role is FileRole.INCLUDE
    assert site.classify("release.tar.gz.asc").role is FileRole.UNKNOWN
    report = IngestReport()
    docs = convert_corpus(corpus, assets_dir=tmp_path / "a", report=report, site=site, walk=walk_site(site))
    (doc,) = docs
    assert doc.title == "The Book"
    assert [s.heading_path for s in doc.sections if s.text] == [
        ("The Book", "Getting Started"), ("The Book", "Getting Started", "Local Systems")]


def test_plain_asciidoc_docdir_is_the_documents_folder(tmp_path: Path) -> None:
    """Asciidoctor sets docdir to the document's folder (an absolute path):
    'include::{docdir}/chapters/one.adoc[]' and 'image::{docdir}/images/a.png[]' were left
    unresolved (the chapter stayed a page of its own, the image was lost) and a line showing
    {docfile} was dropped whole."""
    corpus = tmp_path / "c"
    (corpus / "book" / "chapters").mkdir(parents=True)
    (corpus / "book" / "images").mkdir()
    Image.new("RGB", (400, 300), "white").save(corpus / "book" / "images" / "a.png")
    (corpus / "book" / "guide.adoc").write_text("= Guide\n\ninclude::{docdir}/chapters/one.adoc[]\n\nSource: {docfile}.\n")
    (corpus / "book" / "chapters" / "one.adoc").write_text("== One\n\nChapter one text.\n\nimage::{docdir}/images/a.png[A]\n")
    site = PlainSite(corpus)
    assert site.classify("book/chapters/one.adoc").role is FileRole.INCLUDE
    docs = convert_corpus(corpus, assets_dir=tmp_path / "a", report=IngestReport(), site=site, walk=walk_site(site))
    (doc,) = docs
    assert [m.path for m in doc.media] == ["book/images/a.png"]
    assert "Chapter one text." in doc.sections[-1].text and "Source: /book/guide.adoc." in doc.sections[-1].text
