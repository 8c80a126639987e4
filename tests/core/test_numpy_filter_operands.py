"""numpy bool, integer and floating scalars in a where= filter read as the Python value, as the
store reads them in metadata; the chroma profile refuses them, as chromadb's client does."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from placeborag_core import FakeVectorStore, FilterError
from placeborag_core.backends import PROFILES
from placeborag_core.filters.dialect import FilterDialect
from placeborag_core.records import Record

ACCEPTING = [name for name in PROFILES if name != "chroma"]
INT_IDS = {"qdrant", "milvus_int64"}  # ids must be unsigned ints (or UUIDs)

# (filter with numpy operands, the same filter with Python operands)
FILTERS: list[tuple[Any, Any]] = [
    ({"n": np.int64(3)}, {"n": 3}),
    ({"n": {"$eq": np.uint8(3)}}, {"n": {"$eq": 3}}),
    ({"n": {"$ne": np.int32(3)}}, {"n": {"$ne": 3}}),
    ({"f": np.float32(1.5)}, {"f": 1.5}),
    ({"f": np.float64(2.5)}, {"f": 2.5}),
    ({"b": np.bool_(True)}, {"b": True}),
    ({"n": {"$gt": np.int16(3)}}, {"n": {"$gt": 3}}),
    ({"f": {"$lte": np.float16(1.5)}}, {"f": {"$lte": 1.5}}),
    ({"n": {"$in": [np.int64(3), np.int64(9)]}}, {"n": {"$in": [3, 9]}}),
    ({"n": {"$nin": (np.int64(3),)}}, {"n": {"$nin": (3,)}}),
    ({"$or": [{"n": np.int64(4)}, {"b": np.bool_(True)}]}, {"$or": [{"n": 4}, {"b": True}]}),
    ({"$and": [{"n": {"$gte": np.int8(3)}}, {"f": {"$lt": np.float64(2)}}]},
     {"$and": [{"n": {"$gte": 3}}, {"f": {"$lt": 2.0}}]}),
    ({"tags": {"$contains": np.int64(7)}}, {"tags": {"$contains": 7}}),
    ({"f": np.float64("nan")}, {"f": float("nan")}),
]  # fmt: skip


def _store(profile: str) -> FakeVectorStore:
    store = FakeVectorStore(profile=profile)
    first, second = ("1", "2") if profile in INT_IDS else ("a", "b")
    store.upsert_many(
        [
            (first, "refund policy", {"n": 3, "f": 1.5, "b": True, "tags": [7, 8]}),
            (second, "refund form", {"n": 4, "f": 2.5, "b": False, "tags": [9]}),
        ]
    )
    return store


def _outcome(store: FakeVectorStore, where: Any) -> object:
    """The ids a filter selects, or the error it raises (type and message)."""
    try:
        return [record.id for record in store.select(where)]
    except (FilterError, TypeError, ValueError) as error:
        return (type(error).__name__, str(error))


@pytest.mark.parametrize("profile", ACCEPTING)
def test_numpy_operands_filter_as_their_python_values(profile: str) -> None:
    store = _store(profile)
    selected = 0
    for numpy_where, python_where in FILTERS:
        outcome = _outcome(store, numpy_where)
        assert outcome == _outcome(store, python_where), (profile, numpy_where)
        selected += isinstance(outcome, list) and bool(outcome)
    assert selected >= 8, profile  # most filters are in every accepting profile's dialect
    queried = store.query("refund", k=2, where={"n": np.int64(4)})
    assert [m.metadata["n"] for m in queried] == [4]


def test_a_numpy_operand_deletes_as_its_python_value() -> None:
    store = _store("default")
    assert store.delete(where={"n": {"$in": [np.int64(4)]}}) == 1
    assert store.ids() == ["a"]


def test_the_callers_filter_and_the_callables_in_it_are_left_alone() -> None:
    seen: list[Record] = []

    def keep(record: Record) -> bool:
        seen.append(record)
        return False

    where = {"$or": [{"n": np.int64(4)}, keep]}
    assert [record.id for record in _store("default").select(where)] == ["b"]
    assert seen  # the callable was kept as a clause
    assert type(where["$or"][0]["n"]) is np.int64  # type: ignore[index]


@pytest.mark.parametrize(
    "where",
    [
        {"n": np.int64(3)},
        {"b": np.bool_(True)},
        {"f": np.float32(1.5)},
        {"n": {"$gt": np.int64(3)}},
        {"n": {"$in": [np.int64(3)]}},
        {"n": {"$nin": [np.int32(3)]}},
        {"tags": {"$contains": np.int64(7)}},
    ],
    ids=repr,
)
def test_the_chroma_profile_refuses_numpy_operands_as_chromadb_does(where: Any) -> None:
    store = _store("chroma")
    with pytest.raises(FilterError):
        store.select(where)
    with pytest.raises(FilterError):
        store.delete(where=where)
    assert store.ids() == ["a", "b"]


def test_the_chroma_profile_takes_np_float64_a_float_subclass() -> None:
    assert [r.id for r in _store("chroma").select({"f": np.float64(1.5)})] == ["a"]


def test_the_dialect_option_is_checked() -> None:
    expected = r"FilterDialect\.numpy_operands must be one of True, False"
    with pytest.raises(ValueError, match=expected):
        FilterDialect("x", frozenset({"$eq"}), frozenset(), numpy_operands="yes")  # type: ignore[arg-type]
