"""Video transcripts with their cue times: sidecar subtitle files and speech recognition.

Sidecars (``.vtt`` / ``.srt``, parsed by webvtt-py) belong to a video when they
sit next to the page or next to the local video file and are named after the
video's numeric id (``3443183.vtt``), the local video file's stem
(``demo.mp4`` -> ``demo.vtt``, also ``demo.en.vtt``), or the page stem with the
video's 1-based ordinal (``page.1.vtt``, ``page.vtt`` for the first video).

A transcript is a list of :class:`~murar.schema.TranscriptCue` (start/end in
seconds, text). Cue times are kept so that an answer can link the moment of a
video that shows a step (``video.mp4#t=83``, W3C Media Fragments URI 1.0,
temporal dimension).
"""

from __future__ import annotations

import re
from pathlib import Path

from murar.schema import TranscriptCue

_ID = re.compile(r"/v/(\d+)")
SIDECAR_EXTS = (".vtt", ".srt")


def _names(url: str, page: Path, ordinal: int) -> list[str]:
    names: list[str] = []
    m = _ID.search(url)
    if m:
        names.append(m.group(1))
    stem = Path(url.split("?")[0].split("#")[0]).stem
    if stem and not url.startswith(("http://", "https://")):
        names += [stem, f"{stem}.en"]
    names.append(f"{page.stem}.{ordinal}")
    if ordinal == 1:
        names.append(page.stem)
    return names


def sidecar_candidates(page: Path, url: str, ordinal: int, *, video_file: Path | None = None) -> list[Path]:
    """Sidecar files that would belong to video ``ordinal`` (1-based) of ``page``, in order of preference."""
    out: list[Path] = []
    folders = [page.parent]
    if video_file is not None and video_file.parent != page.parent:
        folders.insert(0, video_file.parent)
    for folder in folders:
        for name in _names(url, page, ordinal):
            for ext in SIDECAR_EXTS:
                cand = folder / f"{name}{ext}"
                if cand not in out:
                    out.append(cand)
    return out


def read_cues(path: Path) -> list[TranscriptCue]:
    """Cues of a ``.vtt`` or ``.srt`` file, in file order, consecutive repeats merged.

    Returns a list of cues with ``start``/``end`` in seconds.

    Raises:
        ValueError: the file is not a valid subtitle file.
    """
    import webvtt

    try:
        captions = webvtt.from_srt(str(path)) if path.suffix.lower() == ".srt" else webvtt.read(str(path))
    except Exception as err:  # webvtt raises its own MalformedFileError and friends
        raise ValueError(f"{path.name}: {err}") from err
    cues: list[TranscriptCue] = []
    for cap in captions.captions:
        text = " ".join(cap.text.split())
        if not text:
            continue
        start, end = float(cap.start_in_seconds), float(cap.end_in_seconds)
        if cues and cues[-1].text == text:
            prev = cues[-1]
            cues[-1] = TranscriptCue(start=prev.start, end=max(prev.end, end), text=text)
            continue
        cues.append(TranscriptCue(start=start, end=end, text=text))
    return cues


def read_transcript(path: Path) -> str:
    """Plain text of a ``.vtt`` or ``.srt`` file (cue texts joined by spaces).

    Raises:
        ValueError: the file is not a valid subtitle file.
    """
    return cues_text(read_cues(path))


def cues_text(cues: list[TranscriptCue]) -> str:
    """The cue texts joined by single spaces."""
    return " ".join(c.text for c in cues)


def find_cues(page: Path, url: str, ordinal: int, warnings: list[str], *,
              video_file: Path | None = None) -> tuple[list[TranscriptCue], str]:
    """Cues of the sidecar of video ``ordinal`` of ``page`` and the sidecar's file name.

    Returns ``([], "")`` when there is no sidecar; an unreadable sidecar adds a
    warning and gives no cues. Never raises.
    """
    for cand in sidecar_candidates(page, url, ordinal, video_file=video_file):
        try:
            present = cand.is_file()
        except (OSError, ValueError):  # hostile names: too long, NUL bytes
            present = False
        if present:
            try:
                return read_cues(cand), cand.name
            except ValueError as err:
                warnings.append(f"transcript {cand.name} unreadable: {err}")
                return [], ""
    return [], ""


def find_transcript(page: Path, url: str, ordinal: int, warnings: list[str]) -> str:
    """Transcript text for the video ``url`` of ``page``, or ``""`` when none is given."""
    cues, _ = find_cues(page, url, ordinal, warnings)
    return cues_text(cues)

