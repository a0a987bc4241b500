"""Markup converters added for docs-site generators (one module per syntax).

Each converter turns one page into a :class:`murar.schema.ParsedDocument` and asks
a :class:`murar.ingest.sites.base.Site` for every path question (assets,
includes); it never guesses where a file lives.
"""
