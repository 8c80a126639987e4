"""``placeborag_core.pytest_plugin``, the module named "pytest_plugin", loaded as a plugin brings
the whole plugin (marker, option checks, adapter fixtures), as the ``placeborag`` entry point
does: natural when plugin autoload is off (``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1``)."""

from __future__ import annotations

import pytest

TESTS = """
import pytest


@pytest.mark.placeborag(profile="qdrant")
def test_marked(fake_vector_store):
    assert fake_vector_store.profile.name == "qdrant"


@pytest.mark.placeborag(profil="qdrant")
def test_typo(fake_vector_store):
    pass
"""


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("-p", "no:randomly", "--strict-markers", *args)


def _assert_the_whole_plugin(result: pytest.RunResult) -> None:
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*unknown placeborag option 'profil'; did you mean 'profile'*"])
    result.stdout.no_fnmatch_line("*not found in `markers` configuration option*")


@pytest.mark.parametrize("autoload", [False, True], ids=["autoload-off", "autoload-on"])
def test_minus_p_with_the_module_gives_the_marker_and_its_checks(
    isolated: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, autoload: bool
) -> None:
    if not autoload:
        monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    isolated.makepyfile(TESTS)
    _assert_the_whole_plugin(_run(isolated, "-p", "placeborag_core.pytest_plugin"))


def test_pytest_plugins_in_a_conftest_gives_the_marker_and_its_checks(
    isolated: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    isolated.makeconftest('pytest_plugins = ["placeborag_core.pytest_plugin"]')
    isolated.makepyfile(TESTS)
    _assert_the_whole_plugin(_run(isolated))


@pytest.mark.parametrize("autoload", [False, True], ids=["autoload-off", "autoload-on"])
def test_the_fixtures_are_registered_once(
    isolated: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, autoload: bool
) -> None:
    if not autoload:
        monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    isolated.makepyfile(TESTS)
    result = _run(isolated, "-p", "placeborag_core.pytest_plugin", "--fixtures")
    assert result.ret == 0, result.stdout.str()
    lines = result.stdout.lines
    assert len([line for line in lines if line.startswith("fake_vector_store -- ")]) == 1
    markers = _run(isolated, "-p", "placeborag_core.pytest_plugin", "--markers")
    marker_lines = [line for line in markers.stdout.lines if line.startswith("@pytest.mark.placeb")]
    assert len(marker_lines) == 1, markers.stdout.str()


def test_no_placeborag_still_disables_it(
    isolated: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    isolated.makepyfile("def test_uses_it(fake_vector_store):\n    pass\n")
    result = isolated.runpytest_subprocess(
        "-p", "no:randomly", "-p", "placeborag_core.pytest_plugin", "-p", "no:placeborag"
    )
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'fake_vector_store' not found*"])


def test_the_helpers_are_still_importable_from_the_module() -> None:
    import placeborag_core.pytest_plugin as helpers
    from placeborag_core.testing import pytest_plugin as plugin

    for name in helpers.__all__:
        assert getattr(helpers, name) is getattr(plugin, name)
    with pytest.raises(AttributeError, match="has no attribute 'pytest_configure'"):
        _ = helpers.pytest_configure
