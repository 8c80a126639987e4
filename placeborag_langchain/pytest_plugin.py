"""pytest plugin of placeborag_langchain: the ``langchain_embeddings`` and
``langchain_vector_store`` fixtures, configured by the ``placeborag`` marker.

The core plugin registers this module (it is declared in the ``placeborag.fixtures`` entry-point
group). LangChain itself is imported when a fixture is first used, so a session that does not use
these fixtures does not pay for it. Marker options are routed by the core plugin
(``placeborag_core.testing.pytest_plugin.marker_options``): embedder options go to
``PlaceboEmbeddings``,
store options to ``PlaceboVectorStore``, plus this plugin's own ``namespace``,
``collection_name`` and (FAISS) ``distance_strategy``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

import pytest

from placeborag_core.pytest_plugin import build_from_options, marker_options

if TYPE_CHECKING:
    from placeborag_langchain.embeddings import PlaceboEmbeddings
    from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = ["EXTRA_OPTIONS", "langchain_embeddings", "langchain_vector_store"]

EXTRA_OPTIONS = ("collection_name", "distance_strategy", "namespace")


@pytest.hookimpl(optionalhook=True)
def pytest_placeborag_extra_options() -> Collection[str]:
    """The marker options this plugin adds to the core's constructor-derived set."""
    return EXTRA_OPTIONS


@pytest.fixture
def langchain_embeddings(request: pytest.FixtureRequest) -> PlaceboEmbeddings:
    """A fresh ``PlaceboEmbeddings`` built from the marker's embedder options."""
    from placeborag_langchain.embeddings import PlaceboEmbeddings

    return build_from_options(PlaceboEmbeddings, marker_options(request).embedder)


@pytest.fixture
def langchain_vector_store(
    request: pytest.FixtureRequest, langchain_embeddings: PlaceboEmbeddings
) -> PlaceboVectorStore:
    """A fresh, empty ``PlaceboVectorStore`` over this test's ``langchain_embeddings``,
    configured by the marker (store options, ``namespace``, ``collection_name``,
    ``distance_strategy``)."""
    from placeborag_langchain.vectorstore import PlaceboVectorStore

    routed = marker_options(request)
    options = dict(routed.store)
    options.update({k: v for k, v in routed.extra.items() if k in EXTRA_OPTIONS})
    return build_from_options(PlaceboVectorStore, options, langchain_embeddings)
