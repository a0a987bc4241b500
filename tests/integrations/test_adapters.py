"""LlamaIndex and LangChain adapters against the real framework packages, on a small real index."""

from __future__ import annotations

from pathlib import Path

import pytest
from small_index import REPO, copy_corpus

import murar

pytestmark = pytest.mark.integration

QUESTION = "How do I copy the server call URL to the clipboard?"
NETWORK = f"{REPO}/help/network.md"
# a text answer as another framework's LLM would write it (no [n] citations, no media)
FOREIGN_ANSWER = ("Open the Network screen, which lists every Experience Cloud solution call made on the page. "
                  "Use the icon at the top of each column to copy the server call URL to your clipboard.")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, adobe_root: Path) -> Path:
    root = tmp_path_factory.mktemp("adapters")
    idx = root / "idx"
    murar.build_index(copy_corpus(adobe_root, root), idx, embedder="hashing")
    return idx


def test_llamaindex_retriever_nodes_carry_media(index: Path) -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core.schema import MetadataMode, NodeWithScore

    from murar.integrations.llamaindex import MurarRetriever

    nodes = MurarRetriever(index, k=3).retrieve("copy the server call URL to your clipboard")
    assert len(nodes) == 3 and all(isinstance(n, NodeWithScore) for n in nodes)
    top = nodes[0]
    assert top.node.metadata["source_path"] == NETWORK and top.score is not None and top.score > 0
    images = [m for m in top.node.metadata["media"] if m["kind"] == "image"]
    assert images and all(Path(m["path"]).is_file() for m in images)
    llm_view = top.node.get_content(metadata_mode=MetadataMode.LLM)
    assert "media" not in llm_view and "Network Information" in llm_view


def test_llamaindex_query_engine_and_postprocessor(index: Path) -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core.base.response.schema import Response

    from murar.integrations.llamaindex import (
        MurarQueryEngine,
        MurarRetriever,
        illustrate_response,
    )

    engine = MurarQueryEngine.from_index(index, llm="extractive")
    response = engine.query(QUESTION)
    answer = response.metadata["murar_answer"]
    assert isinstance(answer, murar.Answer) and answer.media
    assert "![" in response.response and response.source_nodes
    assert response.metadata["media"][0]["type"] == "image"
    # any LlamaIndex response (text + source nodes) -> a multimodal murar answer
    nodes = MurarRetriever(index, k=3).retrieve(QUESTION)
    illustrated = illustrate_response(Response(response=FOREIGN_ANSWER, source_nodes=nodes), index, question=QUESTION)
    assert illustrated.media and "[1]" in illustrated.text
    assert [s.snippet.id for s in illustrated.sources] == [n.node.node_id for n in nodes]


def test_langchain_retriever_and_illustrator(index: Path) -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document
    from langchain_core.runnables import RunnableLambda, RunnablePassthrough

    from murar.integrations.langchain import MurarRetriever, illustrator

    retriever = MurarRetriever.from_index(index, k=3)
    docs = retriever.invoke("copy the server call URL to your clipboard")
    assert len(docs) == 3 and all(isinstance(d, Document) for d in docs)
    assert docs[0].metadata["source_path"] == NETWORK and docs[0].id == docs[0].metadata["snippet_id"]
    assert any(m["kind"] == "image" for m in docs[0].metadata["media"])

    # a usual LCEL RAG chain whose "LLM" is a plain function, then murar as the last step
    chain = (
        {"context": retriever, "question": RunnablePassthrough()}
        | RunnableLambda(lambda x: {**x, "answer": FOREIGN_ANSWER})
        | illustrator(index)
    )
    answer = chain.invoke(QUESTION)
    assert isinstance(answer, murar.Answer) and answer.media
    assert f"{REPO}/help/assets/copy.jpg" in [getattr(b.item, "path", None) for b in answer.media]
    assert "[1]" in answer.text and answer.sources[0].snippet.source_path == NETWORK
    # documents that did not come from murar are matched to the index by their text
    foreign = [Document(page_content=d.page_content) for d in docs]
    matched = illustrator(index).invoke({"answer": FOREIGN_ANSWER, "context": foreign})
    assert [s.snippet.id for s in matched.sources] == [d.id for d in docs]
