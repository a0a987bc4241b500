"""murar where its users already work: an MCP server and framework adapters.

- :mod:`murar.integrations.mcp` — ``murar mcp``, extra ``mcp``.
- :mod:`murar.integrations.llamaindex` — retriever and query engine, extra ``llamaindex``.
- :mod:`murar.integrations.langchain` — retriever, extra ``langchain``.

Each module imports its framework only when used and raises
:class:`murar.errors.MissingExtraError` with the install command when it is missing.
"""
