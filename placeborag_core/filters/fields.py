"""One field test, ``key: {op: operand}``, evaluated under a dialect: the operators' meanings."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from placeborag_core.filters.dialect import FilterDialect
from placeborag_core.filters.predicates import BoolMask, ColumnView, Predicate
from placeborag_core.filters.values import (
    is_number,
    lookups,
    operand_for,
    scalar_eq,
    tokens,
)

__all__ = ["FieldTest"]


class FieldTest(Predicate):
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
        keys = [key for operand in operands for key in lookups(operand, self.dialect)]
        elements = self.dialect.list_values == "any_element"
        return view.value_mask(self.key, keys, elements)

    # one method per operator; ``value`` is present (the key exists)
    def _equal(self, value: Any, operand: Any) -> bool:
        if isinstance(value, list):
            if self.dialect.list_values == "any_element":
                return any(self._item_equal(item, operand) for item in value)
            return False
        return self._item_equal(value, operand)

    def _item_equal(self, item: Any, operand: Any) -> bool:
        return scalar_eq(item, operand_for(item, operand, self.dialect), self.dialect)

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
            if not is_number(item):
                continue
            bound = operand_for(item, self.operand, self.dialect)
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
                scalar_eq(item, self.operand, self.dialect)
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
        return any(scalar_eq(item, op, self.dialect) for item in value for op in self.operand)

    def _op_all(self, value: Any) -> bool:
        if not isinstance(value, list):
            return False
        return all(any(scalar_eq(item, op, self.dialect) for item in value) for op in self.operand)

    def _text(self, value: Any, fold: bool) -> bool:
        if isinstance(value, list) and self.dialect.list_values == "any_element":
            return any(self._text(item, fold) for item in value if isinstance(item, str))
        if not isinstance(value, str):
            return False
        if self.dialect.text_match == "tokens":
            wanted = tokens(self.operand)
            have = set(tokens(value))
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
