"""``placeborag_llamaindex.PlaceboVectorStore`` against llama-index's Chroma and Qdrant stores.

Both stores sit behind the framework's own pipeline: ``VectorStoreIndex`` over
``StorageContext.from_defaults(vector_store=...)`` with the same ``PlaceboEmbedding``, then
``index.as_retriever(similarity_top_k=k, filters=MetadataFilters(...)).retrieve(query)``.
Compared: node ids tie-aware, scores (Chroma's exp(-distance), Qdrant's raw score) within
float32 tolerance, node text and metadata by id, and errors for operators and conditions the
integration refuses (Chroma ValueError, Qdrant NotImplementedError) by type.
"""

from __future__ import annotations

import importlib.util
import uuid
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from ._cases import COLORS, PHRASES, TITLES
from ._compare import Hit, Verdict, compare_errors, compare_rankings
from ._divergences import KNOWN
from ._draw import Draw, check_drawn_cases
from ._engines import chroma_client, collection_name
from ._runners import POLICIES, attempt

pytestmark = pytest.mark.fidelity

METRICS = {
    "chroma": ("l2", "cosine", "ip"),
    "qdrant": ("cosine", "dot", "euclid"),
    "milvus": ("ip", "cosine", "l2"),
}
PACKAGES = {
    "chroma": "llama_index.vector_stores.chroma",
    "qdrant": "llama_index.vector_stores.qdrant",
    "milvus": "llama_index.vector_stores.milvus",
}
EXAMPLES = {"milvus": 67}
"""Drawn cases per metric where it is not 25: MilvusVectorStore gets 3 x 67 = 201 cases (each
~0.1 s: a round trip to the Milvus Lite server per insert, search and delete)."""
LOCAL_INDEXES = "Payload indexes have no effect in the local Qdrant"
"""The UserWarning llama-index's Qdrant store emits in local mode; filtered by its text."""

OPERATORS = ("==", "!=", ">", ">=", "<", "<=", "in", "nin", "text_match",
             "text_match_insensitive", "is_empty", "any", "all", "contains")  # fmt: skip
SUPPORTED = {
    "chroma": OPERATORS[:8],
    "qdrant": OPERATORS[:11],
    "milvus": (*OPERATORS[:9], *OPERATORS[10:]),
}
"""Operators each real integration translates (li-chroma-filters, li-qdrant-filters,
li-*-filter-unsupported); the others must raise."""


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def _params() -> list[Any]:
    out = []
    for backend, metrics in METRICS.items():
        missing = [m for m in (PACKAGES[backend], "placeborag_llamaindex", "llama_index.core")
                   if not _installed(m)]  # fmt: skip
        reason = f"not installed: {', '.join(missing)} (pip install 'placeborag[fidelity,all]')"
        mark = pytest.mark.skipif(bool(missing), reason=reason)
        out += [pytest.param(backend, m, id=f"{backend}-{m}", marks=mark) for m in metrics]
    return out


def _real_store(backend: str, metric: str, dim: int) -> Any:
    if backend == "milvus":
        from ._milvus import llamaindex_milvus_store

        return llamaindex_milvus_store(metric, dim)
    if backend == "chroma":
        from llama_index.vector_stores.chroma import ChromaVectorStore

        collection = chroma_client().create_collection(
            collection_name(), metadata={"hnsw:space": metric}, embedding_function=None
        )
        return ChromaVectorStore(chroma_collection=collection)
    from llama_index.vector_stores.qdrant import QdrantVectorStore
    from qdrant_client import QdrantClient, models

    distance = models.Distance({"cosine": "Cosine", "dot": "Dot", "euclid": "Euclid"}[metric])
    return QdrantVectorStore(
        collection_name=collection_name(),
        client=QdrantClient(":memory:"),
        dense_config=models.VectorParams(size=dim, distance=distance),
    )


def _index(store: Any, nodes: list[Any], embedding: Any) -> Any:
    from llama_index.core import StorageContext, VectorStoreIndex

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=LOCAL_INDEXES, category=UserWarning)
        context = StorageContext.from_defaults(vector_store=store)
        return VectorStoreIndex(nodes, storage_context=context, embed_model=embedding)


def _draw_filter(d: Draw, backend: str, depth: int = 1) -> Any:
    from llama_index.core.vector_stores.types import (
        FilterCondition,
        MetadataFilter,
        MetadataFilters,
    )

    parts: list[Any] = []
    for _ in range(d.integer(1, 3)):
        if depth > 0 and d.chance(0.2):
            parts.append(_draw_filter(d, backend, depth - 1))
            continue
        key = d.choice(("color", "n", "title", "missing"))
        op = d.choice(SUPPORTED[backend] if d.chance(0.85) else OPERATORS)
        if op in (">", ">=", "<", "<=") and d.chance(0.8):
            key = d.choice(("n", "missing"))  # mostly numeric bounds; strings raise
        value: Any
        if op in ("in", "nin", "any", "all"):
            value = [d.choice(COLORS), d.choice(COLORS)] if key != "n" else [d.choice((1, 2, 5))]
        elif key == "color":
            value = d.choice(COLORS)
        elif key == "title":
            value = d.choice((*TITLES, "alpha", "Beta"))
        else:
            value = d.choice((1, 2, 5, 2.5, 1.0))
        parts.append(MetadataFilter(key=key, value=value, operator=op))
    condition = d.choice((FilterCondition.AND, FilterCondition.OR))
    if d.chance(0.15):
        condition = FilterCondition.NOT
    return MetadataFilters(filters=parts, condition=condition)


def _retrieve(index: Any, query: str, k: int, filters: Any) -> list[Any]:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=LOCAL_INDEXES, category=UserWarning)
        return list(index.as_retriever(similarity_top_k=k, filters=filters).retrieve(query))


def _compare(
    backend: str, ours: Any, theirs: Any, call: Callable[[Any, int], list[Any]], k: int, n: int
) -> Verdict:
    our_nodes, our_error = attempt(lambda: call(ours, k))
    their_nodes, their_error = attempt(lambda: call(theirs, k))
    if our_error is not None or their_error is not None:
        return compare_errors(our_error, their_error)
    # k >= n already returned every match: no second round trip for the candidates
    exhaustive = their_nodes if k >= n else call(theirs, n)
    candidates = {r.node.node_id: float(r.score) for r in exhaustive}
    mine = {r.node.node_id: float(r.score) for r in (our_nodes if k >= n else call(ours, n))}
    content = {r.node.node_id: (r.node.get_content(), r.node.metadata) for r in exhaustive}
    for r in our_nodes:
        got = (r.node.get_content(), r.node.metadata)
        if r.node.node_id in content and got != content[r.node.node_id]:
            return Verdict(
                False, detail=f"node {r.node.node_id}: {got} vs {content[r.node.node_id]}"
            )
    return compare_rankings(
        [Hit(r.node.node_id, float(r.score)) for r in our_nodes],
        [Hit(r.node.node_id, float(r.score)) for r in their_nodes],
        k=k, candidates=candidates, tol=1e-5, policy=POLICIES[backend], our_candidates=mine,
    )  # fmt: skip


def llamaindex_case(d: Draw, backend: str, metric: str) -> list[tuple[str, Verdict]]:
    """Index drawn nodes in both stores; compare 1-2 retrievals (most of them filtered)."""
    from llama_index.core.schema import TextNode

    from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore

    embedding = PlaceboEmbedding(dimensions=32)
    n = d.integer(1, 10)
    rng = np.random.default_rng(d.integer(0, 2**32 - 1))
    order = rng.permutation(n)

    def nodes() -> list[Any]:
        out = []
        for i in order:
            meta: dict[str, Any] = {"position": int(i)}
            if rng.random() < 0.8:
                meta["color"] = COLORS[int(rng.integers(len(COLORS)))]
            if rng.random() < 0.8:
                meta["n"] = [1, 2, 5, 2.5, 1.0][int(rng.integers(5))]
            if rng.random() < 0.5:
                meta["title"] = TITLES[int(rng.integers(len(TITLES)))]
            text = PHRASES[int(rng.integers(len(PHRASES)))] or "empty"
            out.append(TextNode(id_=str(uuid.UUID(int=int(i) + 1)), text=text, metadata=meta))
        return out

    state = rng.bit_generator.state
    ours = _index(PlaceboVectorStore(profile=backend, metric=metric), nodes(), embedding)
    rng.bit_generator.state = state  # the same nodes again
    real = _real_store(backend, metric, 32)
    try:
        return _retrievals(d, backend, ours, _index(real, nodes(), embedding), n)
    finally:
        if backend == "milvus":
            from ._milvus import release_llamaindex_milvus_store

            ids = [str(uuid.UUID(int=int(i) + 1)) for i in order]
            release_llamaindex_milvus_store(real, metric, 32, ids)


def _retrievals(d: Draw, backend: str, ours: Any, theirs: Any, n: int) -> list[tuple[str, Verdict]]:
    verdicts = []
    for _ in range(d.integer(1, 2)):
        query = d.choice(PHRASES) or "empty"
        k = d.choice((1, 2, 3, 5, n + 2))
        filters = _draw_filter(d, backend) if d.chance(0.7) else None

        def call(index: Any, k: int, q: str = query, f: Any = filters) -> list[Any]:
            return _retrieve(index, q, k, f)

        label = f"retrieve {query!r} k={k} filters={filters!r}"
        verdicts.append((label, _compare(backend, ours, theirs, call, k, n)))
    return verdicts


@pytest.mark.parametrize(("backend", "metric"), _params())
def test_llamaindex_integration_agrees(backend: str, metric: str) -> None:
    def run(d: Draw) -> None:
        for label, verdict in llamaindex_case(d, backend, metric):
            assert verdict.agree, f"{label}: {verdict.detail}"
            for key in verdict.divergences:
                assert backend in KNOWN[key].engines, (key, label)

    check_drawn_cases(f"li-{backend}/{metric}", EXAMPLES.get(backend, 25), run)
