"""Sentences copied from the prompt's one-shot example are never attributed and never kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.answer.echo import example_echo
from murar.answer.pipeline import PipelineConfig, load_pipeline
from murar.answer.prompts import EXAMPLE_ANSWER
from murar.answer.streaming import drop_sentences
from murar.llm.fake import ScriptedChatModel
from murar.schema import ScoredSnippet, Snippet

# what the bundled 1.5B model wrote for a held-out Docusaurus question about Ionic tabs
LEAKED = ("Open Ionic React and navigate to the Segments section [1]. Select Create segment [1]. "
          "Drag the attributes you need onto the canvas [1]. Select Save to store the segment definition [2]. "
          "Open the React Navigation section [3].")


def _snippets(*texts: str) -> list[ScoredSnippet]:
    return [ScoredSnippet(snippet=Snippet(id=f"s{i}", section_id=f"sec{i}", source_path="p.md", page_title="T",
                                          heading_path=(), anchor=None, text=t, position=0, n_tokens=len(t.split())),
                          score=0.5, citation=i + 1) for i, t in enumerate(texts)]


def test_the_example_sentences_are_caught_and_others_are_not() -> None:
    echo = example_echo(_snippets("Use IonTabs with IonRouterOutlet; child routes live under /tabs/tab1.",
                                  "React Navigation: the tab stays highlighted while its child route is shown."))
    flagged = [s for s in LEAKED.split(". ") if echo(s)]
    assert flagged == ["Select Create segment [1]", "Drag the attributes you need onto the canvas [1]",
                       "Select Save to store the segment definition [2]"]
    for s in EXAMPLE_ANSWER.split(". "):
        assert echo(s), s
    assert not echo("Add a route with the path tab1/view under the tabs outlet [1].")
    assert not echo("Select Save [1].")  # too short to tell


def test_docs_that_really_say_it_keep_the_sentence() -> None:
    echo = example_echo(_snippets("Segments: open Segments and select Create segment to start a new definition."))
    assert echo.copies_example("Select Create segment [1].")
    assert not echo("Select Create segment [1].")  # one source holds every word: grounded, kept


def test_drop_sentences_keeps_layout() -> None:
    echo = example_echo(_snippets("Ionic tabs and routes."))
    text = "Open the tabs page [1].\n\n1. Select Create segment [1].\n2. Add the child route [2]."
    # the copied list line goes with its marker; the other lines stay as written
    assert drop_sentences(text, echo) == "Open the tabs page [1].\n\n\n2. Add the child route [2]."


REPLY = ("To add a custom event, open the journey canvas and drag the custom event from the events palette [1]. "
         "Drag the attributes you need onto the canvas [1]. Select Save to store the segment definition [1].")


@pytest.mark.parametrize("three_call", [False, True])
def test_the_pipeline_never_attributes_or_keeps_an_echo(index: Path, three_call: bool) -> None:
    cfg = PipelineConfig.three_call(refine=False, display_captions=False) if three_call else PipelineConfig()
    p = load_pipeline(index, chat_model=ScriptedChatModel([REPLY]), config=cfg)
    a = p.answer("How do I add a custom event to a journey?")
    assert a.found
    assert "attributes you need" not in a.text and "segment definition" not in a.text
    assert a.text.startswith("To add a custom event")
    assert all("attributes you need" not in at.sentence and "segment definition" not in at.sentence
               for at in a.trace.attributions)
    assert sum("copied from the prompt's example" in n for n in a.trace.guard) == 2


def test_an_answer_that_is_only_the_example_is_not_found(index: Path) -> None:
    p = load_pipeline(index, chat_model=ScriptedChatModel([EXAMPLE_ANSWER]),
                      config=PipelineConfig.three_call(refine=False, display_captions=False))
    a = p.answer("How do I add a custom event to a journey?")
    assert not a.found and a.media == []
