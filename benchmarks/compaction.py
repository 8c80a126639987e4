"""Memory after deleting half of a store, and after ``compact()``, beside a fresh store of the
survivors (tracemalloc, which sees numpy's buffers). Prints figures; asserts nothing.

Run: ``python -m benchmarks.compaction [--records 200000]``.
"""

from __future__ import annotations

import argparse
import gc
import tracemalloc

import numpy as np

from placeborag_core import FakeVectorStore


def _records(vectors: np.ndarray, rows: range) -> list[tuple[str, None, None, np.ndarray]]:
    return [(str(i), None, None, vectors[i]) for i in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--dimensions", type=int, default=384)
    args = parser.parse_args()
    n = args.records
    vectors = np.random.default_rng(0).standard_normal((n, args.dimensions)).astype(np.float32)
    records = _records(vectors, range(n))
    survivors = _records(vectors, range(1, n, 2))
    gc.collect()
    tracemalloc.start()
    store = FakeVectorStore()
    store.upsert_many(records)
    full = tracemalloc.get_traced_memory()[0]
    store.delete([str(i) for i in range(0, n, 2)])
    after_delete = tracemalloc.get_traced_memory()[0]
    store.compact()
    after_compact = tracemalloc.get_traced_memory()[0]
    del store
    gc.collect()
    baseline = tracemalloc.get_traced_memory()[0]
    fresh = FakeVectorStore()
    fresh.upsert_many(survivors)
    fresh_size = tracemalloc.get_traced_memory()[0] - baseline
    tracemalloc.stop()
    matrix = n * args.dimensions * 4 / 1e6
    print(f"{n:,} records x {args.dimensions} (float32 matrix {matrix:.0f} MB)")
    print(f"store with every record:       {full / 1e6:7.1f} MB")
    print(f"after deleting half:           {after_delete / 1e6:7.1f} MB")
    print(f"after compact():               {after_compact / 1e6:7.1f} MB")
    print(f"fresh store of the survivors:  {fresh_size / 1e6:7.1f} MB")


if __name__ == "__main__":
    main()
