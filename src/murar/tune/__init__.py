"""Fine-tune the text embedder on the corpus itself (MuRAR section 2.1's retriever, adapted).

:func:`tune_embedder` runs the whole lever on an index folder:

1. sample snippets of the index (:func:`murar.tune.pairs.sample_snippets`);
2. a local chat model writes 1-3 user questions per snippet, cached on disk
   (:func:`murar.tune.pairs.generate_pairs`): no gold question is ever used;
3. MiniLM is fine-tuned on the (question, snippet) pairs with in-batch
   negatives and exported as int8 ONNX (:func:`murar.tune.train.train_embedder`);
4. the tuned embedder is stored beside the index
   (``INDEX/embedders/<name>/``, :mod:`murar.embed.tuned`) and every snippet
   and media item is re-embedded with it (:func:`murar.tune.reembed.reembed_index`);
   the index records its name, so queries load it automatically.
"""

from __future__ import annotations

import shutil
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from murar.embed.tuned import (
    BASE_NAME,
    EMBEDDERS_DIR,
    MANIFEST,
    TunedEmbedder,
    TunedManifest,
    file_sha256,
    is_tuned_name,
    tuned_folder,
    tuned_name,
)
from murar.errors import ConfigError, IndexNotFoundError, LLMError
from murar.llm.base import ChatModel
from murar.schema import AnyMedia, Snippet
from murar.store.lance_versions import LanceWriter
from murar.tune.pairs import (
    PairCache,
    PairStats,
    TrainingPair,
    generate_pairs,
    page_negatives,
    sample_snippets,
)
from murar.tune.reembed import ReembedResult, reembed_index
from murar.tune.train import (
    BASE_WEIGHTS,
    TrainResult,
    TrainSettings,
    settings_dict,
    train_embedder,
)

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: stages ``questions``, ``train``, ``export``,
``embed snippets``, ``embed media``."""

MIN_PAIRS = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class TuneOptions:
    """What :func:`tune_embedder` does.

    ``snippets``: how many snippets the model writes questions for (one call
    each; ~3-5 s per call with the bundled 1.5B model on 2 cores);
    ``questions``: questions asked per snippet (1-3); ``hard_negatives``: add
    one snippet of another section of the same page to each pair;
    ``pairs_cache``: the JSON-lines cache of model replies (default
    ``INDEX/tune/pairs-cache.jsonl``); ``seed`` fixes the sample and training.
    """

    snippets: int = 300
    questions: int = 2
    hard_negatives: bool = False
    pairs_cache: Path | None = None
    seed: int = 0
    train: TrainSettings = field(default_factory=TrainSettings)


@dataclass(frozen=True, slots=True, kw_only=True)
class TuneReport:
    """Outcome of one :func:`tune_embedder` run (``seconds`` per stage)."""

    index: str
    embedder: str
    folder: str
    previous_embedder: str
    generator: str
    pair_stats: PairStats
    train: TrainResult
    reembed: ReembedResult
    seconds: dict[str, float]


def _live_pages(index_dir: Path) -> tuple[str, list[Snippet], list[AnyMedia]]:
    writer = LanceWriter(index_dir)
    live = writer.live()
    if live is None:
        raise IndexNotFoundError(f"no index at {index_dir}; build one with: murar ingest CORPUS --index {index_dir}")
    snippets: list[Snippet] = []
    media: list[AnyMedia] = []
    for page in writer.live_pages(sorted(live.pages)):
        snippets.extend(page.snippets)
        media.extend(page.media)
    return str(live.manifest.get("embedder", "")), snippets, media


def tune_embedder(
    index_dir: Path,
    chat_model: ChatModel,
    *,
    options: TuneOptions | None = None,
    progress: Progress | None = None,
) -> TuneReport:
    """Fine-tune MiniLM on questions ``chat_model`` writes about the index's own snippets,
    store it beside the index and re-embed the index with it.

    The index must have been built with the bundled MiniLM (or tuned before:
    training always starts again from the base weights, over the current
    snippets). The previous version stays live until the re-embedded one is
    complete; tuned embedder folders no longer used are removed after.

    Raises:
        IndexNotFoundError: no index folder there.
        ConfigError: the index was built with another embedder than MiniLM.
        LLMError: every question-generation call failed, or fewer than 2 pairs came out.
        MissingExtraError: the ``tune`` extra is not installed.
        EmbeddingError, IndexError_: re-embedding failed (the previous version stays live).
    """
    opts = options or TuneOptions()
    index_dir = Path(index_dir).resolve()
    t0 = time.perf_counter()
    previous, snippets, media = _live_pages(index_dir)
    if previous != BASE_NAME and not is_tuned_name(previous):
        raise ConfigError(f"the index {index_dir} was built with the embedder {previous!r}; tune-embedder "
                          f"fine-tunes the bundled MiniLM: rebuild with `murar ingest --embedder minilm` first")
    sample = sample_snippets(snippets, media, count=opts.snippets, seed=opts.seed)
    negatives = page_negatives(sample, snippets, seed=opts.seed) if opts.hard_negatives else None
    cache = PairCache(opts.pairs_cache or index_dir / "tune" / "pairs-cache.jsonl")
    done = 0
    if progress is not None:
        progress("questions", 0, len(sample))

    def step(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress("questions", done, len(sample))

    pairs, stats = generate_pairs(sample, chat_model, cache, n_questions=opts.questions,
                                  hard_negatives=negatives, progress=step)
    if len(pairs) < MIN_PAIRS:
        raise LLMError(f"only {len(pairs)} usable question(s) from {len(sample)} snippets with {chat_model.name}; "
                       "need at least 2 to train (check the model, or raise --snippets)")
    t1 = time.perf_counter()
    folder, train = _train_into(index_dir, pairs, opts, chat_model.name, len(sample), progress)
    t2 = time.perf_counter()
    tuned = TunedEmbedder(folder)
    reembed = reembed_index(index_dir, tuned, progress=progress, extra={"tuned_embedder": {
        "name": tuned.name, "pairs": len(pairs), "generator": chat_model.name}})
    _prune_tuned(index_dir, keep=tuned.name)
    t3 = time.perf_counter()
    return TuneReport(index=str(index_dir), embedder=tuned.name, folder=str(folder), previous_embedder=previous,
                      generator=chat_model.name, pair_stats=stats, train=train, reembed=reembed,
                      seconds={"questions": t1 - t0, "train": t2 - t1, "reembed": t3 - t2, "total": t3 - t0})


def _train_into(index_dir: Path, pairs: list[TrainingPair], opts: TuneOptions, generator: str,
                n_snippets: int, progress: Progress | None) -> tuple[Path, TrainResult]:
    """Train into a temporary folder under ``INDEX/embedders``, name it by the model's hash."""
    root = index_dir / EMBEDDERS_DIR
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / f".tmp-{uuid.uuid4().hex[:8]}"
    try:
        result = train_embedder(pairs, tmp, settings=opts.train, progress=progress)
        digest = file_sha256(result.onnx_path)
        name = tuned_name(digest)
        training: dict[str, Any] = {**settings_dict(opts.train), "steps": result.steps,
                                    "loss_first_epoch": round(result.loss_first, 4),
                                    "loss_last_epoch": round(result.loss_last, 4),
                                    "train_seconds": round(result.train_seconds, 1),
                                    "questions_per_snippet": opts.questions,
                                    "hard_negatives": opts.hard_negatives}
        manifest = TunedManifest(name=name, model_sha256=digest, base_weights=BASE_WEIGHTS, pairs=len(pairs),
                                 snippets=n_snippets, generator=generator, training=training,
                                 created_at=datetime.now(UTC).isoformat(timespec="seconds"))
        (tmp / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
        final = tuned_folder(index_dir, name)
        if final.exists():  # the same model again (same pairs and seed): keep the one in place
            shutil.rmtree(tmp)
        else:
            tmp.rename(final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final, TrainResult(onnx_path=final / "model.onnx", steps=result.steps, loss_first=result.loss_first,
                              loss_last=result.loss_last, train_seconds=result.train_seconds,
                              export_seconds=result.export_seconds)


def _prune_tuned(index_dir: Path, *, keep: str) -> None:
    root = index_dir / EMBEDDERS_DIR
    for p in root.iterdir() if root.is_dir() else []:
        if p.is_dir() and p.name != keep and (is_tuned_name(p.name) or p.name.startswith(".tmp-")):
            shutil.rmtree(p, ignore_errors=True)


__all__ = ["TrainSettings", "TuneOptions", "TuneReport", "tune_embedder"]
