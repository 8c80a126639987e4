"""The placeborag marker: registration, misspelled options and rejected values."""

from __future__ import annotations

import pytest

from placeborag_core import FakeEmbedder
from placeborag_core.store import FakeVectorStore
from placeborag_core.testing.options import marker_signature

from ._helpers import literal


def _constructor_message(factory: type, **options: object) -> str:
    with pytest.raises((TypeError, ValueError)) as info:
        factory(**options)
    return f"{type(info.value).__name__}: {info.value}"


def assert_message_only(result: pytest.RunResult) -> None:
    """The error shows the message alone: no traceback, no chained exception."""
    output = result.stdout.str()
    assert "During handling of the above exception" not in output
    assert "All traceback entries are hidden" not in output
    assert "Traceback" not in output


def test_marker_is_registered_with_its_full_signature(isolated: pytest.Pytester) -> None:
    result = isolated.runpytest("--markers")
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            literal(
                f"@pytest.mark.{marker_signature()}: configure the placeborag fixtures; each "
                "option goes to FakeEmbedder or FakeVectorStore by name, and the closest marker "
                "wins"
            )
        ]
    )


def test_marker_passes_strict_markers(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(dimensions=16)
        def test_marked():
            pass
        """
    )
    isolated.runpytest("--strict-markers").assert_outcomes(passed=1)


def test_misspelled_option_fails_naming_the_nearest_valid_one(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(profle="chroma")
        def test_typo(fake_vector_store):
            pass
        """
    )
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of test_typo*",
            (
                "unknown placeborag option 'profle'; did you mean 'profile'? Valid options: "
                "cluster_match, cluster_spread, clusters, dimensions, *"
            ),
        ]
    )
    assert_message_only(result)


def test_misspelled_option_fails_even_without_placeborag_fixtures(
    isolated: pytest.Pytester,
) -> None:
    isolated.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.placeborag(dimension=64)

        def test_plain():
            pass
        """
    )
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*unknown placeborag option 'dimension'; did you mean 'dimensions'?*"]
    )


def test_positional_marker_arguments_are_rejected(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag("chroma")
        def test_positional(fake_vector_store):
            pass
        """
    )
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            (
                "the placeborag marker takes keyword options only, got positional ('chroma',); "
                "write e.g. @pytest.mark.placeborag(profile='chroma')"
            )
        ]
    )


@pytest.mark.parametrize(
    ("options", "factory", "kwargs"),
    [
        ("dimensions=3", FakeEmbedder, {"dimensions": 3}),
        ("cluster_match='fuzzy'", FakeEmbedder, {"cluster_match": "fuzzy"}),
        ("profile='pinecone'", FakeVectorStore, {"profile": "pinecone"}),
        ("recall=1.5", FakeVectorStore, {"recall": 1.5}),
    ],
)
def test_bad_value_fails_with_the_constructors_own_message(
    isolated: pytest.Pytester, options: str, factory: type, kwargs: dict[str, object]
) -> None:
    isolated.makepyfile(
        f"""
        import pytest

        @pytest.mark.placeborag({options})
        def test_bad_value(fake_vector_store):
            pass
        """
    )
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    message = _constructor_message(factory, **kwargs)
    result.stdout.fnmatch_lines(
        [
            literal(f"placeborag marker options {kwargs!r} rejected by {factory.__name__}: ")
            + literal(message.splitlines()[0])
            + "*"
        ]
    )
    assert_message_only(result)


def test_marker_on_a_parametrized_case_applies_to_that_case_only(
    isolated: pytest.Pytester,
) -> None:
    isolated.makepyfile(
        """
        import pytest

        @pytest.mark.parametrize(
            "expected",
            [384, pytest.param(64, marks=pytest.mark.placeborag(dimensions=64))],
        )
        def test_dims(fake_embedder, expected):
            assert fake_embedder.dimensions == expected
        """
    )
    isolated.runpytest("-p", "no:randomly").assert_outcomes(passed=2)


@pytest.mark.parametrize(
    ("fixtures", "kwargs", "factory"),
    [
        ("fake_embedder", {"recall": 1.5}, FakeVectorStore),
        ("fake_embedder", {"metric": "l2"}, FakeVectorStore),
        ("", {"dimensions": 3}, FakeEmbedder),
        ("", {"profile": "pinecone"}, FakeVectorStore),
    ],
    ids=["store-value-embedder-test", "store-metric-embedder-test", "no-fixture", "no-fixture-2"],
)
def test_a_bad_value_fails_tests_that_do_not_build_its_object(
    isolated: pytest.Pytester, fixtures: str, kwargs: dict[str, object], factory: type
) -> None:
    options = ", ".join(f"{name}={value!r}" for name, value in kwargs.items())
    isolated.makepyfile(
        f"""
        import pytest

        pytestmark = pytest.mark.placeborag({options})

        def test_not_building_it({fixtures}):
            pass
        """
    )
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    message = _constructor_message(factory, **kwargs)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of test_not_building_it*",
            literal(f"placeborag marker options {kwargs!r} rejected by {factory.__name__}: ")
            + literal(message.splitlines()[0])
            + "*",
        ]
    )
    assert_message_only(result)


def test_good_values_on_an_unused_object_pass(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.placeborag(profile="chroma", metric="l2", recall=0.5)

        def test_embedder_only(fake_embedder):
            assert fake_embedder.dimensions == 384
        """
    )
    isolated.runpytest("-p", "no:randomly").assert_outcomes(passed=1)
