"""The ``where=`` filter dialect: validate, compile, evaluate.

A filter is compiled once per query into a small tree of predicates, before any record is read, so
a malformed filter raises :class:`FilterError` instead of silently matching nothing. Every predicate
can answer for one metadata mapping (``matches``) and for a whole partition at once (``mask``);
the latter uses the partition's column index for equality, ``$in``, ``$ne``, ``$nin`` and
``$exists``, which keeps the common filters vectorised. A callable ``Record -> bool`` may stand
for the whole filter or for any clause inside ``$and``/``$or``/``$not`` (under the core
structure), so a condition the dialect cannot say composes with the ones it can; so may an
already compiled :class:`Predicate` (what the core's own translators, such as
:mod:`placeborag_core.backends.qdrant.filters`, build for conditions on a record's text or id).

What a filter *means* is not decided here by profile name: it comes from the
:class:`FilterDialect` a profile carries (which operators exist, how a missing key behaves,
whether ``1 == 1.0``, whether equality looks inside list values, how text matching tokenises,
which validator and which error messages apply).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from placeborag_core.errors import FilterError

__all__ = [
    "CHROMA_OPERATORS",
    "CORE_FIELD_OPERATORS",
    "CORE_LOGIC_OPERATORS",
    "ColumnView",
    "FilterDialect",
    "Predicate",
    "RecordPredicate",
    "all_of",
    "compile_filter",
    "compile_filter_or_callable",
    "index_key",
    "record_condition",
]

BoolMask = npt.NDArray[np.bool_]
Scalar = str | int | float | bool

CORE_FIELD_OPERATORS: tuple[str, ...] = (
    "$eq",
    "$ne",
    "$gt",
    "$gte",
    "$lt",
    "$lte",
    "$in",
    "$nin",
    "$contains",
    "$not_contains",
    "$any",
    "$all",
    "$text_match",
    "$text_match_insensitive",
    "$is_empty",
    "$exists",
)
CORE_LOGIC_OPERATORS: tuple[str, ...] = ("$and", "$or", "$not")

_BOUNDS = frozenset({"$gt", "$gte", "$lt", "$lte"})
_LIST_OPERANDS = frozenset({"$in", "$nin", "$any", "$all"})
_SCALAR_OPERANDS = frozenset({"$eq", "$ne", "$contains", "$not_contains"})
_STR_OPERANDS = frozenset({"$text_match", "$text_match_insensitive"})
_BOOL_OPERANDS = frozenset({"$is_empty", "$exists"})


@dataclass(frozen=True)
class FilterDialect:
    """How one engine reads a ``where=`` filter. Profiles carry one; see ``profiles.py``.

    ``structure`` picks the validator: ``"core"`` (several keys and operators combine with AND;
    messages name the clause path and the allowed operators) or ``"chroma"`` (Chroma's own rules
    and messages: exactly one key per mapping, one operator per expression, ``$and``/``$or`` need
    two clauses). ``missing_key_matches`` lists the field operators that match a record lacking
    the key. ``numeric_equality``: ``"numeric"`` makes ``1 == 1.0``; ``"int_exact"`` makes an int
    operand match int values only (a float operand still matches any equal number).
    ``list_values``: ``"whole"`` compares a list value as one value; ``"any_element"`` lets
    equality, ``$in``, bounds and exclusions look at each element. ``text_match``: ``"substring"``
    or ``"tokens"`` (every lower-cased word of the operand is a word of the value).
    ``empty_values``: what ``$is_empty`` treats as empty besides a missing key, None and ``[]``.
    ``match_operands``: ``"str_or_int"`` restricts the operands of ``$in``, ``$nin`` and ``$ne``
    to all-str or all-int (Qdrant's MatchAny/MatchExcept). ``bool_bounds``: a bool bound counts as
    0/1 instead of being rejected. ``exists``: ``"key"`` (the key is present) or ``"not_empty"``
    (Qdrant has no presence test; ``$exists: false`` is IsEmpty: missing, None or ``[]``).
    ``int_vs_float_operand``: ``"exact"`` compares an int value with a float operand as numbers;
    ``"truncate"`` first truncates the float operand toward zero, saturating at the int64 range
    (Chroma's Rust ``as i64``), so ``2.5`` equals ``2`` and ``$lt 2.5`` excludes ``2``. It applies
    to ``$eq``, ``$ne``, ``$in``, ``$nin`` and the bounds against a scalar int value (never a bool,
    never a float value), not to ``$contains``/``$any``/``$all`` on list elements.
    ``contains_elements``: how ``$contains``/``$not_contains`` compare a number with the elements
    of a list value: ``"numeric"`` (``2 == 2.0``) or ``"same_type"`` (an int operand finds only int
    elements, a float operand only float elements, as in Chroma).
    """

    name: str
    field_ops: frozenset[str]
    logic_ops: frozenset[str]
    structure: Literal["core", "chroma"] = "core"
    missing_key_matches: frozenset[str] = frozenset()
    numeric_equality: Literal["numeric", "int_exact"] = "numeric"
    list_values: Literal["whole", "any_element"] = "whole"
    contains_substring: bool = True
    text_match: Literal["substring", "tokens"] = "substring"
    empty_values: tuple[Any, ...] = ("",)
    match_operands: Literal["any", "str_or_int"] = "any"
    bool_bounds: bool = False
    exists: Literal["key", "not_empty"] = "key"
    int_vs_float_operand: Literal["exact", "truncate"] = "exact"
    contains_elements: Literal["numeric", "same_type"] = "numeric"
    error_suffix: str = ""  # ends validation messages; "{call}" names the call (query, get)


class ColumnView(Protocol):
    """What a predicate needs from a partition to build a row mask."""

    @property
    def n_rows(self) -> int: ...

    def live_rows(self) -> npt.NDArray[np.intp]: ...

    def metadata_at(self, row: int) -> Mapping[str, Any]: ...

    def record_at(self, row: int, *, vector: bool = True) -> Any: ...

    def id_at(self, row: int) -> str: ...

    def ids_mask(self, ids: Iterable[str]) -> BoolMask: ...

    def text_at(self, row: int) -> str | None: ...

    def key_mask(self, key: str) -> BoolMask: ...

    def value_mask(
        self, key: str, lookups: Iterable[tuple[str, Any]], elements: bool
    ) -> BoolMask: ...


def index_key(value: Any) -> tuple[str, Any] | None:
    """The column-index key of a scalar metadata value (None for values that are not indexed)."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, int):
        return ("i", value)
    if isinstance(value, float):
        return ("f", value)
    if isinstance(value, str):
        return ("s", value)
    return None


# --------------------------------------------------------------------------- value semantics


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _scalar_eq(value: Any, operand: Any, dialect: FilterDialect) -> bool:
    if isinstance(operand, bool) or isinstance(value, bool):
        return isinstance(operand, bool) and isinstance(value, bool) and value == operand
    if isinstance(operand, str):
        return isinstance(value, str) and value == operand
    if not _is_number(value):
        return False
    if dialect.numeric_equality == "int_exact" and isinstance(operand, int):
        return isinstance(value, int) and value == operand
    return bool(value == operand)


_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1


def _as_i64(operand: float) -> int:
    """Rust's ``operand as i64``: toward zero, saturating at the int64 range, NaN becomes 0."""
    if math.isnan(operand):
        return 0
    if operand >= _I64_MAX:
        return _I64_MAX
    if operand <= _I64_MIN:
        return _I64_MIN
    return int(operand)


def _operand_for(value: Any, operand: Any, dialect: FilterDialect) -> Any:
    """The operand as the dialect compares it with this scalar ``value`` (see ``FilterDialect``)."""
    if (
        dialect.int_vs_float_operand == "truncate"
        and isinstance(operand, float)
        and isinstance(value, int)
        and not isinstance(value, bool)
    ):
        return _as_i64(operand)
    return operand


def _lookups(operand: Any, dialect: FilterDialect) -> list[tuple[str, Any]]:
    """Index keys whose rows equal ``operand`` under the dialect (mirrors ``_scalar_eq``)."""
    if isinstance(operand, bool):
        return [("b", operand)]
    if isinstance(operand, str):
        return [("s", operand)]
    if isinstance(operand, int):
        if dialect.numeric_equality == "int_exact":
            return [("i", operand)]
        try:
            return [("i", operand), ("f", float(operand))]
        except OverflowError:
            return [("i", operand)]
    keys: list[tuple[str, Any]] = [("f", operand)]
    if dialect.int_vs_float_operand == "truncate":
        keys.append(("i", _as_i64(operand)))
    elif math.isfinite(operand) and operand.is_integer():
        keys.append(("i", int(operand)))
    return keys


_WORD = re.compile(r"[^\W_]+")


def _tokens(text: str) -> list[str]:
    return [token.lower() for token in _WORD.findall(text)]


# --------------------------------------------------------------------------- predicates


class Predicate:
    """A compiled filter node."""

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        """Whether a record with this metadata passes."""
        raise NotImplementedError

    def row_matches(self, view: ColumnView, row: int) -> bool:
        """Whether the record in ``row`` passes."""
        return self.matches(view.metadata_at(row))

    def mask(self, view: ColumnView) -> BoolMask:
        """Pass/fail for every row of a partition (rows that hold no record are unspecified)."""
        out = np.zeros(view.n_rows, dtype=bool)
        for row in view.live_rows().tolist():
            out[row] = self.row_matches(view, row)
        return out


class RecordPredicate(Predicate):
    """A predicate that reads more of a record than its metadata: only ``row_matches`` works."""

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        raise TypeError(f"{type(self).__name__} needs the whole record; use row_matches")


class _CallablePredicate(RecordPredicate):
    """A caller's function of the whole record (``Record``), e.g. a LangChain callable filter."""

    def __init__(self, function: Callable[[Any], object], *, vector: bool = True) -> None:
        self.function = function
        self.vector = vector

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return bool(self.function(view.record_at(row, vector=self.vector)))


class _Everything(Predicate):
    def matches(self, metadata: Mapping[str, Any]) -> bool:
        return True

    def mask(self, view: ColumnView) -> BoolMask:
        return np.ones(view.n_rows, dtype=bool)


class _All(Predicate):
    def __init__(self, children: Sequence[Predicate]) -> None:
        self.children = tuple(children)

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        return all(child.matches(metadata) for child in self.children)

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return all(child.row_matches(view, row) for child in self.children)

    def mask(self, view: ColumnView) -> BoolMask:
        out = np.ones(view.n_rows, dtype=bool)
        for child in self.children:
            out &= child.mask(view)
        return out


class _Any(Predicate):
    def __init__(self, children: Sequence[Predicate]) -> None:
        self.children = tuple(children)

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        return any(child.matches(metadata) for child in self.children)

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return any(child.row_matches(view, row) for child in self.children)

    def mask(self, view: ColumnView) -> BoolMask:
        out = np.zeros(view.n_rows, dtype=bool)
        for child in self.children:
            out |= child.mask(view)
        return out


class _Not(Predicate):
    def __init__(self, child: Predicate) -> None:
        self.child = child

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        return not self.child.matches(metadata)

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return not self.child.row_matches(view, row)

    def mask(self, view: ColumnView) -> BoolMask:
        return ~self.child.mask(view)


class _Field(Predicate):
    """One ``key: {op: operand}`` test under a dialect."""

    def __init__(self, key: str, op: str, operand: Any, dialect: FilterDialect) -> None:
        self.key = key
        self.op = op
        self.operand = operand
        self.dialect = dialect
        self._test: Callable[[Any], bool] = getattr(self, "_op_" + op[1:])

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        if self.key not in metadata:
            if self.op == "$is_empty":
                return bool(self.operand)
            if self.op == "$exists":
                return not self.operand
            return self.op in self.dialect.missing_key_matches
        return self._test(metadata[self.key])

    def mask(self, view: ColumnView) -> BoolMask:
        whole = self.dialect.list_values == "whole"
        if self.op in ("$eq", "$in"):
            return self._equal_mask(view)
        if self.op == "$exists" and self.dialect.exists == "key":
            has = view.key_mask(self.key)
            return has if self.operand else ~has
        if self.op in ("$ne", "$nin") and whole:
            out = ~self._equal_mask(view)
            if self.op not in self.dialect.missing_key_matches:
                out &= view.key_mask(self.key)
            return out
        return super().mask(view)

    def _equal_mask(self, view: ColumnView) -> BoolMask:
        operands = self.operand if self.op in ("$in", "$nin") else [self.operand]
        lookups = [key for operand in operands for key in _lookups(operand, self.dialect)]
        elements = self.dialect.list_values == "any_element"
        return view.value_mask(self.key, lookups, elements)

    # one method per operator; ``value`` is present (the key exists)
    def _equal(self, value: Any, operand: Any) -> bool:
        if isinstance(value, list):
            if self.dialect.list_values == "any_element":
                return any(self._item_equal(item, operand) for item in value)
            return False
        return self._item_equal(value, operand)

    def _item_equal(self, item: Any, operand: Any) -> bool:
        return _scalar_eq(item, _operand_for(item, operand, self.dialect), self.dialect)

    def _excluded(self, value: Any, operands: Sequence[Any]) -> bool:
        if self.dialect.list_values == "any_element":
            items = value if isinstance(value, list) else [] if value is None else [value]
            return any(not any(self._item_equal(item, op) for op in operands) for item in items)
        return not any(self._equal(value, op) for op in operands)

    def _op_eq(self, value: Any) -> bool:
        return self._equal(value, self.operand)

    def _op_ne(self, value: Any) -> bool:
        return self._excluded(value, [self.operand])

    def _op_in(self, value: Any) -> bool:
        return any(self._equal(value, op) for op in self.operand)

    def _op_nin(self, value: Any) -> bool:
        return self._excluded(value, self.operand)

    def _compare(self, value: Any) -> bool:
        items = value if isinstance(value, list) else [value]
        if isinstance(value, list) and self.dialect.list_values == "whole":
            return False
        for item in items:
            if not _is_number(item):
                continue
            bound = _operand_for(item, self.operand, self.dialect)
            if self.op == "$gt" and item > bound:
                return True
            if self.op == "$gte" and item >= bound:
                return True
            if self.op == "$lt" and item < bound:
                return True
            if self.op == "$lte" and item <= bound:
                return True
        return False

    _op_gt = _op_gte = _op_lt = _op_lte = _compare

    def _op_contains(self, value: Any) -> bool:
        if isinstance(value, list):
            same_type = self.dialect.contains_elements == "same_type"
            return any(
                _scalar_eq(item, self.operand, self.dialect)
                and (not same_type or type(item) is type(self.operand))
                for item in value
            )
        if isinstance(value, str) and isinstance(self.operand, str):
            return self.dialect.contains_substring and self.operand in value
        return False

    def _op_not_contains(self, value: Any) -> bool:
        return not self._op_contains(value)

    def _op_any(self, value: Any) -> bool:
        if not isinstance(value, list):
            return False
        return any(_scalar_eq(item, op, self.dialect) for item in value for op in self.operand)

    def _op_all(self, value: Any) -> bool:
        if not isinstance(value, list):
            return False
        return all(any(_scalar_eq(item, op, self.dialect) for item in value) for op in self.operand)

    def _text(self, value: Any, fold: bool) -> bool:
        if not isinstance(value, str):
            return False
        if self.dialect.text_match == "tokens":
            wanted = _tokens(self.operand)
            have = set(_tokens(value))
            return bool(wanted) and all(token in have for token in wanted)
        if fold:
            return str(self.operand).casefold() in value.casefold()
        return str(self.operand) in value

    def _op_text_match(self, value: Any) -> bool:
        return self._text(value, fold=False)

    def _op_text_match_insensitive(self, value: Any) -> bool:
        return self._text(value, fold=True)

    def _op_is_empty(self, value: Any) -> bool:
        empty = value is None or (
            not isinstance(value, bool) and any(value == e for e in self.dialect.empty_values)
        )
        if isinstance(value, list) and not value:
            empty = True
        return empty == bool(self.operand)

    def _op_exists(self, value: Any) -> bool:
        if self.dialect.exists == "not_empty":
            empty = value is None or (isinstance(value, list) and not value)
            return empty != bool(self.operand)
        return bool(self.operand)


# --------------------------------------------------------------------------- core validation


def _path(parts: Sequence[str | int]) -> str:
    return "where" + "".join(f"[{part!r}]" for part in parts)


class _CoreCompiler:
    """Parses the core dialect, raising FilterError with the clause path and allowed operators."""

    def __init__(self, dialect: FilterDialect) -> None:
        self.dialect = dialect

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
            return _CallablePredicate(clause)  # a function of the whole Record, in any position
        if not isinstance(clause, Mapping):
            raise self.fail(path, f"expected a mapping, got {type(clause).__name__} {clause!r}")
        parts: list[Predicate] = []
        for key, value in clause.items():
            here = [*path, key]
            if not isinstance(key, str) or not key:
                raise self.fail(here, f"a key must be a non-empty str, got {key!r}")
            if key.startswith("$"):
                parts.append(self.logic(key, value, here))
            else:
                parts.append(self.field(key, value, here))
        return parts[0] if len(parts) == 1 else _All(parts)

    def logic(self, op: str, value: Any, path: list[str | int]) -> Predicate:
        if op not in self.dialect.logic_ops:
            if op in CORE_FIELD_OPERATORS:
                raise self.fail(path, f"{op} is a field operator; write {{'key': {{'{op}': ...}}}}")
            raise self.fail(path, f"unknown logical operator {op!r}")
        if op == "$not":
            if isinstance(value, Predicate) or (callable(value) and not isinstance(value, Mapping)):
                return _Not(self.clause(value, path))
            if not isinstance(value, Mapping) or not value:
                raise self.fail(
                    path, f"$not takes one non-empty clause mapping or a callable, got {value!r}"
                )
            return _Not(self.clause(value, path))
        if not isinstance(value, list | tuple):
            raise self.fail(path, f"{op} takes a list of clauses, got {type(value).__name__}")
        if not value:
            raise self.fail(path, f"{op} needs at least one clause, got an empty list")
        children = [self.clause(item, [*path, i]) for i, item in enumerate(value)]
        return _All(children) if op == "$and" else _Any(children)

    def field(self, key: str, value: Any, path: list[str | int]) -> Predicate:
        if isinstance(value, Mapping):
            if not value:
                raise self.fail(path, "an operator mapping must not be empty")
            tests = [self.operator(key, op, operand, [*path, op]) for op, operand in value.items()]
            return tests[0] if len(tests) == 1 else _All(tests)
        return self.operator(key, "$eq", value, path)

    def operator(self, key: str, op: Any, operand: Any, path: list[str | int]) -> Predicate:
        if op not in self.dialect.field_ops:
            if op in CORE_FIELD_OPERATORS:
                raise self.fail(path, f"operator {op} is not supported by this profile's engine")
            raise self.fail(path, f"unknown operator {op!r}")
        self.check_operand(op, operand, path)
        if op in _LIST_OPERANDS:
            operand = list(operand)
        if op in _BOUNDS and isinstance(operand, bool):
            operand = int(operand)
        return _Field(key, op, operand, self.dialect)

    def check_operand(self, op: str, operand: Any, path: list[str | int]) -> None:
        def scalar(item: Any) -> bool:
            if isinstance(item, float) and math.isnan(item):
                return False
            return isinstance(item, str | int | float)

        bool_ok = self.dialect.bool_bounds and isinstance(operand, bool)
        if op in _BOUNDS and not _is_number(operand) and not bool_ok:
            raise self.fail(path, f"a bound must be an int or a float (not bool), got {operand!r}")
        if op in _LIST_OPERANDS:
            if not isinstance(operand, list | tuple):
                raise self.fail(
                    path, f"{op} takes a list, got {type(operand).__name__} {operand!r}"
                )
            bad = [item for item in operand if not scalar(item)]
            if bad:
                raise self.fail(
                    path, f"{op} list items must be str, int, float or bool, got {bad[0]!r}"
                )
        if op in _SCALAR_OPERANDS and not scalar(operand):
            hint = " (use $is_empty or $exists for absence)" if operand is None else ""
            hint = " (use $in for a list)" if isinstance(operand, list | tuple) else hint
            raise self.fail(path, f"{op} takes a str, int, float or bool, got {operand!r}{hint}")
        if self.dialect.match_operands == "str_or_int" and op in ("$in", "$nin", "$ne"):
            items = list(operand) if op != "$ne" else [operand]
            kinds = {type(item) for item in items}
            if not (kinds <= {str} or kinds <= {int}):
                raise self.fail(
                    path,
                    f"{op} takes str or int values, all of one type (Qdrant's MatchAny and "
                    f"MatchExcept), got {operand!r}",
                )
        if op in _STR_OPERANDS and not isinstance(operand, str):
            raise self.fail(path, f"{op} takes a str, got {operand!r}")
        if op in _BOOL_OPERANDS and not isinstance(operand, bool):
            raise self.fail(path, f"{op} takes true or false, got {operand!r}")


# --------------------------------------------------------------------------- chroma validation


#: The field operators Chroma 1.5.9 accepts, in the order its error message lists them.
CHROMA_OPERATORS = (
    "$gt",
    "$gte",
    "$lt",
    "$lte",
    "$ne",
    "$eq",
    "$in",
    "$nin",
    "$contains",
    "$not_contains",
)


def _chroma_validate(where: Any) -> None:
    """Chroma 1.5.9's ``validate_where`` rules and messages, plus the two checks its Rust core
    adds ("Invalid where clause"). Evidence: backends.md Q3 error table; chromadb/api/types.py."""
    if not isinstance(where, dict):
        raise FilterError(f"Expected where to be a dict, got {where}")
    if len(where) != 1:
        raise FilterError(f"Expected where to have exactly one operator, got {where}")
    for key, value in where.items():
        if not isinstance(key, str):
            raise FilterError(f"Expected where key to be a str, got {key}")
        if key in ("$contains", "$not_contains"):
            raise FilterError(
                "Expected where key to be a metadata field name or a logical operator "
                f"($and, $or), got {key}"
            )
        if key not in ("$and", "$or", "$in", "$nin") and not isinstance(
            value, str | int | float | dict
        ):
            raise FilterError(
                f"Expected where value to be a str, int, float, or operator expression, got {value}"
            )
        if key in ("$and", "$or"):
            if not isinstance(value, list):
                raise FilterError(
                    "Expected where value for $and or $or to be a list of where expressions, "
                    f"got {value}"
                )
            if len(value) <= 1:
                raise FilterError(
                    "Expected where value for $and or $or to be a list with at least two where "
                    f"expressions, got {value}"
                )
            for expression in value:
                _chroma_validate(expression)
        if isinstance(value, dict):
            _chroma_validate_expression(value)


def _chroma_validate_expression(value: dict[Any, Any]) -> None:
    if len(value) != 1:
        raise FilterError(f"Expected operator expression to have exactly one operator, got {value}")
    for operator, operand in value.items():
        if operator in ("$gt", "$gte", "$lt", "$lte") and not isinstance(operand, int | float):
            raise FilterError(
                "Expected operand value to be an int or a float for operator "
                f"{operator}, got {operand}"
            )
        if operator in ("$in", "$nin") and not isinstance(operand, list):
            raise FilterError(
                f"Expected operand value to be an list for operator {operator}, got {operand}"
            )
        if operator in ("$contains", "$not_contains") and not isinstance(
            operand, str | int | float | bool
        ):
            raise FilterError(
                "Expected operand value to be a str, int, float, or bool for operator "
                f"{operator}, got {operand}"
            )
        if operator not in CHROMA_OPERATORS:
            raise FilterError(
                "Expected where operator to be one of $gt, $gte, $lt, $lte, $ne, $eq, $in, "
                f"$nin, $contains, $not_contains, got {operator}"
            )
        if not isinstance(operand, str | int | float | bool | list):
            raise FilterError(
                "Expected where operand value to be a str, int, float, bool, or list of those "
                f"type, got {operand}"
            )
        if isinstance(operand, list) and (
            not operand or not all(isinstance(x, type(operand[0])) for x in operand)
        ):
            raise FilterError(
                "Expected where operand value to be a non-empty list, and all values to be of "
                f"the same type got {operand}"
            )
        # Checks the Python client lets through and Chroma's Rust core rejects.
        if operator in ("$gt", "$gte", "$lt", "$lte") and isinstance(operand, bool):
            raise FilterError("Invalid where clause")
        if operator in ("$eq", "$ne") and isinstance(operand, list):
            raise FilterError("Invalid where clause")


# --------------------------------------------------------------------------- entry point


def all_of(predicates: Sequence[Predicate | None]) -> Predicate:
    """The conjunction of the given predicates (None entries ignored; none at all passes all)."""
    given = [p for p in predicates if p is not None and not isinstance(p, _Everything)]
    if not given:
        return _Everything()
    return given[0] if len(given) == 1 else _All(given)


def record_condition(function: Callable[[Any], object], *, vector: bool = True) -> Predicate:
    """A condition that calls ``function`` with each candidate's ``Record`` (a copy) and keeps
    the truthy ones: what a callable ``where=`` becomes.

    With ``vector=False`` the record's ``vector`` is None. Copying the stored vector into a
    tuple of floats is most of the cost of a call (at 384 dimensions, ~16 -> ~3 us per row), and
    a condition on the id, text or metadata (such as a framework's callable filter of a
    document) does not need it.
    """
    return _CallablePredicate(function, vector=vector)


def compile_filter_or_callable(
    where: Any, dialect: FilterDialect, call: str = "query"
) -> Predicate:
    """Like :func:`compile_filter`, but a callable (not a mapping) is a predicate over the whole
    record: it is called with a ``Record`` and its truth decides, at the same pipeline step as a
    mapping filter would (so it follows the filter mode)."""
    if callable(where) and not isinstance(where, Mapping):
        return _CallablePredicate(where)
    return compile_filter(where, dialect, call)


def compile_filter(
    where: Mapping[str, Any] | None, dialect: FilterDialect, call: str = "query"
) -> Predicate:
    """Validate ``where`` under ``dialect`` and compile it; raises FilterError, reads nothing.

    ``None`` means no filter. Under the core structure an empty mapping also means no filter.
    ``call`` names the operation in the dialect's error suffix (Chroma: "... in get.").
    """
    if where is None:
        return _Everything()
    if dialect.structure == "chroma":
        try:
            _chroma_validate(where)
        except FilterError as error:
            raise FilterError(f"{error}{dialect.error_suffix.format(call=call)}") from None
    elif isinstance(where, Mapping) and not where:
        return _Everything()
    return _CoreCompiler(dialect).clause(where, [])
