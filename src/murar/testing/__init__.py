"""Helpers for testing murar and the code built on it (fuzzing harness: :mod:`murar.testing.fuzz`)."""
