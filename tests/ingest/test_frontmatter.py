"""Regression tests of murar.ingest.frontmatter, built from the issue-11 fuzz findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.ingest.frontmatter import (
    MAX_DEPTH,
    FrontMatterError,
    load_yaml_safely,
    parse_front_matter,
    split_front_matter,
)
from murar.ingest.markdown import convert_markdown


def _bomb_yaml(levels: int) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels + 1):
        refs = ", ".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines)


def _bomb(levels: int) -> str:
    return "---\n" + _bomb_yaml(levels) + "\n---\n# Page\n\nBody text.\n"


def test_timestamp_tag_with_impossible_date_is_refused_not_raised() -> None:
    # the fuzz input that raised AttributeError inside PyYAML's timestamp constructor (139x)
    fm = parse_front_matter("---\na: !!timestamp 99999-99-99\n---\n# T\n")
    assert fm.meta == {}
    assert fm.body == "# T\n"
    assert fm.warnings and "timestamp" in fm.warnings[0]


def test_impossible_plain_date_stays_a_string() -> None:
    fm = parse_front_matter("---\ndate: 2024-13-45\nok: 2024-01-31\n---\nbody")
    assert fm.meta == {"date": "2024-13-45", "ok": "2024-01-31"}
    assert fm.warnings == ()


def test_alias_bomb_is_refused_quickly() -> None:
    fm = parse_front_matter(_bomb(8))  # a level-8 bomb did not return in 30 s before
    assert fm.meta == {}
    assert "aliases" in fm.warnings[0]
    assert fm.body.startswith("# Page")


def test_integer_beyond_python_digit_limit_is_refused() -> None:
    fm = parse_front_matter("---\nn: " + "9" * 5000 + "\n---\nx")
    assert fm.meta == {} and fm.warnings


def test_deep_nesting_and_oversize_are_refused() -> None:
    deep = "---\nx: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n---\n"
    assert "nested deeper" in parse_front_matter(deep).warnings[0]
    big = "---\nx: '" + "y" * 200_000 + "'\n---\nbody"
    fm = parse_front_matter(big)
    assert fm.meta == {} and fm.body == "body" and "limit" in fm.warnings[0]


@pytest.mark.parametrize("tag", ["!!python/object/apply:os.system ['ls']", "!!binary aGVsbG8=", "!custom x", "!!set {a}"])
def test_non_core_tags_are_refused(tag: str) -> None:
    fm = parse_front_matter(f"---\nx: {tag}\n---\n")
    assert fm.meta == {} and fm.warnings


def test_core_values_and_toml() -> None:
    fm = parse_front_matter("---\ntitle: Hi\nn: 3\nf: 1.5\nb: true\nz: null\ntags: [a, b]\nm: {k: v}\n---\nbody")
    assert fm.meta == {"title": "Hi", "n": 3, "f": 1.5, "b": True, "z": None, "tags": ["a", "b"], "m": {"k": "v"}}
    assert fm.syntax == "yaml"
    toml = parse_front_matter("+++\ntitle = 'Hugo page'\ndate = 2024-01-01T10:00:00Z\n+++\nbody")
    assert toml.syntax == "toml"
    assert toml.meta == {"title": "Hugo page", "date": "2024-01-01T10:00:00+00:00"}
    bad_toml = parse_front_matter("+++\na = " + "[" * 3000 + "\n+++\nbody")
    assert bad_toml.meta == {} and bad_toml.warnings and bad_toml.body == "body"


def test_no_front_matter_and_unclosed_block() -> None:
    assert parse_front_matter("# Title\n").body == "# Title\n"
    unclosed = "---\ntitle: x\n\nNo closing line."
    assert parse_front_matter(unclosed).body == unclosed
    assert parse_front_matter("---\n- a\n---\nb").warnings  # a list, not a mapping
    warnings: list[str] = []
    assert split_front_matter("---\n---\nbody", warnings) == ({}, "body") and warnings == []


def test_lenient_tags_for_site_configs() -> None:
    cfg = "theme: {name: material}\nemoji: !!python/name:material.extensions.emoji.twemoji\n"
    assert load_yaml_safely(cfg, unknown_tags="null") == {"theme": {"name": "material"}, "emoji": None}
    with pytest.raises(FrontMatterError):
        load_yaml_safely(cfg)
    with pytest.raises(FrontMatterError):
        load_yaml_safely("a: &x 1\nb: *x\n", unknown_tags="null")


def test_markdown_page_with_hostile_front_matter_still_converts(tmp_path: Path) -> None:
    for i, head in enumerate(["a: !!timestamp 99999-99-99", _bomb_yaml(6)]):
        page = tmp_path / f"p{i}.md"
        page.write_text(f"---\n{head}\n---\n# Title {i}\n\nSome body text here.\n", encoding="utf-8")
        doc = convert_markdown(page, root=tmp_path)
        assert doc.title == f"Title {i}"
        assert "Some body text here." in doc.sections[0].text
        assert any("front matter ignored" in w for w in doc.warnings)


def test_control_characters_are_refused_not_raised() -> None:
    # found by benchmarks/fuzz.py: PyYAML's reader raised ReaderError in the loader's constructor
    fm = parse_front_matter("---\ntitle: a\x03b\n---\nbody")
    assert fm.meta == {} and fm.body == "body" and fm.warnings


def test_crlf_front_matter_is_front_matter() -> None:
    """Windows line endings (a real Adobe page): the closing ``---\\r\\n`` ends the block."""
    from murar.ingest.frontmatter import split_front_matter

    warnings: list[str] = []
    meta, body = split_front_matter("---\r\ntitle: A\r\nlist:\r\n  - x: 1\r\n---\r\n# Body\r\n", warnings)
    assert meta == {"title": "A", "list": [{"x": 1}]} and body == "# Body\r\n" and not warnings


def test_large_alias_free_yaml_is_read_whole_and_aliases_are_still_bounded() -> None:
    """Only what aliases add counts towards ``max_alias_values``: a 1.2 MB alias-free
    data file (120,000 ints) was refused ('its aliases expand to more than 100000
    values') once aliases were allowed; a bomb, an anchor used inside itself and a
    ``<<`` merge bomb still stop."""
    big = "items:\n" + "".join(f"- {i}\n" for i in range(120_000))
    data = load_yaml_safely(big, max_chars=2_000_000, max_alias_values=100_000)
    assert len(data["items"]) == 120_000 and data["items"][-1] == 119_999
    # the same with one alias: the written values still do not count
    data = load_yaml_safely(big + "base: &b [1, 2]\nagain: *b\n", max_chars=2_000_000, max_alias_values=100_000)
    assert len(data["items"]) == 120_000 and data["again"] == [1, 2] and data["again"] is not data["base"]
    with pytest.raises(FrontMatterError, match="aliases expand to more than"):
        load_yaml_safely(_bomb_yaml(8), max_alias_values=100_000)
    with pytest.raises(FrontMatterError, match="nested deeper"):
        load_yaml_safely("a: &a [1, *a]\n", max_alias_values=100_000)
    with pytest.raises(FrontMatterError, match="nested deeper"):
        load_yaml_safely("a: &a {k: *a}\n", max_alias_values=100_000)
    keys = "".join(f"k{i}: {i}\n" for i in range(1000))
    merges = "".join(f"m{i}: {{<<: *base}}\n" for i in range(200))
    with pytest.raises(FrontMatterError, match="aliases expand to more than"):
        load_yaml_safely("base: &base\n" + "".join("  " + line + "\n" for line in keys.splitlines()) + merges,
                         max_alias_values=100_000)
