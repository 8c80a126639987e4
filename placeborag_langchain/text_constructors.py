"""LangChain's class-level constructors, `from_texts`, `from_documents` and their async twins,
for `PlaceboVectorStore`: build a store from the constructor's options (the real class's own
included) and add texts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from placeborag_core.backends import Profile
from placeborag_langchain.integrations import INTEGRATIONS
from placeborag_langchain.writes import checked_documents, texts_to_documents

if TYPE_CHECKING:
    from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = ["TextConstructors"]


def _built(cls: type[Any], embedding: Embeddings | None, kwargs: dict[str, Any]) -> Any:
    return cls(embedding, **kwargs)


def _documents_as_texts(
    documents: Any, kwargs: dict[str, Any], method: str
) -> tuple[list[str], list[dict[Any, Any]]]:
    """`from_documents` arguments as `from_texts` ones: the texts and metadatas, and in
    `kwargs` the ids: LangChain's rule (each `Document.id`, when any is set and no `ids=` is
    given), unless the profile's integration passes only `ids=` on
    (`IntegrationFacts.from_documents_ids`: langchain-postgres, lc-pgvector-from-documents-ids).
    """
    docs: list[Document] = checked_documents(documents, method)
    profile = kwargs.get("profile", "default")
    facts = INTEGRATIONS.get(profile.name if isinstance(profile, Profile) else profile)
    if "ids" not in kwargs and (facts is None or facts.from_documents_ids):
        ids = [doc.id for doc in docs]
        if any(ids):
            kwargs["ids"] = ids
    return [doc.page_content for doc in docs], [doc.metadata for doc in docs]


class TextConstructors:
    """`from_texts` / `from_documents` and their async twins, a base of `PlaceboVectorStore`."""

    @classmethod
    def from_documents(
        cls, documents: list[Document], embedding: Embeddings | None = None, **kwargs: Any
    ) -> PlaceboVectorStore:
        """`from_texts` of the documents' texts and metadata, with each `Document.id` as its id
        where LangChain's `from_documents` takes it (not under `profile="pgvector"`: its
        integration ignores `Document.id` there and generates ids, unless `ids=` is given)."""
        texts, metadatas = _documents_as_texts(documents, kwargs, "from_documents")
        return cls.from_texts(texts, embedding, metadatas=metadatas, **kwargs)

    @classmethod
    async def afrom_documents(
        cls, documents: list[Document], embedding: Embeddings | None = None, **kwargs: Any
    ) -> PlaceboVectorStore:
        """Async twin of `from_documents`."""
        texts, metadatas = _documents_as_texts(documents, kwargs, "afrom_documents")
        return await cls.afrom_texts(texts, embedding, metadatas=metadatas, **kwargs)

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
