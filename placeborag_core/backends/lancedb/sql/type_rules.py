"""The types in a filter: a literal's type, literal conversion to a column's type, coercion.

Lance converts a literal compared with a column to the column's type exactly (stage 2), and
DataFusion coerces two operands to a common type (later stages); both rules live here.
"""

from __future__ import annotations

from placeborag_core.backends.lancedb.arrow import (
    BOOL,
    FLOAT64,
    INT64,
    NULL,
    UINT64,
    UTF8,
    ArrowType,
)
from placeborag_core.backends.lancedb.sql.syntax import Literal

__all__ = ["coercion", "convert_literal", "literal_type"]


LITERAL_TYPES = {"int": INT64, "uint": UINT64, "float": FLOAT64, "str": UTF8, "bool": BOOL}


def literal_type(literal: Literal) -> ArrowType:
    return LITERAL_TYPES.get(literal.kind, NULL)


def convert_literal(literal: Literal, target: ArrowType) -> Literal | None:
    """The literal converted to the column's type, or None (lance's literal resolution)."""
    if literal.kind == "null":
        return literal
    kind = target.kind
    if literal.kind == "int" and kind in ("int64", "double"):
        value = literal.value if kind == "int64" else float(literal.value)
        return Literal("int" if kind == "int64" else "float", value, literal.text)
    if literal.kind == "uint" and kind == "double":
        return Literal("float", float(literal.value), literal.text)
    if (literal.kind, kind) in (("float", "double"), ("str", "string"), ("bool", "bool")):
        return literal
    return None


def coercion(left: ArrowType, right: ArrowType) -> ArrowType | None:
    """DataFusion's common type for comparing two types (None: they cannot be compared)."""
    if left.kind == "null":
        return right
    if right.kind == "null":
        return left
    if left == right:
        return left
    if left.numeric and right.numeric:
        return FLOAT64 if "double" in (left.kind, right.kind) else INT64
    if left.numeric and right.kind == "string":
        return left
    if right.numeric and left.kind == "string":
        return right
    return None
