"""MkDocs rules found by rebuilding real sites (made-up pages reproducing each pattern)."""

from __future__ import annotations

from pathlib import Path

from sample_png import PNG_64PX as PNG

from murar.ingest.markup.pymdown import convert_pymdown
from murar.ingest.sites.base import FileRole
from murar.ingest.sites.mkdocs import MkDocsSite
from murar.schema import ImageItem, ParsedDocument


def _convert_page(tmp_path: Path, config: str, page: str, *, rel: str = "p.md") -> ParsedDocument:
    """``page`` as ``docs/<rel>`` of a project whose ``mkdocs.yml`` is ``config``, converted."""
    root = tmp_path / "proj"
    path = root / "docs" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    (root / "mkdocs.yml").write_text(config)
    path.write_text(page)
    return convert_pymdown(path, site=MkDocsSite.load(root, "mkdocs.yml"), assets_dir=tmp_path / "a")


def test_superfences_tab_option_makes_consecutive_fences_a_tab_set(tmp_path: Path) -> None:
    """Traefik's pages (pymdown-extensions 7.0): ```yaml tab="Docker" fences in a row are one tab set
    whose tabs are labelled (SuperFences' legacy tab option); murar showed the code blocks one after
    the other without the labels, so which configuration was which was lost. A paragraph ends a set;
    an empty tab label is the language; fences nested in an admonition are tabs too."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - admonition\n  - pymdownx.superfences\n",
                        '# P\n\nStatic:\n\n```yaml tab="File (YAML)"\napi:\n  dashboard: true\n```\n\n'
                        '```toml tab="File (TOML)"\n[api]\n  dashboard = true\n```\n\nDynamic:\n\n'
                        '```bash tab=""\n--api.insecure=true\n```\n\n'
                        '!!! note "Nested"\n\n    ```toml tab="TOML"\n    [entryPoints]\n    ```\n\n'
                        '````md\n```yaml tab="Literal"\nx: 1\n```\n````\n')
    text = doc.sections[0].text
    assert "File (YAML)\n\napi:\n  dashboard: true\n\nFile (TOML)\n\n[api]\n  dashboard = true\n\nDynamic:" in text
    assert "bash\n\n--api.insecure=true" in text
    assert "Note: Nested\n\nTOML\n\n[entryPoints]" in text
    assert '```yaml tab="Literal"\nx: 1\n```' in text  # a fence inside another fence is code
    assert "murar-tabs" not in text and "===" not in text


def test_superfences_tab_option_needs_superfences(tmp_path: Path) -> None:
    doc = _convert_page(tmp_path, "site_name: S\n", '# P\n\n```yaml tab="Docker"\na: 1\n```\n')
    assert "Docker" not in doc.sections[0].text


def _raw_html_site(tmp_path: Path, config: str) -> Path:
    root = tmp_path / "proj"
    for rel in ("docs/assets/img/dash.png", "docs/ops/shots/b.png"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(PNG)
    (root / "mkdocs.yml").write_text(config)
    (root / "docs" / "ops").mkdir(exist_ok=True)
    (root / "docs" / "ops" / "dashboard.md").write_text(
        '# Dashboard\n\nThe central place.\n\n<figure>\n    <img src="../../assets/img/dash.png" alt="Dashboard" />\n'
        "    <figcaption>The dashboard in action</figcaption>\n</figure>\n\n![Shot](shots/b.png)\n")
    (root / "docs" / "ops" / "index.md").write_text('# Ops\n\n<img src="../../assets/img/dash.png" alt="Up two">\n')
    return root


def test_raw_html_image_is_relative_to_the_page_url(tmp_path: Path) -> None:
    """Traefik's dashboard page: <img src="../../assets/img/x.png"> in raw HTML from operations/dashboard.md.
    MkDocs leaves raw HTML as written and serves the page at operations/dashboard/ (use_directory_urls),
    so the browser loads assets/img/x.png; murar resolved it from the file's folder (docs/assets/img, not
    found). Markdown links stay relative to the file; an index page is served at its own folder."""
    root = _raw_html_site(tmp_path, "site_name: S\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs/ops/dashboard.md", site=site, assets_dir=tmp_path / "a")
    assert [(m.alt, m.caption, m.path) for m in doc.media] == [
        ("Dashboard", "The dashboard in action", "docs/assets/img/dash.png"), ("Shot", "", "docs/ops/shots/b.png")]
    assert not doc.warnings
    index = convert_pymdown(root / "docs/ops/index.md", site=site, assets_dir=tmp_path / "b")
    assert index.warnings == ["image assets/img/dash.png: file not found"]  # index.md is served at ops/


def test_use_directory_urls_false_keeps_links_relative_to_the_file(tmp_path: Path) -> None:
    root = _raw_html_site(tmp_path, "site_name: S\nuse_directory_urls: false\n")
    doc = convert_pymdown(root / "docs/ops/dashboard.md", site=MkDocsSite.load(root, "mkdocs.yml"),
                          assets_dir=tmp_path / "a")
    assert doc.warnings and "docs/assets/img/dash.png" not in [m.path for m in doc.media]


def test_markdown_include_files_are_includes_not_pages(tmp_path: Path) -> None:
    """Traefik: content/includes/traefik-for-business-applications.md is pulled into pages with
    {!traefik-for-business-applications.md!} (markdown_include, base_path content/includes/); murar also
    read it as a page of its own, so its box came back twice. Like --8<-- snippets it is now an include."""
    root = tmp_path / "proj"
    (root / "content" / "includes").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: S\ndocs_dir: content\nmarkdown_extensions:\n"
                                     "  - markdown_include.include:\n      base_path: content/includes/\n")
    (root / "content" / "includes" / "business.md").write_text('!!! question "In production?"\n\n    Ask us.\n')
    (root / "content" / "includes" / "unused.md").write_text("# Unused\n")
    (root / "content" / "start.md").write_text("# Start\n\nRun it.\n\n{!business.md!}\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    assert site.classify("content/includes/business.md").role is FileRole.INCLUDE
    assert site.classify("content/includes/unused.md").role is FileRole.PAGE
    doc = convert_pymdown(root / "content" / "start.md", site=site, assets_dir=tmp_path / "a")
    assert doc.sections[0].text == "Run it.\n\nQuestion: In production?\n\nAsk us."


def test_markdown_include_heading_offset_and_inherited_depth(tmp_path: Path) -> None:
    """NetBox (markdown_include with headingOffset: 1): a feature page '# Devices' pulls in model pages
    written with '# Device'; the extension adds one '#' to every line of the included text that starts
    with '#', so the model is a section under the page heading. murar read the included '# Device' as a
    second top-level heading. inheritHeadingDepth adds the depth of the heading before the include too."""
    root = tmp_path / "proj"
    (root / "docs" / "models").mkdir(parents=True)
    (root / "docs" / "models" / "device.md").write_text("# Device\n\nA piece of hardware.\n\n## Fields\n\nName.\n")
    (root / "docs" / "devices.md").write_text("# Devices and Cabling\n\nIntro.\n\n{!docs/models/device.md!}\n")
    (root / "mkdocs.yml").write_text("site_name: S\nmarkdown_extensions:\n  - markdown_include.include:\n"
                                     "      headingOffset: 1\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "devices.md", site=site, assets_dir=tmp_path / "a")
    assert [s.heading_path for s in doc.sections] == [
        ("Devices and Cabling",), ("Devices and Cabling", "Device"), ("Devices and Cabling", "Device", "Fields")]
    (root / "mkdocs.yml").write_text("site_name: S\nmarkdown_extensions:\n  - markdown_include.include:\n"
                                     "      inheritHeadingDepth: true\n")
    (root / "docs" / "devices.md").write_text("# Devices\n\n## Models\n\n{!docs/models/device.md!}\n")
    site = MkDocsSite.load(root, "mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "devices.md", site=site, assets_dir=tmp_path / "b")
    assert doc.sections[-1].heading_path == ("Devices", "Models", "Device", "Fields")


def test_a_page_without_a_title_has_the_title_mkdocs_gives_it(tmp_path: Path) -> None:
    """Knative and Mealie pages start with text, no '# Title': MkDocs titles them from their nav entry
    (Page.title; Material shows it as the page's h1), else from the file name; murar used the file stem
    ('first-source') as the page title and the first heading of every section path."""
    root = tmp_path / "proj"
    (root / "docs" / "getting-started").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        "site_name: S\nnav:\n  - Home: index.md\n  - Getting Started:\n      - Events:\n"
        "          - Introducing the Player: getting-started/first-source.md\n  - Community: https://example.org\n")
    (root / "docs" / "getting-started" / "first-source.md").write_text("Intro text.\n\n## Creating a source\n\nRun it.\n")
    (root / "docs" / "getting-started" / "clean_up-steps.md").write_text("Delete it.\n")
    (root / "docs" / "index.md").write_text("Welcome.\n")
    (root / "docs" / "titled.md").write_text("# Own Title\n\nText.\n")
    site = MkDocsSite.load(root, "mkdocs.yml")

    def convert(rel: str) -> ParsedDocument:
        return convert_pymdown(root / "docs" / rel, site=site, assets_dir=tmp_path / "a")

    doc = convert("getting-started/first-source.md")
    assert doc.title == "Introducing the Player"
    assert [s.heading_path for s in doc.sections] == [("Introducing the Player",),
                                                      ("Introducing the Player", "Creating a source")]
    assert convert("getting-started/clean_up-steps.md").title == "Clean up steps"
    assert convert("index.md").title == "Home"
    assert convert("titled.md").title == "Own Title"


def _media_site(tmp_path: Path, config: str, page: str) -> ParsedDocument:
    root = tmp_path / "proj"
    for rel in ("docs/img/a.png", "docs/img/b c.png", "docs/img/d.png", "docs/img/e.png"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(PNG)
    (root / "docs" / "clips").mkdir(exist_ok=True)
    (root / "docs" / "clips" / "tour.webm").write_bytes(b"\x1aE\xdf\xa3 not a real video")
    return _convert_page(tmp_path, config, page, rel="guide/p.md")


def test_fancyboxmd_double_bang_images_are_captioned_figures(tmp_path: Path) -> None:
    """QField's docs (fancyboxmd 1.1.0): ``!![Title](img.png, 800px "Description")`` is a figure whose
    caption is the description (``""`` none), else the title; the link's part before a comma is the
    file. murar left a "!" in the text before each image, and with a width the whole line leaked as
    text and the image was lost (or looked for as "img.png,1000px")."""
    page = ("# Guide\n\nOpen the form.\n\n!![Form](../img/a.png \"\")\n\nPick a layer.\n\n"
            "!![Layer list](../img/b c.png, 800 px)\n\nSet the path:\n\n!![](../img/d.png,1000px \"The path dialog\")\n\n"
            "Done !![Tip](../img/e.png) here.\n\n```md\n!![Literal](../img/a.png)\n```\n\n`!![code](x.png)`\n")
    doc = _media_site(tmp_path, "site_name: S\nmarkdown_extensions:\n  - fancyboxmd\n", page)
    text = doc.sections[0].text
    prose = text.split("!![Literal]")[0]
    assert "!" not in prose and "800 px" not in prose and "1000px" not in prose
    assert "Done here." in prose
    images = [(m.path.split("/")[-1], m.alt, m.caption) for m in doc.media if m.kind == "image"]
    assert images == [("a.png", "Form", ""), ("b c.png", "Layer list", "Layer list"),
                      ("d.png", "", "The path dialog"), ("e.png", "Tip", "Tip")]
    assert "!![Literal](../img/a.png)" in text and "!![code](x.png)" in text  # code stays as written
    assert not any("not found" in w for w in doc.warnings)


def test_double_bang_is_plain_markdown_without_fancyboxmd(tmp_path: Path) -> None:
    doc = _media_site(tmp_path, "site_name: S\n", "# Guide\n\n!![Form](../img/a.png)\n")
    assert [m.caption for m in doc.media] == [""]
    assert "!" in doc.sections[0].text


def test_mkdocs_video_mark_makes_an_image_link_a_video(tmp_path: Path) -> None:
    """QField's docs (mkdocs-video 1.5.0): the plugin replaces every ``<img>`` whose alt text is its
    ``mark`` (default ``type:video``) by a video player of the image's src. murar read
    ``![type:video](clip.webm)`` as an image (alt "type:video", "corrupt or not an image")."""
    page = "# Guide\n\nWatch the tour.\n\n![type:video](../clips/tour.webm)\n\n![Shot](../img/a.png)\n"
    doc = _media_site(tmp_path, "site_name: S\nplugins:\n  - search\n  - mkdocs-video\n", page)
    assert [(m.kind, (getattr(m, "path", None) or getattr(m, "url", "")).split("/")[-1]) for m in doc.media] == [
        ("video", "tour.webm"), ("image", "a.png")]
    assert not any("not an image" in w for w in doc.warnings)
    custom = _media_site(tmp_path, "site_name: S\nplugins:\n  - mkdocs-video:\n      mark: movie\n",
                         "# Guide\n\n![movie](https://www.youtube.com/embed/abc)\n\n![type:video](../img/a.png)\n")
    assert [m.kind for m in custom.media] == ["video", "image"]
    plain = _media_site(tmp_path, "site_name: S\n", page)  # without the plugin it is an image
    assert [m.kind for m in plain.media] == ["image", "image"]


def test_literate_nav_titles_untitled_pages(tmp_path: Path) -> None:
    # mkdocs-literate-nav: the nav is SUMMARY.md (or the plugin's nav_file), its '* [Title](page.md)' items
    # title the pages (links relative to the nav file's folder); a page without '# Title' takes that title
    root = tmp_path / "proj"
    (root / "docs" / "guide").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: S\nplugins:\n  - search\n  - literate-nav:\n      nav_file: NAV.md\n")
    (root / "docs" / "NAV.md").write_text("* [Start here](index.md)\n* Guide\n    * [Setting up the rig](guide/setup.md)\n"
                                          "* [Guide details](guide/)\n")
    (root / "docs" / "guide" / "NAV.md").write_text("- [Tear-down steps](teardown.md)\n")
    (root / "docs" / "guide" / "setup.md").write_text("Plug it in.\n\n## Power\n\nOn.\n")
    (root / "docs" / "guide" / "teardown.md").write_text("Unplug it.\n")
    (root / "docs" / "index.md").write_text("Welcome.\n")
    site = MkDocsSite.load(root, "mkdocs.yml")

    def convert(rel: str) -> ParsedDocument:
        return convert_pymdown(root / "docs" / rel, site=site, assets_dir=tmp_path / "a")

    doc = convert("guide/setup.md")
    assert [s.heading_path for s in doc.sections] == [("Setting up the rig",), ("Setting up the rig", "Power")]
    assert convert("guide/teardown.md").title == "Tear-down steps"
    assert convert("index.md").title == "Start here"


def test_awesome_pages_titles_untitled_pages(tmp_path: Path) -> None:
    # mkdocs-awesome-pages-plugin: a '- Title: page.md' entry of a folder's .pages nav titles that page
    root = tmp_path / "proj"
    (root / "docs" / "ops").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: S\nplugins:\n  - awesome-pages\n")
    (root / "docs" / "ops" / ".pages").write_text(
        "title: Operations\nnav:\n  - first-run.md\n  - Backing up the store: backup.md\n  - ...\n"
        "  - Deep:\n    - Restoring it: restore.md\n")
    for name in ("first-run.md", "backup.md", "restore.md"):
        (root / "docs" / "ops" / name).write_text("Text.\n")
    site = MkDocsSite.load(root, "mkdocs.yml")

    def convert(rel: str) -> ParsedDocument:
        return convert_pymdown(root / "docs" / rel, site=site, assets_dir=tmp_path / "a")

    assert convert("ops/backup.md").title == "Backing up the store"
    assert convert("ops/restore.md").title == "Restoring it"
    assert convert("ops/first-run.md").title == "First run"


def test_emoji_that_state_a_value_keep_their_character(tmp_path: Path) -> None:
    """n8n's docs (workflows/sharing.md) fill a permissions matrix with ':white_check_mark:' and ':x:'
    (pymdownx.emoji): murar dropped the check marks, so every allowed cell read empty, and left ':x:'
    (a one-letter shortcode) as literal text. pymdownx.emoji writes an emoji as a picture whose alt text
    is its character: a check mark, a cross or a warning sign states a value and keeps it; other emoji
    (a face in a sentence) still go, and so do Material icons."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - tables\n  - pymdownx.emoji\n",
                        "# P\n\n| Permissions | Creator | Editor |\n| --- | --- | --- |\n"
                        "| Run | :white_check_mark: | :white_check_mark: |\n| Share | :white_check_mark: | :x: |\n\n"
                        ":warning: Back up first :smile: and :heavy_check_mark:{ .ok } done :material-check: now.\n")
    table = next(m for m in doc.media if m.kind == "table")
    assert table.rows == [["Run", "\u2705", "\u2705"], ["Share", "\u2705", "\u274c"]]
    assert doc.sections[0].text == "\u26a0\ufe0f Back up first and \u2714\ufe0f done now."


def test_a_markdown_figcaption_is_read_as_markdown(tmp_path: Path) -> None:
    """n8n's docs (advanced-ai/examples/*.md) caption a figure with '<figcaption markdown>[Download the
    example workflow](...)</figcaption>': md_in_html renders the Markdown of an element marked
    'markdown', so the caption reads 'Download the example workflow'; murar kept the link syntax in
    the caption. A figcaption without the attribute is HTML: its text stays as written."""
    root = tmp_path / "proj"
    (root / "docs" / "img").mkdir(parents=True)
    (root / "docs" / "img" / "a.png").write_bytes(PNG)
    (root / "mkdocs.yml").write_text("site_name: S\nmarkdown_extensions:\n  - md_in_html\n")
    (root / "docs" / "p.md").write_text(
        "# P\n\n<figure markdown>\n![Two workflows](img/a.png)\n"
        '<figcaption markdown="span">[Download the **example** workflow](/_workflows/x.json)</figcaption>\n'
        "</figure>\n\n<figure markdown>\n![Other](img/a.png)\n<figcaption>Keep *as* written</figcaption>\n</figure>\n")
    doc = convert_pymdown(root / "docs" / "p.md", site=MkDocsSite.load(root, "mkdocs.yml"), assets_dir=tmp_path / "a")
    assert [m.caption for m in doc.media] == ["Download the example workflow", "Keep *as* written"]


def test_a_figure_keeps_its_content_tabs_and_captions_reference_images(tmp_path: Path) -> None:
    """Material for MkDocs' own docs (setup/changing-the-colors.md) put content tabs in a figure:
    '<figure markdown="1">' + '=== "Light mode"' + an indented '[![Light mode][11]][11]' + a
    '<figcaption markdown="1">'. murar stripped every line of the figure, so the tab bodies left
    their tabs (images without their tab) and the reference images kept no caption. The figure's
    lines lose only their common indentation; a reference image takes the caption with the URL
    its definition gives; a reference link in the caption ('[text][ref]', '[ref]') reads as its text."""
    root = tmp_path / "proj"
    (root / "docs" / "img").mkdir(parents=True)
    for name in ("a", "b", "c"):
        (root / "docs" / "img" / f"{name}.png").write_bytes(PNG)
    (root / "mkdocs.yml").write_text("site_name: S\nmarkdown_extensions:\n  - md_in_html\n  - attr_list\n"
                                     "  - pymdownx.superfences\n  - pymdownx.tabbed:\n      alternate_style: true\n")
    (root / "docs" / "p.md").write_text(
        '# P\n\n<figure markdown="1">\n\n=== "Light mode"\n\n    [![Light mode][1]][1]\n\n'
        '=== "Dark mode"\n\n    [![Dark mode][2]][2]\n\n  <figcaption markdown="1">\n\n'
        "A demo, see [the demo][3] and [Tabs]\n\n  </figcaption>\n</figure>\n\n"
        '<figure markdown>\n  ![Plain](img/c.png){ width="300" }\n  <figcaption>Plain caption</figcaption>\n</figure>\n\n'
        "  [1]: img/a.png\n  [2]: img/b.png\n  [3]: https://example.com\n  [tabs]: #t\n")
    doc = convert_pymdown(root / "docs" / "p.md", site=MkDocsSite.load(root, "mkdocs.yml"), assets_dir=tmp_path / "a")
    images = [m for m in doc.media if m.kind == "image"]
    assert [(m.path, m.tab, m.caption) for m in images] == [
        ("docs/img/a.png", "Light mode", "A demo, see the demo and Tabs"),
        ("docs/img/b.png", "Dark mode", "A demo, see the demo and Tabs"),
        ("docs/img/c.png", "", "Plain caption")]


def test_a_reference_link_with_a_space_or_line_break_before_its_label(tmp_path: Path) -> None:
    """Material for MkDocs' own docs (setup/setting-up-social-cards.md) write '[colors]\\n[palette.primary]'
    and '[`site_url`]\\n[site_url]': Python-Markdown's reference pattern allows one whitespace
    character between text and label, so the site shows the links 'colors' and 'site_url'; murar
    read them as CommonMark does, '[colors] palette.primary'. Joined when the label is defined on
    the page; undefined labels and code spans stay as written."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - attr_list\n",
                        "# P\n\nUsing the [colors]\n[palette.primary], [fonts][font.text] and a valid [`site_url`]\n"
                        "[site_url], [two] [palette.primary] words, not [undefined] [nothing] nor `[a] [site_url]`.\n\n"
                        "  [palette.primary]: colors.md#primary\n  [font.text]: fonts.md\n"
                        "  [site_url]: https://example.com\n")
    assert doc.sections[0].text == ("Using the colors, fonts and a valid site_url, two words, "
                                    "not [undefined] [nothing] nor [a] [site_url].")


def test_a_link_definition_in_fenced_code_is_code_not_a_definition(tmp_path: Path) -> None:
    """The page's link reference definitions are read once, fenced code skipped, labels folded as
    CommonMark folds them (case, runs of white space). A '[palette]: ...' line shown in a fenced
    example defines nothing: '[colors] [palette]' stays as written (it was joined into a reference
    to that code line, '[colors][palette]'), and the autoref '[Bus][kettle.Bus]' shows its title
    (it was kept as a reference the page seemed to define). A label defined outside code with other
    case and spacing ('[Guide  Ref]' for '[guide ref]: ...') still counts."""
    doc = _convert_page(tmp_path, "site_name: S\nplugins:\n  - mkdocstrings\n",
                        "# P\n\nUse the [colors] [palette] and [Bus][kettle.Bus], [the guide] [Guide  Ref].\n\n"
                        "```md\n[palette]: colors.md\n[kettle.bus]: api.md\n```\n\n[guide ref]: https://example.org/g\n")
    text = doc.sections[0].text
    assert text.startswith("Use the [colors] [palette] and Bus, the guide."), text
    assert "[palette]: colors.md" in text


def test_joining_spaced_reference_lines_stays_linear() -> None:
    """A paragraph of 20,000 lines each '[a] `b` [a]' (every line joins the one before): the
    joined line was copied and searched again at each join (8.5 s); joins stop at 10,000
    characters, so the pass stays linear."""
    from murar.ingest.markup.pymdown import _spaced_references

    # no wall-clock bound (a loaded CI machine took 6 s): the joined line is what grew
    out = _spaced_references(["x [a]"] + ["[a] `b` [a]"] * 20_000 + ["", "[a]: u"])
    assert max(len(line) for line in out) < 10_100


def test_a_reference_link_followed_by_a_footnote_marker_is_a_link(tmp_path: Path) -> None:
    """Material for MkDocs' own docs write '[logo][^1]' and '[git-committers][^2]' (a link, then
    a footnote): Python-Markdown's footnote pattern runs before the reference one, so the site
    shows the link 'logo' and the marker; CommonMark took '[^1]' as the link's label and murar
    showed '[logo]'. Undefined links and code spans stay as written."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - footnotes\n",
                        "# P\n\nThe [logo][^1] and the [git-committers][^2] plugin, not [nope][^1] nor `[logo][^1]`.\n\n"
                        "  [^1]: A note.\n  [^2]: Another.\n\n  [logo]: logo.md\n"
                        "  [git-committers]: https://example.com\n")
    assert doc.sections[0].text.startswith("The logo and the git-committers plugin, not [nope] nor [logo][^1].")


def test_md_in_html_keeps_code_indentation_and_leaves_fenced_examples_alone(tmp_path: Path) -> None:
    """Material for MkDocs' own docs (reference/annotations.md) show each example's result in a
    '<div class="result" markdown>' and the HTML form in a fenced block. murar put every line of a
    markdown element at the tag's indentation, so code in it lost its indentation ('return 1'
    flush left) and nested list items their nesting; and it rewrote the tags inside the fenced
    example ('<div class="annotate" markdown>' shown without 'markdown', a blank line doubled).
    Inner lines keep their indentation now (only a line less indented than the tag is put under
    it) and fenced code stays as written."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - md_in_html\n  - pymdownx.superfences\n",
                        '# P\n\n```` html\n<div class="annotate" markdown>\n\n> Lorem\n\n</div>\n````\n\n'
                        '<div class="result" markdown>\n\n``` python\ndef f():\n    return 1\n```\n\n</div>\n\n'
                        "!!! note\n\n    <div markdown>\nUnder the tag\n    </div>\n")
    text = doc.sections[0].text
    assert text.startswith('<div class="annotate" markdown>\n\n> Lorem\n\n</div>\n\n')
    assert "def f():\n    return 1" in text
    assert text.endswith("Under the tag")


def test_macros_pages_that_loop_over_data_with_an_imported_macro_are_rendered(tmp_path: Path) -> None:
    """n8n's function references (code/builtin/data-transformation-functions/*.md) are nothing but
    '[[% import "_macros/data-functions.html" as dataFunctions %]]' and a '[[% for func in df_array %]]'
    loop calling the imported macro over include_yaml data; murar dropped the tags and printed the
    loop body once with nothing in it, so each page read as its one-line introduction. Jinja2 now
    renders such a page (bounded sandbox); a Python macro of the site still prints nothing, with
    the warning, and a snippet the macro writes is inserted after it."""
    root = tmp_path / "proj"
    (root / "docs" / "_macros").mkdir(parents=True)
    (root / "_yaml").mkdir()
    (root / "_snippets").mkdir()
    (root / "mkdocs.yml").write_text(
        'site_name: S\nmarkdown_extensions:\n  - md_in_html\n  - pymdownx.snippets\nplugins:\n  - macros:\n'
        '      include_yaml:\n        - _yaml/fns.yml\n      j2_block_start_string: "[[%"\n'
        '      j2_block_end_string: "%]]"\n      j2_variable_start_string: "[["\n      j2_variable_end_string: "]]"\n')
    (root / "_yaml" / "fns.yml").write_text(
        "df_array:\n  - funcName: chunk\n    returns: Array\n    description: Splits arrays into chunks.\n"
        "    args:\n      - argName: size\n        optional: false\n  - funcName: sum\n    returns: Number\n"
        "    description: Adds the values up.\n    examples:\n      - code: sum\n")
    (root / "_snippets" / "sum.md").write_text("```js\n{{ [1, 2].sum() }}\n```\n")
    (root / "docs" / "_macros" / "fns.html").write_text(
        '[[% macro card(name, returns, description, args, examples) %]]\n<div class="fn" markdown>\n'
        "<h3>[[ name ]]([[% for a in args %]][[ a.argName ]][[% if a.optional %]]?[[% endif %]][[% endfor %]]): "
        "[[ returns ]]</h3>\n<p>[[ description ]]</p>\n[[% for e in examples %]]\n"
        '--8<-- "_snippets/[[ e.code ]].md"\n[[% endfor %]]\n</div>\n[[% endmacro %]]\n')
    (root / "docs" / "arrays.md").write_text(
        '# Arrays\n\nFunctions for arrays.\n\n[[% import "_macros/fns.html" as fns %]]\n\n'
        "[[% for f in df_array %]]\n[[ fns.card(f.funcName, f.returns, f.description, f.args, f.examples) ]]\n"
        "[[% endfor %]]\n\n[[ templatesWidget(page.title, 'arrays') ]]\n")
    doc = convert_pymdown(root / "docs" / "arrays.md", site=MkDocsSite.load(root, "mkdocs.yml"),
                          assets_dir=tmp_path / "a")
    assert doc.sections[0].text == ("Functions for arrays.\n\nchunk(size): Array\n\nSplits arrays into chunks.\n\n"
                                    "sum(): Number\n\nAdds the values up.\n\n{{ [1, 2].sum() }}")
    assert [w for w in doc.warnings if w.startswith("macros")] == [
        "macros: 1 expression(s) not rendered (site macros are not run): 'templatesWidget'"]


def test_a_termless_definition_keeps_its_indented_blocks_after_a_lazy_line(tmp_path: Path) -> None:
    """paperless-ngx's configuration.md: each setting is a heading, then ': text' wrapped onto unindented
    lines (a paragraph's lazy continuation), then indented blocks (a list, 'Defaults to ...', a '!!!
    warning'): Python-Markdown's DefListIndentProcessor keeps them all in the <dd>. murar ended the
    definition at the first unindented line, so every block after it read as code, its Markdown
    (links, backticks, '!!! warning', a fenced block in it) shown as written. A line after a blank line
    still ends it."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - def_list\n  - admonition\n", (
        "# Configuration\n\n#### [`PAPERLESS_DBENGINE=<engine>`](#PAPERLESS_DBENGINE) {#PAPERLESS_DBENGINE}\n\n"
        ": Specifies the database engine to use. Accepted values are `sqlite`\nand `mariadb`.\n\n"
        "    Both require [`PAPERLESS_DBHOST`](#PAPERLESS_DBHOST) to be set.\n\n    Defaults to `sqlite`.\n\n"
        "    !!! warning\n        Using MariaDB comes with some caveats.\n\n        ```bash\n        X=1\n        ```\n\n"
        "After the setting.\n\n    code\n"))
    assert doc.sections[1].text == (
        "Specifies the database engine to use. Accepted values are sqlite and mariadb.\n\n"
        "Both require PAPERLESS_DBHOST to be set.\n\nDefaults to sqlite.\n\n"
        "Warning:\n\nUsing MariaDB comes with some caveats.\n\nX=1\n\nAfter the setting.\n\ncode")


def test_a_strikethrough_around_a_code_span_is_read(tmp_path: Path) -> None:
    """paperless-ngx's configuration.md strikes its removed settings through: '#### ~~[`PAPERLESS_DBSSLMODE`]
    (#PAPERLESS_DBSSLMODE)~~ {#PAPERLESS_DBSSLMODE}' (pymdownx.tilde). The code span inside cut the line
    in parts read one by one, so the '~~' pair was never seen and the heading read '~~PAPERLESS_DBSSLMODE~~'.
    Code spans still stay as written."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.tilde\n", (
        "# Configuration\n\n#### ~~[`PAPERLESS_DBSSLMODE`](#PAPERLESS_DBSSLMODE)~~ {#PAPERLESS_DBSSLMODE}\n\n"
        "Use ~~`OLD_NAME`~~ `NEW_NAME` and keep `~~literal~~` as written.\n"))
    assert doc.sections[1].heading_path[-1] == "PAPERLESS_DBSSLMODE"
    assert doc.sections[1].text == "Use OLD_NAME NEW_NAME and keep ~~literal~~ as written."


def test_a_link_text_wrapped_onto_two_lines_keeps_its_space(tmp_path: Path) -> None:
    """paperless-ngx's setup.md wraps a link's text ('[/docker/compose directory on the project\\n
    page](...)'): the line break in a link text is a space, as everywhere else in a paragraph;
    murar dropped it ('on the projectpage')."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - attr_list\n", (
        "# T\n\n1.  Go to the [/docker/compose directory on the project\n"
        '    page](https://x.org/a){:target="\\_blank"}\n    and download.\n'))
    assert doc.sections[0].text == "Go to the /docker/compose directory on the project page and download."


def test_include_variants_line_is_the_code_of_the_file_it_names(tmp_path: Path) -> None:
    """FastAPI's pages (markdown-include-variants, configured as markdown_include_variants): a line
    '{* ../../docs_src/x.py hl[6] *}' is the code block of that file, relative to the folder of
    mkdocs.yml (where mkdocs runs), or of its ln[...] ranges with the extension's 'omitted' lines;
    murar left the line as text and lost the code. Without the extension the line stays as written."""
    root = tmp_path / "proj"
    (root / "docs_src").mkdir(parents=True)
    (root / "docs_src" / "app.py").write_text("import os\n\nA = 1\nB = 2\nC = 3\n")
    config = ("site_name: S\nmarkdown_extensions:\n  pymdownx.blocks.admonition:\n  mdx_include:\n"
              "    base_path: docs\n  markdown_include_variants:\n")
    page = ("# P\n\nWhole:\n\n{* ../../docs_src/app.py hl[3] *}\n\nPart:\n\n{* ../../docs_src/app.py ln[3:4] hl[3] *}\n\n"
            "Gone: {* inline *} stays.\n\n{* ../../docs_src/missing.py *}\n")
    (root / "docs" / "en").mkdir(parents=True)
    (root / "docs" / "en" / "mkdocs.yml").write_text(config)
    (root / "docs" / "en" / "docs").mkdir()
    (root / "docs" / "en" / "docs" / "p.md").write_text(page)
    site = MkDocsSite.load(root, "docs/en/mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "en" / "docs" / "p.md", site=site, assets_dir=tmp_path / "a")
    text = doc.sections[0].text
    assert "Whole:\n\nimport os\n\nA = 1\nB = 2\nC = 3\n\nPart:" in text
    assert "Part:\n\n# Code above omitted 👆\n\nA = 1\nB = 2\n\n# Code below omitted 👇" in text
    assert "{*" not in text.replace("{* inline *}", "")
    assert [w for w in doc.warnings if "include" in w] == [
        "include '../../docs_src/missing.py' not found (tried docs_src/missing.py)"]
    (root / "docs" / "en" / "mkdocs.yml").write_text(config.replace("  markdown_include_variants:\n", ""))
    site = MkDocsSite.load(root, "docs/en/mkdocs.yml")
    doc = convert_pymdown(root / "docs" / "en" / "docs" / "p.md", site=site, assets_dir=tmp_path / "a")
    assert "{* ../../docs_src/app.py hl[3] *}" in doc.sections[0].text


def test_absolute_url_on_site_url_is_the_docs_file(tmp_path: Path) -> None:
    """FastAPI's features page: ![ReDoc](https://fastapi.tiangolo.com/img/index/x.png), site_url
    https://fastapi.tiangolo.com/: MkDocs copies docs/img/index/x.png to that URL, so the picture is
    the docs file; murar kept it as a remote URL. Another host, a path outside site_url's path or a
    file not in docs_dir stays remote."""
    root = tmp_path / "proj"
    (root / "docs" / "img").mkdir(parents=True)
    (root / "docs" / "img" / "shot.png").write_bytes(PNG)
    doc = _convert_page(tmp_path, "site_name: S\nsite_url: https://Docs.example.org/guide/\n",
                        "# P\n\n![own](https://docs.example.org/guide/img/shot.png)\n\n"
                        "![http](http://docs.example.org/guide/img/shot.png)\n\n"
                        "![outside](https://docs.example.org/img/shot.png)\n\n"
                        "![other](https://cdn.example.org/guide/img/shot.png)\n\n"
                        "![absent](https://docs.example.org/guide/img/none.png)\n")
    got = {m.alt: (m.path, m.url) for m in doc.media if isinstance(m, ImageItem)}
    assert got["own"][0] is not None and got["http"][0] is not None
    assert [got[k][0] for k in ("outside", "other", "absent")] == [None, None, None]
    assert got["other"][1] == "https://cdn.example.org/guide/img/shot.png"


def test_markdownextradata_data_folders_give_the_pages_their_variables(tmp_path: Path) -> None:
    """FastAPI's home page (markdownextradata, data: ../en/data): '{% for sponsor in sponsors.gold %}'
    lists docs/en/data/sponsors.yml; murar never read the plugin's data folders, so the loop drew
    nothing. A file's path in the folder is its name (team/core.yml -> team.core); without the data
    option the _data folders beside mkdocs.yml and in docs_dir are read."""
    root = tmp_path / "proj"
    (root / "data" / "team").mkdir(parents=True)
    (root / "data" / "sponsors.yml").write_text("gold:\n  - title: Acme Cloud\n  - title: Widget Co\n")
    (root / "data" / "team" / "core.json").write_text('{"lead": "Ada"}')
    page = ("# P\n\n{% for s in sponsors.gold %}Sponsor {{ s.title }}. {% endfor %}\n\n"
            "Lead: {{ team.core.lead }}.\n")
    doc = _convert_page(tmp_path, "site_name: S\nplugins:\n  - markdownextradata:\n      data: data\n", page)
    assert doc.sections[0].text == "Sponsor Acme Cloud. Sponsor Widget Co.\n\nLead: Ada."
    (root / "data").rename(root / "docs" / "_data")
    doc = _convert_page(tmp_path, "site_name: S\nplugins:\n  - markdownextradata\n", page)
    assert doc.sections[0].text == "Sponsor Acme Cloud. Sponsor Widget Co.\n\nLead: Ada."


def test_admonition_words_without_a_quoted_title_are_classes(tmp_path: Path) -> None:
    """Material's inline admonitions ('!!! tip inline', '??? info inline end'): Python-Markdown reads
    every unquoted word after '!!!' as a class and titles the box with the first one ('Tip'); murar
    showed 'Tip: inline'. A quoted title still titles it; an opener inside a code fence is code."""
    doc = _convert_page(tmp_path, "site_name: S\nmarkdown_extensions:\n  - admonition\n  - pymdownx.details\n",
                        "# P\n\n!!! tip inline\n    Tip body.\n\n???+ info inline end\n    Info body.\n\n"
                        '!!! note inline end "Side note"\n    Note body.\n\n```md\n!!! tip inline\n```\n')
    text = doc.sections[0].text
    assert "Tip:\n\nTip body." in text and "Info:\n\nInfo body." in text
    assert "Note: Side note\n\nNote body." in text
    assert "!!! tip inline" in text


def test_markdownextradata_renders_with_config_keys_extra_and_its_jinja_options(tmp_path: Path) -> None:
    """markdownextradata renders a page with {**config, **extra}: '{{ site_name }}' is the site's
    name, a data file is also under 'extra' ({{ extra['1_x'].a }}, its README), and its
    jinja_options set the delimiters."""
    root = tmp_path / "proj"
    (root / "docs" / "_data" / "1_x").mkdir(parents=True)
    (root / "docs" / "_data" / "1_x" / "c.yml").write_text("a: deep\n")
    doc = _convert_page(tmp_path, "site_name: Widget Docs\nplugins:\n  - markdownextradata\n",
                        "# P\n\nWelcome to {{ site_name }}: {{ extra['1_x'].c.a }}.\n")
    assert doc.sections[0].text == "Welcome to Widget Docs: deep."
    doc = _convert_page(tmp_path, "site_name: W\nplugins:\n  - markdownextradata:\n      jinja_options:\n"
                        "        variable_start_string: '<<'\n        variable_end_string: '>>'\n",
                        "# P\n\nName << site_name >>, kept {{ site_name }}.\n")
    assert doc.sections[0].text.startswith("Name W, kept")


def test_markdownextradata_data_path_that_climbs_back_into_the_root(tmp_path: Path) -> None:
    """FastAPI's docs/en/mkdocs.yml says 'data: ../en/data' (its language configs inherit it); with
    docs/en ingested as the root that path leaves the root and comes back: it is docs/en/data, read."""
    root = tmp_path / "en"
    (root / "data").mkdir(parents=True)
    (root / "data" / "team.yml").write_text("lead: Ada\n")
    (root / "docs").mkdir()
    (root / "mkdocs.yml").write_text("site_name: S\nplugins:\n  - markdownextradata:\n      data: ../en/data\n")
    (root / "docs" / "p.md").write_text("# P\n\nLead: {{ team.lead }}.\n")
    doc = convert_pymdown(root / "docs" / "p.md", site=MkDocsSite.load(root, "mkdocs.yml"), assets_dir=tmp_path / "a")
    assert doc.sections[0].text == "Lead: Ada."
