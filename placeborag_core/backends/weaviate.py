"""Weaviate: NOT measured (it cannot run in process here); only its distance convention.

The profile is the default profile with Weaviate's cosine distance (1 - cos, lower is better)
reported instead of the similarity: ties, filters, writes and errors follow the default.
``docs/engines/weaviate.md`` says where each assumption comes from.
"""

from __future__ import annotations

import dataclasses

from placeborag_core.backends.default import PROFILE as DEFAULT
from placeborag_core.backends.formulas import ONE_MINUS_COSINE_F32
from placeborag_core.backends.profile import MetricVariant
from placeborag_core.backends.ties import INSERTION

__all__ = ["PROFILE"]

PROFILE = dataclasses.replace(
    DEFAULT,
    name="weaviate",
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
    filters=dataclasses.replace(DEFAULT.filters, name="weaviate"),
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
