"""Milvus (the Milvus 2.5 core, as milvus-lite 2.5.1 runs it): its two profiles.

``milvus`` has VARCHAR primary keys (langchain-milvus with ids, llama-index node ids),
``milvus_int64`` INT64 keys (``MilvusClient.create_collection``'s default, langchain-milvus auto
ids). Both: COSINE and IP similarities (higher is better) and the squared L2 distance, in
float32; ties of L2 in insertion order, of COSINE and IP as knowhere's selection heap leaves them
(FAISS's IndexFlatIP heap, :class:`~placeborag_core.backends.faiss.HeapTies`); an upsert is a
delete and an insert (the record moves to the end); listings in primary-key order; filters are
Milvus expression strings (``filters.py``; core dicts are translated into one); ``limit`` in
[1, 16384] with pymilvus's and the server's errors. Facts: ``docs/engines/milvus.md``.
"""

from __future__ import annotations

import dataclasses

from placeborag_core.backends.default import CORE_DIALECT_OPERATORS
from placeborag_core.backends.faiss import HeapTies
from placeborag_core.backends.formulas import COSINE_F32, DOT_F32, SQUARED_L2_F32
from placeborag_core.backends.milvus.errors import (
    MilvusDimensionError,
    MilvusParamError,
    MilvusServerError,
)
from placeborag_core.backends.milvus.filters import Schema, SchemaReader, read_milvus_filter
from placeborag_core.backends.milvus.ids import (
    INT64_MESSAGE,
    VARCHAR_MESSAGE,
    canonical_int64,
    canonical_int64_record,
    canonical_varchar,
    external_int64,
    int64_key,
    varchar_key,
)
from placeborag_core.backends.profile import IdRule, KRule, MetricVariant, Profile
from placeborag_core.backends.ties import INSERTION
from placeborag_core.filters.dialect import FilterDialect

__all__ = ["COSINE", "MORE_PROFILES", "PROFILE", "PROFILE_INT64"]

DOC = "docs/engines/milvus.md"

COSINE = COSINE_F32
"""Milvus's COSINE: the exact cosine of the stored vector and the float32 query, rounded to
float32; 0 where either vector is zero (Milvus accepts zero vectors and reports 0). knowhere
computes it in float32 with its own SIMD lane order, so the engine's last bit may differ: the
fidelity suite compares within its tolerance (``docs/engines/milvus.md#milvus-score-float32``)."""

_HEAP = HeapTies()

_VARIANTS = (
    MetricVariant(
        "cosine",
        COSINE,
        True,
        _HEAP,
        description="cosine similarity (float32), higher is better; ties: knowhere's heap",
        evidence=f"{DOC}#milvus-score-cosine-similarity-desc, #milvus-ties-cosine",
    ),
    MetricVariant(
        "l2",
        SQUARED_L2_F32,
        False,
        INSERTION,
        description="squared L2 distance (float32), lower is better; ties in insertion order",
        evidence=f"{DOC}#milvus-score-l2-squared-asc, #milvus-ties-l2",
    ),
    MetricVariant(
        "ip",
        DOT_F32,
        True,
        _HEAP,
        description="inner product (float32), higher is better; ties: knowhere's heap",
        evidence=f"{DOC}#milvus-score-ip-raw-dot-desc, #milvus-ties-ip",
    ),
)


def _dialect(schema: Schema) -> FilterDialect:
    return FilterDialect("milvus", *CORE_DIALECT_OPERATORS, reader=SchemaReader(schema))


PROFILE = Profile(
    name="milvus",
    metric="cosine",
    variants=_VARIANTS,
    filters=_dialect(Schema(id_field="id", id_type="varchar")),
    upsert_metadata="replace",
    upsert_position="end_in_order",
    duplicate_ids_in_batch="last_wins",
    duplicate_ids_message="",
    ids=IdRule(
        canonical=canonical_varchar,
        message=VARCHAR_MESSAGE,
        order_key=varchar_key,
        evidence=f"{DOC}#milvus-listing-order",
    ),
    k=KRule(
        error=MilvusParamError,
        message="`limit` value {k} is illegal",
        type_message="`limit` value {k} is illegal",
        type_error=MilvusParamError,
        limit=16384,
        limit_error=MilvusServerError,
        limit_message="invalid parameter",
        evidence=f"{DOC}#milvus-k-0, #milvus-k-above-16384",
    ),
    dimension_error=MilvusDimensionError,
    accepts_zero_vectors=True,
    native_filter=read_milvus_filter,
    keeps_deleted_rows=True,
    evidence=(
        ("engine", f"{DOC}: the Milvus 2.5 core (milvus-lite 2.5.1), not Milvus Lite 3"),
        ("zero vectors", f"{DOC}#milvus-zero-vector-cosine"),
        ("ties", f"{DOC}#milvus-ties-l2, #milvus-ties-cosine, #milvus-ties-mixed"),
        ("listing", f"{DOC}#milvus-listing-order"),
        ("filters", f"{DOC}#filter-expressions"),
        (
            "writes",
            (
                f"{DOC}#milvus-write-upsert-moves-to-end, #milvus-write-upsert-batch-in-order, "
                "#milvus-write-upsert-replaces"
            ),
        ),
        ("duplicates", f"{DOC}#milvus-write-duplicate-ids-one-upsert-last-wins"),
        (
            "deleted rows",
            "docs/integrations/new_integrations.md#lc-milvus-runtime-error-deleted-rows",
        ),
    ),
)
"""Milvus with VARCHAR primary keys (any str id)."""

PROFILE_INT64 = dataclasses.replace(
    PROFILE,
    name="milvus_int64",
    filters=_dialect(Schema(id_field="id", id_type="int64")),
    ids=IdRule(
        canonical=canonical_int64,
        message=INT64_MESSAGE,
        record_canonical=canonical_int64_record,
        order_key=int64_key,
        external=external_int64,
        evidence=f"{DOC}#milvus-listing-order",
    ),
)
"""Milvus with INT64 primary keys (record ids are decimal int64 strings)."""
MORE_PROFILES = (PROFILE_INT64,)
"""The engine's other profiles, registered beside ``PROFILE``."""
