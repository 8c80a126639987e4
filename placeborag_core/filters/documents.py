"""Filters on a record's text: Chroma's ``where_document`` dialect, for every profile.

``{"$contains": s}`` and ``{"$not_contains": s}`` test a case-sensitive substring,
``{"$regex": p}`` and ``{"$not_regex": p}`` an unanchored regular-expression search, and
``{"$and": [...]}`` / ``{"$or": [...]}`` combine two or more such expressions. Each expression has
exactly one operator and every operand is a non-empty string, as Chroma 1.5 requires (measured,
``tests/fidelity/probes/chroma_where_document.py``); a malformed expression raises
:class:`~placeborag_core.errors.FilterError` with Chroma's wording before any record is read.

Patterns have the syntax and semantics of Rust's ``regex`` crate, which Chroma compiles them with:
:mod:`placeborag_core.filters.regex` is a linear-time engine in pure Python (a lazily built DFA,
O(len(pattern) * len(text)) per record at worst), so no pattern can make a test hang, as
``(a+)+$`` does with Python's backtracking ``re``. Unicode classes and case folding are
Unicode-aware, ``$`` is the end of the text (not before a final newline, as in Python), flags
may be set anywhere (``a(?i)b``); what Rust rejects (look-around, back-references, ``\\Z``,
unbalanced groups) raises :class:`~placeborag_core.errors.FilterError` naming the pattern and
the problem, and so do the few things the engine does not support (Unicode scripts and binary
properties other than ``White_Space``; automata over 100,000 states); see
:data:`placeborag_core.filters.regex.SUPPORTED`. A record without text (stored from a vector
alone, or an orphan) contains nothing: it fails ``$contains`` and ``$regex`` and passes their
negations, as in Chroma.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from placeborag_core.errors import FilterError
from placeborag_core.filters.compiler import check_filter_depth
from placeborag_core.filters.predicates import ColumnView, Predicate, RecordPredicate
from placeborag_core.filters.regex import RegexError, compile_regex
from placeborag_core.messages import shown

__all__ = ["DOCUMENT_OPERATORS", "compile_document_filter"]

DOCUMENT_OPERATORS = ("$contains", "$not_contains", "$regex", "$not_regex", "$and", "$or")
_LOGIC = ("$and", "$or")


def compile_document_filter(where_document: Any, suffix: str = "") -> Predicate | None:
    """Validate and compile a ``where_document`` expression; None means no document filter.

    ``suffix`` ends every error message (Chroma names the call: ``" in query."``).
    """
    if where_document is None:
        return None
    check_filter_depth(where_document, "where_document")
    try:
        return _compile(where_document)
    except FilterError as error:
        raise FilterError(f"{error}{suffix}") from None


def _compile(expression: Any) -> Predicate:
    if not isinstance(expression, Mapping):
        raise FilterError(f"Expected where document to be a dictionary, got {expression}")
    if len(expression) != 1:
        raise FilterError(
            f"Expected where document to have exactly one operator, got {dict(expression)}"
        )
    ((operator, operand),) = expression.items()
    if operator not in DOCUMENT_OPERATORS:
        raise FilterError(
            "Expected where document operator to be one of "
            f"{', '.join(DOCUMENT_OPERATORS)}, got {operator}"
        )
    if operator in _LOGIC:
        if not isinstance(operand, list) or len(operand) < 2:
            raise FilterError(
                "Expected document value for $and or $or to be a list with at least two where "
                f"document expressions, got {operand}"
            )
        children = [_compile(child) for child in operand]
        return _Combined(children, all if operator == "$and" else any)
    if not isinstance(operand, str):
        raise FilterError(
            f"Expected where document operand value for operator {operator} to be a str, "
            f"got {operand}"
        )
    if not operand:
        raise FilterError(
            f"Expected where document operand value for operator {operator} to be a non-empty str"
        )
    negated = operator.startswith("$not_")
    if operator.endswith("regex"):
        try:
            regex = compile_regex(operand)
        except RegexError as error:
            raise FilterError(f"Regex syntax error: {error} (pattern {shown(operand)})") from None
        return _Text(regex.is_match, negated)
    return _Text(lambda text: operand in text, negated)


class _Text(RecordPredicate):
    """One test on the text of a record."""

    def __init__(self, test: Callable[[str], bool], negated: bool) -> None:
        self.test = test
        self.negated = negated

    def row_matches(self, view: ColumnView, row: int) -> bool:
        text = view.text_at(row)
        found = text is not None and self.test(text)
        return found != self.negated


class _Combined(RecordPredicate):
    """``$and`` (``all``) or ``$or`` (``any``) of document expressions."""

    def __init__(self, children: list[Predicate], combine: Callable[[Any], bool]) -> None:
        self.children = children
        self.combine = combine

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return self.combine(child.row_matches(view, row) for child in self.children)
