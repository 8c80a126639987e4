"""select(), snapshot(), callable filters (whole or nested) and fetch_k in post mode."""

from __future__ import annotations

import numpy as np
import pytest

from placeborag_core import FakeVectorStore, FilterError, Record
from placeborag_core.filters import compile_filter, record_condition


def _store(**kwargs: object) -> FakeVectorStore:
    store = FakeVectorStore(**kwargs)  # type: ignore[arg-type]
    store.upsert_many(
        [
            ("30", "c", {"n": 3}, [1.0, 0.0]),
            ("10", "a", {"n": 1}, [0.9, 0.1]),
            ("20", "b", {"n": 2}, [0.0, 1.0]),
        ]
    )
    return store


def test_select_filters_in_listing_order() -> None:
    store = _store()
    assert [r.id for r in store.select()] == ["30", "10", "20"]
    assert [r.id for r in store.select({"n": {"$gte": 2}})] == ["30", "20"]
    assert [r.id for r in store.select(ids=["20", "30", "x"])] == ["30", "20"]
    assert [r.id for r in store.select(limit=2)] == ["30", "10"]
    assert store.select(namespace="none") == []
    assert store.select({"n": 1}) == [Record("10", "a", {"n": 1}, store.get("10").vector)]  # type: ignore[union-attr]
    assert [r.id for r in _store(profile="qdrant").select()] == ["10", "20", "30"]
    with pytest.raises(FilterError):
        store.select({"n": {"$bad": 1}})
    with pytest.raises(TypeError, match="limit must be an int"):
        store.select(limit="2")  # type: ignore[arg-type]
    assert store.select(limit=0) == []
    with pytest.raises(ValueError, match="limit must be an int >= 0 or None, got -1"):
        store.select(limit=-1)


def test_select_skips_orphans_and_pending_writes() -> None:
    store = _store(orphaned_ids=True, visibility="manual")
    store.refresh()
    store.delete("10")
    store.refresh()
    store.upsert("40", "d", {"n": 4}, vector=[1.0, 1.0])
    assert [r.id for r in store.select()] == ["30", "20"]


def test_snapshot_is_a_bulk_copy_in_listing_order() -> None:
    store = _store(profile="qdrant", metric="dot")
    ids, texts, metas, matrix = store.snapshot()
    assert ids == ["10", "20", "30"]
    assert texts == ["a", "b", "c"]
    assert metas == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert matrix.dtype == np.float32
    assert matrix.tolist() == [list(store.get(i).vector) for i in ids]  # type: ignore[union-attr]
    matrix[:] = 0
    metas[0]["n"] = 99
    assert store.get("10").metadata == {"n": 1}  # type: ignore[union-attr]
    assert store.get("10").vector != (0.0, 0.0)  # type: ignore[union-attr]
    empty = FakeVectorStore().snapshot("x")
    assert empty[0] == []
    assert empty[3].shape == (0, 0)


@pytest.mark.parametrize("mode", ["pre", "post"])
def test_callable_filters_see_the_whole_record_and_follow_the_mode(mode: str) -> None:
    store = _store(filter_mode=mode)
    seen: list[Record] = []

    def wants_b(record: Record) -> bool:
        seen.append(record)
        return record.text == "b"

    got = store.query([1.0, 0.0], k=1, where=wants_b)
    assert [m.id for m in got] == (["20"] if mode == "pre" else [])
    assert all(isinstance(r, Record) and r.vector for r in seen)
    assert [m.id for m in store.query([1.0, 0.0], k=1, where=wants_b, fetch_k=3)] == ["20"]
    assert [r.id for r in store.select(lambda r: r.metadata["n"] > 1)] == ["30", "20"]


@pytest.mark.parametrize("mode", ["pre", "post"])
def test_callables_compose_with_clauses_inside_and_or_not(mode: str) -> None:
    store = _store(filter_mode=mode)

    def text_is_b(record: Record) -> bool:
        return record.text == "b"

    def ids(where: object) -> list[str]:
        return [m.id for m in store.query([1.0, 0.0], k=3, fetch_k=3, where=where)]  # type: ignore[arg-type]

    assert ids({"$or": [{"n": 3}, text_is_b]}) == ["30", "20"]
    assert ids({"$and": [{"n": {"$gte": 2}}, text_is_b]}) == ["20"]
    assert ids({"$not": text_is_b}) == ["30", "10"]
    assert ids({"$and": [{"$not": text_is_b}, {"$or": [text_is_b, {"n": 1}]}]}) == ["10"]
    assert [r.id for r in store.select({"$or": [text_is_b, {"n": 1}]})] == ["10", "20"]
    with pytest.raises(FilterError, match=r"where\['\$or'\]\[1\]: expected a mapping"):
        store.query([1.0, 0.0], where={"$or": [{"n": 1}, "b"]})
    chroma = _store(profile="chroma")
    with pytest.raises(FilterError, match="Expected where"):
        chroma.query([1.0, 0.0], where={"$or": [{"n": 1}, text_is_b]})


def test_compiled_predicates_stand_for_clauses_too() -> None:
    store = _store()
    n_is_3 = compile_filter({"n": 3}, store.profile.filters)
    ids = [m.id for m in store.query([1.0, 0.0], k=3, where={"$or": [n_is_3, {"n": 1}]})]
    assert ids == ["30", "10"]
    assert [m.id for m in store.query([1.0, 0.0], k=3, where={"$not": n_is_3})] == ["10", "20"]
    assert [m.id for m in store.query([1.0, 0.0], k=3, where=n_is_3)] == ["30"]


def test_post_mode_fetches_exactly_fetch_k_even_below_k() -> None:
    store = _store(filter_mode="post")
    assert [m.id for m in store.query([1.0, 0.0], k=3, fetch_k=2)] == ["30", "10"]
    assert [m.id for m in store.query([1.0, 0.0], k=1, fetch_k=3, where={"n": 2})] == ["20"]
    with pytest.raises(ValueError, match="k must be a positive int"):
        store.query([1.0, 0.0], k=1, fetch_k=0)


def test_record_conditions_may_skip_the_vector_copy() -> None:
    store = _store()
    seen: list[Record] = []

    def wants_b(record: Record) -> bool:
        seen.append(record)
        return record.text == "b"

    lean = record_condition(wants_b, vector=False)
    assert [m.id for m in store.query([1.0, 0.0], k=3, where=lean)] == ["20"]
    assert {r.id for r in seen} == {"10", "20", "30"}
    assert all(r.vector is None and r.metadata for r in seen)
    seen.clear()
    full = record_condition(wants_b)  # what a plain callable becomes
    assert [m.id for m in store.query([1.0, 0.0], k=3, where={"$or": [full, {"n": 1}]})] == [
        "10",
        "20",
    ]
    assert all(r.vector == store.get(r.id).vector for r in seen)  # type: ignore[union-attr]
