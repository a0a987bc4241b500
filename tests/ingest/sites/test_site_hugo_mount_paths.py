"""Hugo module mounts: a folder mounted at a subfolder of content serves its files only
under that subfolder's URL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from murar.ingest.sites import hugo

CONFIG = """baseURL: https://example.org/
module:
  mounts:
    - source: content
      target: content
    - source: spec
      target: content/docs/spec
    - source: static
      target: static
"""


def test_root_relative_links_map_through_a_content_mount_at_a_subfolder(
    tmp_path: Path, write: Callable[..., Path], png: bytes
) -> None:
    write(tmp_path, "hugo.yaml", CONFIG)
    write(tmp_path, "spec/guide.md", "---\ntitle: Guide\n---\n")
    write(tmp_path, "spec/img/flow.png", png)
    write(tmp_path, "spec/img/only-in-spec.png", png)
    write(tmp_path, "content/docs/a.md", "---\ntitle: A\n---\n")
    write(tmp_path, "content/docs/b/index.md", "---\ntitle: B\n---\n")
    write(tmp_path, "content/docs/b/shot.png", png)
    site = hugo.load(tmp_path)
    # /docs/spec/img/flow.png is served from spec/img/flow.png (the mount's target is content/docs/spec)
    got = site.resolve_asset("/docs/spec/img/flow.png", page_rel="spec/guide.md")
    assert got.rel_path == "spec/img/flow.png" and not got.problem
    # ... and /img/only-in-spec.png is not: that folder serves nothing at the site root
    got = site.resolve_asset("/img/only-in-spec.png", page_rel="content/docs/a.md")
    assert got.rel_path != "spec/img/only-in-spec.png" and got.problem
    # the folder mounted at the content root still serves its bundles at their paths
    got = site.resolve_asset("/docs/b/shot.png", page_rel="content/docs/a.md")
    assert got.rel_path == "content/docs/b/shot.png" and not got.problem
    # a page of the mounted folder links relative to its URL
    assert site.resolve_asset("img/flow.png", page_rel="spec/guide.md").rel_path == "spec/img/flow.png"
