"""The retriever `PlaceboVectorStore.as_retriever()` returns: LangChain's own
`VectorStoreRetriever`, reporting the imitated class where LangChain reports the store's class.

LangChain names the store in two places a test (or a LangSmith trace) can see: the retriever's
tags (`VectorStore._get_retriever_tags`: the store's class name, then the embeddings' class
name) and the LangSmith parameter `ls_vector_store_provider`. A real `Chroma` reports "Chroma",
`QdrantVectorStore` "QdrantVectorStore" and `FAISS` "FAISS"; a store under that profile reports
the same (`IntegrationFacts.class_name`; the default profile reports "PlaceboVectorStore").
"""

from __future__ import annotations

from typing import Any

from langchain_core.retrievers import LangSmithRetrieverParams
from langchain_core.vectorstores import VectorStoreRetriever

__all__ = ["PlaceboStoreRetriever", "imitated_class_name"]


def imitated_class_name(store: Any) -> str:
    """The class name the real integration of `store`'s profile reports."""
    facts = getattr(store, "facts", None)
    name = getattr(facts, "class_name", None)
    return name if isinstance(name, str) else type(store).__name__


class PlaceboStoreRetriever(VectorStoreRetriever):
    """`VectorStoreRetriever` whose LangSmith params name the imitated class."""

    def _get_ls_params(self, **kwargs: Any) -> LangSmithRetrieverParams:
        params = super()._get_ls_params(**kwargs)
        params["ls_retriever_name"] = "vectorstore"  # LangChain's name for its own class
        params["ls_vector_store_provider"] = imitated_class_name(self.vectorstore)
        return params
