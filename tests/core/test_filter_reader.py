"""``FilterDialect.reader``: the one hook through which an engine reads its own filters."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest

from placeborag_core import PROFILES, FakeVectorStore, FilterError
from placeborag_core.filters import (
    Everything,
    FilterDialect,
    Predicate,
    compile_filter,
    read_core_filter,
)
from placeborag_core.filters.predicates import AllOf, CallablePredicate


def _store(dialect: FilterDialect) -> FakeVectorStore:
    profile = dataclasses.replace(PROFILES["default"], filters=dialect)
    store = FakeVectorStore(profile=profile)
    store.upsert("a", None, {"n": 1}, vector=[1.0, 0.0])
    store.upsert("b", None, {"n": 2}, vector=[0.0, 1.0])
    return store


def test_the_reader_gets_the_filter_and_the_dialect_after_validate() -> None:
    seen: list[tuple[str, Any]] = []

    def validate(where: Any) -> None:
        seen.append(("validate", where))

    def reader(where: Any, dialect: FilterDialect) -> Predicate:
        seen.append(("reader", where))
        assert dialect.name == "mine"
        return CallablePredicate(lambda record: record.metadata["n"] == int(where))

    dialect = dataclasses.replace(
        PROFILES["default"].filters, name="mine", validate=validate, reader=reader
    )
    assert [m.id for m in _store(dialect).query([1.0, 1.0], k=5, where="2")] == ["b"]
    assert seen == [("validate", "2"), ("reader", "2")]
    assert isinstance(compile_filter(None, dialect), Everything)
    assert seen == [("validate", "2"), ("reader", "2")]  # None never reaches either


def test_without_validate_an_empty_mapping_never_reaches_the_reader() -> None:
    def reader(where: Any, dialect: FilterDialect) -> Predicate:
        raise AssertionError(f"read {where!r}")

    dialect = dataclasses.replace(PROFILES["default"].filters, reader=reader)
    assert isinstance(compile_filter({}, dialect), Everything)


def test_a_reader_must_be_callable() -> None:
    with pytest.raises(TypeError, match=r"FilterDialect\.reader must be callable"):
        dataclasses.replace(PROFILES["default"].filters, reader="sql")  # type: ignore[arg-type]


class _Named:
    """Predicate nodes that build plain core predicates but record what the walk asked for."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def field(self, key: str, op: str, operand: Any) -> Predicate:
        self.calls.append(f"{key} {op} {operand!r}")
        return CallablePredicate(lambda record: record.metadata.get(key) == operand)

    def all_of(self, children: Sequence[Predicate]) -> Predicate:
        self.calls.append(f"and/{len(children)}")
        return AllOf(children)

    def any_of(self, children: Sequence[Predicate]) -> Predicate:
        raise AssertionError("no $or here")

    def negation(self, child: Predicate) -> Predicate:
        raise AssertionError("no $not here")


def test_the_core_walk_checks_clauses_and_builds_the_given_nodes() -> None:
    dialect = PROFILES["default"].filters
    nodes = _Named()
    read_core_filter({"$and": [{"n": 1}, {"c": {"$in": ("x",)}}]}, dialect, nodes)
    assert nodes.calls == ["n $eq 1", "c $in ['x']", "and/2"]
    with pytest.raises(FilterError, match=r"where\['n'\]\['\$like'\]: unknown operator"):
        read_core_filter({"n": {"$like": "x"}}, dialect, nodes)
