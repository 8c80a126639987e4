"""The default profile: the clean, strict conventions of the seed specification.

A cosine similarity (higher is better), ties in insertion order, every core filter operator, a
missing key never matching, malformed clauses raising, and clear messages. Not an imitation of
any engine: what a test wants when it does not care which backend it will meet.
"""

from __future__ import annotations

from placeborag_core.backends.formulas import COSINE_F32
from placeborag_core.backends.profile import IdRule, KRule, MetricVariant, Profile
from placeborag_core.backends.ties import INSERTION
from placeborag_core.filters.dialect import (
    CORE_FIELD_OPERATORS,
    CORE_LOGIC_OPERATORS,
    FilterDialect,
)

__all__ = ["CORE_DIALECT_OPERATORS", "DEFAULT_K", "PROFILE"]

CORE_DIALECT_OPERATORS = (frozenset(CORE_FIELD_OPERATORS), frozenset(CORE_LOGIC_OPERATORS))
"""Every core field and logical operator: the filter vocabulary of engines without their own."""

DEFAULT_K = KRule(
    error=ValueError,
    message="k must be a positive int (1 or larger), got {k}",
    type_message="k must be an int, got {k!r}",
    evidence="seed specification: bad input raises a clear error",
)

PROFILE = Profile(
    name="default",
    metric="cosine",
    variants=(
        MetricVariant(
            "cosine",
            COSINE_F32,
            True,
            INSERTION,
            description="cosine similarity (float32), higher is better",
            evidence="seed specification: a similarity, higher is better",
        ),
    ),
    filters=FilterDialect("default", *CORE_DIALECT_OPERATORS),
    upsert_metadata="replace",
    duplicate_ids_in_batch="error",
    duplicate_ids_message="duplicate ids in one batch: {ids}; each id may appear once",
    ids=IdRule(),
    k=DEFAULT_K,
    evidence=(
        ("filters", "seed: a missing key never matches; malformed clauses raise"),
        ("ties", "seed: deterministic; insertion order, upsert keeps the slot"),
    ),
)
