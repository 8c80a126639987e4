"""The retriever `PlaceboVectorStore.as_retriever()` returns: a subclass of LangChain's
`VectorStoreRetriever` that presents itself as that class, reporting the imitated store class
where LangChain reports the store's class.

A real store's `as_retriever()` returns a plain `VectorStoreRetriever`, and LangChain takes
names from it a test can see: `get_name()` gives the callback and tracer run names, the
`astream_events` names and their `include_names=` filter, graph node and input-schema names;
`to_json()["id"]`, `lc_id()`, `repr` and pydantic's error titles use the class. Each reports
"VectorStoreRetriever" here too (a `name=` given by the user still wins, as in LangChain).

LangChain names the store in two places a test (or a LangSmith trace) can see: the retriever's
tags (`VectorStore._get_retriever_tags`: the store's class name, then the embeddings' class
name) and the LangSmith parameter `ls_vector_store_provider`. A real `Chroma` reports "Chroma",
`QdrantVectorStore` "QdrantVectorStore" and `FAISS` "FAISS"; a store under that profile reports
the same (`IntegrationFacts.class_name`; the default profile reports "PlaceboVectorStore").
"""

from __future__ import annotations

from typing import Any

from langchain_core.load.serializable import SerializedNotImplemented
from langchain_core.retrievers import LangSmithRetrieverParams
from langchain_core.vectorstores import VectorStoreRetriever
from pydantic import ConfigDict

__all__ = ["PlaceboStoreRetriever", "imitated_class_name"]


def imitated_class_name(store: Any) -> str:
    """The class name the real integration of `store`'s profile reports."""
    facts = getattr(store, "facts", None)
    name = getattr(facts, "class_name", None)
    return name if isinstance(name, str) else type(store).__name__


class PlaceboStoreRetriever(VectorStoreRetriever):
    """`VectorStoreRetriever` whose LangSmith params name the imitated class, and which names
    itself `VectorStoreRetriever` wherever LangChain shows a class name (module docstring)."""

    model_config = ConfigDict(title=VectorStoreRetriever.__name__)  # pydantic error titles

    def get_name(self, suffix: str | None = None, *, name: str | None = None) -> str:
        """The runnable's name: `name`, else the retriever's `name=`, else
        "VectorStoreRetriever" (LangChain's fallback is the class name), with `suffix`."""
        return super().get_name(suffix, name=name or self.name or VectorStoreRetriever.__name__)

    @classmethod
    def lc_id(cls) -> list[str]:
        """LangChain's serialization id of `VectorStoreRetriever`."""
        return VectorStoreRetriever.lc_id()

    def to_json_not_implemented(self) -> SerializedNotImplemented:
        """`to_json()` of a retriever (LangChain cannot serialize one): its "id" is that of
        `VectorStoreRetriever`, as a real store's retriever reports."""
        result = super().to_json_not_implemented()
        result["id"] = VectorStoreRetriever.lc_id()
        return result

    def __repr_name__(self) -> str:
        return VectorStoreRetriever.__name__

    def _get_ls_params(self, **kwargs: Any) -> LangSmithRetrieverParams:
        params = super()._get_ls_params(**kwargs)
        params["ls_retriever_name"] = "vectorstore"  # LangChain's name for its own class
        params["ls_vector_store_provider"] = imitated_class_name(self.vectorstore)
        return params
