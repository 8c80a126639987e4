"""The lancedb profile's filters answered from the column index (``Plan.mask``: a part on one
key asked once per distinct value, SQL's three-valued logic over the parts) agree with the batch
evaluator asked for every row, on random metadata and filters: the same rows, or the same error.
Tables typed by their first write (the profile's columns) and tables whose types are inferred
from the rows (no typed columns: keys may be missing) alike."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any
from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import FakeVectorStore
from placeborag_core.backends.lancedb.filters import SqlFilter
from placeborag_core.errors import FilterError
from placeborag_core.filters import value_masks
from placeborag_core.store.partition import Batch, Partition

NUMBERS = st.one_of(
    st.integers(-2, 2), st.sampled_from([0.0, -0.0, 1.0, 2.5, -1.5, float("nan"), 2**53 + 1])
)
FAMILIES = {  # what one key holds: pyarrow types a column from them
    "n": NUMBERS,
    "s": st.sampled_from(["", "a", "ab", "b", "1", "2.5", "x%"]),
    "f": st.booleans(),
    "l": st.lists(st.integers(-1, 2) | st.none(), max_size=3),
    "d": st.fixed_dictionaries({"x": st.integers(-1, 2) | st.none()}),
}
METAS = st.fixed_dictionaries(
    {}, optional={key: st.none() | family for key, family in FAMILIES.items()}
)
FULL = st.fixed_dictionaries(FAMILIES)

NAMES = st.sampled_from(["n", "s", "f", "d.x", "id", "N", "`n`"])
LITERALS = st.sampled_from(
    ["0", "1", "-1", "2.5", "0.0", "-0.0", "'a'", "'1'", "'2.5'", "''", "true", "false", "NULL"]
)
COMPARISONS = st.sampled_from(["=", "<>", "<", "<=", ">", ">="])
LEAVES = st.one_of(
    st.builds("{} {} {}".format, NAMES, COMPARISONS, LITERALS),
    st.builds("{} {} {}".format, LITERALS, COMPARISONS, NAMES),
    st.builds(
        "{} {} ({})".format,
        NAMES,
        st.sampled_from(["IN", "NOT IN"]),
        st.lists(LITERALS, min_size=1, max_size=3).map(", ".join),
    ),
    st.builds("{} BETWEEN {} AND {}".format, NAMES, LITERALS, LITERALS),
    st.builds(
        "{} {}".format, NAMES, st.sampled_from(["IS NULL", "IS NOT NULL", "IS TRUE", "IS FALSE"])
    ),
    st.builds(
        "{} {} '{}'".format,
        NAMES,
        st.sampled_from(["LIKE", "ILIKE"]),
        st.sampled_from(["a%", "%", "_", "A"]),
    ),
    st.builds("array_has(l, {})".format, LITERALS),
    st.sampled_from(["n = n", "n > 0 AND n < 2", "s = n", "f", "NOT f", "l IS NULL"]),
)
FILTERS = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.builds("({}) {} ({})".format, inner, st.sampled_from(["AND", "OR"]), inner),
        st.builds("NOT ({})".format, inner),
        st.builds("({}) IS NOT TRUE".format, inner),
    ),
    max_leaves=4,
)


def _outcome(compute: Callable[[], Any]) -> Any:
    try:
        return compute()
    except Exception as error:  # the error is the outcome compared
        return (type(error), str(error))


def _agree(sql: str, part: Partition, grouped: bool) -> None:
    """``grouped``: a key's rows grouped by value however few share one (else asked one by
    one: ``MIN_GROUP``)."""
    try:
        where = SqlFilter(sql)
    except FilterError:
        return

    def by_masks() -> list[bool]:
        with patch.object(value_masks, "MIN_GROUP", 0 if grouped else 10**9):
            return [bool(x) for x in where.mask(part)[part.live_rows()]]

    def by_rows() -> list[bool]:
        return where.plan_for(part).passing(part, part.live_rows().tolist(), prefilter=True)

    assert _outcome(by_masks) == _outcome(by_rows)


@settings(max_examples=300, deadline=None)
@given(
    first=FULL,
    rest=st.lists(METAS, max_size=10),
    later=st.lists(st.tuples(st.integers(0, 11), METAS), max_size=4),
    removed=st.lists(st.integers(0, 11), max_size=3),
    sql=FILTERS,
    grouped=st.booleans(),
)
def test_typed_table_masks_agree_with_every_row(
    first: dict[str, Any],
    rest: list[dict[str, Any]],
    later: list[tuple[int, dict[str, Any]]],
    removed: list[int],
    sql: str,
    grouped: bool,
) -> None:
    store = FakeVectorStore(profile="lancedb")
    try:
        store.upsert_many([(str(i), None, m, [1.0, 0.5]) for i, m in enumerate([first, *rest])])
    except Exception:  # a value the table's columns refuse: not the subject here
        return
    part = store._spaces.get("")
    assert part is not None
    _outcome(lambda: SqlFilter(sql).mask(part))  # indexes the keys; the writes below keep them
    for i, meta in later:
        with contextlib.suppress(Exception):  # as above
            store.upsert_many([(str(i), None, meta, [1.0, 0.5])])
    store.delete([str(i) for i in removed])
    _agree(sql, part, grouped)


@settings(max_examples=300, deadline=None)
@given(
    metas=st.lists(METAS, max_size=10),
    removed=st.lists(st.integers(0, 11), max_size=3),
    orphans=st.booleans(),
    sql=FILTERS,
    grouped=st.booleans(),
)
def test_inferred_table_masks_agree_with_every_row(
    metas: list[dict[str, Any]], removed: list[int], orphans: bool, sql: str, grouped: bool
) -> None:
    part = Partition(2)
    n = len(metas)
    ids = [str(i) for i in range(n)]
    vectors = np.ones((n, 2), dtype=np.float32)
    part.put(Batch(ids, [None] * n, metas, vectors, np.zeros(n, dtype=np.uint64)), merge=False)
    part.remove([str(i) for i in removed], keep_orphans=orphans)
    _agree(sql, part, grouped)


def _counting_reads() -> tuple[list[int], Any]:
    read = Partition.metadata_at
    rows: list[int] = []

    def counted(self: Partition, row: int) -> Any:
        rows.append(row)
        return read(self, row)

    return rows, patch.object(Partition, "metadata_at", counted)


def test_a_condition_on_one_key_is_asked_per_value_not_per_row() -> None:
    """``bucket = 3`` over 1,000 records reads no record's metadata row by row."""
    store = FakeVectorStore(profile="lancedb")
    store.upsert_many([(str(i), None, {"bucket": i % 10}, [1.0, i / 1000]) for i in range(1000)])
    rows, counting = _counting_reads()
    with counting:
        hits = store.query([1.0, 0.5], 5, where={"bucket": 3})
    assert [hit.metadata["bucket"] for hit in hits] == [3] * 5
    assert len(rows) < 100


def test_an_inferred_schema_is_kept_until_a_write() -> None:
    """A table without typed columns has its types inferred from every row once, and again
    only after a write changes the rows."""
    part = Partition(2)
    metas: list[dict[str, Any]] = [{"n": i % 10} for i in range(500)]
    ones = np.ones((500, 2), dtype=np.float32)
    ids = [str(i) for i in range(500)]
    part.put(Batch(ids, [None] * 500, metas, ones, np.zeros(500, dtype=np.uint64)), merge=False)
    rows, counting = _counting_reads()
    with counting:
        first = SqlFilter("n = 3").mask(part)
        inferred = len(rows)
        again = SqlFilter("n = 3").mask(part)
        assert len(rows) == inferred
        assert (first == again).all()
        part.put(Batch(["0"], [None], [{"n": 3.5}], ones[:1], np.zeros(1, np.uint64)), merge=False)
        assert SqlFilter("n = 3.5").mask(part)[0]
    assert inferred >= 500
    assert len(rows) >= 2 * inferred


ON_ONE_KEY = st.one_of(
    st.builds("{} {} {}".format, st.sampled_from("nsf"), COMPARISONS, LITERALS),
    st.builds(
        "{} {} ({})".format,
        st.sampled_from("nsf"),
        st.sampled_from(["IN", "NOT IN"]),
        st.lists(LITERALS, min_size=1, max_size=3).map(", ".join),
    ),
    st.builds("NOT ({} {} {})".format, st.sampled_from("nsf"), COMPARISONS, LITERALS),
)


@settings(max_examples=300, deadline=None)
@given(metas=st.lists(METAS, max_size=10), sql=ON_ONE_KEY, grouped=st.booleans())
def test_one_comparison_agrees_with_every_row(
    metas: list[dict[str, Any]], sql: str, grouped: bool
) -> None:
    """The leaves a filter is most often made of, on the keys of an inferred table."""
    part = Partition(2)
    n = len(metas)
    ids = [str(i) for i in range(n)]
    vectors = np.ones((n, 2), dtype=np.float32)
    part.put(Batch(ids, [None] * n, metas, vectors, np.zeros(n, dtype=np.uint64)), merge=False)
    _agree(sql, part, grouped)
