"""The filter layer: ``where=`` and ``where_document=`` filters validated and compiled into
predicates before any record is read, then evaluated per record or as a row mask.

Modules: ``dialect`` (what an engine's filter means, as data), ``values`` (value semantics),
``predicates`` and ``fields`` (the compiled tree), ``compiler`` (validation and compilation),
``clauses`` (building clauses with constant parts folded away) and ``documents``
(``where_document``, the text filter).
"""

from placeborag_core.filters.compiler import (
    compile_filter,
    compile_filter_or_callable,
    read_core_filter,
)
from placeborag_core.filters.dialect import (
    CORE_FIELD_OPERATORS,
    CORE_LOGIC_OPERATORS,
    FilterDialect,
    FilterNodes,
    FilterReader,
)
from placeborag_core.filters.predicates import (
    ColumnView,
    Everything,
    Predicate,
    RecordPredicate,
    all_of,
    record_condition,
)

__all__ = [
    "CORE_FIELD_OPERATORS",
    "CORE_LOGIC_OPERATORS",
    "ColumnView",
    "Everything",
    "FilterDialect",
    "FilterNodes",
    "FilterReader",
    "Predicate",
    "RecordPredicate",
    "all_of",
    "compile_filter",
    "compile_filter_or_callable",
    "read_core_filter",
    "record_condition",
]
