"""Chroma (chromadb 1.5.9, in process): its profile, filter dialect and messages.

Scores are float32 distances (squared L2, 1 - cosine, 1 - dot), ties in insertion order, filters
with Chroma's own validation and messages, a missing key matching ``$ne``/``$nin``, ``1 == 1.0``
but ``True != 1``, a float operand cut toward zero before it meets an int value, ``$contains`` as
list membership of the same type, upserts that merge metadata, and ``n_results`` errors as Chroma
raises them. Every fact is in ``docs/engines/chroma.md`` with the probe that measures it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from placeborag_core.backends.formulas import (
    ONE_MINUS_COSINE_F32,
    ONE_MINUS_DOT_F32,
    SQUARED_L2_F32,
)
from placeborag_core.backends.profile import IdRule, KRule, MetricVariant, Profile
from placeborag_core.backends.ties import INSERTION
from placeborag_core.errors import FilterError
from placeborag_core.filters.dialect import FilterDialect

__all__ = ["CHROMA_OPERATORS", "PROFILE", "validate_where"]

DOC = "docs/engines/chroma.md"

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


def validate_where(where: Any) -> None:
    """Chroma 1.5.9's ``validate_where`` rules and messages, plus the two checks its Rust core
    adds ("Invalid where clause"); ``docs/engines/chroma.md#filter-errors``."""
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
                validate_where(expression)
        if isinstance(value, dict):
            _validate_expression(value)


def _validate_expression(value: dict[Any, Any]) -> None:
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


def validate_metadata(metadata: Mapping[str, Any]) -> None:
    """chromadb's ``validate_metadata`` of a record's metadata, with its exception types and
    messages (``#chroma-metadata-values``): str keys but the reserved ``chroma:document``;
    values str, int, float, bool, None, or a non-empty list whose items are all str, all int,
    all float or all bool. Values are shown as chromadb shows them, with ``str()``."""
    for key, value in metadata.items():
        if key == "chroma:document":
            raise ValueError(
                "Expected metadata to not contain the reserved key chroma:document in upsert."
            )
        if not isinstance(key, str):
            raise TypeError(
                f"Expected metadata key to be a str, got {key} which is a "
                f"{type(key).__name__} in upsert."
            )
        if isinstance(value, list):
            _validate_list(key, value)
        elif value is not None and not isinstance(value, str | int | float):
            raise ValueError(
                "Expected metadata value to be a str, int, float, bool, SparseVector, list, or "
                f"None, got {value} which is a {type(value).__name__} in upsert."
            )


def _validate_list(key: str, value: list[Any]) -> None:
    if not value:
        raise ValueError(f"Expected metadata list value for key '{key}' to be non-empty in upsert.")
    kinds = {type(item) for item in value}
    if len(kinds) > 1 or not kinds <= {str, int, float, bool}:
        raise ValueError(
            f"Expected metadata list value for key '{key}' to contain only str, int, float, or "
            f"bool and all elements must be the same type, got {value} in upsert."
        )


PROFILE = Profile(
    name="chroma",
    metric="l2",
    variants=(
        MetricVariant(
            "l2",
            SQUARED_L2_F32,
            False,
            INSERTION,
            description="squared L2 distance (float32), lower is better",
            evidence=f"{DOC}#chroma-score-l2",
        ),
        MetricVariant(
            "cosine",
            ONE_MINUS_COSINE_F32,
            False,
            INSERTION,
            description="1 - cosine (float32), lower is better",
            evidence=f"{DOC}#chroma-score-cosine",
        ),
        MetricVariant(
            "ip",
            ONE_MINUS_DOT_F32,
            False,
            INSERTION,
            description="1 - dot (float32), lower is better; negative for long vectors",
            evidence=f"{DOC}#chroma-score-ip",
        ),
    ),
    filters=FilterDialect(
        name="chroma",
        field_ops=frozenset(CHROMA_OPERATORS),
        logic_ops=frozenset({"$and", "$or"}),
        validate=validate_where,
        numpy_operands=False,  # chromadb refuses them, in a list too (not JSON serialisable)
        missing_key_matches=frozenset({"$ne", "$nin", "$not_contains"}),
        numeric_equality="numeric",
        list_values="whole",
        contains_substring=False,
        int_vs_float_operand="truncate",
        contains_elements="same_type",
        error_suffix=" in {call}.",
    ),
    upsert_metadata="merge",
    none_removes_key=True,
    duplicate_ids_in_batch="error",
    duplicate_ids_message="Expected IDs to be unique, found duplicates of: {ids} in upsert.",
    ids=IdRule(evidence=f"{DOC}#chroma-ids-any-str"),
    k=KRule(
        error=TypeError,
        message="Number of requested results {k}, cannot be negative, or zero. in query.",
        type_message="Expected requested number of results to be a int, got {k} in query.",
        type_error=ValueError,
        evidence=f"{DOC}#chroma-k-zero",
    ),
    nested_metadata=False,
    metadata_rule=validate_metadata,
    accepts_zero_vectors=True,
    evidence=(
        ("zero vectors", f"{DOC}#chroma-zero-vector"),
        ("metadata", f"{DOC}#chroma-metadata-nested, #chroma-metadata-values"),
        (
            "ties",
            (
                f"{DOC}#chroma-ties-insertion, #chroma-ties-upsert-keeps-slot, "
                "#chroma-ties-readd-moves-last"
            ),
        ),
        (
            "filters",
            (
                f"{DOC}#chroma-filter-ne-missing, #chroma-filter-int-float, "
                "#chroma-filter-bool-not-int, #chroma-filter-array-contains"
            ),
        ),
        ("float operand vs int value", f"{DOC}#chroma-filter-float-operand-truncated"),
        ("$contains element types", f"{DOC}#chroma-filter-contains-typed"),
        ("filter errors", f"{DOC}#filter-errors"),
        ("writes", f"{DOC}#chroma-write-upsert-merges"),
        ("writes", f"{DOC}#chroma-write-none-removes-key"),
        ("k", f"{DOC}#chroma-k-above-count, #chroma-k-zero"),
    ),
)
