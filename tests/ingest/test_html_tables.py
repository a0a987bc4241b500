"""Tests of murar.ingest.tables: HTML table -> rows, rows -> GFM."""

from __future__ import annotations

from murar.ingest.tables import parse_html_table, rows_to_markdown

SPAN_TABLE = """
<table>
  <caption>Scores</caption>
  <thead>
    <tr><th rowspan="2">Model</th><th colspan="2">Dev</th></tr>
    <tr><th>P</th><th>R</th></tr>
  </thead>
  <tbody>
    <tr><td rowspan="2">BERT <b>base</b></td><td>0.81</td><td>0.7<b>9</b></td></tr>
    <tr><td>0.83</td><td>0.80<script>alert(1)</script></td></tr>
    <tr><td colspan="3">note: a|b</td></tr>
    <tr><td></td><td> </td><td></td></tr>
  </tbody>
</table>
"""


def test_colspan_rowspan_expanded() -> None:
    headers, rows = parse_html_table(SPAN_TABLE)
    assert headers == ["Model", "Dev / P", "Dev / R"]
    assert rows == [
        ["BERT base", "0.81", "0.79"],
        ["BERT base", "0.83", "0.80"],
        ["note: a|b", "note: a|b", "note: a|b"],
    ]


def test_leading_th_row_is_header_and_nested_tables_flattened() -> None:
    html = ("<table><tr><th>k</th><th>v</th></tr>"
            "<tr><td>a</td><td><table><tr><td>x</td><td>y</td></tr></table></td></tr></table>")
    headers, rows = parse_html_table(html)
    assert headers == ["k", "v"]
    assert rows == [["a", "x y"]]


def test_no_header_and_ragged_rows_padded() -> None:
    headers, rows = parse_html_table("<table><tr><td>1</td></tr><tr><td>2</td><td>3</td></tr>")
    assert headers == []
    assert rows == [["1", ""], ["2", "3"]]


def test_malformed_and_missing_tables() -> None:
    assert parse_html_table("<p>no table here</p>") == ([], [])
    _headers, rows = parse_html_table("<table><tr><td>a<td>b<tr><td>c</table")
    assert rows == [["a", "b"], ["c", ""]]
    # absurd spans are clamped, never explode memory
    _headers, rows = parse_html_table('<table><tr><td colspan="999999" rowspan="999999">x</td></tr></table>')
    assert len(rows) == 1 and len(rows[0]) == 1000


def test_rows_to_markdown_escapes_pipes() -> None:
    md = rows_to_markdown(["a|b", "c"], [["1", "x\ny"], ["2"]])
    assert md.splitlines() == [
        "| a\\|b | c |",
        "| --- | --- |",
        "| 1 | x y |",
        "| 2 |  |",
    ]
    assert rows_to_markdown([], []) == ""
    assert rows_to_markdown([], [["1"]]).splitlines()[0] == "|  |"
