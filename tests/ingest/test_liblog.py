"""Library warnings (pdfminer's) go to the file's warnings, not to stderr."""

from __future__ import annotations

import logging
import threading

import pytest

from murar.ingest.liblog import MAX_DISTINCT, library_warnings


def test_records_of_this_thread_are_collected_counted_and_kept_off_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    sink: list[str] = []
    lg = logging.getLogger("pdfminer.pdffont")
    with library_warnings(sink):
        for _ in range(3):
            lg.warning("Could not get FontBBox from font %s", "F1")
        lg.error("Invalid   dictionary\nconstruct")
        lg.info("below the level: not a warning")
    assert sink == ["pdfminer: Could not get FontBBox from font F1 (3 times)",
                    "pdfminer: Invalid dictionary construct"]
    assert capsys.readouterr().err == ""
    # restored: outside the block the logger propagates again
    assert logging.getLogger("pdfminer").propagate is True
    assert logging.getLogger("pdfminer").handlers == []


def test_distinct_messages_are_capped() -> None:
    sink: list[str] = []
    with library_warnings(sink):
        for i in range(MAX_DISTINCT + 5):
            logging.getLogger("pdfminer").warning("problem %d", i)
    assert len(sink) == MAX_DISTINCT + 1
    assert sink[-1] == "pdfminer: 5 more warning(s) of 5 other kinds"


def test_the_overflow_line_names_the_libraries_it_counts() -> None:
    sink: list[str] = []
    with library_warnings(sink, loggers=("pdfminer", "fontTools")):
        for i in range(MAX_DISTINCT):
            logging.getLogger("pdfminer").warning("problem %d", i)
        logging.getLogger("fontTools.ttLib").warning("bad glyph")
        logging.getLogger("fontTools.ttLib").warning("bad glyph")  # the most frequent: kept in full
        logging.getLogger("fontTools.ttLib").warning("bad table")
    assert sink[0] == "fontTools: bad glyph (2 times)"
    assert sink[-1] in ("pdfminer, fontTools: 2 more warning(s) of 2 other kinds",
                        "fontTools, pdfminer: 2 more warning(s) of 2 other kinds")


def test_other_threads_records_still_reach_the_root_handlers(caplog: pytest.LogCaptureFixture) -> None:
    sink: list[str] = []
    with caplog.at_level(logging.WARNING), library_warnings(sink):
        t = threading.Thread(target=lambda: logging.getLogger("pdfminer").warning("from another conversion"))
        t.start()
        t.join()
    assert sink == []
    assert "from another conversion" in caplog.text

