"""Filter semantics and error messages of the backend profiles (docs/engines: chroma-filter-*,
qdrant-filter-*)."""

from __future__ import annotations

from typing import Any

import pytest

from placeborag_core import FakeVectorStore, FilterError

# The records of probes/chroma_filters.py and qdrant_filters.py (ids are point ids so every
# profile accepts them)
Q3: dict[str, dict[str, Any]] = {
    "1": {"color": "red", "n": 1},
    "2": {"color": "blue", "n": 5},
    "3": {"n": 10},
    "4": {"color": "green"},
    "5": {},
    "6": {"color": "red", "n": "5"},
    "7": {"n": 2.5, "color": "blue"},
    "8": {"flag": True, "n": 1.0},
    "9": {"flag": False, "color": ""},
    "10": {"tags": ["x", "y"]},
    "11": {"tags": []},
}
ALL = sorted(Q3, key=int)


def _store(profile: str) -> FakeVectorStore:
    store = FakeVectorStore(profile=profile)
    for i, (record_id, meta) in enumerate(Q3.items()):
        # Chroma refuses an empty list (chroma-metadata-values): that record has no tags there
        kept = {} if profile == "chroma" and meta == {"tags": []} else meta
        store.upsert(record_id, None, kept, vector=[1.0, i / 10])
    return store


def _hits(store: FakeVectorStore, where: Any) -> list[str]:
    return sorted((m.id for m in store.query([1.0, 0.0], k=50, where=where)), key=int)


def _but(*ids: str) -> list[str]:
    return [i for i in ALL if i not in ids]


@pytest.fixture(scope="module")
def chroma() -> FakeVectorStore:
    return _store("chroma")


@pytest.fixture(scope="module")
def qdrant() -> FakeVectorStore:
    return _store("qdrant")


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"color": "red"}, ["1", "6"]),
        ({"color": {"$eq": "red"}}, ["1", "6"]),
        ({"n": {"$eq": 1}}, ["1", "8"]),  # 1 == 1.0
        ({"n": {"$eq": 1.0}}, ["1", "8"]),
        ({"n": {"$eq": "5"}}, ["6"]),
        ({"flag": {"$eq": 1}}, []),  # bool is not int
        # $ne and $nin match records lacking the key, even with no metadata at all
        ({"color": {"$ne": "red"}}, _but("1", "6")),
        ({"n": {"$ne": 1}}, _but("1", "8")),
        ({"color": {"$nin": ["red", "green"]}}, _but("1", "4", "6")),
        ({"color": {"$in": ["red", "green"]}}, ["1", "4", "6"]),
        ({"n": {"$gt": 3}}, ["2", "3"]),  # the string "5" is ignored
        ({"n": {"$gte": 5}}, ["2", "3"]),
        ({"n": {"$lt": 5}}, ["1", "7", "8"]),
        ({"n": {"$lte": 1}}, ["1", "8"]),
        ({"n": {"$gt": 2}}, ["2", "3", "7"]),
        ({"$and": [{"color": "blue"}, {"n": {"$gt": 3}}]}, ["2"]),
        ({"$or": [{"color": "green"}, {"n": {"$gt": 5}}]}, ["3", "4"]),
        ({"color": {"$contains": "re"}}, []),  # array membership, not substring
        ({"tags": {"$contains": "x"}}, ["10"]),
        ({"tags": {"$not_contains": "x"}}, _but("10")),  # includes missing keys
        ({"tags": "x"}, []),  # $eq does not look inside arrays
        ({"tags": {"$in": ["x"]}}, []),
        ({"tags": {"$ne": "x"}}, ALL),  # ... and $ne matches the array containing x
        ({"tags": {"$nin": ["x"]}}, ALL),
    ],
)
def test_chroma_semantics(chroma: FakeVectorStore, where: Any, expected: list[str]) -> None:
    assert _hits(chroma, where) == expected


@pytest.mark.parametrize(
    ("where", "message"),
    [
        (
            {"color": {"$foo": "red"}},
            (
                "Expected where operator to be one of $gt, $gte, $lt, $lte, $ne, $eq, $in, $nin, "
                "$contains, $not_contains, got $foo in query."
            ),
        ),
        (
            {"$not": {"color": "red"}},
            (
                "Expected where operator to be one of $gt, $gte, $lt, $lte, $ne, $eq, $in, $nin, "
                "$contains, $not_contains, got color in query."
            ),
        ),
        (
            {"color": {"$in": "red"}},
            "Expected operand value to be an list for operator $in, got red in query.",
        ),
        (
            {"color": {"$nin": "red"}},
            "Expected operand value to be an list for operator $nin, got red in query.",
        ),
        (
            {"color": {"$in": []}},
            (
                "Expected where operand value to be a non-empty list, and all values to be of the "
                "same type got [] in query."
            ),
        ),
        (
            {"color": {"$in": [1, "5"]}},
            (
                "Expected where operand value to be a non-empty list, and all values to be of the "
                "same type got [1, '5'] in query."
            ),
        ),
        (
            {"color": {"$gt": "a"}},
            "Expected operand value to be an int or a float for operator $gt, got a in query.",
        ),
        ({"flag": {"$gt": False}}, "Invalid where clause in query."),
        ({"color": {"$eq": ["red"]}}, "Invalid where clause in query."),
        (
            {"color": {"$eq": None}},
            (
                "Expected where operand value to be a str, int, float, bool, or list of those "
                "type, got None in query."
            ),
        ),
        (
            {"color": None},
            (
                "Expected where value to be a str, int, float, or operator expression, got None in "
                "query."
            ),
        ),
        (
            {"$and": []},
            (
                "Expected where value for $and or $or to be a list with at least two where "
                "expressions, got [] in query."
            ),
        ),
        (
            {"$or": []},
            (
                "Expected where value for $and or $or to be a list with at least two where "
                "expressions, got [] in query."
            ),
        ),
        (
            {"$and": [{"color": "red"}]},
            (
                "Expected where value for $and or $or to be a list with at least two where "
                "expressions, got [{'color': 'red'}] in query."
            ),
        ),
        (
            {"$and": {"color": "red"}},
            (
                "Expected where value for $and or $or to be a list of where expressions, got "
                "{'color': 'red'} in query."
            ),
        ),
        (
            {"color": "red", "n": 1},
            "Expected where to have exactly one operator, got {'color': 'red', 'n': 1} in query.",
        ),
        ({}, "Expected where to have exactly one operator, got {} in query."),
        (
            {"n": {"$gt": 1, "$lt": 9}},
            (
                "Expected operator expression to have exactly one operator, "
                "got {'$gt': 1, '$lt': 9} in query."
            ),
        ),
        (
            {"$contains": "x"},
            (
                "Expected where key to be a metadata field name or a logical operator ($and, $or), "
                "got $contains in query."
            ),
        ),
        ("color", "Expected where to be a dict, got color in query."),
    ],
)
def test_chroma_error_messages(chroma: FakeVectorStore, where: Any, message: str) -> None:
    with pytest.raises(FilterError) as info:
        chroma.query([1.0, 0.0], where=where)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"color": "red"}, ["1", "6"]),
        ({"n": 1}, ["1"]),  # MatchValue int 1 does not match float 1.0
        ({"n": 1.0}, ["1", "8"]),  # a float operand is a range equality
        ({"n": "5"}, ["6"]),
        ({"flag": True}, ["8"]),
        ({"color": ""}, ["9"]),
        ({"$not": {"color": "red"}}, _but("1", "6")),  # must_not matches missing keys
        ({"color": {"$nin": ["red", "green"]}}, ["2", "7", "9"]),  # MatchExcept needs the key
        ({"color": {"$ne": "red"}}, ["2", "4", "7", "9"]),
        ({"color": {"$in": ["red", "green"]}}, ["1", "4", "6"]),
        ({"color": {"$in": []}}, []),
        ({"n": {"$gt": 3}}, ["2", "3"]),
        ({"n": {"$lt": 5}}, ["1", "7", "8"]),
        ({"n": {"$gt": 2}}, ["2", "3", "7"]),
        ({"flag": {"$gt": 0}}, []),
        ({"$not": {"n": {"$gt": 3}}}, _but("2", "3")),
        ({"$or": [{"color": "green"}, {"n": {"$gt": 5}}]}, ["3", "4"]),
        ({"color": {"$is_empty": True}}, ["3", "5", "8", "10", "11"]),  # "" is not empty
        ({"tags": {"$is_empty": True}}, _but("10")),  # [] is empty
        ({"tags": "x"}, ["10"]),  # any element matches
        ({"tags": {"$nin": ["x"]}}, ["10"]),  # y is not excluded
        ({"tags": {"$ne": "q"}}, ["10"]),  # [] has no element to keep
    ],
)
def test_qdrant_semantics(qdrant: FakeVectorStore, where: Any, expected: list[str]) -> None:
    assert _hits(qdrant, where) == expected


def test_qdrant_text_match_is_word_token_match() -> None:
    store = FakeVectorStore(profile="qdrant")
    store.upsert("1", None, {"t": "Red fox, quick!"}, vector=[1.0])
    store.upsert("2", None, {"t": "reddish"}, vector=[1.0])
    assert [m.id for m in store.query([1.0], where={"t": {"$text_match": "red"}})] == ["1"]
    assert [m.id for m in store.query([1.0], where={"t": {"$text_match": "ed"}})] == []
    assert [m.id for m in store.query([1.0], where={"t": {"$text_match": "QUICK red"}})] == ["1"]
    assert store.query([1.0], where={"t": {"$text_match_insensitive": "RE"}}) == []


@pytest.mark.parametrize("op", ["$contains", "$not_contains", "$any", "$all"])
def test_qdrant_rejects_operators_it_lacks(qdrant: FakeVectorStore, op: str) -> None:
    with pytest.raises(FilterError, match=r"operator \$\w+ is not supported by this profile"):
        qdrant.query([1.0, 0.0], where={"tags": {op: ["x"] if op in ("$any", "$all") else "x"}})


def test_faiss_and_weaviate_use_the_core_dialect() -> None:
    for profile in ("faiss", "weaviate"):
        store = _store(profile)
        assert _hits(store, {"color": {"$ne": "red"}}) == ["2", "4", "7", "9"]
        assert _hits(store, {"n": {"$gt": 1, "$lt": 9}}) == ["2", "7"]


@pytest.mark.parametrize(
    "where",
    [
        {"flag": {"$in": [True]}},
        {"n": {"$in": [1.5]}},
        {"n": {"$in": [1, "1"]}},
        {"n": {"$ne": 1.5}},
        {"flag": {"$ne": True}},
        {"n": {"$nin": [True]}},
    ],
)
def test_qdrant_rejects_operands_its_models_reject(qdrant: FakeVectorStore, where: Any) -> None:
    with pytest.raises(FilterError, match="takes str or int values, all of one type"):
        qdrant.query([1.0, 0.0], where=where)


def test_qdrant_bool_bounds_count_as_numbers(qdrant: FakeVectorStore) -> None:
    assert _hits(qdrant, {"n": {"$gt": True}}) == ["2", "3", "7"]
    assert _hits(qdrant, {"flag": {"$gte": False}}) == []  # bool values never satisfy a Range
    store = FakeVectorStore()
    with pytest.raises(FilterError, match="a bound must be an int or a float"):
        store.query([1.0], where={"n": {"$gt": True}})


def test_qdrant_exists_is_the_negation_of_is_empty() -> None:
    store = FakeVectorStore(profile="qdrant")
    store.upsert("1", None, {"color": None, "tags": []}, vector=[1.0])
    store.upsert("2", None, {"color": "red", "tags": ["x"]}, vector=[1.0])
    store.upsert("3", None, {}, vector=[1.0])

    def hits(where: Any) -> list[str]:
        return [m.id for m in store.query([1.0], where=where)]

    assert hits({"color": {"$exists": True}}) == ["2"]
    assert hits({"tags": {"$exists": False}}) == ["1", "3"]
    default = FakeVectorStore()
    default.upsert("1", None, {"color": None}, vector=[1.0])
    assert [m.id for m in default.query([1.0], where={"color": {"$exists": True}})] == ["1"]


# tests/fidelity/probes/chroma_float_operand_vs_int.py: Chroma truncates a float operand toward
# zero (Rust `as i64`) before comparing it with an int value; float values compare as floats.
TRUNC_VALUES: list[int | float] = [1, 2, 3, -1, -2, 2.0, 2.5]


@pytest.mark.parametrize("filter_mode", ["pre", "post"])
@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"n": 2.5}, [2, 2.5]),
        ({"n": {"$eq": 2.9}}, [2]),
        ({"n": {"$eq": -1.5}}, [-1]),
        ({"n": {"$eq": 2.0}}, [2, 2.0]),
        ({"n": {"$in": [2.5]}}, [2, 2.5]),
        ({"n": {"$in": [2.9, 1.0]}}, [1, 2]),
        ({"n": {"$ne": 2.5}}, [-2, -1, 1, 2.0, 3]),
        ({"n": {"$nin": [2.5, -1.5]}}, [-2, 1, 2.0, 3]),
        ({"n": {"$gte": 2.9}}, [2, 3]),
        ({"n": {"$gte": 2.5}}, [2, 2.5, 3]),
        ({"n": {"$lt": 2.5}}, [-2, -1, 1, 2.0]),
        ({"n": {"$gt": -1.5}}, [1, 2, 2.0, 2.5, 3]),
        ({"n": {"$lte": -1.5}}, [-2, -1]),
        ({"$or": [{"n": 1.5}, {"n": {"$in": [-2.5]}}]}, [-2, 1]),
    ],
)
def test_chroma_truncates_a_float_operand_against_int_values(
    where: Any, expected: list[float], filter_mode: Any
) -> None:
    store = FakeVectorStore(profile="chroma", filter_mode=filter_mode)
    store.upsert_many(
        [(f"v{i}", None, {"n": v}, [1.0, float(i)]) for i, v in enumerate(TRUNC_VALUES)]
    )
    found = [m.metadata["n"] for m in store.query([1.0, 0.0], k=50, where=where, fetch_k=50)]
    assert sorted(found, key=float) == expected
    # the int/float split matters: 2 and 2.0 are different rows
    assert [type(v) for v in sorted(found, key=float)] == [type(v) for v in expected]


def test_chroma_float_operand_saturates_like_rust_as_i64() -> None:
    store = FakeVectorStore(profile="chroma")
    store.upsert("max", None, {"n": 2**63 - 1}, vector=[1.0])
    store.upsert("min", None, {"n": -(2**63)}, vector=[1.0])

    def hits(where: Any) -> list[str]:
        return [m.id for m in store.query([1.0], k=5, where=where)]

    assert hits({"n": {"$gte": 1e300}}) == ["max"]  # 1e300 as i64 == i64::MAX
    assert hits({"n": {"$lte": float("-inf")}}) == ["min"]
    assert hits({"n": float("inf")}) == ["max"]


@pytest.mark.parametrize("profile", ["default", "qdrant", "faiss", "weaviate"])
def test_other_profiles_compare_a_float_operand_with_ints_as_numbers(profile: str) -> None:
    store = FakeVectorStore(profile=profile)
    store.upsert_many([(str(i + 1), None, {"n": v}, [1.0]) for i, v in enumerate([1, 2, 3])])

    def hits(where: Any) -> list[str]:
        return [m.id for m in store.query([1.0], k=5, where=where)]

    assert hits({"n": 2.5}) == []
    assert hits({"n": {"$gte": 2.5}}) == ["3"]
    assert hits({"n": {"$lt": 2.5}}) == ["1", "2"]


@pytest.mark.parametrize(
    ("operator", "operand", "expected"),
    [
        ("$contains", 2.0, {"floats"}),
        ("$contains", 2, {"ints"}),
        ("$contains", 2.5, {"half"}),
        ("$not_contains", 2, {"floats", "half"}),
    ],
)
def test_chroma_contains_compares_list_elements_by_type(
    operator: str, operand: float, expected: set[str]
) -> None:
    # Evidence: tests/fidelity/probes/chroma_contains_int_vs_float.py (chromadb 1.5.9).
    store = FakeVectorStore(profile="chroma")
    for record_id, values in (("ints", [1, 2, 3]), ("floats", [2.0, 4.0]), ("half", [2.5])):
        store.upsert(record_id, None, {"n": values}, vector=[1.0, float(len(values))])
    found = {m.id for m in store.query([1.0, 0.0], k=10, where={"n": {operator: operand}})}
    assert found == expected
    default = FakeVectorStore()
    default.upsert("ints", None, {"n": [1, 2, 3]}, vector=[1.0, 0.0])
    assert [m.id for m in default.query([1.0, 0.0], where={"n": {"$contains": 2.0}})] == ["ints"]


def test_chroma_messages_name_the_call_like_chroma() -> None:
    store = FakeVectorStore(profile="chroma")
    store.upsert("a", "text", {"k": 1}, vector=[1.0, 0.0])
    with pytest.raises(FilterError, match=r"got \$foo in query\.$"):
        store.query([1.0, 0.0], where={"k": {"$foo": 1}})
    with pytest.raises(FilterError, match=r"got \$foo in get\.$"):
        store.select(where={"k": {"$foo": 1}})
