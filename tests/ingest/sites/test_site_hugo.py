"""Hugo site rules: config, classification, bundles/static, shortcodes, includes."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from selectolax.lexbor import LexborHTMLParser

from murar.errors import ConfigError
from murar.ingest.sites import hugo
from murar.ingest.sites.base import FileRole, Site, SiteVariant


@pytest.fixture()
def site_root(tmp_path: Path, write: Callable[..., Path], png: bytes) -> Path:
    write(tmp_path, "hugo.toml", 'baseURL = "https://docs.example.org/product/"\ncontentDir = "content"\n'
                                 'staticDir = ["static", "static2"]\n[params]\nversion = "4.2"\n')
    write(tmp_path, "static/images/static-shot.png", png)
    write(tmp_path, "static2/img/second.png", png)
    write(tmp_path, "content/guide/install/index.md",
          "+++\ntitle = 'Install'\nweight = 3\n+++\n\n# Install\n\nBefore.\n\n"
          '{{< figure src="bundle-shot.png" caption="The installer window" alt="installer" >}}\n\n'
          "Root link: ![static](/product/images/static-shot.png)\n\n"
          '{{< img src="img/second.png" alt="Second" >}}\n\n'
          '{{< call-out class="note" title="Heads up" >}}Inner **call-out** text.{{< /call-out >}}\n\n'
          '{{< include "shared/steps.md" >}}\n\nAfter the include.\n\n'
          'See [the API]({{< ref "/api/reference.md" >}}). Version {{< param "version" >}}.\n\n'
          "Literal: {{</* figure src=\"x.png\" */>}}\n\n"
          "{{< youtube dQw4w9WgXcQ >}}\n\n"
          "{{< highlight bash >}}\nnginx -t\n{{< /highlight >}}\n")
    write(tmp_path, "content/guide/install/bundle-shot.png", png)
    write(tmp_path, "content/includes/shared/steps.md", "---\ntitle: steps\n---\nIncluded step text.\n\n"
                                                          "![step](/images/static-shot.png)\n")
    write(tmp_path, "content/guide/draft-page.md", "---\ntitle: Draft\ndraft: true\n---\nhidden\n")
    write(tmp_path, "content/guide/never.md", "---\nbuild:\n  render: never\n---\nhidden\n")
    write(tmp_path, "content/snippets/index.md", "---\nheadless: true\n---\n")
    write(tmp_path, "content/snippets/part.md", "A headless resource.\n")
    write(tmp_path, "content/guide/regular.md", "# Regular\n\n![sib](sibling.png)\n![none](missing.png)\n")
    write(tmp_path, "content/guide/sibling.png", png)
    write(tmp_path, "layouts/_default/single.html", "<html>{{ .Content }}</html>")
    write(tmp_path, "public/index.html", "<html>built</html>")
    write(tmp_path, "README.md", "# repo readme\n")
    return tmp_path


def images_of(markdown: str) -> list[tuple[str, str, str]]:
    """(src, alt, title) of every Markdown and HTML image in ``markdown``."""
    out: list[tuple[str, str, str]] = []
    for tok in MarkdownIt("commonmark", {"html": True}).parse(markdown):
        for child in [tok, *(tok.children or [])]:
            if child.type == "image":
                out.append((str(child.attrs["src"]), child.content, str(child.attrs.get("title") or "")))
            elif child.type in ("html_block", "html_inline"):
                for node in LexborHTMLParser(child.content).css("img"):
                    out.append((node.attributes.get("src") or "", node.attributes.get("alt") or "", ""))
    return out


def test_config_and_protocol(site_root: Path) -> None:
    site = hugo.load(site_root)
    assert isinstance(site, Site)
    cfg = site.config
    assert cfg.generator == "hugo" and cfg.config_file == "hugo.toml"
    assert cfg.static_dirs == ("static", "static2")
    assert cfg.content_dirs == ("content",)
    assert cfg.base_url == "/product/"
    assert cfg.include_dirs == ("content/includes",)


def test_config_dir_production_and_languages(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "config/_default/hugo.yaml", "baseURL: /\nlanguages:\n  en:\n    contentDir: content/en\n"
                                                 "  fr:\n    contentDir: content/fr\n")
    write(tmp_path, "config/_default/params.toml", 'product = "Acme"\n')
    write(tmp_path, "config/production/hugo.toml", 'baseURL = "https://x.org/docs/"\n')
    site = hugo.load(tmp_path)
    cfg = site.config
    assert cfg.content_dirs == ("content", "content/en", "content/fr")
    assert cfg.base_url == "/docs/"
    assert site.preprocess('{{< param "product" >}}', page_rel="content/en/a.md") == "Acme"


def test_config_dir_subfolders_and_language_suffixed_files(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo walks config/_default with its subfolders, each file under its own name's key
    (Falco's config/_default/versions/params.yaml, module/module.yaml); a language suffix puts a
    file under that language (params.fr.toml -> languages.fr.params)."""
    write(tmp_path, "config/_default/config.toml", 'baseURL = "https://x.org/"\ncontentDir = "content/en"\n'
                                                   '[params]\ncopyright = "X"\n')
    write(tmp_path, "config/_default/versions/params.yaml", "version: v0.41.0\n")
    write(tmp_path, "config/_default/module/module.yaml",
          "mounts:\n  - source: content/en\n    target: content\n    lang: en\n")
    write(tmp_path, "config/_default/languages/languages.yaml", "en:\n  weight: 1\nfr:\n  weight: 2\n")
    write(tmp_path, "config/_default/params.fr.toml", 'version = "v0.41.0-fr"\n')
    cfg, _ = hugo.read_hugo_config(tmp_path)
    assert cfg["params"] == {"copyright": "X", "version": "v0.41.0"}
    assert cfg["module"]["mounts"][0]["source"] == "content/en"
    assert cfg["languages"]["fr"] == {"weight": 2, "params": {"version": "v0.41.0-fr"}}
    site = hugo.load(tmp_path)
    assert site.preprocess('{{< param "version" >}}', page_rel="content/en/a.md") == "v0.41.0"


def test_root_links_reach_bundle_files_hugo_published_at_lower_cased_urls(
        tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Hugo lowercases content URL paths (disablePathToLower false): Tekton's
    content/en/docs/Concepts/x.png is served at /docs/concepts/x.png, the link its pages use.
    A URL with capitals is not such a path; with disablePathToLower the case must match."""
    write(tmp_path, "hugo.toml", 'contentDir = "content/en"\n')
    write(tmp_path, "content/en/docs/Concepts/_index.md", "# Concepts\n")
    write(tmp_path, "content/en/docs/Concepts/model.md", "# Model\n")
    write(tmp_path, "content/en/docs/Concepts/concept-runs.png", png)
    site = hugo.load(tmp_path)
    page = "content/en/docs/Concepts/model.md"
    assert site.resolve_asset("/docs/concepts/concept-runs.png", page_rel=page).rel_path == \
        "content/en/docs/Concepts/concept-runs.png"
    assert site.resolve_asset("/docs/concepts/other.png", page_rel=page).problem
    assert site.resolve_asset("/docs/CONCEPTS/concept-runs.png", page_rel=page).problem
    write(tmp_path, "hugo.toml", 'contentDir = "content/en"\ndisablePathToLower = true\n')
    assert hugo.load(tmp_path).resolve_asset("/docs/concepts/concept-runs.png", page_rel=page).problem


def test_root_links_under_a_language_prefix_reach_bundle_files(
        tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """A multilingual site serves a language's pages and their resources under /<lang>/
    (the default language too with defaultContentLanguageInSubdir): /docs/en/guide/images/a.png
    is content/guide/images/a.png of the bundle content/guide/_index.en.md. A language not
    served in a subfolder (the default, without the setting) has no such prefix."""
    write(tmp_path, "config.toml", 'baseURL = "https://example.org/docs"\ndefaultContentLanguage = "en"\n'
          'defaultContentLanguageInSubdir = true\n[languages.en]\nweight = 1\n[languages.de]\nweight = 2\n')
    write(tmp_path, "content/guide/_index.en.md", "# Guide\n")
    write(tmp_path, "content/guide/_index.de.md", "# Anleitung\n")
    write(tmp_path, "content/guide/Some Folder/images/a.png", png)
    site = hugo.load(tmp_path)
    page = "content/guide/_index.en.md"
    assert site.resolve_asset("/docs/en/guide/Some%20Folder/images/a.png", page_rel=page).rel_path == \
        "content/guide/Some Folder/images/a.png"
    assert site.resolve_asset("/docs/de/guide/Some%20Folder/images/a.png", page_rel=page).rel_path == \
        "content/guide/Some Folder/images/a.png"
    assert site.resolve_asset("/docs/fr/guide/Some%20Folder/images/a.png", page_rel=page).problem
    # Hugo publishes content paths lower-cased with spaces as hyphens: /en/guide/some-folder/...
    assert site.resolve_asset("/docs/en/guide/some-folder/images/a.png", page_rel=page).rel_path == \
        "content/guide/Some Folder/images/a.png"
    write(tmp_path, "config.toml", 'baseURL = "https://example.org/docs"\ndefaultContentLanguage = "en"\n'
          '[languages.en]\nweight = 1\n[languages.de]\nweight = 2\n')
    site = hugo.load(tmp_path)
    assert site.resolve_asset("/docs/en/guide/Some%20Folder/images/a.png", page_rel=page).problem
    assert site.resolve_asset("/docs/de/guide/Some%20Folder/images/a.png", page_rel=page).rel_path == \
        "content/guide/Some Folder/images/a.png"


def test_module_mounts_replace_folders(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    write(tmp_path, "hugo.toml", '[[module.mounts]]\nsource = "docs"\ntarget = "content"\n'
                                 '[[module.mounts]]\nsource = "pictures"\ntarget = "static"\n')
    write(tmp_path, "docs/a.md", "# A\n\n![x](/shot.png)\n")
    write(tmp_path, "pictures/shot.png", png)
    site = hugo.load(tmp_path)
    assert site.classify("docs/a.md").role is FileRole.PAGE
    assert site.resolve_asset("/shot.png", page_rel="docs/a.md").rel_path == "pictures/shot.png"


def test_yaml_config_anchors_and_aliases_are_read(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo reads YAML anchors and aliases in its config (Go's yaml): Docsy's own site writes
    ``hugoMinVersion: &hugoMinVersion 0.160.1`` and ``min: *hugoMinVersion``, its mounts share
    ``sites: *sites``. Such a config stopped the ingest ('aliases (*name) are not allowed').
    Each use is a copy of its own; a 'billion laughs' still stops."""
    write(tmp_path, "config/_default/hugo.yaml",
          "params:\n  hugoMinVersion: &v 0.160.1\n  product: &p Acme\n  again: *p\n"
          "module:\n  hugoVersion:\n    min: *v\n  mounts:\n"
          "    - source: content/en\n      target: content\n      sites: &sites { matrix: { languages: [en] } }\n"
          "    - source: shared\n      target: content/shared\n      sites: *sites\n")
    write(tmp_path, "content/en/a.md", "# A\n")
    site = hugo.load(tmp_path)
    assert site.config.content_dirs == ("content/en", "shared")
    assert site.preprocess('{{< param "again" >}}', page_rel="content/en/a.md") == "Acme"
    cfg, _ = hugo.read_hugo_config(tmp_path)
    first, second = cfg["module"]["mounts"]
    assert first["sites"] == second["sites"] and first["sites"] is not second["sites"]
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdefg", "bcdefgh", strict=True))
    write(tmp_path, "config/_default/hugo.yaml", bomb)
    with pytest.raises(ConfigError, match="aliases expand to more than"):
        hugo.load(tmp_path)


def test_invalid_config_is_typed_error(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", "baseURL = = broken")
    with pytest.raises(ConfigError, match="hugo.toml"):
        hugo.load(tmp_path)


def test_classify(site_root: Path) -> None:
    site = hugo.load(site_root)
    assert site.classify("content/guide/install/index.md").role is FileRole.PAGE
    assert site.classify("content/guide/regular.md").markup == "markdown"
    assert site.classify("content/includes/shared/steps.md").role is FileRole.INCLUDE
    draft = site.classify("content/guide/draft-page.md")
    assert draft.role is FileRole.EXCLUDED and "draft" in draft.reason
    assert site.classify("content/guide/never.md").role is FileRole.EXCLUDED
    assert site.classify("content/snippets/part.md").role is FileRole.INCLUDE
    assert site.classify("layouts/_default/single.html").role is FileRole.EXCLUDED
    assert site.classify("public/index.html").role is FileRole.EXCLUDED
    assert site.classify("README.md").role is FileRole.EXCLUDED
    assert site.classify("content/guide/sibling.png").role is FileRole.ASSET


def test_include_target_outside_includes_dir_is_an_include(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/page.md", '# P\n\n{{% readfile file="/parts/common.md" %}}\n')
    write(tmp_path, "content/parts/common.md", "Common text.\n")
    site = hugo.load(tmp_path)
    assert site.classify("content/parts/common.md").role is FileRole.INCLUDE
    assert "Common text." in site.preprocess((tmp_path / "content/page.md").read_text(), page_rel="content/page.md")


def test_bundle_static_and_relative_resolution(site_root: Path) -> None:
    site = hugo.load(site_root)
    page = "content/guide/install/index.md"
    assert site.resolve_asset("bundle-shot.png", page_rel=page).rel_path == "content/guide/install/bundle-shot.png"
    assert site.resolve_asset("/product/images/static-shot.png", page_rel=page).rel_path == \
        "static/images/static-shot.png"
    assert site.resolve_asset("https://docs.example.org/product/img/second.png", page_rel=page).rel_path == \
        "static2/img/second.png"
    assert site.resolve_asset("https://cdn.example.com/x.png", page_rel=page).url == "https://cdn.example.com/x.png"
    # a regular page's relative link: the file beside it, else relative to the page URL
    assert site.resolve_asset("sibling.png", page_rel="content/guide/regular.md").rel_path == "content/guide/sibling.png"
    missing = site.resolve_asset("missing.png", page_rel="content/guide/regular.md")
    assert missing.problem is not None and "content/guide/missing.png" in missing.problem
    assert "static/guide/regular/missing.png" in missing.problem
    assert site.resolve_asset("../../../../etc/passwd", page_rel=page).rel_path is None


def test_shortcodes_rewritten(site_root: Path) -> None:
    site = hugo.load(site_root)
    page = "content/guide/install/index.md"
    warnings: list[str] = []
    out = site.preprocess((site_root / page).read_text(), page_rel=page, warnings=warnings)
    assert warnings == []
    assert out.startswith("---\ntitle: Install\n")  # TOML front matter now YAML
    imgs = images_of(out)
    assert ("bundle-shot.png", "installer", "The installer window") in imgs
    resolved = [site.resolve_asset(src, page_rel=page).rel_path for src, _, _ in imgs]
    assert resolved == ["content/guide/install/bundle-shot.png", "static/images/static-shot.png",
                        "static2/img/second.png", "static/images/static-shot.png"]
    # include content sits where the shortcode was, between its neighbours
    assert re.search(r"Inner \*\*call-out\*\* text\.\s+Included step text\..*After the include\.", out, re.DOTALL)
    assert "**Heads up:** Inner" in out  # a call-out title leads its text
    assert "[the API](/api/reference.md)" in out and "Version 4.2." in out
    assert '{{< figure src="x.png" >}}' in out  # escaped shortcode kept literal
    assert 'src="https://www.youtube.com/embed/dQw4w9WgXcQ"' in out
    assert "```bash\nnginx -t\n```" in out
    assert "{{" not in out.replace('{{< figure src="x.png" >}}', "")


def test_tabs_code_and_inline_shortcodes(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    src = ('{{< tabpane >}}\n{{< tab header="Linux" lang="bash" >}}\napt install gizmo\n{{< /tab >}}\n'
           '{{% tab name="Windows" %}}Run the **installer**.{{% /tab %}}\n{{< /tabpane >}}\n'
           '{{< year.inline >}}{{ now.Year }}{{< /year.inline >}}\n'
           '{{< imgproc shot Fit "600x300" >}}The imgproc caption{{< /imgproc >}}\n')
    write(tmp_path, "content/page/shot.png", png)
    out = site.preprocess(src, page_rel="content/page/index.md")
    assert "**Linux** \n```bash\napt install gizmo\n```" in out
    assert "**Windows** Run the **installer**." in out
    assert "now.Year" not in out and "{{" not in out
    # Docsy imgproc: the first argument names a page resource (no suffix given), inner text is the caption
    assert '![The imgproc caption](<shot.png> "The imgproc caption")' in out


def test_site_shortcode_drawing_a_parameter_as_its_img(tmp_path: Path, write: Callable[..., Path],
                                                        png: bytes) -> None:
    """A shortcode of the site (or its theme) whose template draws a parameter as its <img src> is
    that image, as Hugo renders it: a positional one (<img src="{{ .Get 0 }}">), one set to a
    variable first ({{ $pic := .Get "picture" }} ... src="{{ $pic | relURL }}"), its alt and the
    parameter it writes as text under the image as caption. Before, both images were lost (the
    shortcode reduced to nothing). A template drawing a fixed picture is read as it writes it."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "plain"\n')
    write(tmp_path, "layouts/shortcodes/mini-shot.html", '<img src="{{ .Get 0 }}" width="180">\n')
    write(tmp_path, "themes/plain/layouts/shortcodes/zoomable.html",
          '{{ $pic := .Get "picture" }}\n<a href="{{ $pic | relURL }}"><img src="{{ $pic | relURL }}"'
          ' alt="{{ .Get "label" }}"></a>\n{{ with .Get "note" }}<p class="note">{{ . }}</p>{{ end }}\n')
    write(tmp_path, "layouts/shortcodes/logo.html", '<img src="/brand/logo.svg" alt="{{ .Get "name" }}">\n')
    write(tmp_path, "static/shots/small.png", png)
    write(tmp_path, "static/shots/wide.png", png)
    site = hugo.load(tmp_path)
    src = ('Open the panel.\n\n{{< mini-shot "/shots/small.png" >}}\n\n'
           '{{< zoomable picture="/shots/wide.png" label="Wide panel" note="The panel, widened" >}}\n\n'
           '{{< logo name="Acme" >}}\n')
    out = site.preprocess(src, page_rel="content/docs/panel.md")
    # (a template drawing a fixed picture is no such image: it is what the template writes, its <img> as is)
    assert images_of(out) == [("../../static/shots/small.png", "", ""),
                              ("../../static/shots/wide.png", "Wide panel", "The panel, widened"),
                              ("/brand/logo.svg", "Acme", "")]
    # {{ with .Get "image" }}<img src="{{ . | relURL }}">, and relURL (.Get 0) written as a function call
    write(tmp_path, "layouts/shortcodes/plate.html", '{{ with .Get "image" }}<img src="{{ . | relURL }}">{{ end }}\n')
    write(tmp_path, "layouts/shortcodes/tile.html", '<div><img src="{{ relURL (.Get 0) }}"></div>\n')
    out = site.preprocess('{{< plate image="/shots/small.png" >}}\n\n{{< tile "/shots/wide.png" >}}\n',
                          page_rel="content/docs/panel.md")
    assert [src for src, _, _ in images_of(out)] == ["../../static/shots/small.png", "../../static/shots/wide.png"]
    # a card drawing its image= keeps the card reading: its image, its title as a bold head, its content
    write(tmp_path, "layouts/shortcodes/card.html",
          '<div class="card"><img src="{{ .Get "image" }}"><h5>{{ .Get "title" }}</h5>{{ .Inner }}</div>\n')
    out = site.preprocess('{{< card image="/shots/small.png" title="Quick start" >}}Body text.{{< /card >}}\n',
                          page_rel="content/docs/panel.md")
    assert "**Quick start**" in out and "Body text." in out and len(images_of(out)) == 1
    # a callout's template drawing an icon= stays a callout, the icon decoration
    write(tmp_path, "layouts/shortcodes/notice.html",
          '<div class="notice"><img src="{{ .Get "icon" }}">{{ .Inner | markdownify }}</div>\n')
    out = site.preprocess('{{< notice warning icon="/shots/small.png" >}}Mind the gap.{{< /notice >}}\n',
                          page_rel="content/docs/panel.md")
    assert "**Warning:** Mind the gap." in out and images_of(out) == []


def test_site_image_shortcode_writing_its_content_beside_the_picture(tmp_path: Path, write: Callable[..., Path],
                                                                     png: bytes) -> None:
    """Falco's two_column_block_img draws src= as an <img>, header= in an <h3> and its content as a
    paragraph beside them: the content is the page's text (it was only the picture's caption, the
    header lost, as the template's {{ $content_type := .Get "content" }} assignment was read as the
    text it writes). A template writing the content in a <figcaption> keeps it as the caption."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "layouts/shortcodes/two_column_block_img.html",
          '<div class="row">\n{{ $content_type := .Get "content" | default "text" }}\n'
          '<div class="col"><img class="w-100" src="{{ .Get "src" }}" alt="{{ .Get "alt" }}"></div>\n'
          '<div class="col"><h3>{{ .Get "header" }}</h3>\n<p>{{ if eq $content_type "text" }}'
          '{{ .Inner | markdownify }}{{ end }}</p></div>\n</div>\n')
    write(tmp_path, "layouts/shortcodes/shot.html",
          '<figure><img src="{{ .Get "src" }}">{{ with .Inner }}<figcaption>{{ . }}</figcaption>{{ end }}</figure>\n')
    write(tmp_path, "static/img/diagram.png", png)
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< two_column_block_img src="/img/diagram.png" alt="Architecture" '
                          'header="Detect threats" >}}\nFalco watches **system calls**.\n{{< /two_column_block_img >}}\n\n'
                          '{{< shot src="/img/diagram.png" >}}The data flow.{{< /shot >}}\n',
                          page_rel="content/_index.md")
    assert images_of(out) == [("../static/img/diagram.png", "Architecture", "Detect threats"),
                              ("../static/img/diagram.png", "The data flow.", "The data flow.")]
    assert "Falco watches **system calls**." in out and out.count("The data flow.") == 2


def test_site_shortcode_drawing_a_resource_its_parameter_names(tmp_path: Path, write: Callable[..., Path],
                                                               png: bytes) -> None:
    """A site shortcode whose template looks its image up as a resource a parameter names and
    draws that resource: a page resource by name or glob ({{ $img := $.Page.Resources.GetMatch
    (.Get 0) }} ... src="{{ $img.RelPermalink }}", the pattern Hugo's page-resources tutorials
    spread, an image resized from it inside {{ with $small }} ... {{ .RelPermalink }}), or a
    global one under a path the template builds (resources.Get (printf "images/%s" $src)). Before,
    the first two lost their image and the third pointed at a file beside the page."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "layouts/shortcodes/img.html", '{{ $img := $.Page.Resources.GetMatch (.Get 0)}}\n<figure>'
          '<img src="{{ $img.RelPermalink }}" alt="{{ .Get 1 }}" /><figcaption>{{ .Get 1 }}</figcaption></figure>\n')
    write(tmp_path, "layouts/shortcodes/smallfig.html",
          '{{ $i := .Page.Resources.GetMatch (.Get "glob") }}\n{{ $small := $i.Resize "480x" }}\n'
          '<a href="{{ $i.RelPermalink }}">{{ with $small }}<img src="{{ .RelPermalink }}">{{ end }}</a>\n'
          '{{ with .Get "caption" }}<figcaption>{{ . }}</figcaption>{{ end }}\n')
    write(tmp_path, "layouts/shortcodes/shot.html", '{{ $src := .Get "src" }}\n'
          '{{ $image := resources.Get (printf "images/%s" $src) }}\n<img src="{{ $image.RelPermalink }}" '
          '{{ with .Get "alt" }}alt="{{ . }}"{{ end }}>\n')
    write(tmp_path, "content/posts/bake/index.md", "---\ntitle: Bake\n---\n")
    write(tmp_path, "content/posts/bake/01-overcooked-dough.jpg", png)
    write(tmp_path, "content/posts/bake/Frosting-Step.png", png)
    write(tmp_path, "assets/images/oven.png", png)
    site = hugo.load(tmp_path)
    src = ('{{< img "*overcooked-dough*" "Burnt cupcakes" >}}\n\n'
           '{{< smallfig glob="frosting*" caption="Add the frosting" >}}\n\n'
           '{{< shot src="oven.png" alt="The oven" >}}\n')
    out = site.preprocess(src, page_rel="content/posts/bake/index.md")
    assert images_of(out) == [("01-overcooked-dough.jpg", "Burnt cupcakes", "Burnt cupcakes"),
                              ("Frosting-Step.png", "Add the frosting", "Add the frosting"),
                              ("../../../assets/images/oven.png", "The oven", "")]


def test_dynamic_tabs_named_by_tabname(tmp_path: Path, write: Callable[..., Path]) -> None:
    """hugo-dynamic-tabs' tab (the tabs of Lotus Docs) takes its title as tabName: each tab of the
    set is labelled with it, as the set's navigation shows it (it was an unnamed tab before)."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    src = ('{{< tabs tabTotal="2" >}}\n{{< tab tabName="Debian" >}}\n\nUse apt.\n\n{{< /tab >}}\n'
           '{{< tab tabName="Fedora">}}\n\nUse dnf.\n\n{{< /tab >}}\n{{< /tabs >}}\n')
    out = site.preprocess(src, page_rel="content/docs/setup.md")
    assert re.search(r"\*\*Debian\*\*\s+Use apt\.", out) and re.search(r"\*\*Fedora\*\*\s+Use dnf\.", out)


def test_callout_with_its_content_as_text_param(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A callout whose content is its text= parameter (Lotus Docs {{< alert context="warning"
    text="..." />}}) is led by its kind, as the same callout written with inner content is."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    src = ('{{< alert context="danger" text="Back up the volume first." />}}\n\n'
           '{{< alert context="danger" >}}\nBack up the disk first.\n{{< /alert >}}\n')
    out = site.preprocess(src, page_rel="content/docs/upgrade.md")
    assert "**Danger:** Back up the volume first." in out and "**Danger:** Back up the disk first." in out


def test_boilerplate_shortcode_inlines_the_boilerplates_bundle(tmp_path: Path, write: Callable[..., Path]) -> None:
    """{{< boilerplate NAME >}} (Istio's shortcode, copied by Envoy Gateway and others) shows the
    resource of the boilerplates bundle named NAME*: the page's first content folder's boilerplates/
    first (a versioned docs tree: /v2/boilerplates), then the content root's; its shortcodes are
    rendered. Before, the shortcode was reduced to nothing and the shared text lost."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/v2/boilerplates/_index.md", "---\nheadless: true\n---\n")
    write(tmp_path, "content/v2/boilerplates/setup.md",
          "---\n---\n\nInstall the v2 agent first.\n\n{{< tabs >}}{{< tab \"Linux\" >}}Run it.{{< /tab >}}{{< /tabs >}}\n")
    write(tmp_path, "content/boilerplates/index.md", "---\nheadless: true\n---\n")
    write(tmp_path, "content/boilerplates/support-note.md", "---\n---\n\nAsk on the forum.\n")
    site = hugo.load(tmp_path)
    src = "## Before you begin\n\n{{< boilerplate setup >}}\n\n{{< boilerplate support >}}\n\n{{< boilerplate nope >}}\n"
    warnings: list[str] = []
    out = site.preprocess(src, page_rel="content/v2/tasks/route.md", warnings=warnings)
    assert "Install the v2 agent first." in out and "**Linux**" in out and "Ask on the forum." in out
    assert warnings == ["boilerplate 'nope': not found"]


def test_boilerplate_folder_is_listed_once_per_site(tmp_path: Path, write: Callable[..., Path],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A page of many {{< boilerplate >}} calls lists the boilerplates folder once, not once per call
    (5,000 calls of a missing name over a 2,000-file folder took 81 s, the page budget is 180 s)."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    for i in range(30):
        write(tmp_path, f"content/boilerplates/part-{i:02d}.md", f"Part {i}.\n")
    site = hugo.load(tmp_path)
    listings = 0
    real_iterdir = Path.iterdir

    def counting_iterdir(self: Path) -> Any:
        nonlocal listings
        if self.name == "boilerplates":
            listings += 1
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", counting_iterdir)
    src = "".join(f"{{{{< boilerplate nope{i} >}}}}\n" for i in range(200)) + "{{< boilerplate part-1 >}}\n"
    warnings: list[str] = []
    out = site.preprocess(src, page_rel="content/tasks/route.md", warnings=warnings)
    assert "Part 10." in out and len(warnings) == 200  # the first name starting with part-1, as before
    assert listings == 1
def test_site_shortcode_writing_a_file_its_argument_names(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A site shortcode whose template writes the content of a file its argument names is that
    file, rendered in place: resources.Get of the argument (a path in the assets folders, a mount
    into assets too) then its .Content, as the Solo.io docs' reuse shortcode ({{ with (.Get 0) }}
    {{ $asset = . }} ... resources.Get $asset ... $r.Content | .Page.RenderString), or readFile of
    a named parameter (a path from the project folder). Its own shortcodes are rendered. Before,
    such a shortcode was reduced to nothing and the reused text lost; a missing file is reported."""
    write(tmp_path, "hugo.yaml", 'baseURL: "/"\nmodule:\n  mounts:\n    - source: "assets"\n      target: "assets"\n'
          '    - source: "snippets"\n      target: "assets/shared"\n')
    write(tmp_path, "layouts/shortcodes/reuse.html",
          '{{- /* Reads a snippet from assets: {{< reuse "x.md" >}} */ -}}\n{{- $asset := "" }}\n'
          '{{- with (.Get 0) }}\n  {{- $asset = . }}\n{{- end }}\n{{- $asset = $asset | strings.TrimPrefix "/" }}\n'
          '{{- $r := "" }}\n{{- with resources.Get $asset }}\n  {{- $r = . }}\n{{- end }}\n'
          '{{- $r.Content | .Page.RenderString | chomp }}\n')
    write(tmp_path, "layouts/shortcodes/snippet.html", '{{ readFile (.Get "file") | markdownify }}\n')
    write(tmp_path, "assets/agw/prereq.md", "Install the **agent** binary.\n\n{{< note >}}Root access needed.{{< /note >}}\n")
    write(tmp_path, "snippets/ports.md", "Open port 8080.\n")
    write(tmp_path, "docs-shared/license.md", "Apache 2.0 licensed.\n")
    site = hugo.load(tmp_path)
    src = ('## Before you begin\n\n{{< reuse "agw/prereq.md" >}}\n\n{{< reuse "/shared/ports.md" >}}\n\n'
           '{{< snippet file="docs-shared/license.md" >}}\n\n{{< reuse "agw/gone.md" >}}\n')
    warnings: list[str] = []
    out = site.preprocess(src, page_rel="content/docs/setup.md", warnings=warnings)
    assert "Install the **agent** binary." in out and "**Note:** Root access needed." in out
    assert "Open port 8080." in out and "Apache 2.0 licensed." in out
    assert warnings == ["reuse 'agw/gone.md': not found (assets)"]
    # an image template reading resources.Get (no .Content) is no include
    assert hugo._include_template_param('{{ $i := resources.Get (.Get "src") }}<img src="{{ $i.RelPermalink }}">') is None
    # the site's own include shortcode reading under a path it builds: readFile (printf "static/%s" (.Get 0))
    write(tmp_path, "layouts/shortcodes/include.html", '{{ readFile (printf "static/%s" (.Get 0)) | safeHTML }}\n')
    write(tmp_path, "static/usep/table.html", "<p>Seats: 40</p>\n")
    site = hugo.load(tmp_path)
    warnings = []
    out = site.preprocess('{{< include "usep/table.html" >}}\n', page_rel="content/docs/setup.md", warnings=warnings)
    assert "Seats: 40" in out and warnings == []


def test_learn_and_relearn_children_list_the_child_pages(tmp_path: Path, write: Callable[..., Path]) -> None:
    """{{% children %}} of hugo-theme-learn and Relearn (a chapter page often holds only it) lists
    the section's child pages as the theme draws them: titles in weight order, with
    description=true their descriptions, depth levels deep, hidden pages left out; style="h3" as
    headings. Before, the shortcode was reduced to nothing and the chapter page read empty. A site
    with its own children template, or on another theme, is left as before."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hugo-theme-relearn"\n')
    write(tmp_path, "content/basics/_index.md", "+++\ntitle = 'Basics'\n+++\nCore concepts.\n\n"
          "{{% children description=\"true\" depth=\"2\" %}}\n")
    write(tmp_path, "content/basics/install/_index.md",
          "+++\ntitle = 'Installation'\ndescription = 'Get it running'\nweight = 2\n+++\n")
    write(tmp_path, "content/basics/install/linux.md", "+++\ntitle = 'Linux'\n+++\nSteps.\n")
    write(tmp_path, "content/basics/config.md", "+++\ntitle = 'Configuration'\nweight = 1\n+++\nConfig.\n")
    write(tmp_path, "content/basics/secret.md", "+++\ntitle = 'Secret'\nhidden = true\n+++\nHidden.\n")
    site = hugo.load(tmp_path)
    page = (tmp_path / "content/basics/_index.md").read_text()
    out = site.preprocess(page, page_rel="content/basics/_index.md")
    assert "- Configuration\n- Installation: Get it running\n  - Linux" in out and "Secret" not in out
    out = site.preprocess("{{% children style=\"h3\" /%}}\n", page_rel="content/basics/_index.md")
    assert "### Configuration\n\n### Installation" in out
    write(tmp_path, "layouts/shortcodes/children.html", "<p>{{ .Get 0 }}</p>\n")  # the project's own template
    assert "Configuration" not in hugo.load(tmp_path).preprocess(page, page_rel="content/basics/_index.md")
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "docsy"\n')
    (tmp_path / "layouts/shortcodes/children.html").unlink()
    assert "Configuration" not in hugo.load(tmp_path).preprocess(page, page_rel="content/basics/_index.md")


def test_children_of_a_site_translated_by_file_name(tmp_path: Path, write: Callable[..., Path]) -> None:
    """With translation by file name a subsection's page is its _index.<lang>.md (RustDesk docs:
    content/client/android/_index.en.md beside _index.de.md): {{% children %}} lists it, in the
    language read, as it lists an _index.md."""
    write(tmp_path, "config.toml", 'baseURL = "/docs"\ntheme = "hugo-theme-learn"\ndefaultContentLanguage = "en"\n'
          '[languages.en]\nweight = 1\n[languages.de]\nweight = 2\n')
    write(tmp_path, "content/_index.en.md", "---\ntitle: Docs\n---\n{{% children depth=\"2\" %}}\n")
    write(tmp_path, "content/client/_index.en.md", "---\ntitle: Client\nweight: 2\n---\nText.\n")
    write(tmp_path, "content/client/_index.de.md", "---\ntitle: Klient\nweight: 2\n---\nText.\n")
    write(tmp_path, "content/client/android/_index.en.md", "---\ntitle: Android\n---\nText.\n")
    write(tmp_path, "content/client/android/_index.de.md", "---\ntitle: Android DE\n---\nText.\n")
    write(tmp_path, "content/server/_index.md", "---\ntitle: Server\nweight: 1\n---\nText.\n")
    site = hugo.load(tmp_path)
    out = site.preprocess("{{% children depth=\"2\" %}}\n", page_rel="content/_index.en.md")
    assert "- Server\n- Client\n  - Android\n" in out + "\n" and "Klient" not in out and "DE" not in out


def test_hugo_book_section_lists_the_child_pages(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo Book's {{< section >}} lists the section page's child pages as its template draws them
    (a <dl>: each title, the folder or file name humanized when untitled, with summary the
    description), in weight order. Before, it was reduced to nothing."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hugo-book"\n')
    write(tmp_path, "content/docs/guide/_index.md", "---\ntitle: Guide\n---\n{{< section summary >}}\n")
    write(tmp_path, "content/docs/guide/setup.md", "---\ntitle: Setup\nweight: 1\ndescription: Install it\n---\nx\n")
    write(tmp_path, "content/docs/guide/first-steps/_index.md", "---\nweight: 2\n---\nx\n")
    site = hugo.load(tmp_path)
    out = site.preprocess("{{< section summary >}}\n", page_rel="content/docs/guide/_index.md")
    assert "**Setup**: Install it\n\n**First Steps**" in out
    assert "Install it" not in site.preprocess("{{< section >}}\n", page_rel="content/docs/guide/_index.md")


def test_grafana_docs_shared_shows_the_projects_shared_file(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Grafana's {{< docs/shared lookup="x.md" source="grafana" version="..." >}} shows the file in
    the shared/ folder of the project's docs content (a headless bundle of reused text), its
    shortcodes rendered; a lookup that is not there (another project's shared content) is
    reported. Before, the shortcode was reduced to nothing and the shared text lost. Without any
    Hugo configuration or content/ folder (the site is built elsewhere) the folder itself is content."""
    write(tmp_path, "sources/shared/index.md", "---\nheadless: true\n---\n")
    write(tmp_path, "sources/shared/upgrade/intro.md", "---\ntitle: Intro\n---\nUpgrade **often**.\n")
    site = hugo.load(tmp_path)
    assert site.config.content_dirs == (".",) and site.config.notes
    warnings: list[str] = []
    src = ('{{< docs/shared lookup="upgrade/intro.md" source="grafana" version="<GRAFANA_VERSION>" >}}\n\n'
           '{{< docs/shared lookup="stability/beta.md" source="alloy" >}}\n')
    out = site.preprocess(src, page_rel="sources/upgrade/index.md", warnings=warnings)
    assert "Upgrade **often**." in out
    assert warnings == ["docs/shared 'stability/beta.md' (source alloy): not in this project's shared/ folder"]


def test_url_front_matter_ugly_urls_and_global_resources(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\nuglyURLs = true\n')
    write(tmp_path, "content/a/page.md", "---\nurl: /moved/here/\n---\n![x](shot.png)\n")
    write(tmp_path, "content/a/other.md", "![y](pic.png)\n![z](/img/global.png)\n")
    write(tmp_path, "static/moved/here/shot.png", png)
    write(tmp_path, "static/a/pic.png", png)
    write(tmp_path, "assets/img/global.png", png)
    site = hugo.load(tmp_path)
    assert site.resolve_asset("shot.png", page_rel="content/a/page.md").rel_path == "static/moved/here/shot.png"
    assert site.resolve_asset("pic.png", page_rel="content/a/other.md").rel_path == "static/a/pic.png"
    assert site.resolve_asset("/img/global.png", page_rel="content/a/other.md").rel_path == "assets/img/global.png"


def test_missing_include_and_cycle_warn(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/includes/a.md", '{{< include "b.md" >}}A\n')
    write(tmp_path, "content/includes/b.md", '{{< include "a.md" >}}B\n')
    site = hugo.load(tmp_path)
    warnings: list[str] = []
    out = site.preprocess('{{< include "a" >}}\n{{< include "nope.md" >}}', page_rel="content/p.md",
                          warnings=warnings)
    assert "A" in out and "B" in out
    assert any("cycle" in w for w in warnings)
    assert any("nope.md" in w and "not found" in w for w in warnings)


def test_detection_helper(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "config.toml", 'title = "not hugo"\n')
    assert not hugo.is_hugo_root(tmp_path)
    write(tmp_path, "config.toml", 'baseURL = "/"\n')
    assert hugo.is_hugo_root(tmp_path)


@pytest.mark.integration
def test_real_hugo_corpus_resolves_every_image(docsite: Callable[[str], Path],
                                               count_refs: Callable[..., Any]) -> None:
    root = docsite("hugo-nginx-documentation")
    site = hugo.load(root)
    counts = count_refs(site)
    # SOURCE.md: 100 content pages (+ the section landing content/nginx/_index.md), 4 includes, every
    # one of the 156 local image references resolves by Hugo's rules (includes counted where pulled in)
    assert counts.pages == 101
    assert sum(site.classify(f"content/includes/{p}").role is FileRole.INCLUDE for p in (
        "licensing-and-reporting/custom-paths-jwt.md", "nginx-plus/nginx-openid-repo-note.md")) == 2
    assert counts.unresolved == []
    assert counts.resolved >= 150 and counts.remote == 0


@pytest.mark.parametrize(("page", "images", "tabs", "shown", "hidden"), [
    pytest.param("---\ntitle: Install\n---\n\n{{< tabs >}}\n{{< tab \"Linux\" >}}\nRun apt.\n\n![](linux.png)\n{{< /tab >}}\n"
                 "{{% tab name=\"Windows\" %}}\nRun the installer.\n\n![](windows.png)\n{{% /tab %}}\n{{< /tabs >}}\n\n"
                 "After.\n",
                 ("linux.png", "windows.png"),
                 [("linux.png", "Linux", ("Linux", "Windows")), ("windows.png", "Windows", ("Linux", "Windows"))],
                 ("After.",), ("murar-tabs",), id="tab-shortcodes-named-by-argument-or-name"),
    # Hextra: {{< tabs items="A,B" >}} gives its unnamed {{< tab >}}s their names in order
    pytest.param('---\ntitle: Setup\n---\n\n{{< tabs items="macOS,Linux" >}}\n  {{< tab >}}![](mac.png){{< /tab >}}\n'
                 "  {{< tab >}}Use apt.{{< /tab >}}\n{{< /tabs >}}\n",
                 ("mac.png",), [("mac.png", "macOS", ("macOS", "Linux"))], (), (), id="hextra-tabs-items-name-unnamed-tabs"),
    # Dapr docs: {{< tabs "Self-hosted" Kubernetes >}} names its {{% codetab %}}s in order
    pytest.param('---\ntitle: Deploy\n---\n\n{{< tabs "Self-hosted" Kubernetes >}}\n\n{{% codetab %}}\nRun the CLI.\n'
                 "{{% /codetab %}}\n\n{{% codetab %}}\nApply the chart.\n\n![](k8s.png)\n{{% /codetab %}}\n\n{{< /tabs >}}\n",
                 ("k8s.png",), [("k8s.png", "Kubernetes", ("Self-hosted", "Kubernetes"))], ("Self-hosted",), ("{{",),
                 id="dapr-tabs-arguments-name-unnamed-codetabs"),
])
def test_tab_shortcodes_record_each_image_tab(tmp_path: Path, write: Callable[..., Path], png: bytes, page: str,
                                              images: tuple[str, ...], tabs: list[tuple[str, str, tuple[str, ...]]],
                                              shown: tuple[str, ...], hidden: tuple[str, ...]) -> None:
    """Each image inside a tab of a tab-set shortcode records its tab's name and the set's names
    (``images`` sit beside the page ``page``); ``shown``/``hidden`` are checked in the first section's text."""
    from murar.ingest.corpus import convert_file
    from murar.schema import ImageItem

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    for name in images:
        write(tmp_path, f"content/page/{name}", png)
    write(tmp_path, "content/page/index.md", page)
    site = hugo.load(tmp_path)
    doc = convert_file(tmp_path / "content/page/index.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    assert [(Path(m.path or "").name, m.tab, m.tab_set) for m in doc.media if isinstance(m, ImageItem)] == tabs
    text = doc.sections[0].text
    assert all(word in text for word in shown) and not any(word in text for word in hidden)


def test_docsy_tabpane_code_and_text_tabs(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Docsy: a tabpane's tabs are code unless text=true (tab or pane); langEqualsHeader
    names the code language after the header; card code=true and readfile code="true"
    are code too; header Markdown (**x**) is not doubled into the bold label."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/page/flag.png", png)
    write(tmp_path, "content/page/snippet.md", "# not a heading here\n")
    site = hugo.load(tmp_path)
    src = ('{{< tabpane langEqualsHeader=true >}}\n{{< tab "Shell" >}}\n# comment line\nmake all\n{{< /tab >}}\n'
           '{{< tab header="Conf" lang="ini" >}}\n[core]\n{{< /tab >}}\n{{< /tabpane >}}\n\n'
           '{{< tabpane text=true >}}\n{{% tab header="**Pick**:" disabled=true /%}}\n'
           '{{% tab header="English" lang="en" %}}\n![Flag](flag.png)\n**Hello**\n{{% /tab %}}\n'
           '{{< tab header="Raw" text=false >}}\nlet x = 1;\n{{< /tab >}}\n{{< /tabpane >}}\n\n'
           '{{< card code=true header="**Gizmo**" lang="go" >}}\n# not a heading\n{{< /card >}}\n\n'
           '{{< readfile file="snippet.md" code="true" lang="markdown" >}}\n')
    out = site.preprocess(src, page_rel="content/page/index.md")
    assert "**Shell** \n```Shell\n# comment line\nmake all\n```" in out
    assert "**Conf** \n```ini\n[core]\n```" in out
    assert ("flag.png", "Flag", "") in images_of(out)  # a text tab's lang is no code language
    assert "```en" not in out and "**Hello**" in out
    assert "**Raw** \n```\nlet x = 1;\n```" in out
    assert "**Gizmo** \n```go\n# not a heading\n```" in out and "****" not in out
    assert "```markdown\n# not a heading here\n```" in out
    assert "{{" not in out
    # text unset: a {{% tab %}} (Markdown delimiters) or a tab holding shortcodes/fences is text, as
    # sites on Docsy releases before `text` wrote them
    out = site.preprocess('{{< tabpane >}}\n{{% tab header="Android" %}}\nUse **Gradle**:\n'
                          '{{< highlight yaml >}}\nscripts: []\n{{< /highlight >}}\n{{% /tab %}}\n'
                          '{{< tab header="iOS" >}}\n```ruby\npod install\n```\n{{< /tab >}}\n{{< /tabpane >}}\n',
                          page_rel="content/page/index.md")
    assert "**Android** \nUse **Gradle**:\n\n```yaml\nscripts: []\n```" in out
    assert "**iOS** \n```ruby\npod install\n```" in out and "````" not in out


def test_language_code_in_file_names_and_leaf_bundle_resources(
    tmp_path: Path, write: Callable[..., Path], png: bytes
) -> None:
    """Hugo: page.fr.md is page in French (a configured language) served at fr/...,
    a translation, not ingested; an unknown code stays in the name; index.<lang>.md
    makes a leaf bundle whose other content files are resources, not pages (headless too)."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ndefaultContentLanguage = "en"\n'
                                 "[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n")
    write(tmp_path, "content/guide/_index.fr.md", "---\ntitle: Guide\n---\n")
    write(tmp_path, "content/guide/setup.en.md", "![s](setup-shot.png)\n")
    write(tmp_path, "content/guide/v2.de.md", "---\ntitle: V2\n---\n")
    write(tmp_path, "content/guide/tool/index.en.md", "---\ntitle: Tool\n---\n")
    write(tmp_path, "content/guide/tool/notes.md", "Bundle resource text.\n")
    write(tmp_path, "content/guide/tool/more/deep.fr.md", "Deeper resource.\n")
    write(tmp_path, "content/parts/index.fr.md", "---\nheadless: true\n---\n")
    write(tmp_path, "content/parts/bit.md", "A headless resource.\n")
    write(tmp_path, "static/guide/setup/setup-shot.png", png)
    site = hugo.load(tmp_path)
    roles = {rel: site.classify(rel).role for rel in (
        "content/guide/_index.fr.md", "content/guide/setup.en.md", "content/guide/v2.de.md",
        "content/guide/tool/index.en.md", "content/guide/tool/notes.md", "content/guide/tool/more/deep.fr.md",
        "content/parts/index.fr.md", "content/parts/bit.md")}
    assert [r for r, role in roles.items() if role is FileRole.PAGE] == [
        "content/guide/setup.en.md", "content/guide/v2.de.md", "content/guide/tool/index.en.md"]
    assert roles["content/guide/_index.fr.md"] is FileRole.EXCLUDED  # a translation
    assert roles["content/parts/bit.md"] is FileRole.INCLUDE
    assert site.page_url_dir("content/guide/setup.en.md") == "guide/setup"
    assert site.page_url_dir("content/guide/_index.fr.md") == "fr/guide"
    assert site.page_url_dir("content/guide/tool/index.en.md") == "guide/tool"
    assert site.page_url_dir("content/guide/v2.de.md") == "guide/v2.de"  # de is no configured language
    assert site.resolve_asset("setup-shot.png", page_rel="content/guide/setup.en.md").rel_path == \
        "static/guide/setup/setup-shot.png"


def test_branch_build_options_reach_descendants_only_by_cascade(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo build options: a branch _index's own headless/build.render do not hide its
    pages; a cascade of build.render: never hides the branch and its pages (a cascade
    targeted at kind page hides the pages only)."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/plain/_index.md", "---\nheadless: true\nbuild:\n  render: never\n---\n")
    write(tmp_path, "content/plain/visible.md", "Shown.\n")
    write(tmp_path, "content/_shared/_index.md", "---\ncascade:\n  build:\n    render: never\n---\n")
    write(tmp_path, "content/_shared/deep/snippet.md", "Only included.\n")
    write(tmp_path, "content/pages-only/_index.md",
          "---\ncascade:\n  - build:\n      render: never\n    target:\n      kind: page\n---\n")
    write(tmp_path, "content/pages-only/hidden.md", "Hidden.\n")
    site = hugo.load(tmp_path)
    assert site.classify("content/plain/_index.md").role is FileRole.EXCLUDED
    assert site.classify("content/plain/visible.md").role is FileRole.PAGE
    assert site.classify("content/_shared/_index.md").role is FileRole.INCLUDE
    assert site.classify("content/_shared/deep/snippet.md").role is FileRole.INCLUDE
    assert site.classify("content/pages-only/_index.md").role is FileRole.PAGE
    assert site.classify("content/pages-only/hidden.md").role is FileRole.INCLUDE


def test_mounts_into_a_subfolder_and_theme_folders(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Hugo module mounts: target static/pics serves pics/x from the source folder;
    assets/shots likewise; project mounts leave the theme's own static folder mounted."""
    write(tmp_path, "hugo.yaml", "baseURL: https://docs.example.net/\ntheme: plain\nmodule:\n  mounts:\n"
                                 "    - source: brand/art\n      target: static/pics\n"
                                 "    - source: content/shots\n      target: assets/shots\n"
                                 "    - source: static\n      target: static\n")
    write(tmp_path, "content/guide/page.md", "# Page\n")
    write(tmp_path, "brand/art/logo.png", png)
    write(tmp_path, "content/shots/window.png", png)
    write(tmp_path, "themes/plain/static/theme-icon.png", png)
    site = hugo.load(tmp_path)
    page = "content/guide/page.md"
    assert site.resolve_asset("/pics/logo.png", page_rel=page).rel_path == "brand/art/logo.png"
    assert site.resolve_asset("/theme-icon.png", page_rel=page).rel_path == "themes/plain/static/theme-icon.png"
    assert site.resolve_shortcode_src("shots/window.png", page_rel=page).rel_path == "content/shots/window.png"
    assert site.resolve_asset("/pics/../../../etc/passwd", page_rel=page).problem is not None


def test_inline_text_heading_and_glossary_shortcodes(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Inline shortcodes keep their visible words: `text`, else a glossary term's title;
    an i18n `heading` gives the translated heading (i18n/<lang>.toml, nested too)."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ncontentDir = "content/en"\n')
    write(tmp_path, "i18n/en/en.toml", 'later = "Afterwards"\n[setup_heading]\nother = "Get ready"\n')
    write(tmp_path, "content/en/docs/glossary/index.md", "---\ntitle: Glossary\n---\n")
    write(tmp_path, "content/en/docs/glossary/widget.md", "---\ntitle: Widget Pool\nid: widget-pool\n---\nA pool.\n")
    site = hugo.load(tmp_path)
    src = ('A {{< glossary_tooltip text="gizmo" term_id="gizmo" >}} uses the '
           '{{< glossary_tooltip term_id="Widget-Pool" >}} and a {{< glossary_tooltip term_id="sprocket-set" >}}.\n'
           'Press {{< button text="Start" href="/start/" >}} now.\n\n'
           '## {{% heading "setup" %}}\n\n## {{% heading "later" %}}\n\n## {{% heading "clean_up" %}}\n')
    out = site.preprocess(src, page_rel="content/en/docs/page.md")
    assert "A gizmo uses the Widget Pool and a sprocket-set." in out
    assert "Press Start now." in out
    assert "## Get ready\n" in out and "## Afterwards\n" in out and "## Clean up\n" in out
    assert site.classify("content/en/docs/glossary/widget.md").role is FileRole.INCLUDE
    # glossary_definition: the entry's summary (before <!--more-->), or all of it, after `prepend`
    write(tmp_path, "content/en/docs/glossary/relay.md",
          '---\ntitle: Relay\n---\nMoves {{< glossary_tooltip text="packets" term_id="packet" >}} on.\n\n'
          "<!--more-->\n\nIt keeps a queue.\n")
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< glossary_definition term_id="relay" length="all" >}}\n\n'
                          '{{< glossary_definition term_id="relay" prepend="A relay" >}}\n',
                          page_rel="content/en/docs/page.md")
    assert "Moves packets on.\n\nIt keeps a queue." in out
    assert "A relay moves packets on." in out and out.count("queue") == 1 and "more" not in out


def test_kubernetes_theme_code_samples_headings_and_feature_state(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Kubernetes-style docs: codenew/code_sample show content/<lang>/examples/<file> as code;
    {{% whatsnext-heading %}} is an h2 with its i18n text (a language's i18nDir); feature-state
    keeps its version; a language in disableLanguages has no content."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ncontentDir = "content/en"\ndisableLanguages = ["xx"]\n'
                                 '[languages.en]\ni18nDir = "./data/i18n"\n[languages.xx]\ncontentDir = "content/xx"\n')
    write(tmp_path, "data/i18n/en/en.toml", '[whatsnext_heading]\nother = "Read on"\n')
    write(tmp_path, "content/en/examples/app/gizmo.yaml", "kind: Gizmo\nspec: {}\n")
    write(tmp_path, "content/xx/docs/task.md", "A disabled language's page.\n")
    site = hugo.load(tmp_path)
    assert site.config.content_dirs == ("content/en",)  # disableLanguages: its contentDir is not built
    warnings: list[str] = []
    src = ('{{< feature-state state="beta" for_k8s_version="v2.3" >}}\n\n'
           '{{< codenew file="app/gizmo.yaml" >}}\n\n{{% code_sample language="yaml" file="app/gizmo.yaml" %}}\n\n'
           "{{% whatsnext-heading %}}\n\nMore.\n\n{{< codenew file=\"app/missing.yaml\" >}}\n")
    out = site.preprocess(src, page_rel="content/en/docs/task.md", warnings=warnings)
    assert "`Kubernetes v2.3 [beta]`" in out
    assert out.count("`app/gizmo.yaml`:\n\n```yaml\nkind: Gizmo\nspec: {}\n```") == 2
    assert "## Read on\n" in out
    assert any("app/missing.yaml" in w for w in warnings) and "{{" not in out


def test_site_templates_using_page_param_and_translations(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A project shortcode template printing .Page.Param (front matter, else site params) and
    T strings (i18n) is what it writes: Kubernetes' version-check and thirdparty-content."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n[params]\nversion = "v1.32"\n')
    write(tmp_path, "i18n/en.toml", '[version_check_mustbeorlater]\nother = "Your Kubernetes server must be at or '
          'later than version "\n[version_check_tocheck]\nother = "To check the version, enter "\n'
          '[note]\nother = "Note:"\n[thirdparty_message]\nother = "This section links to third party projects."\n')
    write(tmp_path, "layouts/shortcodes/version-check.html",
          '{{ $minVersion := .Page.Param "min-kubernetes-server-version" }}\n'
          '{{ if eq $minVersion (.Page.Param "version")  }}\n{{ T "version_check_mustbe" }}{{ $minVersion }}.\n'
          '{{ else if $minVersion}}\n{{ T "version_check_mustbeorlater" }}{{ $minVersion }}.\n'
          '{{ end }} {{ T "version_check_tocheck" }}<code>kubectl version</code>.\n')
    write(tmp_path, "layouts/shortcodes/thirdparty-content.html",
          '{{- $single := .Get "single" | default "false" -}}\n<div class="alert" role="note">\n'
          '{{- if not (eq $single "true" ) -}}\n  <strong>{{ T "note" | safeHTML }}</strong>&puncsp;'
          '{{ T "thirdparty_message" | safeHTML }}\n{{- end -}}\n</div>\n')
    write(tmp_path, "content/task.md", "---\ntitle: Task\nmin-kubernetes-server-version: v1.29\n---\n")
    site = hugo.load(tmp_path)
    out = site.preprocess("Prereqs. {{< version-check >}}\n\n## Tools\n\n{{% thirdparty-content %}}\n",
                          page_rel="content/task.md")
    assert "Your Kubernetes server must be at or later than version v1.29." in out
    assert "To check the version, enter <code>kubectl version</code>." in out
    assert "<strong>Note:</strong>&puncsp;This section links to third party projects." in out
def test_labelled_block_under_a_paragraph_is_a_block_of_its_own(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A labelled paired shortcode holding lines (details summary=, expand title=) opened on the line
    under a paragraph is a block of its own (its <details> interrupts the paragraph), not that
    paragraph's last words; an inline one on one line stays in its sentence."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    out = site.preprocess('This renders as:\n{{< details summary="More about widgets" >}}\nWidgets spin.\n\nThey stop.\n'
                          '{{< /details >}}\n\nSee:\n{{% expand title="Hint" %}}One line{{% /expand %}} here.\n',
                          page_rel="content/p.md")
    assert "This renders as:\n\n\n**More about widgets** \nWidgets spin." in out
    assert "See:\n**Hint**" in out


def test_kubernetes_tab_sets_ids_and_tab_includes(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Kubernetes' tabs.html: the set's name= is an HTML id, not text (Relearn's title= is); a
    tab without content shows its include= file: a leaf bundle's first file matching
    **<include>*, else <page folder>/<include> (a content page's text; another file as code in
    codelang or its suffix); that file is an include, not a page."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/tools/included/bash-setup.md", "---\ntitle: bash\nheadless: true\n---\n\nSource the script.\n")
    write(tmp_path, "content/tools/install.md",
          '---\ntitle: Install\n---\n\n{{< tabs name="shell_completion" >}}\n'
          '{{< tab name="Bash" include="included/bash-setup.md" />}}\n{{< tab name="Zsh" include="included/nope.md" />}}\n'
          "{{< /tabs >}}\n")
    write(tmp_path, "content/style/demo/index.md", "---\ntitle: Demo\n---\n")
    write(tmp_path, "content/style/demo/example1.md", "---\ntitle: Example\n---\n\nAn **example** file.\n")
    write(tmp_path, "content/style/demo/data/podtemplate.json", '{"kind": "PodTemplate"}\n')
    site = hugo.load(tmp_path)
    warnings: list[str] = []
    out = site.preprocess((tmp_path / "content/tools/install.md").read_text(), page_rel="content/tools/install.md",
                          warnings=warnings)
    assert "shell_completion" not in out and "**Bash**" in out and "Source the script." in out
    assert "{{" not in out and any("included/nope.md" in w for w in warnings)
    out = site.preprocess('{{< tabs name="tab_with_file_include" >}}\n{{< tab name="File #1" include="example1" />}}\n'
                          '{{< tab name="JSON" include="podtemplate" codelang="json" />}}\n{{< /tabs >}}\n',
                          page_rel="content/style/demo/index.md")
    assert "tab_with_file_include" not in out and "An **example** file." in out
    assert '```json\n{"kind": "PodTemplate"}\n```' in out
    assert "**Linux setup**" in site.preprocess('{{< tabs title="Linux setup" >}}\n{{% tab title="apt" %}}\nRun apt.\n'
                                                "{{% /tab %}}\n{{< /tabs >}}\n", page_rel="content/tools/install.md")
    assert site.classify("content/tools/included/bash-setup.md").role is FileRole.INCLUDE
    assert site.classify("content/tools/install.md").role is FileRole.PAGE


def test_code_toggle_code_and_new_in_shortcodes(tmp_path: Path, write: Callable[..., Path]) -> None:
    """gohugo.io docs: code-toggle's inner configuration and code's inner content are code
    (a readfile inside code shows the raw file), new-in names its version."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "layouts/shortcodes/box.html", "<div>{{ .Inner }}</div>\n")
    site = hugo.load(tmp_path)
    src = ('{{< new-in 0.120.0 >}}\n\n{{< code-toggle file="hugo" copy=true >}}\n[gizmo]\nsize = 3\n'
           '{{< /code-toggle >}}\n\n{{< multiconfig fm=true >}}\ntitle: Gizmo\n{{< /multiconfig >}}\n\n'
           '{{< code file="layouts/shortcodes/box.html" >}}\n{{< readfile file="/layouts/shortcodes/box.html" >}}\n'
           "{{< /code >}}\n")
    out = site.preprocess(src, page_rel="content/page.md")
    assert "New in v0.120.0" in out
    dep = site.preprocess("{{< deprecated-in 0.144.0 >}}\nUse `gizmo.New` instead.\n{{< /deprecated-in >}}",
                          page_rel="content/page.md")
    assert dep.split() == ["Deprecated", "in", "v0.144.0", "Use", "`gizmo.New`", "instead."]
    assert site.preprocess('{{< added-in "5.2.0" >}} {{< added-in "release-2024-03" >}}', page_rel="content/p.md") \
        == "Added in v5.2.0 Added in release-2024-03"
    assert "```toml\n[gizmo]\nsize = 3\n```" in out and "```yaml\ntitle: Gizmo\n```" in out
    assert "`layouts/shortcodes/box.html`:\n\n```html\n<div>{{ .Inner }}</div>\n```" in out
    # a code shortcode that wraps fenced blocks (Grafana k6 docs) keeps them as they are
    out = site.preprocess("{{< code >}}\n\n```javascript\nlet a = 1;\n```\n\n{{< /code >}}\n",
                          page_rel="content/page.md")
    assert out.strip() == "```javascript\nlet a = 1;\n```"
    out = site.preprocess('{{< tabs >}}\n{{% tab name="Go" lang="go" %}}\n```go\nx := 1\n```\n{{% /tab %}}\n'
                          "{{< /tabs >}}", page_rel="content/page.md")
    assert "**Go** \n```go\nx := 1\n```" in out and "````" not in out


def test_front_matter_of_html_asciidoc_and_rst_pages(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo strips the front matter of every content format: an .html/.adoc/.rst page's
    front matter must not reach its markup; its title is given the markup's way."""
    from murar.ingest.corpus import convert_file

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/a/page.html", '---\ntitle: "Gizmo <HTML>"\n---\n<h2>Intro</h2><p>Html body.</p>\n')
    write(tmp_path, "content/a/doc.adoc", "+++\ntitle = 'Gizmo AsciiDoc'\n+++\n== Part\n\nAdoc body.\n")
    write(tmp_path, "content/a/titled.adoc", "---\ntitle: Short\n---\n= Full AsciiDoc Title\n\nText.\n")
    write(tmp_path, "content/a/doc.rst", '{\n  "title": "Gizmo rST"\n}\n\nPart\n====\n\nRst body.\n')
    site = hugo.load(tmp_path)
    got = {}
    for rel in ("content/a/page.html", "content/a/doc.adoc", "content/a/titled.adoc", "content/a/doc.rst"):
        doc = convert_file(tmp_path / rel, root=tmp_path, assets_dir=tmp_path / "a", site=site)
        text = " ".join(s.text for s in doc.sections)
        assert "title" not in text and "---" not in text and "+++" not in text, (rel, text)
        got[rel] = [s.heading_path for s in doc.sections if s.text.strip()]
    assert got["content/a/page.html"] == [("Gizmo <HTML>", "Intro")]
    assert got["content/a/doc.adoc"] == [("Gizmo AsciiDoc", "Part")]
    assert got["content/a/titled.adoc"] == [("Full AsciiDoc Title",)]
    assert got["content/a/doc.rst"] == [("Gizmo rST", "Part")]


def test_tab_content_indented_under_a_step_is_its_text_and_picture(tmp_path: Path, write: Callable[..., Path],
                                                                   png: bytes) -> None:
    """Hextra's tab renders its content on its own (``.InnerDeindent | markdownify``): a tab set
    written under a list step, its content 8 spaces in (the CHT docs' migration guide), shows the
    screenshot. murar read those lines in the page, after its tab marker at the margin, as an
    indented code block: the image markup was text and the picture was lost."""
    from murar.ingest.corpus import convert_file
    from murar.schema import ImageItem

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/page/gke.png", png)
    write(tmp_path, "content/page/index.md",
          '---\ntitle: Setup\n---\n\n1. Edit the file for your host:\n\n    {{< tabs items="GKE,EKS" >}}\n\n'
          "        {{< tab >}}\n        Open the console:\n\n        ![GKE console](gke.png)\n\n"
          "            kubectl get nodes\n        {{< /tab >}}\n\n        {{< tab >}}\n        Use eksctl.\n"
          "        {{< /tab >}}\n\n    {{< /tabs >}}\n\n2. Save the file.\n")
    site = hugo.load(tmp_path)
    doc = convert_file(tmp_path / "content/page/index.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    assert [(m.alt, m.tab) for m in doc.media if isinstance(m, ImageItem)] == [("GKE console", "GKE")]
    text = doc.sections[0].text
    assert "![" not in text and "Open the console:" in text and "kubectl get nodes" in text


def test_callout_content_indented_under_a_step_stays_in_the_step(tmp_path: Path, write: Callable[..., Path],
                                                                  png: bytes) -> None:
    """Hextra's callout renders its content on its own too (``.InnerDeindent``): under a list step,
    8 spaces in, its text and screenshot are the step's callout, not an indented code block."""
    from murar.ingest.corpus import convert_file
    from murar.schema import ImageItem

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/page/shot.png", png)
    write(tmp_path, "content/page/index.md",
          '---\ntitle: Setup\n---\n\n1. Open the settings.\n\n    {{< callout type="info" >}}\n'
          "        Admin rights needed.\n\n        ![Settings](shot.png)\n    {{< /callout >}}\n\n2. Save.\n")
    site = hugo.load(tmp_path)
    doc = convert_file(tmp_path / "content/page/index.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    assert [m.alt for m in doc.media if isinstance(m, ImageItem)] == ["Settings"]
    assert "![" not in doc.sections[0].text and "Admin rights needed." in doc.sections[0].text


def test_resources_named_in_front_matter(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Hugo page resources metadata: front matter resources (src glob, name, title, :counter)
    name a bundle's files; Geekdoc {{< img name= >}} and {{< video name= >}} pick them by that
    name and show the title when they give none."""
    from murar.ingest.corpus import convert_file
    from murar.schema import ImageItem, VideoItem

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/tour/photos/p-001.png", png)
    write(tmp_path, "content/tour/photos/p-002.png", png)
    write(tmp_path, "content/tour/clip.mp4", b"\x00\x00\x00\x18ftypmp42")
    write(tmp_path, "content/tour/_index.md",
          "---\ntitle: Tour\nresources:\n  - src: clip.mp4\n    name: intro\n    title: The intro clip\n"
          '  - src: "photos/*.png"\n    name: shot-:counter\n    title: Shot :counter\n---\n\n'
          'First.\n\n{{< img name="shot-2" >}}\n\nThen.\n\n{{< img name="shot-1" alt="Own words" >}}\n\n'
          '{{< video name="intro" controls="true" >}}\n')
    site = hugo.load(tmp_path)
    assert [(r.name, r.title) for r in site.page_resources("content/tour/_index.md")] == [
        ("intro", "The intro clip"), ("shot-1", "Shot 1"), ("shot-2", "Shot 2")]
    doc = convert_file(tmp_path / "content/tour/_index.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    images = [(Path(m.path or "").name, m.alt, m.caption) for m in doc.media if isinstance(m, ImageItem)]
    assert images == [("p-002.png", "Shot 2", "Shot 2"), ("p-001.png", "Own words", "")]
    videos = [(Path(m.path or "").name, m.title) for m in doc.media if isinstance(m, VideoItem)]
    assert videos == [("clip.mp4", "The intro clip")]
    assert all(m.exists for m in doc.media if isinstance(m, (ImageItem, VideoItem)))


def test_carousel_and_gallery_pictures_by_resource_globs(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Blowfish {{< carousel images="{a,b}" >}} / images="glob" and {{< gallery match="glob" >}}
    show the page resources the globs match (remote URLs as they are); a gallery of its own
    <img> tags is read as it is."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    for name in ("shots/01.png", "shots/02.png", "shots/notes.txt", "cover.png"):
        write(tmp_path, f"content/post/{name}", png)
    write(tmp_path, "content/post/index.md", "---\ntitle: Post\nresources:\n  - src: shots/02.png\n"
                                             "    title: Second shot\n---\n")
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< carousel images="{cover.png, https://cdn.example.org/x.jpg}" >}}\n\n'
                          '{{< carousel images="shots/*" aspectRatio="21-9" >}}\n\n'
                          '{{< gallery match="shots/*" sortOrder="desc" >}}\n\n'
                          '{{< gallery >}}\n<img src="cover.png" class="grid-w33" />\n{{< /gallery >}}\n',
                          page_rel="content/post/index.md")
    assert images_of(out) == [
        ("cover.png", "", ""), ("https://cdn.example.org/x.jpg", "", ""),
        ("shots/01.png", "", ""), ("shots/02.png", "Second shot", "Second shot"),
        ("shots/02.png", "Second shot", "Second shot"), ("shots/01.png", "", ""),
        ("cover.png", "", "")]


def test_cards_with_content_keep_their_labels_and_stay_one_block(
    tmp_path: Path, write: Callable[..., Path], png: bytes
) -> None:
    """A card that wraps content: Docsy's card.html shows header, title, subtitle, the content,
    then the footer (an image there too); a heading inside a card (Hugo Book columns of cards)
    labels the card and opens no section, so the card's image keeps the card's words as context."""
    from murar.ingest.corpus import convert_file
    from murar.schema import ImageItem

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/team/photo.png", png)
    write(tmp_path, "content/team/sign.png", png)
    write(tmp_path, "content/team/index.md",
          "---\ntitle: Team\n---\n\n## Members\n\n{{% columns %}}\n"
          '- {{< card image="photo.png" >}}\n  ### Ada Byron\n  Wrote the first program.\n  {{< /card >}}\n\n'
          "- {{< card >}}\n  ### Alan Turing\n  Broke ciphers.\n  {{< /card >}}\n{{% /columns %}}\n\n"
          '{{< card header="**Founder**" title="Grace" subtitle="Admiral, 1906" footer="![Signature](sign.png)" >}}\n'
          "Invented the compiler.\n{{< /card >}}\n\n"
          '{{< timelineItem header="Release 2" subheader="Spring" >}}\nShipped.\n{{< /timelineItem >}}\n')
    site = hugo.load(tmp_path)
    doc = convert_file(tmp_path / "content/team/index.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    assert [s.heading_path for s in doc.sections] == [("Team", "Members")]  # the title above, as Hugo shows it
    text = doc.sections[0].text
    assert "Ada Byron Wrote the first program." in text and "Alan Turing Broke ciphers." in text
    assert "Founder Grace Admiral, 1906 Invented the compiler." in text
    assert "Release 2 Spring Shipped." in text
    images = {Path(m.path or "").name: m for m in doc.media if isinstance(m, ImageItem)}
    assert images["photo.png"].context_after.startswith("Ada Byron Wrote the first program.")
    assert images["sign.png"].alt == "Signature" and "Invented the compiler." in images["sign.png"].context_before


def test_quoted_shortcode_values_keep_backslashes_but_escaped_quotes(
    tmp_path: Path, write: Callable[..., Path]
) -> None:
    """Hugo's shortcode lexer unescapes only \\" in a quoted value; any other backslash reaches the
    template, whose markdownify reads it as a Markdown escape. Docsy's shortcodes page titles a card
    title="\\* 1735 &nbsp; † 1826" (born, died) beside a bold header and subtitle: murar dropped the
    backslash and the star opened emphasis, so the card read '*** 1735 † 1826**'."""
    from murar.ingest.corpus import convert_file

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/p.md",
          "# P\n\n{{% cardpane %}}\n"
          '{{% card header="**John Adams**" title="\\* 1735 &nbsp;&nbsp; † 1826" subtitle="**President:** 1797" %}}\n'
          "Second president.\n{{% /card %}}\n{{% /cardpane %}}\n\n"
          '{{< figure src="x.png" caption="Say \\"hi\\" to C:\\\\temp" >}}\n')
    site = hugo.load(tmp_path)
    doc = convert_file(tmp_path / "content/p.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    text = doc.sections[0].text
    assert "John Adams * 1735" in text and "† 1826 President: 1797 Second president." in text
    assert "**" not in text
    assert hugo.parse_args("figure", 'caption="Say \\"hi\\" to C:\\\\temp"').params["caption"] == 'Say "hi" to C:\\\\temp'


def test_card_picture_under_its_header_is_no_inline_icon(
    tmp_path: Path, write: Callable[..., Path], png: bytes
) -> None:
    """Docsy's card pane of presidents: each card's content is its portrait, under the header,
    title and subtitle the card draws in elements of their own. murar led the portrait's line with
    those labels, so the portrait sat 'inside a sentence' and was flagged an inline icon (not
    selectable as a picture of the page)."""
    from murar.ingest.corpus import convert_file
    from murar.schema import ImageItem

    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "docsy"\n')
    write(tmp_path, "content/p/portrait.png", png)
    write(tmp_path, "content/p/index.md",
          "---\ntitle: P\n---\n\n{{% cardpane %}}\n"
          '{{% card header="**George Washington**" title="1732 - 1799" subtitle="**President:** 1789" %}}\n'
          '![Portrait](portrait.png "Portrait George Washington")\n{{% /card %}}\n{{% /cardpane %}}\n')
    site = hugo.load(tmp_path)
    doc = convert_file(tmp_path / "content/p/index.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    (portrait,) = [m for m in doc.media if isinstance(m, ImageItem)]
    assert "inline" not in portrait.flags and "George Washington" in portrait.context_before
    assert "George Washington 1732 - 1799 President: 1789" in doc.sections[0].text


def test_future_and_expired_pages_are_not_published(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo publishes no page whose publish date (publishDate, pubdate, published, date) is in
    the future or whose expiryDate/unpublishdate is past, unless buildFuture/buildExpired;
    [frontmatter] publishDate picks the keys."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/a/later.md", "---\ntitle: Later\ndate: 2999-01-01\n---\nx\n")
    write(tmp_path, "content/a/later-pub.md", "+++\ntitle = 'P'\npublishDate = 2999-01-01T10:00:00Z\n+++\nx\n")
    write(tmp_path, "content/a/gone.md", '---\ntitle: Gone\nexpiryDate: "2001-02-03"\n---\nx\n')
    write(tmp_path, "content/a/now.md", "---\ntitle: Now\ndate: 2001-01-01\nexpiryDate: 2999-01-01\n---\nx\n")
    site = hugo.load(tmp_path)
    roles = {n: site.classify(f"content/a/{n}.md").role for n in ("later", "later-pub", "gone", "now")}
    assert roles == {"later": FileRole.EXCLUDED, "later-pub": FileRole.EXCLUDED, "gone": FileRole.EXCLUDED,
                     "now": FileRole.PAGE}
    assert "future" in site.classify("content/a/later.md").reason
    write(tmp_path, "hugo.toml", 'baseURL = "/"\nbuildExpired = true\n[frontmatter]\npublishDate = ["publishDate"]\n')
    site = hugo.load(tmp_path)
    assert [site.classify(f"content/a/{n}.md").role for n in ("later", "later-pub", "gone")] == [
        FileRole.PAGE, FileRole.EXCLUDED, FileRole.PAGE]


def test_http_endpoint_shortcodes_keep_method_and_path(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A shortcode whose arguments are an HTTP method and a path/URL ({{< endpoint "POST" "/x" >}})
    keeps them as inline code; other positional shortcodes stay silent."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    out = site.preprocess('Call {{< endpoint "post" "/_api/gizmo/{id}" >}} then '
                          '{{< request "GET" "https://h:1/v1/x" />}}. {{< icon "fa-solid" "fa-check" >}}Done.',
                          page_rel="content/api.md")
    assert out == "Call `POST /_api/gizmo/{id}` then `GET https://h:1/v1/x`. Done."
    out = site.preprocess('{{< api-endpoint method="post" endpoint="https://{{< host >}}/api/v2/buckets" '
                          'api-ref="/x" >}} and {{< api-endpoint "/accounts" GET >}}', page_rel="content/api.md")
    assert out == "`POST https:///api/v2/buckets` and `GET /accounts`"


def _photo_png(side: int = 64) -> bytes:
    """A valid side x side RGB PNG with varied pixels (big enough not to be taken for an icon)."""
    import struct
    import zlib

    rows = b"".join(b"\x00" + bytes((x * 7 + y * 3) % 256 for x in range(side * 3)) for y in range(side))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_shortcodes_in_html_content_pages_give_html(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo runs shortcodes in .html content files too: there the rewrite is HTML (an <img>,
    <pre><code>, <strong>), not Markdown the HTML reader would show as literal text."""
    from murar.ingest.corpus import convert_file
    from murar.schema import ImageItem

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/about/team.png", _photo_png())
    write(tmp_path, "content/about/index.html",
          '---\ntitle: About\n---\n<h2>Team</h2>\n{{< figure src="team.png" caption="Our <b>team</b>" >}}\n'
          '{{< alert title="Heads up" >}}<p>Gizmos & more.</p>{{< /alert >}}\n'
          "{{< highlight go >}}\nif a < b {}\n{{< /highlight >}}\n")
    site = hugo.load(tmp_path)
    out = site.preprocess((tmp_path / "content/about/index.html").read_text(), page_rel="content/about/index.html")
    assert '<img src="team.png" alt="Our team" title="Our team">' in out
    assert '<strong>Heads up:</strong> <p>Gizmos & more.</p>' in out
    assert '<pre><code class="language-go">if a &lt; b {}</code></pre>' in out
    doc = convert_file(tmp_path / "content/about/index.html", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    assert [Path(m.path or "").name for m in doc.media if isinstance(m, ImageItem)] == ["team.png"]
    text = " ".join(s.text for s in doc.sections)
    assert "Heads up" in text and "**" not in text and "```" not in text and "![" not in text


def test_param_shortcode_page_first_language_params_case_insensitive(
    tmp_path: Path, write: Callable[..., Path]
) -> None:
    """Hugo's param: the page's front matter (top level or params), then the site's
    params with the default language's on top; keys are case-insensitive."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n[params]\nProductName = "SiteGizmo"\nversion = "1.0"\n'
                                 '[params.deep]\nKey = "deepval"\n[languages.en]\nweight = 1\n'
                                 '[languages.en.params]\nversion = "2.0"\n')
    write(tmp_path, "content/p.md", "---\ntitle: P\nproductName: PageGizmo\nparams:\n  color: red\n---\n")
    site = hugo.load(tmp_path)
    src = 'A {{< param "productname" >}} B {{< param "VERSION" >}} C {{< param "deep.key" >}} D {{< param "color" >}}'
    assert site.preprocess(src, page_rel="content/p.md") == "A PageGizmo B 2.0 C deepval D red"
    assert site.preprocess('{{< param "ProductName" >}}', page_rel="content/other.md") == "SiteGizmo"


def test_comment_shortcode_drops_what_it_encloses(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo's embedded comment shortcode (0.137.1+) leaves its content out of the page, shortcodes
    inside it too. Docsy's shortcodes page opens with a maintainers' note in one: murar read it as
    the page's first paragraph."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n[params]\nmessage = "hi"\n')
    write(tmp_path, "content/p.md", "# P\n")
    site = hugo.load(tmp_path)
    src = ("{{< comment >}}\n\n> Maintainers note: heading IDs changed.\n\n{{% param message %}}\n\n"
           "{{< /comment >}}\n\nVisible {{% comment %}}inline note{{% /comment %}}text.\n")
    out = site.preprocess(src, page_rel="content/p.md")
    assert "Maintainers" not in out and "hi" not in out and "inline note" not in out
    assert "Visible" in out and "text." in out


def test_goldmark_passthrough_math_is_kept_as_written(tmp_path: Path, write: Callable[..., Path]) -> None:
    """With Goldmark's passthrough extension on (Hugo "Mathematics"; Docsy's and Hextra's docs), the
    text between its delimiters is KaTeX source handed to the math renderer, not Markdown: murar read
    \\(a_1\\) as an escaped parenthesis and emphasis ('(a1)'). Kept in murar's $...$ / $$ convention;
    fenced code, code spans and sites without the extension are left as they are."""
    write(tmp_path, "hugo.yaml", "baseURL: /\nmarkup:\n  goldmark:\n    extensions:\n      passthrough:\n"
                                 "        enable: true\n        delimiters:\n"
                                 "          block: [['\\[', '\\]'], ['$$', '$$']]\n          inline: [['\\(', '\\)']]\n")
    write(tmp_path, "content/p.md", "# P\n")
    site = hugo.load(tmp_path)
    src = ("Solve \\(x_1 + y_1 = 0\\) for [\\(\\KaTeX\\)](https://katex.org/), not `\\(code\\)`.\n\n"
           "\\[\n\\tag*{(1)} P(E) = {n \\choose k} p_k\n\\]\n\n$$ a_1 * b_1 $$\n\n"
           "```tex\nWhen \\(a \\ne 0\\)\n```\n")
    out = site.preprocess(src, page_rel="content/p.md")
    assert "`$x_1 + y_1 = 0$`" in out and "[`$\\KaTeX$`](https://katex.org/)" in out and "`\\(code\\)`" in out
    assert "~~~~~~\n$$\n\\tag*{(1)} P(E) = {n \\choose k} p_k\n$$\n~~~~~~" in out
    assert "~~~~~~\n$$\na_1 * b_1\n$$\n~~~~~~" in out
    assert "```tex\nWhen \\(a \\ne 0\\)\n```" in out
    write(tmp_path, "hugo.yaml", "baseURL: /\n")
    assert hugo.load(tmp_path).preprocess("Solve \\(x_1\\).", page_rel="content/p.md") == "Solve \\(x_1\\)."


def test_passthrough_math_on_a_long_line_of_unclosed_openers() -> None:
    """A line of 200,000 ``\\(`` openers with one formula at its end: each opener sliced the
    text up to the far closer before checking the 2,000-character bound (quadratic: 600,000
    characters took seconds). Each now reads at most 2,000 characters; the unclosed openers
    stay as written and the formula at the end is still kept."""
    line = "\\( " * 200_000 + "\\(x\\)"
    out = hugo.passthrough_math(line, [], [("\\(", "\\)")])
    assert out == "\\( " * 200_000 + "`$x$`"

    class Sliced(str):  # records the longest slice taken (the work per opener)
        longest = 0

        def __getitem__(self, key: Any) -> str:
            got = str.__getitem__(self, key)
            Sliced.longest = max(Sliced.longest, len(got)) if isinstance(key, slice) else Sliced.longest
            return got

    text = Sliced("\\( " * 20_000 + "\\(x\\)")
    assert hugo._inline_passthrough(text, "\\(", "\\)") == "\\( " * 20_000 + "`$x$`"
    assert Sliced.longest <= 2000  # the old code sliced up to the far closer for each opener


def test_badge_shortcode_shows_its_words(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A theme's badge without a template of the site's shows its words: Hugo Book's title= and
    value= ("`src` {{< badge title="Required" >}}" in a parameter list), Hextra's content= or first
    argument. murar dropped them: 'src' with no 'Required', a badge row with no text."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hugo-book"\n')
    write(tmp_path, "content/p.md", "# P\n")
    site = hugo.load(tmp_path)
    src = ('`src` {{< badge style="warning" title="Required" >}}\n: The link\n\n'
           '{{< badge style="info" title="Hugo" value="0.147.6" >}} {{< badge content="New" >}} {{< badge "Beta" >}}')
    out = site.preprocess(src, page_rel="content/p.md")
    assert "`src` Required\n: The link" in out and "Hugo 0.147.6 New Beta" in out
    write(tmp_path, "layouts/shortcodes/badge.html", "<b>{{ .Get \"title\" }}!</b>")
    assert "<b>Required!</b>" in hugo.load(tmp_path).preprocess(src, page_rel="content/p.md")  # the site's own wins


def test_single_file_mounted_into_a_bundle_resolves(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """A module mount of one file into content (Docsy's site: source content/en/background-x.jpg,
    target content/tests/blocks-cover/height-auto/background.jpg) puts that file in the page bundle it
    targets, served beside the page: a link to it from that page, relative or root-relative, finds the
    mounted file; murar looked beside the page only and reported it missing."""
    write(tmp_path, "hugo.yaml", "baseURL: /\nmodule:\n  mounts:\n    - source: content/en\n      target: content\n"
                                 "    - source: pics/shot.png\n      target: content/docs/guide/shot.png\n")
    write(tmp_path, "pics/shot.png", png)
    write(tmp_path, "content/en/docs/guide/index.md", "---\ntitle: Guide\n---\n\n![Shot](shot.png)\n")
    site = hugo.load(tmp_path)
    assert site.resolve_asset("shot.png", page_rel="content/en/docs/guide/index.md").rel_path == "pics/shot.png"
    assert site.resolve_asset("/docs/guide/shot.png", page_rel="content/en/a.md").rel_path == "pics/shot.png"
    assert site.resolve_asset("other.png", page_rel="content/en/docs/guide/index.md").rel_path != "pics/shot.png"


def test_gallery_items_are_pictures_remote_ones_without_a_suffix_too(
    tmp_path: Path, write: Callable[..., Path], png: bytes
) -> None:
    """Hextra's gallery: each {{< gallery-item src= caption= >}} is a picture, a remote one with no
    file suffix too (https://picsum.photos/id/1015/1600/1200); murar kept the local item only and
    dropped the remote ones with their captions."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "assets/images/space.jpg", png)
    write(tmp_path, "content/g.md", "# G\n")
    site = hugo.load(tmp_path)
    src = ('{{< gallery >}}\n  {{< gallery-item src="images/space.jpg" caption="Space" >}}\n'
           '  {{< gallery-item src="https://picsum.photos/id/1015/1600/1200" width="1600" caption="River valley" >}}\n'
           '  {{< gallery-item src="https://example.org/clip.mp4" caption="Clip" >}}\n{{< /gallery >}}\n')
    pictures = images_of(site.preprocess(src, page_rel="content/g.md"))
    assert [p[0] for p in pictures] == ["../assets/images/space.jpg", "https://picsum.photos/id/1015/1600/1200"]
    assert pictures[1][1] == "River valley"


def test_hextra_term_shows_its_entry(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hextra's {{< term "SEO" >}} writes the entry as given (the glossary's definition is only its
    tooltip, term.html); murar dropped it, so a list of terms read as empty items."""
    write(tmp_path, "hugo.yaml", "baseURL: /\nmodule:\n  imports:\n    - path: github.com/imfing/hextra\n")
    write(tmp_path, "content/t.md", "# T\n")
    src = '* {{< term "static site generator" >}}\n* {{< term entry="SEO" >}}\n'
    assert hugo.load(tmp_path).preprocess(src, page_rel="content/t.md") == "* static site generator\n* SEO\n"


def test_hextra_file_tree_is_a_text_block(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hextra's {{< filetree/container >}} draws its folders and files as a tree; murar kept the
    folders' names run together and dropped every file (a filetree/file has no content)."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/t.md", "# T\n")
    src = ('{{< filetree/container >}}\n  {{< filetree/folder name="assets" >}}\n'
           '    {{< filetree/file name="notebook.ipynb" >}}\n  {{< /filetree/folder >}}\n'
           '  {{< filetree/folder name="content" state="closed" >}}\n    {{< filetree/folder name="docs" >}}\n'
           '      {{< filetree/file name="my-page.md" >}}\n    {{< /filetree/folder >}}\n  {{< /filetree/folder >}}\n'
           '  {{< filetree/file name="hugo.yaml" >}}\n{{< /filetree/container >}}\n\nAfter.\n')
    out = hugo.load(tmp_path).preprocess(src, page_rel="content/t.md")
    assert "```text\nassets/\n  notebook.ipynb\ncontent/\n  docs/\n    my-page.md\nhugo.yaml\n```" in out
    assert out.rstrip().endswith("After.")


def test_editor_files_and_render_link_pages_are_not_pages(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo skips #name / .name / name~ files and renders no page for build.render: link;
    _name.md stays a page."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    for name in ("#draft-notes.md", "_partial.md", "kept.md", "linked.md"):
        write(tmp_path, f"content/a/{name}", "---\ntitle: T\n---\nx\n")
    write(tmp_path, "content/a/linked.md", "---\ntitle: L\nbuild:\n  render: link\n---\nx\n")
    site = hugo.load(tmp_path)
    roles = {n: site.classify(f"content/a/{n}").role.name for n in
             ("#draft-notes.md", "_partial.md", "kept.md", "linked.md", "kept.md~")}
    assert roles == {"#draft-notes.md": "EXCLUDED", "_partial.md": "PAGE", "kept.md": "PAGE",
                     "linked.md": "EXCLUDED", "kept.md~": "EXCLUDED"}


def test_vendored_module_static_and_i18n(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """A theme imported as a Hugo module and vendored (`hugo mod vendor`) serves its static
    files and i18n from _vendor/<module path>/."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n[module]\n[[module.imports]]\npath = "example.org/acme/doctheme"\n')
    write(tmp_path, "_vendor/example.org/acme/doctheme/static/images/logo.png", png)
    write(tmp_path, "_vendor/example.org/acme/doctheme/i18n/en.toml", 'whatsnext_heading = "Next steps"\n')
    write(tmp_path, "content/a.md", "# A\n")
    site = hugo.load(tmp_path)
    assert site.resolve_asset("/images/logo.png", page_rel="content/a.md").rel_path == \
        "_vendor/example.org/acme/doctheme/static/images/logo.png"
    assert site.preprocess('## {{% heading "whatsnext" %}}', page_rel="content/a.md") == "## Next steps"
    assert site.classify("_vendor/example.org/acme/doctheme/i18n/en.toml").role is not FileRole.PAGE


def test_relearn_expand_title_and_siteparam(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Relearn: {{% expand "Title" %}} keeps its positional title; siteparam prints a site param."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n[params]\neditURL = "https://example.org/edit/"\n')
    site = hugo.load(tmp_path)
    out = site.preprocess('{{% expand "Show the fix" %}}Restart it.{{% /expand %}}\n'
                          'Edit at {{% siteparam name="editURL" %}}.', page_rel="content/a.md")
    assert "**Show the fix** Restart it." in out and "Edit at https://example.org/edit/." in out


def test_istio_image_link_and_text_code_blocks(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Istio: {{< image link="./x.svg" caption=... >}} is the image; {{< text bash >}} is code."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/ops/arch.png", png)
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< image width="75%"\n    link="./arch.png"\n    caption="Mesh layout"\n    >}}\n\n'
                          '{{< text bash >}}\n$ kubectl get pods\n# not a heading\n{{< /text >}}\n\n'
                          '{{< figure src="arch.png" link="https://example.org/big.png" >}}\n',
                          page_rel="content/ops/index.md")
    assert [src for src, _, _ in images_of(out)] == ["arch.png", "arch.png"]
    assert ("arch.png", "Mesh layout", "Mesh layout") in images_of(out)
    assert "```bash\n$ kubectl get pods\n# not a heading\n```" in out
    # a theme's inline text shortcode (no language, one phrase) stays text
    assert site.preprocess('Say {{< text color="red" >}}hello{{< /text >}}.', page_rel="content/a.md") == "Say hello."


def test_video_shortcodes_by_src_and_escaped_titles(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Any shortcode whose src is a video file is a video (Grafana's video-embed); titles
    with quotes stay inside their attribute."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/a/demo.mp4", b"\x00\x00\x00\x18ftypmp42")
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< video-embed src="demo.mp4" caption="The \\"demo\\" run" >}}\n\n'
                          '{{< youtube id="abc123" title="A \\"quoted\\" talk" >}}\n', page_rel="content/a/index.md")
    assert '<video src="demo.mp4" title="The &quot;demo&quot; run"></video>' in out
    assert '<iframe src="https://www.youtube.com/embed/abc123" title="A &quot;quoted&quot; talk"></iframe>' in out


def test_youtube_lite_shortcodes_are_youtube_videos(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Blowfish {{< youtubeLite id="..." label="..." >}} (lite-youtube-embed) is a YouTube video."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    out = site.preprocess('Watch:\n\n{{< youtubeLite id="SgXhGb-7QbU" label="Tools demo" >}}\n',
                          page_rel="content/a.md")
    assert '<iframe src="https://www.youtube.com/embed/SgXhGb-7QbU" title="Tools demo"></iframe>' in out


def test_geekdoc_include_with_a_language_is_code(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Geekdoc {{< include file= language= >}} highlights the file in that language, a Markdown
    file too (markdown="true" renders it instead)."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "static/custom.css.example", ":root {\n  --x: 1;\n}\n")
    write(tmp_path, "content/snippets/usage.md", "## Usage\n\nRun it.\n")
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< include file="/static/custom.css.example" language="CSS" >}}\n\n'
                          '{{< include file="/content/snippets/usage.md" language="markdown" >}}\n\n'
                          '{{< include file="/content/snippets/usage.md" markdown="true" >}}\n',
                          page_rel="content/a.md")
    assert "```CSS\n:root {\n  --x: 1;\n}\n```" in out
    assert "```markdown\n## Usage\n\nRun it.\n```" in out and out.rstrip().endswith("## Usage\n\nRun it.")


def test_doks_callouts_and_videos_by_file_name(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Doks (doks-core): a callout's kind is context= or its first argument, note by default
    (Hextra's type= and its tip default stay); {{< video src="clip" >}} names a bundle video
    by its file name without the suffix."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n[module]\n[[module.mounts]]\n'
                                 'source = "node_modules/@thulite/doks-core/layouts"\ntarget = "layouts"\n')
    write(tmp_path, "content/docs/demo/robin (540p).mp4", b"\x00\x00\x00\x18ftypmp42")
    write(tmp_path, "content/docs/demo/index.md", "---\ntitle: Demo\n---\n")
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< callout >}}\nDefault.\n{{< /callout >}}\n\n{{< callout "info" >}}\nInfo.\n{{< /callout >}}\n\n'
                          '{{< callout context="warning" title="Heads up" >}}\nCareful.\n{{< /callout >}}\n\n'
                          '{{< video src="robin (540p)" autoplay="true" >}}\n', page_rel="content/docs/demo/index.md")
    assert "**Note:** Default." in out and "**Info:** Info." in out and "**Heads up:** Careful." in out
    assert '<video src="robin (540p).mp4" title=""></video>' in out
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hextra"\n')
    out = hugo.load(tmp_path).preprocess('{{< callout >}}\nDefault.\n{{< /callout >}}\n', page_rel="content/a.md")
    assert "**Tip:** Default." in out


def test_figure_caption_has_title_caption_and_attribution(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo's figure shows a figcaption of title (h4), caption and attr; alt falls back to the caption."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< figure src="/ruler.jpg" title="Measuring" caption="Photo by" attr="Linus S." >}}\n\n'
                          '{{< figure src="/cat.jpg" title="Only a title" >}}\n', page_rel="content/a.md")
    assert images_of(out) == [("/ruler.jpg", "Photo by", "Measuring Photo by Linus S."),
                              ("/cat.jpg", "Only a title", "Only a title")]


def test_hugo_book_columns_and_details_title(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo Book: the <---> column separators are not text; {{< details "Title" >}} keeps its title."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< columns >}}\n## Left\nL.\n\n<--->\n\n## Right\nR {{< hint info >}}tip{{< /hint >}}.\n'
                          '{{< /columns >}}\n\n{{< details "Why?" open >}}\nBecause.\n{{< /details >}}\n',
                          page_rel="content/a.md")
    assert "<--->" not in out and "{{" not in out
    assert "## Left\nL.\n" in out and "## Right\nR **Info:** tip." in out and "**Why?** \nBecause." in out


def test_content_mounts_into_a_subfolder_a_file_and_a_language(
    tmp_path: Path, write: Callable[..., Path], png: bytes
) -> None:
    """Hugo mounts: source docs at content/docs serves docs/x.md at docs/x/; a file mounted as
    content/_index.md is the home page; a mount for one language (sites.matrix, or the older
    lang) serves its pages under /<lang>/."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n'
                                 '[module]\n[[module.mounts]]\nsource = "manual"\ntarget = "content/docs"\n'
                                 '[[module.mounts]]\nsource = "README.md"\ntarget = "content/_index.md"\n'
                                 '[[module.mounts]]\nsource = "manual-fr"\ntarget = "content"\n'
                                 '[module.mounts.sites.matrix]\nlanguages = ["fr"]\n')
    write(tmp_path, "manual/guide/setup.md", "---\ntitle: Setup\n---\n![s](shot.png)\n")
    write(tmp_path, "README.md", "---\ntitle: Home\n---\nHome.\n")
    write(tmp_path, "manual-fr/page.md", "---\ntitle: Page\n---\nFr.\n")
    write(tmp_path, "static/docs/guide/setup/shot.png", png)
    site = hugo.load(tmp_path)
    assert site.page_url_dir("manual/guide/setup.md") == "docs/guide/setup"
    assert site.page_url_dir("README.md") == ""
    assert site.page_url_dir("manual-fr/page.md") == "fr/page"
    assert site.resolve_asset("shot.png", page_rel="manual/guide/setup.md").rel_path == \
        "static/docs/guide/setup/shot.png"


def test_a_language_mount_of_the_default_languages_folder_adds_fallback_pages(
    tmp_path: Path, write: Callable[..., Path]
) -> None:
    """Hugo mounts (lang, Hugo < 0.153): a folder mounted for the default language (no lang)
    and again for a translation (its fallback pages) is a page of both languages; the
    translation's own file at the same path, from an earlier mount, wins over the fallback."""
    write(tmp_path, "hugo.yaml", "baseURL: /\ndefaultContentLanguage: en\nlanguages:\n  en: {weight: 1}\n"
                                 "  de: {weight: 2}\nmodule:\n  mounts:\n"
                                 "    - {source: content/en, target: content}\n"
                                 "    - {source: content/de, target: content, lang: de}\n"
                                 "    - {source: content/en/guide, target: content/guide, lang: de,"
                                 " excludeFiles: 'internal/*'}\n")
    for rel in ("en/guide/_index.md", "en/guide/setup.md", "en/news.md", "de/guide/_index.md", "en/guide/internal/x.md"):
        write(tmp_path, f"content/{rel}", "---\ntitle: T\n---\nx\n")
    roles = {r: hugo.load(tmp_path).classify(f"content/{r}").role.name
             for r in ("en/guide/_index.md", "en/guide/setup.md", "en/news.md", "de/guide/_index.md")}
    assert roles == {"en/guide/_index.md": "PAGE", "en/guide/setup.md": "PAGE", "en/news.md": "PAGE",
                     "de/guide/_index.md": "EXCLUDED"}
    de = hugo.load(tmp_path, variant=SiteVariant(language="de"))
    roles = {r: de.classify(f"content/{r}") for r in
             ("en/guide/_index.md", "en/guide/setup.md", "en/news.md", "de/guide/_index.md")}
    assert {r: c.role.name for r, c in roles.items()} == {
        "en/guide/_index.md": "EXCLUDED", "en/guide/setup.md": "PAGE", "en/news.md": "EXCLUDED",
        "de/guide/_index.md": "PAGE"}
    assert "shadowed by content/de/guide/_index.md" in (roles["en/guide/_index.md"].reason or "")
    # the fallback mount's excludeFiles leave that file out of German, not out of English
    assert de.classify("content/en/guide/internal/x.md").role.name == "EXCLUDED"
    assert hugo.load(tmp_path).classify("content/en/guide/internal/x.md").role.name == "PAGE"


def test_param_reads_values_cascaded_by_ancestor_sections(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo's param reads a page's cascaded front matter (checked with hugo 0.168): the nearest
    section's cascade (a section's own reaches itself; a target leaving the page out gives
    nothing), then ancestors', then the site configuration's, before the site params."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n[params]\nvers = "site"\n[[cascade]]\ncolor = "blue"\n'
                                 '[cascade.target]\npath = "/docs/**"\n')
    write(tmp_path, "content/docs/_index.md", "---\ntitle: Docs\ncascade:\n  vers: 1.2.3\n"
                                              "  params:\n    inner: deep\n---\n")
    write(tmp_path, "content/docs/sub/_index.md", "---\ntitle: Sub\ncascade:\n  - vers: 9\n"
                                                  "    target:\n      kind: section\n---\n")
    for rel in ("docs/sub/p.md", "docs/q.md", "other.md"):
        write(tmp_path, f"content/{rel}", "---\ntitle: P\n---\n")
    site = hugo.load(tmp_path)
    src = "{{% param vers %}} {{% param inner %}} {{% param color %}}"
    assert site.preprocess(src, page_rel="content/docs/sub/p.md") == "1.2.3 deep blue"
    assert site.preprocess("{{% param vers %}}", page_rel="content/docs/sub/_index.md") == "9"
    assert site.preprocess("{{% param vers %}}", page_rel="content/docs/_index.md") == "1.2.3"
    assert site.preprocess("{{% param vers %}} {{% param color %}}", page_rel="content/other.md") == "site "


def test_bootstrap_example_shows_its_markup(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Bootstrap docs: {{< example >}} holds an HTML snippet shown as markup (unless show_markup=false)."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< example >}}\n<button type="button" class="btn-close" aria-label="Close"></button>\n'
                          '{{< /example >}}\n\n{{< example show_markup="false" >}}\n<p>Preview only</p>\n'
                          "{{< /example >}}\n", page_rel="content/docs/close.md")
    assert '```html\n<button type="button" class="btn-close" aria-label="Close"></button>\n```' in out
    assert "<p>Preview only</p>" in out and out.count("```") == 2


def test_cascade_targets_from_config_home_and_sections(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo cascade of build.render: never from the site configuration or any branch page
    (the home page included) hides the pages its target (path/kind globs) matches."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n[[cascade]]\n[cascade.build]\nrender = "never"\n'
                                 '[cascade.target]\npath = "{/internal,/internal/**}"\n')
    for rel in ("internal/_index.md", "internal/deep/b.md", "docs/drafts/c.md", "docs/ok/d.md", "blog/e.md"):
        write(tmp_path, f"content/{rel}", "---\ntitle: T\n---\nx\n")
    write(tmp_path, "content/_index.md", "---\ntitle: Home\ncascade:\n  build:\n    render: never\n"
                                         "  target:\n    path: /blog/**\n---\n")
    write(tmp_path, "content/docs/_index.md", "---\ntitle: Docs\ncascade:\n  - build:\n      render: never\n"
                                              "    target:\n      path: /docs/drafts/**\n      kind: page\n---\n")
    site = hugo.load(tmp_path)
    pages = sorted(rel for rel in ("_index.md", "internal/_index.md", "internal/deep/b.md", "docs/_index.md",
                                   "docs/drafts/c.md", "docs/ok/d.md", "blog/e.md")
                   if site.classify(f"content/{rel}").role is FileRole.PAGE)
    assert pages == ["_index.md", "docs/_index.md", "docs/ok/d.md"]
    assert site.logical_path("content/docs/ok/d.md") == "/docs/ok/d" and site.logical_path("content/_index.md") == "/"


def test_only_the_default_language_is_ingested(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo multilingual mode: a file named with another configured language's code
    (translation by file name) and a file under another language's contentDir
    (translation by content directory, also nested in the default language's
    content folder) are translations, excluded with their language; the default
    language's files, and codes that name no configured language, stay pages."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ndefaultContentLanguage = "de"\n'
                                 '[languages.de]\nweight = 1\n[languages.fr]\ncontentDir = "content/fr"\n'
                                 '[languages.pt-br]\ncontentDir = "lang/pt"\n')
    for rel in ("content/_index.md", "content/rezepte/brot.md", "content/rezepte/brot.de.md",
                "content/rezepte/kuchen.fr.md", "content/rezepte/_index.pt-br.md", "content/rezepte/torte.it.md",
                "content/fr/recettes/pain.md", "lang/pt/receitas/pao.md"):
        write(tmp_path, rel, "---\ntitle: T\n---\nText.\n")
    site = hugo.load(tmp_path)
    classes = {rel: site.classify(rel) for rel in (
        "content/_index.md", "content/rezepte/brot.md", "content/rezepte/brot.de.md", "content/rezepte/kuchen.fr.md",
        "content/rezepte/_index.pt-br.md", "content/rezepte/torte.it.md", "content/fr/recettes/pain.md",
        "lang/pt/receitas/pao.md")}
    assert [rel for rel, c in classes.items() if c.role is FileRole.PAGE] == [
        "content/_index.md", "content/rezepte/brot.md", "content/rezepte/brot.de.md",
        "content/rezepte/torte.it.md"]  # it is no configured language: part of the name
    assert classes["content/rezepte/kuchen.fr.md"].role is FileRole.EXCLUDED
    assert classes["content/rezepte/kuchen.fr.md"].reason == "translation (language fr); default language de"
    assert classes["content/fr/recettes/pain.md"].reason == "translation (language fr); default language de"
    assert classes["content/rezepte/_index.pt-br.md"].reason == "translation (language pt-br); default language de"
    assert classes["lang/pt/receitas/pao.md"].reason == "translation (language pt-br); default language de"
    assert site.language_of("content/rezepte/brot.md") == "de"


def test_disabled_languages_are_not_ingested(tmp_path: Path, write: Callable[..., Path]) -> None:
    """disableLanguages and languages.<l>.disabled: the language's content is not built,
    named by file (page.no.md) or under its contentDir."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ndisableLanguages = ["no"]\n[languages.en]\nweight = 1\n'
                                 '[languages.no]\nweight = 2\n[languages.sv]\ndisabled = true\ncontentDir = "content/sv"\n')
    for rel in ("content/guide.md", "content/guide.no.md", "content/guide.sv.md", "content/sv/guide.md"):
        write(tmp_path, rel, "Text.\n")
    site = hugo.load(tmp_path)
    assert site.classify("content/guide.md").role is FileRole.PAGE
    assert site.classify("content/guide.no.md").reason == "translation (language no, disabled); default language en"
    assert site.classify("content/guide.sv.md").reason == "translation (language sv, disabled); default language en"
    assert site.classify("content/sv/guide.md").role is not FileRole.PAGE


def test_single_language_site_keeps_language_codes_as_pages(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Without languages (or with one), nothing is a translation: page.fr.md stays a page."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/a.fr.md", "Text.\n")
    write(tmp_path, "content/b.en.md", "Text.\n")
    site = hugo.load(tmp_path)
    assert site.classify("content/a.fr.md").role is FileRole.PAGE
    assert site.classify("content/b.en.md").role is FileRole.PAGE


def test_unclosed_escaped_shortcodes_are_linear(tmp_path: Path, write: Callable[..., Path],
                                                deadline: Callable[[int, str], Any]) -> None:
    """10,000 ``{{</*`` without ``*/>}}`` after them took 3.7 s: the escaped-shortcode
    regex scanned to the end of the page from each (quadratic; 50,000 here, not run on the
    old code: about 25x, past the 60 s safety net)."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/_index.md", "# a\n")
    site = hugo.load(tmp_path)
    with deadline(60, "escaped shortcodes"):
        out = site.preprocess("Literal: {{</* x */>}}\n\n" + "{{</* " * 50_000 + "\n", page_rel="content/_index.md",
                              warnings=[])
    assert "{{< x >}}" in out and out.count("{{</*") == 50_000


def test_placeholder_text_in_the_page_is_left_alone(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A page holding the NUL placeholder of an escaped shortcode itself raised IndexError."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/_index.md", "# a\n")
    out = hugo.load(tmp_path).preprocess("a {{</* x */>}}\n\x00HUGOESC9\x00\n", page_rel="content/_index.md",
                                         warnings=[])
    assert "\x00HUGOESC9\x00" in out and "{{< x >}}" in out


def test_callout_shortcodes_and_alerts_lead_with_their_kind_or_title(tmp_path: Path,
                                                                       write: Callable[..., Path]) -> None:
    """Theme callouts read like every generator's admonitions: "**Kind:** text", an explicit
    title winning (Hextra callout, Hugo Book/Geekdoc hint, LoveIt admonition, Relearn notice, Docsy alert, the nginx
    call-out, kind-named shortcodes with the site's i18n label); Hugo blockquote alerts likewise."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "i18n/en.toml", 'caution = "Careful:"\n')
    site = hugo.load(tmp_path)
    page = ('{{< callout type="warning" >}}\nHot plate.\n{{< /callout >}}\n\n'
            '{{< callout emoji="🌐" >}}Plain.{{< /callout >}}\n\n'
            '{{% hint danger %}}\nNo undo.\n{{% /hint %}}\n\n'
            '{{< hint type=important title="Read first" >}}Geek.{{< /hint >}}\n\n'
            '{{< admonition question "Why?" >}}\nBecause.\n{{< /admonition >}}\n\n'
            '{{< admonition type=bug >}}\nCrash.\n{{< /admonition >}}\n\n'
            '{{% notice tip "Shortcut" %}}\nUse keys.\n{{% /notice %}}\n\n'
            '{{% notice style="info" %}}Relearn.{{% /notice %}}\n\n'
            '{{% notice style="green" %}}Only colour.{{% /notice %}}\n\n'
            '{{% notice style="warning" title=" " %}}Untitled.{{% /notice %}}\n\n'
            '{{% alert color="warning" %}}Docsy.{{% /alert %}}\n\n'
            '{{% alert %}}Primary box.{{% /alert %}}\n\n'
            '- Step {{< call-out class="note" >}} Inline note. {{< /call-out >}}\n\n'
            '{{< call-out class="tip" title="Faster:" >}}\n\nTitled.\n{{< /call-out >}}\n\n'
            '{{< caution >}}\nThin ice.\n{{< /caution >}}\n\n'
            '> [!IMPORTANT] Before you upgrade\n> Back up.\n\n> [!note]\n> Quiet.\n')
    out = site.preprocess(page, page_rel="content/a.md")
    for expected in ("**Warning:** Hot plate.", "**Tip:** Plain.", "**Danger:** No undo.", "**Read first:** Geek.", "**Why?** Because.", "**Bug:** Crash.",
                     "**Shortcut:** Use keys.", "**Info:** Relearn.", "\n\nOnly colour.", "\n\nUntitled.", "**Warning:** Docsy.",
                     "\n\nPrimary box.", "- Step **Note:**  Inline note.", "**Faster:** Titled.", "**Careful:** Thin ice.",
                     "> **Before you upgrade:** \n> Back up.", "> **Note:** \n> Quiet."):
        assert expected in out, expected
    assert "{{" not in out and "[!" not in out


def test_a_chosen_language_reads_its_own_pages_params_strings_and_bundle_resources(
        tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Hugo multilingual mode, a made-up site translated by content directory and by file name.
    --language fr reads the French pages only: Hugo assigns a file without language code to the
    default language and builds each language from its own pages (no page fallback); the
    language's params override the site's; an i18n string French lacks takes the default
    language's ("Missing translations"); a French bundle uses the English bundle's image it
    does not hold ("Page bundles": a bundle inherits its translations' resources)."""
    write(tmp_path, "hugo.toml", "baseURL = 'https://x.example/'\ndefaultContentLanguage = 'en'\n"
                                 "[params]\nproduct = 'Widget'\n[languages.en]\ncontentDir = 'content/en'\n"
                                 "[languages.fr]\ncontentDir = 'content/fr'\n[languages.fr.params]\n"
                                 "product = 'Bidule'\n[languages.de]\ncontentDir = 'content/de'\n")
    write(tmp_path, "i18n/en.toml", 'note = "Note"\nwarning = "Warning"\n')
    write(tmp_path, "i18n/fr.toml", 'note = "Remarque"\n')
    write(tmp_path, "content/en/guide/index.md", "# Guide\n\n![Shot](shot.png)\n")
    write(tmp_path, "content/en/guide/shot.png", png)
    write(tmp_path, "content/en/only-english.md", "# Only English\n")
    write(tmp_path, "content/en/faq.md", "# FAQ\n")
    write(tmp_path, "content/en/faq.fr.md", "# FAQ (fr by file name)\n")
    write(tmp_path, "content/fr/guide/index.md", "# Guide\n\n![Capture](shot.png) {{< param product >}}\n")
    write(tmp_path, "content/de/guide/index.md", "# Anleitung\n")
    site = hugo.load(tmp_path, variant=SiteVariant(language="fr"))
    pages = sorted(rel for rel in ("content/en/guide/index.md", "content/en/only-english.md", "content/en/faq.md",
                                   "content/en/faq.fr.md", "content/fr/guide/index.md", "content/de/guide/index.md")
                   if site.classify(rel).role is FileRole.PAGE)
    assert pages == ["content/en/faq.fr.md", "content/fr/guide/index.md"]
    assert site.classify("content/en/only-english.md").reason == "translation (language en); murar reads language fr"
    assert site.config.language == "fr" and hugo.load(tmp_path).config.language == "en"
    assert site.resolve_asset("shot.png", page_rel="content/fr/guide/index.md").rel_path == "content/en/guide/shot.png"
    assert "Bidule" in site.preprocess("{{< param product >}}", page_rel="content/fr/guide/index.md")
    assert (site.translate("note"), site.translate("warning")) == ("Remarque", "Warning")
    with pytest.raises(ConfigError, match=r"'es' is not a language of this Hugo site; it has en, fr, de"):
        hugo.load(tmp_path, variant=SiteVariant(language="es"))


def test_docsy_description_is_the_lead_paragraph(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Docsy shows a page's front matter description, as Markdown, under the title (its lead);
    other themes do not show it in the page."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = ["docsy"]\n')
    page = "---\ntitle: Dials\ndescription: How the *dial* panel\n  shows pressure.\n---\n\n## Reading\nText.\n"
    out = hugo.load(tmp_path).preprocess(page, page_rel="content/docs/dials.md")
    assert "How the *dial* panel shows pressure.\n\n\n## Reading\nText." in out
    home = hugo.load(tmp_path).preprocess(page, page_rel="content/_index.md")
    assert home.count("How the *dial* panel") == 1  # Docsy's home page shows only its content
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hextra"\n')
    out = hugo.load(tmp_path).preprocess(page, page_rel="content/docs/dials.md")
    assert out.count("How the *dial* panel") == 1  # only in the front matter


def test_a_docsy_projects_own_content_view_decides_the_lead(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A Docsy project that writes its own content view (layouts/_default/content.html, or
    layouts/<type>/content.html for the page's type) shows as the lead what that template writes in
    its lead element: the YugabyteDB docs show {{ with .Params.headcontent }}<div class="lead">...,
    so a page's lead is its headcontent (headContent: keys are case-insensitive), never its
    description; a view of a type with no lead shows none; without a view of its own the
    description leads, as before."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = ["docsy"]\n')
    write(tmp_path, "layouts/_default/content.html",
          '<div class="td-content">\n<h1>{{ .Title }}</h1>\n'
          '        {{ with .Params.headcontent }}<div class="lead">{{ . | markdownify }}</div>{{ end }}\n'
          '{{ .Content }}\n</div>\n')
    write(tmp_path, "layouts/blog/content.html", '<div class="td-content">\n<h1>{{ .Title }}</h1>\n{{ .Content }}\n</div>\n')
    page = ("---\ntitle: Dials\ndescription: Configure the dial panel.\nheadContent: For pumps with a dial\n"
            "---\n\n## Reading\nText.\n")
    site = hugo.load(tmp_path)
    out = site.preprocess(page, page_rel="content/docs/dials.md")
    assert "For pumps with a dial\n\n\n## Reading" in out and out.count("Configure the dial panel.") == 1
    out = site.preprocess(page, page_rel="content/blog/dials.md")
    assert out.count("For pumps with a dial") == 1 and out.count("Configure the dial panel.") == 1
    bare = tmp_path / "bare"
    write(bare, "hugo.toml", 'baseURL = "/"\ntheme = ["docsy"]\n')
    out = hugo.load(bare).preprocess(page, page_rel="content/docs/dials.md")
    assert "Configure the dial panel.\n\n\n## Reading" in out


def test_docsy_docs_section_lists_its_child_pages(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Docsy's docs section page lists the pages whose parent it is (section-index partial) by
    weight, unweighted ones after by title, each as title and description; drafts, grandchildren,
    hide_summary pages are not listed; simple_list shows titles only, no_list nothing; not outside docs."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = ["docsy"]\n')
    write(tmp_path, "content/docs/gauges/_index.md", "---\ntitle: Gauges\n---\n\nAll gauges.\n")
    write(tmp_path, "content/docs/gauges/needle.md", "---\ntitle: Needle\ndescription: Reading the needle.\n---\n")
    write(tmp_path, "content/docs/gauges/bezel.md", "---\ntitle: Bezel\n---\n")
    write(tmp_path, "content/docs/gauges/dial.md", "---\ntitle: Dial\nweight: 2\ndescription: The dial.\n---\n")
    write(tmp_path, "content/docs/gauges/old.md", "---\ntitle: Old\ndraft: true\n---\n")
    write(tmp_path, "content/docs/gauges/quiet.md", "---\ntitle: Quiet\nhide_summary: true\n---\n")
    write(tmp_path, "content/docs/gauges/glass/_index.md", "---\ntitle: Glass\nweight: 5\n---\n")
    write(tmp_path, "content/docs/gauges/glass/pane.md", "---\ntitle: Pane\n---\n")
    write(tmp_path, "content/blog/_index.md", "---\ntitle: Blog\n---\n")
    write(tmp_path, "content/blog/post.md", "---\ntitle: Post\n---\n")
    site = hugo.load(tmp_path)

    def listed(rel: str) -> str:
        text = (tmp_path / rel).read_text()
        return site.preprocess(text, page_rel=rel).split("---\n", 2)[2].strip()

    assert listed("content/docs/gauges/_index.md") == (
        "All gauges.\n\n**Dial**: The dial.\n\n**Glass**\n\n**Bezel**\n\n**Needle**: Reading the needle.")
    assert listed("content/blog/_index.md") == ""
    write(tmp_path, "content/docs/gauges/_index.md", "---\ntitle: Gauges\nsimple_list: true\n---\n")
    assert listed("content/docs/gauges/_index.md") == "**Dial**\n\n**Glass**\n\n**Bezel**\n\n**Needle**"
    write(tmp_path, "content/docs/gauges/_index.md", "---\ntitle: Gauges\nno_list: true\n---\n")
    assert listed("content/docs/gauges/_index.md") == ""


def test_docsy_section_index_reads_no_page_linked_out_of_the_root(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A child page that is a symlink out of the site is not listed (its front matter never read)."""
    outside = write(tmp_path, "elsewhere/secret.md", "---\ntitle: Secret\ndescription: Outside.\n---\n")
    site_dir = tmp_path / "site"
    write(site_dir, "hugo.toml", 'baseURL = "/"\ntheme = ["docsy"]\n')
    write(site_dir, "content/docs/_index.md", "---\ntitle: Docs\n---\n")
    write(site_dir, "content/docs/real.md", "---\ntitle: Real\n---\n")
    (site_dir / "content/docs/secret.md").symlink_to(outside)
    out = hugo.load(site_dir).preprocess("---\ntitle: Docs\n---\n", page_rel="content/docs/_index.md")
    assert "**Real**" in out and "Secret" not in out


def test_a_site_shortcode_template_without_actions_is_its_text(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo renders a project shortcode template that holds no action ({{/* comments */}} aside)
    as its text, indented as the shortcode when it opens its line; a template with actions, a
    missing one and a name reaching out of the layouts stay reduced as before."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "layouts/shortcodes/beta-note.html",
          '{{/* shown on beta pages */}}<div class="alert">This pump is in <b>beta</b>.</div>\n')
    write(tmp_path, "layouts/_shortcodes/ports/cmd.html", "<pre><code>pump --port 80\npump --status\n</code></pre>")
    write(tmp_path, "layouts/shortcodes/version.html", "{{ .Site.Params.version }}")
    site = hugo.load(tmp_path)
    out = site.preprocess("{{% beta-note %}}\n\n1. Run:\n\n    {{< ports/cmd >}}\n\nNow {{< version >}} {{< nope >}}.\n",
                          page_rel="content/a.md")
    assert '<div class="alert">This pump is in <b>beta</b>.</div>' in out and "shown on" not in out
    assert "    <pre><code>pump --port 80\n    pump --status\n    </code></pre>" in out
    assert "Now  ." in out and "{{" not in out
    assert hugo._without_template_comments("a {{/* open") is None
    assert hugo._without_template_comments("a {{- /* x */ -}} b") == "a  b"


def test_geekdoc_toc_tree_lists_the_section_pages_as_a_tree(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Geekdoc's {{< toc-tree >}} draws the page's child pages as a nested list (weight groups,
    then title; linkTitle first; ": geekdocDescription"); hidden pages, drafts and a flat section's
    children are left out; on another theme the shortcode is reduced to nothing as before."""
    write(tmp_path, "config.yaml", "baseURL: /\ntheme: hugo-geekdoc\n")
    write(tmp_path, "content/pumps/_index.md", "---\ntitle: Pumps\n---\n\n## Index\n\n{{< toc-tree >}}\n")
    write(tmp_path, "content/pumps/valves.md", "---\ntitle: Valves\ngeekdocDescription: Opening them.\n---\nx\n")
    write(tmp_path, "content/pumps/bearings.md", "---\ntitle: Bearings\nlinkTitle: Wheel bearings\n---\nx\n")
    write(tmp_path, "content/pumps/first.md", "---\ntitle: Zeta start\nweight: -1\n---\nx\n")
    write(tmp_path, "content/pumps/secret.md", "---\ntitle: Secret\ngeekdocHidden: true\n---\nx\n")
    write(tmp_path, "content/pumps/old.md", "---\ntitle: Old\ndraft: true\n---\nx\n")
    write(tmp_path, "content/pumps/seals/_index.md", "---\ntitle: Seals\nweight: 3\n---\n")
    write(tmp_path, "content/pumps/seals/lip.md", "---\ntitle: Lip seals\n---\nx\n")
    write(tmp_path, "content/pumps/flat/_index.md", "---\ntitle: Flat\nweight: 3\ngeekdocFlatSection: true\n---\n")
    write(tmp_path, "content/pumps/flat/inner.md", "---\ntitle: Inner\n---\nx\n")
    page = (tmp_path / "content/pumps/_index.md").read_text()
    out = hugo.load(tmp_path).preprocess(page, page_rel="content/pumps/_index.md")
    assert out.split("## Index")[1].strip() == (
        "- Zeta start\n- Wheel bearings\n- Valves: Opening them.\n- Flat\n- Seals\n  - Lip seals")
    write(tmp_path, "config.yaml", "baseURL: /\ntheme: other\n")
    assert hugo.load(tmp_path).preprocess(page, page_rel="content/pumps/_index.md").split("## Index")[1].strip() == ""


def test_doks_dark_mode_image_twin_is_counted_not_kept(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Doks pairs an img-lightmode image with an img-darkmode twin (its stylesheet shows one per
    colour mode): the light one is the page's image, the dark one is resolved and counted only."""
    from murar.ingest.corpus import convert_file

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "assets/images/menu-light.png", png)
    write(tmp_path, "assets/images/menu-dark.png", png)
    write(tmp_path, "content/docs/menus.md", (
        "---\ntitle: Menus\n---\n\nThe sidebar menu:\n\n"
        '{{< img src="images/menu-light.png" alt="Menu, light" class="img-lightmode border" >}}\n'
        '{{< img src="images/menu-dark.png" alt="Menu, dark" class="img-darkmode border" >}}\n'))
    doc = convert_file(tmp_path / "content/docs/menus.md", root=tmp_path, assets_dir=tmp_path / "a",
                       site=hugo.load(tmp_path))
    assert [m.path for m in doc.media] == ["assets/images/menu-light.png"]
    assert [(r.path, r.status) for r in doc.asset_refs] == [
        ("assets/images/menu-light.png", "resolved"), ("assets/images/menu-dark.png", "resolved")]


def test_front_matter_closed_by_a_line_starting_with_three_dashes(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo's page lexer ends YAML front matter at the first line starting with "---": a "----"
    closing line still closes it (checked with hugo 0.168: title and description read, no text
    left), and "--- words" leaves "words" as content; the page's draft flag is read there too."""
    from murar.ingest.corpus import convert_file

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/docs/lease.md", "---\ntitle: Leases\ndescription: Granting one\n----\n\n"
                                             "A lease expires after its TTL.\n")
    write(tmp_path, "content/docs/two.md", "---\ntitle: Second\n--- trailing words\n\nBody two.\n")
    write(tmp_path, "content/docs/old.md", "---\ntitle: Old\ndraft: true\n-----\n\nGone.\n")
    site = hugo.load(tmp_path)
    doc = convert_file(tmp_path / "content/docs/lease.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    assert doc.title == "Leases"
    assert [s.text for s in doc.sections] == ["A lease expires after its TTL."]
    doc = convert_file(tmp_path / "content/docs/two.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    assert doc.title == "Second" and doc.sections[0].text == "trailing words\n\nBody two."
    assert site.classify("content/docs/old.md").role == FileRole.EXCLUDED


def test_geekdoc_toc_tree_is_bounded_over_all_levels(tmp_path: Path, write: Callable[..., Path],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A wide, deep tree of sections lists at most _TOC_TREE_MAX pages in all (a budget shared by
    the levels, not per level: 200 children over 6 levels would be 200**6 lines)."""
    monkeypatch.setattr(hugo, "_TOC_TREE_MAX", 25)
    write(tmp_path, "config.yaml", "baseURL: /\ntheme: hugo-geekdoc\n")
    write(tmp_path, "content/a/_index.md", "---\ntitle: A\n---\n{{< toc-tree >}}\n")
    for i in range(6):
        write(tmp_path, f"content/a/s{i}/_index.md", f"---\ntitle: S{i}\n---\n")
        for j in range(6):
            write(tmp_path, f"content/a/s{i}/p{j}.md", f"---\ntitle: P{i}{j}\n---\nx\n")
    out = hugo.load(tmp_path).preprocess("---\ntitle: A\n---\n{{< toc-tree >}}\n", page_rel="content/a/_index.md")
    assert out.count("- ") == 25 and "- S0\n  - P00" in out


def test_content_mount_exclude_and_include_files(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Hugo mounts' excludeFiles/includeFiles (Hugo < 0.153, hugofs/glob FilenameFilter): globs
    relative to the source with a leading slash, '**' as gobwas reads it ('/**/README.md' needs a
    folder, so the top README.md stays), a matching folder takes all below it."""
    write(tmp_path, "hugo.yaml", "baseURL: /\nmodule:\n  mounts:\n"
                                 "    - {source: content, target: content}\n"
                                 "    - {source: vendor/spec, target: content/spec, excludeFiles: ['**/README.md', 'drafts']}\n"
                                 "    - {source: vendor/api, target: content/api, includeFiles: '*.md'}\n")
    for rel in ("content/a.md", "vendor/spec/README.md", "vendor/spec/x/README.md", "vendor/spec/x/y.md",
                "vendor/spec/drafts/z.md", "vendor/api/top.md", "vendor/api/deep/n.md"):
        write(tmp_path, rel, "---\ntitle: T\n---\nx\n")
    site = hugo.load(tmp_path)
    roles = {r: site.classify(r).role.name for r in (
        "content/a.md", "vendor/spec/README.md", "vendor/spec/x/README.md", "vendor/spec/x/y.md",
        "vendor/spec/drafts/z.md", "vendor/api/top.md", "vendor/api/deep/n.md")}
    assert roles == {"content/a.md": "PAGE", "vendor/spec/README.md": "PAGE", "vendor/spec/x/README.md": "EXCLUDED",
                     "vendor/spec/x/y.md": "PAGE", "vendor/spec/drafts/z.md": "EXCLUDED", "vendor/api/top.md": "PAGE",
                     "vendor/api/deep/n.md": "EXCLUDED"}
    assert "excludeFiles '**/README.md'" in (site.classify("vendor/spec/x/README.md").reason or "")


def test_figure_caption_markdown_reads_as_its_text(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """Hugo's figure markdownifies caption and attr: a link in a caption reads as its text."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/post/index.md", "---\ntitle: P\n---\n")
    write(tmp_path, "content/post/art.png", png)
    site = hugo.load(tmp_path)
    out = site.preprocess('{{< figure src="art.png" alt="Purple art" caption="Photo by [Ann](https://x.org/ann) '
                          'on *Unsplash*" >}}', page_rel="content/post/index.md")
    assert images_of(out) == [("art.png", "Purple art", "Photo by Ann on Unsplash")]


def test_goldmark_attribute_lists_are_not_text(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Goldmark attribute lists (checked with hugo 0.168): one ending a heading is its id/class
    (markup.goldmark.parser.attribute.title, on by default); with attribute.block on, a line of
    one attaches to the block above (paragraph, list, quote); code and other braces stay."""
    page = ("## Install {#install-step .big}\n\nA lead paragraph.\n{.lead}\n\n- one\n- two\n{.checklist}\n\n"
            "> quoted\n{.note}\n\n```\n## In code {#x}\n{.kept}\n```\n\nSet {a} and {.b c}.\n")
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    out = hugo.load(tmp_path).preprocess(page, page_rel="content/p.md")
    assert "## Install\n" in out and "{.lead}" in out and "## In code {#x}\n{.kept}" in out
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n[markup.goldmark.parser.attribute]\nblock = true\ntitle = false\n')
    out = hugo.load(tmp_path).preprocess(page, page_rel="content/p.md")
    assert "## Install {#install-step .big}" in out
    assert "{.lead}" not in out and "{.checklist}" not in out and "{.note}" not in out
    assert "A lead paragraph.\n\n" in out and "## In code {#x}\n{.kept}" in out and "Set {a} and {.b c}." in out


def test_definition_lists_read_as_goldmark_and_kramdown_render_them(tmp_path: Path,
                                                                     write: Callable[..., Path]) -> None:
    """'Term' then ': definition' is a definition list in Hugo's Goldmark (definitionList extension,
    on unless markup.goldmark.extensions.definitionList = false; checked with hugo 0.168: <dl><dt>)
    and in Jekyll's default kramdown (not with a CommonMark converter); read as CommonMark, the
    term and its ': definition' ran together as one paragraph ('Replica : A copy ...')."""
    from murar.ingest.corpus import convert_file
    from murar.ingest.sites import jekyll

    page = "---\ntitle: Glossary\n---\n\nReplica\n: A copy of the data.\n\nSnapshot\n: A point-in-time copy.\n"
    cases = {"hugo-on": ("hugo.toml", 'baseURL = "/"\n', "content/gloss.md", True),
             "hugo-off": ("hugo.toml", 'baseURL = "/"\n[markup.goldmark.extensions]\ndefinitionList = false\n',
                          "content/gloss.md", False),
             "kramdown": ("_config.yml", "title: T\n", "gloss.md", True),
             "commonmark": ("_config.yml", "title: T\nmarkdown: CommonMark\n", "gloss.md", False)}
    for name, (config, text, rel, listed) in cases.items():
        root = tmp_path / name
        write(root, config, text)
        write(root, rel, page)
        site = hugo.load(root) if config == "hugo.toml" else jekyll.load(root, "_config.yml")
        doc = convert_file(root / rel, root=root, assets_dir=root / "a", site=site)
        paragraphs = doc.sections[0].text.split("\n\n")
        if listed:
            assert paragraphs == ["Replica", "A copy of the data.", "Snapshot", "A point-in-time copy."], name
        else:
            assert "Replica : A copy of the data." in paragraphs, name


def test_a_page_repeating_toc_tree_draws_it_a_bounded_number_of_times(
        tmp_path: Path, write: Callable[..., Path]) -> None:
    """Each {{< toc-tree >}} listed the section folder and checked every child page again, and each
    drew the whole tree: 1,000 on one page took 45 s and wrote 1.3 MB. The tree is drawn once
    per page; at most _TOC_TREES_PER_TEXT are shown, with a warning for the rest."""
    write(tmp_path, "config.yaml", "baseURL: /\ntheme: hugo-geekdoc\n")
    for j in range(30):
        write(tmp_path, f"content/a/p{j:02}.md", f"---\ntitle: Part {j:02}\n---\nx\n")
    page = "---\ntitle: A\n---\n" + "{{< toc-tree >}}\n" * 300 + "\nThe end.\n"
    write(tmp_path, "content/a/_index.md", page)
    warnings: list[str] = []
    out = hugo.load(tmp_path).preprocess(page, page_rel="content/a/_index.md", warnings=warnings)
    assert out.count("- Part 00\n") == 8 and out.count("- Part 29") == 8
    assert out.rstrip().endswith("The end.")
    assert sum("toc-tree" in w for w in warnings) == 1
    assert hugo._TOC_TREES_PER_TEXT == 8


def test_a_site_shortcode_template_printing_page_or_site_values_writes_them(
        tmp_path: Path, write: Callable[..., Path]) -> None:
    """A project (or theme) shortcode template whose actions only print values of the page or
    the site (or the shortcode's own arguments) is rendered as Hugo renders it: the docs version
    taken from the page's URL ({{- index (split .Page.RelPermalink "/") 2 -}}, also inside a code
    fence, as Hugo expands shortcodes there) or file path (add joins strings; the template file
    named in any case, currentVersion.html for {{< currentVersion >}}), a site or page
    parameter through functions and variables, <kbd>{{ .Get 0 }}</kbd>, {{ if eq ... }} / {{ else if }} /
    {{ else }} branches (one not taken is not computed); a template ranging over values stays
    reduced as before."""
    write(tmp_path, "hugo.toml", 'baseURL = "https://pumps.example/"\n[params]\nrelease = "4.2"\n')
    write(tmp_path, "layouts/shortcodes/cur-version.html",
          '{{- index (split (replace .Page.RelPermalink "/archives" "") "/") 2 -}}\n')
    write(tmp_path, "themes/t/layouts/shortcodes/release.html",
          '{{ $r := site.Params.release }}v{{ printf "%s.0" $r }} ({{ .Page.Params.product | upper }})\n')
    write(tmp_path, "layouts/shortcodes/asks.html", '<kbd>{{ .Get 0 | upper }}</kbd>\n')
    write(tmp_path, "themes/t/layouts/shortcodes/minorVersion.html", '{{ add (index (split $.Page.File.Path "/") 1) ".x" }}\n')
    write(tmp_path, "layouts/shortcodes/branchy.html", '{{ range .Page.Params.items }}{{ . }}{{ end }}\n')
    write(tmp_path, "layouts/shortcodes/shown-release.html",
          '{{- $next := printf "v%s" site.Params.release -}}\n{{ if eq $.Page.Params.version $next }}\n'
          '{{- .Page.Params.product -}}\n{{ else if .Page.Params.missing }}{{ .Page.Nope }}{{ else }}\n'
          '{{- $.Page.Params.version -}}\n{{ end }}\n')
    write(tmp_path, "hugo.toml", 'baseURL = "https://pumps.example/"\ntheme = "t"\n[params]\nrelease = "4.2"\n')
    page = "content/docs/2.3.0/deploy/install.md"
    write(tmp_path, page, "---\ntitle: Install\nproduct: pumpd\nversion: v4.2\n---\n")
    out = hugo.load(tmp_path).preprocess(
        "Get it:\n\n```shell\ncurl -sSL https://dl.example/v{{< cur-version >}}/get.sh | bash\n```\n\n"
        "Release {{< release >}}; {{< asks \"x\" >}}|{{< branchy >}}; {{< minorVersion >}}; [{{< shown-release >}}].\n", page_rel=page)
    assert "https://dl.example/v2.3.0/get.sh" in out
    assert "Release v4.2.0 (PUMPD);" in out
    assert "<kbd>X</kbd>|;" in out and "; 2.3.0.x;" in out and "[pumpd]" in out and "{{" not in out


def test_a_value_shortcode_template_reads_the_site_data_files(tmp_path: Path, write: Callable[..., Path]) -> None:
    """.Site.Data.x is the data file data/x.{yaml,json,toml} (a theme's data/ after the project's),
    and index reads a map by key: a definition shortcode ({{ index site.Data.definitions (.Get 0) }},
    as the Jaeger docs' theme writes it) prints the definition, a release table read by nested
    keys prints the release; a missing key prints nothing, a list of maps is not a value."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "t"\n')
    write(tmp_path, "data/definitions.yaml", "span: A unit of work with a name and a start time.\n")
    write(tmp_path, "themes/t/data/releases/pumpd.json", '{"latest": {"tag": "v4.2.1"}, "all": [{"tag": "x"}]}')
    write(tmp_path, "themes/t/layouts/shortcodes/definition.html",
          '{{- $term := .Get 0 }}\n{{- $definition := index site.Data.definitions $term }}\n'
          '<p>{{ $definition | markdownify }}</p>\n')
    write(tmp_path, "layouts/shortcodes/rel.html", "{{ .Site.Data.releases.pumpd.latest.tag }}")
    write(tmp_path, "layouts/shortcodes/all.html", "{{ index .Site.Data.releases.pumpd.all 0 }}")
    # a tooltip: the word shown, its definition on hover (the shortcode's scratch pad and .Params)
    write(tmp_path, "layouts/shortcodes/tip.html",
          '{{- if eq (len .Params) 2 -}}\n{{- .Scratch.Set "word" (.Get 0) -}}\n{{- .Scratch.Set "term" (.Get 1) }}\n'
          '{{- else -}}\n{{- .Scratch.Set "word" (.Get 0) -}}\n{{- .Scratch.Set "term" (.Get 0) -}}\n{{- end -}}\n'
          '{{- $d := index site.Data.definitions (urlize (.Scratch.Get "term")) | markdownify -}}\n'
          '<span class="tooltip{{ if gt (len $d) 40 }} wide{{ end }}" data-tooltip="{{ $d }}">'
          '{{- .Scratch.Get "word" -}}</span>')
    out = hugo.load(tmp_path).preprocess(
        'Term:\n\n{{< definition "span" >}}\n\nNone: [{{< definition "nope" >}}] {{< rel >}} [{{< all >}}]\n\n'
        'Each {{< tip "spans" "span" >}} and {{< tip "Span" >}} has a name.\n', page_rel="content/a.md")
    assert "<p>A unit of work with a name and a start time.</p>" in out
    assert "None: [\n<p></p>] v4.2.1 []" in out
    assert ('Each <span class="tooltip wide" data-tooltip="A unit of work with a name and a start time.">spans</span> '
            'and <span class="tooltip wide" data-tooltip="A unit of work with a name and a start time.">Span</span> has'
            ) in out


def test_a_site_template_drawn_around_a_paired_shortcodes_content(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A paired shortcode whose site template writes its title and wraps {{ .Inner }} (KEDA's
    collapsible: the title in a card header, the content markdownified below) reads as Hugo draws it:
    the title, then the content as page Markdown (its list kept), then the template's closing
    markup; a template that never writes .Inner shows none of the content."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "layouts/shortcodes/collapsible.html",
          '<div class="card">\n  <header>\n    <p class="card-header-title">\n      {{ .Get 0 }}\n    </p>\n'
          '  </header>\n  <div class="card-content">\n      {{ .Inner | markdownify }}\n  </div>\n</div>')
    write(tmp_path, "layouts/shortcodes/hidden.html", '<span class="note">{{ .Get 0 }}</span>')
    out = hugo.load(tmp_path).preprocess(
        'Intro.\n\n{{< collapsible "How do pumps scale?" >}}\nThey scale by:\n\n- queue length\n- CPU\n'
        '{{< /collapsible >}}\n\n{{< hidden "shown" >}}secret words{{< /hidden >}}\n\nEnd.\n', page_rel="content/a.md")
    assert "How do pumps scale?" in out
    _head, rest = out.split("How do pumps scale?")
    assert "\n\nThey scale by:\n\n- queue length\n- CPU\n" in rest
    assert rest.index("- CPU") < rest.index("</div>\n</div>")
    assert '<span class="note">shown</span>' in out and "secret words" not in out and "End." in out


def test_an_unpaired_titled_shortcode_is_what_its_site_template_writes(
        tmp_path: Path, write: Callable[..., Path]) -> None:
    """A shortcode with a title= but no content ({{<index/item title= body= href= icon=>}}, the
    cards of the YugabyteDB docs' section pages) shows what the project's template writes: its
    title and body. murar keeps a shortcode's title only as the lead of a paired one's content,
    so these cards were reduced to nothing. The template's lines holding only an action leave
    blank lines that mean nothing in Hugo ({{< >}} output is put in the page unparsed): the
    card stays one HTML block, not markup in an indented code block."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "layouts/shortcodes/index/item.html",
          '{{- $icon := .Get "icon" -}}\n<div class="col-12">\n    <a class="section-link" href="{{.Get "href"}}">\n'
          '      <div class="head">\n        {{ if in $icon "/" }}\n        <img class="icon" src="{{ $icon }}" />\n'
          '        {{ else }}\n        <div class="icon">\n            <i class="{{ $icon }}"></i>\n          </div>\n'
          '        {{ end }}\n        <div class="title">{{.Get "title"}}</div>\n      </div>\n'
          '      <div class="body">\n        {{.Get "body"}}\n      </div>\n    </a>\n  </div>\n')
    page = ("---\ntitle: Pumps\n---\n\nPick a task.\n\n{{<index/block>}}\n\n  {{<index/item\n"
            '    title="Create a pump"\n    body="Deploy a pump in one zone."\n    href="create/"\n'
            '    icon="fa-thin fa-city">}}\n\n  {{<index/item title="Drain a pump" body="Empty it safely."'
            ' href="drain/" icon="fa-thin fa-water">}}\n\n{{</index/block>}}\n')
    write(tmp_path, "content/pumps/_index.md", page)
    site = hugo.load(tmp_path)
    out = site.preprocess(page, page_rel="content/pumps/_index.md")
    assert '<div class="title">Create a pump</div>' in out and '<div class="title">Drain a pump</div>' in out
    doc = converter_for("markdown")(tmp_path / "content" / "pumps" / "_index.md", site=site,
                                    assets_dir=tmp_path / "_a")
    text = doc.sections[0].text
    assert "Create a pump" in text and "Deploy a pump in one zone." in text and "Empty it safely." in text
    assert "<div" not in text and "<i " not in text


def test_a_site_template_reading_a_file_beside_the_page_includes_it(
        tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """A project shortcode whose template reads a file it names in the calling page's folder
    ({{ $p := (print .Page.Dir (.Get 0)) | printf "./content/%s" }}{{ readFile $p | markdownify }}: the
    YugabyteDB docs' includeMarkdown, each wizard step kept once beside the pages that show it) puts
    that file's content where it stands, its pictures and headings with it (.Page.Dir / .Page.File.Dir
    is the page's folder under the content folder), and the file it reads is not a page of its own.
    Before, the shortcode was reduced to nothing and the step was read as a separate, untitled page."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "layouts/shortcodes/includeMarkdown.html",
          '{{ $includePath := (print .Page.Dir (.Get 0)) | printf "./content/%s" }}\n'
          '{{ readFile $includePath | markdownify }}\n{{ .Inner }}\n')
    write(tmp_path, "static/images/wizard-general.png", png)
    write(tmp_path, "content/cloud/create/general-step.md",
          "<!--\n+++\nprivate = true\n+++\n-->\n\n### General Settings\n\n"
          "![Wizard - General Settings](/images/wizard-general.png)\n\nEnter a name for the pump.\n")
    page = ("---\ntitle: Create a pump\n---\n\nStart the wizard.\n\n"
            '{{% includeMarkdown "general-step.md" %}}\n\n### Pump Setup\n\nChoose a region.\n')
    write(tmp_path, "content/cloud/create/single.md", page)
    site = hugo.load(tmp_path)
    doc = converter_for("markdown")(tmp_path / "content" / "cloud" / "create" / "single.md", site=site,
                                    assets_dir=tmp_path / "_a")
    paths = [" > ".join(x.heading_path) for x in doc.sections]
    assert "Create a pump > General Settings" in paths
    general = doc.sections[paths.index("Create a pump > General Settings")]
    assert "Enter a name for the pump." in general.text
    assert [m.alt for m in doc.media if m.kind == "image"] == ["Wizard - General Settings"]
    assert site.classify("content/cloud/create/general-step.md").role is FileRole.INCLUDE
    assert site.classify("content/cloud/create/single.md").role is FileRole.PAGE


def test_a_named_paired_shortcode_is_what_its_site_template_draws_around_its_content(
        tmp_path: Path, write: Callable[..., Path]) -> None:
    """A paired shortcode with a name= or title= whose project template draws a wrapper around its
    content reads as that template writes it: a tab pane's name is its element's id (the YugabyteDB
    docs' {{<nav/panel name="local" active="true">}}), not text, so 'local' no longer leads the pane's
    content; a template that writes the title keeps it; with no template of the project the title
    still leads the content in bold, as before."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "layouts/shortcodes/nav/panel.html",
          '<div id="{{.Get "name"}}" class="tab-pane fade {{if (.Get "active")}}show active{{end}}" role="tabpanel">\n'
          '    {{.Inner | .Page.RenderString}}\n</div>')
    write(tmp_path, "layouts/shortcodes/more.html",
          '<details><summary>{{ .Get "title" }}</summary>\n{{ .Inner | markdownify }}\n</details>')
    out = hugo.load(tmp_path).preprocess(
        '{{<nav/panel name="local" active="true">}}\nStart a local pump.\n{{</nav/panel>}}\n\n'
        '{{< more title="Why pumps?" >}}\nThey move water.\n{{< /more >}}\n\n'
        '{{< aside title="Sizing" >}}\nPick a big one.\n{{< /aside >}}\n', page_rel="content/a.md")
    assert "Start a local pump." in out and "local**" not in out and "**local" not in out
    assert 'id="local"' in out
    assert "<summary>Why pumps?</summary>" in out and "They move water." in out and "**Why pumps?**" not in out
    assert "**Sizing** Pick a big one." in out or "**Sizing**" in out


def test_a_callout_opened_under_a_line_of_text_is_a_block_of_its_own(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A callout shortcode opened on the line right under a paragraph ({{< hint "warning" >}} after
    'Use x.' with no blank line, as the Crossplane docs write them) is its own block on Hugo's page
    (the callout's <div> ends the paragraph): its lead starts a paragraph rather than continuing the
    text above; one opened inside a list item stays in the item."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    out = hugo.load(tmp_path).preprocess(
        'Use `pumpctl list` to see all pumps.\n{{< hint "warning" >}}\nListing is slow on big sites.\n'
        '{{< /hint >}}\n\n- Step one\n  {{< hint "note" >}}\n  Inside the item.\n  {{< /hint >}}\n',
        page_rel="content/a.md")
    assert re.search(r"to see all pumps\.\n\n+\*\*Warning:\*\* Listing is slow", out), out
    assert re.search(r"- Step one\n  \*\*Note:\*\* Inside the item\.", out), out


def test_code_shortcode_in_a_list_item_stays_in_the_item(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A code shortcode indented under a list step ({{< text bash >}}, {{< highlight >}}):
    Hugo puts its output where the shortcode stands, inside the step, and the templates
    drop the step's indentation from the code (Istio's strip_indent, Hugo's
    .InnerDeindent). Its fence was written at column 0: the list ended there, the code
    kept four leading spaces and the step's next paragraph became an indented code block."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    page = ("---\ntitle: Routing\n---\n\n1.  Apply the virtual services:\n\n    {{< text bash >}}\n"
            "    $ kubectl apply -f all-v1.yaml\n      --dry-run\n    {{< /text >}}\n\n"
            "    Configuration propagation is eventually consistent, wait a few seconds\n"
            "    for the virtual services to take effect.\n\n1. Display the routes:\n\n"
            "    {{< highlight yaml >}}\n    kind: VirtualService\n    {{< /highlight >}}\n")
    write(tmp_path, "content/routing.md", page)
    site = hugo.load(tmp_path)
    out = site.preprocess(page, page_rel="content/routing.md")
    assert "    ```bash\n    $ kubectl apply -f all-v1.yaml\n      --dry-run\n    ```" in out
    doc = converter_for("markdown")(tmp_path / "content" / "routing.md", site=site, assets_dir=tmp_path / "_a")
    text = doc.sections[0].text
    assert "$ kubectl apply -f all-v1.yaml\n  --dry-run" in text and "    $ kubectl" not in text
    assert "wait a few seconds for the virtual services to take effect." in text
    assert "kind: VirtualService" in text and "    kind" not in text
    # indented outside a list: left where it was (a fence indented four spaces would be code text)
    out = site.preprocess("Text.\n\n    {{< text bash >}}\n    $ ls\n    {{< /text >}}\n", page_rel="content/routing.md")
    assert "\n```bash\n    $ ls" in out


def test_code_sample_and_readfile_in_a_list_step_stay_in_the_step(tmp_path: Path,
                                                                   write: Callable[..., Path]) -> None:
    """Kubernetes {{% code_sample file="..." %}} and Docsy {{< readfile file=... code="true" >}}
    under a numbered step: the file's code stays in the step (it was a fence at column 0
    that ended the list, and the step's next paragraph became an indented code block)."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/examples/pods/simple-pod.yaml", "apiVersion: v1\nkind: Pod\n")
    write(tmp_path, "content/snippets/run.sh", "kubectl get pods\n")
    page = ("---\ntitle: Pods\n---\n\n1. Create the Pod:\n\n   {{% code_sample file=\"pods/simple-pod.yaml\" %}}\n\n"
            "   The Pod starts in a few seconds\n   on a node.\n\n"
            "1. List it:\n\n   {{< readfile file=\"/snippets/run.sh\" code=\"true\" lang=\"bash\" >}}\n\n"
            "   Its status is shown\n   in a table.\n")
    write(tmp_path, "content/pods.md", page)
    site = hugo.load(tmp_path)
    out = site.preprocess(page, page_rel="content/pods.md")
    assert "   `pods/simple-pod.yaml`:\n\n   ```yaml\n   apiVersion: v1\n   kind: Pod\n   ```" in out
    doc = converter_for("markdown")(tmp_path / "content" / "pods.md", site=site, assets_dir=tmp_path / "_a")
    text = doc.sections[0].text
    assert "The Pod starts in a few seconds on a node." in text and "Its status is shown in a table." in text
    assert "kubectl get pods" in text and "apiVersion: v1\nkind: Pod" in text
