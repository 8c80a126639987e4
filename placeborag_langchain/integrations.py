"""What each real LangChain integration adds on top of its engine, as data keyed by profile name.

`PlaceboVectorStore(profile=...)` promises that swapping it for the real integration changes
nothing a test can observe but speed. The engine underneath is the core profile's business;
everything the LangChain integration itself decides (which number `similarity_search_with_score`
reports and its type, which relevance function turns it into a relevance score, the `Document`
shape, id rules, `delete`/`get_by_ids`/MMR conventions, the filter format) lives in one
`IntegrationFacts` row per profile (its fields: `integration_facts.py`), so the store's code has
no per-integration branches.
Evidence: `docs/integrations/langchain.md` (fact IDs `lc-*`, re-measured by the probes
`tests/fidelity/probes/lc_*_integration.py`); each row cites its facts.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
from pydantic_core import ValidationError

from placeborag_core.backends import PayloadLayout
from placeborag_core.backends.lancedb import (
    LanceColumns,
    read_lancedb_delete_where,
    read_lancedb_where,
)
from placeborag_langchain.faiss_filters import FAISS_DICT
from placeborag_langchain.filters import EngineFilter, MilvusExpression, SqlFilterFormat
from placeborag_langchain.integration_facts import IntegrationFacts
from placeborag_langchain.pgvector_filters import PGVECTOR_JSONB
from placeborag_langchain.relevance import (
    cosine_distance_relevance,
    euclidean_relevance,
    half_shifted_cosine_relevance,
    max_inner_product_relevance,
    quarter_squared_l2_relevance,
)
from placeborag_langchain.stored_values import (
    chroma_values,
    postgres_values,
    qdrant_local_values,
)
from placeborag_langchain.typed_fields import FieldRules

__all__ = ["INTEGRATIONS", "IntegrationFacts", "integration_for"]


def _qdrant_none_point_id() -> Exception:
    """What qdrant-client's `PointStruct(id=None)` raises (lc-qdrant-ids-none): pydantic's
    ValidationError, with its three errors (the id is neither int, str nor UUID)."""
    return ValidationError.from_exception_data(
        "PointStruct",
        [
            {"type": "int_type", "loc": ("id", "int"), "input": None},
            {"type": "string_type", "loc": ("id", "str"), "input": None},
            {"type": "uuid_type", "loc": ("id", "uuid"), "input": None},
        ],
    )


def _numpy_float32(value: float) -> float:
    # FAISS hands back numpy.float32, not a Python float (lc-faiss-score-l2).
    result: float = np.float32(value)
    return result


# placeborag's own clean conventions (no real integration to match).
_DEFAULT = IntegrationFacts(
    profile="default",
    integration="placeborag (clean conventions)",
    class_name="PlaceboVectorStore",
    relevance=MappingProxyType({"cosine": half_shifted_cosine_relevance}),
    relevance_error="no relevance function for metric {metric!r} under profile 'default'",
    document_filter=True,
    search_fetch_k=True,
    duplicate_ids="duplicate ids in one call: {dups}; each id may appear once per call",
    delete_none_error=(
        "delete(ids=None) is refused: pass the ids to delete (every real integration refuses "
        "None too; list them with store.core_store.ids())"
    ),
)

_CHROMA_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]")


def _chroma_name_error(name: str) -> str | None:
    """chromadb's validation of a collection name, its message (lc-chroma-collection-name)."""
    if _CHROMA_NAME.fullmatch(name) is None:
        return (
            "Validation error: name: Expected a name containing 3-512 characters from "
            "[a-zA-Z0-9._-], starting and ending with a character in [a-zA-Z0-9]. Got: " + name
        )
    if ".." in name:
        return (
            "Validation error: name: Expected a name that does not contains two consecutive "
            f"periods (..). Got {name}"
        )
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return None
    return f"Validation error: name: Expected a name that is not a valid ip address. Got {name}"


# docs/integrations/langchain.md: lc-chroma-relevance-l2, lc-chroma-relevance-cosine,
# lc-chroma-relevance-ip, lc-chroma-filter-where, lc-chroma-where-document,
# lc-chroma-unknown-kwargs, lc-chroma-ids-generated, lc-chroma-ids-type, lc-chroma-ids-empty,
# lc-chroma-ids-duplicate, lc-chroma-upsert-existing, lc-chroma-delete-returns,
# lc-chroma-delete-none, lc-chroma-delete-empty, lc-chroma-delete-where, lc-chroma-get-by-ids-order,
# lc-chroma-get-by-ids-duplicate, lc-chroma-get-by-ids-empty, lc-chroma-mmr-order,
# lc-chroma-metadata-numbers, lc-chroma-metadata-hint.
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
    collection_name_error=_chroma_name_error,
    empty_add_error=(  # lc-chroma-empty-add
        ValueError,
        "Expected Embeddings to be non-empty list or numpy array, got [] in upsert.",
    ),
    stored_values=chroma_values,  # lc-chroma-metadata-numbers
    metadata_error_hint=(  # lc-chroma-metadata-hint
        "Expected metadata value to be",
        (
            "Try filtering complex metadata from the document using "
            "langchain_community.vectorstores.utils.filter_complex_metadata."
        ),
    ),
)

# docs/integrations/langchain.md: lc-qdrant-relevance-cosine, lc-qdrant-relevance-dot,
# lc-qdrant-score-euclid, lc-qdrant-relevance-manhattan, lc-qdrant-document,
# lc-qdrant-filter-prefix, lc-qdrant-filter-dict, lc-qdrant-ids-generated, lc-qdrant-ids-returned,
# lc-qdrant-ids-invalid, lc-qdrant-ids-duplicate, lc-qdrant-ids-none, lc-qdrant-get-by-ids,
# lc-qdrant-delete, lc-qdrant-mmr, lc-qdrant-threshold-strict, lc-qdrant-embedding-probe,
# lc-qdrant-embedding-probe-mmr, lc-qdrant-existing-collection, lc-qdrant-metadata-json,
# lc-qdrant-ids-empty.
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
    none_id_error=_qdrant_none_point_id,
    empty_ids_generate=True,  # lc-qdrant-ids-empty
    delete_none_error="Unsupported selector type: <class 'NoneType'>",
    delete_empty_error="Empty update request",
    mmr_lambda_inverted=True,
    score_threshold="strict",
    embedding_probes=frozenset({"init", "mmr"}),
    search_offset=True,
    ignored_search_kwargs=("search_params", "consistency", "hybrid_fusion"),
    named_collections=True,
    stored_values=qdrant_local_values,  # lc-qdrant-metadata-json
)

# docs/integrations/langchain.md: lc-faiss-score-l2, lc-faiss-relevance-l2, lc-faiss-mip,
# lc-faiss-cosine-strategy, lc-faiss-dot-jaccard, lc-faiss-threshold, lc-faiss-normalize-l2,
# lc-faiss-normalize-warning, lc-faiss-filter-dialect, lc-faiss-filter-errors, lc-faiss-postfilter,
# lc-faiss-unknown-kwargs, lc-faiss-ids-duplicate, lc-faiss-ids-existing, lc-faiss-ids-unsized,
# lc-faiss-ids-none, lc-faiss-ids-empty, lc-faiss-delete,
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
    search_fetch_k=True,
    mmr_filter_window=2,
    duplicate_ids="Duplicate ids found in the ids list.",
    existing_id="Tried to add ids that already exist: {ids}",
    sized_ids=True,
    empty_ids_generate=True,  # lc-faiss-ids-empty
    # lc-faiss-ids-none: FAISS keys the docstore by None (divergence faiss-none-id).
    none_id_error=functools.partial(
        ValueError,
        "a None id: langchain-community FAISS stores such a document under the key None "
        "(Document.id None; a second one raises 'Tried to add ids that already exist: "
        "{None}'), which placeborag does not imitate; give every document an id, or none "
        "(then each gets a generated id)",
    ),
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

# docs/integrations/new_integrations.md: lc-pgvector-score-{cosine,euclidean,max_inner_product},
# lc-pgvector-relevance-*, lc-pgvector-document-*, the JSONB filter table and its errors,
# lc-pgvector-duplicate-ids-one-batch, lc-pgvector-auto-id-uuid4-str,
# lc-pgvector-add-existing-id-replaces, lc-pgvector-delete-missing-silent,
# lc-pgvector-get-by-ids-skips-missing, lc-pgvector-k-0-empty, lc-pgvector-k-negative.
# `delete(None)` deleting nothing, MMR picks handed back in distance order and the
# `distance_strategy` values ("l2", "cosine", "inner") are read from
# langchain_postgres/vectorstores.py 0.0.19.
_PGVECTOR = IntegrationFacts(
    profile="pgvector",
    integration="langchain_postgres.PGVector",
    class_name="PGVector",
    relevance=MappingProxyType(
        {
            "cosine": cosine_distance_relevance,
            "l2": euclidean_relevance,
            "inner": max_inner_product_relevance,
        }
    ),
    relevance_error=(
        "No supported normalization function for distance_strategy of {metric}."
        "Consider providing relevance_score_fn to PGVector constructor."
    ),
    distance_settings=MappingProxyType({"cosine": "cosine", "l2": "l2", "inner": "ip"}),
    filter_format=PGVECTOR_JSONB,
    duplicate_ids=(
        "(psycopg.errors.CardinalityViolation) ON CONFLICT DO UPDATE command cannot affect row "
        "a second time"
    ),
    delete_returns=None,
    delete_none_error=None,
    get_order="storage",
    mmr_order="rank",
    # langchain-postgres's searches, MMR and delete take **kwargs and ignore what they do not
    # know (score_threshold, lambda_mult, ... left in a retriever's search_kwargs).
    strict_kwargs=False,
    # lc-pgvector-collection-life: after delete_collection() searches and adds raise
    # "Collection not found" until create_collection(); a second delete only logs it;
    # from_existing_index(collection_name=...) finds the collection by name.
    collection_deleted_error="Collection not found",
    repeat_delete_collection_raises=False,
    named_collections=True,
    from_documents_ids=False,  # lc-pgvector-from-documents-ids
    stored_values=postgres_values,  # lc-pgvector-refuses-nul, lc-pgvector-refuses-nan
)


def _lance_dict_filter(flt: dict[Any, Any]) -> str:
    # langchain_community.vectorstores.lancedb.to_lance_filter: keys unprefixed, values quoted
    return " AND ".join([f"{k} = '{v}'" for k, v in flt.items()])


# docs/integrations/new_integrations.md (probe lc_lancedb.py): lc-lancedb-community-*. The
# delete and search signatures, the relevance functions and the empty-result warning are read
# from langchain_community/vectorstores/lancedb.py and measured by the fidelity test.
_LANCEDB = IntegrationFacts(
    profile="lancedb",
    integration="langchain_community.vectorstores.LanceDB",
    class_name="LanceDB",
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
    # `distance=` only picks the relevance function: every search runs on l2
    # (lc-lancedb-community-score-ignores-distance-*).
    distance_settings=MappingProxyType({"l2": "l2", "cosine": "l2", "ip": "l2"}),
    unknown_setting_metric="l2",
    filter_format=SqlFilterFormat(
        layout=PayloadLayout(
            metadata_prefix="metadata.",
            text_key="text",
            table_columns=("vector", "id", "text", "{metadata}"),
        ),
        reader=read_lancedb_where,
        delete_reader=read_lancedb_delete_where,
        from_dict=_lance_dict_filter,
    ),
    default_filter_mode="post",
    document_id=False,
    existing_id="append",
    delete_returns=None,
    delete_none_error="Provide either filter, ids, drop_columns or delete_all",
    delete_empty_error="Provide either filter, ids, drop_columns or delete_all",
    id_lookup_error=None,
    mmr_order="rank",
    strict_kwargs=False,
    profile_columns=LanceColumns(layout="struct"),
    overwrite_by_default=True,
    id_metadata_key="id",
    empty_result_warning="No results found for the query.",
    get_by_ids_error=(NotImplementedError, "LanceDB does not yet support get_by_ids."),
    filter_mode_kwarg="prefilter",
    delete_filter_kwarg="filter",
    delete_all_kwarg="delete_all",
    # lc-lancedb-community-metrics-kwarg-sets-engine-metric: a per-search metric
    unimitated_search_kwargs=("metrics",),
    # lc-lancedb-community-empty-add (an existing table or not, either mode)
    empty_add_error=(ValueError, "Cannot create table from empty list without a schema"),
)

# Facts (lc-milvus-*, measured on Milvus Lite 2.5 by probes/lc_milvus_integration.py):
# lc-milvus-score-*-raw-engine-value, lc-milvus-relevance-*, lc-milvus-document-id-none-pk-*,
# lc-milvus-default-index-autoindex-l2, lc-milvus-schema-from-first-batch,
# lc-milvus-missing-key-*, lc-milvus-later-type-change, lc-milvus-extra-key-dropped,
# lc-milvus-filter-expr-string, lc-milvus-filter-dict-kwarg-typeerror, lc-milvus-k-0,
# lc-milvus-delete-*, lc-milvus-get-by-ids-not-implemented, lc-milvus-duplicate-ids-one-batch,
# lc-milvus-ids-asserted, lc-milvus-ids-none, lc-milvus-search-before-collection. The relevance
# functions and the delete rules are also read from langchain_milvus/vectorstores/milvus.py.
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
    returned_id_key="pk",
    id_error_type=AssertionError,
    id_type_error="All ids should be strings.",
    id_empty_error=(
        "empty ids are refused: Milvus takes an empty VARCHAR key, the core store's ids are "
        "non-empty"
    ),
    duplicate_ids="Different lengths of texts and unique ids are provided.",
    uses_document_ids=False,
    generated_id_error=(
        "an add without ids= (add_documents ignores Document.id): langchain-milvus then uses "
        "Milvus's auto ids (after a UserWarning it switches auto_id on: INT64 keys from the "
        "server's clock), which placeborag does not imitate; pass ids="
    ),
    none_id_error=functools.partial(AssertionError, "All ids should be strings."),
    delete_filter_kwarg="expr",
    delete_filter_rule="ids_win",
    delete_error_type=AssertionError,
    delete_none_error="Either ids list or expr string must be provided.",
    delete_empty_error="Either ids list or expr string must be provided.",
    id_lookup_error=None,
    get_by_ids_error=(NotImplementedError, "Milvus does not yet support get_by_ids."),
    strict_kwargs=False,
    ignored_search_kwargs=("param", "timeout"),
    typed_fields=FieldRules(),
)

INTEGRATIONS: Mapping[str, IntegrationFacts] = MappingProxyType(
    {
        facts.profile: facts
        for facts in (_DEFAULT, _CHROMA, _QDRANT, _FAISS, _MILVUS, _PGVECTOR, _LANCEDB)
    }
)
"""The rows by profile name: ``default``, ``chroma``, ``qdrant``, ``faiss``, ``milvus``,
``pgvector``, ``lancedb``."""


def integration_for(profile: str) -> IntegrationFacts:
    """The row for `profile`; a ValueError lists the profiles that have a row."""
    try:
        return INTEGRATIONS[profile]
    except KeyError:
        raise ValueError(
            f"no LangChain integration is modelled for profile {profile!r}; "
            f"available: {', '.join(sorted(INTEGRATIONS))}"
        ) from None
