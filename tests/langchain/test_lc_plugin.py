"""The langchain_embeddings / langchain_vector_store fixtures and the placeborag marker."""

from __future__ import annotations

import pytest

INI = "[pytest]\nasyncio_default_fixture_loop_scope = function\n"


def test_fixtures_are_configured_by_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    pytester.makepyfile(
        """
        import pytest
        from placeborag_langchain import PlaceboEmbeddings, PlaceboVectorStore

        pytestmark = pytest.mark.placeborag(dimensions=16, profile="chroma")

        def test_defaults_from_module(langchain_embeddings, langchain_vector_store):
            assert isinstance(langchain_vector_store, PlaceboVectorStore)
            assert langchain_vector_store.embeddings is langchain_embeddings
            assert langchain_embeddings.dimensions == 16
            assert langchain_vector_store.facts.profile == "chroma"
            assert langchain_vector_store.core_store.count() == 0

        @pytest.mark.placeborag(profile="qdrant", namespace="t1", collection_name="kb",
                                model_name="m2", filter_mode="post")
        def test_closest_marker_wins(langchain_vector_store):
            store = langchain_vector_store
            assert store.facts.profile == "qdrant"
            assert store.namespace == "t1"
            assert store.collection_name == "kb"
            assert store.core_store.filter_mode == "post"
            assert store.embeddings.model_name == "m2"
            assert store.embeddings.dimensions == 16
            store.add_texts(["refund policy"], ids=[1])
            assert store.similarity_search("refund", k=1)[0].metadata["_collection_name"] == "kb"

        def test_fresh_store_per_test(langchain_vector_store):
            assert langchain_vector_store.core_store.count() == 0
            langchain_vector_store.add_texts(["x"])

        @pytest.mark.placeborag(profile="faiss", distance_strategy="COSINE")
        def test_faiss_distance_strategy(langchain_vector_store):
            assert langchain_vector_store.distance_strategy == "COSINE"
            assert langchain_vector_store.core_store.profile.metric == "l2"
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=4)


def test_misspelled_and_bad_options_fail_clearly(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(colection_name="kb")
        def test_typo(langchain_vector_store):
            pass

        @pytest.mark.placeborag(profile="weaviate")
        def test_unsupported_profile(langchain_vector_store):
            pass
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        [
            "*unknown placeborag option 'colection_name'; did you mean 'collection_name'?*",
            "*rejected by PlaceboVectorStore: ValueError: no LangChain integration*weaviate*",
        ]
    )
