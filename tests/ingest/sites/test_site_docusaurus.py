"""Docusaurus config reading (without running it) and its resolution rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.errors import ConfigError
from murar.ingest.sites._glob import DOCUSAURUS, glob_match
from murar.ingest.sites.base import FileRole, SiteVariant
from murar.ingest.sites.docusaurus import DocusaurusSite

CONFIG = """// a comment with baseUrl: '/wrong/'
const BASE = '/product';
/* staticDirectories: ['nope'] */
module.exports = {
  baseUrl: `${BASE}/`,
  staticDirectories: ['public', 'assets'],
  markdown: { format: 'detect' },
  presets: [['classic', { docs: { path: 'guides', exclude: ['**/drafts/**'] }, blog: { path: 'news' } }]],
  plugins: [['@docusaurus/plugin-content-docs', { id: 'community', path: 'community' }]],
};
"""


def _site(tmp_path: Path) -> DocusaurusSite:
    root = tmp_path / "site"
    for rel in ("public/img/a.png", "assets/img/b.png", "guides/intro.md", "guides/x.mdx", "guides/drafts/d.md",
                "guides/_part.mdx", "community/join.md", "community/_part.mdx", "news/2024-01-01-hello.md", "src/pages/about.md",
                "guides/img/local.png"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(b"x")
    (root / "docusaurus.config.js").write_text(CONFIG)
    return DocusaurusSite.load(root, "docusaurus.config.js")


def test_settings_are_read_from_the_js_config(tmp_path: Path) -> None:
    site = _site(tmp_path)
    cfg = site.config
    assert cfg.base_url == "/product/"
    assert cfg.static_dirs == ("public", "assets")
    assert cfg.content_dirs == ("guides", "news", "src/pages", "community")
    assert cfg.settings["markdown.format"] == "detect"


def test_pages_partials_and_exclusions(tmp_path: Path) -> None:
    """An instance's exclude option replaces the default list (Docusaurus issue #9641): guides/
    excludes drafts/ only, so its _part.mdx is published as a page; community/ keeps the defaults."""
    site = _site(tmp_path)
    assert site.classify("guides/intro.md").markup == "markdown"  # format: detect -> .md is CommonMark
    assert site.classify("guides/x.mdx").markup == "mdx"
    for rel in ("community/join.md", "news/2024-01-01-hello.md", "src/pages/about.md"):
        assert site.classify(rel).role is FileRole.PAGE, rel
    assert site.classify("guides/_part.mdx").role is FileRole.PAGE
    assert site.classify("community/_part.mdx").role is FileRole.INCLUDE
    assert site.classify("guides/drafts/d.md").role is FileRole.EXCLUDED


def test_links_resolve_through_static_dirs_base_url_and_site_alias(tmp_path: Path) -> None:
    site = _site(tmp_path)
    page = "guides/intro.md"
    assert site.resolve_asset("/img/a.png", page_rel=page).rel_path == "public/img/a.png"
    assert site.resolve_asset("/img/b.png", page_rel=page).rel_path == "assets/img/b.png"
    assert site.resolve_asset("/product/img/a.png", page_rel=page).rel_path == "public/img/a.png"
    assert site.resolve_asset("{useBaseUrl('img/b.png')}", page_rel=page).rel_path == "assets/img/b.png"
    assert site.resolve_asset("{require('@site/public/img/a.png').default}", page_rel=page).rel_path == \
        "public/img/a.png"
    assert site.resolve_asset("./img/local.png", page_rel=page).rel_path == "guides/img/local.png"
    assert site.resolve_asset("https://cdn.example.org/x.png", page_rel=page).url is not None
    assert site.resolve_asset("../../../etc/x.png", page_rel=page).problem == "escapes the corpus root"


def test_glob_match_supports_globstar_and_braces() -> None:
    assert glob_match("a/_x.mdx", "**/_*.{js,jsx,ts,tsx,md,mdx}", DOCUSAURUS)
    assert glob_match("_x.md", "**/_*.{md,mdx}", DOCUSAURUS)
    assert glob_match("a/_dir/b.md", "**/_*/**", DOCUSAURUS)
    assert not glob_match("a/x.md", "**/_*.{md,mdx}", DOCUSAURUS)


def test_content_plugin_instances_shorthands_and_top_level_path(tmp_path: Path) -> None:
    """Blog and pages plugin instances are content too; plugin names may be module shorthands
    ('content-docs', '@docusaurus/content-blog') or require.resolve(...), options may sit in
    /** @type */ ({...}); a nested versions.current.path is not the docs folder."""
    (tmp_path / "docusaurus.config.js").write_text("""
module.exports = {
  presets: [['classic', /** @type {import('@docusaurus/preset-classic').Options} */ ({
    docs: { versions: { current: { path: 'next' } }, path: 'handbook' },
  })]],
  plugins: [
    ['@docusaurus/plugin-content-blog', { id: 'news', path: './news', routeBasePath: 'news' }],
    ['content-docs', /** @type {import('@docusaurus/plugin-content-docs').Options} */ ({ id: 'faq', path: 'faq' })],
    [require.resolve('@docusaurus/content-pages'), { id: 'extra', path: 'landing' }],
    ['content-blog', { id: 'changes' }],
  ],
  themeConfig: { docs: { sidebar: { hideable: true } } },
};
""")
    for rel in ("handbook/a.md", "news/2024/post/index.md", "faq/q.md", "landing/l.md", "next/x.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# T\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    assert set(site.config.content_dirs) == {"handbook", "blog", "src/pages", "news", "faq", "landing"}
    for rel in ("handbook/a.md", "news/2024/post/index.md", "faq/q.md", "landing/l.md"):
        assert site.classify(rel).role is FileRole.PAGE, rel
    assert site.classify("next/x.md").role is FileRole.EXCLUDED


def test_include_current_version_false_publishes_the_last_version(tmp_path: Path) -> None:
    """With includeCurrentVersion: false Docusaurus publishes no current docs: the default version
    is lastVersion, else the first entry of versions.json (<id>_versions.json for an instance)."""
    (tmp_path / "docusaurus.config.js").write_text("""
module.exports = {
  presets: [['@docusaurus/preset-classic', ({ docs: { path: 'protocol', includeCurrentVersion: false } })]],
  plugins: [
    ['@docusaurus/plugin-content-docs', { id: 'SDK', path: 'sdk', includeCurrentVersion: false }],
    ['@docusaurus/plugin-content-docs', { id: 'api', path: 'api', includeCurrentVersion: false, lastVersion: '2.x' }],
  ],
};
""")
    (tmp_path / "versions.json").write_text('["V2", "V1"]')
    (tmp_path / "SDK_versions.json").write_text('["1.0.0"]')
    for rel in ("versioned_docs/version-V2/intro.md", "versioned_docs/version-V1/intro.md",
                "SDK_versioned_docs/version-1.0.0/start.md", "api_versioned_docs/version-2.x/ref.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# T\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    assert site.config.content_dirs[0] == "versioned_docs/version-V2"
    assert "SDK_versioned_docs/version-1.0.0" in site.config.content_dirs
    assert "api_versioned_docs/version-2.x" in site.config.content_dirs
    for rel in ("versioned_docs/version-V2/intro.md", "SDK_versioned_docs/version-1.0.0/start.md",
                "api_versioned_docs/version-2.x/ref.md"):
        assert site.classify(rel).role is FileRole.PAGE, rel
    assert site.classify("versioned_docs/version-V1/intro.md").role is FileRole.EXCLUDED
    (tmp_path / "versions.json").write_text("not json")
    assert DocusaurusSite.load(tmp_path, "docusaurus.config.js").config.content_dirs[0] == "protocol"


def test_percent_encoded_image_paths_are_decoded(tmp_path: Path) -> None:
    """Docusaurus' MDX loader decodes the URL path (decodeURIComponent): ![](/img/Screen%20Shot.png)
    is static/img/Screen Shot.png; markdown-it encodes <./my shot.png> the same way."""
    site = _site(tmp_path)
    root = tmp_path / "site"
    for rel in ("public/img/Screen Shot 1.png", "guides/img/my shot.png", "guides/img/100%25.png"):
        (root / rel).write_bytes(b"x")
    page = "guides/intro.md"
    assert site.resolve_asset("/img/Screen%20Shot%201.png", page_rel=page).rel_path == "public/img/Screen Shot 1.png"
    assert site.resolve_asset("./img/my%20shot.png", page_rel=page).rel_path == "guides/img/my shot.png"
    assert site.resolve_asset("./img/100%25.png", page_rel=page).rel_path == "guides/img/100%25.png"


def test_theme_config_docs_before_the_preset_is_not_the_docs_plugin(tmp_path: Path) -> None:
    """themeConfig.docs/.blog ({sidebar: ...}) written before presets are not the plugins' options."""
    (tmp_path / "docusaurus.config.js").write_text("""
module.exports = {
  themeConfig: { docs: { sidebar: { hideable: true } }, blog: { sidebar: { groupByYear: true } } },
  presets: [['classic', { docs: { path: 'handbook', routeBasePath: '/' }, blog: { path: 'news' } }]],
};
""")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    assert site.config.content_dirs[:2] == ("handbook", "news")
    assert site.config.settings["routeBasePath"] == "/"


def test_i18n_translations_are_skipped_with_their_locale(tmp_path: Path) -> None:
    # Docusaurus i18n: docs/ holds the default locale (i18n.defaultLocale); i18n/<locale>/ the translations
    root = tmp_path / "site"
    for rel in ("docs/intro.md", "i18n/en/docusaurus-plugin-content-docs/current/intro.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("# Intro\n")
    (root / "docusaurus.config.js").write_text(
        "module.exports = {\n  i18n: { defaultLocale: 'fr', locales: ['fr', 'en'] },\n"
        "  presets: [['classic', { docs: { path: 'docs' } }]],\n};\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    assert site.classify("docs/intro.md").role is FileRole.PAGE
    cls = site.classify("i18n/en/docusaurus-plugin-content-docs/current/intro.md")
    assert cls.role is FileRole.EXCLUDED and cls.reason == "translation (i18n/en); default locale fr"


def _versioned(tmp_path: Path, options: str, versions: str | None = '["2.0", "1.0"]') -> DocusaurusSite:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "docusaurus.config.js").write_text(
        f"module.exports = {{ presets: [['classic', {{ docs: {{ {options} }} }}]] }};\n")
    if versions is not None:
        (tmp_path / "versions.json").write_text(versions)
    for rel in ("docs/intro.md", "versioned_docs/version-2.0/intro.md", "versioned_docs/version-1.0/intro.md",
                "versioned_docs/version-0.9/intro.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# Intro\n")
    return DocusaurusSite.load(tmp_path, "docusaurus.config.js")


def test_the_default_docs_version_is_read_and_the_others_skipped_by_name(tmp_path: Path) -> None:
    """Docusaurus "Versioning": with versions.json the version shown by default is lastVersion,
    else the latest release (its first entry), not docs/ (the unreleased Next); the other
    versions are reported with their names."""
    site = _versioned(tmp_path, "path: 'docs'")
    assert site.config.content_dirs[0] == "versioned_docs/version-2.0"
    assert site.classify("versioned_docs/version-2.0/intro.md").role is FileRole.PAGE
    skipped = {rel: site.classify(rel) for rel in ("docs/intro.md", "versioned_docs/version-1.0/intro.md",
                                                   "versioned_docs/version-0.9/intro.md")}
    assert all(c.role is FileRole.EXCLUDED for c in skipped.values())
    assert skipped["docs/intro.md"].reason == \
        "docs version current (Next); murar reads the default version 2.0"
    assert skipped["versioned_docs/version-1.0/intro.md"].reason == \
        "docs version 1.0; murar reads the default version 2.0"
    assert "0.9" in skipped["versioned_docs/version-0.9/intro.md"].reason


def test_last_version_only_include_versions_and_disabled_versioning(tmp_path: Path) -> None:
    assert _versioned(tmp_path, "lastVersion: 'current'").config.content_dirs[0] == "docs"
    assert _versioned(tmp_path, "lastVersion: '1.0'").config.content_dirs[0] == "versioned_docs/version-1.0"
    site = _versioned(tmp_path, "onlyIncludeVersions: ['current', '1.0']")
    assert site.config.content_dirs[0] == "versioned_docs/version-1.0"
    assert site.classify("versioned_docs/version-2.0/intro.md").reason == \
        "docs version 2.0, not published: not in onlyIncludeVersions; murar reads the default version 1.0"
    assert _versioned(tmp_path, "disableVersioning: true").config.content_dirs[0] == "docs"
    site = _versioned(tmp_path, "includeCurrentVersion: false")
    assert site.classify("docs/intro.md").reason == ("docs version current (Next), not published: "
                                                     "includeCurrentVersion: false; murar reads the default version 2.0")
    # no versions file, or its folder missing from the checkout: docs/ itself
    assert _versioned(tmp_path / "plain", "path: 'docs'", versions=None).config.content_dirs[0] == "docs"
    assert _versioned(tmp_path / "gone", "path: 'docs'", versions='["3.0"]').config.content_dirs[0] == "docs"
    assert _versioned(tmp_path / "bad", "path: 'docs'", versions="not json").config.content_dirs[0] == "docs"


def test_docs_instances_version_their_own_folders(tmp_path: Path) -> None:
    (tmp_path / "docusaurus.config.js").write_text("""
module.exports = {
  presets: [['classic', { docs: { lastVersion: 'current' } }]],
  plugins: [['content-docs', { id: 'sdk', path: 'sdk', routeBasePath: 'sdk' }]],
};
""")
    (tmp_path / "versions.json").write_text('["1.0"]')
    (tmp_path / "sdk_versions.json").write_text('["5.x", "4.x"]')
    for rel in ("docs/a.md", "versioned_docs/version-1.0/a.md", "sdk/b.md", "sdk_versioned_docs/version-5.x/b.md",
                "sdk_versioned_docs/version-4.x/b.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# T\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    assert site.config.content_dirs == ("docs", "blog", "src/pages", "sdk_versioned_docs/version-5.x")
    roles = {rel: site.classify(rel).role for rel in ("docs/a.md", "versioned_docs/version-1.0/a.md", "sdk/b.md",
                                                      "sdk_versioned_docs/version-5.x/b.md",
                                                      "sdk_versioned_docs/version-4.x/b.md")}
    assert [r for r, role in roles.items() if role is FileRole.PAGE] == ["docs/a.md",
                                                                          "sdk_versioned_docs/version-5.x/b.md"]
    assert site.classify("sdk/b.md").reason == "docs version current (Next); murar reads the default version 5.x"


def test_include_exclude_per_instance_and_disabled_preset_plugins(tmp_path: Path) -> None:
    """plugin-content-docs/blog/pages options: include (default **/*.{md,mdx}) and exclude (an
    own list replaces the default one) belong to each instance; docs: false / blog: false in the
    preset options turn that plugin off."""
    (tmp_path / "docusaurus.config.js").write_text("""
const config = {
  themeConfig: { docs: { sidebar: { hideable: true } } },
  presets: [['classic', { docs: false, blog: { include: ['**/*.md'] }, theme: {} }]],
  plugins: [
    ['@docusaurus/plugin-content-docs', { id: 'guide', path: 'guide', exclude: ['**/internal/**', '**/_*/**'] }],
    ['@docusaurus/plugin-content-docs', { id: 'api', path: 'api', include: ['reference/**/*.mdx'] }],
  ],
};
export default config;
""")
    for rel in ("docs/a.md", "blog/p.md", "blog/q.mdx", "guide/g.md", "guide/internal/i.md", "guide/_own.mdx",
                "guide/_parts/x.md", "api/reference/r.mdx", "api/other.mdx"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# T\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    assert site.config.content_dirs == ("blog", "src/pages", "guide", "api")
    role = {rel: site.classify(rel).role for rel in ("docs/a.md", "blog/p.md", "blog/q.mdx", "guide/g.md",
                                                     "guide/internal/i.md", "guide/_own.mdx", "guide/_parts/x.md",
                                                     "api/reference/r.mdx", "api/other.mdx")}
    assert [r for r, c in role.items() if c is FileRole.PAGE] == [
        "blog/p.md", "guide/g.md", "guide/_own.mdx", "api/reference/r.mdx"]
    assert role["guide/_parts/x.md"] is FileRole.INCLUDE
    assert site.classify("blog/q.mdx").reason == "not matched by the blog plugin's include option"
    assert site.classify("guide/internal/i.md").reason == "excluded by the docs plugin's exclude option"
    assert site.classify("docs/a.md").role is FileRole.EXCLUDED
    (tmp_path / "docusaurus.config.js").write_text(
        "module.exports = { presets: [['@docusaurus/preset-classic', { blog: false, pages: false }]] };\n")
    assert DocusaurusSite.load(tmp_path, "docusaurus.config.js").config.content_dirs == ("docs",)
    (tmp_path / "docusaurus.config.js").write_text("module.exports = { presets: ['classic'] };\n")
    assert DocusaurusSite.load(tmp_path, "docusaurus.config.js").config.content_dirs == ("docs", "blog", "src/pages")


def test_include_and_exclude_with_extglobs(tmp_path: Path) -> None:
    """include/exclude globs go to globby, whose micromatch reads extglobs: include
    ['**/*!(.draft).{md,mdx}'] matches every Markdown page (picomatch: the !(...) right after a
    star adds nothing, so .draft files are pages too, as globby lists them), exclude
    ['tools/!(cli)/**'] drops every tools/ folder but cli/, and @(a|b) is one of its alternatives.
    Before, an extglob matched no file, so every page of the instance was lost."""
    (tmp_path / "docusaurus.config.js").write_text(
        "module.exports = { presets: [['classic', { docs: { path: 'manual', routeBasePath: '/',\n"
        "  include: ['**/*!(.draft).{md,mdx}', '@(intro|outro).txt'], exclude: ['tools/!(cli)/**'] } }]] };\n")
    rels = ("manual/a.md", "manual/sub/b.mdx", "manual/notes.draft.md", "manual/tools/cli/run.md",
            "manual/tools/gui/panel.md", "manual/intro.txt", "manual/extra.txt")
    for rel in rels:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# T\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    pages = [rel for rel in rels if site.classify(rel).role is FileRole.PAGE]
    assert pages == ["manual/a.md", "manual/sub/b.mdx", "manual/notes.draft.md", "manual/tools/cli/run.md"]
    assert site.classify("manual/tools/gui/panel.md").reason == "excluded by the docs plugin's exclude option"


def test_pathname_protocol_links_are_site_paths(tmp_path: Path) -> None:
    """Docusaurus 'Assets': ![banner](pathname:///img/b.png) is <img src="/img/b.png"> without asset
    processing, i.e. the static file img/b.png."""
    site = _site(tmp_path)
    page = "guides/intro.md"
    assert site.resolve_asset("pathname:///img/b.png", page_rel=page).rel_path == "assets/img/b.png"
    assert site.resolve_asset("pathname:///product/img/a.png", page_rel=page).rel_path == "public/img/a.png"
    assert site.resolve_asset("pathname://img/b.png", page_rel=page).problem


def test_site_plugins_wrapping_the_content_plugins_are_content(tmp_path: Path) -> None:
    """A site's own plugin extending plugin-content-docs/blog ('Extending a plugin') is known by the
    options only those plugins take (sidebarPath, blogTitle, ...) next to its path; a plugin with
    just a path is something else."""
    (tmp_path / "docusaurus.config.ts").write_text("""
import path from 'path';
const config = {
  presets: [['classic', { docs: false, blog: false } satisfies Preset.Options]],
  plugins: [
    'docusaurus-plugin-sass',
    [path.resolve(__dirname, './plugins/docs-enhanced'), {
      id: 'guide', path: 'guide', sidebarPath: require.resolve('./sidebars.js'), exclude: ['**/shared/**'],
    }],
    [require.resolve('./plugins/changelog'), { path: 'changes', blogTitle: 'Changes', postsPerPage: 20 }],
    ['docusaurus-plugin-image-zoom', { path: 'img' }],
  ],
};
export default config;
""")
    for rel in ("guide/a.md", "guide/shared/part.md", "changes/2024-01-01-v1.md", "img/x.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# T\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.ts")
    assert site.config.content_dirs == ("src/pages", "guide", "changes")
    assert site.classify("guide/a.md").role is FileRole.PAGE
    assert site.classify("guide/shared/part.md").role is FileRole.EXCLUDED
    assert site.classify("changes/2024-01-01-v1.md").role is FileRole.PAGE
    assert site.classify("img/x.md").role is FileRole.EXCLUDED


def test_draft_pages_are_skipped(tmp_path: Path) -> None:
    """plugin-content-docs/blog front matter: draft: true documents exist in development only."""
    site = _site(tmp_path)
    root = tmp_path / "site"
    (root / "guides" / "wip.md").write_text("---\ntitle: WIP\ndraft: true\n---\n\nNot yet.\n")
    (root / "news" / "2024-02-02-soon.md").write_text("---\ndraft: true\n---\n\nSoon.\n")
    (root / "guides" / "done.md").write_text("---\ntitle: Done\ndraft: false\nunlisted: true\n---\n\nDone.\n")
    for rel in ("guides/wip.md", "news/2024-02-02-soon.md"):
        cls = site.classify(rel)
        assert cls.role is FileRole.EXCLUDED and cls.reason.startswith("draft: true"), rel
    assert site.classify("guides/done.md").role is FileRole.PAGE


def test_a_config_without_content_plugins_reads_the_classic_defaults(tmp_path: Path) -> None:
    """A stub config (no presets, no content plugin) is read as the classic preset's docs/blog/pages;
    a config with content plugins but no presets has only those."""
    (tmp_path / "docusaurus.config.js").write_text("module.exports = { baseUrl: '/' };\n")
    assert DocusaurusSite.load(tmp_path, "docusaurus.config.js").config.content_dirs == ("docs", "blog", "src/pages")
    (tmp_path / "docusaurus.config.js").write_text(
        "module.exports = { plugins: [['@docusaurus/plugin-content-docs', { path: 'guide' }]] };\n")
    assert DocusaurusSite.load(tmp_path, "docusaurus.config.js").config.content_dirs == ("guide",)


def test_commonmark_pages_read_admonitions_and_the_mdx_format_front_matter(tmp_path: Path) -> None:
    """Docusaurus 'MDX vs. CommonMark': remark-directive admonitions work in both formats; the
    mdx.format front matter chooses the format of one file."""
    from murar.ingest.markdown import convert_markdown

    (tmp_path / "docusaurus.config.js").write_text("module.exports = { markdown: { format: 'detect' } };\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "plain.md").write_text(
        "# Plain\n\n:::tip[Keep it short]\n\nTip body.\n\n:::\n\n```md\n:::note\nexample\n:::\n```\n")
    (tmp_path / "docs" / "jsx.md").write_text("---\nmdx:\n  format: mdx\n---\n\n# JSX\n")
    (tmp_path / "docs" / "cm.mdx").write_text("---\nmdx:\n  format: md\n---\n\n# CM\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    assert site.classify("docs/plain.md").markup == "markdown"
    assert site.classify("docs/jsx.md").markup == "mdx" and site.classify("docs/cm.mdx").markup == "markdown"
    doc = convert_markdown(tmp_path / "docs" / "plain.md", root=tmp_path, site=site)
    text = "\n".join(s.text for s in doc.sections)
    assert "Tip: Keep it short\n\nTip body." in text and ":::tip" not in text
    assert ":::note\nexample\n:::" in text


def test_content_paths_written_with_path_join_or_a_constant(tmp_path: Path) -> None:
    """path: path.resolve(__dirname, '../docs') and path: GUIDES (const GUIDES = 'guides') are read,
    relative to the config's folder, instead of falling back to the default docs/."""
    site_dir = tmp_path / "website"
    site_dir.mkdir()
    (site_dir / "docusaurus.config.js").write_text("""
const path = require('path');
const GUIDES = 'guides';
module.exports = {
  presets: [['classic', { docs: { path: path.resolve(__dirname, '..', 'docs') }, blog: false }]],
  plugins: [['content-docs', { id: 'guides', path: GUIDES }],
            ['content-docs', { id: 'api', path: path.join(__dirname, 'api', 'v2') }]],
};
""")
    site = DocusaurusSite.load(tmp_path, "website/docusaurus.config.js")
    assert site.config.content_dirs == ("docs", "website/src/pages", "website/guides", "website/api/v2")


def test_highlight_magic_comments_are_not_code(tmp_path: Path) -> None:
    """Docusaurus 'Code blocks: highlighting with comments': the magic comment lines are not shown."""
    from murar.ingest.markup.mdx import convert_mdx

    (tmp_path / "docusaurus.config.js").write_text("module.exports = {};\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "code.mdx").write_text(
        "# Code\n\n```js\nfunction f() {\n  // highlight-next-line\n  return 1;\n}\n```\n\n"
        "```yaml\n# highlight-start\nkey: value\n# highlight-end\n```\n\n"
        "```jsx\n{/* highlight-next-line */}\n<p>Hi</p>\n```\n\nText about // highlight-next-line stays.\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    doc = convert_mdx(tmp_path / "docs" / "code.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "function f() {\n  return 1;\n}" in text and "key: value" in text and "<p>Hi</p>" in text
    assert text.count("highlight-") == 1  # the sentence outside code


def test_configured_magic_comments_and_languages(tmp_path: Path) -> None:
    """themeConfig.prism.magicComments replaces the default directives (an error-line comment is
    dropped, a default one no longer is); a comment only counts in a syntax the block's language
    reads (a '//' line in a Python block is code); a block without a language takes
    prism.defaultLanguage, and without one keeps its lines (theme-common parseLines)."""
    from murar.ingest.markup.mdx import convert_mdx

    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "code.mdx"
    page.write_text(
        "# Code\n\n```js\nconst x = 1;\n// This will error\nx = 2;\n// highlight-next-line\n```\n\n"
        "```python\n# c-highlight-next-line\nprint(1)\n// This will error\n```\n\n"
        "```\n/* c-highlight-start */\nlet y;\n/* c-highlight-end */\n```\n")
    (tmp_path / "docusaurus.config.js").write_text(
        "module.exports = { themeConfig: { prism: { defaultLanguage: 'javascript', magicComments: [\n"
        "  { className: 'hl', line: 'c-highlight-next-line', block: { start: 'c-highlight-start', end: 'c-highlight-end' } },\n"
        "  { className: 'code-block-error-line', line: 'This will error' },\n] } } };\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    text = "\n".join(s.text for s in convert_mdx(page, site=site, assets_dir=tmp_path / "a").sections)
    assert "const x = 1;\nx = 2;\n// highlight-next-line" in text
    assert "print(1)\n// This will error" in text and "c-highlight" not in text
    assert "let y;" in text
    (tmp_path / "docusaurus.config.js").write_text("module.exports = { themeConfig: { prism: {} } };\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    text = "\n".join(s.text for s in convert_mdx(page, site=site, assets_dir=tmp_path / "a").sections)
    assert "const x = 1;\n// This will error\nx = 2;" in text and "/* c-highlight-start */" in text
    assert "// highlight-next-line" not in text


def _multilingual(root: Path) -> Path:
    """A made-up Docusaurus site with a French translation of part of its docs and blog, a
    German one, and a released docs version 1.0 (with its own French translation)."""
    (root / "docusaurus.config.js").parent.mkdir(parents=True, exist_ok=True)
    (root / "docusaurus.config.js").write_text(
        "module.exports = {\n  i18n: { defaultLocale: 'en', locales: ['en', 'fr', 'de'] },\n"
        "  presets: [['classic', { docs: { lastVersion: 'current' } }]],\n"
        "  plugins: [['content-docs', { id: 'sdk', path: 'sdk' }]],\n};\n")
    (root / "versions.json").write_text('["1.0"]')
    for rel in ("docs/intro.md", "docs/setup.md", "docs/_shared.md", "versioned_docs/version-1.0/intro.md",
                "blog/2024-01-01-news.md", "sdk/ref.md",
                "i18n/fr/docusaurus-plugin-content-docs/current/intro.md",
                "i18n/fr/docusaurus-plugin-content-docs/current/only-in-french.md",
                "i18n/fr/docusaurus-plugin-content-docs/current/_shared.md",
                "i18n/fr/docusaurus-plugin-content-docs/version-1.0/intro.md",
                "i18n/fr/docusaurus-plugin-content-blog/2024-01-01-news.md",
                "i18n/fr/docusaurus-plugin-content-docs-sdk/current/ref.md",
                "i18n/de/docusaurus-plugin-content-docs/current/intro.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("# T\n")
    return root


def test_content_plugins_of_a_plugins_array_built_in_code(tmp_path: Path) -> None:
    """A plugins value the config computes (a function it calls that starts from an array and
    appends an instance per product) holds content plugin instances too: each
    ['@docusaurus/plugin-content-docs', {...}] pair it writes is one."""
    (tmp_path / "docusaurus.config.js").write_text("""
const cloud = (() => process.env.CLOUD !== '0')();
const config = {
  presets: [['classic', ({ docs: { path: 'docs' }, blog: false })]],
  plugins: (() => {
    let plugins = ['docusaurus-plugin-image-zoom'];
    if (cloud) {
      plugins = [...plugins, ['@docusaurus/plugin-content-docs', { id: 'cloud', path: 'cloud' }]];
    }
    plugins.push([require.resolve('@docusaurus/plugin-content-docs'), { id: 'pp', path: 'pp' }]);
    return plugins;
  })(),
};
export default config;
""")
    for rel in ("docs/a.md", "cloud/b.md", "pp/c.md", "other/d.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# T\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    assert _pages(site, tmp_path) == ["cloud/b.md", "docs/a.md", "pp/c.md"]


def _pages(site: DocusaurusSite, root: Path) -> list[str]:
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md"))
    return [rel for rel in files if site.classify(rel).role is FileRole.PAGE]


def test_a_chosen_locale_reads_each_page_from_its_translation_else_the_default(tmp_path: Path) -> None:
    """`docusaurus build --locale fr`: each content plugin reads the files of its own folder
    (plugin-content-docs readVersionDocs globs only contentPath), each from
    i18n/fr/docusaurus-plugin-content-<kind>[-<id>]/... when translated there (getFolderContainingFile
    over [contentPathLocalized, contentPath]), else the default locale's file."""
    root = _multilingual(tmp_path / "site")
    default = DocusaurusSite.load(root, "docusaurus.config.js")
    assert _pages(default, root) == ["blog/2024-01-01-news.md", "docs/intro.md", "docs/setup.md", "sdk/ref.md"]
    assert default.config.language == "en" and default.config.docs_version == "current"
    site = DocusaurusSite.load(root, "docusaurus.config.js", variant=SiteVariant(language="fr"))
    assert _pages(site, root) == ["docs/setup.md",  # not translated: the English page
                                  "i18n/fr/docusaurus-plugin-content-blog/2024-01-01-news.md",
                                  "i18n/fr/docusaurus-plugin-content-docs-sdk/current/ref.md",
                                  "i18n/fr/docusaurus-plugin-content-docs/current/intro.md"]
    assert site.config.language == "fr"
    assert site.classify("docs/intro.md").reason == \
        "read from its translation i18n/fr/docusaurus-plugin-content-docs/current/intro.md (locale fr)"
    orphan = site.classify("i18n/fr/docusaurus-plugin-content-docs/current/only-in-french.md")
    assert orphan.role is FileRole.EXCLUDED and orphan.reason.startswith("translation of no page: docs/only-in-french.md")
    assert site.classify("i18n/fr/docusaurus-plugin-content-docs/current/_shared.md").role is FileRole.INCLUDE
    assert site.classify("i18n/de/docusaurus-plugin-content-docs/current/intro.md").reason == \
        "translation (i18n/de); murar reads locale fr"
    assert site.classify("i18n/fr/docusaurus-plugin-content-docs/version-1.0/intro.md").reason == \
        "translation (i18n/fr) of content murar does not read"
    # the default locale asked for by name reads exactly what the default does
    same = DocusaurusSite.load(root, "docusaurus.config.js", variant=SiteVariant(language="en"))
    assert _pages(same, root) == _pages(default, root)


def test_a_chosen_docs_version_is_read_with_its_translation(tmp_path: Path) -> None:
    root = _multilingual(tmp_path / "site")
    site = DocusaurusSite.load(root, "docusaurus.config.js", variant=SiteVariant(docs_version="1.0"))
    # the sdk instance has no version 1.0: it keeps its default (current)
    assert _pages(site, root) == ["blog/2024-01-01-news.md", "sdk/ref.md", "versioned_docs/version-1.0/intro.md"]
    assert site.config.docs_version == "1.0"
    assert site.classify("docs/intro.md").reason == "docs version current (Next); murar reads version 1.0 (chosen)"
    both = DocusaurusSite.load(root, "docusaurus.config.js", variant=SiteVariant(language="fr", docs_version="1.0"))
    assert "i18n/fr/docusaurus-plugin-content-docs/version-1.0/intro.md" in _pages(both, root)
    assert both.classify("versioned_docs/version-1.0/intro.md").role is FileRole.EXCLUDED


def test_a_locale_or_version_the_site_lacks_is_a_config_error_listing_its_own(tmp_path: Path) -> None:
    root = _multilingual(tmp_path / "site")
    with pytest.raises(ConfigError, match=r"'es' is not a locale of this Docusaurus site; it has en, fr, de"):
        DocusaurusSite.load(root, "docusaurus.config.js", variant=SiteVariant(language="es"))
    with pytest.raises(ConfigError, match=r"'5.x' is not a version of this Docusaurus site; it has current, 1.0"):
        DocusaurusSite.load(root, "docusaurus.config.js", variant=SiteVariant(docs_version="5.x"))
    (root / "versions.json").write_text('["2.0", "1.0"]')  # listed, but its folder is not in the checkout
    with pytest.raises(ConfigError, match=r"versioned_docs/version-2.0 is missing"):
        DocusaurusSite.load(root, "docusaurus.config.js", variant=SiteVariant(docs_version="2.0"))


def test_remark_abbr_definitions_are_not_page_text(tmp_path: Path) -> None:
    """remark-abbr in a docs instance's remarkPlugins (Kratix's docs: const abbr =
    require('remark-abbr'); remarkPlugins: [abbr]) reads '*[GitOps]: ...' lines as abbreviation
    definitions, which the page does not show; in code, and on a site without the plugin, they stay."""
    from murar.ingest.markup.mdx import convert_mdx

    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "intro.md"
    page.write_text("# Intro\n\nUse a GitOps workflow.\n\n```text\n*[x]: kept in code\n```\n\n"
                    "*[GitOps]: Operations driven from a Git repository\n")
    config = ("const abbr = require('remark-abbr');\nmodule.exports = {\n"
              "  presets: [['classic', {docs: {sidebarPath: './sidebars.js', remarkPlugins: [%s]}}]],\n};\n")
    (tmp_path / "docusaurus.config.js").write_text(config % "abbr")
    text = convert_mdx(page, site=DocusaurusSite.load(tmp_path, "docusaurus.config.js"),
                       assets_dir=tmp_path / "a").sections[0].text
    assert "Operations driven" not in text and "*[x]: kept in code" in text and "GitOps workflow" in text
    (tmp_path / "docusaurus.config.js").write_text(config % "")
    text = convert_mdx(page, site=DocusaurusSite.load(tmp_path, "docusaurus.config.js"),
                       assets_dir=tmp_path / "a").sections[0].text
    assert "Operations driven from a Git repository" in text


def test_emoji_shortcodes_that_state_a_value_read_as_their_character(tmp_path: Path) -> None:
    """Docusaurus's MDX loader runs remark-emoji on every page, .md and .mdx (turned off only by
    markdown.emoji: false, Docusaurus 3.9), so the Docusaurus introduction's '- :white_check_mark: You
    want...' / '- :x: You need support for IE11' lists show check marks and crosses; murar kept the
    shortcodes as words. In code, and with the option off, they stay as written."""
    from murar.ingest.markup.mdx import convert_mdx

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "intro.mdx").write_text(
        "# Intro\n\n- :white_check_mark: You want a SPA\n- :x: You need IE11\n\n"
        "Write `:x:` for a cross.\n\n```md\n:warning: in code\n```\n")
    (tmp_path / "docs" / "plain.md").write_text("# Plain\n\n| Feature | Supported |\n|---|---|\n| Tabs | :heavy_check_mark: |\n")
    config = "module.exports = {%s presets: [['classic', {docs: {sidebarPath: './sidebars.js'}}]]};\n"
    (tmp_path / "docusaurus.config.js").write_text(config % "markdown: {format: 'detect'},")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    text = convert_mdx(tmp_path / "docs" / "intro.mdx", site=site, assets_dir=tmp_path / "a").sections[0].text
    assert "\u2705 You want a SPA" in text and "\u274c You need IE11" in text
    assert "Write :x: for a cross." in text and ":warning: in code" in text
    plain = convert_mdx(tmp_path / "docs" / "plain.md", site=site, assets_dir=tmp_path / "a")
    assert any(m.rows == [["Tabs", "\u2714\ufe0f"]] for m in plain.media if hasattr(m, "rows"))
    (tmp_path / "docusaurus.config.js").write_text(config % "markdown: {emoji: false},")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    text = convert_mdx(tmp_path / "docs" / "intro.mdx", site=site, assets_dir=tmp_path / "a").sections[0].text
    assert ":white_check_mark: You want a SPA" in text


def test_remark_math_formulas_are_read_as_written(tmp_path: Path) -> None:
    """remark-math in a docs instance's remarkPlugins (Docusaurus "Math Equations", as docusaurus.io
    configures it: import remarkMath from 'remark-math'; remarkPlugins: [remarkMath]) makes $...$ and
    $$ blocks LaTeX: murar read '$F(x)=\\int_{a}^{x} f(t)\\,dt$' as MDX and Markdown, so the {a}/{x}
    expressions went and \\, became ',' ('$F(x)=\\int_^ f(t),dt$'), and a $$ block became one line.
    Escaped dollars, code spans and fences stay; without the plugin the text is read as before."""
    from murar.ingest.markup.mdx import convert_mdx

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "math.mdx").write_text(
        "# Math\n\nLet $F(x)=\n\\int_{a}^{x} f(t)\\,dt$ hold, costs \\$5, code `$x$`.\n\n"
        "$$\nI = \\int_0^{2\\pi} \\sin(x)\\,dx\n$$\n\n```latex\n$y_{1}$\n```\n")
    (tmp_path / "docs" / "plain.md").write_text("# Plain\n\nThe mean $\\bar{x}\\,$ is *shown*.\n")
    config = ("import remarkMath from 'remark-math';\nexport default {markdown: {format: 'detect'}, presets: "
              "[['classic', {docs: {sidebarPath: './sidebars.js', remarkPlugins: [%s]}}]]};\n")
    (tmp_path / "docusaurus.config.js").write_text(config % "remarkMath")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    text = "\n".join(s.text for s in convert_mdx(tmp_path / "docs" / "math.mdx", site=site,
                                                  assets_dir=tmp_path / "a").sections)
    assert "Let $F(x)= \\int_{a}^{x} f(t)\\,dt$ hold, costs $5, code $x$." in text
    assert "$$\nI = \\int_0^{2\\pi} \\sin(x)\\,dx\n$$" in text and "$y_{1}$" in text
    plain = convert_mdx(tmp_path / "docs" / "plain.md", site=site, assets_dir=tmp_path / "a").sections[0].text
    assert "The mean $\\bar{x}\\,$ is shown." in plain
    (tmp_path / "docusaurus.config.js").write_text(config % "")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    text = convert_mdx(tmp_path / "docs" / "math.mdx", site=site, assets_dir=tmp_path / "a").sections[0].text
    assert "\\int_^ f(t),dt$" in text  # MDX and Markdown read it: what the page shows without the plugin


def test_text_directives_the_sites_remark_plugins_render(tmp_path: Path) -> None:
    """authentik's docs add remark plugins of their own (beforeDefaultRemarkPlugins:
    remarkVersionDirective from ./remark/version-directive) that draw ':ak-version[2024.6]' and
    ':ak-enterprise' as badges: the directive showed as text, in headings too. A directive such a
    plugin renders keeps its [label] only; other colons, code, and directives no plugin of the
    site names stay as written."""
    from murar.ingest.markup.mdx import convert_mdx

    (tmp_path / "remark").mkdir()
    (tmp_path / "remark" / "version-directive.ts").write_text(
        'import { visit, SKIP } from "unist-util-visit";\nexport default function v() {\n'
        '  return (tree) => visit(tree, "textDirective", (node) => {\n'
        '    if (node.name !== "ak-version") return SKIP;\n    node.data = {hName: "span"};\n  });\n}\n')
    (tmp_path / "remark" / "enterprise.mjs").write_text(
        'export default () => (tree) => visit(tree, "textDirective", (node) => {\n'
        '  if ("ak-enterprise" === node.name) { node.children = []; }\n});\n')
    (tmp_path / "docusaurus.config.ts").write_text(
        'import remarkVersion from "./remark/version-directive";\nconst ent = require("./remark/enterprise.mjs");\n'
        "const config = {presets: [['classic', {docs: {sidebarPath: './sidebars.js', "
        "beforeDefaultRemarkPlugins: [remarkVersion, ent]}}]]};\nexport default config;\n")
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "events.md"
    page.write_text("# Events\n\n## Audit logging :ak-enterprise\n\nSince :ak-version[2024.6], at 10:30 "
                    "(16:9), not :other-thing; `:ak-enterprise` in code.\n")
    doc = convert_mdx(page, site=DocusaurusSite.load(tmp_path, "docusaurus.config.ts"), assets_dir=tmp_path / "a")
    section = doc.sections[-1]
    assert section.heading_path[-1] == "Audit logging"
    assert "Since 2024.6, at 10:30 (16:9), not :other-thing; :ak-enterprise in code." in section.text


def test_npm2yarn_code_blocks_are_package_manager_tabs(tmp_path: Path) -> None:
    """@docusaurus/remark-plugin-npm2yarn in a docs instance's remarkPlugins: a block whose meta is
    'npm2yarn' is a tab set (npm as written, then Yarn and pnpm converted as npm-to-yarn converts:
    Docusaurus 3's default converters); 'converters' narrows them; a block with another meta and a
    site without the plugin keep the code alone."""
    from murar.ingest.markup.mdx import convert_mdx

    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "install.mdx"
    page.write_text("# Install\n\nInstall it:\n\n```bash npm2yarn\nnpm install --save-dev widget\nnpm run build\n```\n\n"
                    "```bash title=\"x\"\nnpm ci\n```\n")
    (tmp_path / "package.json").write_text('{"dependencies": {"@docusaurus/core": "^3.5.0"}}')
    config = ("const npm2yarn = require('@docusaurus/remark-plugin-npm2yarn');\nmodule.exports = {\n"
              "  presets: [['classic', {docs: {sidebarPath: './sidebars.js', remarkPlugins: [%s]}}]],\n};\n")
    (tmp_path / "docusaurus.config.js").write_text(config % "[npm2yarn, {sync: true}]")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    doc = convert_mdx(page, site=site, assets_dir=tmp_path / "a")
    text = doc.sections[0].text
    assert "npm install --save-dev widget\nnpm run build" in text
    assert "Yarn\n\nyarn add --dev widget\nyarn build" in text
    assert "pnpm\n\npnpm add --save-dev widget\npnpm run build" in text
    assert "npm ci" in text and "yarn ci" not in text
    (tmp_path / "docusaurus.config.js").write_text(config % "[npm2yarn, {converters: ['pnpm']}]")
    text = convert_mdx(page, site=DocusaurusSite.load(tmp_path, "docusaurus.config.js"),
                       assets_dir=tmp_path / "a").sections[0].text
    assert "pnpm add --save-dev widget" in text and "yarn" not in text
    (tmp_path / "docusaurus.config.js").write_text(config % "")
    text = convert_mdx(page, site=DocusaurusSite.load(tmp_path, "docusaurus.config.js"),
                       assets_dir=tmp_path / "a").sections[0].text
    assert "yarn" not in text and "pnpm" not in text


@pytest.mark.parametrize(("npm", "yarn", "pnpm"), [
    # each row checked with npm-to-yarn 2.2.1 under Node (convert(code, 'yarn'/'pnpm'))
    ("npm install", "yarn install", "pnpm install"),
    ("npm i -D ts-jest @types/jest", "yarn add --dev ts-jest @types/jest", "pnpm add -D ts-jest @types/jest"),
    ("npm install -g widget", "yarn global add widget", "pnpm add -g widget"),
    ("npm run build -- --watch", "yarn build --watch", "pnpm run build --watch"),
    ("npm run test", "yarn run test", "pnpm run test"),
    ("npm init widget@latest", "yarn create widget@latest", "pnpm create widget@latest"),
    ("cd x && npm install y", "cd x && yarn add y", "cd x && pnpm add y"),
    ("npm uninstall widget", "yarn remove widget", "pnpm remove widget"),
    ("npm ls a b --depth=0", 'yarn list --pattern "a|b" --depth=0', "pnpm ls a b --depth 0"),
    ("npm ci", "npm ci\n# couldn't auto-convert command", "npm ci\n# couldn't auto-convert command"),
    ("npx widget --init", "npx widget --init", "npx widget --init"),
])
def test_npm2yarn_conversion_follows_npm_to_yarn(npm: str, yarn: str, pnpm: str) -> None:
    from murar.ingest.sites._npm2yarn import convert_npm

    assert (convert_npm(npm, "yarn"), convert_npm(npm, "pnpm")) == (yarn, pnpm)


@pytest.mark.parametrize("module", [
    ("const locales = ['en', 'ja', 'pt-BR'];\nmodule.exports = {\n  defaultLocale: 'en',\n  locales,\n};\n", "i18n.js"),
    ("export default {defaultLocale: 'en', locales: ['en', 'ja', 'pt-BR']};\n", "i18n.ts"),
    ('{"defaultLocale": "en", "locales": ["en", "ja", "pt-BR"]}', "i18n.json"),
])
def test_i18n_config_from_a_local_module(tmp_path: Path, module: tuple[str, str]) -> None:
    """Docusaurus loads its config as a Node module: `i18n` written as a name bound to a local
    module (`const i18n = require('./i18n')`, Jest's website) is that module's exported object,
    its `locales` possibly a shorthand for a const array; --language reads one of them."""
    code, name = module
    (tmp_path / name).write_text(code)
    (tmp_path / "docusaurus.config.js").write_text(
        f"const i18n = require('./{name.rsplit('.', 1)[0]}');\nmodule.exports = {{\n  i18n,\n"
        "  presets: [['classic', {docs: {}}]],\n};\n")
    for rel in ("docs/intro.md", "i18n/ja/docusaurus-plugin-content-docs/current/intro.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# T\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js", variant=SiteVariant(language="ja"))
    assert site.config.language == "ja"
    assert _pages(site, tmp_path) == ["i18n/ja/docusaurus-plugin-content-docs/current/intro.md"]
    with pytest.raises(ConfigError, match="en, ja, pt-BR"):
        DocusaurusSite.load(tmp_path, "docusaurus.config.js", variant=SiteVariant(language="xx"))


def test_a_code_block_title_is_shown_above_its_code(tmp_path: Path) -> None:
    """Docusaurus shows a code block's title="..." meta in a title bar above the code
    (theme-common parseCodeBlockTitle); the file name is page text before the code."""
    from murar.ingest.markup.mdx import convert_mdx

    (tmp_path / "docusaurus.config.js").write_text("module.exports = {};\n")
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "setup.mdx"
    page.write_text("# Setup\n\nCreate the config:\n```js title=\"widget.config.js\" showLineNumbers\n"
                    "module.exports = {};\n```\n\n```js\nconst title = 'none';\n```\n")
    site = DocusaurusSite.load(tmp_path, "docusaurus.config.js")
    text = convert_mdx(page, site=site, assets_dir=tmp_path / "a").sections[0].text
    assert "Create the config:\n\nwidget.config.js\n\nmodule.exports = {};" in text
    assert text.count("widget.config.js") == 1


def test_a_docs_folder_beside_the_site_folder_is_named_when_it_is_not_read(tmp_path: Path) -> None:
    """Docusaurus resolves a content plugin's ``path`` from the site folder, so ``path: '../docs'``
    (a website/ folder next to docs/, as in many repositories) reads the sibling folder. Ingesting
    website/ alone cannot read it (nothing outside the root is read); the site says so and names
    the folder to ingest instead, rather than ending with 'no pages' and no reason."""
    repo = tmp_path / "repo"
    (repo / "website").mkdir(parents=True)
    (repo / "docs").mkdir()
    (repo / "docs" / "intro.md").write_text("# Intro\n")
    (repo / "website" / "docusaurus.config.js").write_text(
        "module.exports = { presets: [['classic', { docs: { path: '../docs' }, blog: false }]],\n"
        "  plugins: [['@docusaurus/plugin-content-docs', { id: 'etc', path: '/etc' }]] };\n")
    site = DocusaurusSite.load(repo / "website", "docusaurus.config.js")
    assert site.config.content_dirs == ("src/pages",)  # the classic preset's pages plugin
    (note,) = site.config.notes  # '/etc' is not a sibling folder: nothing to suggest
    assert "'../docs'" in note and "not read" in note and f"ingest {repo.resolve()} " in note
    whole = DocusaurusSite.load(repo, "website/docusaurus.config.js")  # from the repository: read
    assert whole.config.content_dirs == ("docs", "website/src/pages") and whole.config.notes == ()


def test_npm2yarn_bare_double_dash_is_left_unconverted_not_a_failed_page() -> None:
    # 'npm --': npm-to-yarn drops the '--', leaving no sub-command, which no table holds (its
    # "couldn't auto-convert" branch); reading args[0] of the empty list raised IndexError and the
    # page holding the block failed whole
    from murar.ingest.sites._npm2yarn import convert_npm, npm2yarn_tabs

    assert convert_npm("npm --", "yarn") == "npm --\n# couldn't auto-convert command"
    tabs = npm2yarn_tabs("```bash npm2yarn\nnpm --\nnpm install x\n```\n", ("yarn", "pnpm"))
    assert "yarn add x" in tabs and "pnpm add x" in tabs


def test_a_config_written_with_quoted_keys_is_read_as_javascript(tmp_path: Path) -> None:
    """A docusaurus.config.js written JSON-style ("presets": [...], "docs": {"path": "../docs"}, as
    Apache projects write theirs) is the same JavaScript object: its presets, plugins, content
    paths, baseUrl and i18n are read as with bare keys (the docs beside website/ read from the
    repository, the second docs instance, the locales)."""
    repo = tmp_path / "repo"
    (repo / "website").mkdir(parents=True)
    (repo / "docs").mkdir()
    (repo / "docs" / "intro.md").write_text("# Intro\n")
    (repo / "website" / "docusaurus.config.js").write_text(
        'module.exports={\n  "title": "Pumps",\n  "baseUrl": "/pumps/",\n'
        '  "i18n": {"defaultLocale": "en", "locales": ["en", "fr"]},\n'
        '  "presets": [\n    [\n      "@docusaurus/preset-classic",\n'
        '      {\n        "docs": {\n          "path": "../docs",\n          "routeBasePath": "/docs/latest",\n'
        '          "sidebarPath": "sidebars.json"\n        },\n        "blog": {}\n      }\n    ]\n  ],\n'
        '  "plugins": [["@docusaurus/plugin-content-docs", {"id": "api", "path": "api", '
        '"sidebarPath": "sidebars-api.json"}]]\n}\n')
    site = DocusaurusSite.load(repo, "website/docusaurus.config.js")
    assert site.config.content_dirs == ("docs", "website/blog", "website/src/pages", "website/api")
    assert site.config.base_url == "/pumps/" and site.config.language == "en"
    assert site.config.settings["routeBasePath"] == "/docs/latest"


def test_image_url_on_the_sites_own_address_is_its_static_file(tmp_path: Path) -> None:
    """A page linking a picture by the site's published address (``url`` + ``baseUrl``,
    Docusaurus "docusaurus.config.js": url is the site's URL) shows the file of a static
    folder; a URL on that host naming no file of the site stays remote, as do other hosts."""
    root = tmp_path / "site"
    (root / "static" / "img").mkdir(parents=True)
    (root / "static" / "img" / "shot.png").write_bytes(b"x")
    (root / "docusaurus.config.js").write_text(
        "module.exports = {\n  title: 'X',\n  url: 'https://docs.example.com',\n  baseUrl: '/guide/',\n"
        "  themeConfig: { navbar: { items: [{ href: 'https://github.com/x', label: 'GitHub' }] } },\n};\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    page = "docs/intro.md"
    assert site.resolve_asset("https://docs.example.com/guide/img/shot.png", page_rel=page).rel_path == \
        "static/img/shot.png"
    assert site.resolve_asset("https://DOCS.example.com/img/shot.png?w=2", page_rel=page).rel_path == \
        "static/img/shot.png"
    assert site.resolve_asset("https://docs.example.com/guide/img/gone.png", page_rel=page).url == \
        "https://docs.example.com/guide/img/gone.png"
    assert site.resolve_asset("https://cdn.example.org/img/shot.png", page_rel=page).url is not None
