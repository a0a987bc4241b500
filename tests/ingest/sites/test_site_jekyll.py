"""Jekyll rules: _config.yml, collections, _includes, Liquid, kramdown IALs."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from murar.errors import ConfigError
from murar.ingest.sites import jekyll
from murar.ingest.sites.base import FileRole, Site

CONFIG = """title: Docs
baseurl: "/docs/2.1"
url: "https://example.org"
product: Widget
exclude:
  - README.md
  - templates/
collections:
  guides:
    output: true
  hidden:
    output: false
"""


@pytest.fixture()
def site_root(tmp_path: Path, write: Callable[..., Path], png: bytes) -> Path:
    write(tmp_path, "_config.yml", CONFIG)
    write(tmp_path, "Gemfile", "source 'https://rubygems.org'\ngem 'jekyll'\n# gem 'github-pages'\n")
    write(tmp_path, "images/setup.png", png)
    write(tmp_path, "assets/img/logo.png", png)
    write(tmp_path, "_guides/setup/shot.png", png)
    write(tmp_path, "_includes/copy.html", '<label hidden class="copy-label">copy</label>')
    write(tmp_path, "_includes/warning.md", "**{{ include.level }}:** check {{ site.product }} first.\n")
    write(tmp_path, "_guides/setup/index.md", (
        "---\ntitle: Setup\nversion: 7\n---\n# Setup {{ page.version }}\n\n"
        "![Setup screen]({{site.url}}{{site.baseurl}}/images/setup.png)\n"
        "{: .img-fluid}\n\n"
        "<img src=\"{{ '/assets/img/logo.png' | relative_url }}\" alt=\"logo\">\n\n"
        "![beside](shot.png){:.border}\n\n"
        "```json\nGET /\n```\n{% include copy.html %}\n\n"
        "{% include warning.md level=\"Important\" %}\n\n"
        "Use this in templates:\n{% raw %}{{ site.title }} {% if x %}{% endraw %}\n\n"
        "{% comment %}secret note{% endcomment %}"
        "{% if site.product %}Shown text.{% endif %}\n\n"
        "{% capture intro %}Captured {{ site.product }}{% endcapture %}Intro: {{ intro }}\n\n"
        "This is a note.\n{: .note }\n\n"
        "{% highlight ruby %}\nputs 1\n{% endhighlight %}\n"))
    write(tmp_path, "_hidden/secret.md", "---\ntitle: s\n---\nno\n")
    write(tmp_path, "_layouts/default.html", "<html>{{ content }}</html>")
    write(tmp_path, "_site/index.html", "---\n---\nbuilt")
    write(tmp_path, "index.md", "---\ntitle: Home\n---\n# Home\n")
    write(tmp_path, "unpublished.md", "---\npublished: false\n---\nno\n")
    write(tmp_path, "plain.md", "# No front matter\n")
    write(tmp_path, "static.html", "<html>plain static</html>")
    write(tmp_path, "README.md", "---\n---\n# readme\n")
    write(tmp_path, "templates/t.md", "---\n---\nt\n")
    return tmp_path


def test_config_and_classify(site_root: Path) -> None:
    site = jekyll.load(site_root, "_config.yml")
    assert isinstance(site, Site)
    assert site.config.base_url == "/docs/2.1/"
    assert site.classify("_guides/setup/index.md").role is FileRole.PAGE
    assert site.classify("index.md").role is FileRole.PAGE
    assert site.classify("_includes/copy.html").role is FileRole.INCLUDE
    for rel, why in [("_hidden/secret.md", "no output"), ("_layouts/default.html", "underscore"),
                     ("_site/index.html", "underscore"), ("unpublished.md", "published"),
                     ("plain.md", "static file"), ("static.html", "static file"),
                     ("README.md", "_config.yml"), ("templates/t.md", "_config.yml"),
                     ("Gemfile", "_config.yml")]:
        fc = site.classify(rel)
        assert fc.role is FileRole.EXCLUDED and why in fc.reason, (rel, fc)
    assert site.classify("images/setup.png").role is FileRole.ASSET


def test_optional_front_matter_on_github_pages_defaults(site_root: Path) -> None:
    (site_root / "Gemfile").unlink()
    site = jekyll.load(site_root, "_config.yml")
    assert site.classify("plain.md").role is FileRole.PAGE


def test_liquid_and_kramdown(site_root: Path) -> None:
    site = jekyll.load(site_root, "_config.yml")
    page = "_guides/setup/index.md"
    warnings: list[str] = []
    out = site.preprocess((site_root / page).read_text(), page_rel=page, warnings=warnings)
    assert warnings == []
    assert "# Setup 7" in out
    assert "![Setup screen](https://example.org/docs/2.1/images/setup.png)\n\n" in out  # IAL line gone
    assert '<img src="/docs/2.1/assets/img/logo.png" alt="logo">' in out
    assert "![beside](shot.png)\n" in out
    assert "copy" not in out.split("```", 2)[2].split("**")[0]  # hidden copy label dropped
    assert "**Important:** check Widget first." in out
    assert "{{ site.title }} {% if x %}" in out  # raw kept literal
    assert "secret note" not in out and "Shown text." in out and "{%" not in out.replace("{% if x %}", "")
    assert "Intro: Captured Widget" in out
    assert "**Note:** This is a note.\n\n" in out and "{:" not in out
    assert "```ruby\nputs 1\n```" in out
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)|src=\"([^\"]+)\"", out)
    resolved = [site.resolve_asset(a or b, page_rel=page).rel_path for a, b in links]
    assert resolved == ["images/setup.png", "assets/img/logo.png", "_guides/setup/shot.png"]


def test_resolution_rules(site_root: Path) -> None:
    site = jekyll.load(site_root, "_config.yml")
    page = "_guides/setup/index.md"
    assert site.resolve_asset("/docs/2.1/guides/setup/shot.png", page_rel=page).rel_path == "_guides/setup/shot.png"
    assert site.resolve_asset("https://other.org/x.png", page_rel=page).url == "https://other.org/x.png"
    missing = site.resolve_asset("/docs/2.1/images/none.png", page_rel=page)
    assert missing.problem and "images/none.png" in missing.problem
    warnings: list[str] = []
    site.preprocess("{% include nothere.html %}", page_rel=page, warnings=warnings)
    assert warnings and "_includes/nothere.html" in warnings[0]


def test_theme_include_not_in_repository_keeps_its_picture(site_root: Path) -> None:
    """minimal-mistakes style ``{% include figure image_path=... caption=... %}`` from a remote theme."""
    site = jekyll.load(site_root, "_config.yml")
    warnings: list[str] = []
    out = site.preprocess('{% include figure image_path="/images/setup.png" alt="Setup" '
                          'caption="The <em>setup</em> screen" %}\n{% include toc %}\n',
                          page_rel="index.md", warnings=warnings)
    assert '![Setup](</images/setup.png> "The setup screen")' in out
    assert site.resolve_asset("/images/setup.png", page_rel="index.md").rel_path == "images/setup.png"
    assert len(warnings) == 2  # both includes reported as not in the repository


def test_a_file_the_layout_includes_by_a_page_variable_is_on_the_page(tmp_path: Path,
                                                                     write: Callable[..., Path]) -> None:
    """Jekyll renders a page's layouts with the page, so a layout's ``{% include {{ page.reuse }} %}``
    (here in the ``doc`` layout's parent, ``page``) puts the file the front matter names on the page:
    a page whose body is empty is that shared text (it read as an empty page). A layout naming no
    such variable, or a page not setting it, adds nothing."""
    write(tmp_path, "_config.yml", "title: Guide\ndefaults:\n  - scope: {path: ''}\n    values: {layout: doc}\n")
    write(tmp_path, "_layouts/doc.html", "---\nlayout: page\n---\n<main>{{ content }}</main>\n")
    write(tmp_path, "_layouts/page.html", "---\nlayout: base\n---\n{% if page.reuse %}{% capture c %}"
          "{% include {{ page.reuse }} %}{% endcapture %}{{ c | markdownify }}{% else %}{{ content }}{% endif %}\n")
    write(tmp_path, "_layouts/base.html", "<html>{{ content }}</html>\n")
    write(tmp_path, "_layouts/plain.html", "<div>{{ content }}</div>\n")
    write(tmp_path, "_includes/shared/quotas.md", "## Quotas\n\nSet a quota on {{ page.title }} folders.\n")
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess("---\ntitle: Shares\nreuse: shared/quotas.md\n---\n", page_rel="admin/shares.md")
    assert "## Quotas" in out and "Set a quota on Shares folders." in out
    assert "Quotas" not in site.preprocess("---\ntitle: Other\n---\nOwn text.\n", page_rel="admin/other.md")
    plain = site.preprocess("---\nlayout: plain\nreuse: shared/quotas.md\n---\nOwn.\n", page_rel="p.md")
    assert "Quotas" not in plain


def test_a_front_matter_value_the_layout_writes_above_the_content_leads_the_page(
        tmp_path: Path, write: Callable[..., Path]) -> None:
    """The documentation theme for Jekyll's page layout writes <div class="summary">{{page.summary}}</div>
    above {{content}}: that summary is the page's first paragraph (murar left it out). A value the
    layout writes below the content, inside an inline element or as an attribute, and the title,
    are not."""
    write(tmp_path, "_config.yml", "title: Docs\ndefaults:\n  - scope: {path: ''}\n    values: {layout: page}\n")
    write(tmp_path, "_layouts/page.html",
          '---\nlayout: default\n---\n<h1 class="post-title-main">{{ page.title }}</h1>\n'
          '{% if page.summary %}\n<div class="summary">{{page.summary}}</div>\n{% endif %}\n'
          '<span>{{ page.last_updated }}</span><meta content="{{ page.keywords }}">\n{{content}}\n'
          '<div class="tags">{{ page.tags }}</div>\n')
    write(tmp_path, "_layouts/default.html", "<html>{{ content }}</html>\n")
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess("---\ntitle: Upgrade\nsummary: Follow this guide to upgrade the firmware.\n"
                          "last_updated: Oct 31\nkeywords: a, b\ntags: firmware\n---\n## Steps\n",
                          page_rel="pages/upgrade.md")
    assert out.split("---\n", 2)[2] == "Follow this guide to upgrade the firmware.\n\n## Steps\n"
    assert site.preprocess("---\ntitle: T\n---\nBody.\n", page_rel="p.md").endswith("---\nBody.\n")


def test_a_hidden_element_in_an_include_goes_with_the_elements_nested_in_it(tmp_path: Path,
                                                                            write: Callable[..., Path]) -> None:
    """An include's hidden element (a Bootstrap lightbox modal, ``aria-hidden="true"``, holding
    ``<div>``s of its own) is dropped up to its matching closing tag; the first ``</div>`` ended it,
    so the page read the outer modal ``</div>`` lines as text. The picture before it stays."""
    write(tmp_path, "_config.yml", "title: Guide\n")
    write(tmp_path, "_includes/shot.html",
          '<img src="{{ include.src }}" alt="{{ include.alt }}">\n\n'
          '<div class="modal fade" aria-hidden="true">\n  <div class="modal-dialog">\n'
          '    <div class="modal-content"><img src="{{ include.src }}" alt="big"></div>\n  </div>\n</div>\n'
          '<div aria-hidden="true"><div>never closed\n')
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess('Before.\n\n{% include shot.html src="/img/a.png" alt="Queue" %}\n\nAfter.\n',
                          page_rel="a.md")
    assert '<img src="/img/a.png" alt="Queue">' in out and "After." in out
    assert "</div>" not in out.split("never closed")[0] and 'alt="big"' not in out


def test_static_files_and_the_language_of_a_multi_language_site(tmp_path: Path, write: Callable[..., Path],
                                                                 png: bytes) -> None:
    """``site.static_files`` lists the files Jekyll copies as they are (``path`` from the source,
    ``name``, ``basename``, ``extname``), and jekyll-multiple-languages-plugin builds the first of
    ``languages`` at the site root with ``site.lang`` its code: an include that picks
    ``<folder>/<lang>/<file>`` when that file exists, else ``<folder>/<file>``, picks as the site does.
    Both were unknown, so the picture pointed at a path that is not there."""
    write(tmp_path, "_config.yml", "title: App\nplugins:\n  - jekyll-multiple-languages-plugin\n"
                                   "languages: [en, fr]\nexclude: [notes]\n")
    write(tmp_path, "_includes/shot.html",
          "{% assign found = false %}{% capture local %}{{ include.dir }}/{{ site.lang }}/{{ include.file }}{% endcapture %}"
          "{% for f in site.static_files %}{% if f.path == local %}{% assign found = true %}{% endif %}{% endfor %}"
          '<img src="{% if found %}{{ local }}{% else %}{{ include.dir }}/{{ include.file }}{% endif %}" alt="x">')
    (tmp_path / "img" / "en").mkdir(parents=True)
    (tmp_path / "img" / "en" / "queue.png").write_bytes(png)
    (tmp_path / "img" / "logo.png").write_bytes(png)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "draft.png").write_bytes(png)
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess('{% include shot.html dir="/img" file="queue.png" %}\n\n'
                          '{% include shot.html dir="/img" file="logo.png" %}\n\n'
                          "{% for f in site.static_files %}[{{ f.name }} {{ f.basename }} {{ f.extname }}]{% endfor %}"
                          " {{ site.static_files.size }}\n", page_rel="guide.md")
    assert '<img src="/img/en/queue.png"' in out and '<img src="/img/logo.png"' in out
    assert "[queue.png queue .png][logo.png logo .png] 2" in out or "[logo.png logo .png][queue.png queue .png] 2" in out


def test_bad_config_and_jupyter_book_told_apart(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "_config.yml", "title: [unclosed")
    with pytest.raises(ConfigError, match="_config.yml"):
        jekyll.load(tmp_path, "_config.yml")
    write(tmp_path, "book/_config.yml", "title: Book\nexecute:\n  execute_notebooks: off\n")
    assert not jekyll.looks_like_jekyll(tmp_path / "book/_config.yml")
    write(tmp_path, "site/_config.yml", CONFIG)
    assert jekyll.looks_like_jekyll(tmp_path / "site/_config.yml")


@pytest.mark.integration
def test_real_jekyll_corpus_resolves_every_image(docsite: Callable[[str], Path],
                                                 count_refs: Callable[..., Any]) -> None:
    root = docsite("jekyll-opensearch-documentation-website")
    site = jekyll.load(root, "_config.yml")
    counts = count_refs(site)
    # SOURCE.md: 54 pages in the _dashboards collection, 211 local image references (all resolve), 1 remote
    assert counts.pages == 54
    assert counts.unresolved == [] and counts.warnings == []
    assert counts.resolved == 211 and counts.remote == 1


def test_callout_ial_before_its_block_and_configured_titles(tmp_path: Path, write: Callable[..., Path]) -> None:
    """just-the-docs "Callouts": the block IAL goes before (or after) its paragraph or
    quote, also inside a quote; the names and titles come from ``_config.yml``
    ``callouts`` (an untitled one, or a ``-title`` one, gets no label)."""
    write(tmp_path, "_config.yml", "title: T\ncallouts:\n  caveat:\n    title: Be careful\n    color: red\n"
                                   "  highlight:\n    color: yellow\n")
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess("Intro.\n\n{: .caveat }\nMind the gap.\n\n> {: .caveat }\n> Quoted caveat.\n\n"
                          "{: .highlight }\nJust yellow.\n\n{: .caveat-title }\n> Own title\n>\n> Body.\n\n"
                          "{: .note }\nNot a configured callout.\n", page_rel="index.md")
    assert "**Be careful:** Mind the gap." in out
    assert "> **Be careful:** Quoted caveat." in out
    assert "\nJust yellow." in out and "\n> Own title" in out and "\nNot a configured callout." in out
    assert "{:" not in out
    default = jekyll.label_callouts("Text before.\n\n{: .warning }\nA warning paragraph.\n")
    assert "**Warning:** A warning paragraph." in default


def test_markdown_attribute_html_block_content_is_markdown(tmp_path: Path, write: Callable[..., Path],
                                                           png: bytes) -> None:
    """kramdown ``<div markdown="1">`` (the just-the-docs ``code-example`` block): its
    image is a picture of the page and its emphasis is not left as ``**`` text."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "assets/shot.png", png)
    write(tmp_path, "page.md", (
        "---\ntitle: P\n---\n# P\n\n<div class=\"code-example\" markdown=\"1\">\n![Shot](/assets/shot.png)\n\n"
        "<div class=\"inner\">\nnested html\n</div>\nSome **bold** words.\n</div>\nAfter.\n\n"
        "```html\n<div markdown=\"1\">\n</div>\n```\n"))
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "page.md", site=site, assets_dir=tmp_path / "_assets")
    assert [m.path for m in doc.media if m.kind == "image"] == ["assets/shot.png"]
    text = doc.sections[0].text
    assert "Some bold words." in text and "**" not in text and "After." in text
    assert '<div markdown="1">' in text  # code fence untouched


def test_front_matter_defaults(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Jekyll "Front Matter Defaults": values by scope path (prefix or glob) and type feed
    ``page.*`` and ``published``; a deeper scope and the page's own front matter win."""
    write(tmp_path, "_config.yml", (
        "title: T\ncollections:\n  recipes:\n    output: true\ndefaults:\n"
        "  - scope: {path: ''}\n    values: {shots: /img, product: Base}\n"
        "  - scope: {path: guide}\n    values: {shots: /guide/img}\n"
        "  - scope: {path: '', type: recipes}\n    values: {product: Kitchen}\n"
        "  - scope: {path: 'drafts-*'}\n    values: {published: false}\n"))
    write(tmp_path, "guide/img/a.png", png)
    write(tmp_path, "guide/start.md", "---\ntitle: S\n---\n![A]({{ page.shots }}/a.png) {{ page.product }}\n")
    write(tmp_path, "_recipes/soup.md", "---\ntitle: Soup\n---\nFor {{ page.product }} and {{ page.shots }}\n")
    write(tmp_path, "own.md", "---\nproduct: Own\n---\n{{ page.product }}\n")
    write(tmp_path, "drafts-1.md", "---\ntitle: D\n---\nhidden\n")
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess((tmp_path / "guide/start.md").read_text(), page_rel="guide/start.md")
    assert "![A](/guide/img/a.png) Base" in out
    assert site.resolve_asset("/guide/img/a.png", page_rel="guide/start.md").rel_path == "guide/img/a.png"
    assert "For Kitchen and /img" in site.preprocess((tmp_path / "_recipes/soup.md").read_text(),
                                                     page_rel="_recipes/soup.md")
    assert "Own" in site.preprocess((tmp_path / "own.md").read_text(), page_rel="own.md")
    fc = site.classify("drafts-1.md")
    assert fc.role is FileRole.EXCLUDED and "published" in fc.reason
    assert site.classify("guide/start.md").role is FileRole.PAGE


def test_kramdown_toc_list_is_not_page_text() -> None:
    """kramdown replaces a one-item list marked ``{:toc}`` by the generated TOC: its
    placeholder item is not text of the page; other lists stay."""
    out = jekyll.strip_kramdown("Sections:\n\n* TOC\n{:toc}\n\n1. Contents\n{: toc }\n\n* Kept item\n{: .fancy}\n")
    assert "TOC" not in out and "Contents" not in out and "* Kept item" in out and "{:" not in out


def test_markdownify_and_string_filters_keep_a_captured_figure(tmp_path: Path, write: Callable[..., Path],
                                                               png: bytes) -> None:
    """The documented Jekyll figure idiom: a Markdown image captured, then written in
    ``<figure>`` through ``markdownify | remove: "<p>"``; the picture and its caption stay."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "_config.yml", "title: T\nbaseurl: /b\n")
    write(tmp_path, "assets/pic.png", png)
    write(tmp_path, "page.md", (
        "---\ntitle: P\n---\n# P\n\n{% capture img %}\n![A picture]({{ '/assets/pic.png' | relative_url }})\n"
        "{% endcapture %}\n{% capture cap %}\nShot by *me*.\n{% endcapture %}\n\n<figure>\n"
        "  {{ img | markdownify | remove: '<p>' | remove: '</p>' }}\n"
        "  <figcaption>{{ cap | markdownify | remove: \"<p>\" | remove: \"</p>\" }}</figcaption>\n</figure>\n\n"
        "{{ 'a-b-c' | replace: '-', ', ' | upcase }}\n"))
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "page.md", site=site, assets_dir=tmp_path / "_assets")
    images = [m for m in doc.media if m.kind == "image"]
    assert [m.path for m in images] == ["assets/pic.png"] and "Shot by me" in (images[0].caption or "")
    text = doc.sections[0].text
    assert "![" not in text and "A, B, C" in text


def test_relative_links_resolve_from_the_permalink_url(tmp_path: Path, write: Callable[..., Path],
                                                       png: bytes) -> None:
    """Jekyll "Permalinks": a page is written at its ``permalink`` URL, so a relative
    image link is resolved from that URL's folder (documentation-theme-jekyll keeps
    pages in ``pages/<product>/`` with ``permalink: name.html`` and images in ``images/``)."""
    write(tmp_path, "_config.yml", "title: T\nbaseurl: /site\n")
    write(tmp_path, "images/shot.png", png)
    write(tmp_path, "guide/pics/flow.png", png)
    write(tmp_path, "pages/product/setup.md", "---\ntitle: Setup\npermalink: setup.html\n---\n![s](images/shot.png)\n")
    write(tmp_path, "pages/product/flow.md", "---\ntitle: Flow\npermalink: /guide/flow/\n---\n![f](../pics/flow.png)\n")
    write(tmp_path, "pages/product/plain.md", "---\ntitle: Plain\n---\n![s](images/shot.png)\n")
    site = jekyll.load(tmp_path, "_config.yml")
    assert site.resolve_asset("images/shot.png", page_rel="pages/product/setup.md").rel_path == "images/shot.png"
    assert site.resolve_asset("../../../images/shot.png", page_rel="pages/product/setup.md").rel_path == \
        "images/shot.png"  # above the site root stays at the root, as in a browser
    assert site.resolve_asset("../pics/flow.png", page_rel="pages/product/flow.md").rel_path == "guide/pics/flow.png"
    assert site.resolve_asset("images/shot.png", page_rel="pages/product/plain.md").problem


def test_data_files_are_site_data_variables(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Jekyll "Data Files": ``_data/alerts.yml`` is ``site.data.alerts`` (the
    documentation-theme-jekyll alerts), subfolders nest; a broken data file is skipped."""
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "_data/alerts.yml", "note: '<div class=\"alert\"><b>Note: </b>'\nend: '</div>'\n")
    write(tmp_path, "_data/team/ops.json", '{"lead": "Ana"}')
    write(tmp_path, "_data/broken.yml", "a: [unclosed\n")
    write(tmp_path, "_data/nav.yml", "- title: Home\n")
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess("{{site.data.alerts.note}}Back up first.{{site.data.alerts.end}}\n\n"
                          "Ask {{ site.data.team.ops.lead }}.\n", page_rel="index.md")
    assert '<div class="alert"><b>Note: </b>Back up first.</div>' in out and "Ask Ana." in out
    skipped: list[str] = []
    assert jekyll.load_data_tree(tmp_path / "_data", "../_data", skipped) == {}  # never read outside the site
    assert skipped == ["data_dir ../_data is outside the site: not read"]


def test_one_line_markdown_span_element() -> None:
    """``<div markdown="span" ...>**x**</div>`` on one line (documentation-theme-jekyll's
    note/tip includes): kramdown parses the content as Markdown, so it gets a line of its own."""
    out = jekyll.open_markdown_blocks('<div markdown="span" class="alert" role="alert"><b>Note:</b> Use **bold**.</div>\n'
                                      "> <p markdown='1'>Quoted *text*</p>\n<div markdown=\"span\"></div>\n")
    assert out.split("\n")[:5] == ['<div class="alert" role="alert">', "", "<b>Note:</b> Use **bold**.", "", "</div>"]
    assert "> <p>\n>\n> Quoted *text*\n>\n> </p>" in out
    assert '<div markdown="span"></div>' in out  # nothing inside: left alone


def test_markdown_span_element_closed_on_a_later_line() -> None:
    """An element with kramdown's markdown attribute opened with content on its line and closed on
    a later one: documentation-theme-jekyll's note/warning includes (<div markdown="span" ...>
    <b>Warning: </b>{{include.content}}</div>) given a content= with a line break (Eclipse Ditto's
    docs). kramdown parses the content as Markdown; before, it stayed one raw HTML block and the
    **bold** and [links](x) showed as written. A blank line, a fence or a nested opening of the
    same tag before the closing tag leaves the element alone."""
    out = jekyll.open_markdown_blocks(
        '<div markdown="span" class="alert" role="alert"><b>Warning: </b>Ditto **does not** check\n'
        "   the [types](#types) yet.</div>\nAfter.\n")
    assert out.split("\n")[:6] == ['<div class="alert" role="alert">', "",
                                   "<b>Warning: </b>Ditto **does not** check the [types](#types) yet.", "", "</div>",
                                   "After."]
    for src in ('<div markdown="span">Open **here**\n\nthen </div>\n',
                '<div markdown="span">Open **here**\n<div>inner</div>\n</div>\n'):
        assert jekyll.open_markdown_blocks(src) == src


def test_theme_gallery_and_video_includes_keep_their_media(tmp_path: Path, write: Callable[..., Path],
                                                            png: bytes) -> None:
    """Minimal Mistakes "Helpers" from a remote theme (not in the repository): ``gallery``
    and ``feature_row`` show the front matter list's ``image_path`` pictures, ``video``
    the provider's embed."""
    write(tmp_path, "_config.yml", "title: T\nremote_theme: someone/theme\n")
    for name in ("a.png", "b.png"):
        write(tmp_path, f"assets/{name}", png)
    write(tmp_path, "page.md", (
        "---\ntitle: P\nshots:\n  - image_path: /assets/a.png\n    alt: First\n    title: One\n"
        "  - image_path: /assets/b.png\n  - url: /nothing\nfeature_row:\n  - image_path: /assets/b.png\n---\n"
        "{% include gallery id=\"shots\" caption=\"Two <b>shots</b>.\" %}\n\n{% include feature_row %}\n\n"
        "{% include video id=\"XsxDH4HcOWA\" provider=\"youtube\" %}\n\n{% include video id=\"x\" provider=\"nope\" %}\n"))
    site = jekyll.load(tmp_path, "_config.yml")
    warnings: list[str] = []
    out = site.preprocess((tmp_path / "page.md").read_text(), page_rel="page.md", warnings=warnings)
    assert '![First](</assets/a.png> "One")\n\n![](</assets/b.png>)\n\nTwo shots.' in out
    assert out.count("](</assets/b.png>)") == 2
    assert '<iframe src="https://www.youtube-nocookie.com/embed/XsxDH4HcOWA"></iframe>' in out
    assert out.count("<iframe") == 1 and len(warnings) == 4  # every missing include is still reported


def test_include_cached_is_an_include(tmp_path: Path, write: Callable[..., Path]) -> None:
    """jekyll-include-cache: ``{% include_cached x %}`` renders like ``{% include x %}``."""
    write(tmp_path, "_config.yml", "title: T\nplugins:\n  - jekyll-include-cache\n")
    write(tmp_path, "_includes/steps.md", "Step for {{ include.os }}: run ![setup](/img/setup.png)\n")
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess('{% include_cached steps.md os="Linux" %}\n', page_rel="index.md")
    assert "Step for Linux: run ![setup](/img/setup.png)" in out


def test_parse_block_html_reads_markdown_in_every_block_element(tmp_path: Path, write: Callable[..., Path],
                                                                png: bytes) -> None:
    """kramdown ``parse_block_html`` (``_config.yml`` ``kramdown:`` or ``{::options}``):
    Markdown inside a plain ``<div>``/``<details>`` is parsed, ``markdown="0"`` is not."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "_config.yml", "title: T\nkramdown:\n  parse_block_html: true\n")
    write(tmp_path, "img/a.png", png)
    page = ("---\ntitle: P\n---\n# P\n\n<details>\n<summary>More</summary>\n![Inside](/img/a.png)\n*emph* text\n"
            "</details>\n\n<div markdown=\"0\">\n**raw** stays\n</div>\n")
    write(tmp_path, "page.md", page)
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "page.md", site=site, assets_dir=tmp_path / "_assets")
    assert [m.path for m in doc.media if m.kind == "image"] == ["img/a.png"]
    assert "emph text" in doc.sections[0].text and "**raw** stays" in doc.sections[0].text
    inline = jekyll.strip_kramdown('{::options parse_block_html="true" /}\n<div class="x">\n*a*\n</div>\n')
    assert "<div class=\"x\">\n\n*a*\n\n</div>" in inline
    assert "<div>\n*a*\n</div>" in jekyll.strip_kramdown("<div>\n*a*\n</div>\n")  # option off: left alone


def test_attribute_lists_in_code_examples_are_kept() -> None:
    """A kramdown example in a fenced code block keeps its ``{: .note }`` and ``{:toc}``
    lines (just-the-docs documents its callouts with such examples); outside code they go."""
    out = jekyll.strip_kramdown("```markdown\n{: .note }\nA paragraph\n* TOC\n{:toc}\n```\n\n"
                                "~~~~\n{: .x}\n```\n{: .y}\n~~~~\n\nText\n{: .z}\n")
    assert "```markdown\n{: .note }\nA paragraph\n* TOC\n{:toc}\n```" in out
    assert "~~~~\n{: .x}\n```\n{: .y}\n~~~~" in out and "{: .z}" not in out


def test_include_file_name_built_from_variables(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Jekyll "Includes": the file name may be built from ``{{ variables }}``, spaces
    inside the braces included (``{% include {{ page.version.version }}/misc/x.md %}``)."""
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "_includes/v2/misc/tip.md", "Tip for {{ include.who }}.\n")
    site = jekyll.load(tmp_path, "_config.yml")
    warnings: list[str] = []
    out = site.preprocess("---\nversion:\n  version: v2\n---\n{% include {{ page.version.version }}/misc/tip.md %}\n"
                          "{% include {{page.version.version}}/misc/tip.md who=\"ops\" %}\n", page_rel="p.md",
                          warnings=warnings)
    assert "Tip for .\n\nTip for ops." in out and warnings == []


def test_highlight_block_in_a_list_step_keeps_the_rest_of_the_page() -> None:
    """``{% highlight %}`` indented in a numbered step: the closing fence keeps the step's
    indentation; at column 0 it opened a new code block that swallowed the next step
    and the following section."""
    from markdown_it import MarkdownIt as _Md

    site = jekyll.JekyllSite(jekyll.load_config(Path("/nonexistent-site"))[0])
    out = site.preprocess("1. Install:\n   {% highlight bash %}\n   npm install\n   {% endhighlight %}\n"
                          "2. Next step.\n\n## Later\n\nText.\n\n- {% highlight ruby %}\n  puts 1\n  {% endhighlight %}\n",
                          page_rel="p.md")
    tokens = _Md("commonmark").parse(out)
    fences = [t.content for t in tokens if t.type == "fence"]
    assert fences == ["npm install\n", "puts 1\n"]
    assert any(t.type == "heading_open" for t in tokens)


def test_kramdown_abbreviation_definitions_are_not_text() -> None:
    """kramdown "Abbreviations": ``*[HTML]: ...`` defines an abbreviation; it is not output."""
    out = jekyll.strip_kramdown("The HTML spec.\n\n*[HTML]: Hyper Text Markup Language\n*[W3C]:  World Wide Web\n\n"
                                "* [a list item]: not a definition\n\n```\n*[X]: in code\n```\n")
    assert "Hyper Text" not in out and "World Wide" not in out and "The HTML spec." in out
    assert "* [a list item]: not a definition" in out and "*[X]: in code" in out


def test_kramdown_comment_extension_on_its_own_lines_is_not_text() -> None:
    """kramdown's ``{::comment}`` extension: its content is not output (kramdown syntax,
    "Extensions"), also when the markers stand on lines of their own, the usual form. The
    closing ``{:/comment}`` line was taken for an attribute list and removed first, so the
    comment text was left in the page. The generic end tag ``{:/}`` closes it too."""
    out = jekyll.strip_kramdown("Before.\n\n{::comment}\nReviewer note: rewrite this.\n{:/comment}\n\n"
                                "After {::comment}inline{:/comment} too.\n\nKept {::nomarkdown}<b>raw</b>{:/nomarkdown}.\n\n"
                                "Short {::comment}generic end{:/} tag.\n")
    assert "Reviewer note" not in out and "inline" not in out and "generic end" not in out
    assert "Before." in out and "After  too." in out and "Kept <b>raw</b>." in out


def test_tab_plugin_tags_are_tabs(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Jekyll tab plugins: ``{% tabs g %}{% tab g Label %}`` (jekyll-tabs), ``{% tab Label %}``
    and ``{% tab title="Label" %}`` are tabs; images in them record their tab."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "_config.yml", "title: T\n")
    for name in ("a.png", "i.png", "w.png"):
        write(tmp_path, f"img/{name}", png)
    write(tmp_path, "page.md", (
        "---\ntitle: P\n---\n# P\n\n{% tabs os %}\n{% tab os Android %}\nTap it.\n\n![](/img/a.png)\n{% endtab %}\n"
        "{% tab os iOS %}\nSwipe it.\n\n![](/img/i.png)\n{% endtab %}\n{% endtabs %}\n\nAfter.\n\n"
        "{% tabs %}\n{% tab title=\"Web: browser\" %}\n![](/img/w.png)\n{% endtab %}\n{% endtabs %}\n"))
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "page.md", site=site, assets_dir=tmp_path / "_assets")
    tabs = [(Path(m.path or "").name, m.tab, m.tab_set) for m in doc.media if isinstance(m, ImageItem)]
    assert tabs == [("a.png", "Android", ("Android", "iOS")), ("i.png", "iOS", ("Android", "iOS")),
                    ("w.png", "Web: browser", ("Web: browser",))]
    text = doc.sections[0].text
    assert "Android\n\nTap it." in text and "After." in text and "{%" not in text


def test_known_liquid_conditions_keep_one_branch(tmp_path: Path, write: Callable[..., Path]) -> None:
    """``{% if %}``/``{% unless %}``/``{% case %}``: with every variable known (config,
    front matter where an unset key is nil, include parameters) only the branch Liquid
    renders is kept; an unknown variable keeps every branch."""
    write(tmp_path, "_config.yml", "title: T\noutput: web\nversion: 3\n")
    site = jekyll.load(tmp_path, "_config.yml")
    page = ("---\nos: mac\nbeta: false\n---\n"
            "{% if site.output == \"pdf\" %}PDF-ONLY{% elsif site.output == 'web' %}WEB-ONLY{% else %}X{% endif %}|"
            "{% if page.cloud %}CLOUD{% else %}SELF{% endif %}|{% unless page.beta %}GA{% endunless %}|"
            "{% case page.os %}{% when 'linux' %}L{% when 'mac', 'win' %}MW{% else %}O{% endcase %}|"
            "{% if site.version >= 2 and page.os contains 'ma' %}NEW{% endif %}|"
            "{% if post.flag %}A{% else %}B{% endif %}|{% if paginator.page %}A{% else %}B{% endif %}|"
            "{% if page.os == 'mac' %}outer{% if page.cloud %}inner-cloud{% endif %}{% endif %}")
    out = site.preprocess(page, page_rel="p.md")
    # ``post`` outside a loop is undefined, nil to Liquid; ``paginator`` is Jekyll's, not known here
    assert out.split("---\n", 2)[2] == "WEB-ONLY|SELF|GA|MW|NEW|B|AB|outer"


def test_deeply_nested_conditions_do_not_crash(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hundreds of nested ``{% if %}`` blocks: no recursion error, the text stays."""
    write(tmp_path, "_config.yml", "title: T\non: true\n")
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess("{% if site.on %}" * 400 + "deep" + "{% endif %}" * 400, page_rel="p.md")
    assert "deep" in out and "{%" not in out


def _hostile_site(tmp_path: Path, write: Callable[..., Path]) -> Any:
    write(tmp_path, "_config.yml", "title: x\n")
    write(tmp_path, "index.md", "# I\n")
    write(tmp_path, "_includes/b.md", "x\n" + "{% include b.md %}\n" * 10)
    write(tmp_path, "_includes/h.md", "<p hidden>gone</p>shown" + "<p hidden>" * 20_000)
    return jekyll.load(tmp_path, "_config.yml")


def test_self_include_fan_out_is_bounded(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A file including itself ten times is 10**8 includes at depth 8: the page stops
    at the include limit, with one warning per limit."""
    site = _hostile_site(tmp_path, write)
    warnings: list[str] = []
    out = site.preprocess("# I\n\n" + "{% include b.md %}\n" * 10, page_rel="index.md", warnings=warnings)
    assert out.count("x") == jekyll._MAX_INCLUDES and len(warnings) == 2


def test_doubling_assign_is_bounded(tmp_path: Path, write: Callable[..., Path]) -> None:
    """``assign a = a | append: a`` sixty times is a 2**61-character string; values and
    the page's output are cut, with a warning."""
    site = _hostile_site(tmp_path, write)
    page = ('{% assign a = "xx" %}\n' + "{% assign a = a | append: a %}\n" * 60 + "{{ a }}" * 1000
            + "{% capture c %}{{a}}{{a}}{% endcapture %}" * 50 + "{{ c }}" * 1000)
    warnings: list[str] = []
    out = site.preprocess(page, page_rel="index.md", warnings=warnings)
    assert len(out) <= jekyll._MAX_RENDERED_CHARS + jekyll._MAX_VALUE_CHARS and len(warnings) == 1


@pytest.mark.parametrize("opener", ["{{", "{% raw %}", "{% comment %}", "{% capture a %}", "{% highlight py %}",
                                    "{::comment}", "{::a"])
def test_unclosed_liquid_and_kramdown_tags_are_linear(tmp_path: Path, write: Callable[..., Path],
                                                      opener: str, deadline: Callable[[int, str], Any]) -> None:
    """20,000 openers without a closer (about 200 KB) are rendered in linear time; each
    used to be scanned to the end of the page (5,000 ``{% highlight %}``: 16 s). The
    size of the output is checked; the 60 s alarm is only a safety net."""
    site = _hostile_site(tmp_path, write)
    with deadline(60, opener):
        out = site.preprocess("# T\n\n" + opener * 20_000 + "\n", page_rel="index.md", warnings=[])
    assert len(out) <= 20_000 * len(opener) + 10


def test_hidden_elements_in_includes_and_raw_placeholders(tmp_path: Path, write: Callable[..., Path]) -> None:
    """20,000 unclosed ``<p hidden>`` in an include took 32 s; a page holding the NUL
    placeholder of a raw block itself raised IndexError."""
    site = _hostile_site(tmp_path, write)
    out = site.preprocess("{% include h.md %}\n\x00RAW9\x00", page_rel="index.md", warnings=[])
    assert "gone" not in out and "shown" in out and "\x00RAW9\x00" in out


def test_parse_block_html_keeps_raw_content_model_elements_whole(tmp_path: Path, write: Callable[..., Path]) -> None:
    """kramdown ``parse_block_html`` parses as Markdown only the content of block-model
    elements (``div``, ``li``, ...); a ``<ul>``/``<table>`` has the raw content model and
    everything inside it stays HTML, its ``<li>`` too (a tab strip an include writes
    inside a ``<div>``): no indented ``<a ...>`` line may become a code block."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "_config.yml", "title: T\nkramdown:\n  parse_block_html: true\n")
    page = ("---\ntitle: P\n---\n# P\n\n<div class=\"tabs\">\n  <ul class=\"nav\">\n    <li class=\"nav-item\">\n"
            "      <a class=\"nav-link\" href=\"#linux\">Linux / Unix</a>\n    </li>\n\n    <li class=\"nav-item\">\n"
            "      <a class=\"nav-link\" href=\"#win\">Windows</a>\n    </li>\n  </ul>\n\n*after* the tabs\n</div>\n")
    write(tmp_path, "page.md", page)
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "page.md", site=site, assets_dir=tmp_path / "_assets")
    text = doc.sections[0].text
    assert "Linux / Unix" in text and "Windows" in text and "after the tabs" in text
    assert "<a " not in text and "</li>" not in text and "<li" not in text
    # a child given markdown="1" is Markdown even inside a raw element (kramdown: the attribute wins)
    out = jekyll.strip_kramdown("<table>\n<tr>\n<td markdown=\"1\">\n**bold**\n</td>\n</tr>\n</table>\n",
                                parse_block_html=True)
    assert "<td>\n\n**bold**\n\n</td>" in out


def test_bootstrap_tabs_are_tabs(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Bootstrap tabs (a <ul class="nav nav-tabs"> strip of links to the panes, <div class="tab-content">
    holding <div class="tab-pane" id=..>; documentation-theme-jekyll's "Navtabs", bitwarden/help's Duo
    page) are a tab set: each pane a tab labelled by the link targeting its id (href or
    data-bs-target), its pictures recording their tab, the strip's links not page text. The same
    markup in a code fence stays as written."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "_config.yml", "title: T\n")
    for name in ("p.png", "o.png", "after.png"):
        write(tmp_path, f"img/{name}", png)
    write(tmp_path, "page.md", (
        "---\ntitle: P\n---\n# P\n\nPick a tab:\n\n"
        '<ul class="nav nav-tabs" role="tablist">\n'
        '  <li class="active"><a href="#personal" data-toggle="tab">Personal</a></li>\n'
        '  <li><button class="nav-link" data-bs-target="#org" type="button"><i class="fa fa-users"></i> Organization</button></li>\n'
        "</ul>\n\n"
        '<div class="tab-content">\n  <div class="tab-pane active" id="personal">\n'
        '    <p>Open <b>Settings</b>.</p>\n\n    <div class="note"><img src="/img/p.png" alt="Settings"></div>\n  </div>\n'
        '  <div role="tabpanel" class="tab-pane" id="org">\n    <p>Open the organization.</p>\n'
        '    <img src="/img/o.png" alt="Org">\n  </div>\n</div>\n\nAfter the tabs.\n\n![](/img/after.png)\n\n'
        '```html\n<div class="tab-content"><div class="tab-pane" id="x">Shown as code</div></div>\n```\n'))
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "page.md", site=site, assets_dir=tmp_path / "_a")
    tabs = [(Path(m.path or "").name, m.tab, m.tab_set) for m in doc.media if isinstance(m, ImageItem)]
    assert tabs == [("p.png", "Personal", ("Personal", "Organization")),
                    ("o.png", "Organization", ("Personal", "Organization")), ("after.png", "", ())]
    text = doc.sections[0].text
    assert "Personal\n\nOpen Settings." in text and "Organization\n\nOpen the organization." in text
    assert "After the tabs." in text and 'class="tab-pane" id="x">Shown as code' in text
    assert text.count("Personal") == 1


def test_bootstrap_tabs_whose_panes_hold_code_blocks(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """A tab set whose panes hold fenced code (Docker's docs: one command per OS, in a
    list step too) is one set: each pane's code follows its own tab's label and the step
    goes on after it; the set was read in pieces between the code blocks, never matched,
    so the labels read as a run of words before all the commands."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "img/console.png", png)
    strip = ('{i}<ul class="nav nav-tabs">\n{i}<li class="active"><a data-toggle="tab" data-target="#win{n}">Windows</a>'
             '</li>\n{i}<li><a data-toggle="tab" data-target="#mac{n}">Mac</a></li>\n{i}</ul>\n')
    panes = ('{i}<div class="tab-content">\n{i}<div id="win{n}" class="tab-pane fade in active" markdown="1">\n\n'
             '{i}```console\n{i}$ diagnose.exe\n{i}```\n\n{i}</div>\n'
             '{i}<div id="mac{n}" class="tab-pane fade" markdown="1">\n\n'
             '{i}```console\n{i}$ /Applications/diagnose\n{i}```\n\n{i}![Console](/img/console.png)\n\n'
             '{i}</div>\n{i}</div>\n')
    write(tmp_path, "page.md", (
        "---\ntitle: P\n---\n# P\n\nLogs:\n\n" + strip.format(i="", n=1) + panes.format(i="", n=1)
        + "\n1. Locate the tool:\n\n" + strip.format(i="    ", n=2) + panes.format(i="    ", n=2)
        + "2. Run it.\n"))
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "page.md", site=site, assets_dir=tmp_path / "_a")
    text = doc.sections[0].text
    assert "Logs:\n\nWindows\n\n$ diagnose.exe\n\nMac\n\n$ /Applications/diagnose" in text
    assert "Locate the tool:\n\nWindows\n\n$ diagnose.exe\n\nMac\n\n$ /Applications/diagnose" in text
    assert "Run it." in text and "```" not in text and "</div>" not in text
    assert [(m.tab, m.tab_set) for m in doc.media if isinstance(m, ImageItem)] == [
        ("Mac", ("Windows", "Mac")), ("Mac", ("Windows", "Mac"))]


def test_a_tab_content_without_panes_is_left_alone() -> None:
    text = '<div class="tab-content">\n<p>Just text.</p>\n</div>\n<div class="tab-pane" id="a">\n'
    assert jekyll.bootstrap_tabs(text) == text


def test_a_collection_document_resolves_relative_links_at_its_url(tmp_path: Path, write: Callable[..., Path],
                                                                   png: bytes) -> None:
    """A document of an output collection is written at the URL its collection's permalink gives
    (Jekyll "Collections", "Permalinks": /tutorials/:title/ -> /tutorials/add-repo/; by default
    /:collection/:path:output_ext), so a browser resolves its relative links there: F-Droid's
    _tutorials/add-repo.html writes ../../../assets/x.png, /assets/x.png of the site, which read
    as escaping the corpus from the file's folder. :name is the file name slugified; a permalink
    left with a placeholder murar does not know gives nothing."""
    write(tmp_path, "_config.yml", "title: T\ncollections:\n  tutorials:\n    output: true\n"
          "    permalink: /tutorials/:title/\n  guides:\n    output: true\n  notes:\n    output: true\n"
          "    permalink: /:year/:name/\n")
    write(tmp_path, "assets/shot.png", png)
    write(tmp_path, "guides/img/g.png", png)
    write(tmp_path, "_tutorials/add-repo.html", "---\ntitle: T\n---\n<img src=\"../../../assets/shot.png\">\n")
    write(tmp_path, "_guides/setup/first.md", "---\ntitle: G\n---\n![](../img/g.png)\n")
    write(tmp_path, "_notes/n.md", "---\ntitle: N\n---\n")
    site = jekyll.load(tmp_path, "_config.yml")
    assert site.resolve_asset("../../../assets/shot.png", page_rel="_tutorials/add-repo.html").rel_path == "assets/shot.png"
    assert site.resolve_asset("../img/g.png", page_rel="_guides/setup/first.md").rel_path == "guides/img/g.png"
    assert site._permalink_folder("_notes/n.md") is None and site._permalink_folder("_guides/setup/first.md") == "guides/setup"


def test_an_html_page_reads_its_front_matter_title_not_the_block(tmp_path: Path,
                                                                 write: Callable[..., Path]) -> None:
    """Jekyll reads an HTML page's front matter itself (the HTML never shows it) and runs no
    Markdown converter on it: the page is titled by its front matter title (it showed the block
    as text, '--- layout: tutorial title: ... ---', and was titled by its file name), and a site
    plugin's image or callout tag on it writes HTML, not Markdown."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "_plugins/shot.rb", "Liquid::Template.register_tag('shot', X)\n"
          "# \"<img src=\\\"#{baseurl}/img/#{src}\\\">\"\n")
    import io

    from PIL import Image

    shot = io.BytesIO()
    Image.new("RGB", (320, 200), (40, 90, 160)).save(shot, format="PNG")  # (16 px images are dropped in HTML)
    write(tmp_path, "img/a.png", shot.getvalue())
    write(tmp_path, "guide.html", "---\nlayout: tutorial\ntitle: How to Add a Repo\n---\n<p>\n\tStep one.\n</p>\n"
          "{% callout warning %}<p>Careful.</p>{% endcallout %}\n{% shot a.png The list %}\n")
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("html")(tmp_path / "guide.html", site=site, assets_dir=tmp_path / "_a")
    assert doc.title == "How to Add a Repo"
    text = "\n".join(s.text for s in doc.sections)
    assert "layout" not in text and "---" not in text and "Step one." in text
    assert "Warning:" in text and "**" not in text and "Careful." in text and "![" not in text
    assert [(m.path, m.alt) for m in doc.media if isinstance(m, ImageItem)] == [("img/a.png", "The list")]


def test_highlight_on_an_html_page_is_a_code_block(tmp_path: Path, write: Callable[..., Path]) -> None:
    """{% highlight %} on an HTML page is Jekyll's <pre><code> block (no Markdown converter runs on
    the page): it showed a Markdown fence as text ('```bash echo "" && ls ```', the <hi> lost)."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "p.html", '---\ntitle: Code page\n---\n<p>Run:</p>\n{% highlight bash %}\necho "<hi>" && ls\n'
          "{% endhighlight %}\n<p>Done.</p>\n")
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("html")(tmp_path / "p.html", site=site, assets_dir=tmp_path / "_a")
    text = doc.sections[0].text
    assert 'echo "<hi>" && ls' in text and "```" not in text and "Done." in text


def test_theme_figure_helper_on_an_html_page_is_an_img(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A theme helper's picture (Minimal Mistakes' figure include, not in the repository) on an
    HTML page is an <img>, as the helper writes it: it was Markdown ('![Alt](<...>)') left as text."""
    write(tmp_path, "_config.yml", "title: T\nremote_theme: mmistakes/minimal-mistakes\n")
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess('---\ntitle: P\n---\n<p>See:</p>\n{% include figure image_path="/assets/a.png" alt="The app" '
                          'caption="Main window" %}\n', page_rel="p.html", warnings=[])
    assert '<img src="/assets/a.png" alt="The app" title="Main window">' in out and "![" not in out


def test_jemoji_shortcodes_are_pictures_not_words(tmp_path: Path, write: Callable[..., Path]) -> None:
    """The jemoji plugin (Jekyll's own docs list it in ``plugins``) draws ``:heart:`` as an
    emoji picture: the shortcode was left in the text as the word ``:heart:``. A value emoji
    keeps its character, code keeps its text, and a site without jemoji is left as written."""
    body = "Almost there :heart:\n\n| Feature | Ok |\n|---|---|\n| Tabs | :white_check_mark: |\n\n" \
           "Write `:tada:` to get one, at 10:30:00.\n"
    write(tmp_path, "_config.yml", "title: T\nplugins:\n  - jekyll-feed\n  - jemoji\n")
    out = jekyll.load(tmp_path, "_config.yml").preprocess(body, page_rel="index.md")
    assert "Almost there\n" in out and ":heart:" not in out
    assert "| Tabs | \u2705 |" in out and "`:tada:`" in out and "10:30:00" in out
    write(tmp_path, "_config.yml", "title: T\nplugins:\n  - jekyll-feed\n")
    assert ":heart:" in jekyll.load(tmp_path, "_config.yml").preprocess(body, page_rel="index.md")


def test_theme_feature_row_keeps_each_blocks_title_and_excerpt(tmp_path: Path, write: Callable[..., Path],
                                                               png: bytes) -> None:
    """Minimal Mistakes "Helpers: Feature row" (a remote theme's include): a block is its
    picture, its title and its Markdown excerpt; only the pictures were kept, so a splash
    page's feature blocks read as three bare images."""
    write(tmp_path, "_config.yml", "title: T\nremote_theme: mmistakes/minimal-mistakes\n")
    write(tmp_path, "assets/a.png", png)
    write(tmp_path, "page.md", (
        "---\ntitle: P\nfeature_row:\n  - image_path: /assets/a.png\n    alt: Sync\n    title: Offline sync\n"
        "    excerpt: \"Edits made **offline** sync later.\"\n  - title: No picture\n    excerpt: Text only.\n"
        "row2:\n  - image_path: /assets/a.png\n    image_caption: Shot\n    title: Second row\n---\n"
        "{% include feature_row %}\n\n{% include feature_row id=\"row2\" type=\"left\" %}\n"))
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess((tmp_path / "page.md").read_text(), page_rel="page.md")
    assert "![Sync](</assets/a.png>)\n\n**Offline sync**\n\nEdits made **offline** sync later." in out
    assert "**No picture**\n\nText only." in out
    assert '![](</assets/a.png> "Shot")\n\n**Second row**' in out


def test_minimal_mistakes_header_picture_is_on_the_page(tmp_path: Path, write: Callable[..., Path],
                                                         png: bytes) -> None:
    """Minimal Mistakes "Layouts: Headers": ``header.overlay_image`` (else ``header.image``) is
    drawn above the page with its ``caption``; it was not read at all. A header picture
    (hero), alt from ``image_description`` or the title; a teaser alone draws nothing, and
    a site on another theme keeps its front matter to itself."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "_config.yml", 'title: T\nremote_theme: "mmistakes/minimal-mistakes@4.24.0"\n')
    write(tmp_path, "assets/images/hero.png", png)
    page = ("---\ntitle: Setup\nheader:\n  overlay_image: /assets/images/hero.png\n"
            "  caption: \"Photo: [**Unsplash**](https://unsplash.com)\"\n  teaser: /assets/images/t.png\n---\n"
            "# Setup\n\nText.\n")
    write(tmp_path, "setup.md", page)
    write(tmp_path, "teaser.md", "---\ntitle: X\nheader:\n  teaser: /assets/images/hero.png\n---\nText.\n")
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "setup.md", site=site, assets_dir=tmp_path / "_assets")
    images = [m for m in doc.media if m.kind == "image"]
    assert [(m.alt, m.caption) for m in images] == [("Setup", "Photo: Unsplash")]
    assert "hero" in (images[0].flags or [])
    assert "<img" not in site.preprocess((tmp_path / "teaser.md").read_text(), page_rel="teaser.md")
    write(tmp_path, "_config.yml", "title: T\n")
    assert "<img" not in jekyll.load(tmp_path, "_config.yml").preprocess(page, page_rel="setup.md")


def test_theme_helper_image_paths_are_the_sites(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Minimal Mistakes' ``figure``/``gallery``/``feature_row`` pass ``image_path`` through
    ``relative_url``: ``assets/images/a.png`` (no leading slash, its splash page) is the site's
    file, not one beside the page (it was reported missing under ``_pages/``)."""
    write(tmp_path, "_config.yml", "title: T\nremote_theme: mmistakes/minimal-mistakes\ninclude:\n  - _pages\n")
    write(tmp_path, "assets/images/a.png", png)
    write(tmp_path, "_pages/splash.md", (
        "---\ntitle: S\nfeature_row:\n  - image_path: assets/images/a.png\n    image_caption: \"By [Me](https://x.org)\"\n"
        "---\n{% include feature_row %}\n\n{% include figure image_path=\"assets/images/a.png\" alt=\"A\" %}\n"))
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess((tmp_path / "_pages/splash.md").read_text(), page_rel="_pages/splash.md")
    assert '![](</assets/images/a.png> "By Me")' in out and "![A](</assets/images/a.png>)" in out
    assert site.resolve_asset("/assets/images/a.png", page_rel="_pages/splash.md").rel_path == "assets/images/a.png"


def test_minimal_mistakes_overlay_header_shows_the_excerpt(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A Minimal Mistakes overlay header draws the front matter ``excerpt`` under the title
    (its splash page's lead paragraph was lost); ``show_overlay_excerpt: false`` hides it,
    and a plain ``header.image`` page shows no excerpt."""
    write(tmp_path, "_config.yml", "title: T\ntheme: minimal-mistakes-jekyll\n")
    site = jekyll.load(tmp_path, "_config.yml")
    page = "---\ntitle: S\nexcerpt: \"Sync **everything**.\"\nheader:\n  overlay_color: \"#000\"\n{extra}---\nBody.\n"
    assert "Sync **everything**.\n\nBody." in site.preprocess(page.format(extra=""), page_rel="s.md")
    hidden = site.preprocess(page.format(extra="  show_overlay_excerpt: false\n"), page_rel="s.md")
    assert "Sync" not in hidden.split("---")[-1]
    plain = page.replace("overlay_color: \"#000\"", "image: /a.png").format(extra="")
    assert "Sync" not in site.preprocess(plain, page_rel="s.md").split("---")[-1]
