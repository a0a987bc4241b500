"""Jekyll sites whose config is not ``_config.yml``: detection and merged configs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from murar.ingest.sites import jekyll
from murar.ingest.sites.base import FileRole
from murar.ingest.sites.detect import detect, open_site, site_summary


def test_config_given_with_dash_dash_config_is_detected_and_merged(tmp_path: Path,
                                                                   write: Callable[..., Path]) -> None:
    write(tmp_path, "_config_main.yml", "title: Base\nbaseurl: /docs\nproduct: Old\n")
    write(tmp_path, "_config_shop.yml", "product: Gadget\n")
    write(tmp_path, "_config_local.yml", "url: http://localhost:4000\n")
    write(tmp_path, "Makefile", "serve:\n\tbundle exec jekyll serve \\\n"
          "\t  --config _config_main.yml,_config_shop.yml$(EXTRA)\n")
    write(tmp_path, "_includes/x.html", "x")
    write(tmp_path, "index.md", "---\nlayout: page\n---\n# {{ site.product }} at {{ site.baseurl }}\n")
    found = detect(tmp_path)
    assert found is not None and found.spec.name == "jekyll"
    sel = open_site(tmp_path)
    assert isinstance(sel.site, jekyll.JekyllSite)
    text = sel.site.preprocess((tmp_path / "index.md").read_text(), page_rel="index.md")
    assert "# Gadget at /docs" in text
    assert sel.site.config.settings["url"] == ""  # _config_local.yml is not in the build command


def test_only_yaml_or_toml_default_config(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path / "a", "_config.yaml", "title: A\n")
    write(tmp_path / "b", "_config.toml", 'title = "B"\nbaseurl = "/b"\n')
    write(tmp_path / "b", "_layouts/default.html", "{{ content }}")
    for name in ("a", "b"):
        found = detect(tmp_path / name)
        assert found is not None and found.spec.name == "jekyll", name
    assert open_site(tmp_path / "b").site.config.base_url == "/b/"


def test_other_config_names_need_jekyll_evidence(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path / "plain", "_config_lint.yml", "rules: []\n")
    write(tmp_path / "plain", "page.md", "# P\n")
    assert detect(tmp_path / "plain") is None
    # a variant config without a build command: that file alone
    write(tmp_path / "gem", "_config_site.yml", "title: G\n")
    write(tmp_path / "gem", "Gemfile", "source 'https://rubygems.org'\ngem \"jekyll\", \"~> 4\"\n")
    found = detect(tmp_path / "gem")
    assert found is not None and found.spec.name == "jekyll"
    assert jekyll.config_files(tmp_path / "gem", "_config_site.yml") == ["_config_site.yml"]
    # a Hugo site with a stray _config file is still Hugo
    write(tmp_path / "hugo", "hugo.toml", 'title = "H"\n')
    write(tmp_path / "hugo", "_config_ci.yml", "steps: []\n")
    write(tmp_path / "hugo", "content/_index.md", "# H\n")
    found = detect(tmp_path / "hugo")
    assert found is not None and found.spec.name == "hugo"


def test_data_files_left_out_are_reported_with_the_site(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A _data file that does not parse is left out (Jekyll would stop the build;
    ingest goes on), and the ingest summary says which file and why."""
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "_data/team.yml", "- name: Ana\n")
    write(tmp_path, "_data/broken.json", '{"a": [1, 2')
    write(tmp_path, "index.md", "---\n---\n# Home\n\n{{ site.data.team[0].name }}\n")
    selection = open_site(tmp_path)
    notes = [n for n in selection.notes if "broken.json" in n]
    assert len(notes) == 1 and "left out" in notes[0] and "JSON" in notes[0]
    assert not any("team.yml" in n for n in selection.notes)
    assert notes[0] in site_summary(selection)["notes"]  # type: ignore[operator]


def test_links_to_a_url_holding_a_path_are_site_paths(tmp_path: Path, write: Callable[..., Path],
                                                      png: bytes) -> None:
    """A project site whose url holds its path (url: https://www.eclipse.org/ditto, baseurl empty,
    Eclipse Ditto's docs): documentation-theme-jekyll's image include writes {{ site.baseurl |
    prepend: site.url }}/images/x.png, https://www.eclipse.org/ditto/images/x.png, which is
    /images/x.png of the site. Before, the path kept /ditto and the image was not found."""
    write(tmp_path, "_config.yml", "title: T\nurl: https://www.eclipse.org/ditto\n")
    write(tmp_path, "images/arch.png", png)
    site = jekyll.load(tmp_path)
    res = site.resolve_asset("https://www.eclipse.org/ditto/images/arch.png", page_rel="pages/a.md")
    assert res.rel_path == "images/arch.png" and not res.problem
    assert site.resolve_asset("https://www.eclipse.org/dittox/images/arch.png", page_rel="pages/a.md").problem
    assert site.resolve_asset("https://other.org/ditto/images/arch.png", page_rel="pages/a.md").url


def test_polyglot_translations_are_left_out(tmp_path: Path, write: Callable[..., Path]) -> None:
    """jekyll-polyglot builds the site at the root for default_lang, one page per page_id (front
    matter, else the URL without its language segments): a document in another language (lang
    front matter, or with lang_from_path a path segment naming one) is left out when the page has
    a default-language document, kept when it is the page's only version (polyglot shows it in
    the default site too); lang-exclusive lists the only languages a document is built for.
    Before, every translation was read beside its original. site.active_lang is the default."""
    write(tmp_path, "_config.yml", 'title: T\nplugins:\n  - jekyll-polyglot\nlanguages: ["en", "de", "fr"]\n'
          'default_lang: "en"\nlang_from_path: true\n')
    write(tmp_path, "about.md", "---\ntitle: About\nlang: en\npermalink: /about/\n---\nIn {{ site.active_lang }}.\n")
    write(tmp_path, "about-de.md", "---\ntitle: Über\nlang: de\npermalink: /about/\n---\nDeutsch.\n")
    write(tmp_path, "contact.md", "---\ntitle: Contact\npage_id: contact\npermalink: /contact/\n---\nMail us.\n")
    write(tmp_path, "kontakt.md", "---\ntitle: Kontakt\nlang: de\npage_id: contact\npermalink: /kontakt/\n---\nx\n")
    write(tmp_path, "_posts/2024-01-02-release.md", "---\ntitle: Release\n---\nOut now.\n")
    write(tmp_path, "_posts/fr/2024-01-02-release.md", "---\ntitle: Version\n---\nDisponible.\n")
    write(tmp_path, "_posts/de/2024-03-04-only-german.md", "---\ntitle: Nur\n---\nNur Deutsch.\n")
    write(tmp_path, "notes.md", "---\ntitle: Notes\nlang-exclusive: ['de']\n---\nNur Deutsch.\n")
    site = jekyll.load(tmp_path)
    rels = ("about.md", "about-de.md", "contact.md", "kontakt.md", "_posts/2024-01-02-release.md",
            "_posts/fr/2024-01-02-release.md", "_posts/de/2024-03-04-only-german.md", "notes.md")
    roles = {rel: site.classify(rel) for rel in rels}
    assert [rel for rel, c in roles.items() if c.role == FileRole.PAGE] == [
        "about.md", "contact.md", "_posts/2024-01-02-release.md", "_posts/de/2024-03-04-only-german.md"]
    assert roles["about-de.md"].reason == "translation (language de); default language en"
    assert roles["kontakt.md"].reason == "translation (language de); default language en"
    assert roles["_posts/fr/2024-01-02-release.md"].reason == "translation (language fr); default language en"
    assert "not built for the default language en" in roles["notes.md"].reason
    assert "In en." in site.preprocess((tmp_path / "about.md").read_text(), page_rel="about.md")
def test_a_config_that_does_not_parse_is_reported_not_read_as_a_plain_folder(
        tmp_path: Path, write: Callable[..., Path]) -> None:
    """A _config.yml with a YAML error (an unclosed quote, a tab) made detection pass the
    site over: it was read as a plain folder with no warning, its {% include %} tags and
    {{ site.title }} shown as written. jekyll build stops on it; so does the ingest now,
    naming the parser's error, when the folder shows Jekyll."""
    import pytest

    from murar.errors import ConfigError

    write(tmp_path, "_config.yml", 'title: x\nbaseurl: "/docs\nplugins:\n\t- jekyll-feed\n')
    write(tmp_path, "_layouts/default.html", "<html>{{ content }}</html>")
    write(tmp_path, "index.md", "---\nlayout: default\n---\n# Home\n\n{% include note.html %}\n")
    found = detect(tmp_path)
    assert found is not None and found.spec.name == "jekyll"
    with pytest.raises(ConfigError, match="Jekyll config _config.yml: .*not valid") as raised:
        open_site(tmp_path)
    # YAML by its format's name (a .yml suffix read "not valid YML"), the file named once
    assert "not valid YAML (" in str(raised.value) and str(raised.value).count("_config.yml") == 1
