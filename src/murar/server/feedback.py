"""Thumbs up/down on answers, appended to a JSONL file for later evaluation.

Each line of ``feedback.jsonl`` is one JSON object: ``time`` (UTC, ISO 8601),
``answer_id``, ``rating`` (``up``/``down``), ``comment``, and, when the server
still holds the answer, ``question``, ``answer_text``, ``markdown``,
``media`` (ids, kinds, scores) and ``sources`` (citation, snippet id, score).
"""

from __future__ import annotations

import json
import tempfile
import threading
from collections import OrderedDict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from murar.errors import ConfigError

FEEDBACK_FILE = "feedback.jsonl"


class RecentAnswers:
    """A bounded, thread-safe map answer id -> summary of the answer (LRU)."""

    def __init__(self, capacity: int) -> None:
        self._capacity = max(0, capacity)
        self._items: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, answer_id: str, summary: dict[str, Any]) -> None:
        if self._capacity == 0:
            return
        with self._lock:
            self._items[answer_id] = summary
            self._items.move_to_end(answer_id)
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)

    def get(self, answer_id: str) -> dict[str, Any] | None:
        with self._lock:
            return self._items.get(answer_id)


def answer_summary(payload: dict[str, Any]) -> dict[str, Any]:
    """What feedback stores about an answer, from its API JSON."""
    return {
        "question": payload["question"],
        "found": payload["found"],
        "answer_text": payload["text"],
        "markdown": payload["markdown"],
        "media": [
            {
                "id": b["item"]["id"],
                "kind": b["type"],
                "score": b["score"],
                "source_path": b["item"].get("source_path"),
            }
            for b in payload["blocks"]
            if b["type"] != "text"
        ],
        "sources": [
            {
                "citation": s["citation"],
                "snippet_id": s["snippet"]["id"],
                "score": s["score"],
                "source_path": s["snippet"]["source_path"],
            }
            for s in payload["sources"]
        ],
    }


class FeedbackStore:
    """Appends feedback records to ``<directory>/feedback.jsonl``.

    ``directory=None`` uses a temporary folder made on the first write. The
    folder is created when missing.

    Raises:
        ConfigError: (on :meth:`append`) when the folder cannot be created or written.
    """

    def __init__(self, directory: Path | None) -> None:
        self._directory = directory
        self._lock = threading.Lock()

    @property
    def path(self) -> Path | None:
        """The JSONL file, or ``None`` before the first write to a temporary folder."""
        return None if self._directory is None else self._directory / FEEDBACK_FILE

    def append(self, record: dict[str, Any]) -> Path:
        """Write one record (adds ``time``); returns the file written."""
        line = json.dumps(
            {"time": datetime.now(UTC).isoformat(timespec="seconds"), **record},
            ensure_ascii=False,
        )
        with self._lock:
            if self._directory is None:
                self._directory = Path(tempfile.mkdtemp(prefix="murar-feedback-"))
            try:
                self._directory.mkdir(parents=True, exist_ok=True)
                path = self._directory / FEEDBACK_FILE
                with path.open("a", encoding="utf-8") as fh:
                    fh.write(line + "\n")
            except OSError as err:
                raise ConfigError(
                    f"cannot write feedback to {self._directory}: {err}; "
                    "pass a writable folder with --feedback-dir"
                ) from err
        return path
