"""Jekyll Liquid rendered in document order: assign/capture before the tags that read
them, filters on lists, loops over hashes, break/continue, includes sharing the
page's variables. All pages are made up."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from murar.ingest.sites import jekyll


def _render(tmp_path: Path, write: Callable[..., Path], page: str, config: str = "title: T\n",
            files: dict[str, str] | None = None) -> str:
    write(tmp_path, "_config.yml", config)
    for rel, text in (files or {}).items():
        write(tmp_path, rel, text)
    site = jekyll.load(tmp_path, "_config.yml")
    out = site.preprocess("---\ntitle: P\n---\n" + page, page_rel="index.md", warnings=[])
    return out.split("---\n", 2)[2]


def test_assigned_values_decide_the_conditions_and_loops_after_them(tmp_path: Path,
                                                                    write: Callable[..., Path]) -> None:
    """Liquid renders in order: a condition on a variable assigned just before it keeps
    one branch (every branch was kept: the conditions were read before any assign ran),
    and a loop over a list built with ``split`` repeats (it was kept once, empty)."""
    page = ("{% assign mode = 'cloud' %}{% if mode == 'cloud' %}Cloud steps.{% else %}Server steps.{% endif %}\n"
            "{% assign os = 'linux,mac' | split: ',' %}{% for o in os %}[{{ o }}]{% endfor %} "
            "{{ os | size }} {{ os | last }} {{ os | join: ' and ' }}\n")
    assert _render(tmp_path, write, page) == "Cloud steps.\n[linux][mac] 2 mac linux and mac\n"


def test_loops_over_hashes_break_and_continue(tmp_path: Path, write: Callable[..., Path]) -> None:
    """``for x in hash`` gives ``[key, value]`` pairs; ``{% continue %}`` and ``{% break %}``
    end an iteration or the loop; an assign inside the loop stays set after it."""
    page = ("{% for kv in site.data.ports %}{{ kv[0] }}={{ kv[1] }};{% endfor %}\n"
            "{% for i in (1..9) %}{% if i == 2 %}{% continue %}{% endif %}{% if i > 4 %}{% break %}{% endif %}"
            "{% assign seen = i %}{{ i }}{% endfor %} last={{ seen }}\n")
    out = _render(tmp_path, write, page, files={"_data/ports.yml": "http: 80\nssh: 22\n"})
    assert out == "http=80;ssh=22;\n134 last=4\n"


def test_array_filters_where_sort_map_first(tmp_path: Path, write: Callable[..., Path]) -> None:
    page = ("{% assign stable = site.data.tools | where: 'stage', 'stable' | sort: 'name' %}"
            "{{ stable | map: 'name' | join: ', ' }}|{{ stable.first.name }}|{{ site.data.tools | size }}|"
            "{% assign beta = site.data.tools | where_exp: 't', 't.stage != \"stable\"' %}{{ beta[0].name }}\n")
    data = "- name: zeta\n  stage: stable\n- name: alpha\n  stage: stable\n- name: mu\n  stage: beta\n"
    assert _render(tmp_path, write, page, files={"_data/tools.yml": data}) == "alpha, zeta|alpha|3|mu\n"


def test_an_include_sets_variables_the_page_reads(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Jekyll renders an include in the page's context: a value it assigns (a theme's
    ``base_path.html`` computing a root path) is there for the lines after the include;
    whitespace control beside a ``{%- comment -%}`` trims the text next to it."""
    include = ("{%- comment -%} Computes the root. {%- endcomment -%}\n\n"
               "{% if site.url %}{% assign root = site.url | append: site.baseurl %}{% else %}"
               "{% assign root = '.' %}{% endif %}")
    page = "{% include base.html %}Start at [home]({{ root }}/index.html).\n"
    out = _render(tmp_path, write, page, config="title: T\nurl: https://x.org\nbaseurl: /docs\n",
                  files={"_includes/base.html": include})
    assert out == "Start at [home](https://x.org/docs/index.html).\n"


def test_a_video_include_built_from_parameters(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A theme include that splits its ``src`` parameter, measures and slices it and
    loops over the types (the Chirpy ``embed/video.html`` pattern): each ``<source>``
    gets the file's path and type, and an unset ``title`` writes no caption."""
    include = ("{% assign url = include.src %}{% assign types = include.types | default: '' | split: '|' %}"
               "{% assign ext = url | split: '.' | last %}{% assign types = ext | concat: types %}"
               "{% assign cut = url | size | minus: ext.size %}{% assign stem = url | slice: 0, cut %}"
               "<video>{% for t in types %}<source src=\"{{ stem | append: t }}\" type=\"video/{{ t }}\">{% endfor %}"
               "</video>{% if include.title %}<em>{{ include.title }}</em>{% endif %}")
    page = "{% include video.html src='/media/demo.mp4' types='webm' %}\n"
    out = _render(tmp_path, write, page, files={"_includes/video.html": include})
    assert out == ('<video><source src="/media/demo.mp4" type="video/mp4"><source src="/media/demo.webm"'
                   ' type="video/webm"></video>\n')


def test_null_config_values_are_known_and_missing_site_keys_are_not(tmp_path: Path,
                                                                    write: Callable[..., Path]) -> None:
    """``cdn:`` with no value is nil (one branch); a key the config lacks may come from
    the theme's config or Jekyll itself (``site.pages``): every branch stays."""
    page = "{% if site.cdn %}CDN{% else %}local{% endif %}|{% if site.theme_color %}A{% else %}B{% endif %}\n"
    assert _render(tmp_path, write, page, config="title: T\ncdn:\n") == "local|AB\n"


@pytest.mark.parametrize("page", [
    # each character replaced by the whole value: 10**10 characters if built whole
    '{% assign a = "' + "a" * 100_000 + '" %}{% assign b = a | replace: "a", a %}{{ b | size }}',
    # 10,000 items of 90,000 characters joined 200 times
    '{% assign a = "' + "a" * 90_000 + '" | split: "," %}' + "{% assign a = a | concat: a %}" * 20
    + '{{ a | join: "-" }}' * 200,
    # the whole site (a 2,000-entry data file) as JSON, 300 times
    "{{ site | jsonify }}" * 300,
    # uniq over 10,000 values, 100 times
    '{% assign l = site.data.big | map: "name" %}' + "{% assign l = l | concat: l %}" * 4 + "{{ l | uniq | size }}" * 100,
])
def test_value_filters_are_bounded(tmp_path: Path, write: Callable[..., Path], page: str,
                                   deadline: Callable[[int, str], Any]) -> None:
    """Filters that grow a value stop at the value limit (and the page at its output
    limit) instead of building gigabytes: each of these finished in under a second."""
    big = "".join(f"- name: n{i}\n  text: {'y' * 200}\n" for i in range(2_000))
    with deadline(60, page[:40]):
        out = _render(tmp_path, write, page, files={"_data/big.yml": big})
    assert len(out) <= jekyll._MAX_RENDERED_CHARS + jekyll._MAX_VALUE_CHARS


def test_render_with_liquid_false_keeps_the_tags_as_written(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Jekyll 4 "Front Matter": ``render_with_liquid: false`` leaves the page's Liquid
    unrendered, so a page documenting tags shows them (they were run: an include tag in
    a code example was looked up and dropped, ``{% raw %}`` markers vanished)."""
    write(tmp_path, "_config.yml", "title: T\n")
    site = jekyll.load(tmp_path, "_config.yml")
    page = ("---\ntitle: Writing\nrender_with_liquid: false\n---\n"
            "Embed a video with `{% include embed/youtube.html id='ID' %}`; wrap examples in `{% raw %}`.\n")
    warnings: list[str] = []
    out = site.preprocess(page, page_rel="_posts/2020-01-01-writing.md", warnings=warnings)
    assert out.endswith("`{% include embed/youtube.html id='ID' %}`; wrap examples in `{% raw %}`.\n")
    assert warnings == []


# ------------------------------------------------------------------ hostile Liquid

def _hostile(tmp_path: Path, write: Callable[..., Path], page: str) -> tuple[str, list[str]]:
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "_data/big.yml", "".join(f"- name: n{i}\n  a: {i}\n" for i in range(600)))
    site = jekyll.load(tmp_path, "_config.yml")
    warnings: list[str] = []
    out = site.preprocess("# T\n\n" + page + "\n\nThe text after.\n", page_rel="index.md", warnings=warnings)
    return out, warnings


@pytest.mark.parametrize("page", [
    "{{ 1" + "1" * 5_000 + " }}",  # int() of 5,000 digits: ValueError took the page
    "{% assign a = 10 %}" + "{% assign a = a | times: a %}" * 40 + "{{ a }}",  # 10**(2**40): minutes, gigabytes
    "{{ 10 | round: -99999999999 }}",  # builds 10**99999999999
])
def test_numbers_too_large_for_any_page_are_not_built(tmp_path: Path, write: Callable[..., Path], page: str,
                                                      deadline: Callable[[int, str], Any]) -> None:
    with deadline(20, page[:30]):
        out, _ = _hostile(tmp_path, write, page)
    assert "The text after." in out and len(out) < 1_000


@pytest.mark.parametrize("page", [
    "{% if a" + " " * 100_000 + "b %}x{% endif %}",  # the and/or split, then the comparison
    "{% case a %}{% when b" + " " * 100_000 + "x %}y{% endcase %}",  # the when split
    "{{ (" + "." * 100_000 + " }}",  # the range pattern
    "{{ a[" + " " * 100_000 + "x }}",  # a bracket of the value path
    "{% include missing.html " + "a" * 100_000 + " %}",  # the include's parameter names
    "{% link " + "{{ a" * 25_000 + " %}",  # link's {{ }} without a closer
])
def test_long_runs_in_tag_arguments_are_linear(tmp_path: Path, write: Callable[..., Path], page: str,
                                               deadline: Callable[[int, str], Any]) -> None:
    """Each of these took 14 s to minutes (a pattern tried at every character of a run,
    scanning the run each time); now well under a second."""
    with deadline(10, page[:30]):
        out, _ = _hostile(tmp_path, write, page)
    assert "The text after." in out


def test_nested_ranges_do_not_recurse(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A range's ends are single words (Liquid's RangesRegex): ``(1..(1..(...)))`` 3,000
    deep was a RecursionError that lost the page."""
    out, _ = _hostile(tmp_path, write, "{{ " + "(1.." * 3_000 + "1" + ")" * 3_000 + " }}"
                      "{% for i in (1..3) %}{{ i }}{% endfor %}")
    assert "123" in out and "The text after." in out


@pytest.mark.parametrize("page", [
    # 500 iterations of 20,000 assigns
    "{% for i in (1..500) %}" + "{% assign b = i %}" * 20_000 + "{% endfor %}",
    # a where_exp of 30 comparisons over 600 items in each of 2,000 iterations
    '{% for i in (1..500) %}{% assign k = site.data.big | where_exp: "it", "' + "it.a == 3 or " * 29
    + 'it.a == 4" %}{% endfor %}' * 4,
    # 10,000 sorts of 10,000 items
    '{% assign a = "' + "b a " * 5_000 + '" | split: " " %}' + "{% assign b = a | sort %}" * 10_000,
    # 200 iterations of 3,000 filters on a 100,000-character value
    '{% assign a = "' + "x" * 100_000 + '" %}{% for i in (1..200) %}{{ a' + " | upcase" * 3_000
    + " | size }}{% endfor %}",
    # markdownify of 100,000 characters markdown-it is slowest on (8 s each), 60 times
    '{% assign a = "' + "[a](" * 25_000 + '" %}' + "{{ a | markdownify | size }}" * 60,
])
def test_the_work_of_a_page_is_bounded(tmp_path: Path, write: Callable[..., Path], page: str,
                                       deadline: Callable[[int, str], Any]) -> None:
    """Loops, includes and output had limits, but not the work a loop body or a filter
    chain does: each of these ran for 40 s to minutes. The page stops running tags after
    its work limit (a warning says so) and keeps its text, in a few seconds."""
    with deadline(30, page[:40]):
        out, warnings = _hostile(tmp_path, write, page)
    assert "The text after." in out
    assert any("work allowed" in w or "markdownify over" in w for w in warnings)


def test_tags_after_the_work_limit_keep_their_text(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Past the work limit the page reads as a static reader reads unknown values: text
    kept, every branch of a condition kept, a loop's body once, no output of values."""
    page = ("{% for i in (1..500) %}" + "{% assign b = i %}" * 20_000 + "{% endfor %}"
            "{% if site.title == 'T' %}Kept A{% else %}Kept B{% endif %}"
            "{% for x in site.data.big %}<{{ x.name }}>{% endfor %}")
    out, warnings = _hostile(tmp_path, write, page)
    assert "Kept A" in out and "Kept B" in out and out.count("<>") == 1
    assert len([w for w in warnings if "work allowed" in w]) == 1


def test_plugin_tags_show_their_title_and_leave_no_empty_emphasis(tmp_path: Path,
                                                                  write: Callable[..., Path]) -> None:
    """A site plugin's tag (Ruby, not run) writes its title="..." argument, as an unknown Hugo
    shortcode keeps its title (Home Assistant's {% my %} link text); one without a title writes
    nothing, and bold or italics that held only it go too ('****' read as text otherwise)."""
    page = ('Go to {% my automations title="**Settings** > **Automations**" %}.\n'
            "Select the blue **{% my blueprint_import blueprint=\"https://x.org/a.yaml\" %}** button, "
            "then _{% icon \"mdi:menu\" %}_ Menu {% icon 'mdi:dots' %}.\n"
            "Keep **bold** and a ** literal.\n")
    assert _render(tmp_path, write, page) == ("Go to **Settings** > **Automations**.\n"
                                              "Select the blue  button, then  Menu .\n"
                                              "Keep **bold** and a ** literal.\n")


def test_a_capture_of_a_plugin_tag_is_empty(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A plugin's tag that writes nothing leaves a capture empty, so a condition on it reads as
    Jekyll's would (the mark murar leaves to clean emphasis around such a tag is not captured)."""
    page = ('{% capture badge %}{% plugin_badge %}{% endcapture %}'
            '{% if badge == "" %}No badge.{% else %}Badge: [{{ badge }}]{% endif %}\n')
    assert _render(tmp_path, write, page) == "No badge.\n"


def test_plugin_callout_and_details_blocks_read_as_labelled_blocks(tmp_path: Path,
                                                                  write: Callable[..., Path]) -> None:
    """A plugin's block tag named as a callout kind ({% important %}...{% endimportant %}, Home
    Assistant's and preCICE's alerts, which title the box with the kind) reads as the other
    generators' callouts, a title="..." after the kind; {% details "Title" %} shows its summary
    line. Before, only the body was kept, so the box and its summary were lost."""
    page = ('{% important %}\nNo live view.\n{% endimportant %}\n\n{% note title="Heads up" %}\nBody.\n{% endnote %}\n\n'
            '{% details "Generate a token" %}\n1. Open the app.\n{% enddetails %}\n')
    out = _render(tmp_path, write, page)
    assert "**Important:**\n" in out and "No live view." in out
    assert "**Note: Heads up**" in out and "**Generate a token**\n" in out and "1. Open the app." in out
    assert "endimportant" not in out and "enddetails" not in out
def test_an_undefined_variable_is_nil_so_default_applies(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Liquid reads a variable nothing set as nil: ``{{ name | default: page.title }}`` in an
    include (Home Assistant's integration snippets) writes the page title. It wrote nothing,
    and the page read "the **** integration"; Jekyll's own ``paginator`` stays unknown."""
    include = "Add the **{{ name | default: page.title }}** integration{{ paginator.page | default: '!' }}.\n"
    out = _render(tmp_path, write, "{% include snippet.md %}", files={"_includes/snippet.md": include})
    assert out == "Add the **P** integration.\n"


_IMAGE_PLUGIN = '''module Jekyll
  class PictureTag < Liquid::Tag
    def render(context)
      src, caption = @markup.strip.split(" ", 2)
      baseurl = context.registers[:site].config['baseurl']
      "<a href=\\"#{baseurl}/media/#{src}\\"><img class=\\"shot\\" src=\\"#{baseurl}/media/#{src}\\" alt=\\"#{caption}\\" /></a>"
    end
  end
end
Liquid::Template.register_tag('shot', Jekyll::PictureTag)
'''


def test_a_site_plugin_image_tag_is_the_picture_its_plugin_writes(tmp_path: Path, write: Callable[..., Path],
                                                                  png: bytes) -> None:
    """A tag of the site's own plugin (Ruby in _plugins, not run) that writes <img src="#{baseurl}/
    media/#{src}"> is that picture: its first argument in the plugin's src, the rest its caption
    (bitwarden/help's {% image path caption %}, a leading '/' in the argument too). Such tags wrote
    nothing, so every screenshot of the site was lost. A plugin registering several tags, or whose
    src holds no argument, is not read; an unknown tag still writes nothing."""
    from murar.ingest.markup.registry import converter_for
    from murar.schema import ImageItem

    write(tmp_path, "_config.yml", "title: T\nbaseurl: /help\n")
    write(tmp_path, "_plugins/shot.rb", _IMAGE_PLUGIN)
    write(tmp_path, "_plugins/two.rb", _IMAGE_PLUGIN.replace("register_tag('shot'", "register_tag('pic'")
          + "Liquid::Template.register_tag('pic2', Jekyll::PictureTag)\n")
    write(tmp_path, "_plugins/logo.rb", "Liquid::Template.register_tag('logo', X)\n"
          "# '<img src=\"/static/logo.png\">'\n")
    for name in ("media/app/tab.png", "media/menu.png"):
        write(tmp_path, name, png)
    write(tmp_path, "_posts/2020-01-01-p.md", (
        "---\ntitle: P\n---\n# P\n\n1. Open the menu. {% shot menu.png %}\n"
        "2. Pick a tab:\n\n   {% shot /app/tab.png The tab list %}\n\n{% pic menu.png %}{% logo %}Done.\n"
        "{% shot menu.png width=300 %} {% shot menu.png width=300 alt=\"Main menu\" %}\n"))
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "_posts/2020-01-01-p.md", site=site, assets_dir=tmp_path / "_a")
    shots = [(m.path, m.alt) for m in doc.media if isinstance(m, ImageItem)]
    assert shots == [("media/menu.png", ""), ("media/app/tab.png", "The tab list"), ("media/menu.png", ""),
                     ("media/menu.png", "Main menu")]
    text = doc.sections[0].text
    assert "Open the menu." in text and "Done." in text and "{%" not in text and "shot" not in text


def test_plugin_callout_blocks_naming_their_kind_are_labelled(tmp_path: Path, write: Callable[..., Path]) -> None:
    """{% callout warning %}...{% endcallout %} (a site plugin's box of that kind, bitwarden/help's
    callout.rb; also alert and admonition) reads as a labelled callout of that kind, a title="..."
    after it; without a kind it is a note. Before, only the body was kept, the box not marked."""
    page = ("{% callout warning %}\nAvoid editing data.json.\n{% endcallout %}\n\n"
            "{% callout success %}Pin it.{% endcallout %}\n\n{% alert info title=\"Heads up\" %}\nBody.\n{% endalert %}\n\n"
            "{% callout %}\nPlain.\n{% endcallout %}\n\n{% alert type=\"danger\" %}Gone.{% endalert %}\n")
    out = _render(tmp_path, write, page)
    assert "**Warning:**\n" in out and "Avoid editing data.json." in out
    assert "**Success:**\n\nPin it." in out and "**Info: Heads up**" in out and "**Note:**\n" in out
    assert "**Danger:**\n\nGone." in out and "endcallout" not in out and "endalert" not in out


def test_a_plugin_callout_inside_a_list_step_stays_in_that_step(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A plugin callout written in a list step (bitwarden/help: '    {% note %}Text{% endnote %}'
    under '1. Download the script:') is labelled at the step's indentation, so the step goes on: its
    label at column 0 ended the list, and the indented code block after it read three spaces deep
    ('   curl -Lso ...'). A callout after a list marker on its line is written at the item's content."""
    from murar.ingest.markup.registry import converter_for

    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "page.md", (
        "---\ntitle: P\n---\n# P\n\n1. Download the script:\n\n    {% note %}All files go in `./data`.{% endnote %}\n\n"
        "    Bash\n\n       curl -Lso run.sh https://x.org/sh\n\n2. Start it.\n"
        "3. {% callout warning %}Keep the key.{% endcallout %}\n\n   Then go on.\n"))
    site = jekyll.load(tmp_path, "_config.yml")
    doc = converter_for("markdown")(tmp_path / "page.md", site=site, assets_dir=tmp_path / "_a")
    text = doc.sections[0].text
    assert "Note:\n\nAll files go in ./data." in text
    assert "\ncurl -Lso run.sh https://x.org/sh\n" in text and "   curl" not in text
    assert "Warning:\n\nKeep the key." in text and "Then go on." in text
    out = site.preprocess("---\ntitle: P\n---\n1. Step:\n\n    {% note %}Text.{% endnote %}\n2. {% tip %}B{% endtip %}\n",
                          page_rel="page.md", warnings=[])
    assert "\n    **Note:**\n\n    Text." in out and "2. \n   **Tip:**\n\n   B" in out


def test_plugin_image_tags_are_read_from_every_plugins_dir(tmp_path: Path, write: Callable[..., Path]) -> None:
    """``plugins_dir`` may name a list of folders (Jekyll "Configuration"); each is read."""
    write(tmp_path, "_more/shot.rb", _IMAGE_PLUGIN)
    out = _render(tmp_path, write, "{% shot a.png A shot %}\n", config="title: T\nplugins_dir: [_plugins, _more]\n")
    assert out == "![A shot](</media/a.png>)\n"
