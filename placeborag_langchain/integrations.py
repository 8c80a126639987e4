"""What each real LangChain integration adds on top of its engine, as data keyed by profile name.

`PlaceboVectorStore(profile=...)` promises that swapping it for the real integration changes
nothing a test can observe but speed. The engine underneath is the core profile's business;
everything the LangChain integration itself decides (which number `similarity_search_with_score`
reports and its type, which relevance function turns it into a relevance score, the `Document`
shape, id rules, `delete`/`get_by_ids`/MMR conventions, the filter format) lives in one
`IntegrationFacts` row per profile, so the store's code has no per-integration branches.
Evidence: `docs/integrations/langchain.md` (fact IDs `lc-*`, re-measured by the probes
`tests/fidelity/probes/lc_*_integration.py`); each row cites its facts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

import numpy as np

from placeborag_core.backends import PayloadLayout
from placeborag_langchain.faiss_filters import FAISS_DICT
from placeborag_langchain.filters import CORE_WHERE, EngineFilter, FilterFormat, MilvusExpression
from placeborag_langchain.relevance import (
    RelevanceFn,
    cosine_distance_relevance,
    euclidean_relevance,
    half_shifted_cosine_relevance,
    max_inner_product_relevance,
    quarter_squared_l2_relevance,
)
from placeborag_langchain.typed_fields import FieldRules

__all__ = ["INTEGRATIONS", "IntegrationFacts", "integration_for"]


def _python_float(value: float) -> float:
    return float(value)


def _numpy_float32(value: float) -> float:
    # FAISS hands back numpy.float32, not a Python float (lc-faiss-score-l2).
    result: float = np.float32(value)
    return result


@dataclass(frozen=True)
class IntegrationFacts:
    """One real LangChain integration's observable conventions.

    Attributes:
        profile: the core profile name this row belongs to.
        integration: dotted name of the real class, for messages and docs.
        class_name: the real class's own name, which LangChain reports for it (the retriever's
            tags and its LangSmith ``ls_vector_store_provider``).
        collection_deleted_error: message of the ValueError every call raises after
            ``delete_collection()`` until ``reset_collection()`` (Chroma's own text).
        relevance: distance setting (see `distance_settings`) -> relevance function used by
            `similarity_search_with_relevance_scores` (and `similarity_score_threshold`).
        relevance_error: message of the ValueError for a setting without a relevance function.
        distance_settings: the integration's own names for its distance choice, each mapped to
            the core metric its index runs on, when they are not simply the core metrics
            (FAISS's `DistanceStrategy`: COSINE, DOT_PRODUCT and JACCARD still build an L2
            index). The first name on a metric is that metric's default. Empty: the setting is
            the core metric itself, and `distance_strategy=` is refused.
        threshold_keeps_higher: the settings whose `score_threshold` keeps scores >= the
            threshold (FAISS: MAX_INNER_PRODUCT and JACCARD, although JACCARD's scores are
            distances); None: decided by the profile's score direction.
        normalize_l2_quiet: None when the integration has no `normalize_L2` option; otherwise
            the distance settings it is meant for: under any other setting the constructor
            warns (`normalize_l2_warning`) and normalises all the same, as FAISS does.
        normalize_l2_warning: the UserWarning's message template ("{setting}": the setting as
            the integration shows it, `DistanceStrategy.COSINE` for the enum member).
        unknown_setting_metric: the core metric of a distance setting the integration does not
            know (FAISS: any value but MAX_INNER_PRODUCT builds an L2 index, and only the
            relevance function then fails); None refuses unknown settings.
        score_type: converts the core's reported score to the integration's number type.
        filter_format: what `filter=` takes besides a callable (see `filters.py`): the core
            dict dialect as is, the engine's own filter object (with the payload layout the
            integration writes), or a dialect of the integration's own.
        callable_filter_arg: what a callable filter receives: the `Document` or its metadata.
        default_filter_mode: filter mode when the constructor does not name one.
        default_fetch_k: candidates fetched before a post-filter when the call names none.
        mmr_filter_window: factor on `fetch_k` for MMR candidates when a filter is given.
        document_id: whether returned Documents carry `id` (Qdrant leaves it None).
        metadata_extras: whether `_id` (the id as the engine reports it: the profile's
            `IdRule.external`) and `_collection_name` are added to returned metadata.
        id_checks: who checks a document id. "integration": it must be a non-empty str
            (`id_type_error`, `id_empty_error`), and delete and get look ids up as `str(id)`.
            "engine": ids go to the engine's client as given, which takes what the profile's
            `IdRule.canonical` accepts (Qdrant: unsigned ints and UUIDs in any spelling); add
            raises the engine's `IdRule.message` for any other id, delete and get skip it.
        generated_id: "uuid" (dashed) or "hex" (32 hex digits, uuid4().hex style).
        duplicate_ids: what a repeated id inside one add call does: "last_wins" or an error
            message template ("{dups}" is replaced by the repeated ids).
        existing_id: "upsert" or an error template for ids that already exist ("{ids}").
        id_type_error, id_empty_error: ValueError messages for a non-str and an empty id
            ("{id}", "{type}"), when the integration checks ids.
        delete_returns: the return value of a successful `delete` (True or None).
        delete_none_error: message of the ValueError raised by `delete(None)`.
        delete_empty_error: message of the ValueError raised by `delete([])` (None: no-op).
        delete_missing_error: template of the ValueError raised when an id is missing (None:
            missing ids are ignored).
        id_lookup_error: the exception type and message template ("{id}", "{type}", "{call}",
            "{cls}") for an id of the wrong type in `delete` or a read by id: not a str where
            the integration checks ids, not a str, int or UUID where the engine does (Qdrant's
            client: "Incompatible point id type"); None: such an id simply matches nothing
            (FAISS looks ids up as given).
        get_order: "request" (request order, duplicates repeated) or "storage" (listing order).
        get_duplicate_error: template of the error for a repeated id in get_by_ids (None: ok).
        get_empty_error: message of the ValueError for `get_by_ids([])` (None: returns []).
        mmr_order: "pick" (MMR selection order) or "rank" (selected docs in distance order).
        mmr_lambda_inverted: the engine's MMR takes diversity = lambda_mult, i.e. LangChain's
            MMR at 1 - lambda_mult (Qdrant).
        score_threshold: how `similarity_search_with_score(score_threshold=)` compares:
            "strict" (Qdrant, in the engine), "inclusive" (FAISS, after the search) or None
            (the integration has no such argument).
        strict_kwargs: unknown search keyword arguments raise TypeError. Chroma passes them to
            `collection.query`, which raises TypeError; langchain-qdrant passes them to the
            client, whose local mode raises AssertionError (TypeError here too); FAISS ignores
            them.
        orphan_error: template of the error raised when the index returns an id whose document
            is gone (FAISS's docstore miss); None returns a Document with empty content.
        document_filter: whether searches accept `where_document=` (Chroma's filter on the
            document text, evaluated by the core with the metadata filter) and `delete` accepts
            `where=`/`where_document=` filters instead of, or with, ids.
        search_offset: whether searches take `offset=` (Qdrant: skip that many results, after
            `score_threshold`); MMR then also takes `score_threshold` (only candidates above it
            are considered, as Qdrant's engine does).
        ignored_search_kwargs: search keyword arguments the integration names in its
            signature but that change nothing for a store in memory (Qdrant's `search_params`,
            `consistency`, and `hybrid_fusion` outside hybrid mode): accepted, unused.
        default_metric: the core metric of a store that names none (langchain-milvus: its
            default index is AUTOINDEX with L2); None: the profile's.
        filter_kwarg: the search keyword that takes the filter (langchain-milvus: `expr=`);
            `filter=` is then refused with `filter_conflict` (the exception type and message
            the real class raises for it).
        id_metadata_key: returned metadata also holds the id under this key (langchain-milvus
            reports its primary key `pk`; the constructor's `primary_field` renames it).
        id_error_type: the exception type of `id_type_error`, `id_empty_error` and a
            `duplicate_ids` message (langchain-milvus asserts: AssertionError).
        uses_document_ids: whether `add_documents` takes `Document.id` when no `ids=` is given
            (langchain-milvus passes only texts and metadata on).
        generated_id_error: NotImplementedError message for a document without an id, when
            the integration's generated ids are not imitated (None: they are generated).
        delete_expr_kwarg: `delete` also takes a filter under this keyword (langchain-milvus's
            `expr=`): it deletes what the filter selects unless ids are given, and returns
            False where the engine refuses the delete (an invalid expression, an id of the
            wrong type, no collection yet); `delete_none_error` then has `delete_error_type`.
        delete_error_type: the exception type of `delete_none_error`/`delete_empty_error`.
        get_by_ids_error: NotImplementedError message of `get_by_ids` (None: implemented).
        typed_fields: the collection's typed fields fixed by the first batch (see
            `typed_fields.py`); None: metadata is stored as given.
        embedding_probes: when the integration calls `embed_documents(["dummy_text"])` to learn
            the dimension (langchain-qdrant: in the constructor and before a text MMR search),
            which a counting embedder can see.
        named_collections: whether a store's collection can be found again by its name:
            langchain-qdrant's `from_existing_collection(name)` opens a collection created
            earlier (here: by a store built earlier in the process, still alive) as another
            client of the same records. Other integrations' stores are not registered, so
            `from_existing_collection` does not find them.
    """

    profile: str
    integration: str
    class_name: str
    relevance: Mapping[str, RelevanceFn]
    relevance_error: str
    distance_settings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    threshold_keeps_higher: frozenset[str] | None = None
    normalize_l2_quiet: frozenset[str] | None = None
    normalize_l2_warning: str = "Normalizing L2 is not applicable for metric type: {setting}"
    unknown_setting_metric: str | None = None
    score_type: Callable[[float], float] = _python_float
    filter_format: FilterFormat = CORE_WHERE
    callable_filter_arg: Literal["document", "metadata"] = "document"
    default_filter_mode: Literal["pre", "post"] = "pre"
    default_fetch_k: int | None = None
    mmr_filter_window: int = 1
    document_id: bool = True
    metadata_extras: bool = False
    id_checks: Literal["integration", "engine"] = "integration"
    generated_id: Literal["uuid", "hex"] = "uuid"
    duplicate_ids: str = "last_wins"
    existing_id: str = "upsert"
    id_type_error: str = "ids must be non-empty str, got {type} {id!r}"
    id_empty_error: str = "ids must be non-empty str, got an empty str"
    delete_returns: bool | None = True
    delete_none_error: str = "delete() needs ids"
    delete_empty_error: str | None = None
    delete_missing_error: str | None = None
    id_lookup_error: tuple[type[Exception], str] | None = (
        TypeError,
        "ids must be str, got {type} {id!r} in {call}()",
    )
    get_order: Literal["request", "storage"] = "request"
    get_duplicate_error: str | None = None
    get_empty_error: str | None = None
    mmr_order: Literal["pick", "rank"] = "pick"
    mmr_lambda_inverted: bool = False
    score_threshold: Literal["strict", "inclusive"] | None = None
    strict_kwargs: bool = True
    orphan_error: str | None = None
    document_filter: bool = False
    embedding_probes: frozenset[Literal["init", "mmr"]] = frozenset()
    search_offset: bool = False
    ignored_search_kwargs: tuple[str, ...] = ()
    default_metric: str | None = None
    filter_kwarg: str = "filter"
    filter_conflict: tuple[type[Exception], str] | None = None
    id_metadata_key: str | None = None
    id_error_type: type[Exception] = ValueError
    uses_document_ids: bool = True
    generated_id_error: str | None = None
    delete_expr_kwarg: str | None = None
    delete_error_type: type[Exception] = ValueError
    get_by_ids_error: str | None = None
    typed_fields: FieldRules | None = None
    named_collections: bool = False
    collection_deleted_error: str = (
        "the collection was deleted (delete_collection()); call reset_collection() to create "
        "an empty one"
    )


# placeborag's own clean conventions (no real integration to match).
_DEFAULT = IntegrationFacts(
    profile="default",
    integration="placeborag (clean conventions)",
    class_name="PlaceboVectorStore",
    relevance=MappingProxyType({"cosine": half_shifted_cosine_relevance}),
    relevance_error="no relevance function for metric {metric!r} under profile 'default'",
    document_filter=True,
    duplicate_ids="duplicate ids in one call: {dups}; each id may appear once per call",
    delete_none_error=(
        "delete(ids=None) is refused: pass the ids to delete (every real integration refuses "
        "None too; list them with store.core_store.ids())"
    ),
)

# docs/integrations/langchain.md: lc-chroma-relevance-l2, lc-chroma-relevance-cosine,
# lc-chroma-relevance-ip, lc-chroma-filter-where, lc-chroma-where-document,
# lc-chroma-unknown-kwargs, lc-chroma-ids-generated, lc-chroma-ids-type, lc-chroma-ids-empty,
# lc-chroma-ids-duplicate, lc-chroma-upsert-existing, lc-chroma-delete-returns,
# lc-chroma-delete-none, lc-chroma-delete-empty, lc-chroma-delete-where, lc-chroma-get-by-ids-order,
# lc-chroma-get-by-ids-duplicate, lc-chroma-get-by-ids-empty, lc-chroma-mmr-order.
# relevance_error is read from langchain_chroma/vectorstores.py: no Chroma space reaches it.
_CHROMA = IntegrationFacts(
    profile="chroma",
    integration="langchain_chroma.Chroma",
    class_name="Chroma",
    collection_deleted_error=(
        "Chroma collection not initialized. Use `reset_collection` to re-create and initialize "
        "the collection. "
    ),
    relevance=MappingProxyType(
        {
            "l2": euclidean_relevance,
            "cosine": cosine_distance_relevance,
            "ip": max_inner_product_relevance,
        }
    ),
    relevance_error=(
        "No supported normalization function for distance metric of type: {metric}."
        "Consider providing relevance_score_fn to Chroma constructor."
    ),
    duplicate_ids="Expected IDs to be unique, found duplicates of: {dups} in upsert.",
    id_type_error="Expected ID to be a str, got {id} in upsert.",
    id_empty_error="Empty ID, ID must have at least one character",
    delete_returns=None,
    delete_none_error="At least one of ids, where, or where_document must be provided in delete.",
    delete_empty_error="Expected IDs to be a non-empty list, got 0 IDs in delete.",
    id_lookup_error=(ValueError, "Expected ID to be a str, got {id} in {call}."),
    get_order="storage",
    get_duplicate_error="Expected IDs to be unique, found duplicates of: {dups} in get.",
    get_empty_error="Expected IDs to be a non-empty list, got 0 IDs in get.",
    mmr_order="rank",
    document_filter=True,
)

# docs/integrations/langchain.md: lc-qdrant-relevance-cosine, lc-qdrant-relevance-dot,
# lc-qdrant-score-euclid, lc-qdrant-relevance-manhattan, lc-qdrant-document,
# lc-qdrant-filter-prefix, lc-qdrant-filter-dict, lc-qdrant-ids-generated, lc-qdrant-ids-returned,
# lc-qdrant-ids-invalid, lc-qdrant-ids-duplicate, lc-qdrant-get-by-ids, lc-qdrant-delete,
# lc-qdrant-mmr, lc-qdrant-threshold-strict, lc-qdrant-embedding-probe,
# lc-qdrant-embedding-probe-mmr, lc-qdrant-existing-collection.
_QDRANT = IntegrationFacts(
    profile="qdrant",
    integration="langchain_qdrant.QdrantVectorStore",
    class_name="QdrantVectorStore",
    relevance=MappingProxyType(
        {
            "cosine": half_shifted_cosine_relevance,
            "dot": max_inner_product_relevance,
            "euclid": euclidean_relevance,
        }
    ),
    relevance_error="Unknown distance strategy, must be COSINE, DOT, or EUCLID.",
    filter_format=EngineFilter(
        layout=PayloadLayout(metadata_prefix="metadata.", text_key="page_content"),
        attributes=("must", "should", "must_not"),
        takes="a qdrant_client.models.Filter",
    ),
    document_id=False,
    metadata_extras=True,
    id_checks="engine",
    id_lookup_error=(TypeError, "Incompatible point id type: {cls}"),
    generated_id="hex",
    delete_none_error="Unsupported selector type: <class 'NoneType'>",
    delete_empty_error="Empty update request",
    mmr_lambda_inverted=True,
    score_threshold="strict",
    embedding_probes=frozenset({"init", "mmr"}),
    search_offset=True,
    ignored_search_kwargs=("search_params", "consistency", "hybrid_fusion"),
    named_collections=True,
)

# docs/integrations/langchain.md: lc-faiss-score-l2, lc-faiss-relevance-l2, lc-faiss-mip,
# lc-faiss-cosine-strategy, lc-faiss-dot-jaccard, lc-faiss-threshold, lc-faiss-normalize-l2,
# lc-faiss-normalize-warning, lc-faiss-filter-dialect, lc-faiss-filter-errors, lc-faiss-postfilter,
# lc-faiss-unknown-kwargs, lc-faiss-ids-duplicate, lc-faiss-ids-existing, lc-faiss-delete,
# lc-faiss-get-by-ids, lc-faiss-orphan, lc-faiss-mmr.
# The 2 x fetch_k MMR window is read from langchain_community/vectorstores/faiss.py.
_FAISS = IntegrationFacts(
    profile="faiss",
    integration="langchain_community.vectorstores.FAISS",
    class_name="FAISS",
    relevance=MappingProxyType(
        {
            "EUCLIDEAN_DISTANCE": euclidean_relevance,
            "MAX_INNER_PRODUCT": max_inner_product_relevance,
            "COSINE": cosine_distance_relevance,
        }
    ),
    relevance_error="Unknown distance strategy, must be cosine, max_inner_product, or euclidean",
    distance_settings=MappingProxyType(
        {
            "EUCLIDEAN_DISTANCE": "l2",
            "MAX_INNER_PRODUCT": "ip",
            "COSINE": "l2",
            "DOT_PRODUCT": "l2",
            "JACCARD": "l2",
        }
    ),
    threshold_keeps_higher=frozenset({"MAX_INNER_PRODUCT", "JACCARD"}),
    unknown_setting_metric="l2",
    normalize_l2_quiet=frozenset({"EUCLIDEAN_DISTANCE"}),
    score_type=_numpy_float32,
    filter_format=FAISS_DICT,
    callable_filter_arg="metadata",
    default_filter_mode="post",
    default_fetch_k=20,
    mmr_filter_window=2,
    duplicate_ids="Duplicate ids found in the ids list.",
    existing_id="Tried to add ids that already exist: {ids}",
    delete_none_error="No ids provided to delete.",
    delete_empty_error="Tried to delete ids that does not  exist: []",
    delete_missing_error=(
        "Some specified ids do not exist in the current store. Ids not found: {ids}"
    ),
    id_lookup_error=None,
    score_threshold="inclusive",
    strict_kwargs=False,
    orphan_error="Could not find document for id {id}, got ID {id} not found.",
)

# Facts (lc-milvus-*, measured on Milvus Lite 2.5 by probes/lc_milvus_integration.py):
# lc-milvus-score-*-raw-engine-value, lc-milvus-relevance-*, lc-milvus-document-id-none-pk-*,
# lc-milvus-default-index-autoindex-l2, lc-milvus-schema-from-first-batch,
# lc-milvus-missing-key-*, lc-milvus-later-type-change, lc-milvus-extra-key-dropped,
# lc-milvus-filter-expr-string, lc-milvus-filter-dict-kwarg-typeerror, lc-milvus-k-0,
# lc-milvus-delete-*, lc-milvus-get-by-ids-not-implemented, lc-milvus-duplicate-ids-one-batch,
# lc-milvus-id-not-str, lc-milvus-search-before-collection. The relevance functions and the
# delete rules are also read from langchain_milvus/vectorstores/milvus.py.
_MILVUS = IntegrationFacts(
    profile="milvus",
    integration="langchain_milvus.Milvus",
    class_name="Milvus",
    relevance=MappingProxyType(
        {
            "l2": quarter_squared_l2_relevance,
            "cosine": half_shifted_cosine_relevance,
            "ip": half_shifted_cosine_relevance,
        }
    ),
    relevance_error="No supported normalization function for metric type: {metric}.",
    default_metric="l2",
    filter_format=MilvusExpression(),
    filter_kwarg="expr",
    filter_conflict=(
        TypeError,
        (
            "pymilvus.milvus_client.milvus_client.MilvusClient.search() got multiple values "
            "for keyword argument 'filter'"
        ),
    ),
    document_id=False,
    id_metadata_key="pk",
    id_error_type=AssertionError,
    id_type_error="All ids should be strings.",
    id_empty_error=(
        "empty ids are refused: Milvus takes an empty VARCHAR key, the core store's ids are "
        "non-empty"
    ),
    duplicate_ids="Different lengths of texts and unique ids are provided.",
    uses_document_ids=False,
    generated_id_error=(
        "langchain-milvus gives documents without ids Milvus's auto ids (after a UserWarning it "
        "switches auto_id on: INT64 keys from the server's clock), which placeborag does not "
        "imitate; pass ids="
    ),
    delete_expr_kwarg="expr",
    delete_error_type=AssertionError,
    delete_none_error="Either ids list or expr string must be provided.",
    delete_empty_error="Either ids list or expr string must be provided.",
    id_lookup_error=None,
    get_by_ids_error="Milvus does not yet support get_by_ids.",
    strict_kwargs=False,
    ignored_search_kwargs=("param", "timeout"),
    typed_fields=FieldRules(),
)

INTEGRATIONS: Mapping[str, IntegrationFacts] = MappingProxyType(
    {facts.profile: facts for facts in (_DEFAULT, _CHROMA, _QDRANT, _FAISS, _MILVUS)}
)
"""The rows by profile name: ``default``, ``chroma``, ``qdrant``, ``faiss``, ``milvus``."""


def integration_for(profile: str) -> IntegrationFacts:
    """The row for `profile`; a ValueError lists the profiles that have a row."""
    try:
        return INTEGRATIONS[profile]
    except KeyError:
        raise ValueError(
            f"no LangChain integration is modelled for profile {profile!r}; "
            f"available: {', '.join(sorted(INTEGRATIONS))}"
        ) from None
