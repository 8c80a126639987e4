"""A marker a fixture adds at run time (``request.node.add_marker``) counts, with or without a
static marker, in pytest's marker order (``append=False`` puts it before the test's own);
``indirect=True`` on the fixtures fails instead of being ignored."""

from __future__ import annotations

import numpy  # noqa: F401 - loaded once here: pytester's in-process runs cannot import it again
import pytest


def test_a_marker_added_at_run_time_counts(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(
        """
        import pytest


        @pytest.fixture
        def qdrant_please(request):
            request.node.add_marker(pytest.mark.placeborag(profile="qdrant"))


        def test_without_a_static_marker(qdrant_please, fake_vector_store):
            assert fake_vector_store.profile.name == "qdrant"


        @pytest.mark.placeborag(dimensions=64)
        def test_with_a_static_marker(qdrant_please, fake_vector_store, fake_embedder):
            assert fake_vector_store.profile.name == "qdrant"
            assert fake_embedder.dimensions == 64


        @pytest.fixture
        def qdrant_first(request):
            request.node.add_marker(pytest.mark.placeborag(profile="qdrant"), append=False)


        @pytest.mark.placeborag(profile="chroma")
        def test_prepended_over_the_static_one(qdrant_first, fake_vector_store):
            assert fake_vector_store.profile.name == "qdrant"


        @pytest.mark.placeborag(profile="chroma")
        def test_appended_after_the_static_one(qdrant_please, fake_vector_store):
            assert fake_vector_store.profile.name == "chroma"


        @pytest.fixture
        def typo(request):
            request.node.add_marker(pytest.mark.placeborag(profil="qdrant"))


        @pytest.mark.placeborag(dimensions=64)
        def test_a_typo_added_at_run_time(typo, fake_vector_store):
            pass
        """
    )
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=4, errors=1)
    result.stdout.fnmatch_lines(["*unknown placeborag option 'profil'; did you mean 'profile'*"])


@pytest.mark.parametrize("fixture", ["fake_vector_store", "fake_embedder"])
def test_an_indirect_parameter_fails_the_test(isolated: pytest.Pytester, fixture: str) -> None:
    isolated.makepyfile(
        f"""
        import pytest


        @pytest.mark.parametrize("{fixture}", ["chroma"], indirect=True)
        def test_indirect({fixture}):
            pass
        """
    )
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    expected = (
        f"*fixture '{fixture}' takes no indirect parameter, got 'chroma'; configure it with "
        "the placeborag marker, e.g. pytest.param(..., marks=pytest.mark.placeborag("
        "profile='chroma'))*"
    )
    result.stdout.fnmatch_lines([expected])


def test_a_parametrised_fixture_of_ones_own_may_read_the_marker(isolated: pytest.Pytester) -> None:
    isolated.makeconftest(
        """
        import pytest
        from placeborag_core.pytest_plugin import build_from_options, marker_options
        from placeborag_core import FakeVectorStore


        @pytest.fixture(params=["chroma", "qdrant"])
        def my_store(request):
            options = {**marker_options(request).store, "profile": request.param}
            return build_from_options(FakeVectorStore, options)
        """
    )
    isolated.makepyfile(
        """
        import pytest


        def test_unmarked(my_store):
            assert my_store.profile.name in ("chroma", "qdrant")


        @pytest.mark.placeborag(recall=0.5)
        def test_marked(my_store):
            assert my_store.recall == 0.5


        @pytest.mark.parametrize("my_store", ["faiss"], indirect=True)
        def test_indirect(my_store):
            assert my_store.profile.name == "faiss"
        """
    )
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=5)
