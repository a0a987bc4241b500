"""evaluate_service with a fake AnswerService, report writing, and the CLI sub-app."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from typer.testing import CliRunner

from murar.cli.eval_cmd import app
from murar.embed.fake import HashingEmbedder
from murar.eval.claims import SentenceDecomposer
from murar.eval.io import answer_from_dict
from murar.eval.judge import EmbeddingJudge
from murar.eval.media_metrics import GoldQuestion
from murar.eval.report import write_run_report
from murar.eval.run import evaluate_service
from murar.eval.scorer import MirageScorer
from murar.schema import (
    Answer,
    ImageItem,
    MediaBlock,
    ScoredSnippet,
    Snippet,
    TextBlock,
    Trace,
    to_jsonable,
)

PAGE = "r/help/p.md"


class FakeService:
    def answer(self, question: str) -> Answer:
        if "boom" in question:
            raise RuntimeError("model crashed")
        sn = Snippet(id="s1", section_id="sec", source_path=PAGE, page_title="P",
                     heading_path=("P", "Export"), anchor=None,
                     text="Click Export to save the report as a PDF.", position=0, n_tokens=9)
        img = ImageItem(id="i1", section_id="sec", source_path=PAGE, page_title="P",
                        heading_path=("P", "Export"), anchor=None, position=0,
                        path="r/help/assets/export.png", caption="Export dialog")
        return Answer(question=question, found=True,
                      blocks=[TextBlock(text="Click Export to save the report as a PDF [1].", citations=[1]),
                              MediaBlock(type="image", item=img, score=0.8)],
                      sources=[ScoredSnippet(snippet=sn, score=0.9, citation=1)],
                      trace=Trace(retrieved=[ScoredSnippet(snippet=sn, score=0.9, citation=1)],
                                  text_answer="Click Export to save the report as a PDF [1].",
                                  models={"llm": "fake-llm"}))


GOLD = [GoldQuestion(id="q1", question="How do I export?", kind="image", page=PAGE,
                     section=("P", "Export"), gold_images=("r/help/assets/export.png",),
                     answer_points=("Click Export to save the report as a PDF",)),
        GoldQuestion(id="q2", question="boom", kind="text-only", page=PAGE, section=())]


def test_evaluate_service_and_report(tmp_path: Path) -> None:
    scorer = MirageScorer(EmbeddingJudge(HashingEmbedder(), threshold=0.8))
    run = evaluate_service(FakeService(), GOLD, scorer=scorer, decomposer=SentenceDecomposer(), seed=7)
    assert run.meta["n_failed"] == 1 and run.meta["seed"] == 7
    assert run.meta["judge"] == "embedding:hashing-256" and run.meta["pipeline_models"] == {"llm": "fake-llm"}
    assert run.results[1].error == "RuntimeError: model crashed"
    assert run.media is not None and run.media.micro["image"]["f1"] == 1.0
    assert run.retrieval is not None and run.retrieval.mrr == 1.0
    assert run.info_reference is not None and run.info_reference.f1 == 1.0
    assert run.cite_collection is not None and run.cite_collection.precision == 1.0
    assert any("text representation" in n for n in run.notes)
    paths = write_run_report(run, tmp_path / "rep")
    assert "InfoF1" in paths["markdown"].read_text() or "Info (reference)" in paths["markdown"].read_text()
    # the MiRAGE heading names the metrics, not an internal task number that reads like the run's seed
    assert "seed 002" not in paths["markdown"].read_text() and "## MiRAGE (InfoP/R/F1" in paths["markdown"].read_text()
    data = json.loads(paths["json"].read_text())
    assert data["mirage"]["info_reference"]["f1"] == 1.0 and data["meta"]["seed"] == 7
    back = answer_from_dict(json.loads(paths["answers"].read_text().splitlines()[0])["answer"])
    assert back.media[0].item.path == "r/help/assets/export.png" and back.sources[0].citation == 1


def test_cli_human_export_and_report(tmp_path: Path) -> None:
    ans = FakeService().answer("How do I export?")
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"id": "q1", "question": ans.question, "answer": to_jsonable(ans)}) + "\n")
    runner = CliRunner()
    res = runner.invoke(app, ["human", "export", "--answers", str(answers), "--out", str(tmp_path / "pk")])
    assert res.exit_code == 0, res.output
    tpl = tmp_path / "pk" / "ratings_template.csv"
    rows = list(csv.DictReader(tpl.open()))
    assert rows[0]["model"] == "fake-llm"
    filled = []
    for who, u in (("a", "4"), ("b", "5")):
        f = tmp_path / f"r_{who}.csv"
        r = dict(rows[0], annotator=who, usefulness=u, readability="4", relevance="5", preference="multimodal")
        with f.open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(r))
            w.writeheader()
            w.writerow(r)
        filled.append(str(f))
    res = runner.invoke(app, ["human", "report", *filled, "--out", str(tmp_path / "hr")])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "hr" / "human_report.md").read_text()
    assert "4.50 ± 0.71" in md  # usefulness of (4, 5)
    assert (tmp_path / "hr" / "score_distribution.png").exists()


def test_cli_human_export_labels_packets_with_the_generator(tmp_path: Path) -> None:
    """A pipeline's trace lists the embedder first and the generator under "generator": the
    model column names the generator, not the embedder."""
    ans = FakeService().answer("How do I export?")
    ans.trace.models = {"embedder": "all-MiniLM-L6-v2-int8-onnx", "retriever": "dense", "generator": "extractive"}
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"id": "q1", "question": ans.question, "answer": to_jsonable(ans)}) + "\n")
    res = CliRunner().invoke(app, ["human", "export", "--answers", str(answers), "--out", str(tmp_path / "pk")])
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader((tmp_path / "pk" / "ratings_template.csv").open()))
    assert rows[0]["model"] == "extractive"


def test_cli_mirage_on_predictions(tmp_path: Path) -> None:
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "a", "sentences": ["Paris is in France."],
                                 "claims": [["Paris is in France."]], "citations": [["d1"]],
                                 "reference_text": "Paris is in France.",
                                 "reference_claims": ["Paris is in France."],
                                 "claim_sources": {"Paris is in France.": ["d1"]}}) + "\n")
    res = CliRunner().invoke(app, ["mirage", "--predictions", str(preds), "--cache", str(tmp_path / "c.jsonl")])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["info"]["f1"] == 1.0 and out["cite"]["f1"] == 1.0
    bad = CliRunner().invoke(app, ["mirage"])
    assert bad.exit_code == 1


def test_cli_human_export_names_a_record_of_the_wrong_shape(tmp_path: Path) -> None:
    """A hand-edited answers.jsonl line that is a list, or whose answer's blocks are a
    string, ended 'eval human export' in a TypeError / AttributeError traceback."""
    runner = CliRunner()
    answers = tmp_path / "answers.jsonl"
    for line, message in (("[1, 2]", "line 1: not an answers.jsonl record"),
                          ('{"id": "a", "answer": "text"}', "line 1: not an answers.jsonl record"),
                          ('{"id": "a", "answer": {"question": "q", "blocks": "x"}}', "not a murar answer")):
        answers.write_text(line + "\n")
        res = runner.invoke(app, ["human", "export", "--answers", str(answers), "--out", str(tmp_path / "pk")])
        assert res.exit_code == 1 and message in res.output, res.output
        assert res.exception is None or isinstance(res.exception, SystemExit)


def test_cli_mirage_names_a_malformed_prediction_line(tmp_path: Path) -> None:
    """Predictions were read field by field as they came: a list line or a number as the
    answer ended in TypeError tracebacks, 'sentences' given as a string in 'zip() argument
    2 is shorter than argument 1' (its characters taken as sentences)."""
    runner = CliRunner()
    pred = tmp_path / "pred.jsonl"
    good = '{"id": "ok", "sentences": ["Hello world."], "claims": [["Hello world"]], "citations": [[1]], ' \
           '"sources": [{"id": 1, "text": "Hello world"}]}'
    for line, message in (("[1]", "a JSON object is expected, not list"),
                          ('{"id": "a", "answer": 5}', "'answer' must be a string"),
                          ('{"id": "a", "sentences": "abc", "claims": [["x"]]}', "'sentences' must be a list of strings"),
                          ('{"id": "a", "sentences": ["a", "b"], "claims": [["x"]]}', "'claims' must be a list of 2"),
                          ('{"id": "a", "answer": "Hi.", "sources": [{"id": 1}]}', "'id' and a 'text' string"),
                          ('{"id": "a", "answer": "Hi.", "reference_claims": "abc"}', "'reference_claims' must be")):
        pred.write_text(good + "\n" + line + "\n")
        res = runner.invoke(app, ["mirage", "--predictions", str(pred), "--mode", "collection"])
        assert res.exit_code == 1 and "line 2: malformed prediction" in res.output and message in res.output, \
            res.output
    pred.write_text(good + "\n")
    res = runner.invoke(app, ["mirage", "--predictions", str(pred), "--mode", "collection"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["n"] == 1
