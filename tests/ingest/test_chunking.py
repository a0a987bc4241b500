from collections.abc import Callable
from typing import Any

from murar.embed.fake import HashingEmbedder
from murar.ingest.chunking import (
    chunk_section,
    continues,
    embedding_text,
    first_sentence,
    last_sentence,
    split_sentences,
)
from murar.schema import Section, TableItem


def _section(text: str) -> Section:
    return Section(id="s1", source_path="p.md", page_title="Page", heading_path=("Page", "Sec"),
                   anchor=None, level=2, text=text, ordinal=0)


def test_snippets_fit_the_embedder_window() -> None:
    emb = HashingEmbedder(max_tokens=40)
    long_para = " ".join(f"word{i}." for i in range(300))
    text = "Short intro.\n\n" + long_para + "\n\n" + "x " * 500
    snippets = chunk_section(_section(text), emb)
    assert len(snippets) > 5
    for s in snippets:
        assert emb.count_tokens(embedding_text(s)) <= 40
        assert s.section_id == "s1"
    assert [s.position for s in snippets] == list(range(len(snippets)))
    # nothing lost: every word of the input appears in some snippet
    joined = " ".join(s.text for s in snippets)
    assert "word299." in joined and "Short intro." in joined


def test_small_paragraphs_are_packed_and_empty_sections_give_nothing() -> None:
    emb = HashingEmbedder(max_tokens=256)
    snippets = chunk_section(_section("One.\n\nTwo.\n\nThree."), emb)
    assert len(snippets) == 1 and snippets[0].text == "One.\n\nTwo.\n\nThree."
    assert chunk_section(_section(""), emb) == []


def test_ids_are_stable() -> None:
    emb = HashingEmbedder()
    a = chunk_section(_section("Alpha beta.\n\nGamma."), emb)
    b = chunk_section(_section("Alpha beta.\n\nGamma."), emb)
    assert [s.id for s in a] == [s.id for s in b]


def test_sentence_splitter_is_a_library_not_a_regex() -> None:
    assert split_sentences("Dr. Smith opened v1.2 of the app. Then he left.") == [
        "Dr. Smith opened v1.2 of the app.", "Then he left."]


def test_sentence_splitting_is_thread_safe() -> None:
    """pysbd keeps the text being split on the segmenter; threads sharing one lost
    sentences (the server answers in worker threads; soak run: IndexError)."""
    from concurrent.futures import ThreadPoolExecutor

    from murar.ingest.chunking import split_sentences

    texts = [f"Open panel {i} in the editor. Then press save number {i}. Check the result {i} again." * (1 + i % 3)
             for i in range(200)]
    expected = [split_sentences(t) for t in texts]
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(split_sentences, texts))
    assert got == expected


def _table(rows: list[list[str]], headers: list[str] | None = None, caption: str = "") -> TableItem:
    return TableItem(id="t1", section_id="s1", source_path="p.md", page_title="Page", heading_path=("Page", "Sec"),
                     anchor=None, position=0, caption=caption, headers=headers or [], rows=rows)


def test_table_rows_read_alone() -> None:
    from murar.ingest.chunking import table_lines

    t = _table([["ECID", "4", ""], ["", "", ""], ["IDFA", "20915", "Apple"]], ["Namespace", "ID", "Vendor"],
               caption="Standard namespaces")
    assert table_lines(t) == ["Table: Standard namespaces", "Namespace: ECID; ID: 4",
                              "Namespace: IDFA; ID: 20915; Vendor: Apple"]
    assert table_lines(_table([["a", "b"]])) == ["a | b"]


def test_table_rows_become_snippets_of_their_section() -> None:
    """The rows of a table become snippets of its section, within the token budget, numbered after its text."""
    from murar.ingest.chunking import ChunkingOptions, chunk_tables

    emb = HashingEmbedder(max_tokens=40)
    sec = _section("The standard namespaces are listed below.")
    rows = [[f"Namespace {i}", str(1000 + i), "code" * (i % 3 + 1)] for i in range(40)]
    text_snips = chunk_section(sec, emb)
    snips = chunk_tables(sec, [_table(rows, ["Name", "ID", "Code"])], emb, first_position=len(text_snips))
    assert len(snips) > 1
    assert all(s.section_id == "s1" and emb.count_tokens(embedding_text(s)) <= 40 for s in snips)
    assert [s.position for s in snips] == list(range(len(text_snips), len(text_snips) + len(snips)))
    joined = "\n".join(s.text for s in snips)
    assert "Name: Namespace 39; ID: 1039" in joined and "Name: Namespace 0; ID: 1000" in joined
    assert len({s.id for s in snips} | {s.id for s in text_snips}) == len(snips) + len(text_snips)
    assert chunk_tables(sec, [_table(rows)], emb, ChunkingOptions(table_snippets=False)) == []


def test_each_table_chunk_starts_with_the_tables_lead_in() -> None:
    from murar.ingest.chunking import chunk_tables

    emb = HashingEmbedder(max_tokens=60)
    t = _table([[f"Agent {i}", f"App {i}"] for i in range(30)], ["Agent", "Available in"])
    t.context_before = "Agents help you. The ecosystem includes the following agents:"
    snips = chunk_tables(_section("Agents help you. The ecosystem includes the following agents:"), [t], emb)
    assert len(snips) > 1
    assert all(s.text.startswith("The ecosystem includes the following agents:\n") for s in snips)
    assert all(emb.count_tokens(embedding_text(s)) <= 60 for s in snips)


def test_a_sentence_never_ends_inside_a_query_string_or_inline_code() -> None:
    """pysbd ends a sentence at the ``?`` of ``?ionic:mode=ios``; the evidence given to the
    model then held "ionic:mode=ios to the URL ..." without what to add (docusaurus-ionic-docs)."""
    text = ("To do this, add `?ionic:mode=ios` to the URL where the app is being served. "
            "Open http://localhost:8100/?ionic:mode=ios to check. Is it iOS? Yes! It is.")
    assert split_sentences(text) == [
        "To do this, add `?ionic:mode=ios` to the URL where the app is being served.",
        "Open http://localhost:8100/?ionic:mode=ios to check.",
        "Is it iOS?", "Yes!", "It is."]


def test_a_sentence_never_opens_with_the_rest_of_the_one_before() -> None:
    """pysbd cut an Adobe Analytics step at "Exists." inside it; the step text and caption
    of the screenshot after it became "to remove visitors who bought the items"."""
    text = ("Visit must not include: Checkout (metric) Exists. to remove visitors who bought the items. "
            "Then save the rule. See e.g. the docs. iOS works.\n1. click Save.\n2. close the dialog.")
    assert split_sentences(text) == [
        "Visit must not include: Checkout (metric) Exists. to remove visitors who bought the items.",
        "Then save the rule.", "See e.g. the docs.", "iOS works.",
        # after a line break a lower-case piece is a sentence of its own (list items)
        "1. click Save.", "2. close the dialog."]
    assert continues("to remove visitors") and continues("npm install")
    for whole in ("iOS settings of the app", "e.g. the Settings page", "log_level set to debug",
                  "config.yaml in the project", "print(x) shows it", "The Settings page", "2. Open the page"):
        assert not continues(whole), whole


def test_first_and_last_sentence_read_only_their_end_of_the_text() -> None:
    text = "Open the canvas. Drag the event onto it:\nThe canvas shows the journey. More text."
    assert first_sentence(text) == "Open the canvas."
    assert last_sentence(text) == "More text."
    assert first_sentence("") == last_sentence("") == ""
    # only max_chars characters are split: a long context costs no more than a short one
    assert first_sentence("One two three four five six. Seven.", max_chars=13) == "One two three"
    assert last_sentence("First one. Two three four five six.", max_chars=14) == "four five six."


def test_a_long_paragraph_is_split_in_linear_time(deadline: Callable[[int, str], Any]) -> None:
    """pysbd is superlinear in the text it reads, and chunking runs outside the per-file
    time budget: a paragraph of 8,000 sentences (160 KB) took 68 s to ingest, 24 KB of
    '1. ' 12 s. It is read in windows now (about 4 s for these 260 KB)."""
    emb = HashingEmbedder(max_tokens=64)
    text = "This is a sentence. " * 12_000
    with deadline(40, "one long paragraph"):
        snippets = chunk_section(_section(text), emb)
        numbers = split_sentences("1. " * 8_000)
    assert sum(s.text.count("This is a sentence.") for s in snippets) == 12_000
    assert "".join(numbers).replace(" ", "") == "1." * 8_000


def test_windowed_sentences_match_one_pass() -> None:
    import pysbd

    from murar.ingest.chunking import segment_windows

    sentences = [f"Step {i}: open the Settings panel (see Fig. {i}), e.g. with Mr. Smith's account, and click "
                 f"Save v{i}.2 now." if i % 3 else f"Then press OK {i}! Is it done? Yes." for i in range(120)]
    text = " ".join(sentences)
    one_pass = pysbd.Segmenter(language="en", clean=False).segment(text)
    assert segment_windows(text, window=300) == one_pass
    assert "".join(segment_windows(text, window=300)) == text
