"""``murar eval``: MiRAGE, media, retrieval and human-evaluation commands.

Mounted by the main CLI as ``murar eval``::

    murar eval run --questions dev.jsonl --index ./index --out eval-out
    murar eval mirage --predictions preds.jsonl
    murar eval mirage --wikivideo ../shared/eval/mirage-wikivideo --system qwen_72b_cag
    murar eval human export --answers eval-out/answers.jsonl --out packets/
    murar eval human report ratings_*.csv --out human-report/
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from murar.cli.common import StoreOption, finite, index_target, out_file, out_folder
from murar.errors import MurarError
from murar.store.postgres import redact

app = typer.Typer(help="Evaluate answers: MiRAGE InfoF1/CiteF1, media and retrieval metrics, human evaluation.",
                  no_args_is_help=True)
human_app = typer.Typer(help="MuRAR human evaluation: export rating packets, report filled ratings.",
                        no_args_is_help=True)
app.add_typer(human_app, name="human")

JUDGE_HELP = "embedding (MiniLM cosine, fast) | llm (chat model yes/no judge)"


def _fail(msg: str) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(1)


def _build_judge(judge: str, llm: str, base_url: str | None, model: str | None,
                 threshold: float, cache: Path | None) -> Any:
    from murar.eval.judge import CachedJudge, EmbeddingJudge, LLMJudge

    if judge == "embedding":
        from murar.embed.minilm import MiniLMEmbedder

        inner: Any = EmbeddingJudge(MiniLMEmbedder(), threshold=threshold)
    elif judge == "llm":
        from murar.llm import load_chat_model

        inner = LLMJudge(load_chat_model(llm, base_url=base_url, model=model))
    else:
        _fail(f"--judge must be embedding or llm, not {judge!r}")
    return CachedJudge(inner, cache)


def _build_decomposer(decomposer: str, llm: str, base_url: str | None, model: str | None) -> Any:
    from murar.eval.claims import LLMDecomposer, SentenceDecomposer

    if decomposer == "sentence":
        return SentenceDecomposer()
    if decomposer == "llm":
        from murar.llm import load_chat_model

        return LLMDecomposer(load_chat_model(llm, base_url=base_url, model=model))
    _fail(f"--decomposer must be sentence or llm, not {decomposer!r}")
    return None


@app.command("run")
def run_cmd(
    questions: Annotated[Path, typer.Option(help="Gold questions (dev.jsonl format).")],
    index: Annotated[Path, typer.Option(help="Index folder built by `murar ingest`.")] = Path(".murar/index"),
    out: Annotated[Path, typer.Option(help="Report folder.")] = Path("eval-report"),
    llm: Annotated[str, typer.Option(help="Generator of the answers: bundled (Qwen2.5-Coder-1.5B, offline) | "
                                          "bundled-small | openai | extractive (no model) | fake")] = "bundled",
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL.")] = None,
    model: Annotated[str | None, typer.Option(help="Model name on the OpenAI-compatible server.")] = None,
    judge: Annotated[str, typer.Option(help=JUDGE_HELP)] = "embedding",
    judge_llm: Annotated[str, typer.Option(help="Chat model kind for --judge llm / --decomposer llm.")] = "bundled",
    decomposer: Annotated[str, typer.Option(help="sentence (one subclaim per sentence) | llm")] = "sentence",
    threshold: Annotated[float, typer.Option(min=-1.0, max=1.0, callback=finite,
                                             help="Embedding judge cosine threshold.")] = 0.6,
    corpus_root: Annotated[Path | None, typer.Option(help="Corpus root for image paths.")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N questions.")] = None,
    no_mirage: Annotated[bool, typer.Option("--no-mirage", help="Media and retrieval metrics only.")] = False,
    seed: Annotated[int, typer.Option(help="Random seed recorded in the report.")] = 0,
    store: StoreOption = None,
) -> None:
    """Answer QUESTIONS with the pipeline over INDEX and write a report (Markdown, HTML, JSON)."""
    from murar.eval.media_metrics import load_gold
    from murar.eval.report import write_run_report
    from murar.eval.run import evaluate_service
    from murar.eval.scorer import MirageScorer

    try:
        from murar.answer.pipeline import load_pipeline

        qs = load_gold(questions)[:limit] if limit else load_gold(questions)
        out_folder(out)
        service = load_pipeline(index_target(index, store), llm=llm, base_url=base_url, model=model)
        scorer = None if no_mirage else MirageScorer(
            _build_judge(judge, judge_llm, base_url, model, threshold, out / "judgments.jsonl"))
        dec = _build_decomposer(decomposer, judge_llm, base_url, model)
        run = evaluate_service(
            service, qs, scorer=scorer, decomposer=dec, corpus_root=corpus_root, seed=seed,
            progress=lambda n, t: typer.echo(f"[{n}/{t}]", err=True),
            meta={"questions": str(questions), "index": redact(store) if store else str(index), "llm": llm})
        paths = write_run_report(run, out)
    except MurarError as err:
        _fail(str(err))
    except OSError as err:  # the folder went away or filled up during the run
        _fail(f"--out {out}: cannot write the report ({err.strerror or err})")
    typer.echo(json.dumps({k: str(v) for k, v in paths.items()}))


@app.command("mirage")
def mirage_cmd(
    predictions: Annotated[Path | None, typer.Option(help="JSONL: id, answer | sentences+claims+citations, "
                                                     "reference_text, reference_claims, sources[{id,text,kind}]")] = None,
    wikivideo: Annotated[Path | None, typer.Option(help="MiRAGE WikiVideo release folder.")] = None,
    system: Annotated[str | None, typer.Option(help="System of the release to score.")] = None,
    mode: Annotated[str, typer.Option(help="reference | collection")] = "reference",
    judge: Annotated[str, typer.Option(help=JUDGE_HELP)] = "embedding",
    judge_llm: Annotated[str, typer.Option(help="Chat model kind for --judge llm.")] = "bundled",
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL (--judge-llm openai).")] = None,
    model: Annotated[str | None, typer.Option(help="Model name on that server (--judge-llm openai).")] = None,
    threshold: Annotated[float, typer.Option(min=-1.0, max=1.0, callback=finite,
                                             help="Embedding judge cosine threshold.")] = 0.6,
    decomposer: Annotated[str, typer.Option(help="For plain-text answers: sentence | llm")] = "sentence",
    cache: Annotated[Path | None, typer.Option(help="Judgment cache (JSONL).")] = None,
    out: Annotated[Path | None, typer.Option(help="Write per-answer results and judgments as JSON here.")] = None,
) -> None:
    """Score given predictions with MiRAGE InfoP/R/F1 and CiteP/R/F1 (JSON on stdout)."""
    from murar.eval.claims import claimed_answer_from_lists, decompose_text
    from murar.eval.mirage import macro_average
    from murar.eval.scorer import MirageScorer, Reference, Source
    from murar.schema import to_jsonable

    if mode not in ("reference", "collection"):
        _fail("--mode must be reference or collection")
    try:
        if out is not None:
            out_file(out)
        scorer = MirageScorer(_build_judge(judge, judge_llm, base_url, model, threshold, cache))
        items: list[tuple[str, Any, Reference | None, list[Source]]] = []
        if wikivideo is not None:
            from murar.eval.mirage_data import WikiVideoRelease

            rel = WikiVideoRelease(wikivideo)
            if not system:
                _fail(f"--system is required with --wikivideo; one of {rel.systems()}")
            if mode == "collection":
                _fail("the WikiVideo release has no video text; use --mode reference")
            for topic, p in rel.predictions(str(system)).items():
                items.append((topic, p.claimed(), rel.topics[topic].reference(), []))
        elif predictions is not None:
            from murar.eval.io import read_predictions

            dec = _build_decomposer(decomposer, judge_llm, base_url, model)
            for pred in read_predictions(predictions):
                if pred.claims is not None and pred.sentences is not None:
                    ca = claimed_answer_from_lists(pred.sentences, pred.claims, pred.citations)
                else:
                    ca = decompose_text(pred.answer or "", dec)
                items.append((pred.id, ca, pred.reference, list(pred.sources)))
        else:
            _fail("give --predictions FILE or --wikivideo DIR --system NAME")
        results = {i: scorer.score(ca, mode=mode, reference=ref, sources=srcs)  # type: ignore[arg-type]
                   for i, ca, ref, srcs in items}
    except (MurarError, json.JSONDecodeError, KeyError) as err:
        _fail(f"{type(err).__name__}: {err}")
    infos = [r.info for r in results.values()]
    cites = [r.cite for r in results.values() if r.cite is not None]
    summary = {"mode": mode, "judge": scorer.judge.name, "judge_prompt_version": scorer.judge.prompt_version,
               "n": len(results), "info": to_jsonable(macro_average(infos)) if infos else None,
               "cite": to_jsonable(macro_average(cites)) if cites else None,
               "per_answer": {i: {"info": to_jsonable(r.info), "cite": to_jsonable(r.cite)} for i, r in results.items()},
               "notes": sorted({n for r in results.values() for n in r.notes})}
    if out is not None:
        out.write_text(json.dumps({**summary, "records": {i: to_jsonable(r.records) for i, r in results.items()}},
                                  indent=2), encoding="utf-8")
    json.dump(summary, sys.stdout, indent=2)
    sys.stdout.write("\n")


@human_app.command("export")
def human_export(
    answers: Annotated[Path, typer.Option(help="answers.jsonl written by `murar eval run`.")],
    out: Annotated[Path, typer.Option(help="Folder for packets.html and ratings_template.csv.")] = Path("packets"),
    model: Annotated[str | None, typer.Option(help="Model label (default: the answer trace's generator).")] = None,
    corpus_root: Annotated[Path | None, typer.Option(help="Corpus root, to inline local images.")] = None,
) -> None:
    """Export annotation packets: text-only vs multimodal answer with the MuRAR rubric."""
    from murar.eval.human import Packet, export_packets
    from murar.eval.io import answer_from_dict

    try:
        packets = []
        for n, line in enumerate(answers.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            r = json.loads(line)
            if not isinstance(r, dict) or not isinstance(r.get("answer"), dict):
                _fail(f"{answers} line {n}: not an answers.jsonl record (an object with an 'answer' object)")
            ans = answer_from_dict(r["answer"])
            # the pipeline records its generator under "generator" (first of its models is the embedder)
            models = ans.trace.models
            label = model or models.get("generator") or models.get("llm") or next(iter(models.values()), "murar")
            packets.append(Packet(question_id=str(r["id"]), question=r.get("question", ans.question),
                                  model=label, text_answer=ans.trace.text_answer or ans.text,
                                  multimodal_answer=ans))
        html_path, csv_path = export_packets(packets, out, corpus_root=corpus_root)
    except (MurarError, OSError, json.JSONDecodeError, KeyError) as err:
        _fail(f"{type(err).__name__}: {err}")
    typer.echo(json.dumps({"html": str(html_path), "csv": str(csv_path), "packets": len(packets)}))


@human_app.command("report")
def human_report(
    ratings: Annotated[list[Path], typer.Argument(help="Filled rating CSV files.")],
    out: Annotated[Path, typer.Option(help="Report folder.")] = Path("human-report"),
) -> None:
    """Report filled ratings: means/SD per model, per annotator, preference rate, alpha, kappa, plot."""
    from murar.eval.human import load_ratings, summarise_ratings
    from murar.eval.report import write_human_report

    try:
        rs = load_ratings(ratings)
        paths = write_human_report(summarise_ratings(rs), rs, out_folder(out))
    except MurarError as err:
        _fail(str(err))
    typer.echo(json.dumps({k: str(v) for k, v in paths.items()}))
