"""The ``where=`` filter compiler: validate a filter under a dialect and build its predicate.

A filter is compiled once per query, before any record is read, so a malformed filter raises
:class:`~placeborag_core.errors.FilterError` instead of silently matching nothing. An engine's own
validator (``FilterDialect.validate``) runs first, with the engine's messages; the core's checks
name the clause path and the operators the dialect allows. A callable ``Record -> bool`` may
stand for the whole filter or for any clause inside ``$and``/``$or``/``$not``, so a condition the
dialect cannot say composes with the ones it can; so may an already compiled predicate (what the
core's own translators, such as ``backends/qdrant/filters.py``, build for conditions on a record's
text or id).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from placeborag_core.errors import FilterError
from placeborag_core.filters.dialect import (
    BOOL_OPERANDS,
    BOUNDS,
    CORE_FIELD_OPERATORS,
    CORE_LOGIC_OPERATORS,
    LIST_OPERANDS,
    SCALAR_OPERANDS,
    STR_OPERANDS,
    FilterDialect,
    FilterNodes,
)
from placeborag_core.filters.fields import FieldTest
from placeborag_core.filters.predicates import (
    AllOf,
    AnyOf,
    CallablePredicate,
    Everything,
    Negation,
    Predicate,
)
from placeborag_core.filters.values import is_number
from placeborag_core.limits import MAX_FILTER_DEPTH, nesting_depth_exceeds
from placeborag_core.messages import shown
from placeborag_core.numbers import python_values

__all__ = [
    "CoreNodes",
    "check_filter_depth",
    "compile_filter",
    "compile_filter_or_callable",
    "read_core_filter",
]


def _path(parts: Sequence[str | int]) -> str:
    return "where" + "".join(f"[{shown(part)}]" for part in parts)


class CoreNodes:
    """The core's predicate nodes (:class:`~placeborag_core.filters.dialect.FilterNodes`): field
    tests whose meaning the dialect's options set, and the two-valued ``$and``/``$or``/``$not``."""

    def __init__(self, dialect: FilterDialect) -> None:
        self.dialect = dialect

    def field(self, key: str, op: str, operand: Any) -> Predicate:
        return FieldTest(key, op, operand, self.dialect)

    def all_of(self, children: Sequence[Predicate]) -> Predicate:
        return AllOf(children)

    def any_of(self, children: Sequence[Predicate]) -> Predicate:
        return AnyOf(children)

    def negation(self, child: Predicate) -> Predicate:
        return Negation(child)


class _CoreCompiler:
    """Parses the core dialect, raising FilterError with the clause path and allowed operators,
    and builds the predicate with ``nodes``."""

    def __init__(self, dialect: FilterDialect, nodes: FilterNodes) -> None:
        self.dialect = dialect
        self.nodes = nodes

    def fail(self, path: Sequence[str | int], problem: str) -> FilterError:
        field_ops = [op for op in CORE_FIELD_OPERATORS if op in self.dialect.field_ops]
        logic_ops = [op for op in CORE_LOGIC_OPERATORS if op in self.dialect.logic_ops]
        return FilterError(
            f"invalid filter at {_path(path)}: {problem}. Allowed field operators "
            f"({self.dialect.name} profile): {', '.join(field_ops)}; logical operators: "
            f"{', '.join(logic_ops)}."
        )

    def clause(self, clause: Any, path: list[str | int]) -> Predicate:
        if isinstance(clause, Predicate):
            return clause  # already compiled (a translator's condition), in any position
        if callable(clause) and not isinstance(clause, Mapping):
            return CallablePredicate(clause)  # a function of the whole Record, in any position
        if not isinstance(clause, Mapping):
            raise self.fail(
                path, f"expected a mapping, got {type(clause).__name__} {shown(clause)}"
            )
        parts: list[Predicate] = []
        for key, value in clause.items():
            here = [*path, key]
            if not isinstance(key, str) or not key:
                raise self.fail(here, f"a key must be a non-empty str, got {shown(key)}")
            if key.startswith("$"):
                parts.append(self.logic(key, value, here))
            else:
                parts.append(self.field(key, value, here))
        return parts[0] if len(parts) == 1 else self.nodes.all_of(parts)

    def logic(self, op: str, value: Any, path: list[str | int]) -> Predicate:
        if op not in self.dialect.logic_ops:
            if op in CORE_FIELD_OPERATORS:
                raise self.fail(path, f"{op} is a field operator; write {{'key': {{'{op}': ...}}}}")
            raise self.fail(path, f"unknown logical operator {shown(op)}")
        if op == "$not":
            if isinstance(value, Predicate) or (callable(value) and not isinstance(value, Mapping)):
                return self.nodes.negation(self.clause(value, path))
            if not isinstance(value, Mapping) or not value:
                raise self.fail(
                    path,
                    f"$not takes one non-empty clause mapping or a callable, got {shown(value)}",
                )
            return self.nodes.negation(self.clause(value, path))
        if not isinstance(value, list | tuple):
            raise self.fail(path, f"{op} takes a list of clauses, got {type(value).__name__}")
        if not value:
            raise self.fail(path, f"{op} needs at least one clause, got an empty list")
        children = [self.clause(item, [*path, i]) for i, item in enumerate(value)]
        return self.nodes.all_of(children) if op == "$and" else self.nodes.any_of(children)

    def field(self, key: str, value: Any, path: list[str | int]) -> Predicate:
        if isinstance(value, Mapping):
            if not value:
                raise self.fail(path, "an operator mapping must not be empty")
            tests = [self.operator(key, op, operand, [*path, op]) for op, operand in value.items()]
            return tests[0] if len(tests) == 1 else self.nodes.all_of(tests)
        return self.operator(key, "$eq", value, path)

    def operator(self, key: str, op: Any, operand: Any, path: list[str | int]) -> Predicate:
        if op not in self.dialect.field_ops:
            if op in CORE_FIELD_OPERATORS:
                raise self.fail(path, f"operator {op} is not supported by this profile's engine")
            raise self.fail(path, f"unknown operator {shown(op)}")
        self.check_operand(op, operand, path)
        if op in LIST_OPERANDS:
            operand = list(operand)
        if op in BOUNDS and isinstance(operand, bool):
            operand = int(operand)
        return self.nodes.field(key, op, operand)

    def check_operand(self, op: str, operand: Any, path: list[str | int]) -> None:
        def scalar(item: Any) -> bool:
            if isinstance(item, float) and math.isnan(item):
                return False
            return isinstance(item, str | int | float)

        bool_ok = self.dialect.bool_bounds and isinstance(operand, bool)
        if op in BOUNDS and not is_number(operand) and not bool_ok:
            raise self.fail(
                path, f"a bound must be an int or a float (not bool), got {shown(operand)}"
            )
        if op in LIST_OPERANDS:
            if not isinstance(operand, list | tuple):
                raise self.fail(
                    path, f"{op} takes a list, got {type(operand).__name__} {shown(operand)}"
                )
            bad = [item for item in operand if not scalar(item)]
            if bad:
                raise self.fail(
                    path, f"{op} list items must be str, int, float or bool, got {shown(bad[0])}"
                )
        if op in SCALAR_OPERANDS and not scalar(operand):
            hint = " (use $is_empty or $exists for absence)" if operand is None else ""
            hint = " (use $in for a list)" if isinstance(operand, list | tuple) else hint
            raise self.fail(
                path, f"{op} takes a str, int, float or bool, got {shown(operand)}{hint}"
            )
        if self.dialect.match_operands == "str_or_int" and op in ("$in", "$nin", "$ne"):
            items = list(operand) if op != "$ne" else [operand]
            kinds = {type(item) for item in items}
            if not (kinds <= {str} or kinds <= {int}):
                raise self.fail(
                    path,
                    f"{op} takes str or int values, all of one type (Qdrant's MatchAny and "
                    f"MatchExcept), got {shown(operand)}",
                )
        if op in STR_OPERANDS and not isinstance(operand, str):
            raise self.fail(path, f"{op} takes a str, got {shown(operand)}")
        if op in BOOL_OPERANDS and not isinstance(operand, bool):
            raise self.fail(path, f"{op} takes true or false, got {shown(operand)}")


def compile_filter_or_callable(
    where: Any, dialect: FilterDialect, call: str = "query"
) -> Predicate:
    """Like :func:`compile_filter`, but a callable (not a mapping) is a predicate over the whole
    record: it is called with a ``Record`` and its truth decides, at the same pipeline step as a
    mapping filter would (so it follows the filter mode)."""
    if callable(where) and not isinstance(where, Mapping):
        return CallablePredicate(where)
    return compile_filter(where, dialect, call)


def compile_filter(
    where: Mapping[str, Any] | str | None, dialect: FilterDialect, call: str = "query"
) -> Predicate:
    """Validate ``where`` under ``dialect`` and compile it; raises FilterError, reads nothing.

    ``None`` means no filter; so does an empty mapping, unless the dialect's ``validate`` says
    otherwise.
    ``call`` names the operation in the dialect's error suffix (Chroma: "... in get.").
    numpy scalars in the filter are read as Python values unless the dialect refuses them
    (``FilterDialect.numpy_operands``).
    """
    if where is None:
        return Everything()
    check_filter_depth(where, "where")
    if dialect.validate is not None:
        try:
            dialect.validate(where)
        except FilterError as error:
            raise FilterError(f"{error}{dialect.error_suffix.format(call=call)}") from None
    elif isinstance(where, Mapping) and not where:
        return Everything()
    if dialect.numpy_operands:
        where = python_values(where)
    if dialect.reader is None:
        return read_core_filter(where, dialect)
    return dialect.reader(where, dialect)


def read_core_filter(
    where: Any, dialect: FilterDialect, nodes: FilterNodes | None = None
) -> Predicate:
    """The core compiler's walk of a filter of the core dialect: it checks every clause against
    ``dialect`` (FilterError names the clause path and the operators it allows) and builds the
    predicate with ``nodes`` (None: :class:`CoreNodes`). A dialect's ``reader`` may call it with
    its engine's nodes (pgvector) or for the filters it does not translate itself (LanceDB)."""
    return _CoreCompiler(dialect, CoreNodes(dialect) if nodes is None else nodes).clause(where, [])


def check_filter_depth(where: Any, name: str) -> None:
    """Raise ``FilterError`` if the filter ``name`` nests deeper than ``MAX_FILTER_DEPTH``
    containers (or contains itself), before anything reads it recursively."""
    if nesting_depth_exceeds(where, MAX_FILTER_DEPTH):
        raise FilterError(
            f"{name} is nested more than {MAX_FILTER_DEPTH} levels deep (or contains itself); "
            "the filter depth is limited to keep evaluation bounded"
        )
