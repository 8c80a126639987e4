"""The pytest plugin: fixtures configured by the placeborag marker."""

from __future__ import annotations

import pytest

INI = "[pytest]\nasyncio_default_fixture_loop_scope = function\n"


def run(pytester: pytest.Pytester) -> pytest.RunResult:
    pytester.makeini(INI)
    return pytester.runpytest("-p", "no:randomly")


def test_fixtures_are_configured_by_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(profile="chroma", metric="cosine", dimensions=32, namespace="t1")
        def test_configured(llamaindex_vector_store, llamaindex_embed_model):
            store, embed = llamaindex_vector_store, llamaindex_embed_model
            assert (store.profile, store.metric, store.namespace) == ("chroma", "cosine", "t1")
            assert embed.dimensions == 32
            assert store.core_store.embedder is embed.core_embedder

        def test_defaults(llamaindex_vector_store, llamaindex_embed_model):
            assert llamaindex_vector_store.profile == "default"
            assert llamaindex_vector_store.core_store.count() == 0
            assert llamaindex_embed_model.dimensions == 384
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=2)


def test_closest_marker_wins(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.placeborag(profile="qdrant", recall=0.5)

        @pytest.mark.placeborag(profile="chroma")
        def test_function_wins(llamaindex_vector_store):
            assert llamaindex_vector_store.profile == "chroma"
            assert llamaindex_vector_store.recall == 0.5

        def test_module_applies(llamaindex_vector_store):
            assert llamaindex_vector_store.profile == "qdrant"
        """
    )
    run(pytester).assert_outcomes(passed=2)


def test_misspelt_option_fails_naming_the_nearest(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(profil="chroma")
        def test_typo(llamaindex_vector_store):
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*unknown placeborag option 'profil'; did you mean 'profile'?*"])


def test_rejected_value_fails_with_the_constructor_message(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(profile="weaviate")
        def test_bad(llamaindex_vector_store):
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*rejected by PlaceboVectorStore*has no LlamaIndex integration facts*"]
    )


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ('recall="0.5"', "recall"),
        ('orphaned_ids="yes"', "orphaned_ids"),
        ("namespace=3", "namespace"),
        ('dimensions="64"', "dimensions"),
    ],
)
def test_values_of_the_wrong_type_fail_instead_of_being_coerced(
    pytester: pytest.Pytester, options: str, named: str
) -> None:
    pytester.makepyfile(
        f"""
        import pytest

        @pytest.mark.placeborag({options})
        def test_bad(llamaindex_vector_store):
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*rejected by Placebo*: ValidationError: 1 validation error*", named]
    )
