"""Errors raised by :mod:`murar.eval`.

All derive from :class:`murar.errors.MurarError`::

    MurarError
    └── EvalError                  an evaluation could not be computed
        ├── EvalDataError          an evaluation file is missing or malformed (names the file)
        ├── JudgeError             a support judge failed or answered unusably
        └── RatingsError           a filled human-rating sheet is invalid (names row and column)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from murar.errors import MurarError


class EvalError(MurarError):
    """An evaluation could not be computed."""


class EvalDataError(EvalError):
    """An evaluation input (questions, predictions, MiRAGE release file) is missing or malformed."""


class JudgeError(EvalError):
    """A support judge failed (model error, unusable cache file)."""


class RatingsError(EvalError):
    """A filled human-rating sheet is invalid."""


def json_object_lines(path: Path, what: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-blank line of the JSON-lines file ``path``
    (1-based numbers); ``what`` names one record in messages ("question", "prediction").

    Raises:
        EvalDataError: the file cannot be read or is not UTF-8; a line is not JSON or
            not a JSON object (``"{path} line {n}: malformed {what} (...)"``, the form the
            callers use for their own field errors).
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise EvalDataError(f"cannot read {what}s file {path}: {err}") from err
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except json.JSONDecodeError as err:
            raise EvalDataError(f"{path} line {n}: malformed {what} ({err})") from err
        if not isinstance(r, dict):
            raise EvalDataError(f"{path} line {n}: malformed {what} (a JSON object is expected, "
                                f"not {type(r).__name__})")
        yield n, r


__all__ = ["EvalDataError", "EvalError", "JudgeError", "RatingsError", "json_object_lines"]
