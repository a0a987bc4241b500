"""Antora site rules: components, families, hidden files, resource IDs, includes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from murar.errors import ConfigError
from murar.ingest.sites.antora import AntoraSite, parse_resource_id
from murar.ingest.sites.base import FileRole, Site, SiteVariant


def test_parse_resource_id() -> None:
    r = parse_resource_id("2.0@comp:admin:partial$setup/steps.adoc")
    assert (r.component, r.module, r.family, r.path) == ("comp", "admin", "partial", "setup/steps.adoc")
    r = parse_resource_id("admin:console.png")
    assert (r.component, r.module, r.family, r.path) == (None, "admin", None, "console.png")
    r = parse_resource_id("guide::install.adoc")
    assert (r.component, r.module, r.family, r.path) == ("guide", "ROOT", None, "install.adoc")
    r = parse_resource_id("cloud/arch.png")
    assert (r.component, r.module, r.family, r.path) == (None, None, None, "cloud/arch.png")


def test_classify_families_hidden_nav_and_outside(tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {
        "antora-playbook.yml": "site:\n  title: X\n",
        "docs/antora.yml": "name: guide\nversion: main\nasciidoc:\n  attributes:\n    product: SF\n    flag: true\n",
        "docs/modules/ROOT/nav.adoc": "* xref:index.adoc[]\n",
        "docs/modules/ROOT/pages/index.adoc": "= Home\n\ninclude::shared/_part.adoc[]\n\ninclude::reused.adoc[]\n",
        "docs/modules/ROOT/pages/reused.adoc": "Reused text.\n",
        "docs/modules/ROOT/pages/shared/_part.adoc": "Part.\n",
        "docs/modules/ROOT/pages/_common/report.adoc": "Report.\n",
        "docs/modules/ROOT/partials/p.adoc": "P.\n",
        "docs/modules/ROOT/examples/e.adoc": "E.\n",
        "docs/modules/ROOT/assets/images/a.png": "png",
        "docs/modules/admin/images/b.png": "png",
        "docs/README.adoc": "= Readme\n",
        "package.json": "{}",
    })
    site = AntoraSite(tmp_path, "antora-playbook.yml")
    assert isinstance(site, Site) and site.config.generator == "antora"
    assert site.config.static_dirs == ("docs/modules/ROOT/assets/images", "docs/modules/admin/images")
    assert site.attributes_for("docs/modules/ROOT/pages/index.adoc")["product"] == "SF"
    role = lambda rel: site.classify(rel).role
    assert role("docs/modules/ROOT/pages/index.adoc") is FileRole.PAGE
    assert site.classify("docs/modules/ROOT/pages/index.adoc").markup == "asciidoc"
    assert role("docs/modules/ROOT/pages/reused.adoc") is FileRole.PAGE  # included, and published by Antora too
    assert role("docs/modules/ROOT/pages/shared/_part.adoc") is FileRole.INCLUDE
    assert role("docs/modules/ROOT/pages/_common/report.adoc") is FileRole.INCLUDE
    assert role("docs/modules/ROOT/partials/p.adoc") is FileRole.INCLUDE
    assert role("docs/modules/ROOT/examples/e.adoc") is FileRole.INCLUDE
    assert role("docs/modules/ROOT/nav.adoc") is FileRole.EXCLUDED
    assert role("docs/README.adoc") is FileRole.EXCLUDED
    assert role("docs/modules/ROOT/assets/images/a.png") is FileRole.ASSET
    assert role("package.json") is FileRole.UNKNOWN
    # the component descriptor is configuration, also when the site was opened on the playbook
    assert role("docs/antora.yml") is FileRole.EXCLUDED and "configuration" in site.classify("docs/antora.yml").reason


def test_resolution_of_images_and_includes(tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {
        "antora.yml": "name: solo\nversion: ~\n",
        "modules/ROOT/pages/a/page.adoc": "= P\n",
        "modules/ROOT/images/shots/x.png": "png",
        "modules/ROOT/partials/steps.adoc": "S\n",
        "modules/ops/assets/images/y.png": "png",
    })
    site = AntoraSite(tmp_path, "antora.yml")
    page = "modules/ROOT/pages/a/page.adoc"
    assert site.resolve_asset("shots/x.png", page_rel=page).rel_path == "modules/ROOT/images/shots/x.png"
    assert site.resolve_asset("ops:y.png", page_rel=page).rel_path == "modules/ops/assets/images/y.png"
    assert site.resolve_asset("solo:ops:y.png", page_rel=page).rel_path == "modules/ops/assets/images/y.png"
    assert site.resolve_asset("https://x.org/y.png", page_rel=page).url == "https://x.org/y.png"
    assert site.resolve_asset("nope:ROOT:z.png", page_rel=page).problem
    missing = site.resolve_asset("shots/none.png", page_rel=page)
    assert missing.rel_path == "modules/ROOT/images/shots/none.png"  # the path tried, for the report
    # a module of the older layout (assets/images): the missing file is reported there, not in images/
    assert site.resolve_asset("ops:none.png", page_rel=page).rel_path == "modules/ops/assets/images/none.png"
    assert site.resolve_include("partial$steps.adoc", page_rel=page).rel_path == "modules/ROOT/partials/steps.adoc"
    assert site.resolve_include("../../partials/steps.adoc", page_rel=page).rel_path == \
        "modules/ROOT/partials/steps.adoc"
    assert site.resolve_include("../../../../../etc/passwd", page_rel=page).problem == "escapes the corpus root"


def test_intrinsic_component_attributes(tmp_path: Path) -> None:
    """QA: kogito's index page is titled '= {page-component-title}'; it stayed literal
    in every source label ('\\\\{page-component-title\\\\} › Core Concepts')."""
    (tmp_path / "docs" / "modules" / "ROOT" / "pages").mkdir(parents=True)
    (tmp_path / "docs" / "antora.yml").write_text(
        "name: sf\ntitle: SonataFlow Guides\nversion: main\ndisplay_version: snapshot\n")
    (tmp_path / "docs" / "modules" / "ROOT" / "pages" / "index.adoc").write_text("= {page-component-title}\n")
    site = AntoraSite(tmp_path)
    attrs = site.attributes_for("docs/modules/ROOT/pages/index.adoc")
    assert attrs["page-component-title"] == "SonataFlow Guides" and attrs["page-component-name"] == "sf"
    assert attrs["page-component-version"] == "main" and attrs["page-component-display-version"] == "snapshot"
    (tmp_path / "docs" / "antora.yml").write_text("name: sf\nversion: ~\n")
    attrs = AntoraSite(tmp_path).attributes_for("docs/modules/ROOT/pages/index.adoc")
    assert attrs["page-component-title"] == "sf" and "page-component-version" not in attrs


def test_playbook_attributes_value_references_and_intrinsic_attributes(
        tmp_path: Path, write_files: Callable[..., None]) -> None:
    """Antora gives every page the playbook's asciidoc.attributes (hard set unless
    the value ends in '@'), lets a value reference earlier attributes, and sets
    env-site, site-gen-antora and partialsdir=partial$ itself."""
    write_files(tmp_path, {
        "antora-playbook.yml": "site:\n  title: Demo Docs\nasciidoc:\n  attributes:\n"
                               "    brand: Acme\n    edition: community@\n    locked: fixed\n",
        "docs/antora.yml": "name: guide\nversion: '2.0'\nasciidoc:\n  attributes:\n"
                           "    base: '2.0'\n    full: '{base}.1 for {brand}'\n    edition: enterprise\n"
                           "    locked: changed\n    gone: ~\n    partialsdir: nope\n",
        "docs/modules/ROOT/pages/index.adoc": "= Home\n\ninclude::{partialsdir}/note.adoc[]\n",
        "docs/modules/ROOT/pages/sub/page.adoc": "= Sub\n",
        "docs/modules/ROOT/partials/note.adoc": "Note.\n",
    })
    site = AntoraSite(tmp_path, "antora-playbook.yml")
    attrs = site.attributes_for("docs/modules/ROOT/pages/index.adoc")
    assert attrs["brand"] == "Acme" and attrs["site-title"] == "Demo Docs"
    assert attrs["full"] == "2.0.1 for Acme"
    assert attrs["edition"] == "enterprise" and attrs["locked"] == "fixed" and "gone" not in attrs
    assert "env-site" in attrs and "site-gen-antora" in attrs and attrs["env"] == "site"
    assert attrs["partialsdir"] == "partial$" and attrs["examplesdir"] == "example$"
    assert site.attributes_for("docs/modules/ROOT/pages/sub/page.adoc")["page-relative-src-path"] == "sub/page.adoc"
    assert "docs/modules/ROOT/partials/note.adoc" in site.include_targets()
    assert site.resolve_include("partial$/note.adoc", page_rel="docs/modules/ROOT/pages/index.adoc").rel_path == \
        "docs/modules/ROOT/partials/note.adoc"
    # opened on its antora.yml, the site still reads antora-playbook.yml at the root
    assert AntoraSite(tmp_path, "docs/antora.yml").attributes_for("docs/modules/ROOT/pages/index.adoc")["brand"] == "Acme"


def test_playbook_named_by_an_npm_script_gives_its_attributes(
        tmp_path: Path, write_files: Callable[..., None]) -> None:
    """An Antora playbook may have any name; the CLI takes it as its argument. A
    project whose package.json builds with 'antora preview.yml' has no
    antora-playbook.yml, and the site-wide attributes of preview.yml reach every page."""
    write_files(tmp_path, {
        "package.json": '{"scripts": {"start": "nodemon --exec \\"npm run build\\"",'
                        ' "build": "antora --fetch preview.yml --log-format=pretty",'
                        ' "publish": "antora publish.yml"}}',
        "preview.yml": "site:\n  title: Ops\nasciidoc:\n  attributes:\n    download-uri: https://example.org/dl/\n",
        "publish.yml": "asciidoc:\n  attributes:\n    download-uri: https://example.org/other/\n",
        "antora.yml": "name: ops\nversion: '1.0'\n",
        "modules/ROOT/pages/index.adoc": "= Home\n\nGet it from {download-uri}[the download page].\n",
    })
    attrs = AntoraSite(tmp_path, "antora.yml").attributes_for("modules/ROOT/pages/index.adoc")
    assert attrs["download-uri"] == "https://example.org/dl/" and attrs["site-title"] == "Ops"
    # a script naming a file outside the site, or none at all: no playbook
    outside = tmp_path.parent / f"{tmp_path.name}-elsewhere.yml"  # a playbook that exists, outside the site
    outside.write_text("asciidoc:\n  attributes:\n    download-uri: https://example.org/outside/\n")
    (tmp_path / "package.json").write_text(f'{{"scripts": {{"build": "antora ../{outside.name}"}}}}')
    assert "download-uri" not in AntoraSite(tmp_path, "antora.yml").attributes_for("modules/ROOT/pages/index.adoc")


def test_version_true_is_not_the_word_true(tmp_path: Path, write_files: Callable[..., None]) -> None:
    """version: true (Antora 3) means 'the git branch or tag name'; it was read as 'True'."""
    write_files(tmp_path, {"antora.yml": "name: app\nversion: true\n", "modules/ROOT/pages/index.adoc": "= I\n"})
    attrs = AntoraSite(tmp_path, "antora.yml").attributes_for("modules/ROOT/pages/index.adoc")
    assert "page-component-version" not in attrs and "page-version" not in attrs


def test_an_antora_yml_inside_a_module_is_a_file_not_a_component(tmp_path: Path,
                                                                write_files: Callable[..., None]) -> None:
    """Antora reads a component descriptor at a content source's start path only; an
    ``antora.yml`` in a module's examples (hazelcast/hz-docs keeps one in
    ``modules/ROOT/examples/clients/``) is a file of that component. Read as a component
    version, one naming this component with a higher version made the real pages 'not its
    latest version': every page was skipped."""
    write_files(tmp_path, {
        "docs/antora.yml": "name: guide\nversion: '1.0'\n",
        "docs/modules/ROOT/pages/index.adoc": "= Home\n",
        "docs/modules/ROOT/examples/antora.yml": "name: guide\nversion: '2.0'\n",
        "docs/modules/ROOT/examples/clients/antora.yml": "name: cantona\nversion: 5.5-snapshot\n",
    })
    site = AntoraSite(tmp_path, "docs/antora.yml")
    assert [(c.name, c.dir) for c in site.components] == [("guide", "docs")]
    assert site.classify("docs/modules/ROOT/pages/index.adoc").role is FileRole.PAGE
    assert site.classify("docs/antora.yml").role is FileRole.EXCLUDED
    assert "configuration" not in site.classify("docs/modules/ROOT/examples/antora.yml").reason


def test_only_descriptors_at_the_playbooks_start_paths_are_components(tmp_path: Path,
                                                                    write_files: Callable[..., None]) -> None:
    """A playbook whose content source is this folder (``url: .``) reads the descriptor at its
    start path only (default: the root; docs.antora.org, "Content sources"): redpanda-data/docs
    keeps test components in ``broken-doc/`` and ``custom-doc/``, which were ingested as pages of
    the site. With ``start_paths``, each is read; a playbook whose sources are all remote says
    nothing about the folders here, so every descriptor is read as before."""
    files = {
        "antora.yml": "name: ROOT\nversion: '24.1'\n",
        "modules/ROOT/pages/index.adoc": "= Home\n",
        "broken-doc/antora.yml": "name: redpanda-cloud\nversion: ~\n",
        "broken-doc/modules/ROOT/pages/custom-page.adoc": "= Custom\n",
        "guides/antora.yml": "name: guides\nversion: ~\n",
        "guides/modules/ROOT/pages/g.adoc": "= Guide\n",
    }
    write_files(tmp_path / "a", {**files, "antora-playbook.yml": (
        "content:\n  sources:\n  - url: .\n    branches: HEAD\n  - url: https://github.com/o/other\n"
        "    start_paths: [home, api]\n")})
    site = AntoraSite(tmp_path / "a")
    assert [c.dir for c in site.components] == [""]
    assert site.classify("modules/ROOT/pages/index.adoc").role is FileRole.PAGE
    custom = site.classify("broken-doc/modules/ROOT/pages/custom-page.adoc")
    assert custom.role is FileRole.EXCLUDED and "start path" in custom.reason
    write_files(tmp_path / "b", {**files, "antora-playbook.yml": (
        "content:\n  sources:\n  - url: ./\n    start_paths: ., guid*\n")})
    site = AntoraSite(tmp_path / "b")
    assert sorted(c.dir for c in site.components) == ["", "guides"]
    assert site.classify("guides/modules/ROOT/pages/g.adoc").role is FileRole.PAGE
    assert site.classify("broken-doc/modules/ROOT/pages/custom-page.adoc").role is FileRole.EXCLUDED
    write_files(tmp_path / "d", {**files, "antora-playbook.yml": (  # braces and an excluded start path
        "content:\n  sources:\n  - url: .\n    start_paths: '{guides,broken-doc}, !broken-doc'\n")})
    site = AntoraSite(tmp_path / "d")
    assert [c.dir for c in site.components] == ["guides"]
    write_files(tmp_path / "c", {**files, "antora-playbook.yml": (
        "content:\n  sources:\n  - url: https://github.com/o/docs\n    start_path: docs\n")})
    site = AntoraSite(tmp_path / "c")
    assert sorted(c.dir for c in site.components) == ["", "broken-doc", "guides"]


def test_two_versions_of_one_component_read_the_latest(tmp_path: Path, write_files: Callable[..., None]) -> None:
    """Two antora.yml with one name: Antora shows the latest version (semantic versions
    from the highest, prereleases passed over); the other's pages are skipped with its
    version named, and resource IDs resolve in the right version."""
    write_files(tmp_path, {
        "v1/antora.yml": "name: app\nversion: '1.9'\n",
        "v1/modules/ROOT/pages/index.adoc": "= Old\n",
        "v1/modules/ROOT/images/shot.png": "png",
        "v2/antora.yml": "name: app\nversion: '1.10'\n",
        "v2/modules/ROOT/pages/index.adoc": "= New\n",
        "v2/modules/ROOT/images/shot.png": "png",
        "v2/modules/ROOT/partials/p.adoc": "P\n",
        "next/antora.yml": "name: app\nversion: '2.0'\nprerelease: true\n",
        "next/modules/ROOT/pages/index.adoc": "= Next\n",
        "other/antora.yml": "name: tools\nversion: ~\n",
        "other/modules/ROOT/pages/use.adoc": "= Use\n",
    })
    site = AntoraSite(tmp_path)
    role = lambda rel: site.classify(rel).role
    assert role("v2/modules/ROOT/pages/index.adoc") is FileRole.PAGE
    assert role("v1/modules/ROOT/pages/index.adoc") is FileRole.EXCLUDED
    assert "'1.9'" in site.classify("v1/modules/ROOT/pages/index.adoc").reason
    assert "'2.0'" in site.classify("next/modules/ROOT/pages/index.adoc").reason
    tools = "other/modules/ROOT/pages/use.adoc"
    assert site.resolve_asset("app:ROOT:shot.png", page_rel=tools).rel_path == "v2/modules/ROOT/images/shot.png"
    assert site.resolve_asset("1.9@app:ROOT:shot.png", page_rel=tools).rel_path == "v1/modules/ROOT/images/shot.png"
    assert site.resolve_include("app:ROOT:partial$p.adoc", page_rel=tools).rel_path == "v2/modules/ROOT/partials/p.adoc"
    assert site.resolve_asset("3.0@app:ROOT:shot.png", page_rel=tools).problem
    # in its own component a page keeps its version
    assert site.resolve_asset("app:ROOT:shot.png", page_rel="v1/modules/ROOT/pages/index.adoc").rel_path == \
        "v1/modules/ROOT/images/shot.png"


def test_a_chosen_docs_version_is_read_where_a_component_has_it(
        tmp_path: Path, write_files: Callable[..., None]) -> None:
    """--docs-version 1.0 on a made-up site of two components versioned apart: the component
    with a 1.0 reads it, the one without keeps its latest; a version no component has fails,
    listing each component's versions (Antora: each component has its own versions)."""
    write_files(tmp_path, {
        "a1/antora.yml": "name: app\nversion: '1.0'\n", "a1/modules/ROOT/pages/index.adoc": "= App 1.0\n",
        "a2/antora.yml": "name: app\nversion: '2.0'\n", "a2/modules/ROOT/pages/index.adoc": "= App 2.0\n",
        "t1/antora.yml": "name: tools\nversion: '0.9'\n", "t1/modules/ROOT/pages/use.adoc": "= Use 0.9\n",
        "t3/antora.yml": "name: tools\nversion: '3.0'\n", "t3/modules/ROOT/pages/use.adoc": "= Use 3.0\n",
    })
    pages = ("a1/modules/ROOT/pages/index.adoc", "a2/modules/ROOT/pages/index.adoc",
             "t1/modules/ROOT/pages/use.adoc", "t3/modules/ROOT/pages/use.adoc")
    default = AntoraSite.load(tmp_path, None)
    assert [p for p in pages if default.classify(p).role is FileRole.PAGE] == [pages[1], pages[3]]
    assert default.config.docs_version == "app 2.0, tools 3.0"
    site = AntoraSite.load(tmp_path, None, variant=SiteVariant(docs_version="1.0"))
    assert [p for p in pages if site.classify(p).role is FileRole.PAGE] == [pages[0], pages[3]]
    assert site.config.docs_version == "app 1.0, tools 3.0"
    assert site.classify(pages[1]).reason == \
        "Antora component 'app' version '2.0' is not the version read ('1.0', at a1: the chosen docs version)"
    assert "read since it has no version '1.0'" in site.classify(pages[2]).reason
    with pytest.raises(ConfigError, match=r"it has app: 2.0, 1.0; tools: 3.0, 0.9"):
        AntoraSite.load(tmp_path, None, variant=SiteVariant(docs_version="5.x"))


def test_page_imagesdir_entry_is_not_used_by_antora(tmp_path: Path, write_files: Callable[..., None],
                                                     png: bytes) -> None:
    """A page that sets :imagesdir: (for an editor preview) still gets its images from the module's
    images family, as Antora resolves image targets as resource IDs; a listing that shows the entry
    keeps it, and a page that references {imagesdir} itself is left alone."""
    from murar.ingest.markup.asciidoc import convert_asciidoc

    write_files(tmp_path, {
        "antora.yml": "name: pumps\nversion: latest\n",
        "modules/ROOT/images/valve.png": png,
        "modules/ROOT/pages/p.adoc": (
            ":imagesdir: _images/\n\n= Valves\n\nOpen the valve.\n\nimage::valve.png[Valve handle, 300]\n\n"
            "Click image:valve.png[valve, 30] to close.\n\n----\n:imagesdir: ./img\n----\n"),
    })
    site = AntoraSite(tmp_path, "antora.yml")
    doc = convert_asciidoc(tmp_path / "modules/ROOT/pages/p.adoc", site=site)
    assert [m.path for m in doc.media] == ["modules/ROOT/images/valve.png"] * 2
    assert not doc.warnings
    assert ":imagesdir: ./img" in doc.sections[-1].text  # the listing shows it as written
    page = ":imagesdir: shots\n\nimage::{imagesdir}/valve.png[]\n"
    assert site.preprocess(page, page_rel="modules/ROOT/pages/p.adoc") == page


def test_admonition_captions_from_the_playbook_label_admonitions(tmp_path: Path,
                                                                  write_files: Callable[..., None]) -> None:
    """A localised site sets note-caption/warning-caption in its playbook: the admonitions read
    with those labels, as Asciidoctor writes them; a page's own entry still decides for that page."""
    from murar.ingest.markup.asciidoc import convert_asciidoc

    write_files(tmp_path, {
        "antora-playbook.yml": "site:\n  title: P\nasciidoc:\n  attributes:\n    note-caption: Anmerkung\n"
                               "    warning-caption: Warnung\n",
        "antora.yml": "name: pumps\nversion: latest\n",
        "modules/ROOT/pages/p.adoc": "= Pumpen\n\nNOTE: Erst entlüften.\n\n[WARNING]\n====\nHeiß.\n====\n",
        "modules/ROOT/pages/q.adoc": ":note-caption: Hinweis\n\n= Q\n\nNOTE: Eigener.\n",
    })
    site = AntoraSite(tmp_path, "antora-playbook.yml")
    doc = convert_asciidoc(tmp_path / "modules/ROOT/pages/p.adoc", site=site)
    assert doc.sections[0].text == "Anmerkung: Erst entlüften.\n\nWarnung: Heiß."
    doc = convert_asciidoc(tmp_path / "modules/ROOT/pages/q.adoc", site=site)
    assert doc.sections[0].text == "Hinweis: Eigener."
