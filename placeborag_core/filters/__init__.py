"""The filter layer: ``where=`` and ``where_document=`` filters validated and compiled into
predicates before any record is read, then evaluated per record or as a row mask.

What a filter means comes from the ``FilterDialect`` a backend profile carries, never from the
profile's name.
"""

from placeborag_core.filters.compiler import (
    CORE_FIELD_OPERATORS,
    CORE_LOGIC_OPERATORS,
    ColumnView,
    FilterDialect,
    Predicate,
    RecordPredicate,
    all_of,
    compile_filter,
    compile_filter_or_callable,
    record_condition,
)

__all__ = [
    "CORE_FIELD_OPERATORS",
    "CORE_LOGIC_OPERATORS",
    "ColumnView",
    "FilterDialect",
    "Predicate",
    "RecordPredicate",
    "all_of",
    "compile_filter",
    "compile_filter_or_callable",
    "record_condition",
]
