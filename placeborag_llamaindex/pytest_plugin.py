"""pytest plugin of placeborag_llamaindex: the ``llamaindex_embed_model`` and
``llamaindex_vector_store`` fixtures, configured by the ``placeborag`` marker.

The core plugin registers this module (it is declared in the ``placeborag.fixtures`` entry-point
group). LlamaIndex itself is imported when a fixture is first used, so a session that does not use
these fixtures does not pay for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from placeborag_core.pytest_plugin import build_from_options, marker_options

if TYPE_CHECKING:
    from placeborag_llamaindex.embedding import PlaceboEmbedding
    from placeborag_llamaindex.vector_store import PlaceboVectorStore

__all__ = ["EXTRA_OPTIONS", "llamaindex_embed_model", "llamaindex_vector_store"]

EXTRA_OPTIONS = ("namespace",)


@pytest.hookimpl(optionalhook=True)
def pytest_placeborag_extra_options() -> tuple[str, ...]:
    """The marker options this plugin reads besides the core constructor options."""
    return EXTRA_OPTIONS


@pytest.fixture
def llamaindex_embed_model(request: pytest.FixtureRequest) -> PlaceboEmbedding:
    """A fresh ``PlaceboEmbedding``; embedder options come from the ``placeborag`` marker."""
    from placeborag_llamaindex.embedding import PlaceboEmbedding

    return build_from_options(PlaceboEmbedding, marker_options(request).embedder)


@pytest.fixture
def llamaindex_vector_store(
    request: pytest.FixtureRequest, llamaindex_embed_model: PlaceboEmbedding
) -> PlaceboVectorStore:
    """A fresh, empty ``PlaceboVectorStore`` sharing this test's ``llamaindex_embed_model``.

    Store options (``profile``, ``metric``, ``filter_mode``, ``recall``, ``visibility``,
    ``orphaned_ids``) and ``namespace`` come from the ``placeborag`` marker.
    """
    from placeborag_llamaindex.vector_store import PlaceboVectorStore

    routed = marker_options(request)
    options = dict(routed.store)
    options.update({k: v for k, v in routed.extra.items() if k in EXTRA_OPTIONS})
    return build_from_options(PlaceboVectorStore, options, embedder=llamaindex_embed_model)
