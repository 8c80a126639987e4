"""The pytest plugin's public helpers, at the path adapter plugins and conftests import.

The plugin itself lives in :mod:`placeborag_core.testing.pytest_plugin` (that is what the
``pytest11`` entry point ``placeborag`` loads); this module re-exports what a plugin of your own
needs. Loaded as a plugin itself (``-p placeborag_core.pytest_plugin``, or
``pytest_plugins = ["placeborag_core.pytest_plugin"]``, natural when
``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1``), it registers that plugin under its entry-point name,
unless it is registered already, so the marker, its checks and the adapter fixtures come with
the fixtures, and ``-p no:placeborag`` still disables it.

The two fixtures are re-exported lazily (module ``__getattr__``), so that pytest, which collects
fixtures from a plugin module's attributes, finds them only in the plugin module: the same
fixtures registered twice would break ``pytest --fixtures``.
"""

from typing import TYPE_CHECKING, Any

import pytest

from placeborag_core.testing import pytest_plugin as _plugin
from placeborag_core.testing.pytest_plugin import build_from_options, marker_options

if TYPE_CHECKING:
    from placeborag_core.testing.pytest_plugin import fake_embedder, fake_vector_store

__all__ = ["build_from_options", "fake_embedder", "fake_vector_store", "marker_options"]

_PLUGIN_NAME = "placeborag"  # the pytest11 entry point's name
_FIXTURES = ("fake_embedder", "fake_vector_store")


def __getattr__(name: str) -> Any:
    if name in _FIXTURES:
        return getattr(_plugin, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Register the plugin module (marker, checks, adapter fixtures) when this module is loaded
    as a plugin and the entry point has not registered it (autoload off)."""
    if pluginmanager.is_registered(_plugin) or pluginmanager.is_blocked(_PLUGIN_NAME):
        return
    if pluginmanager.has_plugin(_PLUGIN_NAME):
        return  # a plugin of another package holds the name: leave it
    pluginmanager.register(_plugin, _PLUGIN_NAME)
