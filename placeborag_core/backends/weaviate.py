"""Weaviate: NOT measured (it cannot run in process here); only its distance convention.

The profile reports Weaviate's cosine distance (1 - cos, lower is better) and otherwise keeps
the default profile's rules. ``docs/engines/weaviate.md`` says where each assumption comes from.
"""

from __future__ import annotations

from placeborag_core.backends.default import CORE_DIALECT_OPERATORS, DEFAULT_K
from placeborag_core.backends.formulas import ONE_MINUS_COSINE_F32
from placeborag_core.backends.profile import IdRule, MetricVariant, Profile
from placeborag_core.backends.ties import INSERTION
from placeborag_core.filters.dialect import FilterDialect

__all__ = ["PROFILE"]

PROFILE = Profile(
    name="weaviate",
    metric="cosine",
    variants=(
        MetricVariant(
            "cosine",
            ONE_MINUS_COSINE_F32,
            False,
            INSERTION,
            description="cosine distance 1 - cos (float32), lower is better",
            evidence="docs/engines/weaviate.md#weaviate-distance-cosine (NOT MEASURED)",
        ),
    ),
    filters=FilterDialect("weaviate", *CORE_DIALECT_OPERATORS),
    upsert_metadata="replace",
    duplicate_ids_in_batch="error",
    duplicate_ids_message="duplicate ids in one batch: {ids}; each id may appear once",
    ids=IdRule(),
    k=DEFAULT_K,
    evidence=(
        (
            "all",
            (
                "docs/engines/weaviate.md: NOT MEASURED; only the distance convention and "
                "pre-filtering are documented. Ties, filters and writes follow the default."
            ),
        ),
    ),
)
