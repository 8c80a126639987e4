"""The core filter dialect under the default profile, and its vectorised evaluation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import PROFILES, FakeVectorStore, FilterError
from placeborag_core.filters import compile_filter
from placeborag_core.store.partition import Batch, Partition

RECORDS: dict[str, dict[str, Any]] = {
    "r1": {"color": "red", "n": 1},
    "r2": {"color": "blue", "n": 5},
    "r3": {"n": 10},
    "r4": {"color": "green"},
    "r5": {},
    "r6": {"color": "red", "n": "5"},
    "r7": {"n": 2.5, "color": "blue"},
    "r8": {"flag": True, "n": 1.0},
    "r9": {"flag": False, "color": ""},
    "t1": {"tags": ["x", "y"], "title": "Refund Policy"},
    "t2": {"tags": [], "title": None},
}


@pytest.fixture(scope="module")
def store() -> FakeVectorStore:
    s = FakeVectorStore()
    for i, (record_id, meta) in enumerate(RECORDS.items()):
        s.upsert(record_id, None, meta, vector=[1.0, float(i)])
    return s


def hits(store: FakeVectorStore, where: Any) -> list[str]:
    return sorted(m.id for m in store.query([1.0, 0.0], k=50, where=where))


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"color": "red"}, ["r1", "r6"]),
        ({"color": {"$eq": "red"}}, ["r1", "r6"]),
        ({"n": 1}, ["r1", "r8"]),  # int 1 equals float 1.0
        ({"n": "5"}, ["r6"]),  # no string/number coercion
        ({"flag": 1}, []),  # bool is not int
        ({"flag": True}, ["r8"]),
        # a missing key never matches, whatever the operator
        ({"color": {"$ne": "red"}}, ["r2", "r4", "r7", "r9"]),
        ({"color": {"$nin": ["red", "green"]}}, ["r2", "r7", "r9"]),
        ({"color": {"$in": ["red", "green"]}}, ["r1", "r4", "r6"]),
        ({"n": {"$gt": 3}}, ["r2", "r3"]),
        ({"n": {"$gte": 5}}, ["r2", "r3"]),
        ({"n": {"$lt": 5}}, ["r1", "r7", "r8"]),
        ({"n": {"$lte": 1}}, ["r1", "r8"]),
        ({"n": {"$gt": 2, "$lt": 9}}, ["r2", "r7"]),  # operators under one key: AND
        ({"color": "blue", "n": 5}, ["r2"]),  # several keys: AND
        ({"$and": [{"color": "blue"}, {"n": {"$gt": 3}}]}, ["r2"]),
        ({"$or": [{"color": "green"}, {"n": {"$gt": 5}}]}, ["r3", "r4"]),
        ({"$or": [{"color": "green"}]}, ["r4"]),
        ({"$not": {"color": "red"}}, sorted(set(RECORDS) - {"r1", "r6"})),  # plain negation
        ({"tags": {"$contains": "x"}}, ["t1"]),
        ({"title": {"$contains": "Policy"}}, ["t1"]),  # substring of a str value
        ({"tags": {"$not_contains": "x"}}, ["t2"]),
        ({"tags": {"$any": ["q", "y"]}}, ["t1"]),
        ({"tags": {"$all": ["x", "y"]}}, ["t1"]),
        ({"tags": {"$all": ["x", "q"]}}, []),
        ({"title": {"$text_match": "Refund"}}, ["t1"]),
        ({"title": {"$text_match": "refund"}}, []),
        ({"title": {"$text_match_insensitive": "REFUND"}}, ["t1"]),
        ({"color": {"$is_empty": True}}, ["r3", "r5", "r8", "r9", "t1", "t2"]),
        ({"tags": {"$is_empty": True}}, sorted(set(RECORDS) - {"t1"})),
        ({"color": {"$is_empty": False}}, ["r1", "r2", "r4", "r6", "r7"]),
        ({"flag": {"$exists": True}}, ["r8", "r9"]),
        ({"flag": {"$exists": False}}, sorted(set(RECORDS) - {"r8", "r9"})),
        ({"title": {"$ne": "x"}}, ["t1", "t2"]),  # None is a value carried by t2
        ({}, sorted(RECORDS)),  # an empty mapping is no filter
        (None, sorted(RECORDS)),
    ],
)
def test_default_semantics(store: FakeVectorStore, where: Any, expected: list[str]) -> None:
    assert hits(store, where) == expected


@pytest.mark.parametrize(
    ("where", "path", "problem"),
    [
        ({"color": {"$foo": "red"}}, "where['color']['$foo']", "unknown operator '$foo'"),
        ({"color": {"$in": "red"}}, "where['color']['$in']", "$in takes a list, got str"),
        ({"n": {"$gt": "a"}}, "where['n']['$gt']", "a bound must be an int or a float"),
        ({"n": {"$gt": True}}, "where['n']['$gt']", "a bound must be an int or a float"),
        ({"$and": []}, "where['$and']", "needs at least one clause"),
        ({"$or": {"a": 1}}, "where['$or']", "takes a list of clauses"),
        ({"$or": [{"a": 1}, "b"]}, "where['$or'][1]", "expected a mapping, got str"),
        ({"$nor": []}, "where['$nor']", "unknown logical operator"),
        ({"$eq": 1}, "where['$eq']", "is a field operator"),
        ({"color": None}, "where['color']", "use $is_empty or $exists"),
        ({"color": ["a"]}, "where['color']", "use $in for a list"),
        ({"color": {}}, "where['color']", "must not be empty"),
        ({"color": {"$is_empty": 1}}, "where['color']['$is_empty']", "takes true or false"),
        ({"t": {"$text_match": 1}}, "where['t']['$text_match']", "takes a str"),
        ({"t": {"$in": [{"a": 1}]}}, "where['t']['$in']", "list items must be"),
        ({"$not": {}}, "where['$not']", "takes one non-empty clause"),
        ({1: "a"}, "where[1]", "a key must be a non-empty str"),
        (
            {"$and": [{"$or": [{"x": {"$lt": "z"}}]}]},
            "where['$and'][0]['$or'][0]['x']['$lt']",
            "a bound",
        ),
    ],
)
def test_malformed_filters_name_path_and_allowed_operators(
    store: FakeVectorStore, where: Any, path: str, problem: str
) -> None:
    with pytest.raises(FilterError) as info:
        store.query([1.0, 0.0], where=where)
    message = str(info.value)
    assert f"invalid filter at {path}: " in message
    assert problem in message
    assert "Allowed field operators (default profile): $eq, $ne, $gt" in message
    assert "logical operators: $and, $or, $not" in message


def test_non_mapping_filter_raises() -> None:
    with pytest.raises(FilterError, match="expected a mapping, got list"):
        FakeVectorStore().query([1.0], where=[{"a": 1}])  # type: ignore[arg-type]


def test_filter_errors_are_value_errors_raised_before_reading() -> None:
    # an empty store, a namespace that does not exist: the filter is still checked
    store = FakeVectorStore()
    with pytest.raises(ValueError, match="unknown operator"):
        store.query([1.0], where={"a": {"$regex": "x"}}, namespace="nothing-here")
    with pytest.raises(FilterError):
        store.trace([1.0], where={"a": {"$regex": "x"}})


def test_filter_errors_change_nothing(store: FakeVectorStore) -> None:
    before = store.ids()
    with pytest.raises(FilterError):
        store.query([1.0, 0.0], where={"$and": []})
    assert store.ids() == before


# ---------------------------------------------------------------- vectorised == per-record

_values = st.one_of(
    st.sampled_from(["a", "b", ""]),
    st.integers(-2, 2),
    st.sampled_from([0.0, 1.0, 1.5, -2.0]),
    st.sampled_from([2**53, 2**53 + 1, 2.0**53]),  # an int a float cannot hold
    st.booleans(),
    st.none(),
    st.lists(st.sampled_from(["a", "b", 1, 1.0, True]), max_size=3),
)
_metadata = st.dictionaries(st.sampled_from(["k", "j"]), _values, max_size=2)
_operand = st.one_of(
    st.sampled_from(["a", "b", ""]),
    st.integers(-2, 2),
    st.sampled_from([1.0, 1.5, 2**53 + 1, 2.0**53]),
    st.booleans(),
)
_field = st.one_of(
    st.builds(lambda k, v: {k: v}, st.sampled_from(["k", "j"]), _operand),
    st.builds(
        lambda k, op, v: {k: {op: v}},
        st.sampled_from(["k", "j"]),
        st.sampled_from(["$eq", "$ne", "$contains", "$not_contains"]),
        _operand,
    ),
    st.builds(
        lambda k, op, v: {k: {op: v}},
        st.sampled_from(["k", "j"]),
        st.sampled_from(["$in", "$nin", "$any", "$all"]),
        st.lists(_operand, max_size=3),
    ),
    st.builds(
        lambda k, op, v: {k: {op: v}},
        st.sampled_from(["k", "j"]),
        st.sampled_from(["$gt", "$gte", "$lt", "$lte"]),
        st.sampled_from([0, 1, 1.5]),
    ),
    st.builds(
        lambda k, op, v: {k: {op: v}},
        st.sampled_from(["k", "j"]),
        st.sampled_from(["$is_empty", "$exists"]),
        st.booleans(),
    ),
)
_clause = st.recursive(
    _field,
    lambda inner: st.one_of(
        st.builds(lambda cs: {"$and": cs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda cs: {"$or": cs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda c: {"$not": c}, inner),
    ),
    max_leaves=5,
)


@settings(max_examples=150, deadline=None)
@given(
    metas=st.lists(_metadata, min_size=1, max_size=8),
    where=_clause,
    profile=st.sampled_from(["default", "qdrant"]),
)
def test_vectorised_mask_agrees_with_per_record_evaluation(
    metas: list[dict[str, Any]], where: dict[str, Any], profile: str
) -> None:
    dialect = PROFILES[profile].filters
    try:
        predicate = compile_filter(where, dialect)
    except FilterError:
        return  # qdrant lacks some operators
    part = Partition(1)
    count = len(metas)
    ids = [f"r{i}" for i in range(count)]
    vectors = np.ones((count, 1), dtype=np.float32)
    hashes = np.zeros(count, dtype=np.uint64)
    part.put(Batch(ids, [None] * count, [dict(m) for m in metas], vectors, hashes), merge=False)
    if len(metas) > 2:  # an index built before a write must stay current
        predicate.mask(part)
        part.put(Batch(["r1"], [None], [dict(metas[2])], vectors[:1], hashes[:1]), merge=False)
        metas = [metas[0], metas[2], *metas[2:]]
    part.remove(["r0"], keep_orphans=False)  # a dead row must not confuse the mask
    mask = predicate.mask(part)
    for row in part.live_rows().tolist():
        assert bool(mask[row]) == predicate.matches(part.metadata_at(row)), (where, metas[row])


@pytest.mark.parametrize("filter_mode", ["pre", "post"])
def test_an_int_equals_only_a_float_of_exactly_its_value(filter_mode: str) -> None:
    # 2**53 + 1 rounds to 2.0**53 as a float; the pre-filter's index lookup must not conflate them
    store = FakeVectorStore(filter_mode=filter_mode)  # type: ignore[arg-type]
    store.upsert_many(
        [("f", None, {"n": 2.0**53}, [1.0, 0.0]), ("i", None, {"n": 2**53}, [1.0, 0.0])]
    )
    assert [m.id for m in store.query([1.0, 0.0], k=5, where={"n": 2**53 + 1})] == []
    assert sorted(m.id for m in store.query([1.0, 0.0], k=5, where={"n": 2**53})) == ["f", "i"]
    assert [m.id for m in store.query([1.0, 0.0], k=5, where={"n": {"$in": [2**53 + 1]}})] == []
