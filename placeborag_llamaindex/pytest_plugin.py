"""pytest plugin of placeborag_llamaindex: the ``llamaindex_embed_model`` and
``llamaindex_vector_store`` fixtures, configured by the ``placeborag`` marker.

Registered through the ``pytest11`` entry point. Where ``llama_index.core`` cannot be imported it
registers nothing (no fixtures, no marker options), so installing placeborag never breaks a suite
that does not use LlamaIndex. LlamaIndex itself is imported only when a fixture is first used, so
the plugin costs nothing in a session that does not use it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import pytest

if TYPE_CHECKING:
    from placeborag_llamaindex.embedding import PlaceboEmbedding
    from placeborag_llamaindex.vector_store import PlaceboVectorStore

__all__ = ["EXTRA_OPTIONS", "llamaindex_available"]

EXTRA_OPTIONS = ("namespace",)
_T = TypeVar("_T")


def llamaindex_available() -> bool:
    """Whether ``llama_index.core`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("llama_index.core") is not None
    except (ImportError, ValueError):
        return False


def _fail(message: str) -> NoReturn:
    __tracebackhide__ = True
    pytest.fail(message, pytrace=False)


def _build(factory: Callable[..., _T], options: dict[str, Any], **wired: Any) -> _T:
    """``factory(**wired, **options)``; a rejected option value fails the test with its message."""
    __tracebackhide__ = True
    try:
        return factory(**wired, **options)
    except (TypeError, ValueError) as exc:
        _fail(
            f"placeborag marker options {options!r} rejected by {factory.__name__}: "
            f"{type(exc).__name__}: {exc}"
        )


if llamaindex_available():
    __all__ += ["llamaindex_embed_model", "llamaindex_vector_store"]

    @pytest.hookimpl(optionalhook=True)
    def pytest_placeborag_extra_options() -> tuple[str, ...]:
        """The marker options this plugin reads besides the core constructor options."""
        return EXTRA_OPTIONS

    @pytest.fixture
    def llamaindex_embed_model(request: pytest.FixtureRequest) -> PlaceboEmbedding:
        """A fresh ``PlaceboEmbedding``; embedder options come from the ``placeborag`` marker."""
        from placeborag_core.pytest_plugin import marker_options
        from placeborag_llamaindex.embedding import PlaceboEmbedding

        return _build(PlaceboEmbedding, marker_options(request).embedder)

    @pytest.fixture
    def llamaindex_vector_store(
        request: pytest.FixtureRequest, llamaindex_embed_model: PlaceboEmbedding
    ) -> PlaceboVectorStore:
        """A fresh, empty ``PlaceboVectorStore`` sharing this test's ``llamaindex_embed_model``.

        Store options (``profile``, ``metric``, ``filter_mode``, ``recall``, ``visibility``,
        ``orphaned_ids``) and ``namespace`` come from the ``placeborag`` marker.
        """
        from placeborag_core.pytest_plugin import marker_options
        from placeborag_llamaindex.vector_store import PlaceboVectorStore

        routed = marker_options(request)
        options = dict(routed.store)
        options.update({k: v for k, v in routed.extra.items() if k in EXTRA_OPTIONS})
        return _build(PlaceboVectorStore, options, embedder=llamaindex_embed_model)
