"""The shared glob matcher (murar.ingest.sites._glob): each generator's syntax,
stars that stay stars across a brace group, and hostile patterns."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from murar.ingest.sites import docfx
from murar.ingest.sites._glob import (
    DOCFX,
    DOCUSAURUS,
    HUGO,
    INCLUDE_MARKDOWN,
    MAX_GROUP_DEPTH,
    PATH,
    compile_glob,
    extglob_match,
    glob_match,
)
from murar.ingest.sites.base import FileRole
from murar.ingest.sites.docusaurus import DocusaurusSite


def test_path_globs_as_sphinx_jekyll_and_mkdocs_read_them() -> None:
    cases = [("a/b/c.md", "**/*.md", True), ("c.md", "**/*.md", True), ("a/_b/c.md", "**/_*/**", True),
             ("ab/c", "*/*/*", False), ("a/b/c/d", "a/**/**/d", True), ("a/x", "a/**/**/**/x", True),
             ("ax", "**/**/**/x", False), ("a/b", "[!a]/*/**", False), ("b/c/d", "[!a]/*/**", True),
             ("/", "[!x]", False), ("b", "[c-a]", False), ("{a,b}", "{a,b}", True), ("a", "{a,b}", False),
             ("a,b", "a,b", True), ("a.md", "?.md", True), ("/.md", "?.md", False)]
    for value, pattern, want in cases:
        assert glob_match(value, pattern, PATH) is want, (value, pattern)


def test_a_star_beside_a_brace_group_stays_in_its_folder() -> None:
    """Expanding ``*{,x}*`` into strings gave ``**`` (any folders); the two stars are two stars."""
    for syntax in (DOCUSAURUS, DOCFX, HUGO):
        assert glob_match("ab.md", "*{,x}*.md", syntax) and glob_match("axb.md", "*{,x}*.md", syntax)
        assert not glob_match("a/b.md", "*{,x}*.md", syntax), syntax
        assert not glob_match("a/b", "*{}*", syntax if syntax is not DOCFX else DOCUSAURUS)
    # a '**' written as one stays a '**' when the '/' after it comes from a group
    assert glob_match("y", "{**,x}/y", DOCUSAURUS) and glob_match("a/b/y", "**{/y,z}", DOCFX)
    assert glob_match("y", "**{/y,z}", DOCFX) and not glob_match("y", "*{*,x}/y", DOCUSAURUS)


def test_star_merging_brace_glob_no_longer_selects_files_in_folders(tmp_path: Path,
                                                                    write: Callable[..., Path]) -> None:
    """DocFX ``files: ["*{,.v2}*.md"]`` names the Markdown files at the top of ``src``;
    before, the empty alternative joined the stars into ``**`` and every page below
    was selected too. Same for a Docusaurus ``exclude``."""
    write(tmp_path / "fx", "docfx.json", json.dumps({"build": {"content": [{"files": ["*{,.v2}*.md"]}]}}))
    for rel in ("index.md", "a.v2.md", "guide/intro.md"):
        write(tmp_path / "fx", rel, "# T\n")
    site = docfx.load(tmp_path / "fx", "docfx.json")
    roles = {rel: site.classify(rel).role for rel in ("index.md", "a.v2.md", "guide/intro.md")}
    assert roles == {"index.md": FileRole.PAGE, "a.v2.md": FileRole.PAGE, "guide/intro.md": FileRole.EXCLUDED}

    write(tmp_path / "du", "docusaurus.config.js",
          "module.exports = { presets: [['classic', { docs: { exclude: ['*{,.old}*.md'] } }]] };\n")
    for rel in ("docs/top.md", "docs/guide/intro.md"):
        write(tmp_path / "du", rel, "# T\n")
    dsite = DocusaurusSite.load(tmp_path / "du", "docusaurus.config.js")
    assert dsite.classify("docs/top.md").role is FileRole.EXCLUDED
    assert dsite.classify("docs/guide/intro.md").role is FileRole.PAGE


def test_hugo_globs_follow_gobwas() -> None:
    """gohugo.io "Glob patterns" / gobwas/glob: a comma outside braces is a comma,
    ``**`` is any characters (``a/**/b`` needs a folder), an unpaired brace makes
    no glob, case is ignored; ``[`` is read as a literal, as the Hugo module always did."""
    assert glob_match("a,b", "a,b", HUGO) and not glob_match("a", "a,b", HUGO)
    assert glob_match("x/b.png", "*/{a,b}.png", HUGO) and not glob_match("x/c.png", "*/{a,b}.png", HUGO)
    assert glob_match("a/x/b", "a/**/b", HUGO) and not glob_match("a/b", "a/**/b", HUGO)
    assert not glob_match("a", "{a,b", HUGO) and not glob_match("a}", "a}", HUGO)
    assert glob_match("GALLERY/A.JPG", "gallery/*.jpg", HUGO) and glob_match("[a]", "[a]", HUGO)
    assert glob_match("", "{}", HUGO) and glob_match("ab", "{a}b", HUGO) and not glob_match("b", "{a}b", HUGO)


def test_docfx_and_docusaurus_braces() -> None:
    """DocFX expands a brace pair that holds a comma (nested too); any other brace
    is a literal; case is ignored. Docusaurus (micromatch via globby) reads every
    paired brace as a group; an unpaired one is a literal; case counts."""
    assert glob_match("old/b/y.md", "{drafts,old/{a,b}}/**", DOCFX)
    assert glob_match("a{b}c", "a{b}c", DOCFX) and not glob_match("abc", "a{b}c", DOCFX)
    assert glob_match("{a", "{{a,b}", DOCFX) and glob_match("Docs/X.MD", "docs/*.md", DOCFX)
    assert glob_match("abc", "a{b}c", DOCUSAURUS) and glob_match("a}", "{a}}", DOCUSAURUS)
    assert glob_match("{a", "{a", DOCUSAURUS) and not glob_match("Docs/x.md", "docs/*.md", DOCUSAURUS)


def test_or_below_drops_each_alternatives_trailing_slash() -> None:
    """``or_below``: the value, or a file under a folder the pattern matches, as
    ``pattern.rstrip("/") + "/**"`` read for each alternative."""
    assert glob_match("docs/x/y.md", "docs/{,drafts}", DOCFX, or_below=True)
    assert glob_match("a/x.md", "{a/,b}", DOCFX, or_below=True) and not glob_match("c/x.md", "{a/,b}", DOCFX,
                                                                                 or_below=True)
    assert glob_match("ab", "a**/", PATH, or_below=True) and not glob_match("ab", "a**/", PATH)
    assert glob_match("drafts/x/y.rst", "drafts", PATH, or_below=True)
    assert not glob_match("draftsx/y.rst", "drafts", PATH, or_below=True)


@pytest.mark.timeout(60)
def test_hostile_patterns_are_linear_or_refused() -> None:
    name = "a" * 10_000
    for syntax in (PATH, DOCUSAURUS, DOCFX):
        assert not glob_match(name, "*a*a*a*a*a*a*b", syntax)
        assert glob_match(name + "b", "*a*a*a*a*a*a*b", syntax)
    assert not glob_match(name[:4000], "*a*a*a*a*a*a*b", HUGO)

    nested = "{a," * 500 + "z" + "}" * 500
    assert compile_glob(nested, DOCUSAURUS) is None and not glob_match("a", nested, DOCUSAURUS)
    shallow = "{a," * MAX_GROUP_DEPTH + "z" + "}" * MAX_GROUP_DEPTH
    assert glob_match("z", shallow, DOCUSAURUS) and glob_match("a", shallow, DOCFX)

    groups = "{" + ",".join("0123456789") + "}"
    many = ("x" + groups) * 30  # 10**30 strings if expanded
    assert glob_match("x3" * 29 + "x9", many, DOCFX) and glob_match("x3" * 20, many[:22 * 20], HUGO)
    assert not glob_match("x3" * 29 + "xa", many, DOCUSAURUS)
    assert not glob_match("a", "*" * 5000, PATH) and compile_glob("a" * 513, HUGO) is None


def test_include_markdown_globs_as_wcmatch_reads_them() -> None:
    # checked against wcmatch.glob with GLOBSTAR | BRACE (the plugin's GLOB_FLAGS)
    cases = [("a/intro.md", "a/{intro,usage}.md", True), ("a/{a}.md", "a/{a}.md", True),
             ("a/x/y/c.md", "a/**/c.md", True), ("a/c.md", "a/**/c.md", True), ("nx/n3.md", "n**/*.md", True),
             ("nx/sub/n3.md", "n**/*.md", False), ("a/b.md", "a**.md", False), ("a/b/c", "a/**", True),
             ("x/y/z.md", "**/*.md", True), ("*", "*", True)]
    for value, pattern, want in cases:
        assert glob_match(value, pattern, INCLUDE_MARKDOWN) is want, (value, pattern)


@pytest.mark.parametrize(("value", "pattern", "expected"), [
    # what micromatch 4 (picomatch) answers for these, as globby applies Docusaurus include/exclude
    ("foo.md", "!(foo).md", False), ("bar.md", "!(foo).md", True), ("foo.md", "*!(foo).md", True),
    ("docs/drafts/x.md", "docs/!(drafts)/**", False), ("docs/api/x.md", "docs/!(drafts)/**", True),
    ("x.md", "@(x|y).md", True), ("z.md", "@(x|y).md", False), ("xx.md", "+(x).md", True),
    ("foo.partial.md", "!(*.partial).md", False), ("foo.md", "!(*.partial).md", True),
    ("a/foo.partial.md", "**/*!(.partial).{md,mdx}", True), ("x/y/z.mdx", "**/*!(.partial).{md,mdx}", True),
    ("a.md", "!(a.md", False),  # never closed: matches nothing
])
def test_extglobs_as_micromatch_reads_them(value: str, pattern: str, expected: bool) -> None:
    assert extglob_match(value, pattern, DOCUSAURUS) is expected
