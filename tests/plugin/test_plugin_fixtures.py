"""The fake_embedder and fake_vector_store fixtures, configured by the placeborag marker."""

from __future__ import annotations

import pytest


def test_fixtures_are_available_without_configuration(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(
        """
        from placeborag_core import FakeEmbedder
        from placeborag_core.store import FakeVectorStore

        def test_defaults(fake_embedder, fake_vector_store):
            assert type(fake_embedder) is FakeEmbedder
            assert type(fake_vector_store) is FakeVectorStore
            assert fake_embedder.model_name == "placeborag-hash-v1"
            assert fake_embedder.dimensions == 384
            assert fake_vector_store.profile.name == "default"
            assert fake_vector_store.count() == 0
        """
    )
    isolated.runpytest("-p", "no:randomly").assert_outcomes(passed=1)


def test_the_store_is_built_on_the_tests_embedder(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(
        """
        def test_same(fake_embedder, fake_vector_store):
            assert fake_vector_store.embedder is fake_embedder

        def test_store_alone_still_gets_an_embedder(fake_vector_store):
            fake_vector_store.upsert("doc", "our refund policy allows returns")
            assert [m.id for m in fake_vector_store.query("refund policy", k=1)] == ["doc"]
        """
    )
    isolated.runpytest("-p", "no:randomly").assert_outcomes(passed=2)


def test_marker_options_reach_the_right_object(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(
            dimensions=64,
            model_name="m",
            clusters={"refund": ["refund policy", "money back"]},
            profile="chroma",
            filter_mode="post",
            recall=0.5,
            visibility="manual",
        )
        def test_configured(fake_embedder, fake_vector_store):
            assert (fake_embedder.dimensions, fake_embedder.model_name) == (64, "m")
            assert fake_embedder.cluster_of("money back") == "refund"
            assert fake_vector_store.profile.name == "chroma"
            assert fake_vector_store.filter_mode == "post"
            assert fake_vector_store.recall == 0.5
            assert fake_vector_store.visibility == "manual"
        """
    )
    isolated.runpytest("-p", "no:randomly").assert_outcomes(passed=1)


def test_module_class_and_function_markers_merge_closest_first(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.placeborag(profile="chroma", dimensions=32, recall=0.9)

        def test_module_only(fake_vector_store):
            store = fake_vector_store
            assert (store.profile.name, store.recall, store.embedder.dimensions) == (
                "chroma", 0.9, 32
            )

        @pytest.mark.placeborag(profile="faiss", recall=0.5)
        class TestClass:
            def test_class_over_module(self, fake_vector_store):
                store = fake_vector_store
                assert (store.profile.name, store.recall, store.embedder.dimensions) == (
                    "faiss", 0.5, 32
                )

            @pytest.mark.placeborag(recall=0.25, dimensions=16)
            def test_function_over_class(self, fake_vector_store):
                store = fake_vector_store
                assert (store.profile.name, store.recall, store.embedder.dimensions) == (
                    "faiss", 0.25, 16
                )
        """
    )
    isolated.runpytest("-p", "no:randomly").assert_outcomes(passed=3)


def test_each_test_gets_fresh_objects_in_any_order(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(
        """
        import pytest

        @pytest.mark.parametrize("doc", ["a", "b", "c", "d"])
        def test_writes_one(fake_vector_store, doc):
            assert fake_vector_store.count() == 0
            fake_vector_store.upsert(doc, "text " + doc)
            assert fake_vector_store.ids() == [doc]
        """
    )
    for seed in ("1", "2", "3"):
        result = isolated.runpytest(f"--randomly-seed={seed}")
        result.assert_outcomes(passed=4)
