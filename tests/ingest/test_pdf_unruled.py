"""Unruled tables without a caption (murar.ingest.pdf_unruled) in PDF ingest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pdfplumber")
pytest.importorskip("pypdfium2")

from murar.ingest import pdf as pdf_module
from murar.ingest.pdf import PdfOptions, convert_pdf
from murar.ingest.pdf_unruled import (
    UnruledTable,
    find_unruled_tables,
    merge_wrapped_rows,
)
from murar.schema import ParsedDocument, TableItem

_PROSE = [
    "Unruled tables are common in data sheets and short reports: the columns are",
    "held together by white space alone, without a grid and without a numbered",
    "caption, so a converter that only looks for ruling lines reads them as text.",
]


def _write_pdf(path: Path, lines: list[tuple[float, float, str]], family: str = "DejaVu Sans") -> Path:
    """A one-page US-letter PDF with each text at (x, top) in points (matplotlib, no extra dependency)."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(612 / 72, 792 / 72))
    for x, top, text in lines:
        fig.text(x / 612, 1 - top / 792, text, fontsize=9, va="top", family=family)
    fig.savefig(path, format="pdf")
    return path


def _convert(path: Path, tmp_path: Path) -> ParsedDocument:
    return convert_pdf(path, root=path.parent, assets_dir=tmp_path / "assets",
                       options=PdfOptions(store_table_images=False))


def _tables(doc: ParsedDocument) -> list[TableItem]:
    return [m for m in doc.media if isinstance(m, TableItem)]


def _text(doc: ParsedDocument) -> str:
    return "\n".join(s.text for s in doc.sections)


# ------------------------------------------------------------ synthetic pages


def test_unruled_uncaptioned_table_becomes_a_table_item(tmp_path: Path) -> None:
    lines = [(72.0, 72.0 + 13 * i, t) for i, t in enumerate(_PROSE)]
    grid = [("Model", "Params", "Accuracy", "Latency"), ("Small", "12M", "81.2", "4.1"),
            ("Base", "110M", "84.9", "9.8"), ("Large", "340M", "86.3", "27.5")]
    for r, row in enumerate(grid):
        lines += [(x, 130.0 + 14 * r, cell) for x, cell in zip((72.0, 172.0, 262.0, 362.0), row, strict=True)]
    lines += [(72.0, 200.0 + 13 * i, t) for i, t in enumerate(_PROSE)]
    doc = _convert(_write_pdf(tmp_path / "unruled.pdf", lines), tmp_path)
    (table,) = _tables(doc)
    assert table.headers == ["Model", "Params", "Accuracy", "Latency"]
    assert table.rows == [["Small", "12M", "81.2", "4.1"], ["Base", "110M", "84.9", "9.8"],
                          ["Large", "340M", "86.3", "27.5"]]
    assert table.caption == "" and table.page == 1
    text = _text(doc)
    assert "84.9" not in text and "Latency" not in text  # the cells left the running text
    assert "so a converter that only looks for ruling lines reads them as text." in text


def test_prose_columns_code_and_contents_are_not_tables(tmp_path: Path) -> None:
    words = ["the", "report", "lists", "every", "change", "that", "the", "agency", "proposes", "for", "the", "aircraft", "and"]
    lines: list[tuple[float, float, str]] = []
    for r in range(8):  # three columns of justified-looking prose (a Federal Register page)
        for c, x in enumerate((40.0, 230.0, 420.0)):
            lines.append((x, 72.0 + 11 * r, " ".join(words[(r + c) % 4:(r + c) % 4 + 6])))
    contents = [("1.1", "Security fundamentals . . . . . . . . .", "2"), ("1.2", "Current state . . . . . . . . . . . .", "3"),
                ("1.3", "Access controls . . . . . . . . . . .", "5"), ("1.4", "Row permissions . . . . . . . . . .", "8")]
    for r, row in enumerate(contents):
        lines += [(x, 200.0 + 13 * r, cell) for x, cell in zip((72.0, 110.0, 320.0), row, strict=True)]
    doc = _convert(_write_pdf(tmp_path / "prose.pdf", lines), tmp_path)
    assert _tables(doc) == []

    code = [("x = 10", "y = 20", "z = 30"), ("a = 1.5", "b = 2.5", "c = 3.5"),
            ("m = 7", "n = 8", "k = 9"), ("p = 0.1", "q = 0.2", "r = 0.3")]
    listing = [(x, 72.0 + 12 * r, cell) for r, row in enumerate(code)
               for x, cell in zip((72.0, 172.0, 272.0), row, strict=True)]
    doc = _convert(_write_pdf(tmp_path / "code.pdf", listing, family="DejaVu Sans Mono"), tmp_path)
    assert _tables(doc) == []


def test_merge_wrapped_rows_joins_header_lines_and_wrapped_cells() -> None:
    rows = [["", "", "Cost on"], ["Action", "Labor", ""], ["", "", "operators"],
            ["Install software", "$85", "$6,205"], ["marker removal.", "", ""], ["Revise manual", "$85", "$6,205"]]
    assert merge_wrapped_rows(rows) == [
        ["Action", "Labor", "Cost on operators"],
        ["Install software marker removal.", "$85", "$6,205"],
        ["Revise manual", "$85", "$6,205"],
    ]
    text_only = [["Name", "Kind", ""], ["alpha", "x", "y"], ["beta", "", "z"]]
    assert merge_wrapped_rows(text_only) == text_only  # no numbers below: nothing to tell a header by


# ------------------------------------------------------------ real PDFs (../shared)


@pytest.mark.integration
def test_uncaptioned_unruled_table_in_a_data_article(pdf_root: Path, tmp_path: Path) -> None:
    # "Table1" (no space) is not a recognised caption and the table has no ruling lines;
    # before, its columns were read as two text columns interleaved with the body text
    doc = convert_pdf(pdf_root / "unstructured" / "embedded-images-tables.pdf", root=pdf_root,
                      assets_dir=tmp_path)
    (table,) = _tables(doc)
    assert table.page == 1
    assert table.headers == ["Inhibitor concentration (g)", "bc (V/dec)", "ba (V/dec)", "Ecorr (V)",
                             "icorr (A/cm2)", "Polarization resistance (Ω)", "Corrosion rate (mm/year)"]
    assert len(table.rows) == 6
    assert table.rows[0][:3] == ["0", "0.0335", "0.0409"] and table.rows[0][-2:] == ["24.0910", "2.8163"]
    assert table.rows[-1][0] == "10" and table.rows[-1][-1] == "0.0919"
    text = _text(doc)
    for cell in ("0.0335", "24.0910", "5.39E-05", "Polarization", "concentration (g)"):
        assert cell not in text, cell
    assert "The plot of inhibitor concentration over degree of surface coverage" in text


@pytest.mark.integration
def test_uncaptioned_cost_table_in_a_three_column_register_page(pdf_root: Path, tmp_path: Path) -> None:
    doc = convert_pdf(pdf_root / "pdfplumber" / "federal-register-2020-17221.pdf", root=pdf_root,
                      assets_dir=tmp_path, options=PdfOptions(store_table_images=False))
    (table,) = [t for t in _tables(doc) if t.page == 5]
    assert table.headers == ["Action", "Labor cost", "Parts cost", "Cost per product", "Cost on U.S. operators"]
    assert [r[0] for r in table.rows] == ["FCC OPS installation and verification ..",
                                          "AFM revisions .......................................",
                                          "MDS installation and verification, INOP marker removal."]
    assert all(r[-1] == "$6,205." for r in table.rows)
    page5 = "\n".join(s.text for s in doc.sections if s.page == 5)
    assert "1 work-hour" not in page5 and "$6,205" not in page5 and "Labor cost" not in page5
    assert "costs to comply with this proposed AD:" in page5  # the prose above the table stays


# every other shared PDF: prose, two- and three-column layouts, lists, references, code
# listings, math, tables of contents, infographics — no unruled table is found in them
_NO_UNRULED = [
    "docling/2305.03393v1-pg9.pdf",  # booktabs table with a caption (found by the caption path)
    "docling/amt_handbook_sample.pdf",  # two columns, figure labels
    "docling/multi_page.pdf",  # bulleted and numbered lists
    "docling/normal_4pages.pdf",  # Korean two-column text
    "docling/picture_classification.pdf",
    "docling/redp5110_sampled.pdf",  # table of contents, SQL listings
    "pdfplumber/background-checks.pdf",  # ruled
    "pdfplumber/ca-warn-report.pdf",  # ruled
    "pdfplumber/senate-expenditures.pdf",  # ruled
    "s2orc/2020.acl-main.207.pdf",  # two-column paper, references
    "s2orc/N18-3011.pdf",
    "unstructured/DA-1p.pdf",
    "unstructured/a1977-backus-p21.pdf",  # two columns of formulas
    "unstructured/chevron-page.pdf",  # three-column figures infographic
    "unstructured/interface-config-guide-p93.pdf",  # CLI listing
    "unstructured/layout-parser-paper-fast.pdf",
    "unstructured/layout-parser-paper-with-table.pdf",  # numbered code listing
    "unstructured/multi-column-2p.pdf",
    "unstructured/reliance.pdf",  # multi-column table of contents
]


@pytest.mark.integration
@pytest.mark.parametrize("rel", _NO_UNRULED)
def test_no_unruled_tables_in_prose_layouts(rel: str, pdf_root: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = pdf_root / rel
    if not path.exists():
        pytest.skip(f"not in the shared corpus: {rel}")
    found: list[UnruledTable] = []
    pages: list[int] = []  # one entry per call

    def spy(*args: Any) -> list[UnruledTable]:
        pages.append(len(pages))
        out = find_unruled_tables(*args)
        found.extend(out)
        return out

    monkeypatch.setattr(pdf_module, "find_unruled_tables", spy)
    convert_pdf(path, root=pdf_root, assets_dir=tmp_path, options=PdfOptions(store_table_images=False))
    import pypdfium2

    assert len(pages) == len(pypdfium2.PdfDocument(str(path)))  # the detector looked at every page
    assert found == []
