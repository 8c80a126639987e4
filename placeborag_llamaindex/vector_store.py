"""``PlaceboVectorStore``: a LlamaIndex ``BasePydanticVectorStore`` over ``FakeVectorStore``.

Swap it for ``ChromaVectorStore`` or ``QdrantVectorStore`` by choosing ``profile="chroma"`` or
``profile="qdrant"``: the core reproduces the engine (distances, ties, filter semantics), and the
profile's row of :data:`placeborag_llamaindex.integrations.INTEGRATIONS` reproduces what the
LlamaIndex integration adds (score mapping, id rules, re-insert semantics, accepted filters).
This module only translates between LlamaIndex objects and core calls: it ranks nothing and
evaluates no filter itself.

Nodes are stored the way the real text-storing integrations store them: the text as the record's
text, and ``node_to_metadata_dict(node, remove_text=True)`` as its metadata, so the node comes back
whole (relationships, excluded keys, node type) and the implicit keys ``doc_id``, ``document_id``
and ``ref_doc_id`` can be filtered on.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Literal

from llama_index.core.schema import BaseNode, MetadataMode, TextNode
from llama_index.core.vector_stores.types import (
    BasePydanticVectorStore,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryMode,
    VectorStoreQueryResult,
)
from llama_index.core.vector_stores.utils import metadata_dict_to_node, node_to_metadata_dict
from pydantic import ConfigDict, PrivateAttr

from placeborag_core import FakeEmbedder, FakeVectorStore, Match, Record
from placeborag_core.filters import Predicate
from placeborag_llamaindex import persist
from placeborag_llamaindex.embedding import PlaceboEmbedding
from placeborag_llamaindex.integrations import IntegrationFacts, integration_for
from placeborag_llamaindex.query_options import QueryOptions

__all__ = ["PlaceboVectorStore"]

# A core where clause; a compiled core predicate inside it (or as it) is allowed.
Where = Mapping[str, Any] | Predicate
_MODES = (VectorStoreQueryMode.DEFAULT, VectorStoreQueryMode.MMR)


def _reject_kwargs(method: str, kwargs: dict[str, Any]) -> None:
    if kwargs:
        raise TypeError(
            f"PlaceboVectorStore.{method}() got unexpected keyword arguments "
            f"{sorted(kwargs)}; it accepts none"
        )


def _and(clauses: Sequence[Where]) -> Where | None:
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": list(clauses)}


class PlaceboVectorStore(BasePydanticVectorStore):
    """A deterministic, in-memory, text-storing LlamaIndex vector store.

    Args (pydantic fields):
        profile: ``"default"`` (the clean store: every filter operator and condition),
            ``"chroma"`` or ``"qdrant"`` (the real integration's conventions, see the README).
        metric: the engine metric (chroma ``l2``/``cosine``/``ip``, qdrant ``cosine``/``dot``/
            ``euclid``); ``None`` is the engine's default.
        filter_mode, recall, visibility, orphaned_ids: the core store's fault model.
        namespace: the core namespace every call of this store reads and writes.

    Keyword-only ``embedder``: a ``FakeEmbedder`` or ``PlaceboEmbedding`` for text queries on
    ``core_store`` (LlamaIndex itself always hands the store vectors).

    The fields are frozen: they configure the core store once, at construction, so assigning
    one afterwards raises instead of silently changing nothing.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    stores_text: bool = True
    profile: str = "default"
    metric: str | None = None
    filter_mode: Literal["pre", "post"] = "pre"
    recall: float = 1.0
    visibility: Literal["immediate", "manual"] = "immediate"
    orphaned_ids: bool = False
    namespace: str = ""

    _store: FakeVectorStore = PrivateAttr()
    _facts: IntegrationFacts = PrivateAttr()

    def __init__(
        self, *, embedder: FakeEmbedder | PlaceboEmbedding | None = None, **data: Any
    ) -> None:
        super().__init__(**data)
        if self.stores_text is not True:
            raise ValueError("PlaceboVectorStore always stores text; stores_text must be True")
        self._facts = integration_for(self.profile)
        core_embedder = (
            embedder.core_embedder if isinstance(embedder, PlaceboEmbedding) else embedder
        )
        self._store = FakeVectorStore(
            embedder=core_embedder,
            profile=self.profile,
            metric=self.metric,
            filter_mode=self.filter_mode,
            recall=self.recall,
            visibility=self.visibility,
            orphaned_ids=self.orphaned_ids,
        )

    @classmethod
    def from_core_store(cls, store: FakeVectorStore, *, namespace: str = "") -> PlaceboVectorStore:
        """Wrap an existing core store (for instance one seeded by ``placeborag_core``)."""
        if not isinstance(store, FakeVectorStore):
            raise TypeError(f"store must be a FakeVectorStore, got {type(store).__name__}")
        wrapper = cls(
            profile=store.profile.name,
            metric=store.profile.metric,
            filter_mode=store.filter_mode,
            recall=store.recall,
            visibility=store.visibility,
            orphaned_ids=store.orphaned_ids,
            namespace=namespace,
        )
        wrapper._store = store
        return wrapper

    @classmethod
    def class_name(cls) -> str:
        return "PlaceboVectorStore"

    # -- the core underneath ---------------------------------------------------------------

    @property
    def client(self) -> FakeVectorStore:
        """The core ``FakeVectorStore`` (LlamaIndex's name for the backend handle)."""
        return self._store

    @property
    def core_store(self) -> FakeVectorStore:
        """The core ``FakeVectorStore`` holding the records (shared, not a copy)."""
        return self._store

    @property
    def flat_metadata(self) -> bool:
        """Whether metadata values must be str/int/float/None, as in the real integration."""
        return self._facts.flat_metadata

    @property
    def facts(self) -> IntegrationFacts:
        """The integration conventions this store reproduces (a row of ``INTEGRATIONS``)."""
        return self._facts

    def fail_next_query(
        self, error: BaseException | type[BaseException] | None = None, *, times: int = 1
    ) -> None:
        """Make the next ``times`` queries raise ``error`` (default: ``RetrievalTimeout``)."""
        self._store.fail_next_query(error, times=times)

    def refresh(self) -> None:
        """Publish pending writes (``visibility="manual"``)."""
        self._store.refresh()

    @property
    def pending_writes(self) -> int:
        """How many writes ``refresh()`` would publish."""
        return self._store.pending_writes

    # -- writes ----------------------------------------------------------------------------

    def add(self, nodes: Sequence[BaseNode], **add_kwargs: Any) -> list[str]:
        """Store nodes that carry embeddings; returns their node ids, in order."""
        _reject_kwargs("add", add_kwargs)
        facts = self._facts
        records: dict[str, tuple[str, str, dict[str, Any], list[float]]] = {}
        for node in nodes:
            key = facts.canonical_id(node.node_id)
            if key in records and facts.duplicate_ids_in_add == "raise":
                raise ValueError(
                    f"Expected IDs to be unique, found duplicates of: {node.node_id} in add."
                )
            records[key] = (key, *self._record_parts(node))
        if facts.existing_id == "keep_first":
            records = {
                key: record
                for key, record in records.items()
                if self._store.get(key, namespace=self.namespace) is None
            }
        if records:
            self._store.upsert_many(list(records.values()), namespace=self.namespace)
        return [node.node_id for node in nodes]

    async def async_add(self, nodes: Sequence[BaseNode], **add_kwargs: Any) -> list[str]:
        return self.add(nodes, **add_kwargs)

    def _record_parts(self, node: BaseNode) -> tuple[str, dict[str, Any], list[float]]:
        embedding = node.get_embedding()  # ValueError("embedding not set.") as in every store
        metadata = node_to_metadata_dict(
            node, remove_text=True, flat_metadata=self._facts.flat_metadata
        )
        if self._facts.none_metadata_as_empty_string:
            metadata = {k: ("" if v is None else v) for k, v in metadata.items()}
        return node.get_content(metadata_mode=MetadataMode.NONE), metadata, embedding

    def delete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
        """Delete every node whose source document is ``ref_doc_id`` (unknown: no-op)."""
        _reject_kwargs("delete", delete_kwargs)
        doomed = self._select({"document_id": ref_doc_id}, None)
        if doomed:
            self._store.delete([record.id for record in doomed], namespace=self.namespace)

    async def adelete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
        self.delete(ref_doc_id, **delete_kwargs)

    def delete_nodes(
        self,
        node_ids: list[str] | None = None,
        filters: MetadataFilters | None = None,
        **delete_kwargs: Any,
    ) -> None:
        """Delete the nodes among ``node_ids`` that pass ``filters`` (missing ids: no-op)."""
        _reject_kwargs("delete_nodes", delete_kwargs)
        where = self._filters_where(filters)  # an unsupported filter is reported first
        if self._facts.delete_nodes_needs_ids and not node_ids:
            count = len(node_ids or [])
            raise ValueError(f"Expected IDs to be a non-empty list, got {count} IDs in delete.")
        if node_ids is None and where is None:
            raise ValueError(
                "delete_nodes() needs node_ids or non-empty filters; with neither, the real "
                "QdrantVectorStore and SimpleVectorStore delete every node. Use clear() for that."
            )
        doomed = self._select(where, self._canonical_ids(node_ids))
        if doomed:
            self._store.delete([record.id for record in doomed], namespace=self.namespace)

    async def adelete_nodes(
        self,
        node_ids: list[str] | None = None,
        filters: MetadataFilters | None = None,
        **delete_kwargs: Any,
    ) -> None:
        self.delete_nodes(node_ids, filters, **delete_kwargs)

    def clear(self) -> None:
        """Delete every node of this store's namespace."""
        ids = self._store.ids(self.namespace)
        if ids:
            self._store.delete(ids, namespace=self.namespace)

    async def aclear(self) -> None:
        self.clear()

    # -- reads -----------------------------------------------------------------------------

    def get_nodes(
        self, node_ids: list[str] | None = None, filters: MetadataFilters | None = None
    ) -> list[BaseNode]:
        """The stored nodes among ``node_ids`` passing ``filters``, in the profile's order."""
        if not node_ids and self._facts.get_nodes_empty_ids == "everything":
            node_ids = None
        records = self._select(self._filters_where(filters), self._canonical_ids(node_ids))
        nodes = []
        for record in records:
            node = self._to_node(record.id, record.text, record.metadata)
            if self._facts.get_nodes_with_embedding and record.vector is not None:
                node.embedding = list(record.vector)
            nodes.append(node)
        return nodes

    async def aget_nodes(
        self, node_ids: list[str] | None = None, filters: MetadataFilters | None = None
    ) -> list[BaseNode]:
        return self.get_nodes(node_ids, filters)

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        """Top ``similarity_top_k`` nodes for ``query_embedding`` (modes DEFAULT and MMR).

        Keyword arguments (``vector_store_kwargs`` of a retriever): ``mmr_threshold`` (wins over
        ``query.mmr_threshold``), ``mmr_prefetch_factor``/``mmr_prefetch_k`` (chroma profile),
        ``fetch_k`` (candidates before a post-filter), ``where`` (a core-dialect filter, not
        combinable with ``query.filters``), ``where_document`` (Chroma's filter on the node
        text, applied with the other filters, as ``ChromaVectorStore`` forwards it to Chroma)
        and ``qdrant_filters`` (qdrant profile: a ``qdrant_client.models.Filter`` on the
        payload, which replaces ``filters``, ``doc_ids`` and ``node_ids``, as in
        ``QdrantVectorStore``).
        """
        payload = self._facts.qdrant_payload
        options = QueryOptions.parse(
            kwargs, query, prefetch=self._facts.mmr == "prefetch", qdrant=payload is not None
        )
        mode = self._mode(query.mode)
        where, ids = self._query_restrictions(query, options)
        k = query.similarity_top_k
        if not query.query_embedding:
            records = self._select(where, ids, limit=k, where_document=options.where_document)
            unranked = self._facts.unranked_score
            return VectorStoreQueryResult(
                nodes=[self._to_node(r.id, r.text, r.metadata) for r in records],
                similarities=None if unranked is None else [unranked] * len(records),
                ids=[r.id for r in records],
            )
        vector = query.query_embedding
        if mode == VectorStoreQueryMode.MMR and self._facts.mmr != "ignored":
            matches = self._mmr(vector, k, where, ids, options)
        else:
            matches = self._store.query(
                vector,
                k,
                where=where,
                namespace=self.namespace,
                ids=ids,
                fetch_k=options.fetch_k,
                where_document=options.where_document,
            )
        score = self._facts.node_score
        return VectorStoreQueryResult(
            nodes=[self._to_node(m.id, m.text, m.metadata) for m in matches],
            similarities=[score(m.score) for m in matches],
            ids=[m.id for m in matches],
        )

    async def aquery(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        return self.query(query, **kwargs)

    def _mmr(
        self,
        vector: list[float],
        k: int,
        where: Where | None,
        ids: Collection[str] | None,
        options: QueryOptions,
    ) -> list[Match]:
        if self._facts.mmr == "prefetch":
            fetch_k = options.prefetch_k(k)
        else:
            fetch_k = max(k, self._store.count(self.namespace))
        picks = self._store.max_marginal_relevance(
            vector,
            k,
            fetch_k=fetch_k,
            lambda_mult=options.mmr_threshold,
            where=where,
            namespace=self.namespace,
            ids=ids,
            redundancy="last",  # LlamaIndex's get_top_k_mmr_embeddings: only the latest pick
            where_document=options.where_document,
        )
        if self._facts.mmr == "prefetch" and len(picks) < k:
            # ChromaVectorStore falls back to a plain query when fewer than top_k candidates exist
            return self._store.query(
                vector,
                k,
                where=where,
                namespace=self.namespace,
                ids=ids,
                where_document=options.where_document,
            )
        return picks

    # -- persistence -----------------------------------------------------------------------

    def persist(self, persist_path: str, fs: Any | None = None) -> None:
        """Write every namespace of the core store to ``persist_path`` (format: ``persist``)."""
        store = self._store
        payload = {
            "format": persist.FORMAT,
            "version": persist.VERSION,
            "store": {
                "profile": self.profile,
                "metric": self.metric,
                "filter_mode": self.filter_mode,
                "recall": self.recall,
                "visibility": self.visibility,
                "orphaned_ids": self.orphaned_ids,
                "namespace": self.namespace,
            },
            "namespaces": {
                name: [_record_json(store.get(i, namespace=name)) for i in store.ids(name)]
                for name in store.namespaces()
            },
        }
        persist.write_payload(payload, persist_path, fs)

    @classmethod
    def from_persist_path(
        cls,
        persist_path: str,
        fs: Any | None = None,
        *,
        embedder: FakeEmbedder | PlaceboEmbedding | None = None,
    ) -> PlaceboVectorStore:
        """Rebuild a store written by ``persist``."""
        payload = persist.read_payload(persist_path, fs)
        store = cls(embedder=embedder, **payload["store"])
        for name, records in payload["namespaces"].items():
            store._store.upsert_many(records, namespace=name)
        if store.visibility == "manual":
            store._store.refresh()  # the persisted records were visible when written
        return store

    # -- translation helpers ---------------------------------------------------------------

    def _mode(self, mode: Any) -> VectorStoreQueryMode:
        try:
            parsed = VectorStoreQueryMode(mode)
        except ValueError:
            parsed = None
        if parsed not in _MODES:
            raise ValueError(
                f"Invalid query mode: {mode!r}; PlaceboVectorStore supports "
                f"{', '.join(repr(m.value) for m in _MODES)}"
            )
        assert parsed is not None
        return parsed

    def _filters_where(self, filters: MetadataFilters | None) -> Where | None:
        if filters is None:
            return None
        return self._facts.translate_filters(filters)

    def _query_restrictions(
        self, query: VectorStoreQuery, options: QueryOptions
    ) -> tuple[Where | None, Collection[str] | None]:
        """The ``where`` and id restriction of a query.

        ``qdrant_filters`` replaces the query's filters, ``doc_ids`` and ``node_ids``, as in
        ``QdrantVectorStore``, which sends it to Qdrant instead of the filter it would build.
        """
        payload = self._facts.qdrant_payload
        if options.qdrant_filters is not None and payload is not None:
            read_native = self.core_store.profile.native_filter
            assert read_native is not None
            read = read_native(options.qdrant_filters, payload)
            return read.where, read.ids
        where = self._query_where(query, options.where)
        ids = self._canonical_ids(query.node_ids) if self._facts.honours_node_ids else None
        if ids is not None and not ids:
            ids = None  # the index passes [] for "no restriction" to text-storing stores
        return where, ids

    def _query_where(self, query: VectorStoreQuery, native: Where | None) -> Where | None:
        clauses: list[Where] = []
        if self._facts.honours_doc_ids and query.doc_ids:
            clauses.append({"doc_id": {"$in": list(query.doc_ids)}})
        translated = self._filters_where(query.filters)
        if translated is not None:
            clauses.append(translated)
        if native is not None:
            clauses.append(native)
        return _and(clauses)

    def _canonical_ids(self, node_ids: Sequence[str] | None) -> list[str] | None:
        if node_ids is None:
            return None
        return [self._facts.canonical_id(node_id) for node_id in node_ids]

    def _select(
        self,
        where: Where | None,
        ids: Collection[str] | None,
        limit: int | None = None,
        where_document: Any = None,
    ) -> list[Record]:
        """Filter-only read (Chroma's ``get``, Qdrant's ``scroll``): listing order, no ranking."""
        return self._store.select(
            where, ids=ids, namespace=self.namespace, limit=limit, where_document=where_document
        )

    def _to_node(self, node_id: str, text: str | None, metadata: dict[str, Any]) -> BaseNode:
        if "_node_content" in metadata:
            return metadata_dict_to_node(dict(metadata), text=text)
        # A record written straight into the core store (seeding) or an orphaned id: no
        # LlamaIndex bookkeeping, so build a plain TextNode from what the record holds.
        return TextNode(id_=node_id, text=text or "", metadata=dict(metadata))


def _record_json(record: Any) -> dict[str, Any]:
    return {
        "id": record.id,
        "text": record.text,
        "metadata": dict(record.metadata),
        "vector": [float(x) for x in record.vector],
    }
