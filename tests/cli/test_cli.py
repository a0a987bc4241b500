from __future__ import annotations

import json
from pathlib import Path

from sample_png import PNG_64PX as PNG
from typer.testing import CliRunner

from murar.cli.main import app

runner = CliRunner()


def _corpus(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    (docs / "assets").mkdir(parents=True)
    (docs / "assets" / "canvas.png").write_bytes(PNG)
    (docs / "guide.md").write_text(
        "# Journeys\n\n## Custom events\n\nTo add a custom event open the journey canvas and drag the custom "
        "event onto the journey canvas.\n\n![Journey canvas custom event](assets/canvas.png)\n\n"
        "The custom event is then configured in the journey canvas.\n\n![gone](assets/missing.png)\n"
    )
    return docs


def test_ingest_then_ask_json_and_markdown(tmp_path: Path) -> None:
    docs = _corpus(tmp_path)
    idx = tmp_path / "idx"
    r = runner.invoke(app, ["ingest", str(docs), "--index", str(idx), "--embedder", "hashing", "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["report"]["pages"] == 1 and data["report"]["images"] == 2
    assert any("missing.png" in w for w in data["report"]["warnings"])
    r = runner.invoke(app, ["ask", "How do I add a custom event in the journey canvas?", "--index", str(idx),
                            "--llm", "extractive", "--format", "json"])
    assert r.exit_code == 0, r.output
    ans = json.loads(r.output)
    assert ans["found"] is True
    assert {b["type"] for b in ans["blocks"]} >= {"text"}
    assert "trace" in ans and ans["trace"]["retrieved"]
    out = tmp_path / "answers" / "a.md"
    r = runner.invoke(app, ["ask", "How do I add a custom event in the journey canvas?", "--index", str(idx),
                            "--llm", "extractive", "--out", str(out)])
    assert r.exit_code == 0, r.output
    md = out.read_text()
    assert "![" in md, md  # the screenshot of the custom-event section is placed
    link = md.split("](<", 1)[1].split(">)", 1)[0]
    assert (out.parent / link).resolve().is_file()  # image links resolve from the answer's folder


def test_readable_errors(tmp_path: Path) -> None:
    r = runner.invoke(app, ["ask", "anything", "--index", str(tmp_path / "none"), "--llm", "extractive"])
    assert r.exit_code == 1
    assert "murar ingest" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["ingest", str(tmp_path / "nope"), "--index", str(tmp_path / "i"), "--embedder", "hashing"])
    assert r.exit_code == 1 and "not found" in r.output
    r = runner.invoke(app, ["ingest", str(tmp_path), "--index", str(tmp_path / "i"), "--embedder", "bogus"])
    assert r.exit_code == 1 and "unknown embedder" in r.output


def test_help_lists_commands() -> None:
    r = runner.invoke(app, ["--help"])
    assert r.exit_code == 0
    for cmd in ("ingest", "ask", "models", "eval", "serve"):
        assert cmd in r.output


def test_ingest_json_counts_warnings_past_the_page_cap(tmp_path: Path) -> None:
    from murar.ingest.corpus import MAX_PAGE_WARNINGS

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "p.md").write_text("# P\n\nText.\n\n" + "\n\n".join(f"![x](gone{i}.png)" for i in range(300)) + "\n")
    r = runner.invoke(app, ["ingest", str(docs), "--index", str(tmp_path / "idx"), "--embedder", "hashing",
                            "--format", "json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)["report"]
    assert len(rep["warnings"]) == MAX_PAGE_WARNINGS + 1
    assert rep["warnings"][-1].endswith(f"and {rep['warning_count'] - MAX_PAGE_WARNINGS} more warnings of this page"
                                        " (not kept)")
    assert rep["warning_count"] >= 300


def test_unknown_llm_names_every_choice(tmp_path: Path) -> None:
    idx = tmp_path / "idx"
    assert runner.invoke(app, ["ingest", str(_corpus(tmp_path)), "--index", str(idx), "--embedder", "hashing",
                               "-q"]).exit_code == 0
    r = runner.invoke(app, ["ask", "How do I add a custom event?", "--index", str(idx), "--llm", "gpt"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "'gpt'" in r.output and "extractive" in r.output, r.output


def test_help_texts_show_no_rest_markup() -> None:
    """Command help is read in a terminal: reST ``double backticks`` from a docstring show as-is."""
    import typer.main

    def walk(cmd: object, path: list[str]) -> list[list[str]]:
        subs = getattr(cmd, "commands", {}) or {}
        return [path] + [p for name, sub in subs.items() for p in walk(sub, [*path, name])]

    for path in walk(typer.main.get_command(app), []):
        r = runner.invoke(app, [*path, "--help"], terminal_width=200)
        assert r.exit_code == 0, path
        assert "``" not in r.output, (path, r.output)


def test_eval_help_names_the_choices_not_internal_calls() -> None:
    r = runner.invoke(app, ["eval", "run", "--help"], terminal_width=200)
    assert "load_pipeline" not in r.output and "extractive" in r.output
    r = runner.invoke(app, ["eval", "mirage", "--help"], terminal_width=200)
    line = next(x for x in r.output.splitlines() if "--base-url" in x)
    assert "OpenAI-compatible" in line, line
def test_numeric_options_out_of_range_are_usage_errors(tmp_path: Path) -> None:
    """'--port 99999' ended serve/mcp in an OverflowError traceback from bind(); '--max-file-seconds
    inf' failed every page with an OverflowError and 'nan' turned the limit off; '--limit -1'
    evaluated 39 of 40 questions; '--top-k 0' answered 'not in the documentation'. Each is now
    refused before any work, naming the option (exit 2)."""
    docs = _corpus(tmp_path)
    idx, gold = tmp_path / "idx", tmp_path / "q.jsonl"
    gold.write_text('{"question": "How?"}\n')
    cases = [
        (["serve", "--index", str(idx), "--port", "99999"], "--port"),
        (["mcp", "--index", str(idx), "--http", "--port", "-1"], "--port"),
        (["serve", "--index", str(idx), "--max-wait", "inf"], "--max-wait"),
        (["ingest", str(docs), "--index", str(idx), "--embedder", "hashing", "--max-file-seconds", "inf"],
         "--max-file-seconds"),
        (["ingest", str(docs), "--index", str(idx), "--embedder", "hashing", "--max-file-seconds", "nan"],
         "--max-file-seconds"),
        (["ingest", str(docs), "--index", str(idx), "--embedder", "hashing", "--max-file-bytes", "-5"],
         "--max-file-bytes"),
        (["ask", "How?", "--index", str(idx), "--llm", "extractive", "--top-k", "0"], "--top-k"),
        (["eval", "run", "--questions", str(gold), "--index", str(idx), "--limit", "-1"], "--limit"),
        (["eval", "run", "--questions", str(gold), "--index", str(idx), "--threshold", "nan"], "--threshold"),
    ]
    for args, option in cases:
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        assert option in r.output and "Traceback" not in r.output
    assert not idx.exists()


def test_an_output_path_that_cannot_be_written_fails_before_the_work(tmp_path: Path) -> None:
    """'ask --out FOLDER' ended in an IsADirectoryError traceback after answering; 'eval run --out
    FILE' answered every question, then lost the run in a FileExistsError traceback."""
    docs = _corpus(tmp_path)
    idx = tmp_path / "idx"
    assert runner.invoke(app, ["ingest", str(docs), "--index", str(idx), "--embedder", "hashing"]).exit_code == 0
    gold = tmp_path / "q.jsonl"
    gold.write_text('{"question": "How do I add a custom event?"}\n')
    a_file = docs / "guide.md"
    for args in (["ask", "How?", "--index", str(idx), "--llm", "extractive", "--out", str(docs)],
                 ["ask", "How?", "--index", str(idx), "--llm", "extractive", "--out", str(a_file / "a.md")],
                 ["eval", "run", "--questions", str(gold), "--index", str(idx), "--llm", "extractive", "--no-mirage",
                  "--out", str(a_file)]):
        r = runner.invoke(app, args)
        assert r.exit_code == 1, (args, r.output)
        assert "error: --out" in r.output and "Traceback" not in r.output
        assert "[1/1]" not in r.output  # refused before answering
