"""LanceDB (OSS, embedded), one engine in five modules: ``profile`` (the :class:`Profile`),
``arrow`` (Arrow types as pyarrow infers and casts them), ``columns`` (a table's schema, fixed by
its first write), ``filters`` (the native SQL filter reader and the dict dialect) and ``sql``
(lexer, parser and planner of the filter language). Facts: ``docs/engines/lancedb.md``.

The package exports what the integrations build on: the typed-column rule of a table
(:class:`LanceColumns`, whose ``layout="struct"`` is the integrations' one metadata column) and
the readers of LanceDB's SQL filter strings for a vector search, a search without a vector and a
delete (their errors name the columns as each statement does)."""

from placeborag_core.backends.lancedb.columns import LanceColumns
from placeborag_core.backends.lancedb.filters import (
    read_lancedb_delete_where,
    read_lancedb_plain_where,
    read_lancedb_where,
)

__all__ = [
    "LanceColumns",
    "read_lancedb_delete_where",
    "read_lancedb_plain_where",
    "read_lancedb_where",
]
