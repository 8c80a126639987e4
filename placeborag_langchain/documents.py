"""Build LangChain `Document`s from core results, in the shape the real integration returns."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from langchain_core.documents import Document

if TYPE_CHECKING:
    from placeborag_langchain.integration_facts import IntegrationFacts

__all__ = ["to_document"]


def to_document(  # noqa: PLR0917 - one record's parts and where it is shown
    facts: IntegrationFacts,
    external_id: Callable[[str], object],
    record_id: str,
    text: str | None,
    metadata: Mapping[str, Any],
    collection_name: str,
    id_key: str | None = None,
) -> Document:
    """A fresh `Document` for one stored record or match.

    Chroma and FAISS set `Document.id`; Qdrant leaves it None and reports the point id in
    `metadata['_id']` (as the engine reports it: `external_id`, the profile's
    `IdRule.external`) next to `metadata['_collection_name']`
    (`docs/integrations/langchain.md#lc-qdrant-document`); langchain-milvus leaves it None and
    reports its primary key under `id_key` (`pk`, or the store's `primary_field`:
    `docs/integrations/new_integrations.md`, `lc-milvus-document-id-none-pk-in-metadata`). An
    orphaned id (no text: the index
    still has it, the document table does not) either raises the integration's own error
    (FAISS's docstore miss, `#lc-faiss-orphan`) or comes back with empty content.
    """
    if text is None:
        if facts.orphan_error is not None:
            raise ValueError(facts.orphan_error.format(id=record_id))
        text = ""
    meta = dict(metadata)
    if facts.metadata_extras:
        meta["_id"] = external_id(record_id)
        meta["_collection_name"] = collection_name
    if id_key is not None:
        meta[id_key] = external_id(record_id)
    return Document(page_content=text, metadata=meta, id=record_id if facts.document_id else None)
