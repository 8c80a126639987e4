"""The pgvector profile's JSONB conditions answer for a whole partition at once (``truth_masks``,
``backends/pgvector/masks.py``) exactly as they answer row by row: true, false and unknown, on
random metadata with missing keys, None, mixed types, lists and nested values, after writes that
keep the column index current."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import FakeVectorStore
from placeborag_core.backends.pgvector.jsonb import (
    KeyExists,
    PathCompare,
    TextIn,
    TextLike,
    Tri,
    TriAll,
    TriAny,
    TriNot,
)
from placeborag_core.backends.pgvector.sqltext import (
    FloatCast,
    JsonbContainsText,
    JsonbHasKeys,
    QualList,
    RowIdIn,
    TextCompare,
    TextInList,
    TextIsNull,
)
from placeborag_core.filters.compiler import compile_filter
from placeborag_core.store.partition import Partition

KEYS = ["a", "b"]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 2),
    st.sampled_from([2**53 + 1, 2**70, -(2**64)]),
    st.sampled_from([0.0, -0.0, 1.0, 2.5, -1.5, 2.0**53, 2.0**70]),
    st.sampled_from(["", "a", "b", "1", "1.0", "true", "null", "A", "0.0", "%a"]),
)
NESTED = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=2)
    ),
    max_leaves=4,
)
VALUES = st.one_of(NESTED, st.sampled_from([math.inf, -math.inf, math.nan]))  # not nested: JSON
METADATA = st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=2)
OPS = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
TEXTS = st.lists(
    st.sampled_from(["a", "1", "1.0", "true", "0.0", "-0.0", "[1]", '{"a": 1}']), max_size=3
)
LEAVES = st.one_of(
    st.builds(PathCompare, st.sampled_from(KEYS), OPS, st.one_of(VALUES, st.lists(SCALARS))),
    st.builds(
        TextIn,
        st.sampled_from(KEYS),
        TEXTS,
        negate=st.booleans(),
        column=st.sampled_from(["jsonb", "json"]),
    ),
    st.builds(
        TextLike,
        st.sampled_from(KEYS),
        st.sampled_from(["a%", "%", "_", "1%", "%.0"]),
        insensitive=st.booleans(),
        column=st.sampled_from(["jsonb", "json"]),
    ),
    st.builds(KeyExists, st.sampled_from(KEYS)),
)
COLUMNS = st.sampled_from(["jsonb", "json"])
SQL_LEAVES = st.one_of(  # the conditions llama-index's PGVectorStore writes as SQL text
    st.builds(TextCompare, st.sampled_from(KEYS), st.sampled_from(["=", "<", ">="]), TEXTS.map(
        lambda t: t[0] if t else "1"), COLUMNS),
    st.builds(TextIsNull, st.sampled_from(KEYS)),
    st.builds(TextInList, st.sampled_from(KEYS), TEXTS, negate=st.booleans(), column=COLUMNS),
    st.builds(JsonbHasKeys, st.sampled_from(KEYS), TEXTS, every=st.booleans(), column=COLUMNS),
    st.builds(JsonbContainsText, st.sampled_from(KEYS), st.sampled_from(["a", "1"]),
              column=COLUMNS),
    st.builds(RowIdIn, st.lists(st.sampled_from(["r0", "r1", "r5"]), min_size=1, max_size=2)),
)  # fmt: skip
NODES = st.recursive(
    st.one_of(LEAVES, SQL_LEAVES),
    lambda inner: st.one_of(
        st.builds(TriAll, st.lists(inner, max_size=3)),
        st.builds(TriAny, st.lists(inner, max_size=3)),
        st.builds(TriNot, inner),
        st.builds(QualList, st.lists(inner, min_size=1, max_size=3)),
    ),
    max_leaves=6,
)


def _partition(metas: list[dict[str, Any]], later: list[dict[str, Any]], gone: int) -> Partition:
    store = FakeVectorStore(profile="pgvector", metric="l2")
    store.upsert_many([(f"r{i}", None, m, [1.0, float(i)]) for i, m in enumerate(metas)])
    part = store._spaces.get("")  # type: ignore[attr-defined]
    for key in KEYS:  # index the keys now: the writes below must keep the index current
        part.value_groups(key)
    store.upsert_many([(f"r{i}", None, m, [2.0, float(i)]) for i, m in enumerate(later)])
    store.delete([f"r{i}" for i in range(gone)])
    return part


def _check(node: Tri, part: Partition) -> None:
    live = part.live_rows().tolist()
    expected = [node.row_truth(part, row) for row in live]
    assert node.mask(part)[live].tolist() == [t is True for t in expected]
    if node.vectorised:
        true, false = node.truth_masks(part, True)
        assert false is not None
        got = [True if true[r] else False if false[r] else None for r in live]
        assert got == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(METADATA, min_size=1, max_size=12),
    st.lists(METADATA, max_size=6),
    st.integers(0, 3),
    NODES,
)
def test_masks_equal_row_by_row_truth(
    metas: list[dict[str, Any]], later: list[dict[str, Any]], gone: int, node: Tri
) -> None:
    _check(node, _partition(metas, later, gone))


EDGES = [
    {"a": 2.0**53},
    {"a": 2**53},
    {"a": 0.0},
    {"a": -0.0},
    {"a": [2.0**53, None]},
    {"a": None},
    {"a": (1, 2)},
    {"a": {"a": 1}},
    {"a": math.nan},
    {"a": True},
    {"a": 1},
    {"a": "1"},
    {},
]


@pytest.mark.parametrize(
    "node",
    [PathCompare("a", "==", 2**53 + 1), PathCompare("a", "==", [2**53, None]),
     PathCompare("a", "==", 2.0**53), PathCompare("a", "==", 1.0), PathCompare("a", "<", 2**60),
     TextIn("a", ["0.0"], column="json"), TextIn("a", ["-0.0"], column="jsonb"),
     TextIn("a", ["1"], negate=True), TriNot(PathCompare("a", "==", [1, "1"])),
     TriAny([KeyExists("b"), TriNot(TextLike("a", "1%"))]), TriAll([])],
)  # fmt: skip
def test_masks_on_edge_values(node: Tri) -> None:
    # big ints beside the floats nearest them, 0.0 and -0.0 (one index group, two JSON texts),
    # a tuple (an unindexed value), NaN, null, and mappings
    _check(node, _partition(EDGES, [], 0))


@pytest.mark.parametrize(
    "where",
    [{"g": 3}, {"g": {"$in": [3, 4.0]}}, {"g": {"$ne": 3}}, {"g": {"$gt": 7}},
     {"$not": {"g": {"$nin": [1, 2]}}}, {"$or": [{"g": 3}, {"h": {"$exists": False}}]}],
)  # fmt: skip
def test_a_core_filter_reads_no_metadata_row_by_row(
    where: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FakeVectorStore(profile="pgvector", metric="l2")
    store.upsert_many([(f"r{i}", None, {"g": i % 10}, [1.0, float(i)]) for i in range(300)])
    calls: list[int] = []
    original = Partition.metadata_at

    def counting(self: Partition, row: int) -> Any:
        calls.append(row)
        return original(self, row)

    monkeypatch.setattr(Partition, "metadata_at", counting)
    got = [m.id for m in store.query([1.0, 0.0], 500, where=where)]
    assert calls == []
    monkeypatch.undo()
    predicate = compile_filter(where, store.profile.filters)
    assert sorted(got) == sorted(f"r{i}" for i in range(300) if predicate.matches({"g": i % 10}))


def test_a_condition_that_can_fail_keeps_its_whole_clause_row_by_row() -> None:
    # A cast fails on the first row it reaches; AND stops at a false child, so the masks of the
    # other children must not be asked for rows the cast would not reach.
    part = _partition([{"a": 1, "b": "x"}, {"a": 2, "b": "1"}], [], 0)
    node = TriAll([PathCompare("a", "==", 2), FloatCast("b", ">", 0.0, "jsonb")])
    assert not node.vectorised
    assert node.mask(part).tolist() == [False, True]
    assert np.asarray(TriNot(node).mask(part)).tolist() == [True, False]
