"""Tests of murar.ingest.pdf on tiny generated PDFs and on ../shared PDFs."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

pytest.importorskip("pdfplumber")
pytest.importorskip("pypdfium2")

from murar.errors import IngestError
from murar.ingest.pdf import PdfOptions, convert_pdf
from murar.schema import ImageItem, TableItem

# ------------------------------------------------------------ a tiny PDF writer


def _image_xobject(w: int, h: int, pattern: str) -> bytes:
    raw = bytearray()
    for y in range(h):
        for x in range(w):
            if pattern == "logo":
                v = 255 if (x // 4 + y // 4) % 2 else 0
                raw += bytes((v, 0, 255 - v))
            else:
                raw += bytes(((x * 7) % 256, (y * 5) % 256, ((x + y) * 3) % 256))
    data = zlib.compress(bytes(raw))
    head = (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB "
            f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode()
    return head + data + b"\nendstream"


def make_pdf(pages: list[list[tuple]], height: float = 792.0) -> bytes:
    """Build a PDF. Each page is a list of ops:
    ("text", x, top, size, bold, string) (bold: True, False or "mono" for Courier) or ("image", name, x, top, w, h) with
    top-left coordinates in points."""
    objs: list[bytes] = []

    def add(body: bytes) -> int:
        objs.append(body)
        return len(objs)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    bold = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>")
    mono = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>")
    images = {"chart": add(_image_xobject(120, 80, "chart")), "logo": add(_image_xobject(40, 40, "logo"))}
    pages_id = len(objs) + 1 + 2 * len(pages)
    kids = []
    for ops in pages:
        content = []
        for op in ops:
            if op[0] == "text":
                _, x, top, size, is_bold, s = op
                s = s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
                content.append(f"BT /{'F3' if is_bold == 'mono' else 'F2' if is_bold else 'F1'} {size} Tf {x} {height - top - size} Td ({s}) Tj ET")
            else:
                _, name, x, top, w, h = op
                content.append(f"q {w} 0 0 {h} {x} {height - top - h} cm /{name} Do Q")
        stream = "\n".join(content).encode("latin-1")
        cid = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        res = (f"<< /Font << /F1 {font} 0 R /F2 {bold} 0 R /F3 {mono} 0 R >> /XObject << /chart {images['chart']} 0 R "
               f"/logo {images['logo']} 0 R >> >>")
        pid = add(f"<< /Type /Page /Parent {pages_id} 0 R /MediaBox [0 0 612 {height}] "
                  f"/Resources {res} /Contents {cid} 0 R >>".encode())
        kids.append(pid)
    assert add(f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode()) == pages_id
    catalog = add(f"<< /Type /Catalog /Pages {pages_id} 0 R >>".encode())
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objs) + 1} /Root {catalog} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


BODY = "This paragraph explains the chart and the numbers that it shows in detail."


def _paper(n_pages: int = 3) -> bytes:
    pages = []
    for p in range(n_pages):
        ops: list[tuple] = [("image", "logo", 20, 10, 30, 30)]  # running logo in the top margin
        if p == 0:
            ops += [("text", 72, 60, 20, True, "A Tiny Test Paper"),
                    ("text", 72, 110, 12, True, "1 Introduction")]
        else:
            ops += [("text", 72, 110, 12, True, f"{p + 1} Section {p + 1}")]
        y = 130
        for i in range(4):
            ops.append(("text", 72, y, 10, False, f"{BODY} Part {p}-{i}."))
            y += 13
        if p == 0:
            ops += [("image", "chart", 150, 200, 240, 160),
                    ("text", 72, 370, 9, False, "Figure 1: A synthetic chart of test values."),
                    ("text", 72, 400, 10, False, "Text after the chart continues the discussion here.")]
        pages.append(ops)
    return make_pdf(pages)


@pytest.fixture()
def paper(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    path = tmp_path / "docs" / "paper.pdf"
    path.write_bytes(_paper())
    return path


def test_synthetic_sections_and_headings(paper: Path, tmp_path: Path) -> None:
    doc = convert_pdf(paper, root=tmp_path, assets_dir=tmp_path / "assets")
    assert doc.source_path == "docs/paper.pdf"
    assert doc.pages == 3
    assert doc.title == "A Tiny Test Paper"
    paths = [s.heading_path for s in doc.sections]
    assert ("A Tiny Test Paper", "1 Introduction") in paths
    assert ("A Tiny Test Paper", "3 Section 3") in paths
    intro = next(s for s in doc.sections if s.heading_path[-1] == "1 Introduction")
    assert intro.page == 1 and intro.level == 2
    assert "Part 0-0" in intro.text and "Figure 1" not in intro.text
    assert [s.ordinal for s in doc.sections] == list(range(len(doc.sections)))
    # deterministic ids
    again = convert_pdf(paper, root=tmp_path, assets_dir=tmp_path / "assets2")
    assert [s.id for s in again.sections] == [s.id for s in doc.sections]
    assert [m.id for m in again.media] == [m.id for m in doc.media]


def test_synthetic_figure_caption_context_and_file(paper: Path, tmp_path: Path) -> None:
    assets = tmp_path / "assets"
    doc = convert_pdf(paper, root=tmp_path, assets_dir=assets, options=PdfOptions(context_chars=60))
    figs = [m for m in doc.media if isinstance(m, ImageItem)]
    assert len(figs) == 1, doc.warnings
    fig = figs[0]
    assert fig.caption == "Figure 1: A synthetic chart of test values."
    assert fig.page == 1 and fig.path is None and fig.stored_path is not None
    assert (assets / fig.stored_path).is_file()
    assert fig.width and fig.height and fig.width > fig.height
    x0, top, x1, bottom = fig.bbox or (0, 0, 0, 0)
    assert abs(x0 - 150) < 2 and abs(top - 200) < 2 and abs(x1 - 390) < 2 and abs(bottom - 360) < 2
    assert fig.context_before.endswith("Part 0-3.") and len(fig.context_before) <= 60
    assert fig.context_after.startswith("Text after the chart")
    assert "Figure 1" not in fig.context_before + fig.context_after
    assert fig.heading_path[-1] == "1 Introduction"


def test_repeated_logo_is_dropped(paper: Path, tmp_path: Path) -> None:
    doc = convert_pdf(paper, root=tmp_path, assets_dir=tmp_path / "assets")
    drops = [w for w in doc.warnings if w.startswith("dropped image")]
    assert len(drops) == 3 and all("repeated" in w for w in drops)
    stored = sorted(p.name for p in (tmp_path / "assets").rglob("*.png"))
    assert stored == ["p1-fig1.png"]  # the logo crops were deleted again


def test_progress_and_max_pages(paper: Path, tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    doc = convert_pdf(paper, root=tmp_path, assets_dir=tmp_path / "a",
                      options=PdfOptions(progress=lambda p, t: calls.append((p, t)), max_pages=2))
    assert calls == [(1, 2), (2, 2)]
    assert all((s.page or 0) <= 2 for s in doc.sections)


@pytest.mark.parametrize("data", [b"", b"not a pdf at all", b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\n%%EOF"])
def test_corrupt_pdf_raises_ingest_error(tmp_path: Path, data: bytes) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(data)
    with pytest.raises(IngestError, match="bad.pdf"):
        convert_pdf(bad, root=tmp_path, assets_dir=tmp_path / "assets")


def test_truncated_pdf_never_crashes(paper: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(paper.read_bytes()[: int(paper.stat().st_size * 0.9)])
    try:
        doc = convert_pdf(cut, root=tmp_path, assets_dir=tmp_path / "assets")
    except IngestError:
        return
    assert doc.sections or doc.media


def test_scanned_page_without_text_layer_warns(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(make_pdf([[("image", "chart", 50, 50, 500, 600)]]))
    doc = convert_pdf(path, root=tmp_path, assets_dir=tmp_path / "assets")
    assert any("no text layer" in w for w in doc.warnings)
    assert len(doc.media) == 1


def test_scanned_page_with_injected_ocr(tmp_path: Path) -> None:
    from murar.ingest.ocr import FakeOcrEngine, OcrLine

    path = tmp_path / "scan.pdf"
    path.write_bytes(make_pdf([[("image", "chart", 50, 50, 500, 600)]]))
    engine = FakeOcrEngine([OcrLine("Scanned words here", (200, 200, 600, 230), 0.9)])
    doc = convert_pdf(path, root=tmp_path, assets_dir=tmp_path / "assets",
                      options=PdfOptions(ocr=True, ocr_engine=engine))
    assert "Scanned words here" in " ".join(s.text for s in doc.sections)
    assert engine.calls == 1


# ------------------------------------------------------------ real PDFs (../shared)


@pytest.mark.integration
def test_acl_paper_figure_and_booktabs_table(pdf_root: Path, tmp_path: Path) -> None:
    doc = convert_pdf(pdf_root / "s2orc" / "N18-3011.pdf", root=pdf_root, assets_dir=tmp_path)
    assert doc.source_path == "s2orc/N18-3011.pdf" and doc.pages == 8
    assert doc.title == "Construction of the Literature Graph in Semantic Scholar"
    fig = next(m for m in doc.media if isinstance(m, ImageItem))
    assert fig.page == 1 and fig.caption.startswith("Figure 1: Part of the literature graph")
    assert (tmp_path / (fig.stored_path or "")).is_file()
    t1 = next(m for m in doc.media if isinstance(m, TableItem) and m.caption.startswith("Table 1"))
    assert t1.page == 3 and t1.headers == ["Field", "Precision", "Recall", "F1"]
    assert ["title", "85.5", "85.5", "85.5"] in t1.rows
    assert "| Field | Precision | Recall | F1 |" in t1.markdown
    heads = [s.heading_path[-1] for s in doc.sections]
    assert "1 Introduction" in heads and any(h.startswith("4.2 Entity Extraction Model") for h in heads)
    assert any(s.heading_path[-2:] == ("4 Entity Extraction and Linking", "4.1 Approaches") for s in doc.sections)


@pytest.mark.integration
def test_two_column_reading_order(pdf_root: Path, tmp_path: Path) -> None:
    doc = convert_pdf(pdf_root / "unstructured" / "multi-column-2p.pdf", root=pdf_root, assets_dir=tmp_path)
    abstract = next(s for s in doc.sections if s.heading_path[-1] == "Abstract")
    # the left column's abstract reads as one clean run, not interleaved with the right column
    assert "candidate contexts, where traditional sparse vector space models" in abstract.text
    intro = next(s for s in doc.sections if s.heading_path[-1] == "1 Introduction")
    assert "factoid questions using a large collection of documents" in intro.text


@pytest.mark.integration
def test_single_table_scan_needs_ocr(pdf_root: Path, tmp_path: Path) -> None:
    doc = convert_pdf(pdf_root / "unstructured" / "single_table.pdf", root=pdf_root, assets_dir=tmp_path)
    assert any("no text layer" in w for w in doc.warnings)
    assert len(doc.media) == 1 and isinstance(doc.media[0], ImageItem)


@pytest.mark.integration
def test_every_shared_pdf_ingests(pdf_root: Path, tmp_path: Path) -> None:
    for path in sorted(pdf_root.rglob("*.pdf")):
        doc = convert_pdf(path, root=pdf_root, assets_dir=tmp_path)
        assert doc.sections or doc.media, path
        for m in doc.media:
            assert m.section_id in {s.id for s in doc.sections}


def test_pdfminer_warnings_land_in_the_document_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = tmp_path / "damaged.pdf"
    pdf.write_bytes(_paper().replace(b"/Font", b"/Fnot"))  # fonts without a usable descriptor: pdfminer warns
    doc = convert_pdf(pdf, root=tmp_path, assets_dir=tmp_path / "assets")
    assert doc.sections
    assert any(w.startswith("pdfminer: Could not get FontBBox") for w in doc.warnings), doc.warnings
    assert "FontBBox" not in capsys.readouterr().err


def _manual_page(header: tuple[float, str] | None, heading: str, n: int) -> list[tuple]:
    ops: list[tuple] = [] if header is None else [("text", header[0], 30, 9, False, header[1])]
    ops.append(("text", 72, 100, 14, True, heading))
    ops += [("text", 72, 130 + 13 * i, 10, False, f"{BODY} Line {n}-{i}.") for i in range(6)]
    return ops


@pytest.mark.parametrize("headers", [
    # a book's verso/recto running header: the page number on the outer side
    ["12 The Widget Manual", "The Widget Manual 13", "14 The Widget Manual", "The Widget Manual 15"],
    # a chapter-title running header: the text changes, the printed page number follows the page index
    ["12 Installing", "Installing 13", "14 Configuring", "Using widgets 15"],
])
def test_running_headers_with_page_numbers_leave_the_text(headers: list[str], tmp_path: Path) -> None:
    pages = [_manual_page((72 if i % 2 == 0 else 420, h), f"Chapter {i + 1}", i) for i, h in enumerate(headers)]
    path = tmp_path / "manual.pdf"
    path.write_bytes(make_pdf(pages))
    doc = convert_pdf(path, root=tmp_path, assets_dir=tmp_path / "assets")
    text = "\n".join(s.text for s in doc.sections)
    assert "Line 3-5" in text
    for h in headers:
        assert h not in text


def test_table_of_contents_pages_are_not_headings_or_text(tmp_path: Path) -> None:
    toc: list[tuple] = [("text", 72, 60, 16, True, "Contents")]
    entries = [("1 Getting started", "3"), ("Installing the widget", "3"), ("Upgrading", "4"),
               ("2 Reference", "5"), ("Widget options", "5"), ("Environment", "6")]
    for i, (title, num) in enumerate(entries):
        bold = not title[0].isalpha()
        leader = "" if bold else " " + ". " * 20
        ops_y = 100 + 18 * i
        toc.append(("text", 72 if bold else 84, ops_y, 10, bold, title + leader))
        toc.append(("text", 530, ops_y, 10, bold, num))
    pages = [toc, _manual_page(None, "1 Getting started", 1), _manual_page(None, "2 Reference", 2)]
    path = tmp_path / "manual.pdf"
    path.write_bytes(make_pdf(pages))
    doc = convert_pdf(path, root=tmp_path, assets_dir=tmp_path / "assets")
    headings = [s.heading_path[-1] for s in doc.sections]
    assert headings == ["1 Getting started", "2 Reference"]
    text = "\n".join(s.text for s in doc.sections)
    assert "Upgrading" not in text and ". . ." not in text


def test_paragraph_broken_by_a_page_break_is_one_paragraph(tmp_path: Path) -> None:
    first: list[tuple] = [("text", 72, 100, 14, True, "1 Plotting")]
    first += [("text", 72, 130 + 13 * i, 10, False, f"{BODY} Line {i}.") for i in range(3)]
    first.append(("text", 72, 190, 10, False, "Recent versions add interactive termi-"))
    second: list[tuple] = [("text", 72, 72, 10, False, "nals based on widget toolkits and the web canvas."),
                           ("text", 72, 100, 10, False, "Another paragraph starts here.")]
    path = tmp_path / "manual.pdf"
    path.write_bytes(make_pdf([first, second]))
    doc = convert_pdf(path, root=tmp_path, assets_dir=tmp_path / "assets")
    paras = [p for s in doc.sections for p in s.text.split("\n\n")]
    assert "Recent versions add interactive terminals based on widget toolkits and the web canvas." in paras
    assert paras[-1] == "Another paragraph starts here."


def test_code_in_a_monospaced_font_is_its_own_paragraph_with_its_lines(tmp_path: Path) -> None:
    ops: list[tuple] = [("text", 72, 100, 14, True, "1 Drawing"),
                        ("text", 72, 130, 10, False, "To draw a line, create a file containing"),
                        ("text", 90, 143, 10, "mono", "size(100);"),
                        ("text", 90, 156, 10, "mono", "draw((0,0)--(1,1));"),
                        ("text", 72, 169, 10, False, "and run the command on it.")]
    path = tmp_path / "manual.pdf"
    path.write_bytes(make_pdf([ops]))
    doc = convert_pdf(path, root=tmp_path, assets_dir=tmp_path / "assets")
    assert doc.sections[-1].text.split("\n\n") == [
        "To draw a line, create a file containing", "size(100);\ndraw((0,0)--(1,1));", "and run the command on it."]


def test_tex_accents_drawn_over_their_letter_combine_with_it(tmp_path: Path) -> None:
    # Helvetica, StandardEncoding: 0xC8 dieresis, 0xC2 acute, 0xC1 grave, 0xF5 dotless i
    ops: list[tuple] = [("text", 72, 100, 14, True, "1 Credits"),
                        ("text", 72, 130, 10, False, "Bro"), ("text", 83.1, 130, 10, False, "\xc8"),
                        ("text", 87.56, 130, 10, False, "ker and Mikul"),
                        ("text", 147.62, 130, 10, False, "\xf5"), ("text", 147.62, 130, 10, False, "\xc2"),
                        ("text", 150.4, 130, 10, False, "k wrote it; a grave \xc1 beside a letter stays.")]
    path = tmp_path / "manual.pdf"
    path.write_bytes(make_pdf([ops]))
    text = convert_pdf(path, root=tmp_path, assets_dir=tmp_path / "assets").sections[-1].text
    assert "Bröker and Mikulík wrote it" in text
    assert "grave ` beside" in text or "grave \u02cb beside" in text or "grave `beside" in text
