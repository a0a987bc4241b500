"""Video transcripts from sidecar subtitle files (.vtt / .srt), parsed by webvtt-py.

A sidecar belongs to a video when it sits next to the page and is named after
the video's numeric id (``3443183.vtt``), the local video file's stem, or the
page stem with the video's 1-based ordinal (``page.1.vtt``, ``page.vtt`` for
the first video).
"""

from __future__ import annotations

import re
from pathlib import Path

_ID = re.compile(r"/v/(\d+)")


def _candidates(page: Path, url: str, ordinal: int) -> list[Path]:
    names: list[str] = []
    m = _ID.search(url)
    if m:
        names.append(m.group(1))
    stem = Path(url.split("?")[0]).stem
    if stem and not url.startswith(("http://", "https://")):
        names.append(stem)
    names.append(f"{page.stem}.{ordinal}")
    if ordinal == 1:
        names.append(page.stem)
    out: list[Path] = []
    for name in names:
        for ext in (".vtt", ".srt"):
            out.append(page.parent / f"{name}{ext}")
    return out


def read_transcript(path: Path) -> str:
    """Plain text of a .vtt or .srt file (cue texts joined by spaces).

    Raises:
        ValueError: the file is not a valid subtitle file.
    """
    import webvtt

    try:
        captions = webvtt.from_srt(str(path)) if path.suffix.lower() == ".srt" else webvtt.read(str(path))
    except Exception as err:  # webvtt raises its own MalformedFileError and friends
        raise ValueError(f"{path.name}: {err}") from err
    texts: list[str] = []
    for cap in captions.captions:
        t = " ".join(cap.text.split())
        if t and (not texts or texts[-1] != t):
            texts.append(t)
    return " ".join(texts)


def find_transcript(page: Path, url: str, ordinal: int, warnings: list[str]) -> str:
    """Transcript text for the video ``url`` of ``page``, or ``""`` when none is given."""
    for cand in _candidates(page, url, ordinal):
        if cand.is_file():
            try:
                return read_transcript(cand)
            except ValueError as err:
                warnings.append(f"transcript {cand.name} unreadable: {err}")
                return ""
    return ""
