"""Concurrent writers and readers end in the same state as a sequential run."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator

import numpy as np
import pytest

from placeborag_core import FakeVectorStore

WRITERS = 4
PER_WRITER = 150


@pytest.fixture
def fast_switching() -> Iterator[None]:
    """Make the interpreter switch threads very often, so races show up."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def _writer_ops(writer: int) -> list[tuple[str, object]]:
    rng = np.random.default_rng(writer)
    ops: list[tuple[str, object]] = []
    for i in range(PER_WRITER):
        record_id = f"w{writer}-{i}"
        ops.append(("upsert", (record_id, rng.normal(size=8), {"w": writer, "i": i})))
        if i % 5 == 4:
            ops.append(("delete", f"w{writer}-{i - 2}"))
        if i % 7 == 6:
            batch = [
                (f"w{writer}-b{i}-{j}", None, {"w": writer}, rng.normal(size=8)) for j in range(3)
            ]
            ops.append(("batch", batch))
    return ops


def _run(store: FakeVectorStore, ops: list[tuple[str, object]]) -> None:
    for kind, payload in ops:
        if kind == "upsert":
            record_id, vector, meta = payload  # type: ignore[misc]
            store.upsert(record_id, None, meta, vector=vector, namespace="n")
        elif kind == "delete":
            store.delete(payload, namespace="n")  # type: ignore[arg-type]
        else:
            store.upsert_many(payload, namespace="n")  # type: ignore[arg-type]


def _snapshot(store: FakeVectorStore) -> tuple[object, ...]:
    ids = sorted(store.ids("n"))
    records = [store.get(i, namespace="n") for i in ids]
    q = np.random.default_rng(123).normal(size=8)
    ranking = [(m.id, m.score) for m in store.query(q, k=50, namespace="n")]
    filtered = [m.id for m in store.query(q, k=20, namespace="n", where={"w": 2})]
    return ids, records, store.count("n"), ranking, filtered


@pytest.mark.usefixtures("fast_switching")
def test_concurrent_writes_and_reads_match_a_sequential_run() -> None:
    plans = [_writer_ops(w) for w in range(WRITERS)]
    sequential = FakeVectorStore()
    for plan in plans:
        _run(sequential, plan)

    concurrent = FakeVectorStore()
    errors: list[BaseException] = []
    done = threading.Event()

    def reader() -> None:
        q = np.ones(8)
        try:
            while not done.is_set():
                matches = concurrent.query(q, k=10, namespace="n", where={"w": {"$gte": 0}})
                ids = [m.id for m in matches]
                assert len(ids) == len(set(ids)) <= 10
                assert all(m.metadata["w"] >= 0 for m in matches)
                concurrent.trace(q, namespace="n")
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    def writer(plan: list[tuple[str, object]]) -> None:
        try:
            _run(concurrent, plan)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    readers = [threading.Thread(target=reader) for _ in range(2)]
    writers = [threading.Thread(target=writer, args=(plan,)) for plan in plans]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    done.set()
    for thread in readers:
        thread.join()
    assert errors == []
    assert _snapshot(concurrent) == _snapshot(sequential)
