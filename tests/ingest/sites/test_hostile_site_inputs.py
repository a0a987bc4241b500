"""Hostile and malformed input to the site rules (config detection, data files,
includes, versions): a clear error or a reported skip, never a crash that loses the
other pages, unbounded work, or a read outside the corpus root."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from murar.ingest.sites import _xrefs, jekyll
from murar.ingest.sites.detect import open_site


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
