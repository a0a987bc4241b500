"""MDX pages on a Docusaurus site: ESM dropped, JSX reduced to text, helpers resolved, partials inlined."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sample_png import PNG_64PX as PNG

from murar.ingest.markup.mdx import convert_mdx, mdx_to_markdown, rebase_links
from murar.ingest.sites.docusaurus import DocusaurusSite
from murar.schema import ImageItem, ParsedDocument, VideoItem

PAGE = """---
title: Deploy
---

import useBaseUrl from '@docusaurus/useBaseUrl';
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import {
  Thing,
  Other,
} from '@site/src/components/things';
import shot from '@site/static/img/imported.png';
import Steps from './_steps.mdx';

export const meta = {
  a: 1,
};

<head>
  <title>SEO title that is not page text</title>
</head>

# Deploy the app

Intro text {/* a JSX comment */} with {'literal'} text.

:::note Before you start

Install the CLI first.

:::

<Tabs groupId="fw" values={[{ label: 'Angular', value: 'ng' }, { label: 'React', value: 'react' }]}>
<TabItem value="ng">

Run the Angular build.

</TabItem>
<TabItem value="react" label="React (Vite)">

Run the React build.

</TabItem>
</Tabs>

<img src={useBaseUrl('img/base.png')} alt="Base URL shot" />

<img
  src={require('@site/static/img/required.png').default}
  alt="Required shot"
  style={{ width: '50%' }}
/>

<img src={shot} alt="Imported shot" />

![Root relative](/img/root.png)

![With base url](/docs/img/root.png)

<Steps />

<video width="400" src={useBaseUrl('video/demo.mp4')} controls></video>

<DocsCard header="Card header" href="/x">
Card body text.
</DocsCard>

<img src={computeSrc()} alt="dynamic" />

```jsx
import Kept from './kept';
<Tabs>code stays</Tabs>
```
"""

PARTIAL = """import Nested from './_nested.md';

## Steps from the partial

1. Open the console.

![Partial shot](./img/partial.png)

<Nested />
"""


def _site(tmp_path: Path) -> DocusaurusSite:
    root = tmp_path / "site"
    for rel in ("static/img/base.png", "static/img/required.png", "static/img/imported.png", "static/img/root.png",
                "docs/img/partial.png"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(PNG)
    (root / "static" / "video").mkdir(parents=True)
    (root / "static" / "video" / "demo.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42")
    (root / "docusaurus.config.js").write_text("const BASE_URL = '/docs';\nmodule.exports = { baseUrl: `${BASE_URL}/`,"
                                                " presets: [['classic', { docs: { routeBasePath: '/' } }]] };\n")
    (root / "docs" / "guide").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "guide" / "deploy.mdx").write_text(PAGE)
    (root / "docs" / "_steps.mdx").write_text(PARTIAL)
    (root / "docs" / "_nested.md").write_text("Nested partial text.\n\n<Steps />\n")
    return DocusaurusSite.load(root, "docusaurus.config.js")


def _component(root: Path, name: str, source: str) -> None:
    """Write ``source`` as the site's React component ``src/components/<name>`` (``name`` may hold folders)."""
    path = root / "src" / "components" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)


def _convert_page(tmp_path: Path, name: str, text: str) -> ParsedDocument:
    """``text`` written as ``docs/<name>`` of the :func:`_site` site, converted as Docusaurus builds it."""
    site = _site(tmp_path)
    page = site.config.root / "docs" / name
    page.write_text(text)
    return convert_mdx(page, site=site, assets_dir=tmp_path / "a")


def test_mdx_page_reads_like_the_rendered_page(tmp_path: Path) -> None:
    site = _site(tmp_path)
    # the partial is imported from ../_steps.mdx in the real layout
    page = site.config.root / "docs" / "guide" / "deploy.mdx"
    page.write_text(PAGE.replace("./_steps.mdx", "../_steps.mdx"))
    doc = convert_mdx(page, site=site, assets_dir=tmp_path / "assets")
    text = "\n".join(s.text for s in doc.sections)
    assert "import useBaseUrl" not in text and "export const" not in text and "@theme" not in text
    assert "import Kept from './kept';" in text  # code blocks are content
    assert "SEO title" not in text and "JSX comment" not in text
    assert "Intro text with literal text." in text
    assert "Note: Before you start" in text and "Install the CLI first." in text and ":::" not in text
    assert "Angular" in text and "Run the Angular build." in text and "React (Vite)" in text
    assert "Card header" in text and "Card body text." in text
    assert "Steps from the partial" in " ".join(" > ".join(s.heading_path) for s in doc.sections)
    assert "Nested partial text." in text
    images = {m.alt: m for m in doc.media if isinstance(m, ImageItem)}
    assert images["Base URL shot"].path == "static/img/base.png" and images["Base URL shot"].exists
    assert images["Required shot"].path == "static/img/required.png"
    assert images["Imported shot"].path == "static/img/imported.png"
    assert images["Root relative"].path == "static/img/root.png"
    assert images["With base url"].path == "static/img/root.png"
    assert images["Partial shot"].path == "docs/img/partial.png"  # relative to the partial
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert [(v.path, v.exists) for v in videos] == [("static/video/demo.mp4", True)]
    statuses = {r.link: r.status for r in doc.asset_refs}
    assert statuses["{computeSrc()}"] == "unsupported"
    assert sum(1 for s in statuses.values() if s == "resolved") == 7


def test_code_fences_are_untouched() -> None:
    from murar.ingest.sites.base import PlainSite

    md, _ = mdx_to_markdown("import X from 'y';\n\n```jsx\nimport Kept from './kept';\n<Tabs>x</Tabs>\n```\n",
                            page_rel="a.mdx", site=PlainSite(Path(".")))
    assert "import X" not in md and "import Kept from './kept';\n<Tabs>x</Tabs>" in md


def test_partials_and_static_markdown_are_includes_not_pages(tmp_path: Path) -> None:
    from murar.ingest.sites.base import FileRole

    site = _site(tmp_path)
    (site.config.root / "static" / "usage").mkdir(parents=True)
    (site.config.root / "static" / "usage" / "code.md").write_text("```ts\nx\n```\n")
    assert site.classify("docs/guide/deploy.mdx").role is FileRole.PAGE
    assert site.classify("docs/_steps.mdx").role is FileRole.INCLUDE
    assert site.classify("static/usage/code.md").role is FileRole.INCLUDE
    assert site.classify("static/img/root.png").role is FileRole.ASSET
    assert site.classify("README.md").role is FileRole.EXCLUDED
    assert site.classify("versioned_docs/version-1/a.md").role is FileRole.EXCLUDED


def test_rebase_links_keeps_partial_links_pointing_at_the_same_file() -> None:
    out = rebase_links("![a](./img/x.png) <img src=\"img/y.png\"> ![r](/abs.png)",
                       from_rel="docs/_p.mdx", to_rel="docs/guide/page.mdx")
    assert "](../img/x.png)" in out and 'src="../img/y.png"' in out and "](/abs.png)" in out


def test_an_escaped_underscore_in_an_import_path_is_the_string_value(tmp_path: Path) -> None:
    """An import specifier is a JavaScript string: Prettier writes a partial's ``_`` as
    ``\\_`` in Markdown pages (``import Guide from './\\_guide-setup.md'``), whose value is
    ``./_guide-setup.md``, the file Docusaurus imports; its text and images are the page's."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "_guide-setup.md").write_text("## Setup steps\n\nEscaped partial text.\n\n"
                                                   "![Shot](/img/base.png)\n")
    (root / "docs" / "setup.mdx").write_text(
        "import Guide from './\\_guide-setup.md';\nimport Other from \"./\\x5fguide-setup.md\";\n\n"
        "# Setup\n\n<Guide/>\n\n<Other />\n")
    doc = convert_mdx(root / "docs" / "setup.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert text.count("Escaped partial text.") == 2
    assert [m.alt for m in doc.media if isinstance(m, ImageItem)] == ["Shot", "Shot"]
    assert not [w for w in doc.warnings if "cannot read" in w]


def test_a_site_component_rendering_one_imported_markdown_file_shows_that_file(tmp_path: Path) -> None:
    """A module's component whose whole render is an element imported from a Markdown file
    (``export function IOSGuide() { return <IOSContent />; }``) shows that file's content,
    compiled by the MDX loader (its path relative to the module); a component rendering
    anything else is not read as one."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "guide-ios.md").write_text("## Xcode steps\n\nOpen the workspace.\n\n![Workspace](/img/base.png)\n")
    (root / "docs" / "guide-android.md").write_text("Android steps text.\n")
    (root / "src" / "parts").mkdir(parents=True)
    (root / "src" / "parts" / "guides.jsx").write_text(
        "import React from 'react';\nimport IOSContent from '../../docs/guide-ios.md';\n"
        "import AndroidContent from '../../docs/guide-android.md';\n\n"
        "export function IOSGuide() {\n  return <IOSContent />;\n}\n\n"
        "export const AndroidGuide = (): JSX.Element => (\n  <AndroidContent />\n);\n\n"
        "export function Wrapped() {\n  return <div><IOSContent /></div>;\n}\n")
    (root / "docs" / "modules.mdx").write_text(
        "import {IOSGuide, AndroidGuide, Wrapped} from '@site/src/parts/guides';\n\n# Modules\n\n"
        "<IOSGuide />\n\n<AndroidGuide/>\n\n<Wrapped />\n")
    doc = convert_mdx(root / "docs" / "modules.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert text.count("Open the workspace.") == 1 and "Android steps text." in text
    assert [s.heading_path[-1] for s in doc.sections] == ["Modules", "Xcode steps"]
    assert [m.alt for m in doc.media if isinstance(m, ImageItem)] == ["Workspace"]


def test_a_heading_element_standing_alone_is_a_heading_of_the_page(tmp_path: Path) -> None:
    """``<h3>Node &amp; Watchman</h3>`` alone between blank lines renders a heading: the text
    under it is its section; a heading element inside other markup or sharing its lines
    with text stays where it is."""
    doc = _convert_page(
        tmp_path, "setup.mdx",
        "# Setup\n\nIntro.\n\n<h3>Node &amp; Watchman</h3>\n\nInstall Node.\n\n"
        "<h2 id=\"create\">Creating a new <code>app</code></h2>\n\nRun init.\n\n"
        "<div>\n  <h3>Inside a div</h3>\n</div>\n\nAfter the div.\n\n"
        "<h3>Above its text</h3>\nText on the next line.\n\nIntro text.\n<h3>Below its text</h3>\n")
    paths = [s.heading_path for s in doc.sections]
    assert paths == [("Setup",), ("Setup", "Node & Watchman"), ("Setup", "Creating a new app")]
    assert "Install Node." in doc.sections[1].text and "Run init." in doc.sections[2].text
    assert "Inside a div" in doc.sections[2].text and "After the div." in doc.sections[2].text
    # sharing its lines with text (no blank line after it, or none before it): not a heading
    assert "Above its text" in doc.sections[2].text and "Below its text" in doc.sections[2].text


def test_a_partial_that_includes_itself_is_inlined_once(tmp_path: Path) -> None:
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "_loop.mdx").write_text("import Loop from './_loop.mdx';\n\nLoop text.\n\n<Loop />\n")
    (root / "docs" / "page.mdx").write_text("import Loop from './_loop.mdx';\n\n# Page\n\n<Loop />\n")
    doc = convert_mdx(root / "docs" / "page.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert text.count("Loop text.") == 1
    assert any("includes itself" in w for w in doc.warnings)


def test_image_components_become_images(tmp_path: Path) -> None:
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "guide" / "ideal.png").write_bytes(PNG)
    (root / "docs" / "comp.mdx").write_text(
        "import Image from '@theme/IdealImage';\nimport ThemedImage from '@theme/ThemedImage';\n"
        "import shot from '@site/static/img/imported.png';\n\n# Components\n\n"
        "<Image img={require('./guide/ideal.png')} alt=\"Ideal image\" />\n\n"
        "<ThemedImage alt=\"Themed\" sources={{ light: useBaseUrl('/img/base.png'), dark: useBaseUrl('/img/root.png') }} />\n\n"
        "<Figure src={shot} caption=\"Imported figure\" />\n")
    doc = convert_mdx(root / "docs" / "comp.mdx", site=site, assets_dir=tmp_path / "a")
    got = [(m.alt, m.path) for m in doc.media if isinstance(m, ImageItem)]
    assert got == [("Ideal image", "docs/guide/ideal.png"), ("Themed", "static/img/base.png"),
                   ("Imported figure", "static/img/imported.png")]


def test_imported_svg_used_as_a_component_is_an_image(tmp_path: Path) -> None:
    """Docusaurus draws an imported SVG used as a component inline ("Inline SVGs"): the diagram
    at the top of a page written `import Chart from '@site/docs/assets/chart.svg'` + `<Chart />`."""
    site = _site(tmp_path)
    root = site.config.root
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64"/></svg>'
    (root / "docs" / "assets").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "assets" / "chart.svg").write_text(svg)
    (root / "docs" / "guide" / "flow.svg").write_text(svg)
    (root / "docs" / "svg.mdx").write_text(
        "# Diagrams\n\nimport Chart from '@site/docs/assets/chart.svg';\nimport Flow from './guide/flow.svg';\n\n"
        "<div style={{textAlign: 'center'}}>\n  <Chart style={{width: '100%'}}/>\n</div>\n\n"
        "Between the two.\n\n<Flow className=\"themed\" title=\"Request flow\" />\n")
    doc = convert_mdx(root / "docs" / "svg.mdx", site=site, assets_dir=tmp_path / "a")
    got = [(m.alt, m.path) for m in doc.media if isinstance(m, ImageItem)]
    assert got == [("", "docs/assets/chart.svg"), ("Request flow", "docs/guide/flow.svg")]
    assert "Between the two." in doc.sections[0].text


def test_code_imported_as_text_fills_its_code_block(tmp_path: Path) -> None:
    """Docusaurus "Code blocks": import Src from '!!raw-loader!./x.js' then
    <CodeBlock language="js">{Src}</CodeBlock> shows that file; the page showed '{Src}'.
    An extensionless import is resolved as webpack does (.js, .tsx, ...)."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "src" / "examples").mkdir(parents=True)
    (root / "src" / "examples" / "Form.jsx").write_text("export const Form = () => <form />;\n")
    (root / "docs" / "snippets").mkdir()
    (root / "docs" / "snippets" / "app.yaml").write_text("name: demo\nreplicas: 2\n")
    (root / "docs" / "code.mdx").write_text(
        "import CodeBlock from '@theme/CodeBlock';\n"
        "import AppYaml from '!!raw-loader!./snippets/app.yaml';\n"
        "import FormSource from '!!raw-loader!@site/src/examples/Form';\n"
        "import Missing from '!!raw-loader!./nowhere.js';\n\n# Code\n\n"
        '<CodeBlock language="yaml" title="app.yaml">{AppYaml}</CodeBlock>\n\n'
        '<CodeBlock className="language-jsx">{FormSource}</CodeBlock>\n\n'
        "<CodeBlock>{Missing}</CodeBlock>\n\nAfter.\n")
    doc = convert_mdx(root / "docs" / "code.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "name: demo" in text and "replicas: 2" in text and "export const Form" in text
    assert "{" + "AppYaml}" not in text and "{" + "Missing}" not in text and "After." in text
    assert any("nowhere.js" in w for w in doc.warnings)


def test_code_block_element_inside_fenced_code_is_shown_as_written(tmp_path: Path) -> None:
    """A ```jsx fence showing how to write <CodeBlock>{Src}</CodeBlock> is code: its lines
    stay as written. Filling it with the imported file put a fence inside the fence, which
    ended the example early and leaked the page's Markdown around it as code."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "src" / "Demo.tsx").write_text("export default function Demo() { return <p>{1}</p>; }\n")
    (root / "docs" / "snip.mdx").write_text(
        "import CodeBlock from '@theme/CodeBlock';\n"
        "import DemoSource from '!!raw-loader!@site/src/Demo';\n\n# Snippets\n\n"
        "How to write it:\n\n"
        '```jsx title="page.mdx"\n<CodeBlock className="language-jsx">{DemoSource}</CodeBlock>\n```\n\n'
        "What it shows:\n\n"
        '<CodeBlock className="language-jsx">{DemoSource}</CodeBlock>\n\n'
        "With a title:\n\n"
        '```jsx\n<CodeBlock title="/src/Demo">\n  {DemoSource}\n</CodeBlock>\n```\n\n'
        ":::note\n\nClosing **words**.\n\n:::\n")
    doc = convert_mdx(root / "docs" / "snip.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert text.count('<CodeBlock className="language-jsx">{DemoSource}</CodeBlock>') == 1
    assert '<CodeBlock title="/src/Demo">\n  {DemoSource}\n</CodeBlock>' in text
    assert text.count("export default function Demo() { return <p>{1}</p>; }") == 1
    assert "Note:\n\nClosing words." in text and "```" not in text and "**" not in text


def test_jsx_fragment_draws_its_children_only(tmp_path: Path) -> None:
    """A JSX fragment (<>...</>) renders nothing of its own: Docusaurus 3.9's release notes wrap a
    screenshot in one inside a component (<BrowserWindow ...><>![Ask AI](./img/askai.png)</></BrowserWindow>);
    murar left '<></>' in the section text."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "img").mkdir(exist_ok=True)
    (root / "docs" / "img" / "askai.png").write_bytes(PNG)
    (root / "docs" / "frag.mdx").write_text(
        "import BrowserWindow from '@site/src/components/BrowserWindow';\n\n# Fragments\n\n"
        "<BrowserWindow>\n  <>![Ask AI screenshot](./img/askai.png)</>\n</BrowserWindow>\n\n"
        "<>Fragment with **bold** text.</>\n\n<>\nBlock fragment.\n</>\n\nCode: `<>x</>`.\n")
    doc = convert_mdx(root / "docs" / "frag.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "<>" not in text.replace("<>x</>", "") and "</>" not in text.replace("<>x</>", "")
    assert "Fragment with bold text." in text and "Block fragment." in text and "Code: <>x</>." in text
    assert [(m.alt, m.path) for m in doc.media if isinstance(m, ImageItem)] == [
        ("Ask AI screenshot", "docs/img/askai.png")]


def test_multiline_jsx_comment_is_dropped() -> None:
    from murar.ingest.sites.base import PlainSite

    md, _ = mdx_to_markdown("# T\n\nBefore.\n\n{/*\n  hidden note\n  more\n*/}\n\nAfter.\n",
                            page_rel="a.mdx", site=PlainSite(Path(".")))
    assert "hidden note" not in md and "Before." in md and "After." in md


@pytest.mark.timeout(120)  # a guard against quadratic scanning, not a speed target
def test_hostile_jsx_is_kept_as_text() -> None:
    from murar.ingest.sites.base import PlainSite

    site = PlainSite(Path("."))
    for text in ("<a " * 100_000, ("<a <a <a <a x\n" * 5_000), ("<Foo a={{\n" * 5_000), "{" * 100_000):
        md, _ = mdx_to_markdown(text, page_rel="a.mdx", site=site)
        assert len(md) >= len(text) // 4, text[:20]


def test_footnotes_read_as_the_generators_render_them(tmp_path: Path) -> None:
    # GFM footnotes: remark-gfm (Docusaurus), kramdown (Jekyll), Goldmark (Hugo), Markdig (DocFX)
    # render "[^1]" as a note at the end of the page; the marker and "[^1]:" never show as text
    from murar.ingest.markup.registry import converter_for
    from murar.ingest.sites.detect import open_site

    body = "# Limits\n\nUploads stop at 2 GB[^size] per file.\n\n[^size]: Measured after compression.\n\nNext.\n"
    site = _site(tmp_path)
    page = site.config.root / "docs" / "limits.mdx"
    page.write_text(body)
    mdx_text = "\n".join(s.text for s in convert_mdx(page, site=site, assets_dir=tmp_path / "a").sections)
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "limits.md").write_text(body)
    md_doc = converter_for("markdown")(plain / "limits.md", site=open_site(plain).site, assets_dir=tmp_path / "b")
    for text in (mdx_text, "\n".join(s.text for s in md_doc.sections)):
        assert "Uploads stop at 2 GB per file." in text and "Measured after compression." in text
        assert "[^size]" not in text and "Next." in text


def test_helper_links_become_the_paths_they_name(tmp_path: Path) -> None:
    """require('./x.mp4').default is the file x.mp4 next to the file that writes it (webpack), and
    useBaseUrl('video/y.mp4') the site path /video/y.mp4: a video's url is that path, not the JSX
    expression, and a require() in a partial stays relative to the partial."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "guide" / "clip.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42")
    (root / "docs" / "parts").mkdir()
    (root / "docs" / "parts" / "own.png").write_bytes(PNG)
    (root / "docs" / "parts" / "_shot.mdx").write_text("<img src={require('./own.png').default} alt=\"Own\" />\n")
    (root / "docs" / "guide" / "media.mdx").write_text(
        "import Shot from '../parts/_shot.mdx';\n\n# Media\n\nText.\n\n"
        "<video controls src={require('./clip.mp4').default}></video>\n\n"
        "<video controls>\n  <source src={useBaseUrl('video/demo.mp4')} type=\"video/mp4\" />\n</video>\n\n"
        "<Shot />\n")
    doc = convert_mdx(root / "docs" / "guide" / "media.mdx", site=site, assets_dir=tmp_path / "a")
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert [(v.url, v.path) for v in videos] == [("./clip.mp4", "docs/guide/clip.mp4"),
                                                 ("/video/demo.mp4", "static/video/demo.mp4")]
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(i.alt, i.path, i.exists) for i in images] == [("Own", "docs/parts/own.png", True)]


def test_javascript_expressions_opening_a_line_are_code_not_text(tmp_path: Path) -> None:
    """An MDX {expression} is JavaScript: a render function given to <BrowserOnly> draws a chart and
    none of its source is page text; a string literal is text; a brace that never closes before the
    next heading stays text."""
    doc = _convert_page(
        tmp_path, "chart.mdx",
        "import BrowserOnly from '@docusaurus/BrowserOnly';\n\n# Chart\n\n## Tree\n\n<BrowserOnly>\n{() => {\n"
        "  const [open, setOpen] = React.useState(false);\n\n  const tree = {\n    name: 'Root node',\n"
        "    children: [{ name: 'Leaf' }],\n  };\n  // it's drawn below\n  return (\n    <div>\n"
        "      <Chart data={tree}/>\n      <button onClick={() => setOpen(!open)}>Toggle</button>\n    </div>\n"
        "  );\n}}\n</BrowserOnly>\n\nAfter the chart.\n\n{'A literal line'}\n\n{count} items follow.\n\n"
        "{unclosed brace\n\n## Next\n\nNext text.\n")
    text = "\n".join(s.text for s in doc.sections)
    for leaked in ("useState", "Root node", "const tree", "return (", "Toggle", "</div>"):
        assert leaked not in text, leaked
    assert "After the chart." in text and "A literal line" in text and "items follow." in text
    assert "{count}" not in text
    assert "{unclosed brace" in text and "Next text." in text


def test_video_player_components_are_videos(tmp_path: Path) -> None:
    """<ReactPlayer url={require('./clip.mp4').default} /> plays the file next to the page; a player
    pointing at a video host is a remote video; an audio player or a non-player component is not."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "clip.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42")
    (root / "docs" / "players.mdx").write_text(
        "import ReactPlayer from 'react-player';\nimport demo from '@site/static/video/demo.mp4';\n\n# Players\n\n"
        "Watch the clip.\n\n<div style={{ position: 'relative' }}>\n  <ReactPlayer\n"
        "    url={require('./clip.mp4').default}\n    controls\n    width=\"100%\"\n  />\n</div>\n\n"
        "<VideoPlayer src={demo} title=\"Demo run\" />\n\n<YouTube url=\"https://www.youtube.com/watch?v=abc123\" />\n\n"
        "<AudioPlayer src=\"/audio/a.mp3\" />\n\n<Card url=\"https://example.org/x.mp4\" />\n\n"
        "<LiteYouTubeEmbed id=\"dQw4w9WgXcQ\" title=\"Intro talk\" />\n")
    doc = convert_mdx(root / "docs" / "players.mdx", site=site, assets_dir=tmp_path / "a")
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert [(v.path, v.url) for v in videos] == [
        ("docs/clip.mp4", "./clip.mp4"), ("static/video/demo.mp4", "@site/static/video/demo.mp4"),
        (None, "https://www.youtube.com/watch?v=abc123"), (None, "https://www.youtube.com/watch?v=dQw4w9WgXcQ")]
    assert videos[1].title == "Demo run" and videos[3].title == "Intro talk"


def test_mdx_code_block_fences_are_read_as_mdx(tmp_path: Path) -> None:
    """Docusaurus unwraps ```mdx-code-block fences before compiling: imports in one bind names used
    later, <Tabs> opened in one fence and closed in another make tabs, and an SVG imported there is
    drawn; an mdx-code-block shown inside a ````md example stays an example."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "flow.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="80" height="60"/>')
    (root / "docs" / "wrapped.md").write_text(
        "# Wrapped\n\n```mdx-code-block\nimport Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n"
        "import Flow from './flow.svg';\n```\n\nIntro.\n\n```mdx-code-block\n<Tabs>\n<TabItem value=\"cs\" label=\"C#\">\n"
        "```\n\n```csharp\nvar x = 1;\n```\n\n```mdx-code-block\n</TabItem>\n<TabItem value=\"cpp\" label=\"C++\">\n```\n\n"
        "Use the C++ client.\n\n```mdx-code-block\n</TabItem>\n</Tabs>\n```\n\n````mdx-code-block\n<Flow />\n````\n\n"
        "````md\n```mdx-code-block\n<Shown />\n```\n````\n")
    doc = convert_mdx(root / "docs" / "wrapped.md", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "import Tabs" not in text and "<TabItem" not in text and "</Tabs>" not in text
    assert "C#" in text and "var x = 1;" in text and "C++" in text and "Use the C++ client." in text
    assert "<Shown />" in text  # inside a fenced example: code
    assert [m.path for m in doc.media if isinstance(m, ImageItem)] == ["docs/flow.svg"]


def test_indented_lines_are_not_code_in_mdx(tmp_path: Path) -> None:
    """MDX has no indented code blocks ('Differences from Markdown'): HTML indented inside a
    component is markup, not a code sample."""
    doc = _convert_page(
        tmp_path, "cards.md",
        "# Cards\n\n<DocsCard header=\"Android\" href=\"/android\">\n        <p>Learn the fundamentals of Android apps.</p>\n"
        "</DocsCard>\n\n```js\n    const kept = 'indented code in a fence';\n```\n")
    text = "\n".join(s.text for s in doc.sections)
    assert "Learn the fundamentals of Android apps." in text and "<p>" not in text
    assert "const kept = 'indented code in a fence';" in text



def test_a_fence_indented_four_spaces_or_more_is_code_in_mdx(tmp_path: Path) -> None:
    """MDX has no indented code, so a fence opens and closes at any indentation (micromark
    with codeIndented off): under "1. Step" four spaces in, under "* Item" six spaces in,
    or on its own. Its lines are code: ``<DOMAIN>`` is no JSX, ``<!-- -->`` no comment,
    ``#highlight-next-line`` a magic comment the block does not show."""
    doc = _convert_page(
        tmp_path, "tls.mdx",
        "# TLS\n\n1. Embed it:\n    ```html\n      <body>\n          <!-- Replace \"<Embed_URL>\" with yours -->\n"
        "          <iframe src=\"<Embed_URL>\"></iframe>\n      </body>\n    ```\n2. Launch the app.\n\n"
        "  * Run the command:\n\n      ```bash\n        helm upgrade \\\n          #highlight-next-line\n"
        "          --set host=<DOMAIN>\n      ```\n  * Or use the values file.\n\n"
        "    ```yaml\n    ingress: <DOMAIN>\n    ```\n\nDone.\n")
    text = "\n".join(s.text for s in doc.sections)
    assert '<!-- Replace "<Embed_URL>" with yours -->\n      <iframe src="<Embed_URL>"></iframe>' in text
    assert "helm upgrade \\\n    --set host=<DOMAIN>" in text and "highlight-next-line" not in text
    assert "ingress: <DOMAIN>" in text and "```" not in text and "Launch the app." in text

def test_image_components_taking_a_path_or_url(tmp_path: Path) -> None:
    """<DocImage path={require('./static/x.png')} title="..." /> (Harness docs) and <Image url="..." />
    name their image in path/url."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "static").mkdir()
    (root / "docs" / "static" / "roles.png").write_bytes(PNG)
    (root / "docs" / "roles.mdx").write_text(
        "# Roles\n\nOpen the roles page.\n\n<DocImage path={require('./static/roles.png')} width=\"60%\" "
        "title=\"Roles page\" />\n\n<Image url=\"/img/root.png\" alt=\"Root\" />\n")
    doc = convert_mdx(root / "docs" / "roles.mdx", site=site, assets_dir=tmp_path / "a")
    images = [(m.path, m.alt) for m in doc.media if isinstance(m, ImageItem)]
    assert images == [("docs/static/roles.png", "Roles page"), ("static/img/root.png", "Root")]


def test_partial_props_are_filled_in(tmp_path: Path) -> None:
    """Docusaurus 'Importing Markdown': <Partial name="Sebastien" /> renders the partial's
    {props.name} as Sebastien; a prop not given renders nothing; code keeps the braces."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "_servop.md").write_text(
        "Service **{props.service_name}**, operation {props.operation_name}{props.missing}.\n\n"
        "```js\nconst x = {props.kept};\n```\n")
    (root / "docs" / "rename.mdx").write_text(
        "import PartialServop from './_servop.md';\n\n# Rename folder\n\n"
        "<PartialServop service_name=\"globalFileV3\" operation_name={'SYS_RENAME_FOLDER'} />\n")
    doc = convert_mdx(root / "docs" / "rename.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Service globalFileV3, operation SYS_RENAME_FOLDER." in text
    assert "{props.kept}" in text and "{props.service_name}" not in text


def test_code_block_components_holding_a_template_literal_are_code(tmp_path: Path) -> None:
    """Docusaurus 'Code blocks: usage in JSX': <CodeBlock language="jsx" title="...">{`...`}</CodeBlock>
    is a code block of the literal's text (braces and tags inside it included)."""
    doc = _convert_page(
        tmp_path, "jsx.mdx",
        "import CodeBlock from '@theme/CodeBlock';\n\n# JSX code\n\nBefore.\n\n"
        "<CodeBlock language=\"jsx\" title=\"/src/Hello.js\">\n  {`function Hello(props) {\n"
        "  return <h1>Hello, {props.name}</h1>;\n}`}\n</CodeBlock>\n\n"
        "<CodeBlock language=\"js\">{`const s = \"a \\` b\";`}</CodeBlock>\n\nAfter.\n")
    text = "\n".join(s.text for s in doc.sections)
    assert "function Hello(props) {\n  return <h1>Hello, {props.name}</h1>;\n}" in text
    assert 'const s = "a ` b";' in text and "`}" not in text
    assert "/src/Hello.js" in text and "Before." in text and "After." in text


def test_exported_constants_and_front_matter_values_are_shown(tmp_path: Path) -> None:
    """MDX 'Using exports' and Docusaurus' frontMatter export: {version} after export const version =
    '3.1' renders 3.1, {frontMatter.title} the front matter title; inline code keeps its braces;
    <Details summary="..."> shows its summary."""
    doc = _convert_page(
        tmp_path, "vals.mdx",
        "---\ntitle: Upgrade guide\n---\n\nexport const version = '3.1';\n\n# Upgrade\n\n"
        "Install version {version} of {frontMatter.title}, not `{version}`; {unknown} stays.\n\n"
        "<Details summary=\"Older releases\">\n\nOlder text.\n\n</Details>\n")
    text = "\n".join(s.text for s in doc.sections)
    assert "Install version 3.1 of Upgrade guide, not {version}; stays." in text  # {unknown}: see below
    assert "Older releases" in text and "Older text." in text


def test_a_self_closing_tag_with_a_space_before_the_bracket(tmp_path: Path) -> None:
    """JSX allows <Part a="x" / > (space between / and >); the tag must not swallow the lines after
    it (a heading became paragraph text)."""
    doc = _convert_page(tmp_path, "op.md", "# Rename\n\nRename the folder.\n\n<PartialServop service_name=\"files\" / >\n\n## Usage\n\nCall it.\n")
    assert [s.heading_path[-1] for s in doc.sections] == ["Rename", "Usage"]
    assert "PartialServop" not in "\n".join(s.text for s in doc.sections)


def test_admonition_component_reads_like_the_directive(tmp_path: Path) -> None:
    """Docusaurus 'Admonitions: usage in JSX': <Admonition type="tip" title="..."> is :::tip Title."""
    doc = _convert_page(
        tmp_path, "adm.mdx",
        "import Admonition from '@theme/Admonition';\n\n# Adm\n\n"
        "<Admonition type=\"tip\" icon=\"💡\" title=\"Did you know...\">\n  <p>Plugins help.</p>\n</Admonition>\n\n"
        ":::tip Did you know...\n\nPlugins help.\n\n:::\n")
    text = "\n".join(s.text for s in doc.sections)
    assert text.count("Tip: Did you know...\n\nPlugins help.") == 2


def test_tabs_values_with_trailing_commas(tmp_path: Path) -> None:
    """values={[{ label: 'Yarn', value: 'yarn', }]} (Prettier's trailing commas) still labels the tab."""
    doc = _convert_page(
        tmp_path, "tabs.mdx",
        "# Install\n\n<Tabs values={[\n  { label: 'npm', value: 'npm', },\n  { value: 'yarn', label: 'Yarn', },\n]}>\n"
        "<TabItem value=\"npm\">\n\nnpm install\n\n</TabItem>\n<TabItem value=\"yarn\">\n\nyarn add\n\n</TabItem>\n</Tabs>\n")
    text = "\n".join(s.text for s in doc.sections)
    assert "Yarn\n\nyarn add" in text


def test_video_embed_taking_a_host_and_video_id_is_that_video(tmp_path: Path) -> None:
    """<VideoEmbed host="youtube" videoId="..." /> (a site's own player, registered for every page)
    plays the video of that id on the host its host=/platform= attribute names; its caption is its
    title when it has none; a host murar cannot address stays no video."""
    doc = _convert_page(
        tmp_path, "embeds.mdx",
        "# Embeds\n\nCreate the environment.\n\n"
        "<VideoEmbed host=\"youtube\" videoId=\"B-Vsbq1kwqg\" caption=\"Build your own solution\"/>\n\n"
        "Then the scopes.\n\n<VideoCard platform=\"Vimeo\" videoId=\"76979871\" title=\"Scopes\" />\n\n"
        "<VideoEmbed host=\"loom\" videoId=\"abc123def\" />\n")
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert [(v.url, v.title) for v in videos] == [
        ("https://www.youtube.com/watch?v=B-Vsbq1kwqg", "Build your own solution"),
        ("https://vimeo.com/76979871", "Scopes")]
    assert videos[0].context_before.endswith("Create the environment.")


def test_image_component_caption_is_the_figure_caption(tmp_path: Path) -> None:
    """<ZoomImage src alt caption /> draws the image with its caption under it (a <figure>), so the
    caption is the image's caption, and alt stays the alt text."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "zoom.mdx").write_text(
        "# Chart\n\nAdd a series.\n\n<ZoomImage\n  src=\"/img/base.png\"\n  alt=\"Bar chart\"\n  caption=\"Display data\"\n/>\n\n"
        "Learn more.\n\n<Screenshot src=\"/img/root.png\" caption=\"Only a caption\" />\n")
    doc = convert_mdx(root / "docs" / "zoom.mdx", site=site, assets_dir=tmp_path / "a")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(i.path, i.alt, i.caption) for i in images] == [
        ("static/img/base.png", "Bar chart", "Display data"), ("static/img/root.png", "Only a caption", "Only a caption")]
    assert images[0].context_before.endswith("Add a series.")


def test_markdown_right_after_a_tag_line_is_markdown(tmp_path: Path) -> None:
    """MDX has no HTML blocks: a line of tags standing as a block ends at its line end, so the
    Markdown on the next line (a link, emphasis, a fence) is read as Markdown, not kept raw in an
    HTML block up to the next blank line."""
    doc = _convert_page(
        tmp_path, "limits.mdx",
        "# Limits\n\nLimit the container.\n\n<details>\n<summary>compose file</summary>\n```yaml\ncpus: '1.00'\n```\n"
        "</details>\nSee the [docker docs](https://docs.docker.com/x) for **more**.\n\n"
        "<div>\n<img src=\"/img/base.png\" alt=\"Stats\" />\n</div>\nThe stats *page*.\n")
    text = "\n".join(s.text for s in doc.sections)
    assert "See the docker docs for more." in text and "](" not in text and "**" not in text
    assert "The stats page." in text and "*page*" not in text
    assert "cpus: '1.00'" in text
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(i.path, i.alt) for i in images] == [("static/img/base.png", "Stats")]


def _expressions_page(root: Path) -> Path:
    page = root / "docs" / "exprs.mdx"
    page.write_text(
        "---\ntitle: Limits\n---\n\nexport const product = 'Widget';\n\n# Limits of {frontMatter.title}\n\n"
        "Use {`template`} and {'quoted'} and {2} here, not `{code}` or ``a `{b}` c``.\n\n"
        "Unknown {props.plan} and {frontMatter.missing} and {new Date().getFullYear()} and {user.name}.\n\n"
        "- a **{product}** item, escaped \\{literal\\}\n\n| app | plan |\n|---|---|\n| {product} | {props.tier} |\n")
    return page


def test_inline_expressions_render_their_value_or_nothing(tmp_path: Path) -> None:
    """MDX 3 (Docusaurus 3) reads every {...} in text as a JavaScript expression ('What is MDX?':
    expressions): literals (template literals too, even though they hold backticks), exported
    constants and front matter render their value; props and front matter keys a page is not given
    are undefined and render nothing; anything else is computed at render time, unknown to murar,
    and left out rather than shown as code. Code spans and \\{ stay literal."""
    site = _site(tmp_path)
    doc = convert_mdx(_expressions_page(site.config.root), site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert doc.sections[0].heading_path == ("Limits of Limits",)
    assert "Use template and quoted and 2 here, not {code} or a `{b}` c." in text
    assert "Unknown and and and ." in text
    assert "a Widget item, escaped {literal}" in text
    table = next(m for m in doc.media if m.kind == "table")
    assert table.rows == [["Widget", ""]]


def test_string_literal_expressions_holding_quotes_or_braces_render_their_text(tmp_path: Path) -> None:
    """A JavaScript string literal is its text whatever it holds: a template literal may hold
    quotes and braces ({`{"item": "special widget"}`}, the MDX way to show JSON in <pre><code>),
    a '...' string double quotes, a "..." string single ones, escapes read as JavaScript reads
    them; a template literal with a ${} substitution is computed, so it is left out."""
    doc = _convert_page(tmp_path, "json.mdx", (
        "# Variables\n\nPaste in:\n<pre><code>{`{\"item\": \"special widget\"}`}</code></pre>\n\n"
        "Also <code>{'{\"k\": 1}'}</code> and {\"it's\"} and {'tab\\tstop'} and {`${x} left`} out.\n"))
    text = "\n".join(s.text for s in doc.sections)
    assert '{"item": "special widget"}' in text
    assert 'Also {"k": 1} and it\'s and tab stop and out.' in text  # the tab, spaces folded


def test_a_heading_inside_a_tab_item_ends_with_its_tab(tmp_path: Path) -> None:
    """A <TabItem> holds the Markdown between its tags (a JSX element's children), headings too:
    the next tab's text and the text after </Tabs> are in the section the <Tabs> stands in, not
    under the last heading of the tab before (Camunda's SaaS / Self-Managed tabs)."""
    doc = _convert_page(tmp_path, "users.mdx", (
        "---\ntitle: Users\n---\n\nimport Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n"
        "## Add users\n\n<Tabs values={[{label: 'SaaS', value: 'saas'}, {label: 'Self-Managed', value: 'sm'}]}>\n\n"
        "<TabItem value='saas'>\n\nSaaS steps.\n\n#### Invite everyone\n\nSaaS invite text.\n\n</TabItem>\n\n"
        "<TabItem value='sm'>\n\nSelf-Managed steps.\n\n</TabItem>\n\n</Tabs>\n\nAfter the tabs.\n\n"
        "## Next\n\nNext text.\n"))
    under = {s.heading_path: s.text for s in doc.sections}
    assert "SaaS invite text." in under[("Users", "Add users", "Invite everyone")]
    assert "Self-Managed" not in under[("Users", "Add users", "Invite everyone")]
    text_of_add = "\n".join(s.text for s in doc.sections if s.heading_path == ("Users", "Add users"))
    assert "Self-Managed steps." in text_of_add and "After the tabs." in text_of_add
    assert under[("Users", "Next")] == "Next text."


def test_an_explicit_heading_id_is_the_sections_anchor(tmp_path: Path) -> None:
    """Docusaurus reads {#my-id} at the end of a heading as its id (Headings: explicit ids; MDX 3
    pages too, markdown.mdx1Compat.headingIds): the section keeps it as its anchor, so an answer
    links to it, as a {#id} on a Markdown heading already does; elsewhere {#...} is no id."""
    doc = _convert_page(tmp_path, "ids.mdx", (
        "---\ntitle: Ids\n---\n\n## Required roles {#elevated-access}\n\nText {#not-an-id} here.\n\n"
        "### Escaped \\{#escaped-id\\}\n\n- ## In a list {#listed}\n\n## Plain\n\nMore.\n"))
    anchors = {s.heading_path[-1]: s.anchor for s in doc.sections}
    assert anchors == {"Required roles": "elevated-access", "Escaped": "escaped-id", "In a list": "listed",
                       "Plain": None}
    assert doc.sections[0].text == "Text here."


def test_docusaurus_2_pages_are_read_as_mdx_1(tmp_path: Path) -> None:
    """Docusaurus 2 compiles pages with MDX 1, where braces in Markdown text are text (MDX 2 made
    them expressions, 'Upgrading to Docusaurus v3') and a JSX block runs on to the next blank line
    like an HTML block: a site whose package.json depends on @docusaurus/core 2.x keeps unknown
    {expressions} as written, and Markdown right after a tag line stays inside that block."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "package.json").write_text('{"dependencies": {"@docusaurus/core": "^2.4.3", "react": "^17"}}')
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    assert site.config.settings["mdx.version"] == "1"
    doc = convert_mdx(_expressions_page(root), site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Unknown {props.plan} and {frontMatter.missing} and {new Date().getFullYear()} and {user.name}." in text
    (root / "docs" / "block.mdx").write_text("# Block\n\n<details>\n<summary>More</summary>\n</details>\n"
                                           "See the [docs](https://example.org/d).\n")
    doc = convert_mdx(root / "docs" / "block.mdx", site=site, assets_dir=tmp_path / "a")
    assert "[docs](https://example.org/d)" in doc.sections[0].text
    (root / "package.json").write_text('{"devDependencies": {"@docusaurus/core": "3.5.2"}}')
    assert DocusaurusSite.load(root, "docusaurus.config.js").config.settings["mdx.version"] == "3"


def test_markdown_in_an_element_written_on_one_line_is_markdown(tmp_path: Path) -> None:
    """MDX 2+ reads the text of an element as Markdown: <summary>**Example values**</summary> is a bold
    summary and <div>See **this** [guide](/x)</div> bold text with a link (the asterisks and brackets
    were shown as written, the line being an HTML block to the Markdown reader); code stays as
    written, and so does every element's text under MDX 1."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "one.mdx").write_text(
        "# One\n\n<details id=\"tj-dropdown\">\n<summary>**Example values**</summary>\n```json\n[1, 2]\n```\n\n"
        "</details>\n\n<div style={{textAlign: 'center'}}>See **this** [guide](/x) now.</div>\n\n"
        "<p><code>a*b*c</code></p>\n")
    text = "\n".join(s.text for s in convert_mdx(root / "docs" / "one.mdx", site=site, assets_dir=tmp_path / "a").sections)
    assert "Example values" in text and "**" not in text and "See this guide now." in text
    assert "[1, 2]" in text and "a*b*c" in text
    (root / "package.json").write_text('{"dependencies": {"@docusaurus/core": "^2.4.3"}}')
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    text = "\n".join(s.text for s in convert_mdx(root / "docs" / "one.mdx", site=site, assets_dir=tmp_path / "a").sections)
    assert "**Example values**" in text


def test_jsx_style_width_sizes_the_picture(tmp_path: Path) -> None:
    """MDX gives an <img> its size as a React style object (style={{ width: '20px' }}: a string
    attribute is not allowed): that width is the picture's declared width, as width="20" is, so an
    icon in a sentence is inline and tiny (it was a figure); a card component sizing the <img> of
    its icon so shows its title and description as text, not as the icon's caption."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "icons.mdx").write_text(
        "export const SetupCard = ({ iconId, title, description }) => (\n  <div>\n"
        "    <img src={`/img/${iconId}.png`} alt={title} style={{ width: '28px', height: '28px' }} />\n"
        "    <h3>{title}</h3>\n    <p>{description}</p>\n  </div>\n);\n\n# Icons\n\n"
        "Click the <img src=\"/img/base.png\" style={{ width: '20px', height: '20px' }} /> button.\n\n"
        "<img src=\"/img/root.png\" style={{ marginTop: 12, width: 24 }} alt=\"gear\" />\n\n"
        "<img src=\"/img/required.png\" style={{ maxWidth: '100%' }} alt=\"shot\" />\n\n"
        "<SetupCard iconId=\"imported\" title=\"Docker\" description=\"Deploy with docker-compose.\" />\n")
    doc = convert_mdx(root / "docs" / "icons.mdx", site=site, assets_dir=tmp_path / "a")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.path, sorted(m.flags), m.caption) for m in images] == [
        ("static/img/base.png", ["inline", "tiny"], ""), ("static/img/root.png", ["tiny"], ""),
        ("static/img/required.png", [], ""), ("static/img/imported.png", ["tiny"], "")]
    assert "Docker — Deploy with docker-compose." in "\n".join(s.text for s in doc.sections)


def test_array_of_strings_mapped_to_elements_is_text(tmp_path: Path) -> None:
    """An array of strings a component maps to elements ({features.map((f, i) => <li key={i}>{f}</li>)}
    with features={['No setup', 'Credit billing']}) shows each string, as React renders them, and so
    does a flow expression mapping an array literal ({['AI Agents', 'SSO'].map(label => <span
    key={label}>{label}</span>)}); both were lost."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "cards.mdx").write_text(
        "export const ConfigCard = ({ title, features }) => (\n  <div>\n    <div>{title}</div>\n"
        "    <ul>\n      {features.map((f, i) => <li key={i} style={{ fontSize: '14px' }}>{f}</li>)}\n"
        "    </ul>\n  </div>\n);\n\n# Cards\n\n<div>\n    {['AI Agents', \"80+ Data Sources\"].map(label => (\n"
        "        <span key={label} style={{ padding: '4px' }}>{label}</span>\n    ))}\n</div>\n\n"
        "<ConfigCard\n    title=\"Managed AI\"\n    features={[\n        'No configuration needed',\n"
        "        \"Credit-based billing\",\n    ]}\n/>\n\n{[1, 2].map((n) => n * 2)}\n")
    text = "\n".join(s.text for s in convert_mdx(root / "docs" / "cards.mdx", site=site, assets_dir=tmp_path / "a").sections)
    assert "AI Agents · 80+ Data Sources" in text
    assert "Managed AI — No configuration needed — Credit-based billing" in text
    assert "map" not in text and "2" not in text.replace("80+", "")


def test_array_of_rows_mapped_with_destructured_items_is_text(tmp_path: Path) -> None:
    """A component mapping an array of arrays with each item destructured ({items.map(([label, value],
    i) => <div key={i}><strong>{label}</strong>: {value}</div>)}) renders a row per item, its values
    with the text written between them: items={[['Billing', 'AI credits'], ['Setup', 'None, ready']]}
    reads "Billing: AI credits" and "Setup: None, ready" (the rows were lost)."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "spec.mdx").write_text(
        "# Spec\n\nexport const SpecGrid = ({ items }) => (\n    <div style={{ display: 'grid' }}>\n"
        "        {items.map(([label, value], i) => (\n            <div key={i} style={{ fontSize: '14px' }}>\n"
        "                <strong>{label}</strong>: {value}\n            </div>\n        ))}\n    </div>\n);\n\n"
        "Managed setup:\n\n<SpecGrid items={[\n    ['Billing', 'AI credits'],\n    [\"Setup\", 'None, ready'],\n]} />\n")
    text = "\n".join(s.text for s in convert_mdx(root / "docs" / "spec.mdx", site=site, assets_dir=tmp_path / "a").sections)
    assert "Billing: AI credits — Setup: None, ready" in text


def test_array_strings_holding_the_other_quote_are_text(tmp_path: Path) -> None:
    """A string of an array that holds the other quote ("Don't wait", 'Say "hi"') is one item, as
    JavaScript reads it: in a mapped array literal, an array prop of strings, an array of rows
    and the objects of an array prop. The regex readers took no quote inside a string, so
    ["Don't wait", 'SSO'] showed only "SSO" (and a row lost its first cell)."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "Badges.js",
        "export default function Badges({ badges }) {\n  return (<div>{badges.map((badge) => ("
        "<span>{badge.label}</span>))}</div>);\n}\n")
    (root / "src" / "theme").mkdir(parents=True)
    (root / "src" / "theme" / "MDXComponents.js").write_text(
        "import MDXComponents from '@theme-original/MDXComponents';\nimport Badges from '@site/src/components/Badges';\n"
        "export default { ...MDXComponents, Badges };\n")
    (root / "docs" / "q.mdx").write_text(
        "export const Card = ({ features }) => (\n  <ul>\n    {features.map((f) => <li>{f}</li>)}\n  </ul>\n);\n\n"
        "export const Grid = ({ items }) => (\n  <div>\n    {items.map(([label, value]) => (\n"
        "      <div><strong>{label}</strong>: {value}</div>\n    ))}\n  </div>\n);\n\n# Q\n\n"
        "<div>\n    {[\"Don't wait\", 'SSO'].map(label => (\n        <span key={label}>{label}</span>\n    ))}\n</div>\n\n"
        "<Card features={['Say \"hi\"', \"It's free\"]} />\n\n"
        "<Grid items={[[\"Don't\", 'stop [now]'], ['Plan', 5]]} />\n\n"
        "<Badges badges={[{ label: \"Can't miss\" }, { label: 'Pro' }]} />\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    doc = convert_mdx(root / "docs" / "q.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Don't wait · SSO" in text
    assert 'Say "hi"' in text and "It's free" in text
    assert "Don't: stop [now]" in text and "Plan: 5" in text
    assert [ln for ln in text.splitlines() if "Can't miss" in ln] == ["Can't miss — Pro"]  # both labels, one line


def test_data_imported_from_a_site_module_is_rendered(tmp_path: Path) -> None:
    """A page showing data it imports from a module of the site (MDX "import/export": import {
    labels, cards } from './homeData' with export const labels = {...}) shows its strings: an
    inline or flow {labels.title.prefix}, a component's title={labels.setup} and a component drawn
    per item of an exported array ({cards.map((card, i) => <Card key={i} {...card} />)}); all of it
    was lost (a landing page read as nothing). Names and calls in the data are not text."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "homeData.js").write_text(
        "import { Cog } from 'lucide-react';\n// cards of the home page\nexport const cards = [\n"
        "    { icon: Cog, title: \"Try it\", content: 'Run it with Docker.', href: \"/docs/try/\" },\n"
        "    { icon: Cog, title: `Deploy`, content: \"Deploy on Kubernetes.\", ...extra },\n];\n\n"
        "export const labels = {\n    title: { prefix: \"ToolJet\", highlight: 'Docs' },\n"
        "    setup: \"Setup ToolJet\", // the section\n    note: `v${version}`,\n};\n")
    (root / "docs" / "home.mdx").write_text(
        "---\ntitle: Home\n---\n\nimport { labels, cards } from './homeData';\n\n"
        "export const Card = ({ icon: Icon, title, content }) => (\n  <div>\n    <Icon />\n"
        "    <h3>{title}</h3>\n    <p>{content}</p>\n  </div>\n);\n\n"
        "export const Section = ({ title, children }) => (<section><h2>{title}</h2>{children}</section>);\n\n"
        "## Start\n\n<h1>{labels.title.prefix}&nbsp;<span>{labels.title.highlight}</span></h1>\n<p>\n"
        "    {labels.note}\n</p>\n\n<Section title={labels.setup}>\n    <div>\n"
        "        {cards.map((card, index) => (\n            <Card key={index} {...card} />\n        ))}\n"
        "    </div>\n</Section>\n")
    text = "\n".join(s.text for s in convert_mdx(root / "docs" / "home.mdx", site=site, assets_dir=tmp_path / "a").sections)
    assert "ToolJet Docs" in text.replace("\xa0", " ") and "Setup ToolJet" in text
    assert "Try it — Run it with Docker." in text and "Deploy — Deploy on Kubernetes." in text
    assert "version" not in text and "Cog" not in text


def test_component_showing_the_table_entry_its_prop_selects(tmp_path: Path) -> None:
    """A badge component showing the entry of its module's table that a prop selects (const plan =
    PLANS[type]; const { Icon, label } = plan; ... {label}) shows that entry's label: <PlanBadge
    type="team" /> reads "Team Plan" (it was lost); a field read as {tier.name} too, and an unknown
    key or a field not rendered shows nothing."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "PlanBadge/index.js",
        "const GroupIcon = () => (<svg width=\"14\" />);\n\nconst PLANS = {\n"
        "  team: { label: 'Team Plan', className: 'plan-badge--teams', Icon: GroupIcon },\n"
        "  'self-hosted': { label: \"Self Hosted\", className: 'plan-badge--self-hosted' },\n};\n\n"
        "export default function PlanBadge({ type }) {\n  const plan = PLANS[type];\n  if (!plan) return null;\n"
        "  const { Icon, label, className } = plan;\n  return (\n    <span className={`plan-badge ${className}`}>\n"
        "      <Icon />\n      {label}\n    </span>\n  );\n}\n")
    _component(root, "Tier.js",
        "const TIERS = { gold: { name: 'Gold tier', note: 'hidden' } };\n"
        "export default function Tier(props) {\n  const tier = TIERS[props.level];\n"
        "  return <b>{tier.name}</b>;\n}\n")
    (root / "docs" / "badges.mdx").write_text(
        "import PlanBadge from '@site/src/components/PlanBadge';\nimport Tier from '@site/src/components/Tier';\n\n"
        "# Badges\n\n<PlanBadge type=\"team\" />\n\nSync apps with Git.\n\n## Hosting\n\n"
        "<PlanBadge type=\"self-hosted\" />\n\n<PlanBadge type=\"free\" />\n\n<Tier level=\"gold\" />\n")
    doc = convert_mdx(root / "docs" / "badges.mdx", site=site, assets_dir=tmp_path / "a")
    assert [s.text.split("\n\n") for s in doc.sections] == [
        ["Team Plan", "Sync apps with Git."], ["Self Hosted", "Gold tier"]]


def test_component_prop_rendered_after_words_of_text(tmp_path: Path) -> None:
    """A prop a component renders after words of text in its element (<span>✍️ {tip}</span>,
    <b>Price</b>: {price}) is text it shows, like a prop that is an element's only child (it was
    lost); a prop only given to an attribute (href={link}) is not."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "tip.mdx").write_text(
        "export const Tip = ({ tip, price, link }) => (\n  <div>\n    <a href={link}>\n      <span>\n"
        "        ✍️ {tip}\n      </span>\n    </a>\n    <p><b>Price</b>: {price}</p>\n  </div>\n);\n\n# Tip\n\n"
        "<Tip tip=\"Write better prompts\" price=\"3 credits\" link=\"/docs/prompting\" />\n")
    text = "\n".join(s.text for s in convert_mdx(root / "docs" / "tip.mdx", site=site, assets_dir=tmp_path / "a").sections)
    assert "Write better prompts — 3 credits" in text and "/docs/prompting" not in text


def test_components_registered_in_mdx_components_need_no_import(tmp_path: Path) -> None:
    """A swizzled src/theme/MDXComponents adds components to every page's scope (Docusaurus 'MDX
    component scope'): a registered Markdown partial is inlined, a registered SVG drawn, and a
    component is what its module exports whatever it is registered as (an image viewer, a
    YouTube player, @theme/Admonition); a page's own import of the name wins."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "src" / "theme").mkdir(parents=True)
    (root / "src" / "theme" / "MDXComponents.js").write_text(
        "import MDXComponents from '@theme-original/MDXComponents';\n"
        "import Shot from '@site/src/components/zoom/ZoomableImage';\nimport Clip from '../components/YouTubeClip';\n"
        "import Callout from '@theme/Admonition';\nimport Prereqs from '@site/docs/_prereqs.md';\n"
        "import Logo from '@site/static/img/logo.svg';\n"
        "// import Hidden from '@site/docs/_hidden.md';\n"
        "export default {\n  ...MDXComponents,\n  Shot,\n  Clip,\n  Warn: Callout,\n  Prereqs,\n  Logo,\n"
        "  Inline: (props) => <div {...props} />,\n};\n")
    (root / "static" / "img" / "logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="80" height="60"/>')
    (root / "docs" / "_prereqs.md").write_text("Install the CLI first.\n")
    (root / "docs" / "global.mdx").write_text(
        "# Global\n\nBefore you start:\n\n<Prereqs />\n\nThe dashboard:\n\n<Shot src=\"/img/base.png\" alt=\"Dashboard\" />\n\n"
        "<Clip id=\"dQw4w9WgXcQ\" title=\"Tour\" />\n\n<Warn type=\"warning\">\n\nBack up first.\n\n</Warn>\n\n<Logo />\n")
    (root / "docs" / "own.mdx").write_text(
        "import Shot from '@site/src/components/Badge';\n\n# Own\n\nText.\n\n<Shot src=\"/img/base.png\" />\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    doc = convert_mdx(root / "docs" / "global.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Install the CLI first." in text and "Warning:\n\nBack up first." in text
    assert [(m.path, m.alt) for m in doc.media if isinstance(m, ImageItem)] == [
        ("static/img/base.png", "Dashboard"), ("static/img/logo.svg", "")]
    assert [m.url for m in doc.media if isinstance(m, VideoItem)] == ["https://www.youtube.com/watch?v=dQw4w9WgXcQ"]
    own = convert_mdx(root / "docs" / "own.mdx", site=site, assets_dir=tmp_path / "a")
    assert [m for m in own.media if isinstance(m, ImageItem)] == []
    # swizzle --eject writes a folder: src/theme/MDXComponents/index.js (imports relative to the folder)
    (root / "src" / "theme" / "MDXComponents.js").unlink()
    (root / "src" / "theme" / "MDXComponents").mkdir()
    (root / "src" / "theme" / "MDXComponents" / "index.js").write_text(
        "import MDXComponents from '@theme-original/MDXComponents';\nimport Prereqs from '../../../docs/_prereqs.md';\n"
        "export default { ...MDXComponents, Prereqs };\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    assert site.mdx_components() == {"Prereqs": "@site/docs/_prereqs.md"}
    doc = convert_mdx(root / "docs" / "global.mdx", site=site, assets_dir=tmp_path / "a")
    assert "Install the CLI first." in "\n".join(s.text for s in doc.sections)


def test_site_component_rendering_an_iframe_is_that_embed(tmp_path: Path) -> None:
    """A component of the site itself that renders an <iframe> whose src is a template over its props
    (a product-walkthrough embed: <Walk id="..." title="..." />) reads as that iframe, as React renders
    it: a walkthrough host's embed is a video with the title; registered or imported by name; a
    package's component, one missing a prop its src needs, or one rendering no iframe stays text."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "Walk.jsx",
        "export const Walk = (props) => (\n  <div style={{ height: 0 }}>\n    <iframe\n"
        "      src={`https://demo.arcade.software/${props.id}?embed`}\n      title={props.title}\n"
        "      loading=\"lazy\" />\n  </div>\n);\n")
    _component(root, "tour/index.tsx",
        "export default function Tour({ demo, label }) {\n  return <iframe title={label} "
        "src={`https://app.storylane.io/share/${demo}`} />;\n}\n")
    _component(root, "Note.jsx", "export const Note = (p) => <div>{p.children}</div>;\n")
    (root / "src" / "theme").mkdir(parents=True)
    (root / "src" / "theme" / "MDXComponents.js").write_text(
        "import MDXComponents from '@theme-original/MDXComponents';\nimport { Walk } from '@site/src/components/Walk';\n"
        "export default { ...MDXComponents, Walk };\n")
    (root / "docs" / "tours.mdx").write_text(
        "import Tour from '@site/src/components/tour';\nimport { Note, Walk as Steps } from '../src/components/Note';\n"
        "import Other from 'walk-package';\n\n# Tours\n\nClick **Sources**.\n\n"
        "<Walk id=\"k63eXyZ\" title=\"Add a source\" />\n\nThen pick one.\n\n<Tour demo=\"abc\" label=\"Billing tour\" />\n\n"
        "<Walk title=\"No id\" />\n\n<Other id=\"x\" title=\"Package\" />\n\n<Note title=\"Plain\" />\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    doc = convert_mdx(root / "docs" / "tours.mdx", site=site, assets_dir=tmp_path / "a")
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert [(v.url, v.title) for v in videos] == [
        ("https://demo.arcade.software/k63eXyZ?embed", "Add a source"),
        ("https://app.storylane.io/share/abc", "Billing tour")]
    assert "Click Sources." in videos[0].context_before
    text = "\n".join(s.text for s in doc.sections)
    assert "Add a source" not in text and "No id" in text and "Package" in text and "Plain" in text


def test_code_block_imported_under_another_name_shows_the_code(tmp_path: Path) -> None:
    """@theme/CodeBlock imported as another name (import Snippet from '@theme/CodeBlock') is the
    same component: <Snippet language="py">{Source}</Snippet> of a raw-loader import, or of a
    template literal, shows the code in a fenced block."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "hello.py").write_text("print('hello from the file')\n")
    (root / "docs" / "alias.mdx").write_text(
        "import Snippet from '@theme/CodeBlock';\nimport Hello from '!!raw-loader!./hello.py';\n\n# Alias\n\n"
        "Run this:\n\n<Snippet language=\"python\" title=\"hello.py\">{Hello}</Snippet>\n\n"
        "Then this:\n\n<Snippet language=\"bash\">{`pip install demo`}</Snippet>\n")
    doc = convert_mdx(root / "docs" / "alias.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "print('hello from the file')" in text and "pip install demo" in text
    assert "{Hello}" not in text and "Hello" not in text.replace("hello", "")


def test_doc_card_list_shows_the_category_cards(tmp_path: Path) -> None:
    """<DocCardList /> on a category index doc draws a card per item of the (autogenerated) sidebar
    category: a doc's label and description (front matter, else its first line of text), a
    sub-category's label and 'N items', in sidebar_position / number-prefix order; drafts, unlisted
    docs and _partials are not cards. With hand-written sidebars, or outside a category, nothing."""
    site = _site(tmp_path)
    root = site.config.root
    cat = root / "docs" / "sources"
    (cat / "02-cloud").mkdir(parents=True)
    (cat / "index.mdx").write_text(
        "import DocCardList from '@theme/DocCardList';\n\n# Sources\n\nPick a source.\n\n<DocCardList />\n")
    (cat / "add.md").write_text("---\nsidebar_position: 1\n---\n\n# Add a source\n\nClick **Sources** in the "
                                "[sidebar](../x.md), then *New*.\n")
    (cat / "remove.md").write_text("---\ntitle: Remove\ndescription: Delete a source you no longer use.\n---\n\nBody.\n")
    (cat / "draft.md").write_text("---\ndraft: true\n---\n\n# Draft\n\nHidden.\n")
    (cat / "secret.md").write_text("---\nunlisted: true\n---\n\n# Secret\n\nHidden.\n")
    (cat / "_part.md").write_text("Partial.\n")
    (cat / "02-cloud" / "a.md").write_text("# A\n\nText.\n")
    (cat / "02-cloud" / "b.md").write_text("# B\n\nText.\n")
    (cat / "02-cloud" / "index.md").write_text("---\nsidebar_label: Cloud sources\n---\n\n# Cloud\n")
    (cat / "extra").mkdir()
    (cat / "extra" / "x.md").write_text("# X\n")
    (cat / "extra" / "_category_.yml").write_text("label: Extras\nposition: 0\n")
    doc = convert_mdx(cat / "index.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert text.index("Extras\n\n1 item") < text.index("Add a source\n\nClick Sources in the sidebar, then New.") < text.index(
        "Cloud sources\n\n2 items") < text.index("Remove\n\nDelete a source you no longer use.")
    assert "Draft" not in text and "Secret" not in text and "Partial" not in text
    # the category's items given to a card list: Docusaurus's DocCardList, or a site's own component
    for tag in ("<DocCardList items={useCurrentSidebarCategory().items}/>", "<DocsCardList list={useCurrentSidebarCategory().items} />"):
        (cat / "index.mdx").write_text(
            "import DocCardList from '@theme/DocCardList';\nimport {DocsCardList} from '@site/src/components/DocsCard';\n"
            "import {useCurrentSidebarCategory} from '@docusaurus/theme-common';\n\n# Sources\n\n" + tag + "\n")
        doc = convert_mdx(cat / "index.mdx", site=site, assets_dir=tmp_path / "a")
        assert "Remove\n\nDelete a source you no longer use." in "\n".join(s.text for s in doc.sections)
    (root / "sidebars.js").write_text("module.exports = { docs: ['sources/index', 'sources/add'] };\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    doc = convert_mdx(cat / "index.mdx", site=site, assets_dir=tmp_path / "a")
    assert "Add a source" not in "\n".join(s.text for s in doc.sections)


def test_site_component_drawing_a_prop_as_img_is_an_image(tmp_path: Path) -> None:
    """A component of the site that draws one of its props as its <img> (a zoomable thumbnail:
    const resolved = require(`@site/static${src}`).default; <img src={resolved} {...rest} />) is an
    image whatever it is called; inside a <figure>, the <figcaption> is its caption. A component
    drawing an image of its own (a logo it imports) is not an image of the page."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "Thumbnail/index.tsx",
        "import React from 'react';\nconst Thumbnail = ({src, ...restProps}) => {\n"
        "  const resolved = require(`@site/static${src}`).default;\n"
        "  return (<div className=\"thumb\"><img src={resolved} {...restProps} /></div>);\n};\n"
        "export default Thumbnail;\n")
    _component(root, "Step.jsx",
        "export default function Step(props) {\n  return <li><img src={props.shot} alt={props.text} />{props.text}</li>;\n}\n")
    _component(root, "Badge.jsx",
        "import logo from './logo.png';\nexport default function Badge({ label }) {\n"
        "  return <span><img src={logo} />{label}</span>;\n}\n")
    (root / "docs" / "shots.mdx").write_text(
        "import Thumbnail from '@site/src/components/Thumbnail';\nimport Step from '../src/components/Step';\n"
        "import Badge from '@site/src/components/Badge';\n\n# Shots\n\nConfigure the query.\n\n<figure>\n"
        "  <Thumbnail src=\"/img/base.png\" alt=\"Query editor\" width='70%'/>\n"
        "  <figcaption align='center'><i>The query editor</i></figcaption>\n</figure>\n\n"
        "<Step shot=\"/img/required.png\" text=\"Open settings\" />\n\n<Badge label=\"Beta\" />\n\n"
        "<Step shot={require('@site/static/img/imported.png').default} text=\"Save\" />\n")
    doc = convert_mdx(root / "docs" / "shots.mdx", site=site, assets_dir=tmp_path / "a")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [m.path for m in images] == ["static/img/base.png", "static/img/required.png", "static/img/imported.png"]
    assert (images[0].alt, images[0].caption) == ("Query editor", "The query editor")


def test_site_component_imported_through_a_components_index(tmp_path: Path) -> None:
    """Components imported from a folder's index module that re-exports them (import { Term, Shot }
    from '@site/src/components', whose index.js holds export { default as Term } from './info/Term')
    are read from the module that defines them, as webpack resolves the import: the inline term
    component shows its term in the sentence (read as nothing before) and the image component is
    an image whose caption is the prop it renders under its <img>, not a bold line above it."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "index.js",
        "// site components\nexport { default as Term } from './info/Term';\n"
        "import Shot from './media/Shot';\nexport { Shot as Figure2 };\nexport { default } from './info/Term';\n")
    _component(root, "info/Term.js",
        "const Term = ({ word, hint }) => {\n  const [open, setOpen] = React.useState(false);\n"
        "  return (<span><span role=\"button\">{word}</span>{open && <div role=\"tooltip\">...</div>}</span>);\n};\n"
        "export default Term;\n")
    _component(root, "media/Shot.jsx",
        "export default function Shot({ src, alt, title }) {\n  return (<div className=\"shot\">\n"
        "    <img src={src} alt={alt || title} />\n    {title && <p className=\"shot-title\">{title}</p>}\n"
        "  </div>);\n}\n")
    (root / "docs" / "lag.mdx").write_text(
        "import { Term, Figure2 as Pic } from '@site/src/components';\n\n# Lag\n\n"
        "Always check the <Term word=\"queue delay\" hint=\"Seconds behind\" /> before you switch.\n\n"
        "<Pic\n    src=\"/img/base.png\"\n    title=\"Delay over one day\" />\n\nAfter the figure.\n")
    doc = convert_mdx(root / "docs" / "lag.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Always check the queue delay before you switch." in text
    assert "Seconds behind" not in text and "**Delay over one day**" not in text
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.path, m.caption) for m in images] == [("static/img/base.png", "Delay over one day")]
    # a TypeScript barrel: export * from './parts' where parts.tsx declares export const Pill
    (root / "src" / "ui").mkdir(parents=True)
    (root / "src" / "ui" / "index.ts").write_text("export * from './colors';\nexport * from './parts';\n")
    (root / "src" / "ui" / "colors.ts").write_text("export const red = '#f00';\n")
    (root / "src" / "ui" / "parts.tsx").write_text(
        "export const Pill = ({ plan }: { plan: string }) => <span className=\"pill\">{plan}</span>;\n")
    (root / "docs" / "plan.mdx").write_text(
        "import { Pill } from '@site/src/ui';\n\n# Plan\n\nAvailable on <Pill plan=\"Scale tier\" /> only.\n")
    doc = convert_mdx(root / "docs" / "plan.mdx", site=site, assets_dir=tmp_path / "a")
    assert "Available on Scale tier only." in "\n".join(s.text for s in doc.sections)


def test_components_registered_from_a_components_index(tmp_path: Path) -> None:
    """A swizzled MDXComponents registering components of a components index, by name (import
    { Term } from '@site/src/components', then { ...MDXComponents, Term }) or all of them (import *
    as Site from '@site/src/components', then ...Site), makes each usable on every page as the
    component that index exports under that name (not the index's default export)."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "index.js",
        "export { default as Term } from './parts/Term';\nexport { default as Plan } from './parts/Plan';\n"
        "export { default } from './parts/Other';\n")
    _component(root, "parts/Term.js",
        "export default function Term({ word }) {\n  return <abbr>{word}</abbr>;\n}\n")
    _component(root, "parts/Plan.js",
        "export default function Plan({ tier }) {\n  return <span className=\"plan\">{tier}</span>;\n}\n")
    _component(root, "parts/Other.js",
        "export default function Other({ word, tier }) {\n  return <b>{'other'}</b>;\n}\n")
    (root / "src" / "theme").mkdir(parents=True)
    (root / "src" / "theme" / "MDXComponents.js").write_text(
        "import MDXComponents from '@theme-original/MDXComponents';\nimport { Term } from '@site/src/components';\n"
        "import * as Site from '@site/src/components';\nexport default { ...MDXComponents, Term, ...Site };\n")
    (root / "docs" / "plans.mdx").write_text(
        "# Plans\n\nThe <Term word=\"quota\" /> resets daily. <Plan tier=\"Team plan\" />\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    doc = convert_mdx(root / "docs" / "plans.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "The quota resets daily." in text and "Team plan" in text


def test_site_component_playing_its_props_as_video_sources(tmp_path: Path) -> None:
    """A component of the site that renders props as the sources of its <video> (<source src={h264}
    type="video/mp4" />) plays the files given to them, as React renders it: <Clip h264={h264}
    vp9={vp9} /> with both imported from the page's folder is a video of that file. Before, props
    not named url/src were not read and the video was lost."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "Clip/index.tsx",
        "export default function Clip({ h264, vp9 }: { h264: string; vp9: string }) {\n"
        "  return (\n    <video controls>\n      <source src={vp9} type=\"video/webm\" />\n"
        "      <source src={h264} type=\"video/mp4\" />\n    </video>\n  )\n}\n")
    (root / "docs" / "media").mkdir(parents=True)
    (root / "docs" / "media" / "signup.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42")
    (root / "docs" / "media" / "signup.webm").write_bytes(b"\x1a\x45\xdf\xa3")
    (root / "docs" / "signup.mdx").write_text(
        "# Sign up\n\nThe form asks for an email.\n\n```mdx-code-block\nimport h264 from './media/signup.mp4'\n"
        "import vp9 from './media/signup.webm'\nimport Clip from '@site/src/components/Clip'\n\n"
        "<Clip h264={h264} vp9={vp9} />\n```\n\nThen confirm it.\n")
    doc = convert_mdx(root / "docs" / "signup.mdx", site=site, assets_dir=tmp_path / "a")
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert [v.path for v in videos] == ["docs/media/signup.mp4"]


def test_component_declared_by_the_page(tmp_path: Path) -> None:
    """A component the page declares itself (export const Snap = ({src, note}) => <figure><img
    src={src} /><figcaption>{note}</figcaption></figure>) is read like a site component: <Snap
    src="/img/base.png" note="..." /> is that image with its caption (it was lost), and a text
    component declared the same way still shows its children."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "snap.mdx").write_text(
        "export const Snap = ({src, note}) => (\n  <figure>\n    <img src={src} alt={note} />\n"
        "    <figcaption>{note}</figcaption>\n  </figure>\n);\n\n"
        "export function Mark({children}) {\n  return <mark>{children}</mark>;\n}\n\n# Snap\n\n"
        "Open the editor.\n\n<Snap src=\"/img/base.png\" note=\"The editor, split\" />\n\n"
        "Then <Mark>save twice</Mark> before closing.\n")
    doc = convert_mdx(root / "docs" / "snap.mdx", site=site, assets_dir=tmp_path / "a")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.path, m.caption) for m in images] == [("static/img/base.png", "The editor, split")]
    assert "Then save twice before closing." in "\n".join(s.text for s in doc.sections)


def test_component_with_an_image_shows_the_text_it_renders_above_it(tmp_path: Path) -> None:
    """A component that renders a step's number, title and description above its <img> (export const
    Step = ({n, title, desc, img}) => ... <div>{desc}</div><img src={img} />) shows them all as text
    with the screenshot: the description was lost and the number taken for the image's caption,
    which is only a prop it renders under the image."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "steps.mdx").write_text(
        "export const Step = ({ n, title, desc, img }) => (\n  <div style={{ display: 'flex' }}>\n"
        "    <div style={{ fontWeight: 700 }}>{n}</div>\n    <div>\n      <div>{title}</div>\n"
        "      <div style={{ fontSize: '14px' }}>{desc}</div>\n      <img src={img} alt={title} />\n"
        "    </div>\n  </div>\n);\n\n# Steps\n\n"
        "<Step\n    n=\"1\"\n    title=\"Describe your app\"\n    desc=\"Enter a prompt on the dashboard.\"\n"
        "    img=\"/img/base.png\"\n/>\n")
    doc = convert_mdx(root / "docs" / "steps.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Enter a prompt on the dashboard." in text and "Describe your app" in text
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.path, m.alt, m.caption) for m in images] == [("static/img/base.png", "Describe your app", "")]


def test_theme_component_of_the_site_itself(tmp_path: Path) -> None:
    """import Shot from '@theme/Shot' names the site's own src/theme/Shot when it has one (a custom or
    swizzled theme component: Docusaurus resolves @theme/ to the site's src/theme first), so its source
    is read like any site component's: the prop it writes in a <figcaption> under its <img> is the
    caption (it was a bold line above the image, the module never read)."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "src" / "theme" / "Shot").mkdir(parents=True)
    (root / "src" / "theme" / "Shot" / "index.tsx").write_text(
        "const Shot = ({ alt, src, title }) => (\n  <figure>\n    <img alt={alt} src={src} loading=\"lazy\" />\n"
        "    {title != null && (\n      <figcaption>{title}</figcaption>\n    )}\n  </figure>\n)\nexport default Shot\n")
    (root / "docs" / "shot.mdx").write_text(
        "import Shot from '@theme/Shot'\n\n# Shot\n\nThe grid.\n\n"
        "<Shot\n  alt=\"Result grid\"\n  src=\"/img/base.png\"\n  title=\"The grid after a query\"\n/>\n")
    doc = convert_mdx(root / "docs" / "shot.mdx", site=site, assets_dir=tmp_path / "a")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.path, m.alt, m.caption) for m in images] == [
        ("static/img/base.png", "Result grid", "The grid after a query")]


def test_site_component_text_prop_after_another_child_expression(tmp_path: Path) -> None:
    """A prop a component renders as a child right after another child expression ({icon && <img
    ... />}{caption}</a>, as React renders both) is its text: <Further to="/x" caption="..." kind=".." />
    shows its caption (only the kind was shown before)."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "Further.js",
        "const icons = { Go: '/img/go.svg' };\nexport default function Further({ to, caption, kind }) {\n"
        "  const icon = icons[kind];\n  return (\n    <div>\n      <a href={to}>\n"
        "        {icon && <img src={icon} alt=\"\" />}\n        {caption}\n      </a>\n"
        "      <span className=\"tag\">{kind}</span>\n    </div>\n  );\n}\n")
    (root / "docs" / "further.mdx").write_text(
        "import Further from '@site/src/components/Further';\n\n# Further\n\nRead on.\n\n"
        "<Further to=\"/retries\" caption=\"How retries back off\" kind=\"guide\" />\n")
    doc = convert_mdx(root / "docs" / "further.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "How retries back off" in text and "guide" in text and "/retries" not in text
    # the same for the fields of an array prop's items mapped to elements
    _component(root, "Steps.js",
        "export default function Steps({ steps }) {\n  return (<ol>{steps.map((s) => (\n"
        "    <li key={s.id}>{s.done && <span>✓</span>}{s.label}</li>\n  ))}</ol>);\n}\n")
    (root / "docs" / "steps.mdx").write_text(
        "import Steps from '@site/src/components/Steps';\n\n# Steps\n\n"
        "<Steps steps={[{ id: 'a', label: 'Create the bucket' }, { id: 'b', label: 'Grant access' }]} />\n")
    doc = convert_mdx(root / "docs" / "steps.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Create the bucket" in text and "Grant access" in text


def test_tabs_values_from_a_site_module(tmp_path: Path) -> None:
    """<Tabs values={consts.shells}> whose array is declared in a module of the site (import consts
    from '@site/core/TabLists', or { shells } imported by name) labels its TabItems as the array
    does, as the bundler resolves it: "Power shell", not the bare value "pwsh"."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "core").mkdir()
    (root / "core" / "TabLists.js").write_text(
        "const shells = [\n  {label: 'Power shell', value: 'pwsh'},\n  {label: 'Z shell', value: 'zsh'},\n];\n"
        "const defaultShell = 'zsh';\nexport const editors = [{ value: 'vi', label: 'Vim editor' }];\n"
        "export default { shells, defaultShell };\n")
    (root / "docs" / "shells.mdx").write_text(
        "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n"
        "import consts, { editors } from '@site/core/TabLists';\n\n# Shells\n\n"
        "<Tabs groupId=\"shell\" defaultValue={consts.defaultShell} values={consts.shells}>\n"
        "<TabItem value=\"pwsh\">\n\nRun the profile script.\n\n</TabItem>\n"
        "<TabItem value=\"zsh\">\n\nSource the rc file.\n\n</TabItem>\n</Tabs>\n\n"
        "<Tabs values={editors}>\n<TabItem value=\"vi\">\n\nOpen it.\n\n</TabItem>\n</Tabs>\n")
    text, _ = mdx_to_markdown((root / "docs" / "shells.mdx").read_text(), page_rel="docs/shells.mdx", site=site)
    assert "**Power shell**" in text and "**Z shell**" in text and "**Vim editor**" in text
    assert "**pwsh**" not in text


def test_site_component_renders_its_text_props(tmp_path: Path) -> None:
    """A component of the site that renders a prop as an element's child (<span>{tier}</span>) or maps
    an array prop to elements ({badges.map((b) => <a>{b.label}</a>)}) shows those strings, as React
    renders them; a plan badge written as <Badges badges={[{ label: "Enterprise", href: ... }]} /> read
    as nothing. Props the component does not render as text (href, color) and package components
    stay unread."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "Badges.js",
        "export default function Badges({ badges }) {\n  return (\n    <div className=\"badges\">\n"
        "      {badges.map((badge, i) => (\n        badge.href ? (\n"
        "          <a key={i} href={badge.href} className=\"badge\">\n            {badge.label}\n          </a>\n"
        "        ) : (<span key={i}>{badge.label}</span>)\n      ))}\n    </div>\n  );\n}\n")
    _component(root, "Tier.jsx",
        "const Tier = ({ tier, color }) => <span style={{ color }}>{tier}</span>;\nexport default Tier;\n")
    (root / "src" / "theme").mkdir(parents=True)
    (root / "src" / "theme" / "MDXComponents.js").write_text(
        "import MDXComponents from '@theme-original/MDXComponents';\nimport Badges from '@site/src/components/Badges';\n"
        "export default { ...MDXComponents, Badges };\n")
    (root / "docs" / "sso.mdx").write_text(
        "import Tier from '@site/src/components/Tier';\nimport Pill from 'pill-package';\n\n# Single sign-on\n\n"
        "<Badges\nbadges={[\n{ label: \"Enterprise\", href: \"https://example.com/pricing\" },\n"
        "{ label: 'Self-hosted' }\n]}\n/>\n\nConfigure the provider. <Tier tier=\"Business plan\" color=\"red\" />\n\n"
        "<Pill text=\"Package pill\" />\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    doc = convert_mdx(root / "docs" / "sso.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Enterprise" in text and "Self-hosted" in text and "Business plan" in text
    assert "example.com" not in text and "red" not in text and "Package pill" not in text


def test_site_component_builds_its_image_path_from_a_prop(tmp_path: Path) -> None:
    """A component of the site whose <img> src is a path built from its props
    (src={require(`@site/docs/shots/${id}`).default}) draws that file: <Shot id="menu.webp" /> was no
    image (the template's braces hid it, and id= is no image attribute). A prop the template needs but
    the tag lacks, or a path that is no image, stays no image."""
    site = _site(tmp_path)
    root = site.config.root
    (root / "docs" / "shots").mkdir(parents=True)
    (root / "docs" / "shots" / "menu.webp").write_bytes(PNG)
    _component(root, "Shot/index.js",
        "import React from 'react';\nexport default function Shot({ id, width = '600px', alt = '' }) {\n"
        "  return (\n    <Frame>\n      <img\n        src={require(`@site/docs/shots/${id}`).default}\n"
        "        alt={alt}\n        style={{ width }}\n      />\n    </Frame>\n  );\n}\n")
    (root / "docs" / "menu.mdx").write_text(
        "import Shot from '@site/src/components/Shot';\n\n# Menu\n\nOpen the menu.\n\n"
        "<Shot id=\"menu.webp\" width=\"500px\" alt=\"The main menu\" />\n\nNo id here.\n\n<Shot width=\"500px\" />\n\n"
        "<Shot id=\"notes.txt\" />\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    doc = convert_mdx(root / "docs" / "menu.mdx", site=site, assets_dir=tmp_path / "a")
    shots = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.path, m.alt) for m in shots] == [("docs/shots/menu.webp", "The main menu")]
    assert "Open the menu." in shots[0].context_before


def test_component_in_a_line_of_text_stays_in_its_paragraph(tmp_path: Path) -> None:
    """MDX makes an element with text beside it on its line a text (inline) element: it renders inside
    the paragraph. A glossary component wrapping a word (its title=/summary= shown only on hover) cut the
    sentence in two around a bold 'Process — A process is ...' block; a badge after a heading's words
    broke the heading. Now the wrapped words read in place, a self-closing badge's text stays inline,
    and an element alone on its line (also after a list marker) keeps its bold label."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "Term.js",
        "export default function Term({ href, title, summary, children }) {\n  return (<span><a href={href}>"
        "{children}</a>{summary ? (<span role=\"tooltip\"><b>{title}</b><span>{summary}</span></span>) : null}"
        "</span>);\n}\n")
    _component(root, "Tier.jsx",
        "const Tier = ({ tier }) => <span className=\"tier\">{tier}</span>;\nexport default Tier;\n")
    (root / "docs" / "terms.mdx").write_text(
        "import Term from '@site/src/components/Term';\nimport Tier from '@site/src/components/Tier';\n"
        "import Step from '@site/src/components/Step';\n\n"
        "# Terms\n\nThe <Term href=\"/g#p\" title=\"Process\" summary=\"A model of steps.\">process</Term> starts "
        "when a message arrives.\n\n## Audit log <Tier tier=\"Enterprise\" />\n\nEvents are kept.\n\n"
        "1. <Step title=\"Install the agent\" />\n\n   Run the installer.\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    doc = convert_mdx(root / "docs" / "terms.mdx", site=site, assets_dir=tmp_path / "a")
    assert "The process starts when a message arrives." in doc.sections[0].text
    assert "A model of steps." not in doc.sections[0].text
    assert doc.sections[1].heading_path[-1] == "Audit log Enterprise"
    assert "Install the agent\n\nRun the installer." in doc.sections[1].text


def test_long_names_in_an_array_prop_are_read_in_linear_time(
        tmp_path: Path, deadline: Callable[[int, str], Any]) -> None:
    # an array prop of a component that maps it to text (``{badges.map((b) => <span>{b.label}</span>)}``)
    # is searched for ``name: "text"`` fields; a search starting inside a long name rescanned it to its
    # end: 400 tags of a 1,900-character name took ~30 s, quadratic in the name
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "Badges.js",
        "export default function Badges({ badges }) {\n"
        "  return (<div>{badges.map((badge) => (<span>{badge.label}</span>))}</div>);\n}\n")
    (root / "docs" / "p.mdx").write_text(
        "import Badges from '@site/src/components/Badges';\n\n# Plans\n\n"
        + ("<Badges badges={[" + "x" * 1_900 + ", { label: 'Enterprise' }]} />\n\n") * 400 + "The end.\n")
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    with deadline(10, "object fields"):
        doc = convert_mdx(root / "docs" / "p.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert text.count("Enterprise") == 400 and text.endswith("The end.")


def test_site_component_drawing_its_children_in_a_code_block_is_code(tmp_path: Path) -> None:
    """A site component that renders its children in @theme/CodeBlock (a version picker filling
    in the release: <CodeBlock className={className}>{children.replace('latest', v)}</CodeBlock>)
    shows a code block: of its template literal child, escapes read as JavaScript reads them
    (`\\# x` is '# x', a line break kept), or of its text child; a component that does not draw
    a code block keeps its text as text."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "Pinned.jsx",
        "import CodeBlock from '@theme/CodeBlock'\nimport BrowserOnly from '@docusaurus/BrowserOnly'\n\n"
        "const Pinned = ({ children, className = 'language-bash' }) => (\n  <BrowserOnly>\n"
        "    {() => <CodeBlock className={className}>{children.replace('latest', 'v9.1')}</CodeBlock>}\n"
        "  </BrowserOnly>\n)\n\nexport default Pinned\n")
    _component(root, "Callout.jsx",
        "export default function Callout({ children }) {\n  return <div className=\"callout\">{children}</div>\n}\n")
    rel = "docs/pin.md"
    (root / rel).write_text(
        "import Pinned from '@site/src/components/Pinned'\nimport Callout from '@site/src/components/Callout'\n\n"
        "# Install\n\nWith Docker:\n\n<!-- prettier-ignore -->\n"
        "<Pinned className=\"language-sh\">{`\\# the default socket\ntool install --version latest`}\n</Pinned>\n\n"
        "Then the CRDs:\n\n<Pinned>\ncurl -sSL https://example.org/latest/crd.yaml | kubectl apply -f -\n</Pinned>\n\n"
        "<Callout>{`plain words`}</Callout>\n")
    md, _ = mdx_to_markdown((root / rel).read_text(), page_rel=rel, site=site)
    assert "```sh\n# the default socket\ntool install --version latest\n```" in md
    assert "```\ncurl -sSL https://example.org/latest/crd.yaml | kubectl apply -f -\n```" in md
    assert "{`" not in md and "\\#" not in md
    assert "plain words" in md and "```\nplain words" not in md


def test_site_component_drawing_props_in_code_blocks_shows_them_as_code_tabs(tmp_path: Path) -> None:
    """A site component that draws string props in @theme/CodeBlock inside its own <Tabs>
    (<OsTabs bash="..." powershell="..." />: a tab of commands per system) shows each given
    prop as a code block in the tab its module puts it in, labelled from the module's
    values={[...]}; a prop the tag does not give is no tab; outside tabs they are plain code."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "OsTabs.js",
        'import Tabs from "@theme/Tabs";\nimport TabItem from "@theme/TabItem";\n'
        'import CodeBlock from "@theme/CodeBlock";\n\nexport default function OsTabs({ ...props }) {\n'
        '  return (\n    <Tabs defaultValue="nix" values={[\n      { label: "Linux/BSD", value: "nix" },\n'
        '      { label: "Windows", value: "win" },\n      { label: "Kubernetes", value: "k8s" },\n    ]}>\n'
        '      <TabItem value="nix">\n        <CodeBlock className="language-bash">{props.bash}</CodeBlock>\n'
        '      </TabItem>\n      <TabItem value="win">\n        {props.powershell !== undefined ? (\n'
        '          <CodeBlock className="language-powershell">\n            {props.powershell}\n'
        '          </CodeBlock>\n        ) : <p>Not available</p>}\n      </TabItem>\n'
        '      <TabItem value="k8s">\n        <CodeBlock className="language-bash">{props.k8s}</CodeBlock>\n'
        '      </TabItem>\n    </Tabs>\n  );\n}\n')
    _component(root, "Cmd.js",
        'import CodeBlock from "@theme/CodeBlock";\n\n'
        'export default function Cmd({ run }) {\n  return <CodeBlock language="bash">{run}</CodeBlock>;\n}\n')
    rel = "docs/hub.mdx"
    (root / rel).write_text(
        "import OsTabs from '@site/src/components/OsTabs';\nimport Cmd from '@site/src/components/Cmd';\n\n"
        "# Hub\n\nUpdate the index:\n\n<OsTabs\n  bash=\"sudo pumpctl hub update\"\n"
        "  powershell=\"pumpctl.exe hub update\"\n/>\n\nThen:\n\n<Cmd run=\"pumpctl hub upgrade\" />\n")
    md, _ = mdx_to_markdown((root / rel).read_text(), page_rel=rel, site=site)
    assert "**Linux/BSD**\n\n```bash\nsudo pumpctl hub update\n```" in md
    assert "**Windows**\n\n```powershell\npumpctl.exe hub update\n```" in md
    assert "Kubernetes" not in md and "Not available" not in md and " — " not in md
    assert "```bash\npumpctl hub upgrade\n```" in md
    doc = convert_mdx(root / rel, site=site, assets_dir=tmp_path / "a")
    assert "Linux/BSD\n\nsudo pumpctl hub update\n\nWindows\n\npumpctl.exe hub update" in doc.sections[0].text


def test_site_component_written_with_an_empty_body_shows_its_text_props(tmp_path: Path) -> None:
    """An element written with an opening and a closing tag and nothing between them
    (``<Message caption="..." messageContent="..."></Message>``) has no children: React
    renders it as the self-closing form, so the props the component writes as text are
    shown (it was read as an inline tooltip wrapping words, and everything was dropped)."""
    site = _site(tmp_path)
    root = site.config.root
    _component(root, "Message.js",
        "export default function Message({ caption, messageContent }) {\n  return (\n    <div>\n"
        "      <div className=\"t\">{caption}</div>\n      <div>\n        <Icon className=\"e\" />\n"
        "        {messageContent}\n      </div>\n    </div>\n  );\n}\n")
    (root / "docs" / "errors.mdx").write_text(
        "import Message from '@site/src/components/Message';\n\n# Errors\n\nYou see:\n\n"
        "<Message\n    caption=\"Error message\"\n    messageContent=\"Source data exceeds 50 fields.\"></Message>\n\n"
        "Then fix it.\n")
    doc = convert_mdx(root / "docs" / "errors.mdx", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Error message" in text and "Source data exceeds 50 fields." in text and "Then fix it." in text


def test_openapi_docs_generated_pages_read_their_endpoint_and_parameters(tmp_path: Path) -> None:
    """docusaurus-openapi-docs writes API pages (authentik's developer-docs/api/reference/*.api.mdx)
    whose text lives in component props: <Heading as="h2" children="Request">, <MethodEndpoint
    method path>, <ParamsItem param={{...}}>, <SchemaItem name schemaName schema={{...}}>. murar kept
    only loose words ('Query Parameters', 'domain'); the endpoint, the parameter names and their
    descriptions were lost and 'Request' was no heading."""
    page = '''---
title: "core_brands_list"
hide_title: true
---
import MethodEndpoint from "@theme/ApiExplorer/MethodEndpoint";
import ParamsItem from "@theme/ParamsItem";
import SchemaItem from "@theme/SchemaItem";
import Heading from "@theme/Heading";

<MethodEndpoint
  method={"get"}
  path={"/core/brands/"}
>
</MethodEndpoint>

Brand Viewset

<Heading
  id={"request"}
  as={"h2"}
  children={"Request"}
>
</Heading>

<ul>
  <ParamsItem
    className={"paramsItem"}
    param={{"name":"ordering","required":false,"in":"query","description":"Which field to use when ordering the results.","schema":{"type":"string"}}}
  >
  </ParamsItem>
</ul>

<SchemaItem
  collapsible={false}
  name={"domain"}
  required={true}
  schemaName={"string"}
  schema={{"type":"string","description":"Domain that activates this brand."}}
>
</SchemaItem>
'''
    doc = _convert_page(tmp_path, "core-brands-list.api.mdx", page)
    assert [s.heading_path[-1] for s in doc.sections] == ["core_brands_list", "Request"]
    assert "GET /core/brands/" in doc.sections[0].text
    request = doc.sections[1].text
    assert "ordering (query, string): Which field to use when ordering the results." in request
    assert "domain (string, required): Domain that activates this brand." in request
def test_a_list_indented_under_its_jsx_tag_keeps_its_items(tmp_path: Path) -> None:
    """MDX has no indented code: a ``<TabItem>``'s steps indented 4 spaces under it are a list
    (micromark reads a list item at any indentation). markdown-it took each next item for the
    previous one's paragraph going on: "Download it. 2. Open it" as one step, its picture
    after both; now each step is a paragraph of its own."""
    doc = _convert_page(tmp_path, "steps.mdx", (
        "# Install\n\nimport Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n<Tabs>\n"
        '  <TabItem value="mac" label="macOS">\n    1. Download it.\n    2. Open it:\n\n'
        "        ![Drag](/img/base.png)\n\n    3. Start it.\n  </TabItem>\n"
        '  <TabItem value="win" label="Windows">\n    - Run the setup.\n    - Accept the license.\n'
        "  </TabItem>\n</Tabs>\n"))
    text = doc.sections[0].text
    assert "Download it.\n\nOpen it:\n\nStart it." in text and "Run the setup.\n\nAccept the license." in text
    image = next(m for m in doc.media if isinstance(m, ImageItem))
    assert image.tab == "macOS" and image.context_before.endswith("Download it.\nOpen it:")


def test_an_indented_list_after_a_paragraph_line_starts_a_list(tmp_path: Path) -> None:
    """The same under a paragraph line: ZITADEL's "choose the authentication options:" then
    its options, 8 spaces in inside a ``<TabItem>``. A list item ends the paragraph in MDX;
    markdown-it took every line indented past the paragraph for its continuation:
    "options: - Setup later - Send an invitation". A deeper line that starts nothing
    still continues the paragraph."""
    doc = _convert_page(tmp_path, "options.mdx", (
        "# Users\n\nimport Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n<Tabs>\n"
        '    <TabItem value="human" label="Human">\n        Choose the options:\n'
        "        - **Setup later**: no method yet.\n        - **Send an invitation**: by email.\n"
        "            - With Login V2 the user picks the method\n"
        "        Then save,\n                and wait.\n    </TabItem>\n</Tabs>\n"))
    text = doc.sections[0].text
    assert "Choose the options:\n\nSetup later: no method yet." in text and " - " not in text
    assert "With Login V2 the user picks the method" in text
@pytest.mark.parametrize(("body", "kept"), [
    # 100,000 lines of '{' (200 KB) each scanned the 400 lines below for its closing brace: 42 s
    ("{\n" * 150_000, "{"),
    # each {expression} line rebuilt the page's list of lines: 50,000 of them (300 KB) took 25 s
    ("{'a'}\n" * 80_000, "a"),
    # each unclosed mdx-code-block opener searched to the page end for its fence: 11,000 (200 KB), 12.5 s
    ("```mdx-code-block\n" * 30_000, "mdx-code-block"),
])
def test_expressions_and_mdx_code_blocks_are_read_in_linear_time(
        tmp_path: Path, deadline: Callable[[int, str], Any], body: str, kept: str) -> None:
    site = _site(tmp_path)
    with deadline(20, "expression or mdx-code-block scans quadratic in the page's lines"):
        md, _ = mdx_to_markdown("# T\n\n" + body + "\nThe end.\n", page_rel="docs/p.mdx", site=site)
    assert md.rstrip().endswith("The end.") and md.count(kept) >= body.count(kept) // 2


def test_partials_inlined_are_bounded_per_page(tmp_path: Path) -> None:
    """A partial using the next one five times, five deep, was 781 inlines (ten times, 111,111);
    and 20 uses of a 980 KB partial made 19,600,000 characters from a 300-byte page (30 s).
    A page inlines at most MAX_PARTIALS partials and MAX_PARTIAL_CHARS characters."""
    site = _site(tmp_path)
    root = site.config.root
    for level in range(4):
        (root / "docs" / f"_p{level}.mdx").write_text(
            f"import Next from './_p{level + 1}.mdx';\n\n" + "<Next />\n\n" * 5)
    (root / "docs" / "_p4.mdx").write_text("LEAF\n")
    md, warnings = mdx_to_markdown("import P from './_p0.mdx';\n\n# T\n\n<P />\n\nThe end.\n",
                                   page_rel="docs/p.mdx", site=site)
    assert 0 < md.count("LEAF") < 625 and md.rstrip().endswith("The end.")
    assert sum("partials or" in w for w in warnings) == 1


def test_partial_characters_are_bounded_per_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The characters a page's partials inline share one budget (lowered here to keep the page
    small): 30 uses of a 10,500-character partial under 100,000 inline nine, with one warning."""
    from murar.ingest.markup import mdx

    monkeypatch.setattr(mdx, "MAX_PARTIAL_CHARS", 100_000)
    site = _site(tmp_path)
    (site.config.root / "docs" / "_part.mdx").write_text("Partial words here.\n\n" * 500)  # 10,500 chars
    md, warnings = mdx_to_markdown("import P from './_part.mdx';\n\n# T\n\n" + "<P />\n\n" * 30 + "The end.\n",
                                   page_rel="docs/p.mdx", site=site)
    assert md.count("Partial words here.") == 9 * 500 and md.rstrip().endswith("The end.")
    assert [w for w in warnings if "partials or" in w] == [
        "partial docs/_part.mdx: over 500 partials or 100000 characters inlined in the page; not inlined, nor the later ones"]
