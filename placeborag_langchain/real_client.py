"""What only a real client, server or index has: refused with `NeedsRealClientError`.

Chroma's and Qdrant's `client`, Chroma's `_collection`, images and hybrid search, FAISS's
`index` and `docstore`, Qdrant's sparse embeddings: the store offers each name with the real
signature and raises an error naming it and what to use instead, a NotImplementedError that is
also an AttributeError (so `hasattr` is False, as for a missing attribute).
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

from placeborag_langchain.store_parts import StoreParts

__all__ = ["NeedsRealClientError", "RealClientOnly"]


class NeedsRealClientError(NotImplementedError, AttributeError):
    """What only a real client, server or index has (`client`, `_collection`, `index`, ...)."""


def _needs(what: str, instead: str) -> NeedsRealClientError:
    return NeedsRealClientError(
        f"{what} needs a real client, server or index, which placeborag does not imitate; {instead}"
    )


class RealClientOnly(StoreParts):
    """The real classes' members that need a client, server or index (see the module
    docstring)."""

    @property
    def client(self) -> Any:
        """Chroma's and Qdrant's client: NotImplementedError (no client exists)."""
        raise _needs("client", "use the store's own methods, or store.core_store")

    @property
    def _client(self) -> Any:
        raise _needs("_client", "use the store's own methods, or store.core_store")

    @property
    def _collection(self) -> Any:
        """Chroma's collection object: NotImplementedError (use `get`, `delete`, ...)."""
        raise _needs("_collection (Chroma's collection)", "use get(), delete() and the searches")

    @property
    def index(self) -> Any:
        """FAISS's index: NotImplementedError (use `store.core_store`)."""
        raise _needs("index (the faiss index)", "use the searches, or store.core_store")

    @property
    def docstore(self) -> Any:
        """FAISS's docstore: NotImplementedError (use `get_by_ids`)."""
        raise _needs("docstore (FAISS's docstore)", "use get_by_ids()")

    @property
    def index_to_docstore_id(self) -> Any:
        """FAISS's position -> id map: NotImplementedError (use `store.core_store.ids()`)."""
        raise _needs("index_to_docstore_id", "use store.core_store.ids()")

    @property
    def sparse_embeddings(self) -> Any:
        """Qdrant's sparse embeddings: there are none (dense retrieval only), so its error."""
        raise ValueError(
            "Sparse embeddings are `None`. Please set using the `sparse_embedding` parameter."
        )

    @staticmethod
    def encode_image(uri: str) -> str:
        """Chroma's helper: the file at `uri` as base64 text."""
        return base64.b64encode(Path(uri).read_bytes()).decode("utf-8")

    def hybrid_search(self, search: Any) -> list[Document]:
        """Chroma's hybrid search: NotImplementedError (needs Chroma's Search and sparse
        vectors)."""
        raise _needs("hybrid_search (Chroma's Search API)", "use the similarity searches")

    def add_images(
        self, uris: list[str], metadatas: list[dict[Any, Any]] | None = None, ids: Any = None
    ) -> list[str]:
        """Chroma's image adds: NotImplementedError (no image embedding is imitated)."""
        raise _needs("add_images (an image embedding function)", "add texts instead")

    def similarity_search_by_image(
        self, uri: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[Document]:
        """Chroma's image search: NotImplementedError."""
        raise _needs("similarity_search_by_image (an image embedding function)", "search text")

    def similarity_search_by_image_with_relevance_score(
        self, uri: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Chroma's image search: NotImplementedError."""
        raise _needs("similarity_search_by_image_with_relevance_score", "search text")
