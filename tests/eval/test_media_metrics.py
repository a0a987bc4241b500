"""Media and retrieval metrics on hand-built answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.eval.media_metrics import (
    GoldQuestion,
    load_gold,
    normalise_path,
    normalise_video_url,
    ordering_agreement,
    score_media,
    summarise_media,
)
from murar.eval.retrieval_metrics import (
    is_relevant,
    score_retrieval,
    summarise_retrieval,
)
from murar.schema import (
    Answer,
    Attribution,
    ImageItem,
    MediaBlock,
    MediaSelection,
    ScoredSnippet,
    Snippet,
    TableItem,
    TextBlock,
    Trace,
    VideoItem,
)

PAGE = "repo/help/page.md"


def _common(i: str, section: str) -> dict[str, object]:
    return {"id": i, "section_id": section, "source_path": PAGE, "page_title": "Page",
                "heading_path": ("Page", "Setup"), "anchor": None, "position": 0}


def _snip(i: str, section: str, heading: tuple[str, ...] = ("Page", "Setup")) -> Snippet:
    return Snippet(id=i, section_id=section, source_path=PAGE, page_title="Page",
                   heading_path=heading, anchor=None, text="t", position=0, n_tokens=1)


def _answer(media: list[MediaBlock], *, selections: list[MediaSelection] | None = None,
            attributions: list[Attribution] | None = None,
            retrieved: list[ScoredSnippet] | None = None) -> Answer:
    blocks: list[TextBlock | MediaBlock] = [TextBlock(text="Do it.")]
    blocks += media
    return Answer(question="q", blocks=blocks, sources=retrieved or [], found=True,
                  trace=Trace(retrieved=retrieved or [], attributions=attributions or [],
                              media_selected=selections or []))


GOLD = GoldQuestion(
    id="q1", question="q", kind="mixed", page=PAGE, section=("Page", "Setup"),
    gold_images=("repo/help/assets/a.png", "repo/help/assets/b.png"),
    gold_tables=((PAGE, 1),), gold_videos=("https://video.tv.adobe.com/v/123",))


def test_normalisers() -> None:
    assert normalise_path("./repo/help/../help/assets/a.png") == "repo/help/assets/a.png"
    assert normalise_video_url("http://Video.TV.adobe.com/v/123/?learn=on") == \
        "https://video.tv.adobe.com/v/123"
    assert normalise_video_url("https://video.tv.adobe.com/v/123?quality=12") == \
        "https://video.tv.adobe.com/v/123"


def test_ordering_agreement() -> None:
    assert ordering_agreement(["a", "b", "c"], ["a", "b", "c"]) == 1.0
    assert ordering_agreement(["c", "b", "a"], ["a", "b", "c"]) == 0.0
    assert ordering_agreement(["b", "a", "c"], ["a", "b", "c"]) == pytest.approx(2 / 3)
    assert ordering_agreement(["a", "x"], ["a", "b"]) is None


def test_score_media_hand_computed() -> None:
    media = [
        MediaBlock(type="image", item=ImageItem(**_common("i2", "s1"), path="repo/help/assets/b.png"), score=1),
        MediaBlock(type="image", item=ImageItem(**_common("i1", "s1"), path="repo/help/./assets/a.png"), score=1),
        MediaBlock(type="image", item=ImageItem(**_common("i3", "s2"), path="repo/help/assets/z.png"), score=1),
        MediaBlock(type="table", item=TableItem(**_common("t", "s1"), index_in_page=0), score=1),
        MediaBlock(type="video", item=VideoItem(**_common("v", "s1"), url="https://video.tv.adobe.com/v/123/?x=1"), score=1),
    ]
    sel = [MediaSelection(item=m.item, snippet_id=None, sentence_index=0, score=1.0) for m in media]
    atts = [Attribution(sentence_index=0, sentence="Do it.", snippet_id="n1", citation=1, score=0.9)]
    ret = [ScoredSnippet(snippet=_snip("n1", "s1"), score=0.9, citation=1)]
    s = score_media(_answer(media, selections=sel, attributions=atts, retrieved=ret), GOLD)
    img = s.by_kind["image"]
    assert (img.tp, img.n_pred, img.n_gold) == (2, 3, 2)
    assert img.precision == pytest.approx(2 / 3) and img.recall == 1.0 and img.f1 == pytest.approx(0.8)
    tab = s.by_kind["table"]
    assert (tab.tp, tab.precision, tab.recall, tab.f1) == (0, 0.0, 0.0, 0.0)  # wrong index
    assert s.by_kind["video"].f1 == 1.0
    allk = s.by_kind["all"]
    assert (allk.tp, allk.n_pred, allk.n_gold) == (3, 5, 4)
    assert s.ordering == 0.0  # b before a, gold a before b
    assert s.placement == pytest.approx(4 / 5)  # z.png comes from section s2
    assert s.no_media_correct is None
    assert "image:repo/help/assets/z.png" in s.unmatched


def test_a_byte_identical_copy_of_a_gold_image_is_the_gold_image(tmp_path: Path) -> None:
    """A docs site shows one figure under two file names; the copy is the same picture.
    A look-alike with other bytes, or a copy scored without the corpus root, is not."""
    assets = tmp_path / "repo/help/assets"
    assets.mkdir(parents=True)
    (assets / "a.png").write_bytes(b"picture A")
    (assets / "copy-of-a.png").write_bytes(b"picture A")
    (assets / "look-alike.png").write_bytes(b"picture A, cropped")
    gold = GoldQuestion(id="q", question="q", kind="image", page=PAGE, section=(),
                        gold_images=("repo/help/assets/a.png",))

    def shown(*names: str) -> Answer:
        return _answer([MediaBlock(type="image", item=ImageItem(**_common(n, "s"), path=f"repo/help/assets/{n}"),
                                   score=1) for n in names])

    copy = score_media(shown("copy-of-a.png"), gold, tmp_path)
    assert (copy.by_kind["image"].tp, copy.by_kind["image"].f1, copy.unmatched) == (1, 1.0, [])
    both = score_media(shown("a.png", "copy-of-a.png"), gold, tmp_path).by_kind["image"]
    assert (both.tp, both.n_pred) == (1, 1)  # one picture, shown twice
    other = score_media(shown("look-alike.png"), gold, tmp_path)
    assert other.by_kind["image"].tp == 0 and other.unmatched == ["image:repo/help/assets/look-alike.png"]
    assert score_media(shown("copy-of-a.png"), gold).by_kind["image"].tp == 0
    (assets / "a.png").unlink()  # an unreadable gold file matches nothing
    assert score_media(shown("copy-of-a.png"), gold, tmp_path).by_kind["image"].tp == 0


def test_text_only_and_summary(tmp_path: Path) -> None:
    text_only = GoldQuestion(id="q2", question="q", kind="text-only", page=PAGE, section=())
    s_none = score_media(_answer([]), text_only)
    assert s_none.no_media_correct is True and s_none.by_kind["all"].f1 is None
    s_some = score_media(_answer([MediaBlock(type="image", item=ImageItem(
        **_common("i", "s"), path="x.png"), score=1)]), text_only)
    assert s_some.no_media_correct is False and s_some.by_kind["image"].recall is None
    summ = summarise_media([s_none, s_some])
    assert summ.no_media_rate == 0.5 and summ.n_text_only == 2
    assert summ.micro["image"]["precision"] == 0.0 and summ.micro["image"]["recall"] is None


def test_load_gold_errors(tmp_path: Path) -> None:
    p = tmp_path / "q.jsonl"
    p.write_text('{"id": "a", "question": "x", "gold_tables": [{"page": "p", "index_in_page": 2}]}\n{bad\n')
    from murar.eval.errors import EvalDataError

    with pytest.raises(EvalDataError, match="line 2"):
        load_gold(p)
    p.write_text('{"id": "a", "question": "x", "gold_tables": [{"page": "p", "index_in_page": 2}]}\n')
    assert load_gold(p)[0].gold_tables == (("p", 2),)
    assert load_gold(p)[0].corpus == ""
    p.write_text('{"id": "a", "question": "x", "corpus": "sphinx-rst-glpi-doc"}\n')
    assert load_gold(p)[0].corpus == "sphinx-rst-glpi-doc"
    p.write_text('{"id": "a", "question": "x", "corpus": ["a", "b"]}\n')
    with pytest.raises(EvalDataError, match="line 1: .*'corpus' must be a string"):
        load_gold(p)
    # a table written as an image-style path string: the message says what an entry looks like
    p.write_text('{"id": "a", "question": "x", "gold_tables": ["p.md#0"]}\n')
    with pytest.raises(EvalDataError, match=r'line 1: .*gold_tables entry is an object \{"page": PATH'):
        load_gold(p)


def test_retrieval_recall_and_mrr() -> None:
    gold = GoldQuestion(id="q", question="q", kind="image", page=PAGE, section=("Page", "Setup"))
    ret = [ScoredSnippet(snippet=_snip("a", "x", ("Page", "Other")), score=0.9, citation=1),
           ScoredSnippet(snippet=_snip("b", "s", ("Page", "Setup", "Step 1")), score=0.8, citation=2)]
    s = score_retrieval(_answer([], retrieved=ret), gold)
    assert s.first_relevant_rank == 2 and s.reciprocal_rank == 0.5
    assert s.recall_at == {1: 0.0, 3: 1.0, 5: 1.0}
    miss = score_retrieval(_answer([], retrieved=ret[:1]), gold)
    assert miss.reciprocal_rank == 0.0
    summ = summarise_retrieval([s, miss])
    assert summ.mrr == 0.25 and summ.recall_at[3] == 0.5


def test_a_heading_path_without_the_page_title_matches_a_gold_section_with_it() -> None:
    """Front-matter titles (Docusaurus ``title:``) give snippets no title heading; the gold names it."""
    gold = GoldQuestion(id="q", question="q", kind="image", page=PAGE, section=("Page", "Setup"))
    assert is_relevant(_snip("a", "s", ("Setup",)), gold)
    assert is_relevant(_snip("b", "s", ("Setup", "Step 1")), gold)
    assert not is_relevant(_snip("c", "x", ("Other",)), gold)
    assert not is_relevant(_snip("d", "x", ("Other", "Setup 2")), gold)
    assert is_relevant(_snip("e", "x", ("Other",)), GoldQuestion(id="p", question="q", kind="image", page=PAGE,
                                                                  section=("Page",)))


@pytest.mark.integration
def test_dev_gold_loads(eval_root: Path, adobe_root: Path) -> None:
    qs = load_gold(eval_root / "dev.jsonl")
    assert len(qs) == 40
    # every gold image resolves to a file of the corpus
    for q in qs:
        for k, key in q.gold_keys():
            if k == "image":
                assert (adobe_root / key).exists(), key


@pytest.mark.parametrize("content", [b"", b"\n\n", b"[1]\n", b'{"question": "caf\xff"}\n'])
def test_load_gold_refuses_what_is_not_a_question_file(tmp_path: Path, content: bytes) -> None:
    """QA: an empty file gave an evaluation report of zero questions (a silent success);
    a JSON list line and invalid UTF-8 ended in AttributeError/UnicodeDecodeError tracebacks."""
    from murar.eval.errors import EvalDataError

    p = tmp_path / "q.jsonl"
    p.write_bytes(content)
    with pytest.raises(EvalDataError):
        load_gold(p)


@pytest.mark.parametrize(("line", "message"), [
    ('{"question": "How?", "gold_images": "img/shot.png"}', "'gold_images' must be a list of strings, not str"),
    ('{"question": "How?", "section": "Install"}', "'section' must be a list of strings, not str"),
    ('{"question": "How?", "answer_points": "Click Save"}', "'answer_points' must be a list of strings"),
    ('{"question": "How?", "gold_images": [1, null]}', "a list holding NoneType, int"),
    ('{"question": null}', "'question' must be a string, not null"),
    ('{"question": ["a", "b"]}', "'question' must be a string, not list"),
    ('{"question": " "}', "'question' is empty"),
    ('{"question": "x", "gold_tables": [{"page": "a.md", "index_in_page": 1.7}]}', "whole number >= 0, not 1.7"),
    ('{"question": "x", "gold_tables": [{"page": "a.md", "index_in_page": -3}]}', "whole number >= 0, not -3"),
    ('{"question": "x", "gold_tables": [{"page": 3, "index_in_page": 0}]}', "'page' must be a string, not int"),
])
def test_a_gold_field_of_the_wrong_type_is_refused(tmp_path: Path, line: str, message: str) -> None:
    """A string where a list belongs was read as its characters ("gold_images": "img/shot.png"
    made 12 gold images 'i', 'm', 'g', ...; "section": "Install" 7 sections), a null question
    was asked as 'None', 1.7 and -3 were table indexes: every answer scored against wrong gold
    without a word."""
    from murar.eval.errors import EvalDataError

    p = tmp_path / "q.jsonl"
    p.write_text('{"id": "ok", "question": "Fine?", "section": ["Page"]}\n' + line + "\n")
    with pytest.raises(EvalDataError, match="line 2: malformed question") as err:
        load_gold(p)
    assert message in str(err.value)
