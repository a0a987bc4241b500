"""``murar tune-embedder``: fine-tune the embedder on questions a local LLM writes about the index."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from murar.cli.common import DEFAULT_INDEX, fail, finite
from murar.cli.progress import RichProgress
from murar.errors import MurarError


class _StageProgress:
    """Adapts ``progress(stage, done, total)`` to the rich bars of :class:`RichProgress`."""

    def __init__(self, bars: RichProgress) -> None:
        self._bars = bars
        self._done: dict[str, int] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage not in self._done:
            self._bars.start(stage, total)
            self._done[stage] = 0
        if done > self._done[stage]:
            self._bars.advance(stage, done - self._done[stage])
            self._done[stage] = done


def tune_embedder(
    index: Annotated[Path, typer.Option("--index", "-i", help="Index folder built by `murar ingest` (MiniLM).")]
    = DEFAULT_INDEX,
    llm: Annotated[str, typer.Option(help="Model writing the questions: bundled (Qwen2.5-Coder-1.5B) | "
                                          "bundled-small (0.5B, ~2x faster) | openai | fake (tests).")]
    = "bundled",
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL for --llm openai.")] = None,
    model: Annotated[str | None, typer.Option(help="Model name for --llm openai.")] = None,
    snippets: Annotated[int, typer.Option(min=1, help="Snippets to write questions for (one model call each; "
                                               "~3-5 s per call with the bundled 1.5B model on 2 cores).")] = 300,
    questions: Annotated[int, typer.Option(min=1, max=3, help="Questions asked per snippet (1-3).")] = 2,
    hard_negatives: Annotated[bool, typer.Option(
        "--hard-negatives", help="Also train against a snippet of another section of the same page.")] = False,
    epochs: Annotated[int, typer.Option(min=1, help="Passes over the pairs.")] = 2,
    batch_size: Annotated[int, typer.Option(min=2, help="Pairs per step (the others' snippets are negatives).")]
    = 16,
    learning_rate: Annotated[float, typer.Option(min=0.0, callback=finite, help="AdamW learning rate.")] = 2e-5,
    max_steps: Annotated[int, typer.Option(min=0, help="Stop training after this many steps (0 = no limit).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the snippet sample and of training.")] = 0,
    pairs_cache: Annotated[Path | None, typer.Option(
        help="JSON-lines cache of the model's replies (default INDEX/tune/pairs-cache.jsonl); re-runs reuse it.")]
    = None,
    output: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")] = False,
) -> None:
    """Fine-tune the MiniLM embedder on the indexed docs themselves, then re-embed the index with it.

    A local LLM writes short user questions for a sample of the index's snippets
    (sections with images, tables or videos first; replies cached); MiniLM is
    fine-tuned on the (question, snippet) pairs with in-batch negatives,
    exported as int8 ONNX into INDEX/embedders/, and every snippet and media
    item is re-embedded. `murar ask`, `serve` and `eval` then load the tuned
    embedder from the index automatically. No gold question is used.
    Needs the 'tune' extra (torch, transformers, onnx).
    """
    from murar.llm import load_chat_model
    from murar.tune import TrainSettings, TuneOptions
    from murar.tune import tune_embedder as run

    if output not in ("text", "json"):
        fail(f"--format must be text or json, not {output!r}")
    try:
        chat = load_chat_model(llm, base_url=base_url, model=model)
        opts = TuneOptions(snippets=snippets, questions=questions, hard_negatives=hard_negatives,
                           pairs_cache=pairs_cache, seed=seed,
                           train=TrainSettings(epochs=epochs, batch_size=batch_size, learning_rate=learning_rate,
                                               max_steps=max_steps, seed=seed))
        with RichProgress(enabled=not quiet and output == "text") as bars:
            report = run(index, chat, options=opts, progress=_StageProgress(bars))
    except MurarError as err:
        fail(err)
    s = report.pair_stats
    summary = {
        "index": report.index, "embedder": report.embedder, "folder": report.folder,
        "previous_embedder": report.previous_embedder, "generator": report.generator,
        "snippets": s.snippets, "pairs": s.pairs, "model_calls": s.calls, "cached_replies": s.cached,
        "empty_replies": s.empty, "failed_calls": s.failed, "errors": s.errors,
        "train": {"steps": report.train.steps, "loss_first_epoch": round(report.train.loss_first, 4),
                  "loss_last_epoch": round(report.train.loss_last, 4),
                  "seconds": round(report.train.train_seconds, 1),
                  "export_seconds": round(report.train.export_seconds, 1)},
        "reembedded": {"version": report.reembed.version, "snippets": report.reembed.snippets,
                       "media": report.reembed.media},
        "seconds": {k: round(v, 1) for k, v in report.seconds.items()},
    }
    if output == "json":
        typer.echo(json.dumps(summary, indent=2))
        return
    table = Table(title=f"Tuned embedder for {report.index}", show_header=False)
    table.add_row("embedder", f"{report.embedder} (was {report.previous_embedder})")
    table.add_row("questions", f"{s.pairs} from {s.snippets} snippets by {report.generator} "
                               f"({s.calls} calls, {s.cached} cached, {s.empty} unusable, {s.failed} failed)")
    table.add_row("training", f"{report.train.steps} steps, loss {report.train.loss_first:.3f} -> "
                              f"{report.train.loss_last:.3f}, {report.train.train_seconds:.0f} s")
    table.add_row("re-embedded", f"{report.reembed.snippets} snippets, {report.reembed.media} media "
                                 f"(version {report.reembed.version})")
    table.add_row("seconds", ", ".join(f"{k} {v:.0f}" for k, v in report.seconds.items()))
    Console().print(table, highlight=False)
    for e in s.errors:
        Console(stderr=True).print(f"[yellow]warning[/yellow] {e}", highlight=False)
