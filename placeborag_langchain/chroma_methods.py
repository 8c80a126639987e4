"""`langchain_chroma.Chroma`'s own methods, offered under every profile.

The collection's life (`delete_collection`, `reset_collection`, `fork`), updates in place
(`update_document(s)`), Chroma's raw read (`get`) and its two searches that other stores do not
have (`similarity_search_with_vectors`, `similarity_search_by_vector_with_relevance_scores`),
each with Chroma's signature, return type and errors
(`docs/integrations/langchain-parity.md`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from langchain_core.documents import Document

from placeborag_langchain.persistence import decode_state, encode_state
from placeborag_langchain.persistence_methods import PersistenceMethods
from placeborag_langchain.writes import checked_documents

if TYPE_CHECKING:
    from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = ["ChromaMethods"]


class ChromaMethods(PersistenceMethods):
    """Chroma's collection handling, updates, raw read and extra searches (a `fork` is a
    saved-and-restored copy, hence the base)."""

    def get(  # noqa: PLR0917 - langchain_chroma.Chroma.get's signature
        self,
        ids: str | list[str] | None = None,
        where: Any = None,
        limit: int | None = None,
        offset: int | None = None,
        where_document: Any = None,
        include: list[str] | None = None,
        *,
        namespace: str | None = None,
    ) -> dict[str, Any]:
        """Chroma's raw read (`langchain_chroma.Chroma.get`): a dict of parallel lists.

        Storage order, filtered by `ids`, `where` and `where_document`, then `offset` and
        `limit`; `include` picks among "documents", "metadatas" (the default pair) and
        "embeddings" (a float64 numpy array). Offered under every profile, with Chroma's
        conventions and messages (see `chroma_get.py`).
        """
        ns = self._namespace if namespace is None else namespace
        return self._reads.get(ids, where, limit, offset, where_document, include, ns)

    def delete_collection(self) -> None:
        """Delete the collection (Chroma): its records go, and every later call raises
        Chroma's ValueError until `reset_collection()`. A second `delete_collection()` raises
        it too, as Chroma's does (PGVector's returns: `repeat_delete_collection_raises`)."""
        if self._guard.deleted and not self._facts.repeat_delete_collection_raises:
            return
        self._guard.check()
        self._drop_records()
        self._guard.deleted = True

    def reset_collection(self) -> None:
        """Delete the collection and create an empty one (Chroma). It calls
        `delete_collection()` first, so after a delete it raises, exactly as Chroma's does
        (`docs/integrations/langchain.md#lc-chroma-delete-collection`)."""
        self.delete_collection()
        self._guard.deleted = False

    def _drop_records(self) -> None:
        core, ns = self._store, self._namespace
        ids = core.ids(ns)
        if ids:
            core.delete(ids, namespace=ns)

    def fork(self, new_name: str) -> PlaceboVectorStore:
        """A copy of this store under `new_name` (Chroma's `fork`): the same records, ids and
        options; later writes to either do not reach the other."""
        self._guard.check()
        if not isinstance(new_name, str) or not new_name:
            raise TypeError(f"new_name must be a non-empty str, got {new_name!r}")
        data = encode_state(self._state())
        state = decode_state(data, "fork()")
        return self._restored(state, self._embedding, "fork()", {"collection_name": new_name})

    def update_document(self, document_id: str, document: Document) -> None:
        """Update one document (Chroma): `update_documents([document_id], [document])`."""
        return self.update_documents([document_id], [document])

    def update_documents(self, ids: list[str], documents: list[Document]) -> None:
        """Replace the text, vector and metadata of existing documents (Chroma's
        `update_documents`): metadata is merged under the chroma profile (Chroma's update
        merges, and a None value removes the key), ids that do not exist are ignored, and the
        arguments are checked with Chroma's messages (a Document without metadata is refused,
        as Chroma refuses an empty metadata dict). Nothing is written if anything is refused."""
        docs = checked_documents(documents, "update_documents")
        vectors = None
        if self._search_embeds():
            texts = [doc.page_content for doc in docs]
            vectors = self._embedding.embed_documents(texts) if texts else []
            vectors = list(vectors)
        self._writes.update(ids, docs, vectors or None, self._namespace)

    def _search_embeds(self) -> bool:
        from placeborag_langchain.embeddings import core_embedder_of

        return core_embedder_of(self._embedding) is None

    def similarity_search_with_vectors(
        self,
        query: str,
        k: int = 4,
        filter: Any = None,
        where_document: Any = None,
        **kwargs: Any,
    ) -> list[tuple[Document, npt.NDArray[np.float64]]]:
        """Chroma's search returning each document's stored vector (a float64 numpy array)
        instead of a score."""
        if where_document is not None:
            kwargs["where_document"] = where_document
        vector = self._search.text_query(query)
        matches = self._search.query(vector, k, filter, kwargs, "similarity_search_with_vectors")
        pairs = self._search.pairs(matches)
        out = []
        for (doc, _), match in zip(pairs, matches, strict=True):
            record = self._store.get(match.id, namespace=kwargs.get("namespace", self._namespace))
            stored = record.vector if record is not None else None
            out.append((doc, np.asarray(stored, dtype=np.float64)))
        return out

    def similarity_search_by_vector_with_relevance_scores(
        self,
        embedding: list[float],
        k: int = 4,
        filter: Any = None,
        where_document: Any = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """Chroma's search by vector with scores. Despite its name, the score is the one
        `similarity_search_with_score` reports (Chroma: the distance), not a relevance
        (`docs/integrations/langchain.md#lc-chroma-by-vector-relevance`)."""
        if where_document is not None:
            kwargs["where_document"] = where_document
        return self.similarity_search_with_score_by_vector(embedding, k, filter, **kwargs)
