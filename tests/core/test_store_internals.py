"""Storage layout: one growing float32 matrix per namespace, bulk compaction keeping order."""

from __future__ import annotations

import numpy as np

from placeborag_core import FakeVectorStore


def _partition(store: FakeVectorStore, namespace: str = "") -> object:
    return store._parts[namespace]


def test_matrix_is_float32_contiguous_and_grows_geometrically() -> None:
    store = FakeVectorStore()
    capacities = set()
    for i in range(300):
        store.upsert(f"r{i}", None, vector=[1.0, float(i)])
        part = _partition(store)
        capacities.add(part.matrix.shape[0])  # type: ignore[attr-defined]
    part = _partition(store)
    assert part.matrix.dtype == np.float32  # type: ignore[attr-defined]
    assert part.matrix.flags["C_CONTIGUOUS"]  # type: ignore[attr-defined]
    assert sorted(capacities) == [16, 32, 64, 128, 256, 512]


def test_bulk_compaction_keeps_order_and_index() -> None:
    store = FakeVectorStore(profile="chroma")
    n = 3000
    store.upsert_many([(f"r{i}", None, {"odd": i % 2}, [1.0, 0.0]) for i in range(n)])
    store.delete([f"r{i}" for i in range(2000)])  # > half tombstoned: compacted in bulk
    part = _partition(store)
    assert part.n_rows == 1000  # type: ignore[attr-defined]
    assert store.ids()[:3] == ["r2000", "r2001", "r2002"]
    tied = store.query([1.0, 0.0], k=3, where={"odd": 1})
    assert [m.id for m in tied] == ["r2001", "r2003", "r2005"]
    store.upsert("r0", None, {"odd": 0}, vector=[1.0, 0.0])
    assert store.ids()[-1] == "r0"


def test_small_deletes_leave_tombstones_until_compact() -> None:
    store = FakeVectorStore()
    store.upsert_many([(f"r{i}", None, None, [1.0, float(i)]) for i in range(10)])
    store.delete(["r1", "r2"])
    assert _partition(store).n_rows == 10  # type: ignore[attr-defined]
    store.compact()
    assert _partition(store).n_rows == 8  # type: ignore[attr-defined]
    assert store.ids() == [f"r{i}" for i in range(10) if i not in (1, 2)]
