"""The real stores' members that only a real engine has, each refused by name.

``ChromaVectorStore``'s client, collection and connection constructors, ``QdrantVectorStore``'s
sparse encoders and its reader of qdrant-client points: ``PlaceboVectorStore`` has each with the
real signature and raises ``NotImplementedError`` saying what it is and why (messages:
:mod:`placeborag_llamaindex.engine_only`), rather than lacking it or doing nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llama_index.core.vector_stores.types import VectorStoreQueryResult

from placeborag_llamaindex.engine_only import refuse_engine_only

if TYPE_CHECKING:
    from placeborag_llamaindex.vector_store import PlaceboVectorStore

__all__ = ["EngineOnlyMethods"]

_SPARSE = "QdrantVectorStore's sparse vectors and hybrid search (a Qdrant server feature)"


class EngineOnlyMethods:
    """Refusals of what only Chroma's or Qdrant's engine has (see the module docstring)."""

    @property
    def client(self) -> Any:
        """Refused: the real stores return their engine client here (a chromadb ``Collection``,
        a ``QdrantClient``); a test double has none. ``core_store`` is the ``FakeVectorStore``
        holding the records."""
        raise refuse_engine_only(
            "client (use core_store for the FakeVectorStore that holds the records)",
            "the real store's engine client (a chromadb Collection, a QdrantClient)",
        )

    @property
    def _collection(self) -> Any:
        """Refused: ``ChromaVectorStore._collection`` is the chromadb collection."""
        raise refuse_engine_only(
            "_collection (use core_store)", "ChromaVectorStore's chromadb collection"
        )

    @classmethod
    def from_collection(cls, collection: Any) -> PlaceboVectorStore:
        """Refused: ``ChromaVectorStore.from_collection`` wraps a chromadb collection."""
        raise refuse_engine_only("from_collection()", "ChromaVectorStore's chromadb collection")

    @classmethod
    def from_params(cls, *args: Any, **kwargs: Any) -> PlaceboVectorStore:
        """Refused: ``ChromaVectorStore.from_params`` connects to a Chroma server or directory."""
        raise refuse_engine_only("from_params()", "ChromaVectorStore's connection to Chroma")

    def set_query_functions(self, *args: Any, **kwargs: Any) -> None:
        """Refused: ``QdrantVectorStore.set_query_functions`` sets sparse encoders."""
        raise refuse_engine_only("set_query_functions()", _SPARSE)

    def get_default_sparse_doc_encoder(self, *args: Any, **kwargs: Any) -> Any:
        """Refused: a ``QdrantVectorStore`` sparse encoder (fastembed)."""
        raise refuse_engine_only("get_default_sparse_doc_encoder()", _SPARSE)

    def get_default_sparse_query_encoder(self, *args: Any, **kwargs: Any) -> Any:
        """Refused: a ``QdrantVectorStore`` sparse encoder (fastembed)."""
        raise refuse_engine_only("get_default_sparse_query_encoder()", _SPARSE)

    def use_old_sparse_encoder(self, *args: Any, **kwargs: Any) -> bool:
        """Refused: ``QdrantVectorStore`` inspects the server collection's sparse vectors."""
        raise refuse_engine_only("use_old_sparse_encoder()", _SPARSE)

    async def ause_old_sparse_encoder(self, *args: Any, **kwargs: Any) -> bool:
        """Refused, as :meth:`use_old_sparse_encoder`."""
        raise refuse_engine_only("ause_old_sparse_encoder()", _SPARSE)

    def parse_to_query_result(self, response: Any) -> VectorStoreQueryResult:
        """Refused: ``QdrantVectorStore.parse_to_query_result`` reads qdrant-client points."""
        raise refuse_engine_only(
            "parse_to_query_result()", "QdrantVectorStore's reader of qdrant-client points"
        )
