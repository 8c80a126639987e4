"""What one real LangChain integration adds on top of its engine: the fields of its row.

``IntegrationFacts`` is the schema of ``integrations.py``'s table: every convention the store
applies without a per-integration branch (scores and their type, relevance functions, the
``Document`` shape, id rules, ``delete``/``get_by_ids``/MMR conventions, the filter format), each
field with its default, the clean convention placeborag's ``default`` profile keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from placeborag_core.backends import ColumnRule
from placeborag_langchain.filters import CORE_WHERE, FilterFormat
from placeborag_langchain.relevance import RelevanceFn
from placeborag_langchain.stored_values import StoredValues
from placeborag_langchain.typed_fields import FieldRules

__all__ = ["IntegrationFacts"]


def _python_float(value: float) -> float:
    return float(value)


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
        delete_none_error: message of the ValueError raised by `delete(None)` (None: it
            deletes nothing and returns `delete_returns`, as langchain-postgres does).
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
        search_fetch_k: whether the similarity searches take `fetch_k` (FAISS: the candidates
            a post-filter sees; placeborag's default profile likewise). Otherwise `fetch_k` is
            an unknown keyword like any other (`strict_kwargs`): Chroma's `Collection.query`
            raises TypeError, langchain-qdrant's client AssertionError
            (`lc-chroma-search-fetch-k`, `lc-qdrant-search-fetch-k`); langchain-postgres,
            LanceDB and langchain-milvus ignore it, so it changes nothing.
        ignored_search_kwargs: search keyword arguments the integration names in its
            signature but that change nothing for a store in memory (Qdrant's `search_params`,
            `consistency`, and `hybrid_fusion` outside hybrid mode): accepted, unused.
        unimitated_search_kwargs: search keyword arguments the integration honours but
            placeborag does not imitate (langchain-community LanceDB's per-search `metrics=`):
            `NotImplementedError` naming them, rather than results the real store would not give.
        embedding_probes: when the integration calls `embed_documents(["dummy_text"])` to learn
            the dimension (langchain-qdrant: in the constructor and before a text MMR search),
            which a counting embedder can see.
        profile_columns: the typed-column rule of the integration's table, replacing the
            profile's (LanceDB: the metadata as one struct column); None: the profile's.
        overwrite_by_default: every add replaces the whole table (and its schema) unless the
            constructor's `mode="append"` says otherwise (langchain-community LanceDB's
            default `mode="overwrite"`).
        id_metadata_key: `add_texts` without metadatas stores `{key: id}` as each text's
            metadata (langchain-community LanceDB: "id"); None stores `{}`.
        empty_result_warning: the UserWarning a search with no result emits (None: none).
        get_by_ids_error: the exception and message `get_by_ids` raises (None: it works;
            LanceDB's and langchain-milvus's NotImplementedError).
        default_metric: the core metric of a store that names none (langchain-milvus: its
            default index is AUTOINDEX with L2); None: the profile's.
        filter_kwarg: the search keyword that takes the filter (langchain-milvus: `expr=`);
            `filter=` is then refused with `filter_conflict` (the exception type and message
            the real class raises for it).
        returned_id_key: returned metadata also holds the id under this key (langchain-milvus
            reports its primary key `pk`; the constructor's `primary_field` renames it).
        id_error_type: the exception type of `id_type_error`, `id_empty_error` and a
            `duplicate_ids` message (langchain-milvus asserts: AssertionError).
        uses_document_ids: whether `add_documents` takes `Document.id` when no `ids=` is given
            (langchain-milvus passes only texts and metadata on).
        generated_id_error: NotImplementedError message for a document without an id, when
            the integration's generated ids are not imitated (None: they are generated).
        none_id_error: makes the exception a `None` among the ids the integration receives
            raises (`ids=[u, None]`, or `add_documents` where only some Documents have an
            id: langchain-core then passes `[u, None]` on): langchain-qdrant's `PointStruct`
            refuses it, langchain-milvus asserts that ids are strings, and FAISS would key
            its docstore by `None`, which is refused rather than imitated. None: the document
            gets a generated id (Chroma and PGVector give a uuid4).
        from_documents_ids: whether `from_documents`/`afrom_documents` take each
            `Document.id` when no `ids=` is given (LangChain's rule); langchain-postgres
            overrides them to pass only `ids=` on, so its documents get generated ids.
        sized_ids: whether the integration takes `len(ids)`, so that ids given as a generator
            or iterator raise Python's `TypeError: object of type 'generator' has no len()`
            (FAISS); otherwise any iterable of ids is taken (read once).
        delete_error_type: the exception type of `delete_none_error`/`delete_empty_error`.
        typed_fields: the collection's typed fields fixed by the first batch (see
            `typed_fields.py`, langchain-milvus); None: metadata is stored as given.
        filter_mode_kwarg: the search keyword that picks pre- (truthy) or post-filtering for
            one call (LanceDB's `prefilter`); None: no such keyword.
        delete_filter_kwarg: `delete` also takes a filter in the integration's format under
            this keyword (langchain-milvus's `expr=`, LanceDB's `filter=`), ruled by
            `delete_filter_rule`; None: it takes none.
        delete_filter_rule: how that filter combines with ids. "filter_wins" (LanceDB): the
            filter wins over ids, then the ids, then the `delete_all_kwarg` flag (a keyword
            deleting every row; None: no such flag); with none of them `delete_none_error`,
            and the engine's errors propagate. "ids_win" (langchain-milvus): a non-empty id
            list wins (the filter is ignored), otherwise the filter must be a str
            (`delete_error_type` with `delete_none_error`); `delete` returns False where the
            engine refuses it (an invalid filter, an id of the wrong type, no collection yet).
        named_collections: whether a store's collection can be found again by its name:
            langchain-qdrant's `from_existing_collection(name)` opens a collection created
            earlier (here: by a store built earlier in the process, still alive) as another
            client of the same records; so does langchain-postgres's `from_existing_index`
            (a store of the same profile and name). Other integrations' stores are not
            registered, so these do not find them.
        collection_name_error: the message of the ValueError for a collection name the
            integration refuses (chromadb's name rules, `lc-chroma-collection-name`), or None
            for a valid name; None: every non-empty name is taken.
        repeat_delete_collection_raises: whether `delete_collection()` on a deleted collection
            raises `collection_deleted_error` (Chroma) or does nothing (langchain-postgres logs
            "Collection not found" and returns, `lc-pgvector-collection-life`).
        empty_add_error: the exception type and message an add of no documents raises
            (`add_texts([])`, `add_documents([])`, `from_texts([])`): Chroma's upsert refuses
            an empty batch, langchain-community LanceDB cannot create a table from one; None:
            an empty add returns `[]`.
        stored_values: what the integration's client does to a batch before anything is
            written (see `stored_values.py`): returns the documents as the database holds them
            (langchain-qdrant over qdrant-client's local mode: metadata as its JSON round-trip,
            `lc-qdrant-metadata-json`) or raises the database's error for the batch
            (langchain-postgres: NUL characters, NaN/Infinity in metadata,
            `lc-pgvector-refuses-nul`, `lc-pgvector-refuses-nan`; langchain-chroma over
            chromadb: NaN/infinite values dropped, ints beyond int64 stored as floats, a tuple
            refused, `lc-chroma-metadata-numbers`); None: stored as given.
        empty_ids_generate: whether `ids=[]` gives every document a generated id, its
            `Document.id` unused (FAISS: `ids = ids or [str(uuid4()) ...]`,
            `lc-faiss-ids-empty`); False: an empty list is a list of the wrong length.
        metadata_error_hint: (marker, hint): an add whose ValueError (the client's or the
            engine's) contains the marker raises a ValueError with `"\n\n" + hint` appended,
            as langchain-chroma's `add_texts` does around its upsert
            (`lc-chroma-metadata-hint`; not around `update_documents`); None: as raised.
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
    delete_none_error: str | None = "delete() needs ids"
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
    search_fetch_k: bool = False
    ignored_search_kwargs: tuple[str, ...] = ()
    unimitated_search_kwargs: tuple[str, ...] = ()
    profile_columns: ColumnRule | None = None
    overwrite_by_default: bool = False
    id_metadata_key: str | None = None
    empty_result_warning: str | None = None
    get_by_ids_error: tuple[type[Exception], str] | None = None
    filter_mode_kwarg: str | None = None
    delete_filter_kwarg: str | None = None
    delete_filter_rule: Literal["filter_wins", "ids_win"] = "filter_wins"
    delete_all_kwarg: str | None = None
    default_metric: str | None = None
    filter_kwarg: str = "filter"
    filter_conflict: tuple[type[Exception], str] | None = None
    returned_id_key: str | None = None
    id_error_type: type[Exception] = ValueError
    uses_document_ids: bool = True
    generated_id_error: str | None = None
    none_id_error: Callable[[], Exception] | None = None
    sized_ids: bool = False
    from_documents_ids: bool = True
    delete_error_type: type[Exception] = ValueError
    typed_fields: FieldRules | None = None
    named_collections: bool = False
    empty_add_error: tuple[type[Exception], str] | None = None
    stored_values: StoredValues | None = None
    metadata_error_hint: tuple[str, str] | None = None
    empty_ids_generate: bool = False
    repeat_delete_collection_raises: bool = True
    collection_name_error: Callable[[str], str | None] | None = None
    collection_deleted_error: str = (
        "the collection was deleted (delete_collection()); call reset_collection() to create "
        "an empty one"
    )
