"""The pgvector profile without a server: the measured numbers, tie orders and JSONB filter
outcomes of docs/engines/pgvector.md, asserted on the core (the fidelity suite compares the
same behaviour with PostgreSQL itself)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from placeborag_core import FakeVectorStore
from placeborag_core.backends.pgvector.jsonb import (
    PathCompare,
    TextIn,
    TextLike,
    as_text,
    path_compare,
)
from placeborag_core.backends.pgvector.profile import PgvectorLimitError
from placeborag_core.backends.pgvector.ties import PostgresSortTies, pg_order
from placeborag_core.errors import FilterError

Q = [1.0, 0.0, 0.0]
DOCS = {
    "same": [1.0, 0.0, 0.0],
    "twice": [2.0, 0.0, 0.0],
    "c34": [3.0, 4.0, 0.0],
    "diag": [0.6, 0.0, 0.8],
    "ortho": [0.0, 1.0, 0.0],
    "opp": [-1.0, 0.0, 0.0],
}


def _store(metric: str) -> FakeVectorStore:
    store = FakeVectorStore(profile="pgvector", metric=metric)
    store.upsert_many([(key, None, {}, vector) for key, vector in DOCS.items()])
    return store


@pytest.mark.parametrize(
    ("metric", "expected", "engine"),
    [
        (
            "l2",
            [("same", 0.0), ("diag", 0.8944271909999159), ("twice", 1.0),
             ("ortho", 1.4142135623730951), ("opp", 2.0), ("c34", 4.47213595499958)],
            {"diag": 0.8944271976639178},
        ),
        (
            "cosine",
            [("same", 0.0), ("twice", 0.0), ("c34", 0.4), ("diag", 0.4), ("ortho", 1.0),
             ("opp", 2.0)],
            {"diag": 0.3999999761581421},
        ),
        (
            "ip",
            [("c34", -3.0), ("twice", -2.0), ("same", -1.0), ("diag", -0.6), ("ortho", -0.0),
             ("opp", 1.0)],
            {"diag": -0.6000000238418579},
        ),
    ],
)  # fmt: skip
def test_scores_are_the_exact_quantities_within_1e6_of_the_engine(
    metric: str, expected: list[Any], engine: dict[str, float]
) -> None:
    # The exact quantity, then pgvector's double-precision step (sqrt, 1 -, -); the engine's
    # float32 lane sums differ in the last bits (pgvector-score-profile-exact-within-1e-6).
    # diag and q are FakeEmbedder-style unit vectors: scored by their exact integer cosine.
    got = [(m.id, m.score) for m in _store(metric).query(Q, 10)]
    assert got == expected
    assert all(type(score) is float for _, score in got)
    for key, measured in engine.items():
        assert abs(dict(got)[key] - measured) < 1e-6


def test_an_orthogonal_pair_scores_negative_zero_under_ip() -> None:
    ortho = next(m for m in _store("ip").query(Q, 10) if m.id == "ortho")
    assert math.copysign(1.0, ortho.score) == -1.0


def test_a_zero_vector_has_a_nan_cosine_distance_and_sorts_last() -> None:
    store = _store("cosine")
    store.upsert("zero", None, vector=[0.0, 0.0, 0.0])
    matches = store.query(Q, 10)
    assert matches[-1].id == "zero"
    assert math.isnan(matches[-1].score)


def test_a_zero_query_has_nan_cosine_distances_that_tie() -> None:
    matches = _store("cosine").query([0.0, 0.0, 0.0], 3)
    assert len(matches) == 3
    assert all(math.isnan(m.score) for m in matches)


def test_zero_rows_sort_last_even_when_others_have_negative_cosines() -> None:
    # Phase 1 gives a zero row the key 0, above a negative cosine; it reports NaN (worst).
    store = FakeVectorStore(profile="pgvector", metric="cosine")
    rows = [(f"z{i}", None, {}, [0.0, 0.0, 0.0]) for i in range(5)]
    rows += [("neg1", None, {}, [-1.0, 0.1, 0.0]), ("neg2", None, {}, [-1.0, 0.3, 0.0])]
    store.upsert_many(rows)
    top = [m.id for m in store.query(Q, 3)]
    assert top[:2] == ["neg2", "neg1"]
    assert top[2].startswith("z")


def test_tuplesort_scrambles_ties_beyond_twice_the_limit() -> None:
    keys = np.zeros(100)
    # pgvector-ties-heapsort-order-deterministic: the first five inserted come back 1, 2, 3, 4, 0
    assert pg_order(keys, 5) == [1, 2, 3, 4, 0]
    assert pg_order(keys, 50) == list(range(50))  # 2k >= rows: quicksort of presorted input
    assert pg_order(keys, 1) == [0]


def test_ties_rule_maps_positions_to_rows() -> None:
    rows = np.array([3, 7, 9, 12], dtype=np.intp)
    chosen = PostgresSortTies().select(np.array([1.0, 0.0, 1.0, 0.0]), rows, 2, str)
    assert chosen.tolist() == [7, 12]


def test_an_upsert_moves_the_record_to_the_end_of_listings_and_ties() -> None:
    store = FakeVectorStore(profile="pgvector", metric="l2")
    store.upsert_many([(i, None, {}, [1.0, 0.0]) for i in "abcd"])
    store.upsert("a", None, {"x": 1}, vector=[1.0, 0.0])
    assert store.ids() == ["b", "c", "d", "a"]
    assert [m.id for m in store.query([1.0, 0.0], 3)] == ["b", "c", "d"]
    assert store.get("a").metadata == {"x": 1}


def test_k_zero_is_empty_and_a_negative_k_is_postgres_error() -> None:
    store = _store("l2")
    assert store.query(Q, 0) == []
    with pytest.raises(PgvectorLimitError, match=r"^LIMIT must not be negative$"):
        store.query(Q, -1)


def test_a_repeated_id_in_one_upsert_is_postgres_error() -> None:
    store = FakeVectorStore(profile="pgvector")
    with pytest.raises(ValueError, match="ON CONFLICT DO UPDATE command cannot affect row a"):
        store.upsert_many([("a", None, {}, [1.0, 0.0]), ("a", None, {}, [0.0, 1.0])])


RECORDS: dict[str, dict[str, Any]] = {
    "int": {"n": 1},
    "float": {"n": 1.0},
    "str": {"n": "1"},
    "bool": {"n": True},
    "null": {"n": None},
    "none": {},
    "list": {"n": [1, "x"]},
    "strs": {"n": ["x", "y"]},
}


def _matching(where: dict[str, Any]) -> list[str]:
    store = FakeVectorStore(profile="pgvector", metric="l2")
    store.upsert_many([(i, None, m, [1.0, 0.0]) for i, m in RECORDS.items()])
    return sorted(m.id for m in store.query([1.0, 0.0], 20, where=where))


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"n": 1}, ["float", "int", "list"]),
        ({"n": {"$eq": "1"}}, ["str"]),
        ({"n": {"$eq": True}}, ["bool"]),
        ({"n": {"$ne": 1}}, ["null"]),
        ({"n": {"$ne": "x"}}, ["null", "str", "strs"]),
        ({"n": {"$gt": 0}}, ["float", "int", "list"]),
        ({"n": {"$in": [1, "y"]}}, ["float", "int", "list", "strs"]),
        ({"n": {"$nin": [2, 3]}}, ["float", "int", "list", "null"]),
        ({"n": {"$exists": True}}, ["bool", "float", "int", "list", "null", "str", "strs"]),
        ({"n": {"$exists": False}}, ["none"]),
        ({"$not": {"n": 1}}, ["none", "null"]),  # NOT unknown stays unknown: "strs" is out
        (
            {"$or": [{"n": 1}, {"$not": {"n": "1"}}]},
            ["float", "int", "list", "none", "null", "strs"],
        ),
    ],
)
def test_jsonb_filter_semantics(where: dict[str, Any], expected: list[str]) -> None:
    assert _matching(where) == expected


def test_operators_without_a_jsonb_form_are_refused() -> None:
    with pytest.raises(FilterError, match="not supported by this profile's engine"):
        _matching({"n": {"$contains": "x"}})


def test_path_compare_matches_the_measured_table() -> None:
    # pgvector-jsonb-path-lax-table (probe pgvector_jsonb.py), rows of "== 1" and "!= null"
    values = [1, 1.0, "1", True, None, "missing", [1, "x"], ["x", "y"], {"a": 1}, [], [[1]]]

    def outcome(value: Any, op: Any, operand: Any) -> Any:
        meta = {} if value == "missing" else {"n": value}
        return PathCompare("n", op, operand).truth(meta)

    assert [outcome(v, "==", 1) for v in values] == [
        True, True, None, None, False, False, True, None, None, False, None,
    ]  # fmt: skip
    assert [outcome(v, "!=", None) for v in values] == [
        True, True, True, True, False, False, True, True, True, False, True,
    ]  # fmt: skip
    assert path_compare([1, "x"], 1, "!=") is None


def test_text_forms_of_values() -> None:
    assert [as_text(v) for v in (1, 1.0, 1e20, 1e-05, -0.0, True, "x", ["x", 1], None)] == [
        "1", "1.0", "100000000000000000000", "0.00001", "0.0", "true", "x", '["x", 1]', None,
    ]  # fmt: skip
    assert as_text(1e-05, "json") == "1e-05"
    assert TextIn("n", ["1"]).truth({"n": 1}) is True
    assert TextIn("n", ["1"]).truth({}) is None
    assert TextLike("c", "r_d", insensitive=True).truth({"c": "RED"}) is True
