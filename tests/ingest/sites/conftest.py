"""Helpers for the generator tests: fixture files written into a site folder, a
small PNG, and the image references of a site resolved through its rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from selectolax.lexbor import LexborHTMLParser

from murar.ingest.sites.base import FileRole, Site

DOCSITES = (Path(__file__).resolve().parents[3].parent / "shared" / "corpora" / "docsites").resolve()

# a valid 16x16 RGB PNG (its header gives the size)
PNG_16PX = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x02\x00\x00\x00\x90\x91h6"
            b"\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")

Write = Callable[[Path, str, "str | bytes"], Path]


def write_file(root: Path, rel: str, data: str | bytes) -> Path:
    """Write ``data`` (text as UTF-8) to ``root / rel``, making its folders; the path written."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def write_tree(root: Path, files: dict[str, str | bytes]) -> None:
    """:func:`write_file` for every ``rel: data`` of ``files``."""
    for rel, data in files.items():
        write_file(root, rel, data)


@dataclass(slots=True)
class RefCount:
    """Image references of the pages of a site: ``resolved`` to an existing file,
    ``remote`` URLs, and ``unresolved`` ``(page, link, problem)``."""

    pages: int = 0
    resolved: int = 0
    remote: int = 0
    unresolved: list[tuple[str, str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def image_links(markdown: str) -> list[str]:
    """``src`` of every Markdown image and HTML ``<img>`` in ``markdown``."""
    out: list[str] = []
    for tok in MarkdownIt("commonmark", {"html": True}).enable("table").parse(markdown):
        for child in [tok, *(tok.children or [])]:
            if child.type == "image":
                out.append(str(child.attrs["src"]))
            elif child.type in ("html_block", "html_inline"):
                out += [n.attributes.get("src") or "" for n in LexborHTMLParser(child.content).css("img")]
    return out


def count_site_refs(site: Site, *, markups: tuple[str, ...] = ("markdown",)) -> RefCount:
    """Preprocess every page of ``site`` and resolve each image link it holds."""
    root = site.config.root
    counts = RefCount()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        fc = site.classify(rel)
        if fc.role is not FileRole.PAGE or fc.markup not in markups:
            continue
        counts.pages += 1
        warnings: list[str] = []
        text = site.preprocess(path.read_text(encoding="utf-8", errors="replace"), page_rel=rel,
                               warnings=warnings)  # type: ignore[call-arg]
        counts.warnings += [f"{rel}: {w}" for w in warnings]
        for link in image_links(text):
            res = site.resolve_asset(link, page_rel=rel)
            if res.url is not None:
                counts.remote += 1
            elif res.rel_path is not None and (root / res.rel_path).is_file():
                counts.resolved += 1
            else:
                counts.unresolved.append((rel, link, res.problem or ""))
    return counts


@pytest.fixture(scope="session")
def docsite() -> Callable[[str], Path]:
    """Path of a real corpus under ``../shared/corpora/docsites`` (skips when absent)."""

    def get(name: str) -> Path:
        path = DOCSITES / name
        if not path.is_dir():
            pytest.skip(f"shared corpus not found: {path}")
        return path

    return get


@pytest.fixture(scope="session")
def write() -> Write:
    """:func:`write_file`: ``write(root, rel, text_or_bytes) -> path``."""
    return write_file


@pytest.fixture(scope="session")
def write_files() -> Callable[[Path, dict[str, str | bytes]], None]:
    """:func:`write_tree`: ``write_files(root, {rel: text_or_bytes})``."""
    return write_tree


@pytest.fixture(scope="session")
def png() -> bytes:
    """A valid 16x16 PNG."""
    return PNG_16PX


@pytest.fixture(scope="session")
def count_refs() -> Callable[..., RefCount]:
    """:func:`count_site_refs` for tests (conftest helpers are reached through fixtures)."""
    return count_site_refs
