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
constructors when a fixture builds the object, and every value once more after setup, whichever
fixtures the test uses, so a bad value fails the test before its body runs.

An adapter option (``namespace``, ...) set on the test itself fails it when the test requests
placeborag fixtures but none of the adapter fixtures that may read it; inherited from a class or
module marker, it is shared with the tests that read it (see ``adapter_options``).

Adapter plugins are found through the ``placeborag.fixtures`` entry-point group (each entry names
a fixture and the plugin module that defines it) and registered by this plugin, under the module's
top-level package name (so ``-p no:placeborag_langchain`` still disables one). A plugin module
whose framework is not installed fails to import; its fixtures are then registered as stand-ins
that fail the test requesting them with the adapter's own ``ImportError`` message, which names the
extra to install, and which accept the adapter's marker options (``ADAPTER_OPTIONS``). Nothing
else in the session is affected.

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
from collections.abc import Callable, Collection, Generator
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import pytest

from placeborag_core.messages import shown
from placeborag_core.testing import _pytest_hookspecs
from placeborag_core.testing.adapter_options import ADAPTER_OPTIONS, OptionReaders, unread_options
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
CORE_FIXTURES = ("fake_embedder", "fake_vector_store")
_EXTRA_KEY = pytest.StashKey[tuple[str, ...]]()
_READERS_KEY = pytest.StashKey[OptionReaders]()
_FIXTURES_KEY = pytest.StashKey[frozenset[str]]()
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
            options = tuple(ADAPTER_OPTIONS.get(module_name, {}))
            plugin = _unavailable(plugin_name, fixtures, options, str(missing))
        pluginmanager.register(plugin, plugin_name)


def _adapter_fixtures() -> dict[str, list[str]]:
    """The adapter plugin modules declared in the entry-point group, with their fixture names."""
    by_module: dict[str, list[str]] = {}
    for entry in entry_points(group=ADAPTER_FIXTURES):
        by_module.setdefault(entry.value, []).append(entry.name)
    return dict(sorted(by_module.items()))


def _unavailable(
    plugin_name: str, fixtures: list[str], options: tuple[str, ...], reason: str
) -> types.ModuleType:
    """A stand-in plugin whose fixtures fail the requesting test with ``reason``.

    It declares the adapter's marker ``options`` (read from ``ADAPTER_OPTIONS``, since the adapter
    cannot be imported), so a marker written for its fixtures reaches them and fails with
    ``reason`` rather than as an unknown option, on every machine alike.
    """
    stand_in = types.ModuleType(plugin_name, f"{plugin_name} is unavailable: {reason}")

    def failing(name: str) -> Any:
        def fixture() -> None:
            _fail(f"fixture {shown(name)} is unavailable: {reason}")

        fixture.__doc__ = f"Unavailable: {reason}"
        return pytest.fixture(name=name)(fixture)

    def pytest_placeborag_extra_options() -> tuple[str, ...]:
        return options

    for name in fixtures:
        setattr(stand_in, name, failing(name))
    hook = pytest.hookimpl(optionalhook=True)(pytest_placeborag_extra_options)
    stand_in.pytest_placeborag_extra_options = hook  # type: ignore[attr-defined]
    return stand_in


def pytest_configure(config: pytest.Config) -> None:
    """Collect the adapters' extra option names and register the marker.

    The marker's signature lists every option with its default, which means importing the
    constructors (and numpy); that is done only for ``pytest --markers``, where it is shown.
    """
    readers = _option_readers(config.pluginmanager)
    extra = sorted(readers)
    config.stash[_EXTRA_KEY] = tuple(extra)
    config.stash[_READERS_KEY] = readers
    adapter_fixtures = {name for names in _adapter_fixtures().values() for name in names}
    config.stash[_FIXTURES_KEY] = frozenset({*CORE_FIXTURES, *adapter_fixtures})
    signature = marker_signature(extra) if getattr(config.option, "markers", False) else MARKER
    config.addinivalue_line(
        "markers",
        f"{signature}: configure the placeborag fixtures; each option goes to "
        "FakeEmbedder or FakeVectorStore by name, and the closest marker wins",
    )


def _option_readers(pluginmanager: pytest.PytestPluginManager) -> OptionReaders:
    """Every extra option name, with the fixtures that read it: placeborag's own adapters'
    options are read by the fixtures ``ADAPTER_OPTIONS`` records for them; another option of an
    adapter plugin by all the fixtures its entry points declare; a name some other plugin
    declares (a ``conftest.py``) by fixtures unknown (None)."""
    fixtures_of = {
        module.partition(".")[0]: (frozenset(names), ADAPTER_OPTIONS.get(module, {}))
        for module, names in _adapter_fixtures().items()
    }
    readers: dict[str, frozenset[str] | None] = {}
    for impl in pluginmanager.hook.pytest_placeborag_extra_options.get_hookimpls():
        plugin = fixtures_of.get(impl.plugin_name)
        declared = cast("Collection[str]", impl.function())
        for name in declared:
            known = readers.get(name, frozenset())
            if plugin is None or known is None:
                readers[name] = None
                continue
            fixtures, recorded = plugin
            readers[name] = known | frozenset(recorded.get(name, fixtures))
    return dict(sorted(readers.items()))


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
    """Check the marker's option names before any fixture is built, and remember the routing."""
    if item.get_closest_marker(MARKER) is not None:
        item.stash[_ROUTED_KEY] = _route(item)
        _check_read(item)


@pytest.hookimpl(specname="pytest_runtest_setup", wrapper=True, trylast=True)
def pytest_runtest_setup_values(item: pytest.Item) -> Generator[None, None, None]:
    """Once the fixtures are set up, check every marker value with the core constructors.

    A value is first checked by the fixture that builds from it, with that constructor's own
    message. Checking them all again here, whichever fixtures the test uses, means a bad value in
    a module's ``pytestmark`` cannot hide in the tests that do not build the object it
    configures; the test still fails at setup, before its body runs.
    """
    # No __tracebackhide__ here: pytest shows a pytrace=False failure as its message alone only
    # when at least one frame is left to show.
    yield
    routed = item.stash.get(_ROUTED_KEY, None)
    if routed is not None:
        _check_values(routed)


def _check_read(item: pytest.Item) -> None:
    """Fail a test that sets an adapter option on itself that none of its fixtures reads."""
    __tracebackhide__ = True
    own = [
        name
        for node, marker in item.iter_markers_with_node(MARKER)
        if node is item
        for name in marker.kwargs
    ]
    placeborag_fixtures = item.config.stash.get(_FIXTURES_KEY, frozenset(CORE_FIXTURES))
    readers = item.config.stash.get(_READERS_KEY, {})
    unread = unread_options(own, readers, getattr(item, "fixturenames", ()), placeborag_fixtures)
    if unread:
        name, fixtures = unread[0]
        _fail(
            f"placeborag option {shown(name)} is an adapter option: only the fixtures "
            f"{', '.join(fixtures)} may read it, and this test requests none of them, so it "
            "would be ignored. Request one, or set the option on the class or module to share "
            "it with the tests that do"
        )


def _check_values(routed: RoutedOptions) -> None:
    """Build each core object the options configure once, empty, for its constructor's checks.

    Both are cheap to build empty (the store's embedder is created on first use, so none is).
    """
    __tracebackhide__ = True
    from placeborag_core.embedding.embedder import FakeEmbedder
    from placeborag_core.store.vector_store import FakeVectorStore

    if routed.embedder:
        build_from_options(FakeEmbedder, routed.embedder)
    if routed.store:
        build_from_options(FakeVectorStore, routed.store)


def marker_options(request: pytest.FixtureRequest) -> RoutedOptions:
    """The ``placeborag`` marker options that apply to the requesting test, routed by destination.

    Includes the extra names of every installed placeborag plugin. Adapter fixtures use this instead
    of calling ``route_options`` themselves, so they see exactly what the core fixtures see.
    The markers are read when it is called, so one a fixture set up earlier added with
    ``request.node.add_marker`` counts, in pytest's marker order (after the test's own, unless
    added with ``append=False``). placeborag's own fixtures, parametrised with
    ``indirect=True``, fail the test: their options come from the marker only. A fixture of your
    own may take parameters (``params=`` or ``indirect=True``) and still call this.
    """
    __tracebackhide__ = True
    item = request.node
    if not isinstance(item, pytest.Item):
        raise TypeError("marker_options() needs a function-scoped request (a test item)")
    ours = item.config.stash.get(_FIXTURES_KEY, frozenset(CORE_FIXTURES))
    if hasattr(request, "param") and request.fixturename in ours:
        _fail(
            f"fixture {shown(request.fixturename)} takes no indirect parameter, got "
            f"{shown(request.param)}; configure it with the placeborag marker, e.g. "
            "pytest.param(..., marks=pytest.mark.placeborag(profile='chroma'))"
        )
    item.stash[_ROUTED_KEY] = routed = _route(item)
    return routed


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
