"""pytest plugin for placeborag_langchain: the `langchain_embeddings` and `langchain_vector_store`
fixtures, configured by the `placeborag` marker.

Registers nothing when langchain_core is not importable, so installing placeborag without the
LangChain extra leaves pytest untouched. Marker options are routed by the core plugin
(`placeborag_core.pytest_plugin.marker_options`): embedder options go to `PlaceboEmbeddings`,
store options to `PlaceboVectorStore`, plus this plugin's own `namespace`, `collection_name`
and (FAISS) `distance_strategy`.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Collection
from typing import Any, NoReturn, TypeVar

import pytest

__all__: list[str] = []

EXTRA_OPTIONS = ("collection_name", "distance_strategy", "namespace")
_T = TypeVar("_T")


def _fail(message: str) -> NoReturn:
    __tracebackhide__ = True
    pytest.fail(message, pytrace=False)


def _build(factory: Callable[..., _T], options: dict[str, Any], *args: Any) -> _T:
    """`factory(*args, **options)`; a rejected option value fails the test with its message."""
    __tracebackhide__ = True
    try:
        return factory(*args, **options)
    except (TypeError, ValueError) as exc:
        _fail(
            f"placeborag marker options {options!r} rejected by {factory.__name__}: "
            f"{type(exc).__name__}: {exc}"
        )


if importlib.util.find_spec("langchain_core") is not None:
    from placeborag_core.pytest_plugin import marker_options
    from placeborag_langchain.embeddings import PlaceboEmbeddings
    from placeborag_langchain.vectorstore import PlaceboVectorStore

    __all__ += ["langchain_embeddings", "langchain_vector_store"]

    @pytest.hookimpl(optionalhook=True)
    def pytest_placeborag_extra_options() -> Collection[str]:
        """The marker options this plugin adds to the core's constructor-derived set."""
        return EXTRA_OPTIONS

    @pytest.fixture
    def langchain_embeddings(request: pytest.FixtureRequest) -> PlaceboEmbeddings:
        """A fresh `PlaceboEmbeddings` built from the marker's embedder options."""
        return _build(PlaceboEmbeddings, marker_options(request).embedder)

    @pytest.fixture
    def langchain_vector_store(
        request: pytest.FixtureRequest, langchain_embeddings: PlaceboEmbeddings
    ) -> PlaceboVectorStore:
        """A fresh, empty `PlaceboVectorStore` over this test's `langchain_embeddings`,
        configured by the marker (store options, `namespace`, `collection_name`,
        `distance_strategy`)."""
        routed = marker_options(request)
        options = dict(routed.store)
        options.update({k: v for k, v in routed.extra.items() if k in EXTRA_OPTIONS})
        return _build(PlaceboVectorStore, options, langchain_embeddings)
