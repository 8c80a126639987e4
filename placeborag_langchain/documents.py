"""Build LangChain `Document`s from core results, in the shape the real integration returns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.documents import Document

from placeborag_langchain.ids import external_qdrant_id
from placeborag_langchain.integrations import IntegrationFacts

__all__ = ["to_document"]


def to_document(
    facts: IntegrationFacts,
    record_id: str,
    text: str | None,
    metadata: Mapping[str, Any],
    collection_name: str,
) -> Document:
    """A fresh `Document` for one stored record or match.

    Chroma and FAISS set `Document.id`; Qdrant leaves it None and reports the point id in
    `metadata['_id']` (int or dashed UUID) next to `metadata['_collection_name']`. An orphaned
    id (no text: the index still has it, the document table does not) either raises the
    integration's own error (FAISS's docstore miss) or comes back with empty content.
    """
    if text is None:
        if facts.orphan_error is not None:
            raise ValueError(facts.orphan_error.format(id=record_id))
        text = ""
    meta = dict(metadata)
    if facts.metadata_extras:
        meta["_id"] = external_qdrant_id(record_id)
        meta["_collection_name"] = collection_name
    return Document(page_content=text, metadata=meta, id=record_id if facts.document_id else None)
