"""murar: multimodal answers over documentation, and their evaluation.

Implements MuRAR (multimodal retrieval and answer refinement), context-aware
captions with answer-based image selection, and the MiRAGE metrics.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
