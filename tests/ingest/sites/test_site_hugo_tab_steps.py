"""Hugo: a tab set opened inside a list step stays in that step, whatever the indentation
of its content (Hugo replaces a shortcode by its output where it stands)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from murar.ingest.corpus import convert_file
from murar.ingest.sites import hugo
from murar.schema import TableItem

# the tabs' fences at the margin under a step's tabpane, the step going on after the set
# with a heading and a table of its own (the OpenTelemetry docs write their steps so)
PAGE = """---
title: Run
---

## Get it

1.  Fetch the widget.

2.  Start it:

    {{< tabpane text=true >}} {{% tab Make %}}

```shell
make start
```

    {{% /tab %}} {{% tab Docker %}}

```shell
docker compose up \\
  --detach
```

    {{% /tab %}} {{< /tabpane >}}

    ### Start modes

    The widget starts in one of these modes:

    | Mode | Target |
    | --- | --- |
    | Full | `make start` |

    For example, the small one:

    {{< tabpane text=true >}} {{% tab Make %}}

```shell
make start-small
```

    {{% /tab %}} {{< /tabpane >}}

3. Done.

## Next

Read on.
"""


def test_tab_set_in_a_list_step_keeps_the_step(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/docs/run.md", PAGE)
    site = hugo.load(tmp_path)
    doc = convert_file(tmp_path / "content/docs/run.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    by_path = {tuple(s.heading_path): s.text for s in doc.sections}
    assert list(by_path) == [("Run", "Get it"), ("Run", "Get it", "Start modes"), ("Run", "Next")]
    step = by_path[("Run", "Get it", "Start modes")]
    # the step's heading is a heading and its table a table, not an indented code block
    assert "###" not in step and "| Mode |" not in step and "The widget starts in one of these modes:" in step
    assert any(isinstance(m, TableItem) for m in doc.media)
    # both tab sets read as tabs: their code as code, no marker left as text
    assert "make start-small" in step and "murar-tabs" not in step
    first = by_path[("Run", "Get it")]
    assert "make start" in first and "docker compose up \\\n  --detach" in first and "murar-tabs" not in first


def test_tab_set_in_a_step_with_content_indented_under_it(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Content written deeper than the step (under the tab tags) comes back to the step's column,
    not to the margin: the step goes on after the set."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/docs/run.md", "---\ntitle: Run\n---\n\n1. Install:\n\n   {{< tabs >}}\n"
          "     {{< tab \"Linux\" >}}\n     Run `apt install w`.\n     {{< /tab >}}\n   {{< /tabs >}}\n\n"
          "   Then check it:\n\n       w --version\n\n2. Done.\n")
    site = hugo.load(tmp_path)
    out = site.preprocess((tmp_path / "content/docs/run.md").read_text(), page_rel="content/docs/run.md")
    assert "\n   <!-- murar-tabs:open -->" in out and "\n   Run `apt install w`." in out
    assert "\n   <!-- murar-tabs:close -->" in out


def test_tab_set_outside_a_list_is_unchanged(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    out = site.preprocess("Intro.\n\n{{< tabpane text=true >}}\n{{% tab Make %}}\n\n```shell\nmake\n```\n\n"
                          "{{% /tab %}}\n{{< /tabpane >}}\n", page_rel="content/docs/run.md")
    assert "\n<!-- murar-tabs:open -->" in out and "\n```shell\nmake\n```" in out


def test_markdown_delimited_tab_set_content_is_not_moved(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A {{% %}} set's output is Markdown in the page (Hugo 0.55+): its content at the margin
    stays there."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    site = hugo.load(tmp_path)
    out = site.preprocess("1. Run:\n\n   {{% tabs %}}\n{{% tab \"A\" %}}\n\n```shell\nmake\n```\n\n"
                          "{{% /tab %}}\n   {{% /tabs %}}\n", page_rel="content/docs/run.md")
    assert "\n```shell\nmake\n```" in out


def test_tab_labels_of_a_set_written_at_the_step_stay_in_the_step(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Tabs, labels and fences all written at the step's column: the tabs' code is code and the
    step's text after the set is the step's, not a code block."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\n')
    write(tmp_path, "content/docs/run.md", "---\ntitle: Run\n---\n\n## Start\n\n1. Install.\n\n"
          "    {{< tabpane text=true >}}\n    {{% tab header=\"Shell\" %}}\n\n    ```shell\n    pip install w\n"
          "    ```\n\n    {{% /tab %}}\n    {{% tab header=\"Notebook\" %}}\n\n    ```bash\n    !pip install w\n"
          "    ```\n\n    {{% /tab %}}\n    {{< /tabpane >}}\n\n    Tested up to 8.0.\n\n2. Import.\n")
    site = hugo.load(tmp_path)
    doc = convert_file(tmp_path / "content/docs/run.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    text = doc.sections[0].text
    assert "```" not in text and "murar-tabs" not in text and "**" not in text
    assert "Shell\n\npip install w\n\nNotebook\n\n!pip install w\n\nTested up to 8.0." in text
