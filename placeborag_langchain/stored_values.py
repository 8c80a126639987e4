"""What an integration's client does to a batch's values before anything is written.

A real store does not keep the Python objects it is given: its client sends them to a database,
which refuses some and hands others back in another form. Each function here takes an add's
documents and requested ids and returns the documents as the database will hold them, or raises
the error the real integration raises for the batch. `Writes` calls the profile's one
(`IntegrationFacts.stored_values`) before any id is decided, so a refused batch leaves the store
as it was (the real stores write nothing either).

* `postgres_values` (langchain-postgres `PGVector`): PostgreSQL's text columns refuse a NUL
  character in a text or an id, its JSONB column one in a metadata key or str, and JSON has no
  NaN/Infinity (`lc-pgvector-refuses-nul`, `lc-pgvector-refuses-nan`).
* `qdrant_local_values` (langchain-qdrant over qdrant-client's local mode): the payload is
  stored as its JSON round-trip (`lc-qdrant-metadata-json`).
* `chroma_values` (langchain-chroma over chromadb): a NaN or infinite value drops its key, an
  int beyond int64 is stored as a float, a tuple is refused (`lc-chroma-metadata-numbers`).

Facts: `docs/integrations/new_integrations.md#lc-pgvector-refuses-nul`,
`docs/integrations/langchain.md#lc-qdrant-metadata-json`,
`docs/integrations/langchain.md#lc-chroma-metadata-numbers`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from langchain_core.documents import Document
from pydantic_core import to_jsonable_python

from placeborag_core import PROFILES

__all__ = ["StoredValues", "chroma_values", "postgres_values", "qdrant_local_values"]

StoredValues = Callable[[Sequence[Document], Sequence[Any]], list[Document]]
"""(documents, one requested id or None per document) -> the documents as stored."""


def validate_metadata(metadata: Mapping[str, Any]) -> None:
    """chromadb's own check of one record's metadata: the chroma profile's rule."""
    rule = PROFILES["chroma"].metadata_rule
    if rule is not None:
        rule(metadata)


# psycopg refuses a NUL while it encodes the statement's text parameters (the id and the
# document of every row), before PostgreSQL sees any row: sqlalchemy.exc.DataError.
_TEXT_NUL = "(psycopg.DataError) PostgreSQL text fields cannot contain NUL (0x00) bytes"
# PostgreSQL then parses each row's JSONB parameter in row order: its first refused token.
_JSON_NUL = (
    "(psycopg.errors.UntranslatableCharacter) unsupported Unicode escape sequence\n"
    "DETAIL:  \\u0000 cannot be converted to text."
)
_JSON_TOKEN = (
    "(psycopg.errors.InvalidTextRepresentation) invalid input syntax for type json\n"
    'DETAIL:  Token "{token}" is invalid.'
)


def _json_refusal(value: Any) -> str | None:
    """PostgreSQL's message for the first value of `value` (in `json.dumps` order) its JSON
    input refuses: a str or key holding NUL, a NaN or infinite float (a Python or numpy one: the
    core stores a numpy float as a Python float); None when it takes all."""
    if isinstance(value, str):
        return _JSON_NUL if "\x00" in value else None
    if isinstance(value, float | np.floating) and not math.isfinite(value):
        # json.dumps writes these as NaN / Infinity / -Infinity, tokens JSON does not have
        token = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        return _JSON_TOKEN.format(token=token)
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = _json_refusal(key) or _json_refusal(item)
            if found:
                return found
    elif isinstance(value, list | tuple):
        for item in value:
            found = _json_refusal(item)
            if found:
                return found
    return None


def postgres_values(documents: Sequence[Document], ids: Sequence[Any]) -> list[Document]:
    """langchain-postgres's batch through psycopg and PostgreSQL: the documents unchanged, or
    ValueError with the real message (the real integration raises `sqlalchemy.exc.DataError`,
    a type that needs SQLAlchemy, so this raises ValueError as the profile's other database
    errors do).

    A NUL character in any text or str id is refused first (psycopg, client side); then each
    row's metadata in row order: a NUL in a key or str value, or a NaN/Infinity float (numpy
    floats included).
    """
    for text, requested in zip((d.page_content for d in documents), ids, strict=True):
        if "\x00" in text or (isinstance(requested, str) and "\x00" in requested):
            raise ValueError(_TEXT_NUL)
    for doc in documents:
        refused = _json_refusal(doc.metadata)
        if refused:
            raise ValueError(refused)
    return list(documents)


def _each_metadata(
    documents: Sequence[Document], stored: Callable[[Any], dict[Any, Any]]
) -> list[Document]:
    """The documents with their non-empty metadata replaced by ``stored(metadata)``."""
    return [
        doc
        if not doc.metadata
        else Document(page_content=doc.page_content, metadata=stored(doc.metadata), id=doc.id)
        for doc in documents
    ]


def _qdrant_payload(metadata: Any) -> Any:
    # qdrant_client/local/local_collection.py `to_jsonable_python` (qdrant-client 1.x):
    # a JSON round-trip, pydantic's JSON mode for what json cannot write.
    try:
        return json.loads(json.dumps(metadata, allow_nan=True))
    except Exception:  # the real client catches everything here too
        return json.loads(json.dumps(metadata, allow_nan=True, default=to_jsonable_python))


def qdrant_local_values(documents: Sequence[Document], ids: Sequence[Any]) -> list[Document]:
    """qdrant-client's local mode (`location=":memory:"` or a path) stores each payload as its
    JSON round-trip, so the metadata comes back as JSON: `datetime`/`date` as ISO strings,
    tuples and sets as lists, int/float/bool/None keys as str, numpy floats as floats, bytes
    as str. A value pydantic cannot write (a numpy int) raises its
    `PydanticSerializationError`, and a key json cannot write its `TypeError`, as the real
    client does. `ids` are not used."""
    del ids
    return _each_metadata(documents, _qdrant_payload)


_INT64 = range(-(2**63), 2**63)


def _chroma_number(value: Any) -> Any:
    # chromadb's Rust side keeps an int only within int64; beyond it, a float
    if isinstance(value, int) and not isinstance(value, bool) and value not in _INT64:
        return float(value)
    return value


def _chroma_metadata(metadata: Mapping[Any, Any]) -> dict[Any, Any]:
    kept: dict[Any, Any] = {}
    for key, value in metadata.items():
        if isinstance(value, tuple):
            validate_metadata({key: None})  # chromadb checks the key first
            raise ValueError(
                "Expected metadata value to be a str, int, float, bool, SparseVector, list, or "
                f"None, got {value} which is a tuple in upsert."
            )
        validate_metadata({key: value})  # the engine's refusals, in chromadb's key order
        if isinstance(value, float) and not math.isfinite(value):
            continue  # stored without the key
        if isinstance(value, list) and any(_chroma_number(v) is not v for v in value):
            kept[key] = [float(v) for v in value]  # the whole list becomes floats
        else:
            kept[key] = _chroma_number(value)
    return kept


def chroma_values(documents: Sequence[Document], ids: Sequence[Any]) -> list[Document]:
    """chromadb's upsert as langchain-chroma runs it: each metadata in record order, each key in
    order: a tuple value raises chromadb's ValueError (its value shown with `str()`; the engine
    turns a tuple into a list, which chromadb does not); a NaN or infinite float drops its key;
    an int outside int64 (alone, or in a list of ints, which then becomes all floats) is
    stored as a float. A list holding NaN is stored as given (chromadb raises an
    `InvalidArgumentError` from its log store there, not imitated). `ids` are not used."""
    del ids
    return _each_metadata(documents, _chroma_metadata)
