"""Reads by id: `get_by_ids`, and Chroma's raw `get` (offered under every profile).

`get_by_ids` returns request order with repeated ids repeated (Qdrant, FAISS) or the store's
listing order (Chroma, which also refuses a repeated id and an empty list); missing ids are
skipped. Facts: `docs/integrations/langchain.md#lc-chroma-get-by-ids-order`,
`#lc-qdrant-get-by-ids`, `#lc-faiss-get-by-ids`. `get` is `chroma_get.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from langchain_core.documents import Document

from placeborag_core import FakeVectorStore
from placeborag_langchain.arguments import checked_namespace
from placeborag_langchain.chroma_get import chroma_get
from placeborag_langchain.filters import StoreFilters
from placeborag_langchain.ids import DocumentIds

__all__ = ["Reads"]


class Reads:
    """The reads by id of one store over its core store, as its integration runs them."""

    def __init__(
        self,
        core: FakeVectorStore,
        ids: DocumentIds,
        filters: StoreFilters,
        guard: Callable[[], None],
    ) -> None:
        self._guard = guard
        self._core = core
        self._ids = ids
        self._filters = filters

    def by_ids(self, ids: Sequence[Any], namespace: str) -> list[Document]:
        """The Documents of `ids` that exist, in the integration's order."""
        self._guard()
        refused = self._ids.facts.get_by_ids_error
        if refused is not None:
            error, message = refused
            raise error(message)
        if isinstance(ids, str | bytes | Mapping) or not isinstance(ids, Iterable):
            raise TypeError(f"get_by_ids() ids must be a list of ids, got {type(ids).__name__}")
        checked_namespace(namespace)
        core_ids = self._ids.for_get(list(ids))
        if self._ids.facts.get_order == "storage":
            wanted = set(core_ids)
            core_ids = [i for i in self._core.ids(namespace) if i in wanted]
        document = self._filters.document
        docs = []
        for core_id in core_ids:
            record = self._core.get(core_id, namespace=namespace)
            if record is not None and record.text is not None:
                docs.append(document(record.id, record.text, record.metadata))
        return docs

    def get(  # noqa: PLR0917 - langchain_chroma.Chroma.get's signature
        self,
        ids: Any,
        where: Any,
        limit: Any,
        offset: Any,
        where_document: Any,
        include: Any,
        namespace: str,
    ) -> dict[str, Any]:
        """Chroma's `get`; `where` is a metadata filter in the integration's format."""
        self._guard()
        checked_namespace(namespace)
        translated = self._filters.translate(where, "metadata")
        if translated.ids is not None:
            raise TypeError("get(where=...) takes metadata filters only")
        return chroma_get(
            self._core,
            namespace,
            ids=ids,
            where=self._filters.where(translated),
            where_document=where_document,
            limit=limit,
            offset=offset,
            include=include,
            check_ids=self._ids.for_get,
        )
