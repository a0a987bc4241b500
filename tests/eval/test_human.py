"""Human-evaluation export, import and statistics (MuRAR section 5)."""

from __future__ import annotations

import csv
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from murar.eval.errors import RatingsError
from murar.eval.human import (
    Packet,
    Rating,
    export_packets,
    load_ratings,
    plot_distribution,
    summarise_ratings,
)
from murar.schema import Answer, ImageItem, MediaBlock, TextBlock, Trace


def _r(who: str, q: str, model: str, u: int, rd: int, rl: int, pref: str) -> Rating:
    return Rating(annotator=who, question_id=q, model=model, usefulness=u, readability=rd,
                  relevance=rl, preference=pref)


RATINGS = [
    _r("ann1", "q1", "m", 4, 4, 5, "multimodal"), _r("ann2", "q1", "m", 4, 3, 5, "multimodal"),
    _r("ann1", "q2", "m", 2, 3, 3, "same"), _r("ann2", "q2", "m", 2, 2, 3, "text-only"),
    _r("ann1", "q3", "m", 5, 5, 4, "multimodal"), _r("ann2", "q3", "m", 4, 5, 4, "multimodal"),
    _r("ann3", "q3", "m", 1, 1, 1, "text-only"),
]


def test_summary_means_preference_and_annotators() -> None:
    s = summarise_ratings(RATINGS)
    assert s.per_model["m"]["usefulness"]["mean"] == pytest.approx(22 / 7)
    assert s.per_model["m"]["usefulness"]["sd"] == pytest.approx(np.std([4, 4, 2, 2, 5, 4, 1], ddof=1))
    assert s.preference["m"]["rate"] == pytest.approx(4 / 7)
    assert s.preference["m"]["same"] == pytest.approx(1 / 7)
    assert s.top_annotators == ["ann1", "ann2"]
    assert s.per_annotator["ann3"]["share"] == pytest.approx(1 / 7)
    assert s.per_annotator["ann1"]["mean"] == pytest.approx(35 / 9)


def test_agreement_comes_from_the_libraries() -> None:
    s = summarise_ratings(RATINGS)
    # kappa between the two most active annotators on usefulness: q1..q3
    assert s.kappa["usefulness"]["unweighted"] == pytest.approx(cohen_kappa_score([4, 2, 5], [4, 2, 4]))
    mat = np.array([[4, 2, 5], [4, 2, 4], [np.nan, np.nan, 1]])
    assert s.alpha["usefulness"]["ordinal"] == pytest.approx(
        krippendorff.alpha(reliability_data=mat, level_of_measurement="ordinal"))
    assert s.kappa["overall"]["n"] == 9


def test_export_then_import_round_trip(tmp_path: Path) -> None:
    img_dir = tmp_path / "corpus" / "a"
    img_dir.mkdir(parents=True)
    (img_dir / "x.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    item = ImageItem(id="i", section_id="s", source_path="a/p.md", page_title="P",
                     heading_path=("P",), anchor=None, position=0, path="a/x.png", caption="Save <dialog>")
    ans = Answer(question="How?", found=True, sources=[], trace=Trace(),
                 blocks=[TextBlock(text="Click Save."), MediaBlock(type="image", item=item, score=1.0)])
    html_path, csv_path = export_packets(
        [Packet(question_id="q1", question="How?", model="m", text_answer="Click Save.",
                multimodal_answer=ans)], tmp_path / "out", corpus_root=tmp_path / "corpus")
    page = html_path.read_text()
    assert "data:image/png;base64," in page and "Save &lt;dialog&gt;" in page
    assert 'name="q0-usefulness" value="5"' in page and "saveCsv" in page
    rows = list(csv.DictReader(csv_path.open()))
    assert rows[0]["question_id"] == "q1" and rows[0]["usefulness"] == ""
    # fill it in
    rows[0].update(annotator="ann1", usefulness="4", readability="3", relevance="5", preference="Multi-Modal")
    with csv_path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    got = load_ratings([csv_path])
    assert got == [_r("ann1", "q1", "m", 4, 3, 5, "multimodal")]


def test_bad_ratings_name_row_and_column(tmp_path: Path) -> None:
    p = tmp_path / "r.csv"
    p.write_text("annotator,question_id,model,usefulness,readability,relevance,preference\n"
                 "a,q,m,4,4,4,same\na,q2,m,6,4,4,same\n")
    with pytest.raises(RatingsError, match=r"row 3 column usefulness"):
        load_ratings([p])
    p.write_text("annotator,question_id,model,usefulness\n")
    with pytest.raises(RatingsError, match="missing columns"):
        load_ratings([p])
    with pytest.raises(RatingsError):
        summarise_ratings([])


def test_single_annotator_and_plot(tmp_path: Path) -> None:
    s = summarise_ratings(RATINGS[:1])
    assert s.kappa == {} and s.alpha["usefulness"]["ordinal"] is None and s.notes
    out = plot_distribution(RATINGS, tmp_path / "dist.png")
    assert out.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_ratings_saved_by_a_spreadsheet_are_read(tmp_path: Path, delimiter: str) -> None:
    """Excel's 'CSV UTF-8' starts with a byte-order mark: the sheet was refused as
    "missing columns ['annotator']" though the column is there; 'Unicode Text' (UTF-16,
    tabs) ended in a UnicodeDecodeError traceback, a semicolon sheet (Excel where the
    decimal mark is a comma) missed every column. A sheet in another encoding is a
    RatingsError saying how to save it."""
    from murar.eval.human import CSV_COLUMNS, METRICS

    row = {"annotator": "ann", "question_id": "q1", "model": "m", "preference": "multimodal",
           "question": 'Wie geht\'s – "café", ok?', "comment": 'très; bien, "x"', **{m: "4" for m in METRICS}}
    out = tmp_path / "sheet.csv"
    with out.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(CSV_COLUMNS), delimiter=delimiter)
        writer.writeheader()
        writer.writerow(row)
    text = out.read_text(encoding="utf-8")
    for data in (text.encode("utf-8"), b"\xef\xbb\xbf" + text.encode("utf-8"), text.encode("utf-16")):
        out.write_bytes(data)
        [rating] = load_ratings([out])
        assert (rating.annotator, rating.question_id, rating.usefulness, rating.preference) == ("ann", "q1", 4,
                                                                                                "multimodal")
    out.write_bytes(text.encode("cp1252"))
    with pytest.raises(RatingsError, match="not UTF-8 text .*save it as 'CSV UTF-8'"):
        load_ratings([out])


def test_names_from_the_ratings_are_text_in_the_html_report(tmp_path: Path) -> None:
    """An annotator (or model) named '<img src=x onerror=alert(1)>' from a filled sheet was
    raw HTML in human_report.html (markdown-it's commonmark preset passes HTML through), and
    a '|' in a name split its table row."""
    from murar.eval.report import write_human_report

    evil = "<img src=x onerror=alert(1)>|x"
    ratings = [_r(evil, "q1", "m", 4, 3, 5, "multimodal"), _r("ann2", "q1", "m", 3, 3, 4, "same")]
    paths = write_human_report(summarise_ratings(ratings), ratings, tmp_path / "hr")
    page = paths["html"].read_text()
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;|x" in page
    row = next(line for line in paths["markdown"].read_text().splitlines() if "onerror" in line)
    assert row.count(" | ") == 8  # 9 cells, the pipe of the name escaped
