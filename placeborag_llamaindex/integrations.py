"""What each real LlamaIndex vector-store integration adds on top of its engine, as one table.

The core profile reproduces the *engine* (distances, ties, filter semantics, id rule, listing
order). What the LlamaIndex *integration* adds on top is recorded here, one frozen
:class:`IntegrationFacts` row per profile. Each fact is one of ``docs/integrations/llamaindex.md``,
where a probe under ``tests/fidelity/probes/`` re-measures it:

========================  =====================  ===========================  ===================
fact                      default                chroma (ChromaVectorStore)   qdrant (Qdrant...)
========================  =====================  ===========================  ===================
``NodeWithScore.score``   core score (cosine)    ``exp(-distance)``           raw engine score
metadata                  any JSON               flat only, None stored ""    any JSON
node ids                  any non-empty str      any non-empty str            UUID strings only
add of an existing id     replaces it            ignored, first kept          replaces it
same id twice in one add  last wins              ValueError                   last wins
``doc_ids`` / node_ids    honoured               ignored                      honoured
MMR mode                  all candidates         prefetch 4 x top_k           ignored (top-k)
``get_nodes([])``         nothing                every node                   nothing
``delete_nodes`` no ids   needs filters          ValueError                   needs filters
query without embedding   score None             score None                   score 1.0
``get_nodes`` vectors     no                     no                           yes
``get_nodes(limit=)``     TypeError              TypeError                    at most limit
native filter keyword     none                   none                         ``qdrant_filters=``
========================  =====================  ===========================  ===================

``pgvector`` (``PGVectorStore``): score ``1 - cosine distance`` (cosine only), any JSON
metadata, any str node id, an existing id replaced (the real store inserts a second row: a
named divergence), ``doc_ids``/``node_ids`` ignored, MMR over a prefetch of 4 x top_k scored
with the MMR objectives (the query's ``mmr_threshold`` before the keyword's), ``get_nodes([])``
every node and ``get_nodes()`` an ``AssertionError``, ``delete_nodes()`` without ids or filters a
no-op, a query
without embedding scores 0.0, ``get_nodes`` with vectors, filters as the SQL the store writes
(``pgvector_filters``).

``milvus`` (``MilvusVectorStore``): the raw engine score (squared L2 under L2), IP when the store
names no metric, filters as the expression string the integration builds, read with Milvus's
rules (``filters.milvus_where``), ``doc_ids``/``node_ids`` honoured, MMR over a prefetch of
4 x top_k scored with the MMR objectives and without a plain fallback, ``get_nodes`` with
vectors and refusing neither/both of ids and filters, ``delete_nodes`` ids joined to the filters
under their condition, an existing id replaced (Milvus keeps both copies: a named divergence).

Node ids follow the engine's own id rule (``Profile.ids``); a node id is a str, so under Qdrant
it must be a UUID (``li-qdrant-node-ids``). The default profile has no real counterpart; where it
is compared with llama-index-core's ``SimpleVectorStore`` the facts are the ``li-simple-*`` ones.
The adapter reads a row and never branches on a profile name.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping
from types import MappingProxyType

import numpy as np

from placeborag_core import DimensionError
from placeborag_core.backends import PROFILES, PayloadLayout
from placeborag_core.backends.lancedb import (
    LanceColumns,
    read_lancedb_delete_where,
    read_lancedb_plain_where,
)
from placeborag_core.backends.milvus import MilvusError, MilvusParamError, Schema
from placeborag_llamaindex.engine_only import refuse_engine_only
from placeborag_llamaindex.filters import (
    chroma_where,
    default_where,
    lancedb_sql,
    milvus_where,
    no_filters,
    qdrant_where,
)
from placeborag_llamaindex.integration_facts import (
    CALLS_AFTER_CLEAR,
    CallKwarg,
    DroppedByClear,
    IntegrationFacts,
    same_score,
)
from placeborag_llamaindex.nodes import NodeIdError, node_record_id
from placeborag_llamaindex.pgvector_filters import pgvector_where, pgvector_where_with_ids

__all__ = ["INTEGRATIONS", "IntegrationFacts", "integration_for", "without_text"]

DOC = "docs/integrations/llamaindex.md"
_NEW = "docs/integrations/new_integrations.md"


def _exp_minus_distance(distance: float) -> float:
    return math.exp(-distance)


def _one_minus_distance(distance: float) -> float:
    return 1.0 - float(distance)  # PGVectorStore: 1 - item.distance (NaN stays NaN)


def _exp_minus_distance_f32(distance: float) -> float:
    # LanceDBVectorStore: np.exp(-results["_distance"]) on a float32 column stays float32.
    return float(np.exp(-np.float32(distance)))


def _numpy_float32(score: float) -> float:
    # FaissVectorStore hands faiss's float32 distances back as they are.
    result: float = np.float32(score)
    return result


def _chroma_top_k(k: object) -> int | None:
    # li-chroma-top-k-not-int: Collection.query checks isinstance(n_results, int) (True is 1)
    if isinstance(k, int):
        return None  # a bool, which Chroma takes as an int: refused here
    raise ValueError(f"Expected requested number of results to be a int, got {k} in query.")


def _integral_float_top_k(k: object) -> int | None:
    # li-qdrant-top-k-integral-float: the client's limit and PGVectorStore's LIMIT take 2.0 as 2
    if isinstance(k, float) and k.is_integer():
        return int(k)
    return None


_DEFAULT = IntegrationFacts(
    profile="default",
    integration="PlaceboVectorStore (no real counterpart: the clean profile)",
    translate_filters=default_where,
    node_score=same_score,
    flat_metadata=False,
    none_metadata_as_empty_string=False,
    existing_id="replace",
    duplicate_ids_in_add="last_wins",
    honours_doc_ids=True,
    honours_node_ids=True,
    mmr="all_candidates",
    mmr_scores="objective",  # li-simple-mmr-latest-pick: SimpleVectorStore reports objectives
    get_nodes_empty_ids="nothing",
    delete_nodes_needs_ids=False,
    unranked_score=None,
    get_nodes_with_embedding=False,
    stores_text_optional=True,  # stores_text=False: as SimpleVectorStore (li-simple-stores-text)
    nan_query="heap_order",  # SimpleVectorStore's heap of NaN scores: li-simple-nan-query
    inf_query="heap_order",  # an infinity also scores every node NaN: li-simple-inf-query
    evidence=(
        ("all", "placeborag convention: every operator, strict semantics, nothing silently lost"),
        ("stores_text", f"{DOC}#li-simple-stores-text"),
        ("NaN in the query vector", f"{DOC}#li-simple-nan-query"),
        ("infinity in the query vector", f"{DOC}#li-simple-inf-query"),
        ("mmr", f"{DOC}#li-simple-mmr-latest-pick"),
        ("delete_nodes", f"{DOC}#li-simple-delete-nodes-none (a divergence: refused here)"),
    ),
)

_CHROMA = IntegrationFacts(
    profile="chroma",
    integration="llama_index.vector_stores.chroma.ChromaVectorStore",
    translate_filters=chroma_where,
    node_score=_exp_minus_distance,
    flat_metadata=True,
    none_metadata_as_empty_string=True,
    existing_id="keep_first",
    duplicate_ids_in_add="raise",
    honours_doc_ids=False,
    honours_node_ids=False,
    mmr="prefetch",
    mmr_prefetch_factor=4.0,  # DEFAULT_MMR_PREFETCH_FACTOR of the integration's source
    mmr_prefetch_clamped=True,
    forwarded_kwargs=("Collection.query", "Collection.get"),
    get_nodes_empty_ids="everything",
    delete_nodes_needs_ids=True,
    top_k_not_int=_chroma_top_k,
    nan_query="listing_order",  # HNSW internals pick; li-chroma-nan-query
    unranked_score=None,
    get_nodes_with_embedding=False,
    call_errors=MappingProxyType(
        {
            "clear(empty)": functools.partial(
                ValueError, "Expected IDs to be a non-empty list, got 0 IDs in delete."
            )
        }
    ),
    evidence=(
        ("score", f"{DOC}#li-chroma-score, #li-chroma-score-cosine"),
        ("metadata", f"{DOC}#li-chroma-flat-metadata, #li-chroma-none-as-empty"),
        ("node ids", f"{DOC}#li-chroma-node-ids"),
        ("add", f"{DOC}#li-chroma-existing-id-ignored, #li-chroma-duplicate-in-add"),
        ("filters", f"{DOC}#li-chroma-filters, #li-chroma-filter-unsupported"),
        ("doc_ids, node_ids", f"{DOC}#li-chroma-ids-ignored, #li-chroma-node-ids-ignored"),
        ("mmr", f"{DOC}#li-chroma-mmr (prefetch and fallback: read from the source)"),
        (
            "query keywords",
            (
                f"{DOC}#li-chroma-mmr-options-outside-mmr-raise, #li-chroma-fetch-k-raises, "
                "#li-chroma-mmr-prefetch-k-clamped, #li-chroma-mmr-prefetch-factor-clamped"
            ),
        ),
        ("unranked", f"{DOC}#li-chroma-modes"),
        ("get_nodes", f"{DOC}#li-chroma-get-nodes"),
        ("delete_nodes", f"{DOC}#li-chroma-delete-nodes"),
        ("clear", f"{DOC}#li-chroma-clear, #li-chroma-clear-empty-raises"),
    ),
)


def _qdrant_not_found(collection: str) -> ValueError:
    """qdrant-client's error for a collection it does not have."""
    return ValueError(f"Collection {collection} not found")


def _qdrant_client_check(error: BaseException) -> bool:
    """An error ``QdrantVectorStore`` raises before the engine looks for the collection (a
    filter it cannot translate, a ``limit`` below 1): anything but the engine's own checks of
    a point id and of the vector width."""
    return not isinstance(error, NodeIdError | DimensionError)


_QDRANT_NO_COLLECTION = DroppedByClear(
    errors=MappingProxyType(dict.fromkeys(CALLS_AFTER_CLEAR, _qdrant_not_found)),
    passes=_qdrant_client_check,
    from_start=True,
    add_creates=True,
)
"""``QdrantVectorStore`` has no collection until its first non-empty ``add`` creates it, and
none again after ``clear()`` drops it (``li-qdrant-no-collection-before-add``,
``li-qdrant-clear``)."""

_QDRANT = IntegrationFacts(
    profile="qdrant",
    integration="llama_index.vector_stores.qdrant.QdrantVectorStore",
    translate_filters=qdrant_where,
    node_score=same_score,
    flat_metadata=False,
    none_metadata_as_empty_string=False,
    existing_id="replace",
    duplicate_ids_in_add="last_wins",
    honours_doc_ids=True,
    honours_node_ids=True,
    mmr="ignored",
    get_nodes_empty_ids="nothing",
    delete_nodes_needs_ids=False,
    top_k_not_int=_integral_float_top_k,
    nan_query=functools.partial(ValueError, "Query vector must not contain NaN"),
    unranked_score=1.0,
    get_nodes_with_embedding=True,
    get_nodes_limit=True,
    native_filter_kwarg="qdrant_filters",
    # search_params: HNSW tuning (exact, hnsw_ef), the search is exact; where: never read
    # (li-qdrant-where-kwarg-ignored)
    ignored_query_kwargs=("search_params", "where"),
    dropped_by_clear=_QDRANT_NO_COLLECTION,
    # Metadata keys are the payload's own and the text lives inside "_node_content"; a HasId
    # condition can only name a node by its id, a UUID str.
    native_payload=PayloadLayout(
        canonical_id=functools.partial(node_record_id, PROFILES["qdrant"].ids)
    ),
    evidence=(
        ("score", f"{DOC}#li-qdrant-score, #li-qdrant-score-euclid"),
        ("metadata", f"{DOC}#li-qdrant-nested-metadata, #li-qdrant-payload"),
        ("node ids", f"{DOC}#li-qdrant-node-ids; docs/engines/qdrant.md#qdrant-ids-canonical"),
        ("add", f"{DOC}#li-qdrant-existing-id, #li-qdrant-duplicate-in-add"),
        ("filters", f"{DOC}#li-qdrant-filters, #li-qdrant-filter-unsupported"),
        ("doc_ids, node_ids", f"{DOC}#li-qdrant-doc-ids, #li-qdrant-node-ids-honoured"),
        ("mmr", f"{DOC}#li-qdrant-mmr-ignored"),
        ("unranked", f"{DOC}#li-qdrant-modes"),
        ("get_nodes", f"{DOC}#li-qdrant-get-nodes"),
        ("delete_nodes", f"{DOC}#li-qdrant-delete-nodes (None deletes all: refused here)"),
        ("qdrant_filters", f"{DOC}#li-qdrant-native-filter"),
        ("search_params", "QdrantVectorStore.query reads kwargs['search_params'] (source)"),
        (
            "no collection",
            f"{DOC}#li-qdrant-collection, #li-qdrant-no-collection-before-add, #li-qdrant-clear",
        ),
    ),
)

MILVUS_COLLECTION = "llamacollection"
"""``MilvusVectorStore``'s default ``collection_name``: the name the engine's messages show."""


def _milvus_error(message: str, kind: str = "MilvusException") -> MilvusError:
    """pymilvus's ``<kind>: (code=100, message=...)``: the collection is not found (code 100)."""
    error = MilvusError(100, message)
    error.kind = kind
    return error


def _milvus_client_check(error: BaseException) -> bool:
    """An error the client raises before it asks the engine (not a ``MilvusError`` at all, or
    pymilvus's ``ParamError``/``DataNotMatchException``, code 1)."""
    return not isinstance(error, MilvusError) or error.code == 1


def _named(build: Callable[[], Exception], _collection: str) -> Exception:
    """``build()``, given the collection's name and not using it: ``MilvusVectorStore``'s
    messages name its default ``collection_name`` (``MILVUS_COLLECTION``)."""
    return build()


def _milvus_missing(message: str, kind: str = "MilvusException") -> Callable[[str], Exception]:
    """The builder of a ``_milvus_error`` for a store without its collection."""
    return functools.partial(_named, functools.partial(_milvus_error, message, kind))


_NOT_FOUND = _milvus_missing("collection not found")
_DESCRIBE = _milvus_missing("collection not found", "DescribeCollectionException")

_MILVUS_DROPPED = DroppedByClear(
    errors=MappingProxyType(
        {
            "query(embedding)": _milvus_missing(
                f"Can not find {MILVUS_COLLECTION}'s schema: collection not found"
            ),
            "query(no embedding)": functools.partial(
                _named,
                functools.partial(MilvusParamError, "`search_data` value [None] is illegal"),
            ),
            "get_nodes(ids)": _DESCRIBE,
            "get_nodes(filters)": _NOT_FOUND,
            "delete_nodes": _NOT_FOUND,
            "delete": _NOT_FOUND,
            "add": _DESCRIBE,
        }
    ),
    passes=_milvus_client_check,
)
"""``MilvusVectorStore.clear()`` drops the collection; every later call fails until a new
store object is built (``new_integrations.md#li-milvus-clear-drops-the-collection`` and the
``li-milvus-after-clear-*`` facts)."""

_MILVUS_PARTITIONS = (
    "a partition of MilvusVectorStore's collection on the Milvus server (the double's collection "
    "has none: None, the default partition, is the only value it takes)"
)


def _milvus_partition(name: str, value: object) -> Exception | None:
    # MilvusVectorStore hands it to the client as partition_name(s); None is the whole collection
    if value is not None:
        raise refuse_engine_only(f"{name}={value!r}", _MILVUS_PARTITIONS)
    return None


def _milvus_flag(name: str, value: object) -> Exception | None:
    # force_flush: MilvusVectorStore.add calls client.flush; the double's writes need none
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool or None, got {type(value).__name__}")
    return None


def _milvus_async_flush(name: str, value: object) -> Exception | None:
    # MilvusVectorStore.async_add inserts the nodes, then raises for a true force_flush
    _milvus_flag(name, value)
    return NotImplementedError("force_flush is not supported in async mode.") if value else None


_MILVUS_WRITE: Mapping[str, CallKwarg] = MappingProxyType(
    {"milvus_partition_name": _milvus_partition}
)
_MILVUS_READ: Mapping[str, CallKwarg] = MappingProxyType(
    {"milvus_partition_names": _milvus_partition}
)
_MILVUS_CALL_KWARGS: Mapping[str, Mapping[str, CallKwarg]] = MappingProxyType(
    {
        "add": MappingProxyType({**_MILVUS_WRITE, "force_flush": _milvus_flag}),
        "async_add": MappingProxyType({**_MILVUS_WRITE, "force_flush": _milvus_async_flush}),
        "delete": _MILVUS_WRITE,
        "delete_nodes": _MILVUS_WRITE,
        "get_nodes": _MILVUS_READ,
        "query": _MILVUS_READ,
    }
)
"""The per-call keywords ``MilvusVectorStore`` reads (``li-milvus-call-kwargs``)."""

_MILVUS = IntegrationFacts(
    profile="milvus",
    integration="llama_index.vector_stores.milvus.MilvusVectorStore",
    translate_filters=milvus_where,
    node_score=same_score,
    flat_metadata=False,
    none_metadata_as_empty_string=False,
    existing_id="replace",
    duplicate_ids_in_add="last_wins",
    honours_doc_ids=True,
    honours_node_ids=True,
    mmr="prefetch",
    mmr_prefetch_factor=4.0,  # DEFAULT_MMR_PREFETCH_FACTOR, read from the integration's source
    mmr_scores="objective",
    mmr_fallback=False,
    get_nodes_empty_ids="nothing",
    delete_nodes_needs_ids=False,
    nan_query="empty",  # li-milvus-nan-query
    inf_query="infinite_products",  # li-milvus-inf-query
    ignored_query_kwargs=("where",),  # never read by the real query
    call_kwargs=_MILVUS_CALL_KWARGS,
    unranked_score=None,
    get_nodes_with_embedding=True,
    default_metric="ip",
    call_errors=MappingProxyType(
        {
            "get_nodes()": functools.partial(
                ValueError, "Either node_ids or filters must be provided."
            ),
            "get_nodes(ids, filters)": functools.partial(
                ValueError, "Only one of node_ids or filters can be provided."
            ),
            "get_nodes([])": functools.partial(
                MilvusParamError,
                "empty expression should be used with limit: invalid parameter",
                1100,
            ),
            "delete_nodes(nothing)": functools.partial(
                MilvusParamError, "Illegal str variables: {'filter': ''}, expect non-empty str"
            ),
        }
    ),
    ids_filter_key="id",
    # _add_fields_to_schema: id (primary key), doc_id and text are VARCHAR fields
    expression_schema=Schema(
        id_field="id", id_type="varchar", text_field="text", fields={"doc_id": "varchar"}
    ),
    dropped_by_clear=_MILVUS_DROPPED,
    evidence=(
        ("score", f"{DOC}#li-milvus-score (the engine's number: similarity, or squared L2)"),
        ("metric", f"{DOC}#li-milvus-default-metric-ip"),
        ("filters", f"{DOC}#li-milvus-filters; the engine's rules: docs/engines/milvus.md"),
        ("typed columns", f"{_NEW}#li-milvus-filter-doc-id-typed, #li-milvus-filter-text-typed"),
        ("add", f"{DOC}#li-milvus-existing-id (Milvus keeps both copies: a divergence)"),
        (
            "mmr",
            f"{_NEW}#li-milvus-mmr-score-objective, #li-milvus-mmr-fewer-than-top-k-no-fallback",
        ),
        (
            "get_nodes",
            (
                f"{_NEW}#li-milvus-get-nodes-no-arguments, -ids-and-filters, -empty-ids-raises, "
                "-with-embedding"
            ),
        ),
        (
            "delete_nodes",
            (
                f"{_NEW}#li-milvus-delete-nodes-ids-or-filters-union, -ids-and-filters-both, "
                "-empty-ids-raises, -no-arguments-raises"
            ),
        ),
        (
            "clear",
            (
                f"{_NEW}#li-milvus-clear-drops-the-collection, li-milvus-after-clear-query, "
                "-query-no-embedding, -get-nodes-ids, -get-nodes-filters, -delete-nodes, -delete, "
                "-add, -clear-again"
            ),
        ),
        ("per-call keywords", f"{_NEW}#li-milvus-call-kwargs"),
    ),
)

_PGVECTOR = IntegrationFacts(
    profile="pgvector",
    integration="llama_index.vector_stores.postgres.PGVectorStore",
    translate_filters=pgvector_where,
    node_score=_one_minus_distance,
    flat_metadata=False,
    none_metadata_as_empty_string=False,
    existing_id="replace",  # the real store inserts a second row: not reproduced (divergence)
    duplicate_ids_in_add="last_wins",  # ditto: both rows are inserted
    honours_doc_ids=False,
    honours_node_ids=False,
    mmr="prefetch",
    mmr_prefetch_factor=4.0,  # DEFAULT_MMR_PREFETCH_FACTOR of the integration's source
    mmr_scores="objective",
    get_nodes_empty_ids="everything",
    delete_nodes_needs_ids=False,
    top_k_not_int=_integral_float_top_k,
    # li-pgvector-nan-query: PGVectorStore raises SQLAlchemy's DataError; we keep the core's
    # ValueError (a divergence: docs/integrations/llamaindex-parity.md)
    nan_query="refuse",
    unranked_score=0,  # a NULL distance (no embedding) is reported as the int 0
    get_nodes_with_embedding=True,
    metrics=("cosine",),
    mmr_threshold_first="query",
    ignored_query_kwargs=("ivfflat_probes", "hnsw_ef_search", "where"),  # where: never read
    delete_nodes_unrestricted="nothing",
    call_errors=MappingProxyType(
        {
            "get_nodes()": functools.partial(
                AssertionError, "Either node_ids or filters must be provided"
            )
        }
    ),
    ids_into_where=pgvector_where_with_ids,
    evidence=(
        ("score", f"{_NEW}#li-pgvector-score-one-minus-cosine-distance-json"),
        ("filters", f"{_NEW}: li-pgvector-filter-* (the SQL of _build_filter_clause)"),
        ("add", f"{_NEW}: li-pgvector-add-existing-node-id-duplicates (a divergence here)"),
        ("k", f"{_NEW}: li-pgvector-k-0-empty"),
        ("delete_nodes", f"{_NEW}: li-pgvector-delete-missing-node-silent"),
        ("mmr", f"{_NEW}#li-pgvector-mmr-score-objective, #li-pgvector-mmr-fewer-than-top-k-plain"),
        ("get_nodes, doc_ids", "llama_index/vector_stores/postgres/base.py 0.9.0"),
    ),
)

_LANCEDB_TABLE = PayloadLayout(
    metadata_prefix="metadata.",
    text_key="text",
    table_columns=("id", "doc_id", "vector", "text", "{metadata}"),
)
"""LanceDBVectorStore's table: ``id``, ``doc_id`` (the ref doc id), ``vector``, ``text`` and a
``metadata`` struct (the node's metadata dict with LlamaIndex's bookkeeping keys)."""


def _lancedb_ids(node_ids: list[str]) -> str:
    # LanceDBVectorStore.delete_nodes / get_nodes: 'id in ("' + '","'.join(ids) + '")'
    return 'id in ("' + '","'.join(node_ids) + '")'


def _lancedb_ref_doc(ref_doc_id: str) -> str:
    # LanceDBVectorStore.delete: f'{doc_id_key} = "' + ref_doc_id + '"'
    return 'doc_id = "' + ref_doc_id + '"'


_LANCEDB = IntegrationFacts(
    profile="lancedb",
    integration="llama_index.vector_stores.lancedb.LanceDBVectorStore",
    translate_filters=default_where,  # unused: sql_filters builds LanceDB's SQL
    node_score=_exp_minus_distance_f32,
    flat_metadata=True,
    none_metadata_as_empty_string=False,
    existing_id="append",
    duplicate_ids_in_add="last_wins",
    honours_doc_ids=False,
    honours_node_ids=False,
    mmr="ignored",
    get_nodes_empty_ids="nothing",
    delete_nodes_needs_ids=False,
    unranked_score=None,
    get_nodes_with_embedding=True,
    empty_result=(Warning, "query results are empty.."),
    refused=MappingProxyType(
        {"clear": (NotImplementedError, "clear not implemented")},
    ),
    profile_columns=LanceColumns(layout="struct"),
    sql_filters=lancedb_sql,
    native_payload=_LANCEDB_TABLE,
    sql_plain_reader=read_lancedb_plain_where,
    sql_delete_reader=read_lancedb_delete_where,
    delete_sql=_lancedb_ref_doc,
    delete_nodes_sql=_lancedb_ids,
    get_nodes_sql=_lancedb_ids,
    get_nodes_limit_default=10,
    evidence=(
        ("score", f"{DOC}#li-lancedb-score-exp-minus-l2-squared"),
        ("metadata", f"{DOC}#li-lancedb-metadata-struct-double-for-int-and-float"),
        ("add", f"{DOC}#li-lancedb-add-existing-node-id-appends"),
        ("filters", f"{DOC}#li-lancedb-filter-sql, #li-lancedb-ne-is-not-like-substring"),
        ("delete, get_nodes", f"{DOC}#li-lancedb-get-nodes-broken-backticks"),
        ("empty result", f"{DOC}#li-lancedb-empty-result-raises-warning"),
    ),
)

_FAISS = IntegrationFacts(
    profile="faiss",
    integration="llama_index.vector_stores.faiss.FaissVectorStore",
    translate_filters=no_filters,
    node_score=_numpy_float32,
    flat_metadata=False,
    none_metadata_as_empty_string=False,
    existing_id="append",
    duplicate_ids_in_add="last_wins",
    honours_doc_ids=False,
    honours_node_ids=False,
    mmr="ignored",
    get_nodes_empty_ids="nothing",
    delete_nodes_needs_ids=False,
    ignored_query_kwargs=("where",),  # never read by the real query
    unranked_score=None,
    get_nodes_with_embedding=False,
    stores_text=False,
    record_ids="position",
    similarity_type=_numpy_float32,
    refused=MappingProxyType(
        {
            "delete": (NotImplementedError, "Delete not yet implemented for Faiss index."),
            "delete_nodes": (NotImplementedError, "delete_nodes not implemented"),
            "get_nodes": (NotImplementedError, "get_nodes not implemented"),
            "clear": (NotImplementedError, "clear not implemented"),
        }
    ),
    evidence=(
        ("score", f"{DOC}#li-faiss-score-raw-l2-heap-ties, #li-faiss-score-raw-ip-heap-ties"),
        ("ids", f"{DOC}#li-faiss-store-ids-positions-np-float32, #li-faiss-add-returns-position"),
        ("stores_text", f"{DOC}#li-faiss-text-in-docstore"),
        ("filters", f"{DOC}#li-faiss-filters"),
        ("delete, get_nodes", f"{DOC}#li-faiss-delete"),
    ),
)

INTEGRATIONS: Mapping[str, IntegrationFacts] = MappingProxyType(
    {
        facts.profile: facts
        for facts in (_DEFAULT, _CHROMA, _QDRANT, _MILVUS, _PGVECTOR, _LANCEDB, _FAISS)
    }
)


def integration_for(profile: str) -> IntegrationFacts:
    """The row of ``profile``; ``ValueError`` naming the profiles that have a row."""
    try:
        return INTEGRATIONS[profile]
    except KeyError:
        raise ValueError(
            f"profile {profile!r} has no LlamaIndex integration facts; "
            f"PlaceboVectorStore supports: {', '.join(INTEGRATIONS)}"
        ) from None


def without_text(facts: IntegrationFacts) -> IntegrationFacts:
    """``facts`` for ``PlaceboVectorStore(stores_text=False)`` (the opt-in of a row with
    ``stores_text_optional``, the default profile's): ``SimpleVectorStore``'s paths, as its
    source shows. A query returns ids and similarities without nodes (``li-simple-score``),
    ``get_nodes`` raises ``NotImplementedError("SimpleVectorStore does not store nodes
    directly.")``, and a query without embedding raises the ``TypeError`` of scoring the nodes
    against ``None`` once a node passes its restrictions (none: an empty result)."""
    return dataclasses.replace(
        facts,
        stores_text=False,
        refused=MappingProxyType(
            {
                **facts.refused,
                "get_nodes": (
                    NotImplementedError,
                    "SimpleVectorStore does not store nodes directly.",
                ),
            }
        ),
        unranked_error=(TypeError, "unsupported operand type(s) for *: 'NoneType' and 'float'"),
    )
