from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from murar.answer.attribute import attribute, split_answer
from murar.answer.generate import citations_in, clean_citations, strip_citations
from murar.answer.media import MediaOptions, select_section_media
from murar.answer.refine import (
    assign_placeholders,
    build_draft,
    refine,
    validate_refinement,
)
from murar.answer.render import escape_md, render_markdown, to_blocks
from murar.embed.fake import HashingEmbedder
from murar.llm.fake import ScriptedChatModel
from murar.schema import (
    Answer,
    ImageItem,
    MediaSelection,
    ScoredSnippet,
    Section,
    Snippet,
    TableItem,
    Trace,
)
from murar.store.memory import MemoryStore


def _snip(i: int, text: str, section: str) -> Snippet:
    return Snippet(id=f"sn{i}", section_id=section, source_path="p.md", page_title="Page", heading_path=("Page", section),
                   anchor=None, text=text, position=0, n_tokens=len(text.split()))


def _image(id_: str, section: str, text: str, exists: bool = True, path: str | None = None) -> ImageItem:
    return ImageItem(id=id_, section_id=section, source_path="p.md", page_title="Page", heading_path=("Page", section),
                     anchor=None, position=0, alt=text, context_before=text, path=path or f"{id_}.png", exists=exists)


def test_citation_helpers() -> None:
    assert clean_citations("A [1, 9] B [2]", {1, 2}) == "A [1] B [2]"
    assert citations_in("x [2] y [1][2]") == [2, 1]
    assert strip_citations("Save it [1].") == "Save it."


def test_split_answer_keeps_citations_with_their_sentence() -> None:
    assert split_answer("Deploy on the edge. [1] Then go. [2][3]\n1. Click Save. [1]") == [
        "Deploy on the edge. [1]", "Then go. [2][3]", "1. Click Save. [1]"]


def _world() -> tuple[MemoryStore, list[ScoredSnippet], np.ndarray, HashingEmbedder]:
    emb = HashingEmbedder()
    snippets = [
        _snip(0, "create a custom event in the journey canvas configuration", "events"),
        _snip(1, "audiences are built with segment rules and attributes", "audiences"),
    ]
    media = [
        _image("ev", "events", "custom event journey canvas configuration screen"),
        _image("ev-missing", "events", "custom event journey canvas configuration screen exact", exists=False),
        _image("aud", "audiences", "segment rules builder attributes audiences"),
    ]
    sections = [Section(id=s, source_path="p.md", page_title="Page", heading_path=("Page", s), anchor=None,
                        level=2, text="", ordinal=i) for i, s in enumerate(["events", "audiences"])]
    sv = emb.embed([s.text for s in snippets])
    mv = emb.embed([m.representation() for m in media])
    store = MemoryStore(sections=sections, snippets=snippets, snippet_vectors=sv, media=media, media_vectors=mv)
    scored = [ScoredSnippet(snippet=s, score=0.9, citation=i + 1) for i, s in enumerate(snippets)]
    return store, scored, sv, emb


def test_attribution_threshold_and_media_from_same_section() -> None:
    store, scored, sv, emb = _world()
    text = "Create a custom event in the journey canvas configuration [1]. The weather is sunny today."
    res = attribute(text, scored, sv, emb, threshold=0.3)
    assert res.attributions[0].snippet_id == "sn0" and res.attributions[0].citation == 1
    assert res.attributions[1].snippet_id is None
    media = select_section_media(res.attributions, res.sentence_vectors, store, MediaOptions(min_snippet_score=0.1,
                                                                                               min_sentence_score=0.1))
    assert [m.item.id for m in media.selected] == ["ev"]  # missing file never chosen, other section never reached
    assert media.selected[0].sentence_index == 0


def test_item_chosen_twice_is_kept_once_with_best_score() -> None:
    store, scored, sv, emb = _world()
    text = ("Create a custom event in the journey canvas configuration [1]. "
            "The custom event journey canvas configuration is saved [1].")
    res = attribute(text, scored, sv, emb, threshold=0.3)
    media = select_section_media(res.attributions, res.sentence_vectors, store, MediaOptions(min_snippet_score=0.1,
                                                                                               min_sentence_score=0.1))
    assert [m.item.id for m in media.selected] == ["ev"]


def _sel(item: ImageItem, i: int) -> MediaSelection:
    return MediaSelection(item=item, snippet_id="sn0", sentence_index=i, score=0.8)


def test_draft_places_placeholders_after_sentences() -> None:
    sels = [_sel(_image("a", "s", "a"), 0), _sel(_image("b", "s", "b"), 2)]
    assign_placeholders(sels)
    draft = build_draft("One [1]. Two [1]. Three [2].", sels)
    assert draft == "One [1].\n[IMAGE 1]\nTwo [1]. Three [2].\n[IMAGE 2]"


def test_validation_rejects_each_failure_mode() -> None:
    draft = "Open the journey canvas and drag the event [1].\n[IMAGE 1]\nSave the journey [2].\n[TABLE 2]"
    ok = "Open the journey canvas and drag the event, as shown below [1].\n[IMAGE 1]\nSave the journey [2].\n[TABLE 2]"
    assert validate_refinement(ok, draft).ok
    cases = {
        "missing": ok.replace("[TABLE 2]", ""),
        "repeated": ok + "\n[IMAGE 1]",
        "unknown": ok + "\n[VIDEO 3]",
        "order": "Open the journey canvas and drag the event [1].\n[TABLE 2]\nSave the journey [2].\n[IMAGE 1]",
        "citation": ok.replace("[2]", ""),
        "lost": "[IMAGE 1]\n[TABLE 2] Done [1][2].",
    }
    for name, out in cases.items():
        v = validate_refinement(out, draft)
        assert not v.ok, name
        assert v.reason


def test_refine_falls_back_deterministically() -> None:
    draft = "Open the canvas [1].\n[IMAGE 1]"
    bad = ScriptedChatModel(["Open the canvas [1]."])  # dropped the placeholder
    text, trace = refine(draft, bad)
    assert text == draft and trace.used == "fallback" and "missing" in trace.reason
    good = ScriptedChatModel(["Open the canvas, shown below [1].\n[IMAGE 1]"])
    text, trace = refine(draft, good)
    assert trace.used == "llm" and text.endswith("[IMAGE 1]")
    text, trace = refine("No media here [1].", good)
    assert trace.used == "none"


def test_blocks_and_markdown_escape_document_text() -> None:
    img = _image("a", "s", "x")
    img.alt = "evil](javascript:alert(1)) <script>"
    table = TableItem(id="t", section_id="s", source_path="p.md", page_title="Page", heading_path=("Page",),
                      anchor=None, position=0, headers=["A"], rows=[["1"]], markdown="| A |\n| --- |\n| 1 |")
    sels = [_sel(img, 0), MediaSelection(item=table, snippet_id="sn0", sentence_index=0, score=0.5)]
    assign_placeholders(sels)
    blocks = to_blocks("First [1].\n[IMAGE 1]\n[TABLE 2]\nSecond [2].", sels)
    assert [b.type for b in blocks] == ["text", "image", "table", "text"]
    assert blocks[1].citations == [1]
    answer = Answer(question="q", blocks=blocks, sources=[], found=True, trace=Trace())
    md = render_markdown(answer, media_url=lambda it: "img/a.png")
    assert "](<img/a.png>)" in md and "| A |" in md
    assert "<script>" not in md and "](javascript" not in md
    assert escape_md("a[b]") == "a\\[b\\]"


def test_markdown_closes_a_code_fence_the_answer_left_open() -> None:
    """The model quoted a fence's first lines and went on (bundled model, a MyST figure
    example): the fence is closed before the screenshot, which stays an image, and the
    Sources stay a list; a fence the answer closes itself is left as it is."""
    from murar.answer.render import close_fences

    img = _image("a", "s", "x")
    sels = [_sel(img, 0)]
    assign_placeholders(sels)
    blocks = to_blocks("Include it as follows [1]:\n```{figure} name.png\nname: fig [1]\n[IMAGE 1]\nDone [1].", sels)
    md = render_markdown(Answer(question="q", blocks=blocks, sources=[], found=True, trace=Trace()),
                         media_url=lambda it: "img/a.png")
    before_image = md.split("![", 1)[0]
    assert before_image.count("```") == 2, md
    closed = "Run:\n\n````bash\nmake\n```\nstill code\n````\n\nAfter."
    assert close_fences(closed) == closed
    assert close_fences("a\n~~~\nb") == "a\n~~~\nb\n~~~"


def test_a_media_block_cites_the_snippet_it_came_from() -> None:
    """The sentence before the screenshot cites [1], but the screenshot was chosen from
    snippet sn1 ([2]): the block cites [2]. Without a known source it inherits [1]."""
    img, other = _image("a", "s", "x"), _image("b", "s", "y")
    sels = [MediaSelection(item=img, snippet_id="sn1", sentence_index=0, score=0.7),
            MediaSelection(item=other, snippet_id=None, sentence_index=0, score=0.6)]
    assign_placeholders(sels)
    blocks = to_blocks("Open the canvas [1].\n[IMAGE 1]\n[IMAGE 2]", sels, {"sn0": 1, "sn1": 2})
    assert [(b.type, b.citations) for b in blocks] == [("text", [1]), ("image", [2]), ("image", [1])]


def test_display_captions_from_model_or_fallback() -> None:
    from murar.answer.captions import fallback_caption, write_display_captions

    a, b = _image("a", "s", "x"), _image("b", "s", "y")
    a.alt, b.alt = "", "Segment builder"
    a.context_before = ""
    a.context_after = "The canvas shows the journey. More text."
    sels = [_sel(a, 0), _sel(b, 1)]
    n = write_display_captions(sels, ScriptedChatModel(["1: The journey canvas with an event\n2: [IMAGE 9] bad"]))
    assert n == 1
    assert sels[0].item.display_caption == "The journey canvas with an event"
    assert sels[1].item.display_caption == "Segment builder"  # invalid model caption -> fallback
    assert a.display_caption == ""  # originals untouched
    assert fallback_caption(a) == "The canvas shows the journey"
    a.context_before = "Open the canvas. Drag the event onto it:"
    assert fallback_caption(a) == "Drag the event onto it"


def test_a_caption_is_never_the_tail_of_a_cut_sentence() -> None:
    """A step text split off mid-sentence (a period inside the doc's sentence)
    is no caption: the next of the author's texts is used."""
    from murar.answer.captions import fallback_caption

    a = _image("a", "s", "x")
    a.alt = ""
    # the context was clipped inside the sentence (or a line break came before its tail)
    a.context_before = "Checkout (metric) Exists.\nto remove visitors who bought the items in their carts."
    a.context_after = "Click Container to save the rules that define a trigger. More text."
    assert fallback_caption(a) == "Click Container to save the rules that define a trigger"
    a.context_after = "and then it is saved."
    assert fallback_caption(a) == " > ".join(a.heading_path)
    # on one line, the splitter keeps the doc's sentence whole: it is the step the picture shows
    a.context_before = "Visit must not include: Checkout (metric) Exists. to remove visitors who bought."
    assert fallback_caption(a) == "Visit must not include: Checkout (metric) Exists. to remove visitors who bought"


def test_a_caption_never_repeats_the_sentence_its_item_follows() -> None:
    """A screenshot placed after the answer's own version of the doc step that
    introduces it gets another of the author's texts as caption, not that step again."""
    from murar.answer.captions import fallback_caption, repeats, write_display_captions

    a = _image("a", "s", "x")
    a.alt = ""
    a.context_before = "Open the canvas. Drag the custom event onto it:"
    a.context_after = "The canvas shows the journey. More text."
    said = "Drag the custom event onto the canvas [2]."
    assert repeats("Drag the custom event onto it", said)  # 5 of its 6 words
    assert not repeats("The canvas shows the whole journey", said)  # 2 of 5
    assert not repeats("Custom event", said)  # a label naming the picture, not a sentence
    # a caption naming the UI that a longer sentence acts on is not that sentence again
    assert not repeats("The events palette in the journey canvas",
                       "To add a custom event, open the journey canvas and drag the custom event from the events palette.")
    assert fallback_caption(a, avoid="Then drag the custom event onto it [1].") == "The canvas shows the journey"
    assert fallback_caption(a, avoid="Open the canvas.") == "Drag the custom event onto it"  # another sentence
    # an alt text that starts with the sentence keeps only what the reader has not read
    a.alt = "The sample estimate is displayed on screen. The estimated size of the audience is shown too."
    assert fallback_caption(a, avoid="The sample estimate is displayed on screen [1].") == (
        "The estimated size of the audience is shown too.")
    a.alt = "Sample estimate"  # a label stays, whatever the answer says
    assert fallback_caption(a, avoid="The sample estimate is displayed [1].") == "Sample estimate"
    a.alt, a.context_after = "", ""
    assert fallback_caption(a, avoid="Drag the custom event onto it [1].") == " > ".join(a.heading_path)
    sels = [_sel(a, 0), _sel(_image("b", "s", "y"), 1)]
    sels[1].item.alt = "Segment builder"
    write_display_captions(sels, ScriptedChatModel(["1: Drag the custom event onto it\n2: The segment builder canvas"]),
                           {0: "Drag the custom event onto it [1].", 1: "Build the segment [2]."})
    # the model's caption 1 repeats sentence 0: the deterministic caption takes its place
    assert [s.item.display_caption for s in sels] == [" > ".join(a.heading_path), "The segment builder canvas"]


def test_a_clipped_caption_never_repeats_the_sentence_its_item_follows() -> None:
    """A long doc sentence is no repeat of a shorter answer sentence, but clipped to a
    caption at its clause break it is exactly that sentence: the next text is used."""
    from murar.answer.captions import fallback_caption, repeats

    a = _image("a", "s", "x")
    a.alt = ""
    a.context_before = ("Use the icon at the top of each column to copy the server call URL to your clipboard, "
                        "where you can paste it into another document for reference or debugging purposes.")
    a.context_after = ""
    said = "Use the icon at the top of the column to copy the server call URL to your clipboard [3]."
    clipped = "Use the icon at the top of each column to copy the server call URL to your clipboard"
    assert not repeats(a.context_before, said) and repeats(clipped, said)
    assert fallback_caption(a) == clipped  # without the answer sentence: the clipped text is the caption
    assert fallback_caption(a, avoid=said) == " > ".join(a.heading_path)


def test_two_pictures_under_one_docs_sentence_get_distinct_captions() -> None:
    """Docs often put a sentence between two screenshots: it is the text after the
    first and the text before the second. Both fallback captions were that sentence;
    the picture it introduces keeps it, the other takes its next text."""
    from murar.answer.captions import caption_choices, write_display_captions

    between = "Use the icon at the top of each column to copy the call URL to your clipboard."
    first, second = _image("a", "s", ""), _image("b", "s", "")
    first.context_before = "Click an item to see it larger."
    first.context_after = between
    second.context_before = between
    second.context_after = ""
    sels = [_sel(first, 0), _sel(second, 0)]
    said = {0: "Click an item in the Network view to see it larger [1]."}
    write_display_captions(sels, None, said)
    assert sels[1].item.display_caption == between.rstrip(".")  # the text before it introduces it
    assert sels[0].item.display_caption == " > ".join(first.heading_path)  # its next text
    # a caption already shown earlier in the answer (streaming) is taken too
    sels = [_sel(second, 1)]
    write_display_captions(sels, None, {1: "Copy the URL [1]."}, taken=[between.rstrip(".")])
    assert sels[0].item.display_caption == " > ".join(second.heading_path)
    # with no other text left, an item keeps its caption rather than none
    sels = [_sel(second, 0), _sel(second, 1)]
    second.heading_path = ()
    write_display_captions(sels, None, {})
    assert [s.item.display_caption for s in sels] == [between.rstrip(".")] * 2
    # a text a few words over the limit is kept whole, a longer one ends at a clause break,
    # else it is cut with an ellipsis
    assert caption_choices(second) == [between.rstrip(".")]  # 17 words
    second.context_before = between.rstrip(".") + ", where you can paste it into another document."
    assert caption_choices(second) == [between.rstrip(".")]
    second.context_before = "Select " + " ".join(f"item{k}" for k in range(30)) + "."
    assert caption_choices(second) == ["Select " + " ".join(f"item{k}" for k in range(11)) + "…"]
    # a callout's lone label before the picture is no caption
    second.context_before, second.heading_path = "Open the schema.\nNote:", ("Page", "Schemas")
    assert caption_choices(second) == ["Page > Schemas"]
    # "Step 2: Create schemas" is a label, not a clause; a long heading path keeps its last headings
    second.context_before = ""
    second.heading_path = ("Set up data manually", "Step 2: Create schemas", "Create the Luma Loyalty schema",
                           "Add the identity fields to the schema and save the schema")
    assert caption_choices(second) == [" > ".join(second.heading_path[2:])]


def test_redundant_table_and_answer_based_selection() -> None:
    from murar.answer.strategies import (
        AnswerBasedOptions,
        is_redundant,
        select_answer_based,
    )

    t = TableItem(id="t", section_id="s", source_path="p.md", page_title="Page", heading_path=("Page",),
                  anchor=None, position=0, headers=["Name", "Code"], rows=[["ECID", "4"]], markdown="")
    assert is_redundant(t, "The ECID namespace has code 4 and name ECID.")
    assert not is_redundant(t, "Use the identity namespace for people.")
    store, _scored, _sv, emb = _world()
    text = "Segment rules builder attributes define audiences."
    res = select_answer_based(text, emb.embed([text]), store, emb, AnswerBasedOptions(top_n=2, min_score=0.3))
    assert [s.item.id for s in res.selected] == ["aud"]
    assert res.selected[0].strategy == "answer"


def test_unsafe_video_urls_are_not_linked() -> None:
    from murar.answer.render import is_safe_url
    from murar.schema import VideoItem

    assert is_safe_url("https://video.tv.adobe.com/v/1") and is_safe_url("assets/a.png")
    assert not is_safe_url("javascript:alert(1)") and not is_safe_url("data:text/html,x")
    v = VideoItem(id="v", section_id="s", source_path="p.md", page_title="P", heading_path=("P",), anchor=None,
                  position=0, url="javascript:alert(1)", title="Demo")
    sel = MediaSelection(item=v, snippet_id=None, sentence_index=0, score=0.9)
    assign_placeholders([sel])
    md = render_markdown(Answer(question="q", blocks=to_blocks("Hi.\n[VIDEO 1]", [sel]), sources=[], found=True,
                                trace=Trace()), media_url=lambda it: None)
    assert "javascript" not in md and "Demo" in md


def test_uncited_sentences_get_their_attributed_citation() -> None:
    from murar.schema import Attribution

    attrs = [Attribution(sentence_index=0, sentence="Open the canvas.", snippet_id="a", citation=2, score=0.8),
             Attribution(sentence_index=1, sentence="Save it [1].", snippet_id="b", citation=1, score=0.8),
             Attribution(sentence_index=2, sentence="Unrelated.", snippet_id=None, citation=None, score=0.1)]
    assert build_draft("Open the canvas. Save it [1]. Unrelated.", [], attrs) == \
        "Open the canvas [2]. Save it [1]. Unrelated."


def test_safe_repairs_before_validation() -> None:
    from murar.answer.refine import repair_placeholders

    draft = "Open the canvas [1].\n[IMAGE 1]\nSave it [2]."
    out, fixes = repair_placeholders("Open the canvas [1].\n[IMAGE 1]\n[IMAGE 1]\nSave it [2].\n[TABLE 7]", draft)
    assert out == "Open the canvas [1].\n[IMAGE 1]\nSave it [2]."
    assert fixes == ["removed repeated [IMAGE 1]", "removed unknown [TABLE 7]"]
    text, trace = refine(draft, ScriptedChatModel(["Open the canvas, shown below [1].\n[IMAGE 1]\n[IMAGE 1]\nSave it [2]."]))
    assert trace.used == "llm" and "repeated" in trace.reason and text.count("[IMAGE 1]") == 1


def test_lead_ins_are_validated_and_never_touch_the_answer_text() -> None:
    from murar.answer.refine import valid_lead_in, write_lead_ins
    from murar.schema import ImageItem, MediaSelection

    def sel(n: int, caption: str) -> MediaSelection:
        item = ImageItem(id=f"i{n}", section_id="s", source_path="p.md", page_title="P", heading_path=("P",),
                         anchor=None, position=n, path=f"i{n}.png", caption=caption)
        return MediaSelection(item=item, snippet_id="x", sentence_index=n, score=0.8, placeholder=f"[IMAGE {n}]")

    draft = "Open the journey canvas [1].\n[IMAGE 1]\nDrag the custom event onto the canvas [1].\n[IMAGE 2]"
    sels = [sel(1, "Journey canvas"), sel(2, "Events palette with the custom event")]
    reply = ("1: The screenshot below shows the journey canvas\n"
             "2: This proves the product is the best on the market.")  # invented words: rejected
    text, trace = write_lead_ins(draft, sels, ScriptedChatModel([reply]))
    assert trace.used == "llm" and "rejected [IMAGE 2]" in trace.reason
    assert text == ("Open the journey canvas [1]. The screenshot below shows the journey canvas.\n[IMAGE 1]\n"
                    "Drag the custom event onto the canvas [1].\n[IMAGE 2]")
    # nothing valid, or no model: the draft is kept
    kept, t2 = write_lead_ins(draft, sels, ScriptedChatModel(["1: [IMAGE 3] see https://evil.example"]))
    assert kept == draft and t2.used == "fallback"
    assert write_lead_ins(draft, sels, None)[0] == draft
    assert not valid_lead_in("Shown.", "Open the canvas.", "Canvas")
    assert valid_lead_in("The table below lists the canvas settings", "Configure the canvas settings.", "Settings")


def test_html_quoted_from_the_docs_is_not_live_in_markdown() -> None:
    """QA: an extractive answer quoted '<img src=x onerror=alert(5)>' (a code span in the
    page, its backticks gone in the snippet) into the Markdown as raw HTML."""
    text = "Use the <img src=x onerror=alert(5)> placeholder [1]. Keep `<b>` and 3 < 4.\n```html\n<div>\n```"
    answer = Answer(question="q", blocks=to_blocks(text, []), sources=[], found=True, trace=Trace())
    md = render_markdown(answer, media_url=lambda it: None)
    assert "<img" not in md and "&lt;img src=x" in md
    assert "`<b>`" in md and "3 < 4" in md and "```html\n<div>\n```" in md


def test_html_in_a_table_cell_or_a_file_name_is_not_live_in_markdown() -> None:
    """A table of tags ('<iframe src=x>', a code cell '&lt;img src=x onerror=alert(1)&gt;') and a
    page file named '<img src=x onerror=alert(2)>.md' put live HTML in the Markdown answer
    (CLI, /v1/answer's markdown, the OpenAI-compatible chat): text blocks were neutralised,
    table rows and the Sources list were not."""
    import dataclasses

    from murar.ingest.tables import rows_to_markdown

    rows = [["<iframe src=x>", "embeds a video player"], ["<img src=x onerror=alert(1)>", "`<b>` in code"]]
    table = TableItem(id="t", section_id="s", source_path="p.md", page_title="Page", heading_path=("Page",),
                      anchor=None, position=0, headers=["Tag", "Purpose"], rows=rows,
                      markdown=rows_to_markdown(["Tag", "Purpose"], rows))
    sels = [MediaSelection(item=table, snippet_id="sn0", sentence_index=0, score=0.5)]
    assign_placeholders(sels)
    snippet = dataclasses.replace(_snip(0, "The video player setup.", "s"),
                                  source_path="<img src=x onerror=alert(2)>\nx.md")
    answer = Answer(question="q", blocks=to_blocks("Tags [1].\n[TABLE 1]", sels), found=True, trace=Trace(),
                    sources=[ScoredSnippet(snippet=snippet, score=0.9, citation=1)])
    md = render_markdown(answer, media_url=lambda it: None)
    assert "<iframe" not in md and "<img" not in md
    assert "| &lt;iframe src=x> | embeds a video player |" in md and "`<b>` in code" in md
    assert "— &lt;img src=x onerror=alert(2)> x.md" in md


def test_extractive_quotes_a_sentence_shared_by_pages_once() -> None:
    """QA: the same partial included in three pages was quoted three times
    ('Arguments (in order): [1] Arguments (in order): [2] ...')."""
    from murar.answer.generate import ExtractiveAnswerGenerator

    shared = "Linear routing moves forward and backward through the history."
    scored = [ScoredSnippet(snippet=_snip(i, f"{shared} Page {i} has its own note about tabs.", f"s{i}"),
                            score=0.9, citation=i + 1) for i in range(3)]
    text = ExtractiveAnswerGenerator(HashingEmbedder(), min_score=0.0).generate("linear routing history", scored).text
    assert text.count(shared) == 1 and f"{shared} [1]" in text


def test_an_extractive_quote_that_ends_in_a_colon_stays_its_own_sentence() -> None:
    """A lead-in quote ("A banner can be added to the top of a Jupyter Book:") followed by a quote
    opening in lower case ("title: the title of your book.") was split as one sentence, so the
    lead-in's section (and its figure) lost the attribution to the other snippet."""
    from murar.answer.generate import ExtractiveAnswerGenerator
    from murar.ingest.chunking import split_sentences

    scored = [ScoredSnippet(snippet=_snip(0, "A banner can be added to the top of a book page:", "s0"), score=0.9,
                            citation=1),
              ScoredSnippet(snippet=_snip(1, "title: the title of the book page, shown on top.", "s1"), score=0.9,
                            citation=2)]
    text = ExtractiveAnswerGenerator(HashingEmbedder(), min_score=-1.0).generate("book page banner", scored).text
    assert split_sentences(text)[:2] == ["A banner can be added to the top of a book page: [1]",
                                         "title: the title of the book page, shown on top."]


def test_video_caption_is_not_labelled_twice() -> None:
    """QA: Markdown showed '▶ Video: [Video: Linear Routing](...)'."""
    from murar.answer.captions import fallback_caption
    from murar.schema import VideoItem

    v = VideoItem(id="v", section_id="s", source_path="p.md", page_title="Page", heading_path=("Page", "s"),
                  anchor=None, position=0, url="https://www.youtube.com/embed/x", title="Linear Routing")
    assert fallback_caption(v) == "Linear Routing"
    sel = MediaSelection(item=v, snippet_id=None, sentence_index=0, score=0.9)
    assign_placeholders([sel])
    md = render_markdown(Answer(question="q", blocks=to_blocks("Hi.\n[VIDEO 1]", [sel]), sources=[], found=True,
                                trace=Trace()), media_url=lambda it: None)
    assert "Video: Video" not in md and "▶ Video:" in md


def test_a_page_long_caption_or_heading_path_is_read_only_as_far_as_a_caption_needs(
        monkeypatch: pytest.MonkeyPatch, deadline: Callable[[int, str], Any]) -> None:
    # a 450 kB alt text of sentences the answer already says was split into sentences
    # whole (pysbd: minutes), and a heading path of 100,000 headings was shortened one
    # heading at a time, re-joining the whole path each time (quadratic)
    from murar.answer import captions

    said = "The estimate is displayed on the screen in the toolbar."
    seen: list[int] = []
    split = captions.split_sentences
    monkeypatch.setattr(captions, "split_sentences", lambda text: seen.append(len(text)) or split(text))
    item = ImageItem(id="i", section_id="s", source_path="p.md", page_title="P", heading_path=("P",),
                     anchor=None, position=0, alt=(said + " ") * 8_000 + "The tail.")
    captions.fallback_caption(item, avoid=said)
    assert seen and max(seen) <= 2_000
    deep = ImageItem(id="j", section_id="s", source_path="p.md", page_title="P",
                     heading_path=tuple(f"h{k}" for k in range(100_000)), anchor=None, position=0)
    with deadline(20, "heading path"):
        cap = captions.fallback_caption(deep)
    assert cap.endswith("h99998 > h99999") and len(cap.split()) <= 18


def test_stream_neutralizer_matches_the_whole_text_and_is_never_live() -> None:
    import random

    from murar.answer.render import StreamNeutralizer, neutralize_html

    rng = random.Random(7)
    real = ("Use the `<video>` tag [1].\n\n```html\n<video src=x></video>\n```\n\n"
            "Then <img src=x onerror=alert(1)> and 3 < 4 and `a<b` ok [2].")
    soup = ["<", "`", "```", "~~~", "a", " ", "\n", "/", "<img src=x>", "3 < 4", "`<b>`", "\n```html\n"]
    for trial in range(3000):
        text = real if trial % 2 else "".join(rng.choice(soup) for _ in range(rng.randint(0, 25)))
        cuts = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(0, 12))))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        s = StreamNeutralizer()
        out = "".join(s.feed(p) for p in pieces) + s.flush()
        assert neutralize_html(out) == out  # no live tag start outside code
        if trial % 2:
            assert out == neutralize_html(text)
