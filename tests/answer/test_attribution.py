"""Per-sentence attribution (issue 9): citations, clear winners, sentence splitting."""

from __future__ import annotations

import numpy as np

from murar.answer.attribute import AttributionOptions, attribute_sentence, split_answer
from murar.schema import ScoredSnippet, Snippet


def _scored(n: int, texts: list[str] | None = None) -> list[ScoredSnippet]:
    return [ScoredSnippet(snippet=Snippet(id=f"sn{i}", section_id=f"s{i}", source_path="p.md", page_title="P",
                                          heading_path=("P",), anchor=None, text=texts[i] if texts else "t",
                                          position=0, n_tokens=1),
                          score=0.5, citation=i + 1) for i in range(n)]


def test_figure_numbers_do_not_end_a_sentence() -> None:
    got = split_answer("The flow is shown in Figure 2. Then click Save [1].")
    assert got[0].startswith("The flow is shown in Figure 2") and len(got) == 2
    got = split_answer("See Table 3. It lists the limits [2].")
    assert got[0].startswith("See Table 3") and got[-1].startswith("It lists")
    assert all(s.strip(" .[]0123456789") != "" for s in split_answer("Open step 2. [1] Then save. [1]"))


def test_lone_number_fragments_join_their_sentence() -> None:
    sents = split_answer("Use version 2.\n1. Click Save [1].")
    assert sents[-1] == "1. Click Save [1]."
    assert all(s.strip(" .") not in {"2", "1"} for s in sents)


def test_cited_snippet_wins_under_the_global_threshold() -> None:
    snippets = _scored(3)
    sims = np.array([0.20, 0.38, 0.30], dtype=np.float32)
    new = attribute_sentence(0, "Open the video [3] to learn how to create events [3].", sims, snippets)
    assert new.snippet_id == "sn2" and new.citation == 3
    old = attribute_sentence(0, "Open the video [3] to learn how to create events [3].", sims, snippets,
                             AttributionOptions.previous())
    assert old.snippet_id is None


def test_a_citation_far_behind_the_best_snippet_is_overridden() -> None:
    sims = np.array([0.70, 0.26], dtype=np.float32)
    att = attribute_sentence(0, "Click Save [2].", sims, _scored(2))
    assert att.snippet_id == "sn0"


def test_clear_winner_is_attributed_under_the_global_threshold() -> None:
    snippets = _scored(3)
    clear = np.array([0.40, 0.12, 0.10], dtype=np.float32)
    close = np.array([0.40, 0.36, 0.10], dtype=np.float32)
    assert attribute_sentence(0, "Unzip the archive.", clear, snippets).snippet_id == "sn0"
    assert attribute_sentence(0, "Unzip the archive.", close, snippets).snippet_id is None
    assert attribute_sentence(0, "Unzip the archive.", clear, snippets,
                              AttributionOptions(separation=None)).snippet_id is None


def test_attribute_sentence_without_snippets() -> None:
    att = attribute_sentence(4, "Hello [1].", np.zeros(0, dtype=np.float32), [])
    assert att.sentence_index == 4 and att.snippet_id is None


_DATASETS = ("Now that you have created the data structure, you can create data sets and ingest sample data.",
             ("The following video tutorial explains how to create datasets and manually ingest data. "
              "Create the following datasets, then download the JSON files with the sample data."))


def test_a_sentence_copied_from_the_cited_snippet_goes_to_it() -> None:
    """Seen on dev-028: a verbatim copy of snippet 2's first sentence scored higher against
    snippet 1 (same topic, one short sentence) than against the longer snippet it came from."""
    snippets = _scored(2, list(_DATASETS))
    sims = np.array([0.85, 0.66], dtype=np.float32)
    sentence = "The following video tutorial explains how to create datasets and manually ingest data [2]."
    assert attribute_sentence(0, sentence, sims, snippets).snippet_id == "sn1"  # rule 0b, by default
    rule0 = AttributionOptions(cited_copy=0.6, uncited_copy=None)  # rule 0 alone (opt-in)
    assert attribute_sentence(0, sentence, sims, snippets, rule0).snippet_id == "sn1"
    assert attribute_sentence(0, sentence, sims, snippets, AttributionOptions(cited_copy=None, uncited_copy=None)).snippet_id == "sn0"
    # not a copy: the citation alone does not beat a clearly more similar snippet
    paraphrase = "A tutorial shows the creation of datasets and their manual ingestion [2]."
    assert attribute_sentence(0, paraphrase, sims, snippets, rule0).snippet_id == "sn0"
    # a copy of the other snippet keeps that one even when the model cites this one
    copied_other = "Now that you have created the data structure, you can create data sets [2]."
    assert attribute_sentence(0, copied_other, sims, snippets, rule0).snippet_id == "sn0"
    # too short to tell a copy from a coincidence
    assert attribute_sentence(0, "Create datasets [2].", sims, snippets, rule0).snippet_id == "sn0"


_BRANDS = ("Important: brands cannot be created by end-users. In Campaign V8, brands are in the Branding menu.",
           ("Browse to the Deliveries menu and click Create delivery. From the Properties page, click Settings. "
            "From the Delivery tab, access the Branding field. Select the brand to link to the template."))


def test_a_sentence_copied_from_a_snippet_it_does_not_cite_goes_to_that_snippet() -> None:
    """Seen on dev-012 (hybrid retrieval): the model copied a step word for word from snippet 2 but
    cited [1], which the embeddings also preferred; the step's screenshot then had no sentence."""
    snippets = _scored(2, list(_BRANDS))
    sims = np.array([0.68, 0.55], dtype=np.float32)
    sentence = "From the Delivery tab, access the Branding field [1]."
    assert attribute_sentence(0, sentence, sims, snippets).snippet_id == "sn1"
    assert attribute_sentence(0, "From the Delivery tab, access the Branding field.", sims,
                              snippets).snippet_id == "sn1"
    assert attribute_sentence(0, sentence, sims, snippets,
                              AttributionOptions(uncited_copy=None)).snippet_id == "sn0"
    # words found in both snippets as often say nothing about the source
    tie = _scored(2, [_BRANDS[1], _BRANDS[1]])
    assert attribute_sentence(0, sentence, sims, tie).snippet_id == "sn0"
    # a paraphrase keeps the embedding's choice
    assert attribute_sentence(0, "Open the delivery tab and pick a brand there [1].", sims,
                              snippets).snippet_id == "sn0"
