"""The milvus profiles' filters answered from the column index (``Test.mask``: a test asked once
per distinct value of a key; ``Equals.mask``: the rows of the equal values) agree with asking
every row, on random metadata and expressions: the same rows, or the same error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import FakeVectorStore
from placeborag_core.backends.milvus import semantics
from placeborag_core.backends.milvus.filters import Schema, read_expression
from placeborag_core.errors import FilterError
from placeborag_core.filters import value_masks
from placeborag_core.filters.predicates import Predicate
from placeborag_core.store.partition import Batch, Partition

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 2),
    st.sampled_from([0.0, -0.0, 1.0, 2.5, -1.5, float(2**53), float("nan")]),
    st.sampled_from([2**53 + 1, 2**63 - 1, 2**70]),
    st.sampled_from(["", "a", "ab", "b", "1", "é"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("xy"), inner),
    max_leaves=4,
)
METAS = st.dictionaries(st.sampled_from("abc"), VALUES, max_size=3)

NAMES = st.sampled_from(["a", "b", "c", 'a["x"]', 'a["x"]["y"]', "a[0]", '$meta["b"]', "id"])
LITERALS = st.sampled_from(
    [
        *("0", "1", "-1", "2.5", "0.0", "-0.0", "9007199254740992", "9007199254740993"),
        *("true", "false", '"a"', '"1"', '""', '"b"'),
    ]
)
COMPARISONS = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
LEAVES = st.one_of(
    st.builds("{} {} {}".format, NAMES, COMPARISONS, LITERALS),
    st.builds("{} {} {}".format, LITERALS, COMPARISONS, NAMES),
    st.builds(
        "{} {} [{}]".format,
        NAMES,
        st.sampled_from(["in", "not in"]),
        st.lists(LITERALS, min_size=1, max_size=3).map(", ".join),
    ),
    st.builds('{} like "{}"'.format, NAMES, st.sampled_from(["a%", "%", "_", "a", "%b", "1"])),
    st.builds("json_contains({}, {})".format, NAMES, LITERALS),
    st.builds("array_length({}) {} {}".format, NAMES, st.sampled_from(["==", "!="]), LITERALS),
    st.builds("{} - 1 == {}".format, NAMES, LITERALS),
    st.just("a == b"),
)
EXPRESSIONS = st.recursive(
    LEAVES,
    lambda inner: st.builds("({}) {} ({})".format, inner, st.sampled_from(["and", "or"]), inner),
    max_leaves=4,
)


def _batch(ids: list[str], metas: list[dict[str, Any]]) -> Batch:
    n = len(ids)
    return Batch(
        ids, [None] * n, metas, np.ones((n, 2), dtype=np.float32), np.zeros(n, dtype=np.uint64)
    )


def _outcome(compute: Callable[[], Any]) -> Any:
    try:
        return compute()
    except Exception as error:  # the error is the outcome compared
        return (type(error), str(error))


def _agree(
    first: list[dict[str, Any]],
    later: list[tuple[int, dict[str, Any]]],
    removed: list[int],
    orphans: bool,
    expr: str,
    grouped: bool,
) -> None:
    """``grouped``: a key's rows grouped by value however few share one (else asked one by
    one: ``MIN_GROUP``)."""
    try:
        predicate = read_expression(expr, Schema())
    except (FilterError, NotImplementedError):
        return
    part = Partition(2)
    part.put(_batch([str(i) for i in range(len(first))], first), merge=False)
    _outcome(lambda: predicate.mask(part))  # indexes the keys; the writes below keep them
    for i, meta in later:  # updates in place and new rows
        part.put(_batch([str(i)], [meta]), merge=False)
    part.remove([str(i) for i in removed], keep_orphans=orphans)

    def passing() -> list[bool]:
        return [bool(x) for x in predicate.mask(part)[part.live_rows()]]

    with patch.object(value_masks, "MIN_GROUP", 0 if grouped else 10**9):
        got = _outcome(passing)
    with (  # every test asked row by row
        patch.object(semantics.Test, "mask", Predicate.mask),
        patch.object(semantics.Equals, "mask", Predicate.mask),
    ):
        want = _outcome(passing)
    assert got == want


@settings(max_examples=400, deadline=None)
@given(
    first=st.lists(METAS, max_size=10),
    later=st.lists(st.tuples(st.integers(0, 12), METAS), max_size=5),
    removed=st.lists(st.integers(0, 12), max_size=3),
    orphans=st.booleans(),
    expr=EXPRESSIONS,
    grouped=st.booleans(),
)
def test_masks_agree_with_every_row(
    first: list[dict[str, Any]],
    later: list[tuple[int, dict[str, Any]]],
    removed: list[int],
    orphans: bool,
    expr: str,
    grouped: bool,
) -> None:
    _agree(first, later, removed, orphans, expr, grouped)


ON_A = st.one_of(
    st.builds("a {} {}".format, COMPARISONS, LITERALS),
    st.builds(
        "a {} [{}]".format,
        st.sampled_from(["in", "not in"]),
        st.lists(LITERALS, min_size=1, max_size=3).map(", ".join),
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    first=st.lists(st.fixed_dictionaries({}, optional={"a": VALUES}), max_size=10),
    later=st.lists(st.tuples(st.integers(0, 12), METAS), max_size=2),
    removed=st.lists(st.integers(0, 12), max_size=2),
    expr=ON_A,
    grouped=st.booleans(),
)
def test_one_comparison_agrees_with_every_row(
    first: list[dict[str, Any]],
    later: list[tuple[int, dict[str, Any]]],
    removed: list[int],
    expr: str,
    grouped: bool,
) -> None:
    """The leaves a filter is most often made of, on one key holding every kind of value."""
    _agree(first, later, removed, False, expr, grouped)


def test_a_test_on_one_key_is_asked_per_value_not_per_row() -> None:
    """``bucket < 1`` over 1,000 records reads no record's metadata row by row: the column index
    has the rows of each value."""
    store = FakeVectorStore(profile="milvus")
    store.upsert_many([(str(i), None, {"bucket": i % 10}, [1.0, i / 1000]) for i in range(1000)])
    read = Partition.metadata_at
    rows: list[int] = []

    def counted(self: Partition, row: int) -> Any:
        rows.append(row)
        return read(self, row)

    with patch.object(Partition, "metadata_at", counted):
        hits = store.query([1.0, 0.5], 5, where="bucket < 1")
    assert [hit.metadata["bucket"] for hit in hits] == [0] * 5
    assert len(rows) < 100


def _unique_store() -> FakeVectorStore:
    store = FakeVectorStore(profile="milvus")
    store.upsert_many(
        [(str(i), None, {"doc": f"d{i}", "score": i / 1000}, [1.0, i / 1000]) for i in range(1000)]
    )
    return store


def test_equality_takes_the_rows_of_the_equal_values() -> None:
    """``doc == "d5"`` over 1,000 distinct values reads no record row by row and asks no
    value: the index's bucket of ``"d5"`` is the answer."""
    store = _unique_store()
    read = Partition.metadata_at
    rows: list[int] = []

    def counted(self: Partition, row: int) -> Any:
        rows.append(row)
        return read(self, row)

    with patch.object(Partition, "metadata_at", counted):
        hits = store.query([1.0, 0.5], 5, where='doc == "d5"')
        assert [hit.id for hit in store.query([1.0, 0.5], 5, where='doc != "d5"')] != ["5"]
    assert [hit.id for hit in hits] == ["5"]
    assert len(rows) < 100


def test_mostly_distinct_values_are_asked_row_by_row() -> None:
    """``score > 0.5`` over 1,000 distinct values does not group the rows by value (an array per
    value would cost more than asking each row)."""
    store = _unique_store()
    groups = Partition.value_groups
    grouped: list[str] = []

    def counted(self: Partition, key: str) -> Any:
        grouped.append(key)
        return groups(self, key)

    with patch.object(Partition, "value_groups", counted):
        hits = store.query([1.0, 0.5], 1000, where="score > 0.5")
    assert sorted(int(hit.id) for hit in hits) == list(range(501, 1000))
    assert grouped == []
