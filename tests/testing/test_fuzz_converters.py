"""Bounded fuzzing of every registered converter (issue 11), run in CI.

Hypothesis builds pages from hostile fragments and random text for each markup
in the converter registry (a converter added later is fuzzed too) and byte
mutations of real PDFs; every case runs in a forked worker with a time limit.
A case may be rejected with a typed error; it may never raise anything else,
kill its worker or hang. ``benchmarks/fuzz.py`` is the long run.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from murar.testing.fuzz import (
    SITE_MARKUPS,
    FuzzTarget,
    build_document,
    fragments_for,
    markups,
    mutate,
)

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "corpora"
PDFS = SHARED / "pdf"
TEXT_MARKUPS = [m for m in markups() if m != "pdf"]
EXAMPLES = 250  # per text markup (about 10-40 ms a case)
SLOW_EXAMPLES = {"asciidoc": 60, "rst": 120}  # about 0.3-0.5 s a case
CASE_SECONDS = 20.0
SITE_EXAMPLES = 30  # per docs-site profile: 8 profiles -> 240 cases


@pytest.fixture(scope="module")
def target() -> Iterator[FuzzTarget]:
    with FuzzTarget(seconds=CASE_SECONDS) as t:
        yield t


def _parts(markup: str) -> st.SearchStrategy[list[str | bytes]]:
    frag = st.sampled_from(fragments_for(markup))
    piece = st.one_of(frag, frag, st.text(max_size=80), st.binary(max_size=24))
    return st.lists(piece, min_size=1, max_size=10)


@pytest.mark.parametrize("markup", TEXT_MARKUPS)
def test_text_converters_never_crash_or_hang(target: FuzzTarget, markup: str) -> None:
    @settings(max_examples=SLOW_EXAMPLES.get(markup, EXAMPLES), deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(parts=_parts(markup))
    def case(parts: list[str | bytes]) -> None:
        result = target.run(markup, build_document(markup, parts))
        assert result.outcome in ("ok", "rejected"), f"{markup}: {result.outcome}\n{result.detail[-3000:]}"

    case()


def test_pdf_converter_never_crashes_or_hangs(target: FuzzTarget) -> None:
    if "pdf" not in markups():
        pytest.skip("no PDF converter registered")
    seeds = sorted(p for p in PDFS.rglob("*.pdf") if p.stat().st_size < 400_000)[:4] if PDFS.is_dir() else []
    if not seeds:
        pytest.skip(f"shared PDFs not found: {PDFS}")
    rng = random.Random(11)
    datas = [p.read_bytes() for p in seeds]
    outcomes = []
    for i in range(24):
        data = mutate(datas[i % len(datas)], rng, n=rng.randint(1, 12))
        result = target.run("pdf", data)
        assert result.outcome in ("ok", "rejected"), f"pdf case {i}: {result.outcome}\n{result.detail[-3000:]}"
        outcomes.append(result.outcome)
    assert "ok" in outcomes or "rejected" in outcomes


@pytest.mark.parametrize("site", sorted(SITE_MARKUPS))
def test_site_profiles_never_crash_or_hang(site: str) -> None:
    """The same cases through each generator's Site (preprocessing, link rules), config from the real corpus."""
    src = SHARED / "docsites" / site
    if not src.is_dir():
        pytest.skip(f"shared corpus not found: {src}")
    usable = [m for m in SITE_MARKUPS[site] if m in markups()]
    if not usable:
        pytest.skip(f"no converter registered for {SITE_MARKUPS[site]}")
    with FuzzTarget(seconds=CASE_SECONDS, site_from=src) as site_target:

        @settings(max_examples=SITE_EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(data=st.data())
        def case(data: st.DataObject) -> None:
            markup = data.draw(st.sampled_from(usable))
            result = site_target.run(markup, build_document(markup, data.draw(_parts(markup))))
            assert result.outcome in ("ok", "rejected"), f"{site}/{markup}: {result.outcome}\n{result.detail[-3000:]}"

        case()
