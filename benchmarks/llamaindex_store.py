"""Speed of the LlamaIndex adapter against LlamaIndex's own in-memory doubles (one run).

1. ``store.query`` (top 5) over 50,000 nodes of dimension 384: ``PlaceboVectorStore`` against
   ``SimpleVectorStore`` holding the same nodes. Target: at least 50x faster.
2. ``get_text_embedding_batch`` of 10,000 short texts: ``PlaceboEmbedding`` against
   ``MockEmbedding(embed_dim=384)``, both at their default batch sizes. Target: at least 2x faster.
   The two run alternately, seven times each, and the ratio is the median of the seven pairs: a
   shared machine changes speed within seconds, and alternating exposes both to the same speed.

Each figure is the median of several repetitions (timings on a shared machine are noisy). Adding
the nodes is timed and printed but not part of the targets. Run:

    python benchmarks/llamaindex_store.py
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import numpy as np
from llama_index.core import MockEmbedding
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores import SimpleVectorStore
from llama_index.core.vector_stores.types import VectorStoreQuery

from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore

N_NODES, DIMENSION, TOP_K = 50_000, 384, 5
N_TEXTS = 10_000
QUERY_TARGET, EMBED_TARGET = 50.0, 2.0


def median_seconds(action: Callable[[], object], repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def timed(action: Callable[[], object]) -> float:
    return median_seconds(action, 1)


def make_nodes() -> tuple[list[TextNode], list[list[float]]]:
    rng = np.random.default_rng(20261129)  # a local generator: no global RNG state
    matrix = rng.standard_normal((N_NODES + 3, DIMENSION))
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    vectors = matrix.tolist()
    nodes = [
        TextNode(id_=f"node-{i:05d}", text=f"text {i}", metadata={"group": i % 10}, embedding=v)
        for i, v in enumerate(vectors[:N_NODES])
    ]
    return nodes, vectors[N_NODES:]


def bench_query() -> bool:
    nodes, queries = make_nodes()
    simple, placebo = SimpleVectorStore(), PlaceboVectorStore()
    print(
        f"add {N_NODES:,} nodes: SimpleVectorStore {timed(lambda: simple.add(nodes)):.2f} s, "
        f"PlaceboVectorStore {timed(lambda: placebo.add(nodes)):.2f} s (not a target)"
    )
    for q in queries:  # same answers, so the comparison is like for like
        request = VectorStoreQuery(query_embedding=q, similarity_top_k=TOP_K)
        assert simple.query(request).ids == placebo.query(request).ids
    request = VectorStoreQuery(query_embedding=queries[0], similarity_top_k=TOP_K)
    slow = median_seconds(lambda: simple.query(request), repeat=5)
    fast = median_seconds(lambda: placebo.query(request), repeat=50)
    ratio = slow / fast
    verdict = "PASS" if ratio >= QUERY_TARGET else "FAIL"
    print(
        f"query top-{TOP_K} over {N_NODES:,} x {DIMENSION}: SimpleVectorStore {slow * 1e3:.1f} ms, "
        f"PlaceboVectorStore {fast * 1e3:.2f} ms -> {ratio:.0f}x "
        f"(target >= {QUERY_TARGET:.0f}x: {verdict})"
    )
    return ratio >= QUERY_TARGET


def bench_embedding() -> bool:
    texts = [f"document {i} about topic {i % 97} with a few more words" for i in range(N_TEXTS)]
    mock, placebo = MockEmbedding(embed_dim=DIMENSION), PlaceboEmbedding(dimensions=DIMENSION)
    placebo.get_text_embedding_batch(texts[:10])  # warm the code paths of both
    mock.get_text_embedding_batch(texts[:10])
    pairs = [
        (
            timed(lambda: mock.get_text_embedding_batch(texts)),
            timed(lambda: placebo.get_text_embedding_batch(texts)),
        )
        for _ in range(7)
    ]
    slow = statistics.median(mock_time for mock_time, _ in pairs)
    fast = statistics.median(ours for _, ours in pairs)
    ratio = statistics.median(mock_time / ours for mock_time, ours in pairs)
    verdict = "PASS" if ratio >= EMBED_TARGET else "FAIL"
    print(
        f"get_text_embedding_batch of {N_TEXTS:,} texts: MockEmbedding {slow:.3f} s, "
        f"PlaceboEmbedding {fast:.3f} s (medians of 7 alternating pairs) -> {ratio:.2f}x, "
        f"the median pair ratio (target >= {EMBED_TARGET:.0f}x: {verdict})"
    )
    return ratio >= EMBED_TARGET


def main() -> int:
    ok = bench_query()
    ok = bench_embedding() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
