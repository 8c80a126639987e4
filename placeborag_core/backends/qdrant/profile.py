"""Qdrant (qdrant-client local mode, and the Qdrant server's tie order): its profile.

Similarity scores for cosine and dot (higher is better) and an L2 distance for euclid, computed in
float64 as qdrant-client's local mode does; cosine collections store unit vectors. Ties and
listings in point-id order, the server's rule (local mode's argsort order is a documented
divergence). Filters with Qdrant's matching rules (:data:`~placeborag_core.backends.qdrant.
filters.DIALECT`), payloads replaced wholesale on upsert and kept nested, a repeated id in one
batch won by the last, point ids that are unsigned ints or UUIDs. Facts: ``docs/engines/qdrant.md``.
"""

from __future__ import annotations

from placeborag_core.backends.profile import IdRule, KRule, MetricVariant, Profile
from placeborag_core.backends.qdrant import scores
from placeborag_core.backends.qdrant.filters import DIALECT, read_qdrant_filter
from placeborag_core.backends.qdrant.ids import (
    MESSAGE,
    canonical_point_id,
    canonical_record_id,
    external_point_id,
    point_id_key,
)
from placeborag_core.backends.ties import KeyOrderTies

__all__ = ["PROFILE"]

DOC = "docs/engines/qdrant.md"
_POINT_ID_TIES = KeyOrderTies("point_id", point_id_key)

PROFILE = Profile(
    name="qdrant",
    metric="cosine",
    variants=(
        MetricVariant(
            "cosine",
            scores.COSINE,
            True,
            _POINT_ID_TIES,
            normalise_on_upsert=True,
            description="cosine similarity, higher is better; vectors normalised on upsert",
            evidence=f"{DOC}#qdrant-score-cosine, #qdrant-cosine-normalised-on-upsert",
        ),
        MetricVariant(
            "dot",
            scores.DOT,
            True,
            _POINT_ID_TIES,
            description="raw dot product, higher is better",
            evidence=f"{DOC}#qdrant-score-dot",
        ),
        MetricVariant(
            "euclid",
            scores.EUCLID,
            False,
            _POINT_ID_TIES,
            description="L2 distance (not squared), lower is better",
            evidence=f"{DOC}#qdrant-score-euclid",
        ),
    ),
    filters=DIALECT,
    upsert_metadata="replace",
    duplicate_ids_in_batch="last_wins",
    duplicate_ids_message="",
    ids=IdRule(
        canonical=canonical_point_id,
        message=MESSAGE,
        record_canonical=canonical_record_id,
        order_key=point_id_key,
        external=external_point_id,
        evidence=f"{DOC}#qdrant-ids-uuid-or-uint",
    ),
    k=KRule(
        error=ValueError,
        message="limit value {k} is invalid. Must be 1 or larger.",
        type_message="limit: Input should be a valid integer, got {k!r}",
        type_error=ValueError,
        evidence=f"{DOC}#qdrant-k-positive, #qdrant-k-request-model",
    ),
    accepts_zero_vectors=True,
    native_filter=read_qdrant_filter,
    evidence=(
        ("zero vectors", f"{DOC}#qdrant-zero-vector"),
        ("filter operands", f"{DOC}#filter-errors"),
        ("metadata", f"{DOC}#qdrant-payload-nested"),
        ("ties", f"{DOC}#qdrant-ties-server (local mode: #qdrant-ties-argsort, a divergence)"),
        ("listing", f"{DOC}#qdrant-listing-order"),
        ("filters", f"{DOC}#filters"),
        ("writes", f"{DOC}#qdrant-payload-upsert-replaces"),
        ("duplicates", f"{DOC}#qdrant-write-duplicate-last-wins"),
    ),
)
