"""The row type of the LlamaIndex integration table (:mod:`placeborag_llamaindex.integrations`):
one frozen :class:`IntegrationFacts` per imitated integration, each field one observable
convention of the real store, so that the adapter reads rows and never branches on an engine."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from placeborag_core.backends import ColumnRule, NativeFilter, PayloadLayout
from placeborag_core.backends.milvus import Schema
from placeborag_core.store import Where
from placeborag_llamaindex.filters import SqlFilters, Translator

__all__ = [
    "CALLS_AFTER_CLEAR",
    "CALL_KWARG_METHODS",
    "CALL_SHAPES",
    "CallKwarg",
    "DroppedByClear",
    "IntegrationFacts",
    "NanQuery",
    "same_score",
]

CALL_KWARG_METHODS = ("add", "async_add", "delete", "delete_nodes", "get_nodes", "query")
"""The keys of ``IntegrationFacts.call_kwargs``."""

CallKwarg = Callable[[str, object], Exception | None]
"""The check of a per-call keyword (``IntegrationFacts.call_kwargs``), given its name and value:
it raises for a value the double refuses before the call runs, and returns the exception the
real store raises after the call has run (or None)."""

CALL_SHAPES = (
    "get_nodes()",
    "get_nodes(ids, filters)",
    "get_nodes([])",
    "delete_nodes(nothing)",
    "clear(empty)",
)
"""The keys of ``IntegrationFacts.call_errors``."""

CALLS_AFTER_CLEAR = (
    "query(embedding)",
    "query(no embedding)",
    "get_nodes(ids)",
    "get_nodes(filters)",
    "delete_nodes",
    "delete",
    "add",
)
"""The keys of ``DroppedByClear.errors``: a query with or without embedding, ``get_nodes`` of
a non-empty id list or else by filters, ``delete_nodes``, ``delete`` and a non-empty ``add``."""

NanQuery = (
    Literal["refuse", "empty", "heap_order", "listing_order", "infinite_products"]
    | Callable[[], Exception]
)
"""What an integration makes of a query vector with a non-finite component (``IntegrationFacts.
nan_query`` for a NaN one, ``IntegrationFacts.inf_query`` for an infinite one): ``"refuse"`` (the
core's ``ValueError``), ``"empty"`` (no result, the engine is not asked), ``"heap_order"`` /
``"listing_order"`` (every filtered node scores NaN; which ``top_k`` come back and in which
order, see ``placeborag_llamaindex.search.nan_scored_ids``), ``"infinite_products"`` (Milvus:
the nodes whose inner product is ``+inf``, see ``placeborag_llamaindex.search.Search.
infinite_products``), or a callable building the exception the real store raises."""


@dataclass(frozen=True)
class DroppedByClear:
    """What an integration raises while the engine has no collection for it: after a ``clear()``
    that drops the collection (``MilvusVectorStore``, ``QdrantVectorStore``) and, with
    ``from_start``, before the first write creates it (``QdrantVectorStore``). ``clear()`` on
    no collection is silent. A namespace that holds records (seeded straight into the core
    store) always has its collection.

    Attributes:
        errors: by call (the keys ``CALLS_AFTER_CLEAR``), a builder of the exception it raises,
            given the collection's name (the store's namespace: each ``PlaceboVectorStore`` is
            its own collection).
        passes: whether an error the call raises on the empty store still surfaces first (a
            check the client makes before the engine looks for the collection); any other
            error, and a call that succeeds, give way to the call's ``errors`` entry.
        from_start: the store has no collection until a write creates it (Qdrant creates it in
            the first non-empty ``add``); False: the constructor creates it (Milvus).
        add_creates: a non-empty ``add`` creates the collection (Qdrant), while an empty one
            still needs it and raises ``errors["add"]``; False: a non-empty ``add`` raises
            ``errors["add"]`` and an empty one writes nothing (Milvus: the store stays without
            a collection until a new store object is built).
    """

    errors: Mapping[str, Callable[[str], Exception]]
    passes: Callable[[BaseException], bool]
    from_start: bool = False
    add_creates: bool = False

    def __post_init__(self) -> None:
        if set(self.errors) != set(CALLS_AFTER_CLEAR):
            raise ValueError(
                f"DroppedByClear.errors needs exactly the keys {list(CALLS_AFTER_CLEAR)}, got "
                f"{sorted(self.errors)}"
            )

    def add_needs_collection(self, writes_nodes: bool) -> bool:
        """Whether an ``add`` (of some nodes, or of none) fails without a collection instead of
        creating it or writing nothing."""
        return writes_nodes != self.add_creates


def same_score(score: float) -> float:
    """The score as a Python float: integrations that report the engine's number as it is."""
    return float(score)


@dataclass(frozen=True)
class IntegrationFacts:
    """The conventions of one real LlamaIndex integration (see the module docstring).

    Attributes:
        profile: the core profile this row belongs to.
        integration: dotted name of the real class, for messages and docs.
        translate_filters: ``MetadataFilters`` -> core ``where`` clause, with the integration's
            rejections (see ``filters``).
        node_score: the engine's score or distance -> ``NodeWithScore.score``.
        flat_metadata: metadata values must be str/int/float/None.
        none_metadata_as_empty_string: a ``None`` metadata value is stored as ``""``.
        existing_id: ``add`` of an id already stored ``"replace"``s it or keeps the first.
        duplicate_ids_in_add: an id twice in one ``add``: ``"last_wins"`` or ``"raise"``.
        honours_doc_ids, honours_node_ids: whether ``VectorStoreQuery.doc_ids`` / ``node_ids``
            restrict a query.
        mmr: MMR mode over ``"all_candidates"``, over a ``"prefetch"`` of the best (with a plain
            query when it yields fewer than ``top_k``), or ``"ignored"`` (a plain top-k).
        mmr_prefetch_factor: the default prefetch, in multiples of ``top_k`` (``"prefetch"``
            only; the ``mmr_prefetch_factor``/``mmr_prefetch_k`` query options override it).
        mmr_prefetch_clamped: ``mmr_prefetch_k`` and ``mmr_prefetch_factor`` are any finite
            numbers, the prefetch being ``int(mmr_prefetch_k)`` or ``int(top_k * factor)`` raised
            to ``top_k`` (``ChromaVectorStore`` validates neither: 0 prefetches ``top_k``); False:
            an int >= 1 and a number > 0 are required.
        forwarded_kwargs: the engine calls that receive the query keywords the integration does
            not consume, as (ranked query, listing without embedding); each refuses ``fetch_k``
            and, outside an MMR query with embedding, the MMR options with Python's
            ``TypeError`` naming the call (``ChromaVectorStore``: ``Collection.query`` and
            ``Collection.get``). None: the options are accepted in every mode.
        mmr_scores: what an MMR pick's ``NodeWithScore.score`` is: the engine's number through
            ``node_score`` (``"similarity"``, ``ChromaVectorStore``) or the objective
            ``get_top_k_mmr_embeddings`` picked it with (``"objective"``: ``PGVectorStore`` and
            ``MilvusVectorStore`` pass "the MMR similarities instead of the original").
        mmr_fallback: a ``"prefetch"`` MMR whose prefetch holds fewer than ``top_k`` candidates
            answers with a plain query (Chroma, PGVectorStore) instead of the MMR of those few
            (``MilvusVectorStore``).
        get_nodes_empty_ids: what ``get_nodes([])`` returns.
        delete_nodes_needs_ids: ``delete_nodes`` raises without ids, even with filters.
        unranked_score: the score of each node of a query without embedding.
        get_nodes_with_embedding: ``get_nodes`` returns nodes with their vectors.
        get_nodes_limit: ``get_nodes`` takes ``limit=`` (at most that many nodes).
        native_filter_kwarg: the ``query`` keyword that takes the engine's own filter object and
            replaces the query's filters (None: no such keyword).
        native_payload: where the integration keeps a node's parts in the engine's payload or
            table, for reading the engine's own filters with the profile's ``native_filter``
            (the ``native_filter_kwarg`` objects, the SQL of ``sql_filters``); needed exactly
            when the integration reads either.
        metrics: the core metrics the integration can query with (None: every metric of the
            profile); ``PGVectorStore`` always orders by cosine distance.
        mmr_threshold_first: where ``mmr_threshold`` comes from: the query keyword only
            (``"kwargs"``: ``VectorStoreQuery.mmr_threshold`` is ignored, as in
            ``SimpleVectorStore``, ``ChromaVectorStore`` and ``MilvusVectorStore``) or
            ``VectorStoreQuery.mmr_threshold`` before the keyword (``"query"``).
        ignored_query_kwargs: query keywords the integration accepts that change nothing for
            an exact search in memory (``PGVectorStore``'s index tuning ``ivfflat_probes``,
            ``hnsw_ef_search``; ``QdrantVectorStore``'s ``search_params``, whose ``exact`` and
            ``hnsw_ef`` tune the approximate index), and ``where`` where the real ``query``
            never reads it (``QdrantVectorStore``, ``MilvusVectorStore``, ``PGVectorStore``,
            ``FaissVectorStore``: any value, even beside ``filters``, changes nothing); elsewhere
            ``where`` takes the core dialect (LanceDB rows: also the engine's SQL).
        call_kwargs: by method (the keys ``CALL_KWARG_METHODS``; ``query`` beside
            ``ignored_query_kwargs``), the keywords the integration reads that the double takes
            without effect, each with its ``CallKwarg`` check (``MilvusVectorStore``: a
            ``milvus_partition_name(s)`` of None, the collection's default partition, and a bool
            ``force_flush``; a partition name raises ``NotImplementedError`` naming it, as an
            engine-only feature). The async twins take their method's keywords, except
            ``async_add``, which has its own entry.
        delete_nodes_unrestricted: ``delete_nodes`` with neither ids nor filters: ``"refuse"``
            (the real stores delete every node) or ``"nothing"`` (the real store returns
            without deleting; ``[]`` ids then mean no id restriction when filters are given).
        call_errors: what the integration raises for a call of a given shape, by shape: the
            keys ``"get_nodes()"`` (neither ids nor filters), ``"get_nodes(ids, filters)"``
            (ids and filters that translate to a condition), ``"get_nodes([])"`` (an empty id
            list), ``"delete_nodes(nothing)"`` (no ids and filters that translate to no
            condition) and ``"clear(empty)"`` (``clear()`` of a namespace without records:
            ``ChromaVectorStore`` deletes the ids it lists, and Chroma refuses none); each value
            builds the exception (the real store's type, or one of ours
            with the engine's message and a subclass of the core's error types).
        ids_filter_key: ``delete_nodes`` appends its ids to the filters as
            ``MetadataFilter(key=ids_filter_key, operator=IN)``, under the filters' own condition
            (``MilvusVectorStore``: ``"id"``, its primary key, so OR filters delete the union).
        ids_into_where: for ``get_nodes``/``delete_nodes`` with both ids and filters, the
            translated filter and the record ids -> one clause holding both (None: the ids stay
            a separate restriction); ``PGVectorStore`` writes both into one SQL WHERE.
        stores_text: ``False`` when the engine keeps vectors only (FAISS): ``VectorStoreIndex``
            then keeps the nodes in its docstore, and a query returns ids without nodes.
        stores_text_optional: ``PlaceboVectorStore(stores_text=False)`` is accepted too: the
            store then reports ``stores_text=False`` and a query returns ids without nodes, as
            the real store does (the default profile: ``SimpleVectorStore.stores_text`` is
            False, but the clean profile stores text by default so that records seeded into
            the core can be read through it).
        record_ids: the id a node gets in the engine: its ``"node_id"``, or its insertion
            ``"position"`` (FAISS: ``"0"``, ``"1"``, ...), which ``add`` returns.
        similarity_type: the number type of a query result's similarities.
        empty_result: the exception a query with no result raises (LanceDB raises ``Warning``).
        unranked_error: the exception a query without embedding raises once a node passes its
            restrictions (``SimpleVectorStore`` scores the nodes against ``None``:
            ``TypeError``); with no such node the result is empty. None: the nodes are listed.
        refused: methods the integration does not implement: name -> (exception, message).
        profile_columns: the typed-column rule the integration's table has, replacing the
            profile's (LanceDB: metadata as one struct column).
        sql_filters: builds the SQL text the integration sends for ``MetadataFilters``, read
            with the profile's native filter reader (``native_payload``); it gets the metadata keys
            of the first node this store added (LanceDB prefixes only those with
            ``metadata.``).
        sql_plain_reader: reads the SQL of a search without a vector (``get_nodes``), whose
            errors list other hidden columns than a vector search's.
        sql_delete_reader: reads the SQL of a delete, whose unknown columns fail with
            DataFusion's own message (a near name or the table's fields).
        delete_sql, delete_nodes_sql, get_nodes_sql: the SQL the integration builds for
            ``delete(ref_doc_id)``, ``delete_nodes(node_ids)`` and ``get_nodes(node_ids)``, run
            as it is (LanceDB quotes ids as identifiers, so these fail as in the real store).
        get_nodes_limit_default: how many nodes a ``get_nodes`` without ids returns at most (a
            plain LanceDB search stops at 10).
        default_metric: the engine metric when the store names none (None: the profile's;
            ``MilvusVectorStore``'s ``similarity_metric`` defaults to IP).
        expression_schema: the typed fields of the integration's collection, which its filter
            expression strings are read against (``MilvusVectorStore``: ``id``, ``doc_id`` and
            ``text`` are VARCHAR fields, so the engine rejects a number or an array function on
            them; every other key is in the dynamic JSON field); None: the profile's schema.
        dropped_by_clear: what the calls raise while the engine has no collection: after a
            real ``clear()`` that drops it, and before the first ``add`` where that creates it
            (None: the collection always exists; ``clear()`` empties it).
        top_k_not_int: what the integration makes of a ``similarity_top_k`` that is not an int
            (a bool included) in a query with embedding: the k it searches with, or None to
            refuse it with our ``TypeError``; it may raise the real store's error
            (``ChromaVectorStore``: Chroma's ``ValueError``; ``QdrantVectorStore`` and
            ``PGVectorStore`` search with 2 for 2.0). None: every such value is refused, as is
            every one in a query without embedding.
        nan_query: a query vector with a NaN component (``NanQuery``), in a plain query (MMR
            mode keeps the core's ``ValueError`` but where the value is ``"empty"`` or an
            exception): ``SimpleVectorStore`` scores every node NaN and keeps ``top_k`` by its
            heap (``"heap_order"``, li-simple-nan-query); ``ChromaVectorStore`` scores them NaN
            and picks by HNSW internals (``"listing_order"``: the first ``top_k`` in listing
            order, a divergence unless ``top_k`` covers them, li-chroma-nan-query);
            ``MilvusVectorStore`` answers nothing (``"empty"``, li-milvus-nan-query);
            ``QdrantVectorStore`` raises ``ValueError: Query vector must not contain NaN``
            (li-qdrant-nan-query); ``PGVectorStore``'s SQLAlchemy ``DataError`` is not imitated
            (``"refuse"``, li-pgvector-nan-query).
        inf_query: a query vector with an infinite component and no NaN one (``NanQuery``, read
            as ``nan_query``): ``SimpleVectorStore`` answers it as a NaN one (``"heap_order"``,
            li-simple-inf-query); ``MilvusVectorStore`` answers the nodes whose inner product is
            ``+inf``, nothing under ``cosine``/``l2`` (``"infinite_products"``,
            li-milvus-inf-query; MMR mode over such nodes keeps the core's ``ValueError``); the
            others keep the core's ``ValueError`` (``"refuse"``, a divergence: Chroma answers its
            HNSW index's pick scored ``0.0`` under l2, li-chroma-inf-query; Qdrant local answers
            ``nan`` scores in numpy's argsort order, li-qdrant-inf-query; ``PGVectorStore``
            raises SQLAlchemy's ``DataError``).
        evidence: (fact, where it is documented) pairs.
    """

    profile: str
    integration: str
    translate_filters: Translator
    node_score: Callable[[float], float]
    flat_metadata: bool
    none_metadata_as_empty_string: bool
    existing_id: Literal["replace", "keep_first", "append"]
    duplicate_ids_in_add: Literal["last_wins", "raise"]
    honours_doc_ids: bool
    honours_node_ids: bool
    mmr: Literal["all_candidates", "prefetch", "ignored"]
    get_nodes_empty_ids: Literal["nothing", "everything"]
    delete_nodes_needs_ids: bool
    unranked_score: float | None
    get_nodes_with_embedding: bool
    mmr_prefetch_factor: float | None = None
    mmr_prefetch_clamped: bool = False
    forwarded_kwargs: tuple[str, str] | None = None
    mmr_scores: Literal["similarity", "objective"] = "similarity"
    mmr_fallback: bool = True
    get_nodes_limit: bool = False
    native_filter_kwarg: str | None = None
    native_payload: PayloadLayout | None = None
    metrics: tuple[str, ...] | None = None
    mmr_threshold_first: Literal["kwargs", "query"] = "kwargs"
    ignored_query_kwargs: tuple[str, ...] = ()
    call_kwargs: Mapping[str, Mapping[str, CallKwarg]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    delete_nodes_unrestricted: Literal["refuse", "nothing"] = "refuse"
    call_errors: Mapping[str, Callable[[], Exception]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    ids_filter_key: str | None = None
    ids_into_where: Callable[[Where, list[str]], Where] | None = None
    stores_text: bool = True
    stores_text_optional: bool = False
    record_ids: Literal["node_id", "position"] = "node_id"
    similarity_type: Callable[[float], float] = same_score
    empty_result: tuple[type[BaseException], str] | None = None
    unranked_error: tuple[type[Exception], str] | None = None
    refused: Mapping[str, tuple[type[Exception], str]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    profile_columns: ColumnRule | None = None
    sql_filters: SqlFilters | None = None
    sql_plain_reader: NativeFilter | None = None
    sql_delete_reader: NativeFilter | None = None
    delete_sql: Callable[[str], str] | None = None
    delete_nodes_sql: Callable[[list[str]], str] | None = None
    get_nodes_sql: Callable[[list[str]], str] | None = None
    get_nodes_limit_default: int | None = None
    default_metric: str | None = None
    expression_schema: Schema | None = None
    dropped_by_clear: DroppedByClear | None = None
    top_k_not_int: Callable[[object], int | None] | None = None
    nan_query: NanQuery = "refuse"
    inf_query: NanQuery = "refuse"
    evidence: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if (self.mmr == "prefetch") != (self.mmr_prefetch_factor is not None):
            raise ValueError(
                f"integration {self.profile!r}: mmr_prefetch_factor is needed exactly when mmr "
                "is 'prefetch'"
            )
        reads_native = self.native_filter_kwarg is not None or self.sql_filters is not None
        if reads_native != (self.native_payload is not None):
            raise ValueError(
                f"integration {self.profile!r}: native_payload is needed exactly when "
                "native_filter_kwarg or sql_filters is set"
            )
        methods = sorted(set(self.call_kwargs) - set(CALL_KWARG_METHODS))
        if methods:
            raise ValueError(
                f"integration {self.profile!r}: call_kwargs keys {methods} are none of "
                f"{list(CALL_KWARG_METHODS)}"
            )
        unknown = sorted(set(self.call_errors) - set(CALL_SHAPES))
        if unknown:
            raise ValueError(
                f"integration {self.profile!r}: call_errors keys {unknown} are none of "
                f"{list(CALL_SHAPES)}"
            )

    def __deepcopy__(self, memo: dict[int, Any]) -> IntegrationFacts:
        """Itself: the facts are shared constants, and a deep copy of a store (pydantic's, which
        copies its private attributes) keeps pointing at them."""
        return self
