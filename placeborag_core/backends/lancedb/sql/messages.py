"""The pieces of lance's filter error messages: Rust source locations and value formatting.

Lance's errors name the Rust source line that raised them and debug-print the values involved
(``Int64(1)``, ``Utf8("x")``, an f64 in Rust's ``{}`` format); these reproduce them exactly, so
an error message matches the engine's byte for byte.
"""

from __future__ import annotations

import math
from decimal import Decimal

from placeborag_core.backends.lancedb.arrow import RUST_SOURCE
from placeborag_core.backends.lancedb.sql.syntax import Literal
from placeborag_core.errors import FilterError

__all__ = [
    "ANALYZER",
    "DATAFUSION_BUG",
    "DF_OPERATOR",
    "ESCAPE",
    "LOGICAL_EXPR",
    "POSTFILTER_SCAN",
    "PREFILTER_READ",
    "SIGNED_ZERO",
    "SIMPLIFIER",
    "LanceExecutionError",
    "invalid",
    "literal_debug",
    "rust_float",
]


LANCE_DF = f"{RUST_SOURCE}/lance-datafusion-13.0.0/src"
LOGICAL_EXPR = f"{LANCE_DF}/logical_expr.rs:23:88"
ANALYZER = f"{LANCE_DF}/planner.rs:1070:20"
SIMPLIFIER = f"{LANCE_DF}/planner.rs:1087:20"
ESCAPE = f"{LANCE_DF}/planner.rs:1096:12"
SIGNED_ZERO = f"{LANCE_DF}/signed_zero.rs:99:8"
PREFILTER_READ = f"{RUST_SOURCE}/lance-13.0.0/src/io/exec/filtered_read.rs:1639:33"
POSTFILTER_SCAN = f"{RUST_SOURCE}/lance-13.0.0/src/dataset/scanner.rs:8155:66"
DATAFUSION_BUG = (
    "This issue was likely caused by a bug in DataFusion's code. Please help us to resolve this "
    "by filing a bug report in our issue tracker: https://github.com/apache/datafusion/issues"
)


class LanceExecutionError(RuntimeError):
    """A filter that plans but fails on the data (a string value that does not parse as the
    number it is compared with), as lance fails while executing the query."""


def invalid(message: str) -> FilterError:
    return FilterError(f"Invalid input, {message}")


def rust_float(value: float) -> str:
    """Rust's ``{}`` of an f64 (no exponent: 1e20 is 100000000000000000000, 1.0 is 1)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = format(Decimal(repr(value)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def rust_debug_str(text: str) -> str:
    escaped = (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    )
    return '"' + escaped.replace("\r", "\\r") + '"'


def literal_debug(literal: Literal) -> str:
    """A literal as DataFusion's ``ScalarValue`` debug-prints it (``Int64(1)``)."""
    if literal.kind == "int":
        return f"Int64({literal.value})"
    if literal.kind == "uint":
        return f"UInt64({literal.value})"
    if literal.kind == "float":
        return f"Float64({rust_float(literal.value)})"
    if literal.kind == "str":
        return f"Utf8({rust_debug_str(literal.value)})"
    if literal.kind == "bool":
        return f"Boolean({'true' if literal.value else 'false'})"
    return "NULL"


DF_OPERATOR = {"=": "=", "==": "=", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
