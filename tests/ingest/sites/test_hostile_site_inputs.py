"""Hostile and malformed input to the site rules (config detection, data files,
includes, versions): a clear error or a reported skip, never a crash that loses the
other pages, unbounded work, or a read outside the corpus root."""

from __future__ import annotations

import json
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from murar.errors import ConfigError
from murar.ingest.corpus import (
    IngestReport,
    convert_corpus,
    no_pages_message,
    walk_site,
)
from murar.ingest.markup.pymdown import convert_pymdown
from murar.ingest.sites import _xrefs, hugo, jekyll
from murar.ingest.sites.base import FileRole, SiteVariant
from murar.ingest.sites.detect import open_site
from murar.ingest.sites.docusaurus import DocusaurusSite
from murar.ingest.sites.mkdocs import MkDocsSite


def test_jekyll_data_files_that_do_not_parse_are_left_out(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "_data/big.csv", 'a,b\n"' + "x" * 200_000 + '",1\n')  # over the csv module's field limit
    write(tmp_path, "_data/deep.json", "[" * 100_000 + "]" * 100_000)  # RecursionError in json
    write(tmp_path, "_data/tall.json", '{"a":' * 900 + "1" + "}" * 900)  # parses; too deep to pickle
    write(tmp_path, "_data/ok.csv", "name,size\nalpha,1\n")
    write(tmp_path, "index.md", "---\ntitle: P\n---\n{% for r in site.data.ok %}{{ r.name }}{% endfor %}\n")
    site = open_site(tmp_path).site  # was _csv.Error / RecursionError out of open_site
    assert isinstance(site, jekyll.JekyllSite)
    pickle.dumps(site)  # the site goes to the page workers: was RecursionError, every page failed
    assert "alpha" in site.preprocess((tmp_path / "index.md").read_text(), page_rel="index.md")


def test_jekyll_config_and_data_symlinked_out_of_the_root_are_not_read(tmp_path: Path,
                                                                       write: Callable[..., Path]) -> None:
    outside = write(tmp_path, "outside/secret.yml", "secret: SECRET\n")
    root = tmp_path / "site"
    write(root, "_config_base.yml", "title: Base\n")
    (root / "_config_link.yml").symlink_to(outside)
    (root / "_data").mkdir()
    (root / "_data/leak.yml").symlink_to(outside)
    write(root, "Makefile", "build:\n\tjekyll build --config _config_base.yml,_config_link.yml\n")
    write(root, "_layouts/default.html", "{{ content }}")
    write(root, "index.md", "---\ntitle: P\n---\n{{ site.title }} {{ site.secret }} {{ site.data.leak.secret }}\n")
    site = open_site(root).site
    assert isinstance(site, jekyll.JekyllSite)
    text = site.preprocess((root / "index.md").read_text(), page_rel="index.md")
    assert "Base" in text and "SECRET" not in text


def test_xref_label_scan_is_linear_on_pathological_titles(tmp_path: Path, write: Callable[..., Path],
                                                          deadline: Callable[..., Any]) -> None:
    n = 100_000
    write(tmp_path, "spaces.md", "(a)=\n# Spaced" + " " * n + "out ##\n")
    write(tmp_path, "brackets.md", "(b)=\n# " + "[" * n + "\n")
    write(tmp_path, "links.md", "(c)=\n# " + "[a](" * (n // 4) + "\n")
    write(tmp_path, "role.md", "(d)=\n# :ref:`Role" + " " * n + "text`\n")
    write(tmp_path, "ok.md", "(e)=\n# See [the guide](g(1).md) and {ref}`Other <x>` ##\n")
    files = [(f"{name}.md", name) for name in ("spaces", "brackets", "links", "role", "ok")]
    with deadline(20, "the label scan backtracks quadratically on a long heading"):  # was minutes
        index = _xrefs.scan_xrefs(tmp_path, files)
    titles = {x: (t.title if (t := index.target(x)) else None) for x in "abcde"}
    assert titles["a"] == "Spaced out"
    assert titles["b"] == "[" * n and titles["d"] == "Role text"
    assert titles["e"] == "See the guide and Other"


def test_docusaurus_exclude_globs_that_backtrack_or_do_not_compile(tmp_path: Path, write: Callable[..., Path],
                                                                   deadline: Callable[..., Any]) -> None:
    write(tmp_path, "docusaurus.config.js", """module.exports = { presets: [['classic', { docs: {
  exclude: ['""" + "**/" * 14 + """nothing.md', '""" + "*a" * 24 + """b', '[z-a]*.md', 'x/[]y.md',
            '""" + "{a,b}" * 24 + """', '**/_*.md'] } }]] };
""")
    deep = "docs/" + "a/" * 30 + "a" * 60 + ".md"
    for rel in (deep, "docs/ok.md", "docs/_part.md"):
        write(tmp_path, rel, "# T\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    with deadline(20, "an exclude glob backtracks exponentially"):  # was minutes, or re.error
        roles = {rel: site.classify(rel).role for rel in (deep, "docs/ok.md", "docs/_part.md")}
    assert roles == {deep: FileRole.PAGE, "docs/ok.md": FileRole.PAGE, "docs/_part.md": FileRole.INCLUDE}  # a partial


def test_docusaurus_plugin_paths_out_of_the_root_are_not_read(tmp_path: Path, write: Callable[..., Path]) -> None:
    root = tmp_path / "site"
    write(tmp_path, "outside/secret.md", "import X from '../site/docs/a.md';\n")
    write(root, "docusaurus.config.js", """const path = require('path');
module.exports = { staticDirectories: ['static', '../outside'], presets: [['classic', {}]],
  plugins: [['@docusaurus/plugin-content-docs', { id: 'up', path: path.resolve(__dirname, '..') }],
            ['@docusaurus/plugin-content-docs', { id: 'abs', path: '/etc' }]] };
""")
    write(root, "docs/a.md", "# A\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    # before: '..' and '/etc' were content folders, and the partial scan walked them (rglob of '/')
    assert site.config.content_dirs == ("docs", "blog", "src/pages")
    assert site.config.static_dirs == ("static",)
    assert site.classify("docs/a.md").role is FileRole.PAGE


def _mdx_texts(root: Path, write: Callable[..., Path], name: str, text: str) -> tuple[list[str], list[str]]:
    from murar.ingest.markup.mdx import convert_mdx

    write(root, "docusaurus.config.js", "module.exports = { presets: [['classic', {}]] };\n")
    page = write(root, f"docs/{name}.mdx", text)
    doc = convert_mdx(page, site=DocusaurusSite.load(root, "docusaurus.config.js"), assets_dir=root / "assets")
    return [s.text for s in doc.sections], doc.warnings


def test_mdx_unclosed_comments_and_head_are_linear(tmp_path: Path, write: Callable[..., Path],
                                                   deadline: Callable[..., Any]) -> None:
    n = 30_000
    with deadline(20, "a lazy regex rescans the line from every unclosed opener"):  # was ~40 s and ~50 s
        texts, _ = _mdx_texts(tmp_path, write, "c", "# C\n\n" + "{/* " * n + "\n\n" + "<head>" * n + "\n\nafter\n")
    assert texts[-1].endswith("after")
    texts, _ = _mdx_texts(tmp_path, write, "ok", "# K\n\nkeep {/* c */} this{ /* y */ } and <head><b>x</b></head>end\n")
    assert texts == ["keep this and end"]


def test_magic_comment_lines_and_backtick_runs_are_linear(tmp_path: Path, write: Callable[..., Path],
                                                          deadline: Callable[..., Any]) -> None:
    """A code line that opens like a magic comment and ends in a long run of spaces and a letter
    (the pattern backtracked over the spaces: 38 ms a line), and a text line of backtick runs
    that never close (each run searched the rest of the line for its closer)."""
    spaces = "// highlight-next-line" + " " * 1900 + "x"
    ticks = " ".join("`" * (k % 40 + 1) + "a" for k in range(3000))
    with deadline(20, "a magic comment or code span scan is quadratic"):
        texts, _ = _mdx_texts(tmp_path, write, "m", "# M\n\n```yaml\n" + (spaces + "\n") * 2000 + "```\n\n"
                              + ticks[:19_000] + "\n\nafter\n")
    assert texts[-1].endswith("after") and "highlight-next-line" in texts[-1]


def test_mdx_import_that_never_closes_does_not_take_the_page(tmp_path: Path, write: Callable[..., Path]) -> None:
    texts, warnings = _mdx_texts(tmp_path, write, "i", "import {A,\n\n# Guide\n\nThe text.\n")
    assert texts == ["The text."] and any("never closes" in w for w in warnings)  # was [] and no warning
    texts, warnings = _mdx_texts(tmp_path, write, "e", "export const x = {\n  a: 'one',\n\n  b: 2,\n};\n\n# T\n\nSee.\n")
    assert texts == ["See."] and not warnings  # a blank line inside a closed statement stays in it


def _antora_page(root: Path, write: Callable[..., Path], text: str, attrs: str = "") -> tuple[list[str], list[str]]:
    from murar.ingest.markup.asciidoc import convert_asciidoc
    from murar.ingest.sites.antora import AntoraSite

    write(root, "docs/antora.yml", "name: guide\nversion: main\nasciidoc:\n  attributes:\n" + (attrs or "    x: y\n"))
    page = write(root, "docs/modules/ROOT/pages/p.adoc", text)
    doc = convert_asciidoc(page, site=AntoraSite(root, "docs/antora.yml"))
    return [s.text for s in doc.sections], doc.warnings


def test_asciidoc_idseparator_that_is_a_regex_escape(tmp_path: Path, write: Callable[..., Path]) -> None:
    texts, _ = _antora_page(tmp_path, write, "= P\n\nSee <<sec\\one>>.\n\n== Sec One\n\nText.\n",
                            attrs="    idprefix: ''\n    idseparator: '\\'\n")
    assert texts[1:] == ["Text."]  # was re.error 'bad escape (end of pattern)': the page failed


def test_asciidoc_self_referencing_attribute_in_a_block_attribute_list(tmp_path: Path, write: Callable[..., Path],
                                                                       deadline: Callable[..., Any]) -> None:
    with deadline(30, "asciidoc-py doubles {tabs} on every pass over the attribute list"):  # was > 180 s
        texts, warnings = _antora_page(tmp_path, write, "= T\n:tabs: {tabs}{tabs}\n\n[{tabs}]\n====\nLinux::\n"
                                       "+\nlin\n====\n\nAfter.\n")
    # (asciidoc-py catches the deadline's TimeoutError: 'FAILED: ... unexpected error', rendered again)
    assert texts[-1].endswith("After.") and not any("FAILED" in w for w in warnings)


def test_hugo_thousands_of_unclosed_shortcodes_are_linear(tmp_path: Path, write: Callable[..., Path],
                                                          deadline: Callable[..., Any]) -> None:
    from murar.ingest.sites import hugo

    write(tmp_path, "hugo.toml", 'title = "T"\n')
    body = ("{{< mermaid >}}" * 20_000 + "\n\n" + "{{< card " * 20_000 + "\n\n"
            + "{{< mermaid >}}\ngraph TD\n{{< /mermaid >}}\n\nText after.\n")
    write(tmp_path, "content/docs/p.md", "---\ntitle: P\n---\n" + body)
    site = hugo.load(tmp_path, "hugo.toml")
    with deadline(20, "each unclosed shortcode looked for its closing tag to the end of the page"):  # was minutes
        text = site.preprocess(body, page_rel="content/docs/p.md")
    assert "```mermaid\ngraph TD\n```" in text and text.rstrip().endswith("Text after.")


def test_hugo_thousands_of_tab_includes_in_a_large_bundle_are_bounded(tmp_path: Path, write: Callable[..., Path],
                                                                      deadline: Callable[..., Any]) -> None:
    """3,000 Kubernetes-style tab include= in a leaf bundle of 1,000 files: the bundle is listed once per
    page and its glob tests are charged to the page, for the include scan and the page alike."""
    from murar.ingest.sites import hugo

    write(tmp_path, "hugo.toml", 'title = "T"\n')
    for i in range(1000):
        write(tmp_path, f"content/b/f{i:04}.json", "{}")
    body = "{{< tabs >}}\n" + "".join(f'{{{{< tab name="t{i}" include="nomatch{i}" />}}}}\n' for i in range(3000)) \
        + "{{< /tabs >}}\n\nText after.\n"
    write(tmp_path, "content/b/index.md", "---\ntitle: B\n---\n" + body)
    site = hugo.load(tmp_path, "hugo.toml")
    with deadline(20, "each tab include listed the bundle again"):
        assert site.classify("content/b/index.md").role is FileRole.PAGE
        text = site.preprocess(body, page_rel="content/b/index.md")
    assert text.rstrip().endswith("Text after.")


def test_hugo_galleries_nested_cards_and_resource_globs_are_bounded(tmp_path: Path, write: Callable[..., Path],
                                                                  deadline: Callable[..., Any]) -> None:
    """Thousands of carousels over a bundle of a thousand files, cards nested thousands deep and
    front matter globs that would backtrack stay bounded (glob tests per page, card depth, wildcards)."""
    from murar.ingest.sites import hugo

    write(tmp_path, "hugo.toml", 'title = "T"\n')
    for i in range(1000):
        write(tmp_path, f"content/p/img{i:04}.png", b"x")
    write(tmp_path, "content/p/index.md", "---\ntitle: P\nresources:\n  - src: '" + "*a" * 40 + "'\n    title: T\n---\n")
    site = hugo.load(tmp_path, "hugo.toml")
    body = ("".join(f'{{{{< carousel images="{{x{i}*,y{i}*}}" >}}}}\n' for i in range(5000))
            + "{{< card >}}" * 3000 + "inner" + "{{< /card >}}" * 3000 + "\n\nText after.\n")
    with deadline(20, "every carousel glob tested against every bundle file; nested cards recursing"):
        text = site.preprocess(body, page_rel="content/p/index.md")
    assert text.rstrip().endswith("Text after.") and "inner" in text
    assert len(site.page_resources("content/p/index.md")) == 1000
    assert all(r.title == "" for r in site.page_resources("content/p/index.md"))


@pytest.mark.parametrize("where", ["resources", "gallery", "carousel", "img"])
def test_hugo_resource_globs_are_linear(tmp_path: Path, write: Callable[..., Path], where: str,
                                        deadline: Callable[..., Any]) -> None:
    """Six stars are enough: '*a*a*a*a*a*a*b' against a bundle file named with 200
    letters backtracked for hours, in front matter resources, a gallery match=, a
    carousel images= or a Geekdoc img name= (the 12-wildcard cap did not help). Globs
    now run as an automaton, linear in the name."""
    from murar.ingest.sites import hugo

    glob = "*a" * 6 + "*b"
    write(tmp_path, "hugo.toml", 'title = "T"\n')
    for i in range(3):
        write(tmp_path, f"content/p/{i}{'a' * 200}.png", b"x")
    write(tmp_path, "content/p/shots/one.png", b"x")
    front = f"resources:\n  - src: '{glob}'\n    title: T\n  - src: 'shots/*'\n    title: Shot\n" \
        if where == "resources" else ""
    body = {"resources": "x", "gallery": f'{{{{< gallery match="{glob}" >}}}}{{{{< gallery match="shots/*" >}}}}',
            "carousel": f'{{{{< carousel images="{{{glob},shots/*}}" >}}}}',
            "img": f'{{{{< img name="{glob}" >}}}}{{{{< img name="shots/*" >}}}}'}[where]
    write(tmp_path, "content/p/index.md", f"---\ntitle: P\n{front}---\n{body}\n\nText after.\n")
    site = hugo.load(tmp_path, "hugo.toml")
    with deadline(20, f"a glob with six stars in {where}"):
        text = site.preprocess((tmp_path / "content/p/index.md").read_text(), page_rel="content/p/index.md")
        titles = {r.rel: r.title for r in site.page_resources("content/p/index.md")}
    assert "Text after." in text
    if where == "resources":
        assert titles["content/p/shots/one.png"] == "Shot" and list(titles.values()).count("T") == 0
    else:
        assert "shots/one.png" in text


def test_hugo_globs_match_as_gobwas_does() -> None:
    from murar.ingest.sites.hugo import _glob_match

    assert _glob_match("gallery/*", "gallery/a.JPG") and not _glob_match("gallery/*", "gallery/x/a.jpg")
    assert _glob_match("**.jpg", "a/b/c.jpg") and _glob_match("*/{a,b*}?.png", "x/bb1.png")
    assert _glob_match("{a,{b,c}}*{d,e}", "cxe") and not _glob_match("{a,b", "a")
    assert _glob_match("*{}*", "ab") and not _glob_match("*{}*", "a/b")  # two stars, not a globstar
    assert _glob_match("a,b", "a,b") and not _glob_match("a,b", "a")  # a comma outside braces is a comma


def test_sphinx_mkdocs_docfx_globs_stay_linear_on_backtracking_patterns(
        tmp_path: Path, write: Callable[..., Path], deadline: Callable[..., Any]) -> None:
    """Sphinx ``exclude_patterns``, MkDocs ``exclude_docs`` and DocFX file-mapping
    globs built their own backtracking regexes: ``*a*a...*b`` on a long file name
    took time exponential in the stars. They now match through ``glob_match``."""
    bad, deep_name = "*a" * 24 + "b", "a" * 60 + ".md"
    write(tmp_path / "sx", "conf.py", f"project = 'S'\nexclude_patterns = ['{bad}', '{'**/' * 14}x.rst', 'drafts']\n")
    write(tmp_path / "mk", "mkdocs.yml", f"site_name: M\nexclude_docs: |\n  {bad}\n  /drafts/\n")
    write(tmp_path / "fx", "docfx.json", '{"build": {"content": [{"files": ["' + bad + '", "**/*.md"], '
          '"exclude": ["' + bad + '", "Drafts/**"]}]}}')
    cases = {"sx": (deep_name.replace(".md", ".rst"), "drafts/d.rst"), "mk": ("docs/" + deep_name, "docs/drafts/d.md"),
             "fx": (deep_name, "drafts/d.md")}
    for site, (deep, excluded) in cases.items():
        write(tmp_path / site, deep, "# T\n\nText.\n")
        write(tmp_path / site, excluded, "# D\n\nText.\n")
    for site, (deep, excluded) in cases.items():
        opened = open_site(tmp_path / site).site
        assert opened.config.generator == {"sx": "sphinx", "mk": "mkdocs", "fx": "docfx"}[site]
        with deadline(20, f"{site}: a glob backtracks exponentially"):  # was minutes per file
            roles = (opened.classify(deep).role, opened.classify(excluded).role)
        assert roles[0] is FileRole.PAGE and roles[1] is not FileRole.PAGE, (site, roles)


def test_html_fragment_text_that_looks_like_a_picture_marker(tmp_path: Path, write: Callable[..., Path]) -> None:
    """builder.html marks where it took each picture out of an HTML fragment with private-use
    characters; a page writing such characters itself must not crash the page or lose a picture."""
    write(tmp_path, "a.png", "")
    texts, _ = _mdx_texts(tmp_path, write, "mark", "# M\n\n<div>fake \ue0007\ue001 and \ue0000\ue001 "
                          "<img src=\"/a.png\" alt=\"A\"/> after</div>\n\nEnd.\n")
    assert texts[-1].endswith("End.") and "after" in texts[-1]


# ------------------------------------------------- languages and versions (--language, --docs-version)

def _read(root: Path, **variant: str) -> tuple[dict[str, str], tuple[str, ...]]:
    """source path -> text of the pages an ingest of ``root`` reads, and the site's notes."""
    sel = open_site(root, variant=SiteVariant(**variant) if variant else None)
    report = IngestReport()
    with tempfile.TemporaryDirectory() as tmp:
        docs = convert_corpus(sel.site.config.root, assets_dir=Path(tmp), report=report, site=sel.site,
                              walk=walk_site(sel.site, under=sel.walk))
    assert not report.failed
    return {d.source_path: " ".join(s.text for s in d.sections) for d in docs}, sel.notes


def _outside(tmp_path: Path, write: Callable[..., Path]) -> Path:
    out = tmp_path / "outside"
    for rel in ("intro.md", "index.md", "fr/index.md", "docusaurus-plugin-content-docs/current/intro.md",
                "content/intro.md"):
        write(out, rel, "# Secret\n\nSECRET outside the corpus.\n")
    write(out, "en.toml", 'note = "SECRET note"\n')
    return out


def test_docusaurus_translations_and_versions_linked_out_of_the_root(tmp_path: Path,
                                                                     write: Callable[..., Path]) -> None:
    """A locale folder or a translated file that is a symbolic link out of the root is
    not read, so it does not replace the default locale's page (the page was lost: 0
    pages); a version folder linked out is missing (it was chosen and read nothing)."""
    out, root = _outside(tmp_path, write), tmp_path / "site"
    write(root, "docusaurus.config.js", "module.exports = { i18n: { defaultLocale: 'en', locales: ['en', 'fr', "
          "'es'] }, presets: [['classic', { docs: { path: 'docs' } }]] };\n")
    write(root, "docs/intro.md", "# Intro\n\nEnglish intro.\n")
    write(root, "versions.json", '["2.0", "1.0"]')
    write(root, "versioned_docs/version-1.0/intro.md", "# Intro\n\nVersion one.\n")
    (root / "versioned_docs/version-2.0").symlink_to(out)
    (root / "i18n").mkdir()
    (root / "i18n/fr").symlink_to(out)
    write(root, "i18n/es/docusaurus-plugin-content-docs/current/.keep", "")
    (root / "i18n/es/docusaurus-plugin-content-docs/current/intro.md").symlink_to(out / "intro.md")
    for lang in ("fr", "es"):
        pages, _ = _read(root, language=lang, docs_version="current")
        assert list(pages) == ["docs/intro.md"] and "English intro." in pages["docs/intro.md"]
    pages, _ = _read(root)  # 2.0 (the default) is missing: the current docs, as for a partial checkout
    assert list(pages) == ["docs/intro.md"]
    with pytest.raises(ConfigError, match="leads out of the corpus root"):
        open_site(root, variant=SiteVariant(docs_version="2.0"))
    assert "Version one." in _read(root, docs_version="1.0")[0]["versioned_docs/version-1.0/intro.md"]


@pytest.mark.parametrize("structure", ["suffix", "folder"])
def test_mkdocs_translations_linked_out_of_the_root(tmp_path: Path, write: Callable[..., Path],
                                                     structure: str) -> None:
    """mkdocs-static-i18n: a translation that is a symbolic link out of the root is not
    read; the default locale's page stands in for it (fallback_to_default) instead of
    being excluded as 'read from its translation' (0 pages)."""
    out, root = _outside(tmp_path, write), tmp_path / "site"
    write(root, "mkdocs.yml", f"site_name: S\nplugins:\n  - i18n:\n      docs_structure: {structure}\n"
          "      languages:\n        - locale: en\n          default: true\n        - locale: fr\n")
    if structure == "suffix":
        write(root, "docs/index.md", "# Home\n\nEnglish home.\n")
        (root / "docs/index.fr.md").symlink_to(out / "index.md")
    else:
        write(root, "docs/en/index.md", "# Home\n\nEnglish home.\n")
        (root / "docs/fr").symlink_to(out / "fr")
    pages, _ = _read(root, language="fr")
    assert len(pages) == 1 and "English home." in next(iter(pages.values()))


def test_hugo_content_folders_out_of_the_root(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A language whose contentDir is absolute or leads out of the root made every
    file's classification raise (os_walk_files walked it: ValueError), so no page was
    read in any language. Now nothing out of the root is read, the default language's
    pages are, and choosing such a language says why it has no pages there."""
    out, root = _outside(tmp_path, write), tmp_path / "site"
    write(root, "hugo.toml", f'title = "T"\n[languages.en]\ncontentDir = "content"\n'
          f'[languages.fr]\ncontentDir = "{out / "content"}"\n[languages.de]\ncontentDir = "../outside/content"\n'
          '[languages.es]\ncontentDir = "content-es"\n[languages.it]\ncontentDir = "content-it"\n')
    write(root, "content/_index.md", "# Home\n\nEnglish home.\n")
    (root / "content-es").symlink_to(out / "content")
    pages, _ = _read(root)
    assert list(pages) == ["content/_index.md"] and "SECRET" not in pages["content/_index.md"]
    for lang in ("fr", "de", "es"):
        pages, notes = _read(root, language=lang)
        assert pages == {} and any(f"language {lang}: its contentDir" in n and "out of the corpus root" in n
                                   for n in notes)
    assert any("content-it is not a folder" in n for n in _read(root, language="it")[1])
    sel = open_site(root, variant=SiteVariant(language="fr"))  # the no-pages error says why
    assert "notes: language fr: its contentDir" in no_pages_message(sel, walk_site(sel.site, under=sel.walk),
                                                                     IngestReport())


@pytest.mark.parametrize("how", ["i18nDir", "link"])
def test_hugo_i18n_strings_out_of_the_root_are_not_read(tmp_path: Path, write: Callable[..., Path],
                                                         how: str) -> None:
    """A callout's label comes from the i18n files: one found through an i18nDir out of
    the root, or a file linked out of it, was read ('SECRET note:')."""
    out, root = _outside(tmp_path, write), tmp_path / "site"
    write(root, "hugo.toml", 'title = "T"\n' + ('i18nDir = "../outside"\n' if how == "i18nDir" else ""))
    write(root, "content/_index.md", "# Home\n\n{{< notice note >}}\nEnglish note.\n{{< /notice >}}\n")
    if how == "link":
        write(root, "i18n/.keep", "")
        (root / "i18n/en.toml").symlink_to(out / "en.toml")
    text = _read(root)[0]["content/_index.md"]
    assert "SECRET" not in text and "English note." in text


def test_sphinx_makefile_variables_and_links_are_bounded(tmp_path: Path, write: Callable[..., Path]) -> None:
    """The Makefile's variables were expanded whole and cut afterwards: B = $(C) 10,000
    times over a 10,000-character C is 100,000,000 characters a line (four levels of it
    was a MemoryError out of the site's loading, in the parent process: every page
    lost). A Makefile linked out of the root was read (a link to /dev/zero never ended)."""
    import tracemalloc

    from murar.ingest.sites.sphinx import makefile_source_dir

    root = tmp_path / "site"
    write(root, "conf.py", "project = 'P'\n")
    write(root, "content/index.rst", "Title\n=====\n")
    write(root, "Makefile", "C = " + "x" * 10_000 + "\nB = " + "$(C)" * 10_000 + "\nhtml:\n"
          + "\techo $(B)\n" * 5 + "\tsphinx-build -c . content _build\n")
    tracemalloc.start()
    try:
        found = makefile_source_dir(root.resolve(), ".")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == "content" and peak < 20_000_000
    write(tmp_path, "elsewhere/Makefile", "html:\n\tsphinx-build -c . content _build\n")
    (root / "Makefile").unlink()
    (root / "Makefile").symlink_to(tmp_path / "elsewhere/Makefile")
    assert makefile_source_dir(root.resolve(), ".") is None


def test_sphinx_conf_py_too_deep_for_the_parser_or_linked_out(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A conf.py nested deeper than Python's parser goes ('x = ---...1') raised
    MemoryError out of the site's loading: the whole ingest stopped. It now gives the
    defaults and a warning; a conf.py linked out of the root is not read."""
    from murar.ingest.sites.sphinx import SphinxSite

    root = tmp_path / "site"
    write(root, "conf.py", 'project = "P"\nx = ' + "-" * 100_000 + "1\n")
    write(root, "index.rst", "Title\n=====\n\nText.\n")
    pages, _ = _read(root)
    assert "Text." in pages["index.rst"]
    write(tmp_path, "elsewhere/conf.py", 'project = "SECRET"\nroot_doc = "secret"\n')
    (root / "conf.py").unlink()
    (root / "conf.py").symlink_to(tmp_path / "elsewhere/conf.py")
    site = SphinxSite.load(root, "conf.py")
    assert site.conf.root_doc == "index" and "SECRET" not in str(site.conf.values)


def test_config_files_too_deep_or_too_large_are_config_errors(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A mkdocs.yml or docfx.json nested deeper than the parser goes raised RecursionError
    out of open_site (the whole ingest stopped, no reason given); mkdocs.yml aliases that
    expand to millions of values (nine levels of nine: a MemoryError after 35 s, here
    seven) were walked whole when an extension's options were read. Now each is a
    ConfigError naming the file. An INHERIT parent out of the root is not read."""
    from murar.ingest.sites.mkdocs import read_mkdocs_yml

    deep = "[" * 100_000 + "]" * 100_000
    write(tmp_path / "mk", "mkdocs.yml", f"site_name: S\nnav: {deep}\n")
    write(tmp_path / "fx", "docfx.json", '{"build": {"content": [{"files": ["**/*.md"]}]}, "x": ' + deep + "}")
    laughs, prev = 'x0: &a ["x","x","x","x","x","x","x","x","x"]\n', "a"
    for name in "bcdefg":
        laughs += f"x{name}: &{name} [" + ",".join(["*" + prev] * 9) + "]\n"
        prev = name
    write(tmp_path / "lol", "mkdocs.yml", "site_name: S\n" + laughs + "markdown_extensions:\n  - pymdownx.snippets:\n"
          "      base_path: *g\n")
    for site, match in (("mk", "nests too deep"), ("fx", "nests too deep"), ("lol", "aliases expand")):
        write(tmp_path / site, "docs/index.md", "# H\n")
        with pytest.raises(ConfigError, match=match):
            open_site(tmp_path / site)
    write(tmp_path, "outside.yml", "site_name: SECRET\n")
    write(tmp_path / "in", "mkdocs.yml", "INHERIT: ../outside.yml\nnav: [a.md]\n")
    assert read_mkdocs_yml(tmp_path / "in/mkdocs.yml", root=(tmp_path / "in").resolve()) == {"nav": ["a.md"]}


def test_thousands_of_moniker_zones_find_the_newest_version_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # a Learn page of 3,000 ``> product-N`` zones: the newest version of a product was
    # recomputed for every comparison of every range (3,000 x 3,000 version compares)
    from murar.ingest.sites import _monikers

    calls = 0

    def counting_max(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return max(*args, **kwargs)

    monkeypatch.setattr(_monikers, "max", counting_max, raising=False)
    view = _monikers.default_view([f"> tool-1.{i}" for i in range(3_000)] + ["other-1"])
    assert view == {"tool-": _monikers.ABOVE, "other-": (1,)}
    assert calls <= 2  # once per product, not once per comparison


def test_a_conf_py_with_thousands_of_sys_path_folders_is_read_quickly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Sphinx local extensions are looked up on conf.py's sys.path: every (extension, folder) pair
    # was resolved anew, 200 extensions x 3,000 folders: 1.2 million path resolutions, minutes
    # before any page was read. Each folder is resolved once now.
    from murar.ingest.sites.sphinx import SphinxSite

    (tmp_path / "_ext").mkdir()
    (tmp_path / "_ext" / "sitedocs.py").write_text("def setup(app):\n    app.add_crossref_type('option', 'option')\n")
    (tmp_path / "conf.py").write_text(
        "import os, sys\nsys.path.insert(0, os.path.abspath('_ext'))\n"
        + "".join(f"sys.path.append(os.path.abspath('missing{i}'))\n" for i in range(3_000))
        + "extensions = [" + ", ".join(f"'ext{i}.mod'" for i in range(199)) + ", 'sitedocs']\n")
    (tmp_path / "index.rst").write_text("Title\n=====\n\nText.\n")
    resolve = Path.resolve
    calls = 0

    def counting(self: Path, strict: bool = False) -> Path:
        nonlocal calls
        calls += 1
        if calls > 50_000:  # not an OSError: the lookup's own error handling does not swallow it
            raise AssertionError("more than 50,000 path resolutions")
        return resolve(self, strict)

    monkeypatch.setattr(Path, "resolve", counting)
    conf = SphinxSite(tmp_path, "conf.py").conf
    monkeypatch.undo()
    assert calls <= 10_000
    assert "option" in conf.target_directives


def test_docfx_version_groups_are_ordered_once_per_docset(tmp_path: Path, write: Callable[..., Path],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # the default view of a docset's content groups was worked out twice per file classified,
    # each time over every group: 400 groups x 500 files took 9 s in the walk
    from murar.ingest.sites import docfx

    groups = {f"g{i}": {"moniker_range": f"app-{i + 1}"} for i in range(30)}
    content = [{"files": ["**/*.md"], "src": f"./v{i + 1}", "group": f"g{i}"} for i in range(30)]
    write(tmp_path, "docfx.json", json.dumps({"build": {"content": content, "groups": groups}}))
    for k in range(40):
        write(tmp_path, f"v1/p{k}.md", f"# Old {k}\n")
        write(tmp_path, f"v30/p{k}.md", f"# New {k}\n")
    write(tmp_path, "v1/only-old.md", "# Only in version 1\n")
    calls = 0
    view = docfx.default_view

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return view(*args, **kwargs)

    monkeypatch.setattr(docfx, "default_view", counting)
    site = docfx.load(tmp_path, "docfx.json")
    roles = [site.classify(f"v1/p{k}.md").role for k in range(40)]
    assert roles == [FileRole.EXCLUDED] * 40 and site.classify("v30/p3.md").role is FileRole.PAGE
    assert site.classify("v1/only-old.md").role is FileRole.PAGE
    assert calls <= 2


def test_a_name_longer_than_the_system_allows_loses_no_page(tmp_path: Path, write: Callable[..., Path]) -> None:
    # one snippet of a 300-byte name made is_file() raise ENAMETOOLONG while the MkDocs site
    # collected its snippets: every page of the site was "cannot classify"; a base_path entry
    # of that length made open_site itself raise (a traceback, nothing ingested)
    write(tmp_path, "mkdocs.yml", "site_name: S\nmarkdown_extensions:\n  - pymdownx.snippets:\n"
                                  f"      base_path: [{'b' * 300}, docs/snips]\n")
    write(tmp_path, "docs/index.md", "# Home\n\n--8<-- \"" + "n" * 300 + ".md\"\n\n--8<-- \"part.md\"\n\nHome text.\n")
    write(tmp_path, "docs/other.md", "# Other\n\nOther text.\n")
    write(tmp_path, "docs/snips/part.md", "Shared part.\n")
    texts, _ = _read(tmp_path)
    assert texts == {"docs/index.md": "Shared part.\n\nHome text.", "docs/other.md": "Other text."}


def test_mkdocs_nav_files_symlinked_out_of_the_root_are_not_read(tmp_path: Path, write: Callable[..., Path]) -> None:
    # literate-nav SUMMARY.md and awesome-pages .pages are found by rglob: a symlink to a file
    # outside the corpus root matched and was read (its link texts became page titles)
    outside = write(tmp_path, "outside/SUMMARY.md", "* [SECRET one](index.md)\n* [SECRET two](sub/b.md)\n")
    pages = write(tmp_path, "outside/pages.yml", "nav:\n  - SECRET three: c.md\n")
    root = tmp_path / "site"
    write(root, "mkdocs.yml", "site_name: S\nplugins:\n  - literate-nav\n  - awesome-pages\n")
    for rel in ("index.md", "sub/b.md", "sub/c.md"):
        write(root, f"docs/{rel}", "Words only.\n")
    (root / "docs/SUMMARY.md").symlink_to(outside)
    (root / "docs/sub/.pages").symlink_to(pages)
    site = MkDocsSite.load(root, "mkdocs.yml")
    titles = [convert_pymdown(root / "docs" / rel, site=site, assets_dir=tmp_path / "a").title
              for rel in ("index.md", "sub/b.md", "sub/c.md")]
    assert not any("SECRET" in t for t in titles), titles


def test_hugo_cascade_of_a_section_symlinked_out_of_the_root_is_not_read(tmp_path: Path,
                                                                         write: Callable[..., Path]) -> None:
    # the walk refuses content/docs/_index.md (a symlink out of the root); its cascade was read anyway
    outside = write(tmp_path, "outside/_index.md", "---\ncascade:\n  secret: SECRET\n---\n")
    root = tmp_path / "site"
    write(root, "hugo.toml", 'baseURL = "/"\n')
    write(root, "content/docs/p.md", "---\ntitle: P\n---\n")
    (root / "content/docs/_index.md").symlink_to(outside)
    site = hugo.load(root)
    assert "SECRET" not in site.preprocess("{{% param secret %}}", page_rel="content/docs/p.md")


def test_mkdocstrings_identifier_of_thousands_of_parts_is_not_looked_up(tmp_path: Path,
                                                                         write: Callable[..., Path]) -> None:
    # '::: a.a.a...' (2,000 parts): every prefix was a path checked on disk under each search folder
    # (12,000 resolves of paths up to 1,000 folders deep: 20 s an identifier); a module name is at most
    # 30 parts, as the Sphinx site already had it
    write(tmp_path, "mkdocs.yml", "site_name: S\nplugins:\n  - mkdocstrings\n")
    write(tmp_path, "src/pkg/mod.py", "def f():\n    '''Doc.'''\n")
    site = MkDocsSite.load(tmp_path, "mkdocs.yml")
    calls: list[str] = []
    checked = site._checked

    def counted(rel: str) -> Any:
        calls.append(rel)
        return checked(rel)

    site._checked = counted  # type: ignore[method-assign]
    assert site.resolve_python_object("pkg.mod.f") == ("src/pkg/mod.py", ["f"])
    calls.clear()
    assert site.resolve_python_object(".".join(["a"] * 2_000)) is None
    assert len(calls) == 0


def test_source_scans_do_not_read_files_symlinked_out_of_the_root(tmp_path: Path, write: Callable[..., Path]) -> None:
    # the include scan read every source file os_walk_files listed, a symlink out of the root too (the
    # walk refuses that page): what it included stopped being a page of its own
    outside = write(tmp_path, "outside/secret.rst", "Secret\n======\n\n.. include:: part.rst\n")
    root = tmp_path / "site"
    write(root, "docs/conf.py", "project = 'P'\n")
    write(root, "docs/index.rst", "Index\n=====\n\nText.\n")
    write(root, "docs/part.rst", "Part\n====\n\nA page of its own.\n")
    (root / "docs/linked.rst").symlink_to(outside)
    site = open_site(root).site
    assert "docs/part.rst" not in site.include_targets()  # type: ignore[attr-defined]
    assert site.classify("docs/part.rst").role is FileRole.PAGE


def test_mkdocs_snippet_scan_does_not_read_pages_symlinked_out_of_the_root(tmp_path: Path,
                                                                         write: Callable[..., Path]) -> None:
    # the --8<-- scan read every .md under docs_dir, a symlink out of the root too (the walk refuses that
    # page): the file it pulled in stopped being a page of its own
    outside = write(tmp_path, "outside/secret.md", '# Secret\n\n--8<-- "part.md"\n')
    root = tmp_path / "site"
    write(root, "mkdocs.yml", "site_name: S\nmarkdown_extensions:\n  - pymdownx.snippets:\n      base_path: docs\n")
    write(root, "docs/index.md", "# Home\n")
    write(root, "docs/part.md", "# Part\n\nA page of its own.\n")
    (root / "docs/linked.md").symlink_to(outside)
    site = MkDocsSite.load(root, "mkdocs.yml")
    assert site.classify("docs/part.md").role is FileRole.PAGE
def test_attribute_entries_built_from_each_other_stay_bounded(tmp_path: Path,
                                                              deadline: Callable[[int, str], Any]) -> None:
    """An attributes file whose every entry doubles the one before (``:a2: {a1}{a1}``) and
    includes itself, shared by many pages whose include targets use those attributes: values
    stop at a path's length and the entries stepped through per page are capped, so the
    include scan of a plain folder stays fast and small (it grew without bound)."""
    from murar.ingest.sites.base import PlainSite
    (tmp_path / "_a.adoc").write_text(":a0: x\n" + "".join(f":a{i}: {{a{i - 1}}}{{a{i - 1}}}\n" for i in range(1, 60))
                                      + ":dir: _parts\n" + "include::_a.adoc[]\n" * 2_000)
    (tmp_path / "_parts").mkdir()
    (tmp_path / "_parts" / "p.adoc").write_text("Shared text.\n")
    for i in range(100):
        (tmp_path / f"page{i}.adoc").write_text("= P\ninclude::_a.adoc[]\ninclude::{a59}/q.adoc[]\n"
                                                "include::{dir}/p.adoc[]\n")
    with deadline(20, "attribute entries built from each other"):
        targets = PlainSite(tmp_path).include_targets()
    assert targets == {"_a.adoc", "_parts/p.adoc"}


def test_probes_never_open_a_named_pipe(tmp_path: Path) -> None:
    """A folder with no generator config is sampled for Hugo shortcodes (looks_like_hugo_content);
    a named pipe called 'pipe.md' among its pages blocked that open forever (the ingest hung
    before its first page). Only regular files are listed for such scans now."""
    import threading

    from murar.ingest.sites._common import os_walk_files
    from murar.ingest.sites.hugo import looks_like_hugo_content

    (tmp_path / "page.md").write_text("---\ntitle: P\n---\n\n{{< note >}}Hi{{< /note >}}\n")
    os.mkfifo(tmp_path / "pipe.md")
    assert os_walk_files(tmp_path, ".", (".md",)) == ["page.md"]
    found: list[bool] = []
    probe = threading.Thread(target=lambda: found.append(looks_like_hugo_content(tmp_path)), daemon=True)
    probe.start()
    probe.join(timeout=20)
    assert found == [True], "the probe blocked on the named pipe"


def test_lookup_never_returns_a_path_behind_a_symlink_out_of_the_root(tmp_path: Path) -> None:
    """The shared ``lookup`` of the site link resolvers (Hugo, Jekyll, DocFX, built sites) gave,
    when no candidate existed, the first candidate lexically inside the root, though ``docs/out``
    is a symlink to a folder outside it: a caller opening that "not found" path read outside
    the root. A candidate must resolve inside the root (symlinks followed); the next one that
    does is the answer, and none at all is "escapes the corpus root"."""
    from murar.ingest.sites._common import lookup

    root, outside = tmp_path / "site", tmp_path / "outside"
    (root / "docs").mkdir(parents=True)
    outside.mkdir()
    (root / "docs" / "out").symlink_to(outside, target_is_directory=True)
    (root / "docs" / "in").symlink_to(root / "docs", target_is_directory=True)
    gone = lookup(root, ["docs/out/missing.md", "docs/out/missing/index.md"], link="out/missing.md")
    assert gone.rel_path is None and gone.problem == "escapes the corpus root"
    nearest = lookup(root, ["docs/out/missing.md", "docs/missing.md"], link="missing.md")
    assert nearest.rel_path == "docs/missing.md" and nearest.problem == "file not found (tried docs/missing.md)"
    assert lookup(root, ["docs/in/missing.md"], link="in/missing.md").rel_path == "docs/in/missing.md"
    (outside / "missing.md").write_text("secret\n")  # existing behind the symlink: never found either
    assert lookup(root, ["docs/out/missing.md"], link="out/missing.md").rel_path is None


def test_hugo_include_fan_out_is_bounded_per_page(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Each of nine files including the next ten times (11 lines a file) was 10**8 includes:
    the page ran until its 180 s budget stopped it (measured: killed at 60 s with
    --max-file-seconds 60) and was lost. A page now pulls in at most hugo._MAX_INCLUDES files."""
    write(tmp_path, "hugo.toml", 'title = "T"\n')
    for level in range(7):  # 3 ** 7 = 2,187 leaves without a page budget
        write(tmp_path, f"content/inc/l{level}.md", f'{{{{< include "inc/l{level + 1}.md" >}}}}\n' * 3)
    write(tmp_path, "content/inc/l7.md", "LEAF\n")
    body = '# Page\n\nBefore.\n\n{{< include "inc/l0.md" >}}\n\nText after.\n'
    site = hugo.load(tmp_path, "hugo.toml")
    warnings: list[str] = []
    text = site.preprocess(body, page_rel="content/p.md", warnings=warnings)
    assert 0 < text.count("LEAF") <= 200 and text.rstrip().endswith("Text after.")
    assert sum("later includes left out" in w for w in warnings) == 1


def test_hugo_included_characters_are_bounded_per_page(tmp_path: Path, write: Callable[..., Path]) -> None:
    """The characters a page's includes bring in share one budget (hugo._MAX_INCLUDED_CHARS,
    5,000,000): eight includes of a 1,000,000-character file keep five, with one warning."""
    write(tmp_path, "hugo.toml", 'title = "T"\n')
    write(tmp_path, "content/inc/big.md", "Included words here, ok.\n" * 40_000)  # 1,000,000 characters
    body = "# Page\n\n" + '{{< include "inc/big.md" >}}\n\n' * 8 + "Text after.\n"
    site = hugo.load(tmp_path, "hugo.toml")
    warnings: list[str] = []
    text = site.preprocess(body, page_rel="content/p.md", warnings=warnings)
    assert text.count("Included words here, ok.") == 5 * 40_000 and text.rstrip().endswith("Text after.")
    assert [w for w in warnings if "later includes left out" in w] == [
        ("include 'inc/big.md' and the page's later includes left out: over 200 included files"
         " or 5000000 included characters in the page")]


def test_hugo_nested_columns_are_bounded(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo Book columns nested 3,000 deep (a 33 KB page) recursed without counting depth:
    17 s, then RecursionError and the page was lost."""
    write(tmp_path, "hugo.toml", 'title = "T"\n')
    site = hugo.load(tmp_path, "hugo.toml")
    body = "{{< columns >}}\nx\n" * 1_500 + "deep\n" + "{{< /columns >}}\n" * 1_500 + "\nText after.\n"
    text = site.preprocess(body, page_rel="content/p.md")
    assert "deep" in text and text.rstrip().endswith("Text after.")


def test_mkdocs_snippets_are_bounded_per_page(tmp_path: Path, write: Callable[..., Path],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Each snippet was bounded, not their sum: 20 snippets of a 980 KB file made 19,600,000
    characters from a 500-byte page (46 s). A page's snippets and {!file!} includes now share
    one budget (lowered here to keep the page small); past it they are left out with one warning."""
    from murar.ingest.markup import pymdown

    monkeypatch.setattr(pymdown, "MAX_INCLUDED_CHARS", 100_000, raising=False)
    write(tmp_path, "mkdocs.yml", "site_name: S\nmarkdown_extensions:\n  - pymdownx.snippets\n")
    write(tmp_path, "docs/part.txt", "Included words here.\n\n" * 500)  # 11,000 characters
    write(tmp_path, "docs/index.md", "# Page\n\n" + '--8<-- "docs/part.txt"\n\n' * 30 + "End.\n")
    site = MkDocsSite.load(tmp_path, "mkdocs.yml")
    doc = convert_pymdown(tmp_path / "docs/index.md", site=site, assets_dir=tmp_path / "a")
    text = doc.sections[0].text
    assert 80_000 <= len(text) <= 120_000 and text.endswith("End.")
    assert sum("over 100000 characters of snippets" in w for w in doc.warnings) == 1


@pytest.mark.parametrize("kind", ["deep", "outside", "zero", "fifo"])
def test_antora_package_json_too_deep_linked_out_or_a_pipe(tmp_path: Path, write: Callable[..., Path],
                                                            kind: str) -> None:
    """The playbook a package.json script names (antora preview.yml) when the site has no
    antora-playbook.yml: a package.json of 200,000 nested arrays raised RecursionError out of
    the site's components (the whole ingest stopped with a traceback); one symlinked out of
    the root was read (its scripts named a playbook), one symlinked to /dev/zero or a named
    pipe blocked the ingest forever. Each is warned about and not read now."""
    import threading

    from murar.ingest.sites.antora import AntoraSite

    outside = write(tmp_path, "outside/package.json", '{"scripts": {"b": "antora pb.yml"}}')
    root = tmp_path / "site"
    write(root, "docs/antora.yml", "name: c\nversion: ~\n")
    write(root, "docs/modules/ROOT/pages/index.adoc", "= T\n\nhello {site-title}\n")
    write(root, "pb.yml", "site:\n  title: FROM-PLAYBOOK\n")
    package = root / "package.json"
    if kind == "deep":
        package.write_text("[" * 200_000 + "]" * 200_000)
    elif kind == "outside":
        package.symlink_to(outside)
    elif kind == "zero":
        package.symlink_to("/dev/zero")
    else:
        os.mkfifo(package)
    site = AntoraSite.load(root, None)
    done: list[str | None] = []
    reader = threading.Thread(target=lambda: done.append(site.site_attributes()[0].get("site-title")), daemon=True)
    reader.start()
    reader.join(timeout=20)
    assert done == [None], "package.json was read (out of the root, or blocked, or raised)"
    assert any(w.startswith("package.json: ") for w in site.load_warnings)
    assert [c.name for c in site.components] == ["c"]


def test_sphinx_epilog_conf_py_reads_from_a_huge_file_is_cut(tmp_path: Path, write: Callable[..., Path],
                                                             deadline: Callable[[int, str], Any]) -> None:
    """conf.py reading its rst_epilog from a file (rst_epilog = open('subs.rst').read(), 9ed667f)
    took up to 1,000,000 characters of it, and Sphinx adds the epilog to every page: a 54 MB
    file of substitution definitions made each page 15 s (a 1,000-page site: four hours). At most
    100,000 bytes are read now (1.5 s a page), cut after the last whole line; nothing out of the
    site, no directory, named pipe or NUL-byte path is read."""
    from murar.ingest.markup.rst import convert_rst
    from murar.ingest.sites.sphinx import SphinxSite

    root = tmp_path / "site"
    write(root, "subs.rst", ".. |first| replace:: FIRST\n" + "".join(f".. |s{i}| replace:: value {i}\n"
                                                                   for i in range(2_000_000)))
    write(tmp_path, "secret.rst", ".. |leak| replace:: SECRET\n")
    (root / "adir").mkdir()
    os.mkfifo(root / "pipe.rst")
    write(root, "conf.py", "a = open('../secret.rst').read()\nb = open('/etc/passwd').read()\n"
                           "c = open('adir').read()\nd = open('pipe.rst').read()\ne = open('x\\x00y').read()\n"
                           "rst_epilog = open('subs.rst').read()\n")
    write(root, "index.rst", "Title\n=====\n\nText |first|.\n")
    site = SphinxSite.load(root, "conf.py")
    epilog = site.conf.rst_epilog
    assert 0 < len(epilog) <= 100_000 and epilog.endswith("replace:: value " + epilog.rsplit(" ", 1)[1])
    assert not {"a", "b", "c", "d", "e"} & set(site.conf.values)
    with deadline(30, "a page with the epilog"):
        doc = convert_rst(root / "index.rst", site=site)
    assert doc.sections[0].text.startswith("Text FIRST.")


def test_docusaurus_import_path_escaping_a_lone_surrogate_loses_no_page(tmp_path: Path,
                                                                       write: Callable[..., Path]) -> None:
    """An import path's JavaScript escapes are its value (26a6195): './\\ud800.md' is a lone
    surrogate no file name can hold, and resolving it raised UnicodeEncodeError out of the
    site's partial scan, so every page of the site failed. It is a refused link now; escapes
    spelling '..' out of the root or a NUL stay refused."""
    write(tmp_path, "outside/secret.md", "SECRET\n")
    root = tmp_path / "site"
    write(root, "docusaurus.config.js", "module.exports = { presets: [['classic', { docs: {} }]] };\n")
    write(root, "docs/_part.md", "Partial text.\n")
    write(root, "docs/intro.md", "# Intro\n\nIntro text.\n")
    write(root, "docs/odd.mdx", "import P from './\\ud800.md';\nimport Q from './\\x00.md';\n"
          "import R from './\\u002e\\u002e/\\u002e\\u002e/outside/secret.md';\n"
          "import S from './\\_part.md';\n\n# Odd\n\n<P /><Q /><R /><S />\n\nOdd text.\n")
    pages, _ = _read(root)
    assert "Intro text." in pages["docs/intro.md"]
    assert "Odd text." in pages["docs/odd.mdx"] and "Partial text." in pages["docs/odd.mdx"]
    assert "SECRET" not in " ".join(pages.values())


def test_mkdocs_macros_page_over_the_sandbox_bounds_is_warned_about(deadline: Callable[[int, str], Any]) -> None:
    """A mkdocs-macros page with a loop is rendered by Jinja2 in murar's bounded sandbox
    (b29655a): one looping 10**9 times, 10**10 times nested, or including itself stopped at
    the bounds and fell back to the reduced pass without a word (the loop's output silently
    missing). Each is warned about now, quickly, and the rest of the page kept."""
    from murar.ingest.sites import _jinja

    pages = ['{% for i in range(1000000000) %}{{ i }}{% endfor %}Rest.',
             '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}Rest.',
             '{% for i in [1] %}{% include "a.md" %}{% endfor %}Rest.']
    for page in pages:
        warnings: list[str] = []
        with deadline(20, page):
            out = _jinja.render(page, {}, include=lambda _: '{% include "a.md" %}A', warnings=warnings)
        assert out.endswith('Rest.')
        assert any("over murar's bounds" in w for w in warnings), page


def test_antora_playbook_symlinked_out_of_the_root_is_not_read(tmp_path: Path, write: Callable[..., Path]) -> None:
    """An antora-playbook.yml that is a symbolic link out of the root was read: its
    site.title and asciidoc attributes reached every page. It is warned about and not read."""
    from murar.ingest.sites.antora import AntoraSite

    outside = write(tmp_path, "outside/pb.yml", "site:\n  title: SECRET\n")
    root = tmp_path / "site"
    write(root, "docs/antora.yml", "name: c\nversion: ~\n")
    write(root, "docs/modules/ROOT/pages/index.adoc", "= T\n\nhello {site-title}\n")
    (root / "antora-playbook.yml").symlink_to(outside)
    site = AntoraSite.load(root, None)
    assert site.site_attributes()[0].get("site-title") is None
    assert any("a link out of the corpus root" in w for w in site.load_warnings)


def test_docfx_image_in_a_folder_symlinked_out_of_the_root_is_not_read(tmp_path: Path) -> None:
    """DocFX's lookup refused a file behind a symlinked folder as 'not found', and the asset
    reader then checked that candidate with is_file(), through the symlink: ![h](media/x.png)
    with media -> a folder outside the corpus was 'resolved' and opened (/etc/hostname read as an
    image: 'corrupt or not an image'); the case-insensitive match (MEDIA/X.PNG) likewise."""
    from murar.ingest.assets import resolve_reference

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    site_root = tmp_path / "site"
    (site_root / "docs").mkdir(parents=True)
    (site_root / "docfx.json").write_text('{"build": {"content": [{"files": ["**/*.md"]}]}}\n')
    (site_root / "docs" / "media").symlink_to(outside, target_is_directory=True)
    (site_root / "docs" / "own.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    site = open_site(site_root).site
    for link in ("media/x.png", "MEDIA/X.PNG"):
        ref = resolve_reference(site, link, page_rel="docs/a.md")
        assert ref.status == "escapes_root", (link, ref)
    assert resolve_reference(site, "OWN.png", page_rel="docs/a.md").status == "resolved"


def test_relearn_attachments_folder_symlinked_out_of_the_root_is_not_listed(tmp_path: Path,
                                                                           write: Callable[..., Path]) -> None:
    """{{% attachments %}} listed the files of <page>.files; a .files folder that is a link to a
    folder outside the corpus had that folder's file names written into the page."""
    outside = write(tmp_path, "outside/SECRET_NAME.txt", "s").parent
    root = tmp_path / "site"
    write(root, "hugo.toml", 'baseURL = "/"\ntheme = "hugo-theme-relearn"\n')
    write(root, "content/old/index.md", '+++\ntitle = "Old"\n+++\n\nGet them:\n\n{{% attachments /%}}\n')
    (root / "content/old/index.files").symlink_to(outside, target_is_directory=True)
    site = hugo.load(root)
    warnings: list[str] = []
    out = site.rewrite_shortcodes((root / "content/old/index.md").read_text(), page_rel="content/old/index.md",
                                  warnings=warnings)
    assert "SECRET_NAME" not in out  # was listed
    assert any("outside the corpus root" in w for w in warnings)


def test_antora_start_path_braces_by_the_thousand_are_bounded(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A playbook start path of thousands of {a,b} braces (in a row or nested) was expanded by
    recursion: RecursionError, and the whole ingest failed; thousands of start paths were each
    tested against each component folder. Expanded with a stack now, patterns capped with a warning."""
    from murar.ingest.sites.antora import AntoraSite, _braces

    assert _braces("{a,b}/{c,d}") == ["a/c", "a/d", "b/c", "b/d"]
    assert len(_braces("{docs,x}" * 1000)) == 64 and len(_braces("{a," * 3000 + "}" * 3000)) <= 64
    for name in ("docs", "test"):
        write(tmp_path, f"{name}/antora.yml", f"name: {name}\nversion: ~\n")
        write(tmp_path, f"{name}/modules/ROOT/pages/index.adoc", "= T\n\nhello\n")
    write(tmp_path, "antora-playbook.yml", "content:\n  sources:\n  - url: .\n    start_paths:\n    - docs\n"
          + f"    - '{'{docs,x}' * 1200}'\n" + "".join(f"    - 'x{i}{{a,b}}'\n" for i in range(2000)))
    site = AntoraSite.load(tmp_path, None)
    assert [c.name for c in site.components] == ["docs"]
    assert any("start path patterns" in w for w in site.load_warnings)


def test_jekyll_callout_heading_with_a_long_run_of_spaces_is_linear() -> None:
    """The title of a heading opening a callout box was matched with a lazy title before an
    optional closing sequence: 100k spaces in that heading took 85 s (quadratic)."""
    text = '<div class="note info" markdown="1">\n\n##### a' + " " * 200_000 + "x ##\n\n</div>\n"
    assert (" " * 200_000 + "x**") in jekyll.strip_kramdown(text)
    assert "**Info: Problems**" in jekyll.strip_kramdown('<div class="note info" markdown="1">\n\n##### Problems ##\n')


def test_docfx_image_macro_with_a_long_run_of_blanks_is_linear(deadline: Callable[..., Any]) -> None:
    """':::image a' then 100,000 spaces and no closing ':::': the attributes ('[^\\n]*?') then
    '\\s*:::' tried the run of spaces from each of its characters (11 s; 200k: minutes)."""
    from murar.ingest.sites import docfx

    with deadline(20, "the attributes' lazy match retried '\\s*:::' over the run of blanks"):
        assert docfx._IMAGE.search(":::image a" + " " * 200_000 + "x") is None
        found = docfx._IMAGE.findall((':::image type="icon" source="a b.png"   :::SQL ' + " " * 1000) * 200)
    assert found == ['type="icon" source="a b.png"'] * 200


def test_hugo_tens_of_thousands_of_tab_sets_outside_steps_are_linear(deadline: Callable[..., Any]) -> None:
    """Each paired tab set was looked up in a list step with the page above it copied (the text
    since the last set moved into a step): 20,000 sets at the margin took 2.7 s, 60,000 25 s."""
    one = '{{< tabs >}}\n{{< tab name="a" >}}\nx\n{{< /tab >}}\n{{< /tabs >}}\n\n'
    body = one * 60_000
    step = '1. Step\n\n   {{< tabpane >}}\n{{< tab header="a" >}}\n```\nx\n```\n{{< /tab >}}\n{{< /tabpane >}}\n'
    with deadline(15, "the page above each tab set was copied"):
        assert hugo._tab_sets_in_steps(body) == body  # (none in a step: nothing moved)
        moved = hugo._tab_sets_in_steps(one * 300 + step)
    assert moved.endswith('   {{< tab header="a" >}}\n   ```\n   x\n   ```\n   {{< /tab >}}\n{{< /tabpane >}}\n')


def test_include_variants_ln_ranges_show_the_file_at_most_once_over(tmp_path: Path) -> None:
    """A '{* code.py ln[1:2000,1:1999,...] *}' line (markdown-include-variants) with thousands of
    overlapping ranges: each range's lines were copied again, millions of lines (minutes and
    gigabytes for one page line). The ranges now select at most the file's lines, at most 100
    ranges read (warned); paths out of the root stay refused."""
    from murar.ingest.markup.pymdown import PymdownTransformer

    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "code.py").write_text("".join(f"x{i} = {i}\n" for i in range(2000)))
    (tmp_path / "secret.py").write_text("SECRET = 1\n")
    (root / "mkdocs.yml").write_text("site_name: S\nmarkdown_extensions:\n  markdown_include_variants:\n")
    spec = ",".join(f"1:{2000 - k}" for k in range(1500))
    site = MkDocsSite.load(root, "mkdocs.yml")
    tr = PymdownTransformer(site, extensions=frozenset({"markdown_include_variants"}))
    out = tr.expand_include_variants(f"{{* code.py ln[{spec}] *}}\n\n{{* ../secret.py *}}\n", stack=("docs/p.md",))
    assert "x0 = 0\n" in out and len(out.split("\n")) < 2500  # was 1.5 million lines
    assert "SECRET" not in out
    assert any("over 100 ln ranges" in w for w in tr.warnings)
    assert any("escapes the corpus root" in w for w in tr.warnings)


def test_mkdocs_malformed_site_url_keeps_remote_images(tmp_path: Path) -> None:
    """site_url 'https://[docs.example.org/guide/' (an unclosed IPv6 bracket) made urlsplit raise
    while an absolute image URL was matched against the site's own URL: every remote image of
    every page was dropped ('cannot resolve (ValueError)'). They stay remote URLs now."""
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: S\nsite_url: https://[docs.example.org/guide/\n")
    (root / "docs" / "p.md").write_text("# P\n\n![a](https://docs.example.org/guide/img/a.png)\n\n"
                                        "![b](https://cdn.example.org/b.png)\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "p.md", site=site, assets_dir=tmp_path / "a")
    assert sorted(getattr(m, "url", None) or "" for m in doc.media) == [
        "https://cdn.example.org/b.png", "https://docs.example.org/guide/img/a.png"]
    assert not any("ValueError" in w for w in doc.warnings)


def test_mkdocs_named_configs_over_the_size_limit_are_not_parsed(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """No mkdocs.yml, a dozen 'mkdocs-N.yml' of 10 MB beside the real 'mkdocs-online.yml' leaf: each
    candidate read every sibling whole (and parsed it as YAML), so detection read N x N large files
    (100 MB each: 22 s). A named config over 2 MB is now no candidate and no sibling to parse."""
    from murar.ingest.sites import mkdocs

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# I\n")
    for i in range(6):
        with (tmp_path / f"mkdocs-{i}.yml").open("w") as fh:
            fh.write(f"site_name: S{i}\n")
            fh.truncate(10_000_000)  # sparse: 10 MB of NUL bytes after the setting
    (tmp_path / "mkdocs-online.yml").write_text("site_name: Online\n")
    parsed: list[str] = []
    original = mkdocs.read_mkdocs_yml

    def counting(path: Path, **kwargs: Any) -> dict[str, Any]:
        parsed.append(path.name)
        return original(path, **kwargs)

    monkeypatch.setattr(mkdocs, "read_mkdocs_yml", counting)
    assert not mkdocs.looks_like_mkdocs_config(tmp_path / "mkdocs-0.yml")
    assert mkdocs.looks_like_mkdocs_config(tmp_path / "mkdocs-online.yml")
    assert parsed == ["mkdocs-online.yml"]  # was every mkdocs-N.yml, for every candidate


def test_markdownextradata_data_folders_are_read_once_each_and_bounded(tmp_path: Path) -> None:
    """markdownextradata 'data: docs,./docs,docs/,docs/.,...' (4,000 spellings of one folder): each
    was walked again for data files, 29 s before the first page. Each folder is now read once,
    at most 20 folders (more reported), and the data still fills the page."""
    (tmp_path / "docs" / "_d").mkdir(parents=True)
    (tmp_path / "docs" / "_d" / "team.yml").write_text("lead: Ada\n")
    data = ",".join(["docs/_d", "./docs/_d", "docs/_d/", "docs/_d/."] * 1000 + [f"f{i}" for i in range(30)])
    (tmp_path / "mkdocs.yml").write_text(f"site_name: S\nplugins:\n  - markdownextradata:\n      data: '{data}'\n")
    (tmp_path / "docs" / "index.md").write_text("# P\n\n{{ team.lead }}\n")
    site = MkDocsSite.load(tmp_path, "mkdocs.yml")
    folders = site.config.settings["markdownextradata.data"].split("\n")
    assert folders[0] == "docs/_d" and len(folders) == 20  # was 4,030
    assert any("data folders" in n for n in site.config.notes)
    assert "Ada" in site.preprocess((tmp_path / "docs" / "index.md").read_text(), page_rel="docs/index.md")


def test_sphinx_conf_settings_after_twenty_thousand_statements_are_read(tmp_path: Path) -> None:
    """A generated conf.py of 30,000 plain assignments (or 8,000 taken ifs) then 'master_doc':
    following top-level ifs capped every statement read at 20,000, so the settings after that
    were lost, unwarned (root_doc 'index'). Every top-level statement is read again; only the
    branch bodies followed are capped."""
    from murar.ingest.sites.sphinx import read_conf

    (tmp_path / "conf.py").write_text("project = 'P'\n" + "y = 1\n" * 30_000 + "master_doc = 'contents'\n")
    assert read_conf(tmp_path / "conf.py").root_doc == "contents"
    (tmp_path / "conf.py").write_text("x = 0\n" + "if x == 0:\n    y = 1\n    z = 2\n" * 8_000 + "project = 'P'\n")
    assert read_conf(tmp_path / "conf.py").values.get("project") == "P"


def test_sphinx_additional_pages_look_only_in_template_folders_that_exist(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """html_additional_pages of 200 templates with a templates_path of 5,000 entries: each template
    was looked for in every entry (a million path checks, 40 s before the first file was classified).
    Only the entries that are folders are looked in now; the template found stays a page."""
    from murar.ingest.sites import sphinx

    (tmp_path / "_templates").mkdir()
    (tmp_path / "_templates" / "home.html").write_text("<h1>Home</h1>")
    folders = ",".join(f"'t{i}'" for i in range(2_000))
    pages = ",".join(f"'p{i}': 'x{i}.html'" for i in range(200))
    (tmp_path / "conf.py").write_text(f"templates_path = [{folders}, '_templates']\n"
                                      f"html_additional_pages = {{'home': 'home.html', {pages}}}\n")
    (tmp_path / "index.rst").write_text("T\n=\n")
    calls: list[str] = []
    original = sphinx.checked_rel

    def counting(root: Path, rel: str) -> Any:
        calls.append(rel)
        return original(root, rel)

    monkeypatch.setattr(sphinx, "checked_rel", counting)
    site = sphinx.SphinxSite(tmp_path, "conf.py")
    assert site.classify("_templates/home.html").role is FileRole.PAGE
    assert len(calls) < 10_000  # was 2,001 x 201 = 402,201


def test_hugo_template_and_param_output_is_charged_to_the_page(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A 40 KB page calling a project template that prints ``.Page.Param "a"`` (a 9,000-character value)
    4,000 times, and ``{{< param a >}}`` as often: each call wrote the value again (72 MB of text).
    Both outputs are charged to the page's characters (5,000,000), with one warning; the page's own
    text after them is kept."""
    from murar.ingest.sites import hugo

    write(tmp_path, "hugo.toml", 'title = "T"\n')
    write(tmp_path, "layouts/shortcodes/v.html", '{{ .Page.Param "a" }}\n')
    body = "{{< v >}} " * 4_000 + "\n\n" + "{{< param a >}} " * 4_000 + "\n\nText after.\n"
    write(tmp_path, "content/docs/p.md", "---\ntitle: P\na: " + "x" * 9_000 + "\n---\n" + body)
    site = hugo.load(tmp_path, "hugo.toml")
    warnings: list[str] = []
    text = site.preprocess(body, page_rel="content/docs/p.md", warnings=warnings)
    assert len(text) < 5_200_000, len(text)
    assert text.count("x" * 9_000) > 100  # the first calls still show the value
    assert text.rstrip().endswith("Text after.")
    assert sum("included characters" in w for w in warnings) == 1, warnings


def test_hugo_thousands_of_nested_tab_sets_are_read_once(tmp_path: Path, write: Callable[..., Path],
                                                         deadline: Callable[..., Any],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """6,000 Docsy tab sets nested in one another: each tab's content was searched for a fence to its
    end (past every nested set) and each paired shortcode's content lines were scanned again for
    their indentation (4,000 nested: 7 s; 8,000: about 30 s). Now a tab's content is asked for a
    shortcode first (found at its start) and indentation comes from one index of the page's lines:
    the fence search reads a bounded number of characters."""
    from murar.ingest.sites import hugo

    scanned: list[int] = []
    real_has_fence = hugo._has_fence
    monkeypatch.setattr(hugo, "_has_fence", lambda text: scanned.append(len(text)) or real_has_fence(text))
    write(tmp_path, "hugo.toml", 'title = "T"\n')
    n = 6_000
    body = ('{{< tabpane >}}\n{{< tab header="A" >}}\n' * n + "Deep text.\n"
            + "{{< /tab >}}\n{{< /tabpane >}}\n" * n + "\nText after.\n")
    site = hugo.load(tmp_path, "hugo.toml")
    with deadline(60, "nested tab sets read their content again at every level"):
        text = site.preprocess(body, page_rel="content/docs/p.md")
    assert sum(scanned) < 4 * len(body), sum(scanned)
    assert "Deep text." in text and text.rstrip().endswith("Text after.")
