"""Errors raised by :mod:`murar.eval`.

All derive from :class:`murar.errors.MurarError`::

    MurarError
    └── EvalError                  an evaluation could not be computed
        ├── EvalDataError          an evaluation file is missing or malformed (names the file)
        ├── JudgeError             a support judge failed or answered unusably
        └── RatingsError           a filled human-rating sheet is invalid (names row and column)
"""

from __future__ import annotations

from murar.errors import MurarError


class EvalError(MurarError):
    """An evaluation could not be computed."""


class EvalDataError(EvalError):
    """An evaluation input (questions, predictions, MiRAGE release file) is missing or malformed."""


class JudgeError(EvalError):
    """A support judge failed (model error, unusable cache file)."""


class RatingsError(EvalError):
    """A filled human-rating sheet is invalid."""


__all__ = ["EvalDataError", "EvalError", "JudgeError", "RatingsError"]
