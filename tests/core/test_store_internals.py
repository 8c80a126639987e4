"""Storage layout: one growing float32 matrix per namespace, bulk compaction keeping order."""

from __future__ import annotations

import numpy as np
import pytest

from placeborag_core import FakeVectorStore


def _partition(store: FakeVectorStore, namespace: str = "") -> object:
    part = store._spaces.get(namespace)
    assert part is not None
    return part


@pytest.mark.parametrize("profile", ["default", "chroma", "faiss"])
def test_matrix_layout_and_geometric_growth(profile: str) -> None:
    # every profile keeps one row-major float32 matrix (pre-filters gather its rows)
    store = FakeVectorStore(profile=profile)
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


@pytest.mark.parametrize(
    ("profile", "metric", "tie_order"),
    [
        ("default", None, 1),
        ("chroma", "cosine", 1),
        ("chroma", "ip", 1),
        ("faiss", "ip", -1),  # FAISS's heap hands a tie group back in descending position
    ],
)
def test_identical_vectors_score_identically_wherever_they_sit(
    profile: str, metric: str | None, tie_order: int
) -> None:
    # BLAS computes a matrix's last rows (those short of a SIMD block) with other code, so scored
    # naively, copies of one vector score an ulp apart by position and ties break by rounding.
    rng = np.random.default_rng(5)
    for size in (3, 17, 100, 1000, 1234):
        store = FakeVectorStore(profile=profile, metric=metric)
        rows = rng.standard_normal((size, 384)).astype(np.float32)
        copies = sorted({0, size // 3, size - 2, size - 1})
        rows[copies] = rng.standard_normal(384).astype(np.float32)
        store.upsert_many([(f"r{i:05d}", None, None, rows[i]) for i in range(size)])
        query = rows[copies[0]] + 0.5 * rng.standard_normal(384).astype(np.float32)
        found = [m for m in store.query(query, k=size) if int(m.id[1:]) in copies]
        assert len({m.score for m in found}) == 1, (size, [m.score for m in found])
        assert len({m.similarity for m in found}) == 1, (size, [m.similarity for m in found])
        assert [m.id for m in found] == [f"r{i:05d}" for i in copies][::tie_order]


@pytest.mark.parametrize("profile", ["default", "chroma"])
def test_large_appends_after_existing_rows_keep_every_vector(profile: str) -> None:
    rng = np.random.default_rng(11)
    rows = rng.standard_normal((5100, 8)).astype(np.float32)
    store = FakeVectorStore(profile=profile)
    store.upsert_many([(f"r{i:05d}", None, None, rows[i]) for i in range(100)])
    store.upsert_many([(f"r{i:05d}", None, None, rows[i]) for i in range(100, 5100)])
    ids, _, _, matrix = store.snapshot()
    assert ids == [f"r{i:05d}" for i in range(5100)]
    assert np.array_equal(matrix, rows)


def test_compact_gives_capacity_back() -> None:
    store = FakeVectorStore()
    angles = np.linspace(0.0, np.pi / 2, 4000)
    store.upsert_many([(str(i), None, None, [np.cos(a), np.sin(a)]) for i, a in enumerate(angles)])
    store.upsert("4000", None, vector=[0.0, 1.0])  # the matrix grows to 8000 rows
    grown = _partition(store).matrix.shape[0]  # type: ignore[attr-defined]
    store.delete([str(i) for i in range(3000)])  # 3000 dead rows: compacted on the way
    assert _partition(store).matrix.shape[0] < grown  # type: ignore[attr-defined]
    store.delete([str(i) for i in range(3000, 3901)])
    store.compact()
    partition = _partition(store)
    assert partition.n_rows == 100  # type: ignore[attr-defined]
    assert partition.matrix.shape[0] < 200  # type: ignore[attr-defined]
    query = [np.cos(angles[3950]), np.sin(angles[3950])]
    assert [m.id for m in store.query(query, k=1)] == ["3950"]


def test_exists_filter_follows_every_write_after_its_rows_are_cached() -> None:
    # the rows carrying a key are kept as an array between queries; each write must refresh them
    store = FakeVectorStore()
    store.upsert_many(
        [(f"r{i}", None, {"tag": i} if i % 2 else {}, [1.0, float(i)]) for i in range(6)]
    )

    def tagged() -> list[str]:
        return sorted(m.id for m in store.query([1.0, 0.0], k=10, where={"tag": {"$exists": True}}))

    assert tagged() == ["r1", "r3", "r5"]
    assert tagged() == ["r1", "r3", "r5"]  # served from the cached rows
    store.upsert("r0", None, {"tag": "new"}, vector=[1.0, 0.0])
    assert tagged() == ["r0", "r1", "r3", "r5"]
    store.upsert("r3", None, {"other": 1}, vector=[1.0, 3.0])  # replaced without the key
    assert tagged() == ["r0", "r1", "r5"]
    store.delete(["r1"])
    assert tagged() == ["r0", "r5"]
