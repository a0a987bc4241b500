"""LangChain adapters over a murar index (extra ``langchain``: ``pip install 'murar[langchain]'``).

- :class:`MurarRetriever` — a LangChain retriever (a Runnable): one
  ``Document`` per murar snippet, ``metadata`` holding page, section, source
  path, cosine ``score`` and ``media`` (the images/tables/videos of the
  snippet's section, local image paths included).
- :func:`illustrator` — a Runnable that turns ``{"answer", "context",
  "question"}`` (the output of a usual RAG chain) into a :class:`murar.Answer`:
  murar's attribution, media selection and placement as the last step of any chain.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from murar.errors import MissingExtraError
from murar.integrations._common import as_assistant

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnableLambda
except ImportError as err:  # pragma: no cover - exercised by the missing-extra test in a subprocess
    raise MissingExtraError("langchain-core", "langchain") from err

if TYPE_CHECKING:
    from murar.api.answer import Answer
    from murar.api.assistant import Assistant, SearchHit


def hit_to_document(hit: SearchHit) -> Document:
    """A murar search hit as a LangChain ``Document`` (id = snippet id)."""
    return Document(page_content=hit.text, metadata=dict(hit.metadata), id=hit.snippet.id)


class MurarRetriever(BaseRetriever):
    """Retrieves the ``k`` murar snippets most similar to the query (cosine, best first).

    Build it with :meth:`from_index` (an index folder, opened without a model)
    or ``MurarRetriever(assistant=murar.Assistant(...), k=5)``.
    """

    assistant: Any
    k: int = 5

    @classmethod
    def from_index(cls, index: Assistant | str | os.PathLike[str], *, k: int = 5) -> MurarRetriever:
        return cls(assistant=as_assistant(index), k=k)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return [hit_to_document(h) for h in self.assistant.search(query, self.k)]


def illustrate(answer: str, index: Assistant | str | os.PathLike[str], *, context: list[Any] | None = None,
               question: str = "") -> Answer:
    """Turn a LangChain text answer and the documents it was written from into a
    :class:`murar.Answer` (documents from :class:`MurarRetriever` map to their
    snippets exactly; others are matched to their nearest murar snippet)."""
    return as_assistant(index).illustrate(answer, sources=context, question=question)


def illustrator(index: Assistant | str | os.PathLike[str]) -> RunnableLambda[dict[str, Any], Answer]:
    """A Runnable mapping ``{"answer": str, "context": [Document], "question": str}``
    (``context`` and ``question`` optional) to a :class:`murar.Answer`."""
    assistant = as_assistant(index)

    def run(inputs: dict[str, Any]) -> Answer:
        return illustrate(str(inputs["answer"]), assistant, context=inputs.get("context"),
                          question=str(inputs.get("question", "")))

    return RunnableLambda(run, name="murar_illustrate")


__all__ = ["MurarRetriever", "hit_to_document", "illustrate", "illustrator"]
