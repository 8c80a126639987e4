"""How adapter plugins add marker options: the pytest_placeborag_extra_options hook."""

from __future__ import annotations

import pytest

from placeborag_core.testing.options import marker_signature

from ._helpers import literal

ADAPTER_CONFTEST = """
    import pytest

    from placeborag_core.testing.pytest_plugin import marker_options

    @pytest.hookimpl(optionalhook=True)
    def pytest_placeborag_extra_options():
        return ("namespace",)

    @pytest.fixture
    def namespace(request):
        return marker_options(request).extra.get("namespace", "")
"""


def test_extra_options_reach_the_adapter_fixture(isolated: pytest.Pytester) -> None:
    isolated.makeconftest(ADAPTER_CONFTEST)
    isolated.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(namespace="tenant-a", profile="chroma")
        def test_both(namespace, fake_vector_store):
            assert namespace == "tenant-a"
            assert fake_vector_store.profile.name == "chroma"

        def test_unmarked(namespace):
            assert namespace == ""
        """
    )
    isolated.runpytest("-p", "no:randomly").assert_outcomes(passed=2)


def test_extra_options_are_suggested_and_listed(isolated: pytest.Pytester) -> None:
    isolated.makeconftest(ADAPTER_CONFTEST)
    isolated.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(namespce="tenant-a")
        def test_typo(fake_embedder):
            pass
        """
    )
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*'namespce'; did you mean 'namespace'? Valid options: *"])


def test_extra_options_appear_in_the_marker_signature(isolated: pytest.Pytester) -> None:
    isolated.makeconftest(ADAPTER_CONFTEST)
    result = isolated.runpytest("--markers")
    result.stdout.fnmatch_lines(
        [literal(f"@pytest.mark.{marker_signature(['namespace'])}: ") + "*"]
    )
    assert "namespace=...)" in marker_signature(["namespace"])


def test_marker_options_needs_a_test_level_request(isolated: pytest.Pytester) -> None:
    isolated.makeconftest(
        """
        import pytest

        from placeborag_core.testing.pytest_plugin import marker_options

        @pytest.fixture(scope="module")
        def wide(request):
            return marker_options(request)
        """
    )
    isolated.makepyfile("def test_wide(wide):\n    pass\n")
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*TypeError: marker_options() needs a function-scoped request (a test item)"]
    )
