"""The pytest plugin's public helpers, at the path adapter plugins and conftests import.

The plugin itself lives in :mod:`placeborag_core.testing.pytest_plugin` (that is what the
``pytest11`` entry point loads); this module re-exports what a plugin of your own needs.
"""

from placeborag_core.testing.pytest_plugin import (
    build_from_options,
    fake_embedder,
    fake_vector_store,
    marker_options,
)

__all__ = ["build_from_options", "fake_embedder", "fake_vector_store", "marker_options"]
