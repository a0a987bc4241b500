"""Evaluation of multimodal answers.

- MiRAGE (seed 002): :mod:`~murar.eval.claims` (sentences, subclaims),
  :mod:`~murar.eval.judge` (support judges, cache), :mod:`~murar.eval.mirage`
  (InfoP/InfoR/InfoF1, CiteP/CiteR/CiteF1 arithmetic), :mod:`~murar.eval.scorer`
  (reference and collection modes), :mod:`~murar.eval.mirage_data` and
  :mod:`~murar.eval.conformance` (the public WikiVideo release, human scores,
  judge agreement).
- Media and retrieval metrics against gold: :mod:`~murar.eval.media_metrics`,
  :mod:`~murar.eval.retrieval_metrics`.
- MuRAR human evaluation (seed 000, section 5): :mod:`~murar.eval.human`.
- Runs and reports: :mod:`~murar.eval.run`, :mod:`~murar.eval.report`.

Heavy modules (scikit-learn, krippendorff, matplotlib) are imported inside the
functions that need them.
"""

from murar.eval.claims import (
    ClaimedAnswer,
    ClaimedSentence,
    LLMDecomposer,
    SentenceDecomposer,
    split_sentences,
)
from murar.eval.errors import EvalDataError, EvalError, JudgeError, RatingsError
from murar.eval.judge import (
    CachedJudge,
    EmbeddingJudge,
    Judgment,
    LLMJudge,
    SupportJudge,
)
from murar.eval.mirage import PRF, MacroPRF, macro_average, prf
from murar.eval.scorer import MirageResult, MirageScorer, Reference, Source

__all__ = [
    "PRF",
    "CachedJudge",
    "ClaimedAnswer",
    "ClaimedSentence",
    "EmbeddingJudge",
    "EvalDataError",
    "EvalError",
    "JudgeError",
    "Judgment",
    "LLMDecomposer",
    "LLMJudge",
    "MacroPRF",
    "MirageResult",
    "MirageScorer",
    "RatingsError",
    "Reference",
    "SentenceDecomposer",
    "Source",
    "SupportJudge",
    "macro_average",
    "prf",
    "split_sentences",
]
