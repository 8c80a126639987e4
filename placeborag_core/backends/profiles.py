"""Backend profiles: what each imitated engine does, as data.

A :class:`Profile` says how scores are computed and reported, how ties are broken, how records are
listed, what a filter means, how writes behave, which ids are legal and how a bad ``k`` fails. The
store's pipeline reads these fields; adding a backend is adding one entry here with its evidence.

Evidence strings point at the measurements in ``shared/reference/backends.md`` (sections Q1-Q8) and
``shared/reference/integrations.md`` and at the probe scripts beside them.
"""

from __future__ import annotations

import dataclasses
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from placeborag_core.errors import DimensionError, FaissDimensionError, FaissKError
from placeborag_core.filters.compiler import (
    CHROMA_OPERATORS,
    CORE_FIELD_OPERATORS,
    CORE_LOGIC_OPERATORS,
    FilterDialect,
)

__all__ = ["PROFILES", "IdRule", "KRule", "MetricVariant", "Profile", "point_id_key"]

TieRule = Literal["insertion", "point_id", "faiss_heap"]
"""How equal scores are ordered and cut. ``insertion``: the k best by (score, insertion slot).
``point_id``: by (score, Qdrant point id). ``faiss_heap``: faiss's k-selection heap
(``faiss/utils/Heap.h``, CMin): every record strictly better than the k-th score is kept, and of
the records tied with it the survivors are those a position-order replay of the heap leaves
(each later, strictly better record evicts the earliest kept tie); each tie group is returned in
descending position, as the heap's final sort leaves it."""


@dataclass(frozen=True)
class MetricVariant:
    """One selectable metric of a profile: its formula, direction and tie rule."""

    name: str
    formula: str
    higher_is_better: bool
    tie_rule: TieRule
    normalise_on_upsert: bool = False
    description: str = ""
    evidence: str = ""


@dataclass(frozen=True)
class KRule:
    """How ``k`` is checked: the exception type and message for a non-positive ``k``."""

    error: type[Exception]
    message: str  # formatted with {k}
    type_message: str  # formatted with {k}, for a k that is not an int
    type_error: type[Exception] = TypeError
    evidence: str = ""


@dataclass(frozen=True)
class IdRule:
    """Which record ids the engine accepts. ``kind="point_id"``: unsigned int or UUID strings."""

    kind: Literal["any", "point_id"]
    message: str = ""  # formatted with {id}
    evidence: str = ""

    def check(self, record_id: str) -> None:
        """Raise ValueError if the engine would reject ``record_id``."""
        if self.kind == "point_id" and point_id_key(record_id) is None:
            raise ValueError(self.message.format(id=record_id))


_UINT = re.compile(r"[0-9]+")


def point_id_key(record_id: str) -> tuple[int, int] | None:
    """Qdrant's point-id order key: unsigned ints first (by value), then UUIDs (by value).

    Returns None for an id Qdrant would reject.
    """
    if _UINT.fullmatch(record_id):
        value = int(record_id)
        return (0, value) if value < 2**64 else None
    try:
        return (1, uuid.UUID(record_id).int)
    except ValueError:
        return None


@dataclass(frozen=True)
class Profile:
    """A backend's behaviour as data. Use :meth:`with_metric` to select another metric."""

    name: str
    metric: str
    higher_is_better: bool
    variants: tuple[MetricVariant, ...]
    listing_order: Literal["insertion", "point_id"]
    filters: FilterDialect
    upsert_metadata: Literal["replace", "merge"]
    duplicate_ids_in_batch: Literal["error", "last_wins"]
    duplicate_ids_message: str  # formatted with {ids}
    ids: IdRule
    k: KRule
    dimension_error: type[DimensionError] = DimensionError
    nested_metadata: bool = True
    accepts_zero_vectors: bool = False
    evidence: tuple[tuple[str, str], ...] = ()

    @property
    def variant(self) -> MetricVariant:
        """The selected metric's details (formula, tie rule, normalisation)."""
        return next(v for v in self.variants if v.name == self.metric)

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metric names this profile accepts."""
        return tuple(v.name for v in self.variants)

    @property
    def tie_rule(self) -> TieRule:
        """How equal scores are ordered under the selected metric."""
        return self.variant.tie_rule

    def with_metric(self, metric: str) -> Profile:
        """This profile with another of its engine's metrics selected."""
        if not isinstance(metric, str) or metric not in self.metrics:
            raise ValueError(
                f"profile {self.name!r} has no metric {metric!r}; "
                f"allowed: {', '.join(repr(m) for m in self.metrics)}"
            )
        chosen = next(v for v in self.variants if v.name == metric)
        return dataclasses.replace(
            self, metric=chosen.name, higher_is_better=chosen.higher_is_better
        )


_ALL_FIELD = frozenset(CORE_FIELD_OPERATORS)
_ALL_LOGIC = frozenset(CORE_LOGIC_OPERATORS)

_DEFAULT_K = KRule(
    error=ValueError,
    message="k must be a positive int (1 or larger), got {k}",
    type_message="k must be an int, got {k!r}",
    evidence="seed specification: bad input raises a clear error",
)

DEFAULT = Profile(
    name="default",
    metric="cosine",
    higher_is_better=True,
    variants=(
        MetricVariant(
            "cosine",
            "cosine_f32",
            True,
            "insertion",
            description="cosine similarity (float32), higher is better",
            evidence="seed specification: a similarity, higher is better",
        ),
    ),
    listing_order="insertion",
    filters=FilterDialect(name="default", field_ops=_ALL_FIELD, logic_ops=_ALL_LOGIC),
    upsert_metadata="replace",
    duplicate_ids_in_batch="error",
    duplicate_ids_message="duplicate ids in one batch: {ids}; each id may appear once",
    ids=IdRule("any"),
    k=_DEFAULT_K,
    evidence=(
        ("filters", "seed: a missing key never matches; malformed clauses raise"),
        ("ties", "seed: deterministic; insertion order, upsert keeps the slot"),
    ),
)

CHROMA = Profile(
    name="chroma",
    metric="l2",
    higher_is_better=False,
    variants=(
        MetricVariant(
            "l2",
            "squared_l2_f32",
            False,
            "insertion",
            description="squared L2 distance (float32), lower is better",
            evidence="backends.md Q1 (q1_scores.py); integrations.md 3.1 (recipe_check.py)",
        ),
        MetricVariant(
            "cosine",
            "one_minus_cosine_f32",
            False,
            "insertion",
            description="1 - cosine (float32), lower is better",
            evidence="backends.md Q1 (q1_scores.py); integrations.md 1a",
        ),
        MetricVariant(
            "ip",
            "one_minus_dot_f32",
            False,
            "insertion",
            description="1 - dot (float32), lower is better; negative for long vectors",
            evidence="backends.md Q1 (q1_scores.py)",
        ),
    ),
    listing_order="insertion",
    filters=FilterDialect(
        name="chroma",
        field_ops=frozenset(CHROMA_OPERATORS),
        logic_ops=frozenset({"$and", "$or"}),
        structure="chroma",
        missing_key_matches=frozenset({"$ne", "$nin", "$not_contains"}),
        numeric_equality="numeric",
        list_values="whole",
        contains_substring=False,
        int_vs_float_operand="truncate",
        # tests/fidelity/probes/chroma_contains_int_vs_float.py: $contains 2.0 misses [1, 2, 3]
        # and $contains 2 misses [2.0, 4.0]
        contains_elements="same_type",
        error_suffix=" in {call}.",
    ),
    upsert_metadata="merge",
    duplicate_ids_in_batch="error",
    duplicate_ids_message="Expected IDs to be unique, found duplicates of: {ids} in upsert.",
    ids=IdRule("any", evidence="backends.md q8_chroma_id_validation.py: any non-empty str"),
    k=KRule(
        error=TypeError,
        message="Number of requested results {k}, cannot be negative, or zero. in query.",
        type_message="Expected requested number of results to be a int, got {k} in query.",
        type_error=ValueError,
        evidence="backends.md Q4 (q4_prefilter.py)",
    ),
    nested_metadata=False,
    accepts_zero_vectors=True,
    evidence=(
        ("zero vectors", "probed 2026-11-29: accepted; a zero vector has cosine 0 (distance 1)"),
        ("metadata", "backends.md Q3 metadata writes: nested dicts are rejected; lists allowed"),
        (
            "ties",
            (
                "backends.md Q2 + Q5 (q2_ties.py, q5_delete_upsert.py): insertion slot; upsert "
                "keeps it, delete + re-add moves to the end"
            ),
        ),
        (
            "filters",
            (
                "backends.md Q3 (q3_filters.py, q3b_filters_extra.py): $ne/$nin match a "
                "missing key; 1 == 1.0; bool != int; $contains is array membership"
            ),
        ),
        (
            "float operand vs int value",
            (
                "tests/fidelity/probes/chroma_float_operand_vs_int.py (chromadb 1.5.9): a float "
                "operand is truncated toward zero (Rust `as i64`) before it meets an int value, "
                "for $eq/$ne/$in/$nin and the bounds: 2.5 matches 2, $lt 2.5 excludes 2, "
                "$gt -1.5 excludes -1; float values compare as floats"
            ),
        ),
        ("filter errors", "backends.md Q3 error table; chromadb/api/types.py validate_where"),
        ("writes", "backends.md Q5: upsert merges metadata; text None keeps the document"),
        ("k", "backends.md Q4: n_results > count truncates silently; 0 raises TypeError"),
    ),
)

QDRANT = Profile(
    name="qdrant",
    metric="cosine",
    higher_is_better=True,
    variants=(
        MetricVariant(
            "cosine",
            "cosine_f64_query",
            True,
            "point_id",
            normalise_on_upsert=True,
            description="cosine similarity, higher is better; vectors normalised on upsert",
            evidence="backends.md Q1; integrations.md 3.1 (recipe_check.py, bit-exact)",
        ),
        MetricVariant(
            "dot",
            "dot_f64_query",
            True,
            "point_id",
            description="raw dot product, higher is better",
            evidence="backends.md Q1; integrations.md 3.1",
        ),
        MetricVariant(
            "euclid",
            "euclid_f64_query",
            False,
            "point_id",
            description="L2 distance (not squared), lower is better",
            evidence="backends.md Q1; integrations.md 3.1",
        ),
    ),
    listing_order="point_id",
    filters=FilterDialect(
        name="qdrant",
        field_ops=frozenset(
            {
                "$eq",
                "$ne",
                "$gt",
                "$gte",
                "$lt",
                "$lte",
                "$in",
                "$nin",
                "$text_match",
                "$text_match_insensitive",
                "$is_empty",
                "$exists",
            }
        ),
        logic_ops=_ALL_LOGIC,
        numeric_equality="int_exact",
        list_values="any_element",
        text_match="tokens",
        empty_values=(),
        match_operands="str_or_int",
        bool_bounds=True,
        exists="not_empty",
    ),
    upsert_metadata="replace",
    duplicate_ids_in_batch="last_wins",
    duplicate_ids_message="",
    ids=IdRule(
        "point_id",
        message="Point id {id} is not a valid UUID",
        evidence="backends.md Q2 id checks; integrations.md 1b",
    ),
    k=KRule(
        error=ValueError,
        message="limit value {k} is invalid. Must be 1 or larger.",
        type_message="limit: Input should be a valid integer, got {k!r}",
        type_error=ValueError,
        evidence="backends.md Q4",
    ),
    accepts_zero_vectors=True,
    evidence=(
        ("zero vectors", "backends.md Q7 (q7_dimension.py): accepted, COSINE score 0.0"),
        (
            "filter operands",
            (
                "qdrant_client models: MatchAny/MatchExcept take list[str] or list[int] "
                "($in, $nin, $ne); Range(gt=True) is coerced to 1.0; IsEmpty is the only "
                "presence test ($exists) -- tests/fidelity (issue 7) requests"
            ),
        ),
        ("k type", "qdrant_client models.QueryRequest: a fractional limit is a ValidationError"),
        ("metadata", "integrations.md 2a: flat_metadata=False, nested payloads are kept"),
        (
            "ties",
            (
                "issue 7: the Qdrant server breaks score ties by point id; local mode's "
                "argsort order (backends.md Q2) is a documented divergence"
            ),
        ),
        ("listing", "backends.md Q5: scroll() is in id order"),
        (
            "filters",
            (
                "backends.md Q3 (q3_filters.py): MatchValue int 1 does not match 1.0; "
                "MatchExcept ($ne/$nin) needs the key; must_not ($not) matches a missing "
                "key; arrays match by element; IsEmpty is missing/null/[]; MatchText is "
                "word-token match (qdrant_client/local/payload_filters.py)"
            ),
        ),
        ("writes", "backends.md Q3: upsert replaces the payload wholesale"),
        ("duplicates", "integrations.md 1b: a duplicate id in one call, the last one wins"),
    ),
)

FAISS = Profile(
    name="faiss",
    metric="l2",
    higher_is_better=False,
    variants=(
        MetricVariant(
            "l2",
            "squared_l2_f32",
            False,
            "insertion",
            description="squared L2 distance (float32), lower is better (IndexFlatL2)",
            evidence="backends.md Q1, Q2 (q2_ties.py): first k inserted, ascending",
        ),
        MetricVariant(
            "ip",
            "dot_f32",
            True,
            "faiss_heap",
            description="inner product (float32), higher is better (IndexFlatIP)",
            evidence=(
                "tests/fidelity/probes/faiss_ip_heap_ties.py (faiss-cpu 1.15.1, 800/800 "
                "searches): the CMin heap decides which tied records survive the cut; tie "
                "groups come back in descending position. backends.md Q2 (pure ties: the first "
                "k inserted) is the special case without better records"
            ),
        ),
    ),
    listing_order="insertion",
    filters=FilterDialect(name="faiss", field_ops=_ALL_FIELD, logic_ops=_ALL_LOGIC),
    upsert_metadata="replace",
    duplicate_ids_in_batch="error",
    duplicate_ids_message="Duplicate ids found: {ids}",
    ids=IdRule("any"),
    k=KRule(
        error=FaissKError,
        message="k must be a positive int (1 or larger), got {k}",
        type_message="k must be an int, got {k!r}",
        evidence="backends.md Q7: faiss k=0 is a bare AssertionError",
    ),
    dimension_error=FaissDimensionError,
    accepts_zero_vectors=True,
    evidence=(
        ("zero vectors", "probed 2026-11-29: IndexFlatL2 and IndexFlatIP take them as any"),
        ("filters", "FAISS has no metadata filter; the core dialect applies"),
        ("duplicates", "integrations.md 1b: LangChain FAISS raises 'Duplicate ids found'"),
        (
            "errors",
            (
                "backends.md Q7: faiss raises a bare AssertionError for k=0 and wrong "
                "dimensions; we raise FaissKError/FaissDimensionError, which are "
                "AssertionErrors with a message"
            ),
        ),
    ),
)

WEAVIATE = Profile(
    name="weaviate",
    metric="cosine",
    higher_is_better=False,
    variants=(
        MetricVariant(
            "cosine",
            "one_minus_cosine_f32",
            False,
            "insertion",
            description="cosine distance 1 - cos (float32), lower is better",
            evidence="backends.md Q1 (NOT MEASURED; Weaviate docs)",
        ),
    ),
    listing_order="insertion",
    filters=FilterDialect(name="weaviate", field_ops=_ALL_FIELD, logic_ops=_ALL_LOGIC),
    upsert_metadata="replace",
    duplicate_ids_in_batch="error",
    duplicate_ids_message="duplicate ids in one batch: {ids}; each id may appear once",
    ids=IdRule("any"),
    k=_DEFAULT_K,
    evidence=(
        (
            "all",
            (
                "backends.md: Weaviate was NOT MEASURED; only its distance convention and "
                "pre-filtering are documented. Ties, filters and writes follow the default."
            ),
        ),
    ),
)

PROFILES: Mapping[str, Profile] = MappingProxyType(
    {p.name: p for p in (DEFAULT, CHROMA, QDRANT, FAISS, WEAVIATE)}
)
