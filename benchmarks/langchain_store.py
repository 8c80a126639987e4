"""Benchmark: PlaceboVectorStore against langchain-core's InMemoryVectorStore (one run).

Targets: `similarity_search` over 50,000 documents at least 50x faster than
InMemoryVectorStore holding the same documents, and `add_documents` of 50,000 documents
(embedding included) in at most 3 s. Both stores use the same PlaceboEmbeddings, so they hold
identical vectors and return the same top results. Also printed, without a target: a search
with a callable filter, which both stores call once per document with a `Document` built for it.

Run: python benchmarks/langchain_store.py [--n 50000] [--queries 7]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from langchain_core.documents import Document
from langchain_core.vectorstores import InMemoryVectorStore

from placeborag_langchain import PlaceboEmbeddings, PlaceboVectorStore

TOPICS = ["refunds", "shipping", "returns", "warranty", "billing", "accounts", "privacy"]


def corpus(n: int) -> list[Document]:
    """`n` short documents of about 150 characters with a little metadata."""
    return [
        Document(
            page_content=(
                f"Document {i} explains {TOPICS[i % 7]} for region {i % 13}: customers may "
                f"contact support within {i % 30 + 1} days, see section {i % 97} of the policy."
            ),
            metadata={"topic": TOPICS[i % 7], "region": i % 13},
            id=f"doc-{i}",
        )
        for i in range(n)
    ]


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_time(fn: Callable[[], object], repeats: int) -> float:
    return statistics.median(timed(fn) for _ in range(repeats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--queries", type=int, default=7)
    args = parser.parse_args()
    docs = corpus(args.n)
    embeddings = PlaceboEmbeddings()
    query = "how many days do customers have to ask for a refund?"

    placebo = PlaceboVectorStore(embeddings)
    add_s = timed(lambda: placebo.add_documents(docs))
    print(f"PlaceboVectorStore.add_documents({args.n:,} docs, embedding included): {add_s:.3f} s")

    inmemory = InMemoryVectorStore(embeddings)
    mem_add_s = timed(lambda: inmemory.add_documents(docs))
    print(
        f"InMemoryVectorStore.add_documents({args.n:,} docs, embedding included): {mem_add_s:.3f} s"
    )

    placebo.similarity_search(query, k=5)  # warm-up
    ours = median_time(lambda: placebo.similarity_search(query, k=5), args.queries * 5)
    theirs = median_time(lambda: inmemory.similarity_search(query, k=5), args.queries)
    same = [d.id for d in placebo.similarity_search(query, k=5)] == [
        d.id for d in inmemory.similarity_search(query, k=5)
    ]
    print(
        f"similarity_search(k=5) median: PlaceboVectorStore {ours * 1e3:.2f} ms, "
        f"InMemoryVectorStore {theirs * 1e3:.1f} ms"
    )
    print(f"speed-up: {theirs / ours:.0f}x (target >= 50x); same top-5 ids: {same}")

    def in_region_3(doc: Document) -> bool:
        return bool(doc.metadata["region"] == 3)

    filtered_ours = median_time(
        lambda: placebo.similarity_search(query, k=5, filter=in_region_3), args.queries
    )
    filtered_theirs = median_time(
        lambda: inmemory.similarity_search(query, k=5, filter=in_region_3), args.queries
    )
    same_filtered = [d.id for d in placebo.similarity_search(query, k=5, filter=in_region_3)] == [
        d.id for d in inmemory.similarity_search(query, k=5, filter=in_region_3)
    ]
    print(
        f"similarity_search(k=5, filter=<callable>) median: PlaceboVectorStore "
        f"{filtered_ours * 1e3:.1f} ms, InMemoryVectorStore {filtered_theirs * 1e3:.1f} ms "
        f"({filtered_theirs / filtered_ours:.2f}x); same top-5 ids: {same_filtered}"
    )
    print(f"add_documents target <= 3 s: {'met' if add_s <= 3.0 else 'NOT met'}")


if __name__ == "__main__":
    main()
