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
or the store (see ``placeborag_core.testing.options``); markers on the module, class and function
merge,
the closest winning. Option names are checked before the test's fixtures are set up, so a misspelled
option errors the test even when it uses no placeborag fixture; values are checked by the
constructors when a fixture builds the object.

Adapter plugins are found through the ``placeborag.fixtures`` entry-point group (each entry names
a fixture and the plugin module that defines it) and registered by this plugin, under the module's
top-level package name (so ``-p no:placeborag_langchain`` still disables one). A plugin module
whose framework is not installed fails to import; its fixtures are then registered as stand-ins
that fail the test requesting them with the adapter's own ``ImportError`` message, which names the
extra to install. Nothing else in the session is affected.

Adapter plugins add option names by implementing ``pytest_placeborag_extra_options`` (see
``placeborag_core.testing._pytest_hookspecs``), read the routed options with
``marker_options(request)``
and build their objects with ``build_from_options``.

Loading the plugin imports neither numpy nor the store: the marker is registered by name, and its
full signature (read from the constructors) only when ``pytest --markers`` asks for it.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import pytest

from placeborag_core.messages import shown
from placeborag_core.testing import _pytest_hookspecs
from placeborag_core.testing.options import (
    OptionError,
    RoutedOptions,
    marker_signature,
    route_options,
)

if TYPE_CHECKING:
    from placeborag_core.embedding.embedder import FakeEmbedder
    from placeborag_core.store.vector_store import FakeVectorStore

__all__ = ["build_from_options", "fake_embedder", "fake_vector_store", "marker_options"]

MARKER = "placeborag"
ADAPTER_FIXTURES = "placeborag.fixtures"  # entry-point group: fixture name = "plugin.module"
_EXTRA_KEY = pytest.StashKey[tuple[str, ...]]()
_ROUTED_KEY = pytest.StashKey[RoutedOptions]()
_T = TypeVar("_T")


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Make ``pytest_placeborag_extra_options`` known, then register the adapter plugins."""
    pluginmanager.add_hookspecs(_pytest_hookspecs)
    for module_name, fixtures in _adapter_fixtures().items():
        plugin_name = module_name.partition(".")[0]
        if pluginmanager.is_blocked(plugin_name) or pluginmanager.has_plugin(plugin_name):
            continue
        try:
            plugin = importlib.import_module(module_name)
        except ImportError as missing:
            plugin = _unavailable(plugin_name, fixtures, str(missing))
        pluginmanager.register(plugin, plugin_name)


def _adapter_fixtures() -> dict[str, list[str]]:
    """The adapter plugin modules declared in the entry-point group, with their fixture names."""
    by_module: dict[str, list[str]] = {}
    for entry in entry_points(group=ADAPTER_FIXTURES):
        by_module.setdefault(entry.value, []).append(entry.name)
    return dict(sorted(by_module.items()))


def _unavailable(plugin_name: str, fixtures: list[str], reason: str) -> types.ModuleType:
    """A stand-in plugin whose fixtures fail the requesting test with ``reason``."""
    stand_in = types.ModuleType(plugin_name, f"{plugin_name} is unavailable: {reason}")

    def failing(name: str) -> Any:
        def fixture() -> None:
            _fail(f"fixture {shown(name)} is unavailable: {reason}")

        return pytest.fixture(name=name)(fixture)

    for name in fixtures:
        setattr(stand_in, name, failing(name))
    return stand_in


def pytest_configure(config: pytest.Config) -> None:
    """Collect the adapters' extra option names and register the marker.

    The marker's signature lists every option with its default, which means importing the
    constructors (and numpy); that is done only for ``pytest --markers``, where it is shown.
    """
    declared = config.hook.pytest_placeborag_extra_options()
    extra = sorted({name for names in declared for name in names})
    config.stash[_EXTRA_KEY] = tuple(extra)
    signature = marker_signature(extra) if getattr(config.option, "markers", False) else MARKER
    config.addinivalue_line(
        "markers",
        f"{signature}: configure the placeborag fixtures; each option goes to "
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
                f"{shown(marker.args)}; write e.g. @pytest.mark.placeborag(profile='chroma')"
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


def build_from_options(
    factory: Callable[..., _T], options: dict[str, Any], *args: Any, **wired: Any
) -> _T:
    """Call ``factory(*args, **wired, **options)`` for a fixture; a value the factory rejects
    (``TypeError`` or ``ValueError``) fails the test with the options and the factory's message."""
    __tracebackhide__ = True
    try:
        return factory(*args, **wired, **options)
    except (TypeError, ValueError) as exc:
        name = getattr(factory, "__name__", repr(factory))
        message = f"placeborag marker options {shown(options)} rejected by {name}: "
        message += f"{type(exc).__name__}: {exc}"
    _fail(message)  # outside the except block, so pytest shows no chained traceback


@pytest.fixture
def fake_embedder(request: pytest.FixtureRequest) -> FakeEmbedder:
    """A fresh ``FakeEmbedder`` for this test, configured by the ``placeborag`` marker."""
    from placeborag_core.embedding.embedder import FakeEmbedder

    return build_from_options(FakeEmbedder, marker_options(request).embedder)


@pytest.fixture
def fake_vector_store(
    request: pytest.FixtureRequest, fake_embedder: FakeEmbedder
) -> FakeVectorStore:
    """A fresh, empty ``FakeVectorStore`` for this test, built on this test's ``fake_embedder``."""
    from placeborag_core.store.vector_store import FakeVectorStore

    return build_from_options(
        FakeVectorStore, marker_options(request).store, embedder=fake_embedder
    )
