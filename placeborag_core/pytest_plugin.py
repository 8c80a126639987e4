"""pytest plugin: the ``fake_embedder``, ``fake_vector_store`` fixtures and ``placeborag`` marker.

Installing placeborag registers this module through the ``pytest11`` entry point. It imports neither
LangChain nor LlamaIndex (and the core classes only when a fixture or the marker needs them), so it
costs nothing in a suite that does not use it.

- ``fake_embedder``: a fresh ``FakeEmbedder`` per test.
- ``fake_vector_store``: a fresh, empty ``FakeVectorStore`` per test, built on that test's
  ``fake_embedder`` (so ``fake_vector_store.embedder is fake_embedder``).

Both are function-scoped and hold no state between tests: a suite gives the same vectors and
rankings in any order and in any pytest-xdist worker, because nothing here depends on the process.

``@pytest.mark.placeborag(**options)`` configures them. Options are routed by name to the embedder
or the store (see ``placeborag_core.options``); markers on the module, class and function merge,
the closest winning. Option names are checked before the test's fixtures are set up, so a misspelled
option errors the test even when it uses no placeborag fixture; values are checked by the
constructors when a fixture builds the object.

Adapter plugins add option names by implementing ``pytest_placeborag_extra_options`` (see
``placeborag_core._pytest_hookspecs``) and read the routed options with ``marker_options(request)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import pytest

from placeborag_core import _pytest_hookspecs
from placeborag_core.options import OptionError, RoutedOptions, marker_signature, route_options

if TYPE_CHECKING:
    from placeborag_core.embedder import FakeEmbedder
    from placeborag_core.store import FakeVectorStore

__all__ = ["fake_embedder", "fake_vector_store", "marker_options"]

MARKER = "placeborag"
_EXTRA_KEY = pytest.StashKey[tuple[str, ...]]()
_ROUTED_KEY = pytest.StashKey[RoutedOptions]()
_T = TypeVar("_T")


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Make ``pytest_placeborag_extra_options`` known, so adapter plugins can implement it."""
    pluginmanager.add_hookspecs(_pytest_hookspecs)


def pytest_configure(config: pytest.Config) -> None:
    """Collect the adapters' extra option names and register the marker with its full signature."""
    declared = config.hook.pytest_placeborag_extra_options()
    extra = sorted({name for names in declared for name in names})
    config.stash[_EXTRA_KEY] = tuple(extra)
    config.addinivalue_line(
        "markers",
        f"{marker_signature(extra)}: configure the placeborag fixtures; each option goes to "
        "FakeEmbedder or FakeVectorStore by name, and the closest marker wins",
    )


def _fail(message: str) -> NoReturn:
    __tracebackhide__ = True
    pytest.fail(message, pytrace=False)


def _route(item: pytest.Item) -> RoutedOptions:
    __tracebackhide__ = True
    markers = list(item.iter_markers(MARKER))
    for marker in markers:
        if marker.args:
            _fail(
                f"the placeborag marker takes keyword options only, got positional "
                f"{marker.args!r}; write e.g. @pytest.mark.placeborag(profile='chroma')"
            )
    extra: tuple[str, ...] = item.config.stash.get(_EXTRA_KEY, ())
    try:
        return route_options([marker.kwargs for marker in markers], extra=extra)
    except OptionError as exc:
        message = str(exc)
    _fail(message)  # outside the except block, so pytest shows no chained traceback


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Check the marker's option names before any fixture is built, and remember the result."""
    if item.get_closest_marker(MARKER) is not None:
        item.stash[_ROUTED_KEY] = _route(item)


def marker_options(request: pytest.FixtureRequest) -> RoutedOptions:
    """The ``placeborag`` marker options that apply to the requesting test, routed by destination.

    Includes the extra names of every installed placeborag plugin. Adapter fixtures use this instead
    of calling ``route_options`` themselves, so they see exactly what the core fixtures see.
    """
    __tracebackhide__ = True
    item = request.node
    if not isinstance(item, pytest.Item):
        raise TypeError("marker_options() needs a function-scoped request (a test item)")
    if _ROUTED_KEY not in item.stash:
        item.stash[_ROUTED_KEY] = _route(item)
    return item.stash[_ROUTED_KEY]


def _build(factory: Callable[..., _T], options: dict[str, Any], **wired: Any) -> _T:
    """Call ``factory(**wired, **options)``; a rejected value fails the test with its message."""
    __tracebackhide__ = True
    try:
        return factory(**wired, **options)
    except (TypeError, ValueError) as exc:
        name = getattr(factory, "__name__", repr(factory))
        message = f"placeborag marker options {options!r} rejected by {name}: "
        message += f"{type(exc).__name__}: {exc}"
    _fail(message)  # outside the except block, so pytest shows no chained traceback


@pytest.fixture
def fake_embedder(request: pytest.FixtureRequest) -> FakeEmbedder:
    """A fresh ``FakeEmbedder`` for this test, configured by the ``placeborag`` marker."""
    from placeborag_core.embedder import FakeEmbedder

    return _build(FakeEmbedder, marker_options(request).embedder)


@pytest.fixture
def fake_vector_store(
    request: pytest.FixtureRequest, fake_embedder: FakeEmbedder
) -> FakeVectorStore:
    """A fresh, empty ``FakeVectorStore`` for this test, built on this test's ``fake_embedder``."""
    from placeborag_core.store import FakeVectorStore

    return _build(FakeVectorStore, marker_options(request).store, embedder=fake_embedder)
