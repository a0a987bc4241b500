"""LlamaIndex adapters over a murar index (extra ``llamaindex``: ``pip install 'murar[llamaindex]'``).

- :class:`MurarRetriever` — a LlamaIndex retriever: ``NodeWithScore`` per murar
  snippet (cosine score), the node's ``metadata`` holding page, section, source
  path and ``media`` (the images/tables/videos of the snippet's section, local
  image paths included). Plug it into any LlamaIndex query engine.
- :class:`MurarQueryEngine` — a query engine that answers with the whole MuRAR
  pipeline; ``response.response`` is the Markdown answer and
  ``response.metadata["murar_answer"]`` the :class:`murar.Answer`.
- :func:`illustrate_response` — murar's attribution, media selection and
  placement as a post-processor for any LlamaIndex ``Response``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from murar.errors import MissingExtraError
from murar.integrations._common import LLM_HIDDEN_KEYS, as_assistant

try:
    from llama_index.core.base.response.schema import Response
    from llama_index.core.query_engine import CustomQueryEngine
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as err:  # pragma: no cover - exercised by the missing-extra test in a subprocess
    raise MissingExtraError("llama-index-core", "llamaindex") from err

if TYPE_CHECKING:
    from murar.api.answer import Answer
    from murar.api.assistant import Assistant, SearchHit


def hit_to_node(hit: SearchHit) -> NodeWithScore:
    """A murar search hit as a LlamaIndex ``NodeWithScore`` (node id = snippet id)."""
    node = TextNode(id_=hit.snippet.id, text=hit.text, metadata=dict(hit.metadata),
                    excluded_llm_metadata_keys=list(LLM_HIDDEN_KEYS),
                    excluded_embed_metadata_keys=list(LLM_HIDDEN_KEYS))
    return NodeWithScore(node=node, score=hit.score)


class MurarRetriever(BaseRetriever):
    """Retrieves the ``k`` murar snippets most similar to the query (cosine, best first).

    ``index``: a :class:`murar.Assistant` or an index folder (opened with the
    extractive generator: retrieval needs no model).
    """

    def __init__(self, index: Assistant | str | os.PathLike[str], *, k: int = 5, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._assistant = as_assistant(index)
        self._k = k

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [hit_to_node(h) for h in self._assistant.search(query_bundle.query_str, self._k)]


class MurarQueryEngine(CustomQueryEngine):
    """Answers with murar's multimodal pipeline inside LlamaIndex.

    ``response.response``: the answer as Markdown (images as links relative to
    the current folder); ``response.source_nodes``: the retrieved snippets;
    ``response.metadata``: ``murar_answer`` (:class:`murar.Answer`) and
    ``media`` (the placed media, JSON-ready).
    """

    assistant: Any

    @classmethod
    def from_index(cls, index: Assistant | str | os.PathLike[str], **assistant_options: Any) -> MurarQueryEngine:
        """A query engine over an index folder (``assistant_options`` go to :class:`murar.Assistant`)."""
        from murar.api.assistant import Assistant

        if isinstance(index, Assistant):
            return cls(assistant=index)
        return cls(assistant=Assistant(index, **assistant_options))

    def custom_query(self, query_str: str) -> Response:
        answer: Answer = self.assistant.ask(query_str)
        return answer_to_response(answer)


def answer_to_response(answer: Answer) -> Response:
    """A :class:`murar.Answer` as a LlamaIndex ``Response``."""
    from murar.schema import to_jsonable

    nodes = [NodeWithScore(node=TextNode(id_=s.snippet.id, text=s.snippet.text,
                                         metadata={"snippet_id": s.snippet.id, "source_path": s.snippet.source_path,
                                                   "page_title": s.snippet.page_title, "citation": s.citation}),
                           score=s.score) for s in answer.sources]
    media = [to_jsonable(b) for b in answer.media]
    return Response(response=answer.markdown(), source_nodes=nodes,
                    metadata={"murar_answer": answer, "media": media})


def illustrate_response(response: Any, index: Assistant | str | os.PathLike[str], *, question: str = "") -> Answer:
    """Turn a LlamaIndex ``Response`` (its text and ``source_nodes``) into a
    :class:`murar.Answer` with the documentation's media placed after the
    sentences they illustrate. Nodes from :class:`MurarRetriever` map to their
    snippets exactly; other nodes are matched to their nearest murar snippet.
    """
    text = str(getattr(response, "response", None) or response)
    sources = list(getattr(response, "source_nodes", None) or []) or None
    return as_assistant(index).illustrate(text, sources=sources, question=question)


__all__ = ["MurarQueryEngine", "MurarRetriever", "answer_to_response", "hit_to_node", "illustrate_response"]
