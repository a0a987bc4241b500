"""``murar ask``: answer one question with a multimodal answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from murar.cli.common import (
    DEFAULT_INDEX,
    REMOTE_IMAGES_HELP,
    RETRIEVER_HELP,
    StoreOption,
    fail,
    index_target,
    out_file,
    parse_remote_images,
)
from murar.config import DEFAULT_RETRIEVER
from murar.errors import MurarError
from murar.schema import to_jsonable

if TYPE_CHECKING:
    from murar.answer.pipeline import Pipeline
    from murar.schema import Answer

LLM_HELP = "bundled (Qwen2.5-Coder-1.5B, offline) | bundled-small | openai | extractive (no model) | fake"


_STAGE_LABELS = {
    "retrieve": "retrieving snippets",
    "generate": "writing the answer",
    "attribute": "attributing sentences to sources",
    "media": "choosing images, tables and videos",
    "refine": "placing media and refining",
    "render": "rendering",
}


def _answer_with_status(pipeline: Pipeline, question: str, *, show: bool) -> Answer:
    """Run the pipeline through its event stream, showing the current stage on stderr."""
    from rich.console import Console

    console = Console(stderr=True)
    tokens = 0
    with console.status("starting", spinner="dots") as status:
        for event in pipeline.stream(question):
            if event.type == "stage" and show:
                status.update(_STAGE_LABELS.get(event.name, event.name))
            elif event.type == "token" and show:
                tokens += 1
                status.update(f"writing the answer ({tokens} pieces)")
            elif event.type == "error":
                raise MurarError(event.text)
            elif event.type == "answer" and event.answer is not None:
                return event.answer
    raise MurarError("the pipeline ended without an answer")


def timing_summary(answer: Answer) -> str:
    """One line saying where the time went (seconds per stage, first text/media, model tokens)."""
    t = answer.trace.timings_ms
    parts = [f"{name} {t[key] / 1000:.1f} s" for key, name in (
        ("retrieve", "retrieve"), ("evidence", "evidence"), ("generate", "generate"), ("attribute", "attribute"),
        ("media", "media"),
        ("captions", "captions"), ("refine", "refine")) if key in t]
    if "first_token" in t:
        parts.append(f"first text at {t['first_token'] / 1000:.1f} s")
    if "first_media" in t:
        parts.append(f"first media at {t['first_media'] / 1000:.1f} s")
    line = f"time: {' · '.join(parts)} · total {t.get('total', 0.0) / 1000:.1f} s"
    if answer.trace.llm_calls:
        calls = ", ".join(f"{c.stage} {c.prompt_tokens} prompt tokens ({c.cached_tokens} cached) "
                          f"+ {c.completion_tokens} out" for c in answer.trace.llm_calls)
        line += f"\nmodel: {calls}"
    return line


def ask(
    question: Annotated[str, typer.Argument(help="The question, in natural language.")],
    index: Annotated[Path, typer.Option("--index", "-i", help="Index folder built by `murar ingest`.")] = DEFAULT_INDEX,
    output: Annotated[str, typer.Option("--format", "-f", help="markdown | json")] = "markdown",
    llm: Annotated[str, typer.Option(help=LLM_HELP)] = "bundled",
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1")] = None,
    model: Annotated[str | None, typer.Option(help="Model name on the OpenAI-compatible server.")] = None,
    api_key: Annotated[str | None, typer.Option(envvar="OPENAI_API_KEY", help="API key (or OPENAI_API_KEY).")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the answer to this file; image links resolve from its folder.")] = None,
    no_refine: Annotated[bool, typer.Option("--no-refine", help="Keep the code-placed draft; skip the LLM rewrite.")] = False,
    top_k: Annotated[int, typer.Option(min=1, help="Snippets given to the generator.")] = 5,
    retriever: Annotated[str, typer.Option(help=RETRIEVER_HELP)] = DEFAULT_RETRIEVER,
    strategy: Annotated[str, typer.Option(help="Media selection: section (MuRAR) | answer (answer-based, top 2) | hybrid.")] = "section",
    path: Annotated[str, typer.Option(help="streamed (one model call, media while the text streams) | "
                                           "three-call (MuRAR as published: answer, captions, rewrite).")] = "streamed",
    llm_captions: Annotated[bool, typer.Option("--llm-captions", help="three-call path: the model writes display "
                                                                       "captions (default: the docs' own text).")] = False,
    no_captions: Annotated[bool, typer.Option("--no-captions", hidden=True, help="Deprecated: now the default.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress spinner or timing summary on stderr.")] = False,
    store: StoreOption = None,
    remote_images: Annotated[str, typer.Option(help=REMOTE_IMAGES_HELP)] = "hide",
) -> None:
    """Answer QUESTION from the index: text with citations, images/tables/videos inline.

    On stderr: the current stage while it works, then where the time went
    (Markdown output; JSON output has the timings in its trace)."""
    from murar.answer.media import MediaOptions
    from murar.answer.pipeline import PipelineConfig, load_pipeline
    from murar.answer.render import file_media_url, render_markdown
    from murar.store.hybrid import RetrieverOptions

    if output not in ("markdown", "json"):
        fail(f"--format must be markdown or json, not {output!r}")
    show_remote = parse_remote_images(remote_images)
    try:
        if out:
            out_file(out)
        media = MediaOptions(remote_images=show_remote)
        retr = RetrieverOptions(kind=retriever)
        if path == "three-call":
            config = PipelineConfig.three_call(top_k=top_k, refine=not no_refine, media_strategy=strategy,
                                               display_captions=llm_captions and not no_captions, media=media,
                                               retriever=retr)
        else:
            config = PipelineConfig(top_k=top_k, media_strategy=strategy, path=path, media=media, retriever=retr)
        pipeline = load_pipeline(index_target(index, store), llm=llm, base_url=base_url, model=model,
                                 api_key=api_key, config=config)
        answer = _answer_with_status(pipeline, question, show=not quiet)
    except MurarError as err:
        fail(err)
    if not quiet and output != "json":  # the JSON trace carries the same timings
        typer.echo(timing_summary(answer), err=True)
    base_dir = out.resolve().parent if out else Path.cwd()
    if output == "json":
        url = file_media_url(pipeline.corpus_root or Path("."), pipeline.assets_dir, base_dir,
                             remote_images=show_remote)
        data = to_jsonable(answer)
        data["markdown"] = render_markdown(answer, media_url=url)
        for block, item_json in zip(answer.blocks, data["blocks"]):
            if block.type != "text":
                item_json["url"] = url(block.item)
        text = json.dumps(data, indent=2, ensure_ascii=False)
    else:
        text = render_markdown(answer, media_url=file_media_url(pipeline.corpus_root or Path("."),
                                                                pipeline.assets_dir, base_dir,
                                                                remote_images=show_remote))
    if out:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as err:
            fail(f"--out {out}: cannot write the answer ({err.strerror or err})")
        typer.echo(f"answer written to {out}", err=True)
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
