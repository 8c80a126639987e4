"""pgvector (PostgreSQL), one engine in five small modules: ``profile`` (the :class:`Profile`),
``scores`` (the measured build's float32 sums, bit for bit), ``ties`` (PostgreSQL's tuplesort),
``jsonb`` (JSONB conditions with SQL's three-valued logic) and ``filters`` (the profile's
``where=`` dialect).

The package exports the conditions the integrations translate their filters into, with
PostgreSQL's semantics: SQL/JSON path comparisons and key tests over a JSONB column with SQL's
three-valued ``AND``/``OR``/``NOT`` (``jsonb``: langchain-postgres), and comparisons of the text
``meta->>'key'`` (``sqltext``: llama-index's ``PGVectorStore``)."""

from placeborag_core.backends.pgvector.jsonb import (
    KeyExists,
    PathCompare,
    TextIn,
    TextLike,
    TriAll,
    TriAny,
    TriNot,
)
from placeborag_core.backends.pgvector.sqltext import (
    Column,
    FloatCast,
    JsonbContainsText,
    JsonbHasKeys,
    QualList,
    SqlComparison,
    TextCompare,
    TextInList,
    TextIsNull,
    TextPattern,
)

__all__ = [
    "Column",
    "FloatCast",
    "JsonbContainsText",
    "JsonbHasKeys",
    "KeyExists",
    "PathCompare",
    "QualList",
    "SqlComparison",
    "TextCompare",
    "TextIn",
    "TextInList",
    "TextIsNull",
    "TextLike",
    "TextPattern",
    "TriAll",
    "TriAny",
    "TriNot",
]
