"""Adapter-only marker options reach only the fixtures that read them (README: "The pytest plugin
and the marker"): set on a test that requests placeborag fixtures but none of those, they fail it
instead of being ignored; inherited from a class or module marker, they are shared."""

from __future__ import annotations

import pytest

from placeborag_core.testing.adapter_options import unread_options

from .conftest import INNER_ADDOPTS

WITH_ADAPTERS = INNER_ADDOPTS.replace("-p no:placeborag_langchain ", "").replace(
    "-p no:placeborag_llamaindex ", ""
)
READERS = {
    "namespace": frozenset({"langchain_vector_store", "llamaindex_vector_store"}),
    "tenant": None,
}
PLACEBORAG = frozenset({"fake_embedder", "fake_vector_store", "langchain_vector_store"})


@pytest.fixture
def with_adapters(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester directory whose inner runs load the adapter plugins too."""
    pytester.makeini(f"[pytest]\naddopts = {WITH_ADAPTERS}\n")
    return pytester


def test_an_option_on_the_test_that_none_of_its_fixtures_reads_fails_it(
    with_adapters: pytest.Pytester,
) -> None:
    with_adapters.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(profile="qdrant", namespace="tenant-a")
        def test_core(fake_vector_store):
            pass
        """
    )
    result = with_adapters.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of test_core*",
            (
                "placeborag option 'namespace' is an adapter option: only the fixtures "
                "langchain_vector_store, llamaindex_vector_store may read it, and this test "
                "requests none of them, so it would be ignored. Request one, or set the option "
                "on the class or module to share it with the tests that do"
            ),
        ]
    )


@pytest.mark.parametrize(
    ("options", "fixture", "readers"),
    [
        (
            'namespace="kb"',
            "langchain_embeddings",
            "langchain_vector_store, llamaindex_vector_store",
        ),
        ('collection_name="kb"', "langchain_embeddings", "langchain_vector_store"),
        ('distance_strategy="COSINE"', "langchain_embeddings", "langchain_vector_store"),
        (
            'namespace="kb"',
            "llamaindex_embed_model",
            "langchain_vector_store, llamaindex_vector_store",
        ),
    ],
)
def test_an_embedding_fixture_does_not_read_an_adapter_option(
    with_adapters: pytest.Pytester, options: str, fixture: str, readers: str
) -> None:
    with_adapters.makepyfile(
        f"""
        import pytest

        @pytest.mark.placeborag({options})
        def test_embeddings_only({fixture}):
            pass
        """
    )
    result = with_adapters.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    name = options.partition("=")[0]
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of test_embeddings_only*",
            (
                f"placeborag option '{name}' is an adapter option: only the fixtures {readers} "
                "may read it, and this test requests none of them, so it would be ignored.*"
            ),
        ]
    )


def test_the_vector_store_fixture_reads_its_options(with_adapters: pytest.Pytester) -> None:
    with_adapters.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(namespace="kb", collection_name="docs")
        def test_langchain(langchain_vector_store):
            pass

        @pytest.mark.placeborag(namespace="kb")
        def test_llamaindex(llamaindex_vector_store, fake_embedder):
            pass
        """
    )
    with_adapters.runpytest("-p", "no:randomly").assert_outcomes(passed=2)


def test_an_inherited_option_is_shared_and_an_unused_one_is_harmless(
    with_adapters: pytest.Pytester,
) -> None:
    with_adapters.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.placeborag(profile="qdrant", collection_name="kb")

        def test_core(fake_vector_store):
            assert fake_vector_store.profile.name == "qdrant"

        @pytest.mark.placeborag(namespace="tenant-a")
        def test_no_placeborag_fixture():
            pass

        @pytest.mark.placeborag(namespace="tenant-a")
        class TestShared:
            def test_core_in_class(self, fake_embedder):
                pass
        """
    )
    with_adapters.runpytest("-p", "no:randomly").assert_outcomes(passed=3)


def test_only_options_set_on_the_test_itself_are_judged() -> None:
    fixtures = ["request", "fake_vector_store", "fake_embedder"]
    assert unread_options(["namespace", "profile"], READERS, fixtures, PLACEBORAG) == [
        ("namespace", ["langchain_vector_store", "llamaindex_vector_store"])
    ]
    assert unread_options([], READERS, fixtures, PLACEBORAG) == []


def test_a_reader_among_the_fixtures_or_no_placeborag_fixture_passes() -> None:
    reading = ["langchain_vector_store", "fake_vector_store"]
    assert unread_options(["namespace"], READERS, reading, PLACEBORAG) == []
    assert unread_options(["namespace"], READERS, ["tmp_path"], PLACEBORAG) == []


def test_an_option_whose_readers_are_unknown_is_never_judged() -> None:
    assert unread_options(["tenant"], READERS, ["fake_vector_store"], PLACEBORAG) == []
