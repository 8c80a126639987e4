"""Scale figures: query, pre-filtered query, upsert and memory at 10k, 200k and 1M records, for
every profile and metric, each beside the floor measured in the same run, and beside the real
engines in process where they get there in reasonable time. Prints markdown tables; asserts
nothing.

    python -m benchmarks.scale [--sizes 10000 200000 1000000] [--engines chroma qdrant faiss]
                               [--engine-budget 240] [--profiles default pgvector ...]

``--profiles`` restricts the table to the named profiles (every metric of each; default: all).

The floor is a bare numpy float32 matrix-vector product plus ``argpartition`` and a sort of the
k best (what any exact top-k must at least do), over a column-major copy of the store's matrix:
numpy's single-threaded BLAS multiplies that layout about twice as fast as the row-major one
(``benchmarks/store.py`` prints both), so the floor is the faster of the two. The machine is
shared: every query figure interleaves ours and the floor query by query, and the ratio is the
median of the per-query ratios (median times are printed too). One BLAS thread.

Data: chunks of 12 to 40 words drawn from a 600-word vocabulary, embedded by FakeEmbedder (384
dimensions), with metadata ``bucket = i % 10`` (the 10% filter) and ``pct = i % 100`` (1%).
Queries are embedded chunks not in the store, passed as vectors (no embedding in the timing).

- upsert: ``upsert_many`` of all records with their texts, embedding included (one batch);
- memory: what the store keeps alive (tracemalloc, vectors handed in precomputed), against the
  float32 matrix plus the texts (the texts are the caller's objects, referenced, not copied);
  the default profile (every profile keeps the same arrays);
- filtered: ``where={"bucket": 3}`` (10%) and ``where={"pct": 7}`` (1%), as a ratio to the
  unfiltered floor (``/floor``) and to our own unfiltered k=5 query on the same store
  (``/ours``, interleaved the same way), and beside the floor of scoring just those rows
  (``M[rows] @ q`` with the rows known in advance);
- engines: chromadb EphemeralClient (HNSW, approximate), qdrant-client ``:memory:`` local mode,
  faiss-cpu IndexFlatIP; ingest time, then query k=5 and the 10% filter (FAISS has none) beside
  the floor. A size is skipped when the ingest rate measured at the smallest size projects over
  ``--engine-budget`` seconds.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

from placeborag_core import PROFILES, FakeEmbedder, FakeVectorStore

PROFILE_METRICS = [(p.name, v.name) for p in PROFILES.values() for v in p.variants]
"""Every profile and metric, first metric first."""
REPEATS = {10_000: 60, 200_000: 25, 1_000_000: 11}


def make_texts(count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    vocabulary = ["".join(rng.choice(letters, int(rng.integers(3, 10)))) for _ in range(600)]
    lengths = rng.integers(12, 41, count)
    words = rng.integers(0, len(vocabulary), int(lengths.sum()))
    out, at = [], 0
    for i, n in enumerate(lengths.tolist()):
        out.append(f"chunk {seed}-{i}: " + " ".join(vocabulary[w] for w in words[at : at + n]))
        at += n
    return out


def floor(matrix: np.ndarray, q32: np.ndarray, k: int) -> None:
    scores = matrix @ q32
    top = np.argpartition(-scores, k)[:k]
    top[np.argsort(-scores[top])]


def interleaved(
    ours: Callable[[np.ndarray], Any], base: Callable[[np.ndarray], Any], queries: np.ndarray
) -> tuple[float, float, float]:
    """(our median ms, the floor's median ms, median of per-query ratios). Each query runs
    twice on each side, once first and once second: whichever runs second finds the caches
    (and the store's last query) the other left, and neither side always gets that."""
    mine, theirs, ratios = [], [], []
    for turn in range(2):
        for index, query in enumerate(queries):
            times = {}
            for side in (ours, base) if (turn + index) % 2 == 0 else (base, ours):
                start = time.perf_counter()
                side(query)
                times[side] = time.perf_counter() - start
            mine.append(times[ours])
            theirs.append(times[base])
            ratios.append(times[ours] / times[base])
    return statistics.median(mine) * 1e3, statistics.median(theirs) * 1e3, statistics.median(ratios)


def records(texts: list[str]) -> list[tuple[str, str, dict[str, int]]]:
    return [(str(i), t, {"bucket": i % 10, "pct": i % 100}) for i, t in enumerate(texts)]


def bench_size(
    count: int,
    engines: list[str],
    budget: float,
    rates: dict[str, float],
    profiles: list[str] | None = None,
) -> None:
    print(f"\n## {count:,} records x 384\n", flush=True)
    embedder = FakeEmbedder()
    texts = make_texts(count, 1)
    repeats = REPEATS.get(count, 25)
    queries = embedder.embed_many(make_texts(repeats, 2))
    rows = [
        (
            "| profile | metric | upsert s | k=5 ms | floor | ratio | k=100 ms | floor | ratio "
            "| 10% ms | /floor | /ours | 1% ms | /floor | /ours |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    bare: dict[str, tuple[float, float]] = {}
    for profile, metric in PROFILE_METRICS:
        if profiles is not None and profile not in profiles:
            continue
        rows.append(bench_profile(profile, metric, embedder, texts, queries, bare))
        print(rows[-1], flush=True)
        gc.collect()
    print("\n".join(["", *rows]))
    print(
        "\nfloor of scoring just the filtered rows (M[rows] @ q + argpartition, rows known): "
        + ", ".join(
            f"{label} {ms:.2f} ms ({share:.2f} of the unfiltered floor)"
            for label, (ms, share) in bare.items()
        )
    )
    memory(count, texts, embedder)
    for engine in engines:
        run_engine(engine, count, texts, embedder, queries, budget, rates)


def bench_profile(
    profile: str,
    metric: str,
    embedder: FakeEmbedder,
    texts: list[str],
    queries: np.ndarray,
    bare: dict[str, tuple[float, float]],
) -> str:
    """One table row: upsert, query k=5 and k=100, and the two pre-filters, each beside the
    floor; ``bare`` collects the floor of scoring just the filtered rows (once)."""
    count = len(texts)
    store = FakeVectorStore(embedder, profile=profile, metric=metric)
    batch = records(texts)
    gc.collect()
    start = time.perf_counter()
    store.upsert_many(batch)
    upsert = time.perf_counter() - start
    del batch
    part = store._spaces.get("")  # the store's own matrix: the floor reads the same memory
    assert part is not None
    matrix = part.matrix[: part.n_rows]
    columns = np.asfortranarray(matrix)  # the faster layout for the floor's BLAS
    cells = [profile, metric, f"{upsert:.2f}"]
    for k in (5, 100):
        ours, base, ratio = interleaved(
            lambda q, k=k: store.query(q, k=k),
            lambda q, k=k: floor(columns, q.astype(np.float32), k),
            queries,
        )
        cells += [f"{ours:.2f}", f"{base:.2f}", f"{ratio:.2f}"]
    for where, label, chosen in (
        ({"bucket": 3}, "10%", np.flatnonzero(np.arange(count) % 10 == 3)),
        ({"pct": 7}, "1%", np.flatnonzero(np.arange(count) % 100 == 7)),
    ):
        ours, base, ratio = interleaved(
            lambda q, where=where: store.query(q, k=5, where=where),
            lambda q: floor(columns, q.astype(np.float32), 5),
            queries,
        )
        _, _, own = interleaved(
            lambda q, where=where: store.query(q, k=5, where=where),
            lambda q: store.query(q, k=5),
            queries,
        )
        cells += [f"{ours:.2f}", f"{ratio:.2f}", f"{own:.2f}"]
        if label not in bare:
            sub, full, _ = interleaved(
                lambda q, chosen=chosen: floor(matrix[chosen], q.astype(np.float32), 5),
                lambda q: floor(columns, q.astype(np.float32), 5),
                queries,
            )
            bare[label] = (sub, sub / full)
    return "| " + " | ".join(cells) + " |"


def memory(count: int, texts: list[str], embedder: FakeEmbedder) -> None:
    vectors = embedder.embed_many(texts, dtype=np.float32)
    batch = [(str(i), t, {"bucket": i % 10}, vectors[i]) for i, t in enumerate(texts)]
    ids_bytes = sum(sys.getsizeof(r[0]) for r in batch)
    gc.collect()
    tracemalloc.start()
    store = FakeVectorStore(embedder)
    before, _ = tracemalloc.get_traced_memory()
    store.upsert_many(batch)
    gc.collect()
    after, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    kept = after - before
    matrix_bytes = count * 384 * 4
    text_bytes = sum(sys.getsizeof(t) for t in texts)
    print(
        f"\nmemory kept by the store: {kept / 1e6:.1f} MB; float32 matrix {matrix_bytes / 1e6:.1f}"
        f" MB + texts {text_bytes / 1e6:.1f} MB: ratio {kept / (matrix_bytes + text_bytes):.2f} "
        f"(bound 1.5; ids {ids_bytes / 1e6:.1f} MB are the caller's); peak during the write "
        f"{peak / 1e6:.1f} MB",
        flush=True,
    )
    del store, batch, vectors
    gc.collect()


# ---------------------------------------------------------------------------- engines


def run_engine(
    engine: str,
    count: int,
    texts: list[str],
    embedder: FakeEmbedder,
    queries: np.ndarray,
    budget: float,
    rates: dict[str, float],
) -> None:
    if engine in rates and count / rates[engine] > budget:
        print(
            f"\n{engine}: skipped at {count:,}: ingest would take about "
            f"{count / rates[engine]:.0f} s at the rate measured at a smaller size "
            f"({rates[engine]:.0f} records/s; budget {budget:.0f} s)"
        )
        return
    try:
        runner = ENGINES[engine]
    except KeyError:
        print(f"unknown engine {engine}")
        return
    vectors = embedder.embed_many(texts, dtype=np.float32)
    matrix = np.asfortranarray(vectors)  # the floor, on the same rows in its faster layout
    try:
        ingest, query, filtered = runner(vectors, count)
    except ImportError as error:
        print(f"\n{engine}: not installed ({error})")
        return
    rates[engine] = count / ingest
    base = lambda q: floor(matrix, q.astype(np.float32), 5)  # noqa: E731
    ours, floor_ms, ratio = interleaved(query, base, queries)
    line = (
        f"\n{engine} ({count:,}): ingest {ingest:.1f} s; query k=5 {ours:.2f} ms beside the floor "
        f"{floor_ms:.2f} ms: ratio {ratio:.2f}"
    )
    if filtered is not None:
        ours, floor_ms, ratio = interleaved(filtered, base, queries)
        line += f"; 10% filter {ours:.2f} ms: ratio {ratio:.2f}"
    print(line, flush=True)


def _faiss(vectors: np.ndarray, count: int) -> tuple[float, Any, Any]:
    import faiss

    index = faiss.IndexFlatIP(vectors.shape[1])
    start = time.perf_counter()
    index.add(vectors)
    ingest = time.perf_counter() - start
    return ingest, lambda q: index.search(q.astype(np.float32)[None, :], 5), None


def _qdrant(vectors: np.ndarray, count: int) -> tuple[float, Any, Any]:
    from qdrant_client import QdrantClient, models

    client = QdrantClient(":memory:")
    client.create_collection(
        "bench", vectors_config=models.VectorParams(size=384, distance=models.Distance.COSINE)
    )
    start = time.perf_counter()
    for first in range(0, count, 2000):
        block = vectors[first : first + 2000]
        client.upsert(
            "bench",
            points=models.Batch(
                ids=list(range(first, first + len(block))),
                vectors=block.tolist(),
                payloads=[{"bucket": i % 10} for i in range(first, first + len(block))],
            ),
        )
    ingest = time.perf_counter() - start
    where = models.Filter(
        must=[models.FieldCondition(key="bucket", match=models.MatchValue(value=3))]
    )
    return (
        ingest,
        lambda q: client.query_points("bench", query=q.tolist(), limit=5),
        lambda q: client.query_points("bench", query=q.tolist(), limit=5, query_filter=where),
    )


def _chroma(vectors: np.ndarray, count: int) -> tuple[float, Any, Any]:
    import chromadb

    client = chromadb.EphemeralClient()
    name = f"bench{count}"
    collection = client.create_collection(name, metadata={"hnsw:space": "cosine"})
    start = time.perf_counter()
    size = 5000
    for first in range(0, count, size):
        block = vectors[first : first + size]
        collection.add(
            ids=[str(i) for i in range(first, first + len(block))],
            embeddings=block,
            metadatas=[{"bucket": i % 10} for i in range(first, first + len(block))],
        )
    ingest = time.perf_counter() - start
    return (
        ingest,
        lambda q: collection.query(query_embeddings=[q.tolist()], n_results=5),
        lambda q: collection.query(query_embeddings=[q.tolist()], n_results=5, where={"bucket": 3}),
    )


ENGINES = {"faiss": _faiss, "qdrant": _qdrant, "chroma": _chroma}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 200_000, 1_000_000])
    parser.add_argument("--engines", nargs="*", default=["faiss", "qdrant", "chroma"])
    parser.add_argument("--engine-budget", type=float, default=240.0)
    parser.add_argument("--profiles", nargs="+", choices=sorted(PROFILES), default=None)
    args = parser.parse_args(argv)
    import numpy

    print(f"numpy {numpy.__version__}; one BLAS thread; {os.cpu_count()} CPUs (shared)")
    rates: dict[str, float] = {}
    for count in sorted(args.sizes):
        bench_size(count, args.engines, args.engine_budget, rates, args.profiles)


if __name__ == "__main__":
    main()
