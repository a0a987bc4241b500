"""Issue-9 levers of media selection: each test fails with its lever off."""

from __future__ import annotations

import dataclasses

import numpy as np

from murar.answer.attribute import AttributionOptions, AttributionResult, attribute
from murar.answer.media import (
    MediaOptions,
    content_words,
    focus_sections,
    has_visual_cue,
    key_identifier,
    rows_drawn_on,
    select_section_media,
    step_text,
)
from murar.embed.fake import HashingEmbedder
from murar.schema import (
    AnyMedia,
    Attribution,
    ImageItem,
    ScoredSnippet,
    Section,
    Snippet,
    TableItem,
    VideoItem,
)
from murar.store.memory import MemoryStore

LOW = {"min_snippet_score": 0.1, "min_sentence_score": 0.1}


def _snip(i: int, text: str, section: str) -> Snippet:
    return Snippet(id=f"sn{i}", section_id=section, source_path="p.md", page_title="Page",
                   heading_path=("Page", section), anchor=None, text=text, position=0, n_tokens=len(text.split()))


def _place(section: str, pos: int) -> dict[str, object]:
    return {"section_id": section, "source_path": "p.md", "page_title": "Page", "heading_path": ("Page", section),
                "anchor": None, "position": pos}


def _image(id_: str, section: str, before: str, *, pos: int = 0, flags: list[str] | None = None,
           digest: str = "") -> ImageItem:
    return ImageItem(id=id_, **_place(section, pos), context_before=before, path=f"{id_}.png",  # type: ignore[arg-type]
                     exists=True, flags=list(flags or []), content_hash=digest)


def _world(snippets: list[Snippet], media: list[AnyMedia]) -> tuple[MemoryStore, list[ScoredSnippet], np.ndarray,
                                                                     HashingEmbedder]:
    emb = HashingEmbedder()
    secs = sorted({s.section_id for s in snippets} | {m.section_id for m in media})
    sections = [Section(id=s, source_path="p.md", page_title="Page", heading_path=("Page", s), anchor=None,
                        level=2, text="", ordinal=i) for i, s in enumerate(secs)]
    sv = emb.embed([s.text for s in snippets])
    mv = emb.embed([m.representation() for m in media])
    store = MemoryStore(sections=sections, snippets=snippets, snippet_vectors=sv, media=media, media_vectors=mv)
    scored = [ScoredSnippet(snippet=s, score=0.9, citation=i + 1) for i, s in enumerate(snippets)]
    return store, scored, sv, emb


def _select(text: str, world: tuple[MemoryStore, list[ScoredSnippet], np.ndarray, HashingEmbedder],
            opts: MediaOptions) -> list[tuple[str, int]]:
    store, scored, sv, emb = world
    res = attribute(text, scored, sv, emb, threshold=0.3)
    media = select_section_media(res.attributions, res.sentence_vectors, store, opts, emb)
    return [(m.item.id, m.sentence_index) for m in media.selected]


STEPS = ("Open the journey canvas. Click Create journey in the left rail. "
         "Drag the custom event activity onto the canvas. Select Publish in the top bar.")


def _steps_world() -> tuple[MemoryStore, list[ScoredSnippet], np.ndarray, HashingEmbedder]:
    media: list[AnyMedia] = [
        _image("create", "steps", "Open the journey canvas. Click Create journey in the left rail.", pos=0),
        _image("drag", "steps", "Drag the custom event activity onto the canvas.", pos=1),
        _image("publish", "steps", "Select Publish in the top bar.", pos=2),
    ]
    return _world([_snip(0, STEPS, "steps")], media)


def test_step_alignment_recovers_the_screenshot_of_a_described_step_beyond_the_margin() -> None:
    world = _steps_world()
    text = "To add the event, drag the custom event activity onto the canvas [1]. It is then part of the journey [1]."
    opts = MediaOptions(**LOW, margin=0.0)  # MuRAR's single best item per snippet
    got = _select(text, world, opts)
    assert ("drag", 0) in got
    assert "drag" not in [i for i, _ in _select(text, world, dataclasses.replace(opts, step_align=False))]


def test_step_alignment_places_each_screenshot_after_its_own_step() -> None:
    world = _steps_world()
    text = ("Click Create journey in the left rail [1]. Then drag the custom event activity onto the canvas [1]. "
            "Select Publish in the top bar [1].")
    got = _select(text, world, MediaOptions(**LOW))
    assert got == [("create", 0), ("drag", 1), ("publish", 2)]
    before = _select(text, world, MediaOptions(**LOW, step_align=False))
    assert before != got  # placed by item similarity, not by the step each one shows


def test_a_loosely_paraphrased_step_still_gets_its_screenshot() -> None:
    world = _steps_world()
    store, scored, sv, emb = world
    text = "Place your custom event in the editor [1]. It is then part of the journey [1]."
    drag = next(m for m in store.all_media() if m.id == "drag")
    sentence = attribute(text, scored, sv, emb, threshold=0.3).sentence_vectors[0]
    assert 0.45 <= float(sentence @ emb.embed([step_text(drag)])[0]) < 0.5  # between the old and new step_min
    opts = MediaOptions(**LOW, margin=0.0)
    assert ("drag", 0) in _select(text, world, opts)
    assert "drag" not in [i for i, _ in _select(text, world, dataclasses.replace(opts, step_min=0.5))]


def test_flagged_icons_are_never_selected() -> None:
    media: list[AnyMedia] = [
        _image("plus", "s", "select the plus icon to add a custom event to the journey", flags=["inline"]),
    ]
    world = _world([_snip(0, "select the plus icon to add a custom event to the journey", "s")], media)
    text = "Select the plus icon to add a custom event to the journey [1]."
    assert _select(text, world, MediaOptions(**LOW)) == []
    assert _select(text, world, MediaOptions(**LOW, skip_flagged=False)) == [("plus", 0)]


def test_the_same_picture_under_two_names_is_shown_once() -> None:
    text_a = "click save in the journey properties panel"
    media: list[AnyMedia] = [_image("a", "s1", text_a, digest="abc"), _image("b", "s2", text_a, digest="abc")]
    world = _world([_snip(0, text_a, "s1"), _snip(1, text_a + " again", "s2")], media)
    text = "Click save in the journey properties panel [1]. Click save in the journey properties panel again [2]."
    opts = MediaOptions(**LOW, step_align=False)
    assert len(_select(text, world, opts)) == 1
    assert len(_select(text, world, dataclasses.replace(opts, dedupe_content=False))) == 2


def test_a_table_the_answer_draws_on_wins_over_the_screenshot() -> None:
    table = TableItem(id="t", **_place("ids", 1), headers=["Namespace", "ID", "Code"],  # type: ignore[arg-type]
                      rows=[["Experience Cloud ID", "4", "ECID"], ["Apple IDFA", "20915", "IDFA"],
                            ["Google Ad ID", "20914", "GAID"]])
    shot = _image("shot", "ids", "the identity namespaces page of the user interface lists standard namespaces")
    snippet = _snip(0, "the identity namespaces page of the user interface lists standard namespaces", "ids")
    world = _world([snippet], [shot, table])
    text = "The standard namespaces include Experience Cloud ID with ID 4 and code ECID [1]. Apple IDFA has ID 20915 [1]."
    opts = MediaOptions(**LOW)
    got = [i for i, _ in _select(text, world, opts)]
    assert "t" in got
    assert "t" not in [i for i, _ in _select(text, world, dataclasses.replace(opts, kind_aware=False))]


def test_a_video_the_answer_points_at_is_chosen() -> None:
    video = VideoItem(id="v", **_place("ev", 0), url="https://video.example.com/v/1",  # type: ignore[arg-type]
                      title="Events in journeys")
    snippet = _snip(0, "learn how to configure unitary events and business events in journeys", "ev")
    world = _world([snippet], [video])
    text = "Watch the video to learn how to configure unitary events and business events [1]."
    opts = MediaOptions(min_snippet_score=0.3, min_sentence_score=0.3)
    assert [i for i, _ in _select(text, world, opts)] == ["v"]
    assert _select(text, world, dataclasses.replace(opts, kind_aware=False)) == []


def test_an_answer_of_plain_facts_gets_no_screenshot() -> None:
    fact = "changes to the destination configuration take up to one hour to propagate to all sandboxes"
    world = _world([_snip(0, fact, "s")], [_image("shot", "s", "destination configuration sandboxes overview")])
    text = "Changes to the destination configuration take up to one hour to propagate to all sandboxes [1]."
    opts = MediaOptions(**LOW, need_visual_cue=True)
    assert _select(text, world, opts) == []
    assert _select(text, world, dataclasses.replace(opts, need_visual_cue=False)) == [("shot", 0)]


def test_a_visual_cue_after_the_sections_last_sentence_does_not_bring_its_picture() -> None:
    fact = "changes to the destination configuration take up to one hour to propagate to all sandboxes"
    other = "open the billing panel and click save"
    world = _world([_snip(0, fact, "s"), _snip(1, other, "t")],
                   [_image("shot", "s", "destination configuration sandboxes overview")])
    opts = MediaOptions(**LOW, need_visual_cue=True, close_match=1.1)
    before = "Open the billing panel and click Save [2]. " + fact.capitalize() + " [1]."
    after = fact.capitalize() + " [1]. Open the billing panel and click Save [2]."
    assert _select(before, world, opts) == [("shot", 1)]
    assert _select(after, world, opts) == []  # the streamed path could only put it after the cue, of section t
    assert _select(after, world, dataclasses.replace(opts, need_visual_cue=False)) == [("shot", 0)]


def test_cue_and_row_helpers() -> None:
    assert has_visual_cue("Click **Save** in the top bar.")
    assert not has_visual_cue("The limit is 50 requests per second.")
    table = TableItem(id="t", **_place("s", 0), rows=[["ECID", "4"], ["IDFA", "20915"]])  # type: ignore[arg-type]
    assert rows_drawn_on(table, content_words("ECID has ID 4")) == 1
    # a parameter table: the answer names a row's key identifier, not its long description
    params = TableItem(id="p", **_place("s", 0), rows=[  # type: ignore[arg-type]
        ["name", "String", "Represents a friendly name of your server, visible only to Adobe"],
        ["maxUsersPerRequest", "Integer", "Adobe can aggregate multiple exported profiles in a single HTTP call"],
        ["value", "String", "Fill in the address of the API endpoint that Experience Platform should connect to"]])
    assert rows_drawn_on(params, content_words("If your server takes one identity per call, set maxUsersPerRequest to 1.")) == 1
    # plain words in the key column are not names: "name" and "value" are said in any answer
    assert rows_drawn_on(params, content_words("Give the server a name and a value.")) == 0
    assert [key_identifier(r) for r in (["log_level"], ["spec.replicas"], ["`--dry-run`"], ["Name"], ["v1"], [])] == [
        "log_level", "spec.replicas", "dry-run", None, None, None]


def test_citation_attribution_feeds_media_selection() -> None:
    """A cited sentence under the global threshold still brings its section's media."""
    snippet = _snip(0, "open the events configuration screen and click create event to define a new unitary event",
                    "ev")
    world = _world([snippet, _snip(1, "audiences are built from segment rules", "aud")],
                   [_image("ev", "ev", "click create event on the events configuration screen")])
    _store, scored, sv, emb = world
    text = "Use the button to make a new one [1]."
    sims = emb.embed(["Use the button to make a new one."]) @ sv.T
    assert sims[0, 0] < 0.45  # paraphrase under the global threshold
    prev = attribute(text, scored, sv, emb, options=AttributionOptions.previous())
    assert prev.attributions[0].snippet_id is None
    res = attribute(text, scored, sv, emb, options=AttributionOptions(cited_threshold=min(0.25, float(sims[0, 0]))))
    assert res.attributions[0].snippet_id == "sn0"


def test_question_focus_drops_media_of_a_side_remark() -> None:
    on = "export the dynamic report to a csv file from the project tab"
    off = "the advertiser id field of the campaign details panel"
    world = _world([_snip(0, on, "export"), _snip(1, off, "campaign")],
                   [_image("csv", "export", on), _image("adv", "campaign", off)])
    store, scored, sv, emb = world
    text = "Export the dynamic report to a CSV file from the Project tab [1]. Check the advertiser ID field [2]."
    res = attribute(text, scored, sv, emb, threshold=0.3)
    qv = emb.embed(["How do I export a dynamic report to CSV?"])[0]
    opts = MediaOptions(**LOW)
    with_focus = select_section_media(res.attributions, res.sentence_vectors, store, opts, emb, qv)
    assert [m.item.id for m in with_focus.selected] == ["csv"]
    without = select_section_media(res.attributions, res.sentence_vectors, store,
                                   dataclasses.replace(opts, question_focus=None), emb, qv)
    assert {m.item.id for m in without.selected} == {"csv", "adv"}


def _step_sections(steps: list[tuple[str, str, str, float]]) -> tuple[MemoryStore, list[ScoredSnippet],
                                                                      np.ndarray, HashingEmbedder]:
    """One section per ``(image id, section id, step text, question cosine)``: a snippet of the step
    text and the step's screenshot, retrieved in that order at that cosine."""
    snippets = [_snip(i, text, sec) for i, (_, sec, text, _) in enumerate(steps)]
    media: list[AnyMedia] = [_image(img, sec, text) for img, sec, text, _ in steps]
    store, scored, sv, emb = _world(snippets, media)
    scored = [dataclasses.replace(s, score=score) for s, (*_, score) in zip(scored, steps)]
    return store, scored, sv, emb


def _focused_picks(store: MemoryStore, res: AttributionResult, emb: HashingEmbedder, opts: MediaOptions,
                   retrieved: list[ScoredSnippet], question: str | None = None) -> set[str]:
    """The media chosen for ``res`` from the sections :func:`focus_sections` allows for ``retrieved``
    (and ``question``)."""
    sections = focus_sections(retrieved, store, opts, question)
    sel = select_section_media(res.attributions, res.sentence_vectors, store, opts, emb, sections=sections,
                               question=question)
    return {m.item.id for m in sel.selected}


def test_media_come_from_the_sections_retrieval_ranked_near_the_top() -> None:
    """A section the answer drew a side fact from, ranked far below the best section with media,
    gives no screenshot (section_focus); both sections do with the lever off."""
    store, scored, sv, emb = _step_sections([
        ("builder", "main", "open the audience builder and click create audience to start a new audience", 0.78),
        ("names", "side", "audience names must be unique within the sandbox and the name field is required", 0.61),
    ])
    text = ("Open the audience builder and click create audience to start a new audience [1]. "
            "Audience names must be unique within the sandbox and the name field is required [2].")
    res = attribute(text, scored, sv, emb, threshold=0.3)
    assert {a.snippet_id for a in res.attributions} == {"sn0", "sn1"}

    def picks(opts: MediaOptions, retrieved: list[ScoredSnippet]) -> set[str]:
        return _focused_picks(store, res, emb, opts, retrieved)

    assert picks(MediaOptions(**LOW, question_focus=None), scored) == {"builder"}  # type: ignore[arg-type]
    assert focus_sections(scored, store, MediaOptions(section_focus=None)) is None
    assert picks(MediaOptions(**LOW, question_focus=None, section_focus=None), scored) == {"builder", "names"}  # type: ignore[arg-type]
    # section_focus's bar is the best section *with media*: a higher-ranked section without any does not
    # raise it (one more than section_gap, 0.15, above the section with media would: next test)
    empty = dataclasses.replace(scored[0], snippet=_snip(2, "a page intro without pictures", "intro"), score=0.88,
                                citation=3)
    assert picks(MediaOptions(**LOW, question_focus=None), [empty, *scored]) == {"builder"}  # type: ignore[arg-type]


def _brand_tabs() -> tuple[MemoryStore, HashingEmbedder, str, AttributionResult, str]:
    """One section showing the same step in two tabs, "Adobe Campaign V8" (image ``v8``)
    and "Adobe Campaign Web" (image ``web``); an answer sentence on that step,
    attributed; a question naming the web interface."""
    step = "select your brand from the branding drop-down of the delivery properties"
    tabs = ("Adobe Campaign V8", "Adobe Campaign Web")
    v8 = dataclasses.replace(_image("v8", "brand", step, pos=0), tab=tabs[0], tab_set=tabs)
    web = dataclasses.replace(_image("web", "brand", step, pos=1), tab=tabs[1], tab_set=tabs)
    store, scored, sv, emb = _world([_snip(0, step, "brand")], [v8, web])
    text = "Select your brand from the Branding drop-down of the delivery properties [1]."
    res = attribute(text, scored, sv, emb, threshold=0.3)
    return store, emb, text, res, "In the Campaign web user interface, how do I use my brand in a delivery?"


def test_a_question_naming_one_tab_gets_no_screenshot_of_the_other_tabs() -> None:
    """Tabs "Campaign V8" / "Campaign Web" show the same steps in two products; a question
    about the web interface gets the Web tab's screenshot only (tab_match), both with it off."""
    store, emb, _, res, question = _brand_tabs()
    opts = MediaOptions(**LOW)
    picked = select_section_media(res.attributions, res.sentence_vectors, store, opts, emb, question=question)
    assert [m.item.id for m in picked.selected] == ["web"]
    off = select_section_media(res.attributions, res.sentence_vectors, store,
                               dataclasses.replace(opts, tab_match=False), emb, question=question)
    assert "v8" in {m.item.id for m in off.selected}
    # a question naming no tab, or both, keeps both tabs' media as candidates
    for q in ("How do I use my brand in a delivery?", "Is branding the same in Campaign V8 and on the web?"):
        both = select_section_media(res.attributions, res.sentence_vectors, store, opts, emb, question=q)
        assert "v8" in {m.item.id for m in both.selected}


def test_named_tab_needs_a_word_only_one_label_has() -> None:
    from murar.answer.media import named_tab

    assert named_tab("How do I merge on GitLab?", ("In GitLab", "In GitHub", "Locally")) == "In GitLab"
    assert named_tab("How do I merge?", ("In GitLab", "In GitHub")) is None
    assert named_tab("GitLab or GitHub?", ("In GitLab", "In GitHub")) is None
    assert named_tab("in the campaign", ("Adobe Campaign V8", "Adobe Campaign Web")) is None  # a shared word
    assert named_tab("anything", ("Only one",)) is None


def test_the_answer_and_hybrid_strategies_also_drop_the_other_tabs() -> None:
    from murar.answer.strategies import (
        AnswerBasedOptions,
        select_answer_based,
        select_hybrid,
    )

    store, emb, text, res, question = _brand_tabs()
    loose = AnswerBasedOptions(top_n=2, min_score=0.1, neighbour_min_score=0.1)
    for tab_match in (True, False):
        opts = MediaOptions(**LOW, tab_match=tab_match)
        answer = select_answer_based(text, res.sentence_vectors, store, emb, loose, opts, question=question)
        hybrid = select_hybrid(text, res.attributions, res.sentence_vectors, store, emb, loose, opts,
                               question=question)
        for got in (answer, hybrid):
            ids = {m.item.id for m in got.selected}
            assert "web" in ids
            assert ("v8" in ids) is not tab_match


def test_question_focus_margin_is_measured_from_the_most_question_like_pick() -> None:
    """Two screenshots of the section the answer draws on, the second 0.12 less similar to the
    question than the first (the next screen: "copy the code" beside "where is the code"): the
    default margin (0.1) drops the second, a margin of 0.15 keeps both, no margin keeps both."""
    sv = np.array([[1.0, 0.0, 0.0]], dtype=np.float32)  # the snippet (and the answer sentence)
    q = np.array([0.0, 1.0, 0.0], dtype=np.float32)  # the question
    shown = np.array([0.6, 0.8, 0.0], dtype=np.float32)  # snippet cosine 0.6, question cosine 0.8
    nxt = np.array([0.6, 0.68, np.sqrt(1 - 0.36 - 0.68**2)], dtype=np.float32)  # 0.6 and 0.68
    snippet = _snip(0, "your connect code is shown in your account; copy it and share it", "connect")
    media: list[AnyMedia] = [_image("code", "connect", "Your connect code is shown in your account.", pos=1),
                             _image("copy", "connect", "Copy it and share it.", pos=2)]
    store = MemoryStore(sections=[Section(id="connect", source_path="p.md", page_title="Page",
                                          heading_path=("Page", "connect"), anchor=None, level=2, text="", ordinal=0)],
                        snippets=[snippet], snippet_vectors=sv, media=media, media_vectors=np.stack([shown, nxt]))
    text = "Your connect code is shown in your account [1]."
    attr = [Attribution(sentence_index=0, sentence=text, snippet_id="sn0", citation=1, score=0.9)]
    opts = MediaOptions(**LOW, step_align=False)  # type: ignore[arg-type]
    picks = select_section_media(attr, sv.copy(), store, opts, None, q)
    assert {m.item.id for m in picks.selected} == {"code"}
    for margin in (0.15, None):
        wider = select_section_media(attr, sv.copy(), store, dataclasses.replace(opts, question_focus=margin), None, q)
        assert {m.item.id for m in wider.selected} == {"code", "copy"}


def test_the_retrievers_first_pick_gives_media_though_its_cosine_is_below_the_bar() -> None:
    """The hybrid retriever ranks by words and meaning: its first snippet can be less similar to
    the question than a later one. That section is the retriever's best match, never a side fact,
    so section_focus keeps it (dev.jsonl: the Project-tab section ranked first at cosine 0.59 was
    shut out by a 0.70 section further down, and the answer written from it got no picture)."""
    store, scored, sv, emb = _step_sections([
        ("tab", "project", "download csv exports your reports to a csv file from the project tab", 0.59),
        ("menu", "access", "open dynamic reports from the reports menu of the campaign home page", 0.70),
    ])
    assert focus_sections(scored, store, MediaOptions()) == {"project", "access"}
    res = attribute("Download CSV exports your reports to a CSV file from the Project tab [1].", scored, sv, emb,
                    threshold=0.3)
    assert [a.snippet_id for a in res.attributions] == ["sn0"]
    assert _focused_picks(store, res, emb, MediaOptions(**LOW), scored) == {"tab"}  # type: ignore[arg-type]
    # ranked second at that cosine it is a side section: left out, and the answer gets no picture from it
    later_first = [scored[1], scored[0]]
    assert focus_sections(later_first, store, MediaOptions()) == {"access"}
    assert _focused_picks(store, res, emb, MediaOptions(**LOW), later_first) == set()  # type: ignore[arg-type]


def test_a_section_far_below_the_best_match_gives_no_media_unless_the_question_asks_to_see() -> None:
    """The best match has nothing to show and the answer borrows a side fact from a section ranked
    0.19 below it, which has a screenshot (GLPI docs, a text-only "why is there no count" question:
    the answer's last sentences came from the page introduction and brought its "save search"
    screenshot). section_gap (0.15) keeps that section's media out; with the lever off it is shown,
    and so it is when the question asks what something looks like."""
    answer = "counters are not displayed by default on saved searches"
    side = "save the search from the star button of the search form"
    store, world, sv, emb = _world([_snip(0, answer, "counters"), _snip(1, side, "intro")], [_image("save", "intro", side)])
    world = [dataclasses.replace(s, score=score) for s, score in zip(world, (0.66, 0.47))]
    text = ("Counters are not displayed by default on saved searches [1]. "
            "Save the search from the star button of the search form [2].")
    res = attribute(text, world, sv, emb, threshold=0.3)
    assert [a.snippet_id for a in res.attributions] == ["sn0", "sn1"]
    opts = MediaOptions(**LOW, question_focus=None)  # type: ignore[arg-type]
    assert focus_sections(world, store, opts) == {"counters"}
    assert _focused_picks(store, res, emb, opts, world) == set()
    off = dataclasses.replace(opts, section_gap=None)
    assert focus_sections(world, store, off) == {"counters", "intro"}
    assert _focused_picks(store, res, emb, off, world) == {"save"}
    asks = "What does the saved search button look like?"
    assert focus_sections(world, store, opts, asks) == {"counters", "intro"}
    assert _focused_picks(store, res, emb, opts, world, asks) == {"save"}
    # within the gap (0.66 against 0.55) the section passes
    near = [world[0], dataclasses.replace(world[1], score=0.55)]
    assert focus_sections(near, store, opts) == {"counters", "intro"}
