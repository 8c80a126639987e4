"""LangChain's own standard test suites, subclassed without overriding any test.

Run for the default profile and for profile="chroma", with our embeddings and (for the default
profile) with LangChain's DeterministicFakeEmbedding, to show the store works with any
`Embeddings`.
"""

from __future__ import annotations

import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from langchain_core.vectorstores import VectorStore
from langchain_tests.integration_tests import (
    EmbeddingsIntegrationTests,
    RetrieversIntegrationTests,
    VectorStoreIntegrationTests,
)
from langchain_tests.unit_tests import EmbeddingsUnitTests

from placeborag_langchain import CannedRetriever, PlaceboEmbeddings, PlaceboVectorStore


class TestDefaultProfileStore(VectorStoreIntegrationTests):
    @pytest.fixture
    def vectorstore(self) -> VectorStore:
        return PlaceboVectorStore(PlaceboEmbeddings(dimensions=64))


class TestChromaProfileStore(VectorStoreIntegrationTests):
    @pytest.fixture
    def vectorstore(self) -> VectorStore:
        return PlaceboVectorStore(PlaceboEmbeddings(dimensions=64), profile="chroma")


class TestDefaultProfileForeignEmbeddings(VectorStoreIntegrationTests):
    """The suite's own DeterministicFakeEmbedding(6): vectors come from outside the core."""

    @pytest.fixture
    def vectorstore(self) -> VectorStore:
        return PlaceboVectorStore(self.get_embeddings())


class TestChromaProfileForeignEmbeddings(VectorStoreIntegrationTests):
    @pytest.fixture
    def vectorstore(self) -> VectorStore:
        return PlaceboVectorStore(self.get_embeddings(), profile="chroma")


class TestEmbeddingsUnit(EmbeddingsUnitTests):
    @property
    def embeddings_class(self) -> type[Embeddings]:
        return PlaceboEmbeddings

    @property
    def embedding_model_params(self) -> dict[str, object]:
        return {"model_name": "standard-suite", "dimensions": 32}


class TestEmbeddingsIntegration(EmbeddingsIntegrationTests):
    @property
    def embeddings_class(self) -> type[Embeddings]:
        return PlaceboEmbeddings

    @property
    def embedding_model_params(self) -> dict[str, object]:
        return {"model_name": "standard-suite", "dimensions": 32}


_CORPUS = [
    Document(page_content=f"refund policy chunk {n}", metadata={"n": n}, id=f"c{n}")
    for n in range(5)
]


class TestCannedRetriever(RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[BaseRetriever]:
        return CannedRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, object]:
        return {"documents": _CORPUS}

    @property
    def retriever_query_example(self) -> str:
        return "what is the refund policy?"
