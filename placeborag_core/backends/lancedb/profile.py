"""LanceDB (lancedb 0.40, embedded ``lancedb.connect(<dir>)``): its profile.

Exact (flat) searches report ``_distance`` in float32: the squared L2 distance (``l2``, the
default), ``1 - cos`` (``cosine``) and ``1 - dot`` (``dot``), lower is better; ties come back in
insertion order. LanceDB has no primary key: ``table.add`` appends rows (an id may repeat:
``FakeVectorStore.append_many``) and an upsert is ``merge_insert("id")``, which updates the
columns it is given and moves the updated row to the end of the table
(``FakeVectorStore.upsert_many``). Metadata lives in typed columns fixed by the table's first
write (``columns``). Filters are SQL strings (``read_lancedb_where``, the native reader; dict
filters are translated to SQL), pre-filtered by default (``filter_mode="post"`` or a query's
``filter_mode=`` for ``prefilter=False``). Facts: ``docs/engines/lancedb.md``.
"""

from __future__ import annotations

from placeborag_core.backends.formulas import (
    ONE_MINUS_COSINE_F32,
    ONE_MINUS_DOT_F32,
    SQUARED_L2_F32,
)
from placeborag_core.backends.lancedb.columns import LanceColumns
from placeborag_core.backends.lancedb.filters import DIALECT, read_lancedb_where
from placeborag_core.backends.profile import IdRule, KRule, MetricVariant, Profile
from placeborag_core.backends.ties import INSERTION
from placeborag_core.errors import DimensionError

__all__ = ["PROFILE", "LanceDimensionError"]

DOC = "docs/engines/lancedb.md"


class LanceDimensionError(DimensionError, RuntimeError):
    """A vector of the wrong width under the lancedb profile. LanceDB raises ``ValueError`` for a
    query or an ``add`` and ``RuntimeError`` for a ``merge_insert`` of one; this error is both."""


PROFILE = Profile(
    name="lancedb",
    metric="l2",
    variants=(
        MetricVariant(
            "l2",
            SQUARED_L2_F32,
            False,
            INSERTION,
            description="squared L2 distance (float32), lower is better",
            evidence=f"{DOC}#lancedb-score-l2-squared, #lancedb-score-default-metric-l2",
        ),
        MetricVariant(
            "cosine",
            ONE_MINUS_COSINE_F32,
            False,
            INSERTION,
            zero_vectors_unranked=True,
            description="1 - cosine (float32), lower is better; zero vectors never returned",
            evidence=(
                f"{DOC}#lancedb-score-cosine-one-minus-cos, "
                "#lancedb-zero-vector-row-dropped-from-cosine, #lancedb-zero-query-cosine-empty"
            ),
        ),
        MetricVariant(
            "dot",
            ONE_MINUS_DOT_F32,
            False,
            INSERTION,
            description="1 - dot (float32), lower is better; negative for long vectors",
            evidence=f"{DOC}#lancedb-score-dot-one-minus-dot",
        ),
    ),
    filters=DIALECT,
    upsert_metadata="merge",
    duplicate_ids_in_batch="keep_new",
    duplicate_ids_message=(
        "Invalid input, Ambiguous merge inserts are prohibited: multiple source rows match the "
        'same target row on (id = "{ids}"). Please ensure each target row is matched by at most '
        "one source row."
    ),
    ids=IdRule(evidence=f"{DOC}#lancedb-int-id-cast-to-string-column"),
    k=KRule(
        error=ValueError,
        message="Limit is required for ANN/KNN queries",
        type_message=(
            "1 validation error for Query\nlimit\n  Input should be a valid integer, got {k!r}"
        ),
        type_error=ValueError,
        none_is_missing=True,
        evidence=f"{DOC}#lancedb-k-0, #lancedb-k--1, #lancedb-k-none, #lancedb-k-types",
    ),
    dimension_error=LanceDimensionError,
    nested_metadata=True,
    accepts_zero_vectors=True,
    native_filter=read_lancedb_where,
    upsert_position="end",
    append_writes=True,
    nan_queries_match_nothing=True,
    columns=LanceColumns(),
    evidence=(
        ("ties", f"{DOC}#lancedb-ties-first-k-inserted, #lancedb-ties-updated-row-moves-to-end"),
        ("writes", f"{DOC}#lancedb-write-add-existing-id-appends-duplicate, #lancedb-merge-order"),
        ("filters", f"{DOC}#filter-semantics-and-errors"),
        ("schema", f"{DOC}#schema-and-writes"),
        ("zero vectors", f"{DOC}#lancedb-zero-vector-row-dropped-from-cosine"),
        ("k", f"{DOC}#lancedb-k-0, #lancedb-k-larger-than-rows-truncates"),
        ("NaN queries", f"{DOC}#lancedb-nan-query-empty"),
    ),
)
