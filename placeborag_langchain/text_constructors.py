"""LangChain's class-level constructors, `from_texts` and `afrom_texts`, for `PlaceboVectorStore`:
build a store from the constructor's options (the real class's own included) and add texts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.embeddings import Embeddings

from placeborag_langchain.writes import texts_to_documents

if TYPE_CHECKING:
    from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = ["TextConstructors"]


def _built(cls: type[Any], embedding: Embeddings | None, kwargs: dict[str, Any]) -> Any:
    return cls(embedding, **kwargs)


class TextConstructors:
    """`from_texts` / `afrom_texts`, a base of `PlaceboVectorStore`."""

    @classmethod
    def from_texts(
        cls,
        texts: list[str],
        embedding: Embeddings | None = None,
        metadatas: list[dict[Any, Any]] | None = None,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """Build a store (constructor options, and the real class's own, as keyword arguments)
        and add the texts; nothing is built when the texts are refused."""
        docs = texts_to_documents(texts, metadatas, method="from_texts")
        store: PlaceboVectorStore = _built(cls, embedding, kwargs)
        store.add_documents(docs, ids=ids)
        return store

    @classmethod
    async def afrom_texts(
        cls,
        texts: list[str],
        embedding: Embeddings | None = None,
        metadatas: list[dict[Any, Any]] | None = None,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """Async twin of `from_texts`."""
        docs = texts_to_documents(texts, metadatas, method="afrom_texts")
        store: PlaceboVectorStore = _built(cls, embedding, kwargs)
        await store.aadd_documents(docs, ids=ids)
        return store
