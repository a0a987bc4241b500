"""The moment of a video that an answer sentence points at.

A video with a transcript (sidecar cues or speech recognition) is linked at the
cue that best matches the sentence it follows, as a W3C Media Fragments
temporal URI (``demo.mp4#t=83``); the link starts the video where the step is
shown instead of at 0:00. The match is lexical (shared content words between
the sentence and a window of consecutive cues), so it needs no model and runs
in microseconds.
"""

from __future__ import annotations

import re

from murar.schema import TranscriptCue

_WORD = re.compile(r"[a-z0-9][a-z0-9'+-]*")
_STOP = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "of", "on", "or", "our", "so", "that", "the", "their", "then", "there", "these", "this", "to", "up", "was", "we", "what", "when", "which", "will", "with", "you", "your", "video", "watch", "shows", "show", "see", "following", "learn", "more", "about"]
)


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2}


def best_moment(sentence: str, cues: list[TranscriptCue], *, window: int = 3,
                min_overlap: int = 2) -> float | None:
    """Start time (whole seconds) of the cue that best matches ``sentence``.

    Each cue is scored by the content words it shares with the sentence, plus
    half of what the following ``window - 1`` cues share (a step is often
    spoken over several cues). ``None`` when the best window shares fewer than
    ``min_overlap`` words or the best cue starts the video (no fragment needed).
    """
    target = _words(sentence)
    if not target or not cues:
        return None
    own = [len(target & _words(c.text)) for c in cues]
    best_score, best_i = 0.0, -1
    for i, hits in enumerate(own):
        if hits == 0:
            continue
        around = sum(own[i + 1 : i + window])
        score = hits + 0.5 * around
        if score > best_score:
            best_score, best_i = score, i
    if best_i < 0 or own[best_i] + sum(own[best_i + 1 : best_i + window]) < min_overlap:
        return None
    start = cues[best_i].start
    return None if start < 1.0 else float(int(start))


def with_fragment(url: str, start: float | None) -> str:
    """``url`` with ``#t=<seconds>`` (replacing any fragment) when ``start`` is set."""
    if start is None:
        return url
    return url.split("#", 1)[0] + f"#t={int(start)}"


def format_timestamp(seconds: float) -> str:
    """``83.4`` -> ``"1:23"``; ``3725`` -> ``"1:02:05"``."""
    s = max(0, int(seconds))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
