"""``PlaceboVectorStore``: a LlamaIndex ``BasePydanticVectorStore`` over ``FakeVectorStore``.

Swap it for ``ChromaVectorStore`` or ``QdrantVectorStore`` by choosing ``profile="chroma"`` or
``profile="qdrant"``: the core reproduces the engine (distances, ties, filter semantics, id rule),
and the profile's row of :data:`placeborag_llamaindex.integrations.INTEGRATIONS` reproduces what
the LlamaIndex integration adds (score mapping, re-insert semantics, accepted filters and options).

This class is LlamaIndex's interface and nothing more; it hands each call to collaborators built
from the row and the core store: :class:`~placeborag_llamaindex.nodes.NodeCodec` (nodes as
records and back), :class:`~placeborag_llamaindex.query_options.QueryOptions` (a query's keyword
arguments and mode), :class:`~placeborag_llamaindex.restrictions.Restrictions` (which records a
call concerns), :class:`~placeborag_llamaindex.search.Search` and
:class:`~placeborag_llamaindex.writes.Writes` (the reads and writes of the core namespace). It
ranks nothing and evaluates no filter itself. Saving and loading are its base
:class:`~placeborag_llamaindex.persistence_methods.PersistenceMethods`; what only a real engine
has is refused by its base :class:`~placeborag_llamaindex.engine_only_methods.EngineOnlyMethods`.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import numbers
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Literal, TypeVar

from llama_index.core.schema import BaseNode
from llama_index.core.vector_stores.types import (
    BasePydanticVectorStore,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryResult,
)
from pydantic import ConfigDict, PrivateAttr, StrictBool, StrictFloat, StrictStr

from placeborag_core import FakeEmbedder, FakeVectorStore
from placeborag_core.adapter_kit import require_unicode, shown
from placeborag_core.backends import PROFILES, Profile
from placeborag_llamaindex import inputs
from placeborag_llamaindex.embedding import PlaceboEmbedding
from placeborag_llamaindex.engine_only import refuse_engine_arguments
from placeborag_llamaindex.engine_only_methods import EngineOnlyMethods
from placeborag_llamaindex.integration_facts import NanQuery
from placeborag_llamaindex.integrations import (
    INTEGRATIONS,
    IntegrationFacts,
    integration_for,
    without_text,
)
from placeborag_llamaindex.nodes import NodeCodec
from placeborag_llamaindex.persistence_methods import PersistenceMethods
from placeborag_llamaindex.query_options import QueryOptions
from placeborag_llamaindex.restrictions import FirstKeys, Restrictions
from placeborag_llamaindex.search import Search
from placeborag_llamaindex.typed_columns import typed_profile
from placeborag_llamaindex.writes import Writes

__all__ = ["PlaceboVectorStore"]

_T = TypeVar("_T")


def _reject_kwargs(method: str, kwargs: dict[str, Any], accepted: Collection[str] = ()) -> None:
    """Refuse keyword arguments: an engine-only one (``shard_identifier``) with
    ``NotImplementedError`` naming it, any other with ``TypeError`` naming the ``accepted``."""
    if kwargs:
        refuse_engine_arguments(sorted(kwargs), f"{method}()")
        raise TypeError(
            f"PlaceboVectorStore.{method}() got unexpected keyword arguments "
            f"{sorted(kwargs)}; it accepts {', '.join(sorted(accepted)) or 'none'}"
        )


class PlaceboVectorStore(PersistenceMethods, EngineOnlyMethods, BasePydanticVectorStore):
    """A deterministic, in-memory, text-storing LlamaIndex vector store.

    Args (pydantic fields):
        profile: ``"default"`` (the clean store: every filter operator and condition),
            ``"chroma"`` or ``"qdrant"`` (the real integration's conventions, see the README).
        metric: the engine metric (chroma ``l2``/``cosine``/``ip``, qdrant ``cosine``/``dot``/
            ``euclid``); ``None`` is the engine's default.
        filter_mode, recall, visibility, orphaned_ids: the core store's fault model.
        namespace: the core namespace every call of this store reads and writes.
        stores_text: the profile's (``IntegrationFacts.stores_text``); the default profile also
            takes ``False``: a query then returns ids without nodes and ``VectorStoreIndex``
            keeps the nodes in its docstore, as over ``SimpleVectorStore``
            (``docs/integrations/llamaindex.md#li-simple-stores-text``), and ``get_nodes`` and
            a query without embedding raise as ``SimpleVectorStore``'s do (``without_text``).

    Keyword-only ``embedder``: a ``FakeEmbedder`` or ``PlaceboEmbedding`` for text queries on
    ``core_store`` (LlamaIndex itself always hands the store vectors).

    The fields are frozen: they configure the core store once, at construction, so assigning
    one afterwards raises instead of silently changing nothing.
    """

    model_config = ConfigDict(
        arbitrary_types_allowed=True, frozen=True, extra="forbid", strict=True
    )

    stores_text: StrictBool = True
    is_embedding_query: StrictBool = True
    profile: StrictStr = "default"
    metric: StrictStr | None = None
    filter_mode: Literal["pre", "post"] = "pre"
    recall: StrictFloat = 1.0
    visibility: Literal["immediate", "manual"] = "immediate"
    orphaned_ids: StrictBool = False
    namespace: StrictStr = ""

    _store: FakeVectorStore = PrivateAttr()
    _facts: IntegrationFacts = PrivateAttr()
    _codec: NodeCodec = PrivateAttr()
    _restrictions: Restrictions = PrivateAttr()
    _search: Search = PrivateAttr()
    _writes: Writes = PrivateAttr()
    _no_collection: bool = PrivateAttr(default=False)

    def __init__(
        self, *, embedder: FakeEmbedder | PlaceboEmbedding | None = None, **data: Any
    ) -> None:
        _check_constructor_arguments(data)
        if embedder is not None and not isinstance(embedder, FakeEmbedder | PlaceboEmbedding):
            raise TypeError(
                "embedder must be a PlaceboEmbedding, a placeborag_core.FakeEmbedder or None, "
                f"got {type(embedder).__name__}"
            )
        row = INTEGRATIONS.get(data.get("profile", "default"))
        expected = True if row is None else row.stores_text
        data.setdefault("stores_text", expected)
        super().__init__(**data)
        optional = row is not None and row.stores_text_optional
        if self.stores_text is not expected and not optional:
            raise ValueError(
                f"the {self.profile} profile's store {'stores' if expected else 'keeps no'} "
                f"text; stores_text must be {expected}"
            )
        if self.is_embedding_query is not True:
            raise ValueError(
                "PlaceboVectorStore is queried with embeddings; is_embedding_query must be True"
            )
        require_unicode(self.namespace, "namespace")
        integration = integration_for(self.profile)
        if self.stores_text is not integration.stores_text:  # the opt-out of the default row
            integration = without_text(integration)
        if integration.metrics is not None and self.metric not in (None, *integration.metrics):
            raise ValueError(
                f"{integration.integration} always queries with "
                f"{' or '.join(integration.metrics)}; metric must be None or one of "
                f"{list(integration.metrics)}, got {self.metric!r}"
            )
        core_embedder = (
            embedder.core_embedder if isinstance(embedder, PlaceboEmbedding) else embedder
        )
        profile: str | Profile = self.profile
        if integration.profile_columns is not None:  # the integration's own table layout
            profile = dataclasses.replace(
                PROFILES[self.profile], columns=integration.profile_columns
            )
        if integration.expression_schema is not None:  # the integration's typed columns
            base = PROFILES[profile] if isinstance(profile, str) else profile
            profile = typed_profile(base, integration.expression_schema)
        store = FakeVectorStore(
            embedder=core_embedder,
            profile=profile,
            metric=self.metric if self.metric is not None else integration.default_metric,
            filter_mode=self.filter_mode,
            recall=self.recall,
            visibility=self.visibility,
            orphaned_ids=self.orphaned_ids,
        )
        self._bind(store, integration)

    def _bind(self, store: FakeVectorStore, integration: IntegrationFacts) -> None:
        """Serve LlamaIndex's calls from ``store`` with ``integration``'s conventions."""
        codec = NodeCodec(integration, store.profile.ids)
        first_keys = FirstKeys()
        self._store = store
        self._facts = integration
        self._codec = codec
        self._restrictions = Restrictions(
            integration, codec, store.profile.native_filter, first_keys
        )
        self._search = Search(store, self.namespace, integration)
        self._writes = Writes(store, self.namespace, integration, codec, first_keys)
        missing = integration.dropped_by_clear
        self._no_collection = missing is not None and missing.from_start

    def _has_no_collection(self) -> bool:
        """Whether the real store would have no collection now (``IntegrationFacts.
        dropped_by_clear``): none was created yet or ``clear()`` dropped it, and nothing wrote
        records into the namespace since (seeding writes straight into the core store).

        The namespace's records are counted as they stand once the writes waiting for
        ``refresh()`` are published (``visibility="manual"``), not as queries see them now: a
        ``clear()`` drops the collection at once, even while its deletes wait."""
        return self._no_collection and self._latest_count() == 0

    def _latest_count(self) -> int:
        """How many records the namespace holds once every pending write is published; the
        core store is left as it is (a refreshed copy is counted)."""
        if not self._store.pending_writes:
            return self._store.count(self.namespace)
        latest = copy.copy(self._store)  # independent of the store: records and held writes
        latest.refresh()
        return latest.count(self.namespace)

    def _after_clear(self, call: str, run: Callable[[], _T]) -> _T:
        """``run()``, unless the real store has no collection (``_has_no_collection``): then
        ``run`` (which must not write) is tried on the empty store only for the errors that
        surface before the engine looks for the collection, and otherwise ``call`` raises what
        the real store raises."""
        dropped = self._facts.dropped_by_clear
        if dropped is None or not self._has_no_collection():
            return run()
        try:
            run()
        except Exception as error:
            if dropped.passes(error):
                raise
        raise dropped.errors[call](self.namespace) from None

    def _rest(self, method: str, kwargs: dict[str, Any], call: str | None = None) -> None:
        """Refuse what ``kwargs`` holds beyond the ``call_kwargs`` of ``method``."""
        rest, _ = self._call_kwargs(method, kwargs)
        _reject_kwargs(call or method, rest, self._facts.call_kwargs.get(method, {}))

    def _call_kwargs(
        self, method: str, kwargs: dict[str, Any]
    ) -> tuple[dict[str, Any], list[Exception]]:
        """``kwargs`` without the keywords the integration reads for ``method`` and the double
        takes without effect (``IntegrationFacts.call_kwargs``), each checked (a value it cannot
        honour raises); and the errors the real store raises once the call has run."""
        checks = self._facts.call_kwargs.get(method, {})
        rest: dict[str, Any] = {}
        later: list[Exception] = []
        for name, value in kwargs.items():
            check = checks.get(name)
            if check is None:
                rest[name] = value
                continue
            error = check(name, value)
            if error is not None:
                later.append(error)
        return rest, later

    def _refuse(self, method: str) -> None:
        """Raise what the real integration raises for a method it does not implement."""
        refused = self._facts.refused.get(method)
        if refused is not None:
            error, message = refused
            raise error(message)

    @classmethod
    def from_core_store(cls, store: FakeVectorStore, *, namespace: str = "") -> PlaceboVectorStore:
        """Wrap an existing core store (for instance one seeded by ``placeborag_core``); the
        fields are the store's configuration, and ``namespace`` is the one this wrapper uses."""
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
        wrapper._bind(store, wrapper._facts)
        return wrapper

    @classmethod
    def class_name(cls) -> str:
        return "PlaceboVectorStore"

    # -- the core underneath ---------------------------------------------------------------

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
        """The integration conventions this store reproduces (a row of ``INTEGRATIONS``; with
        the ``stores_text`` opt-out, its ``without_text`` copy)."""
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
        """Store nodes that carry embeddings, all or nothing; returns their node ids, in order."""
        self._rest("add", add_kwargs)
        return self._add(nodes)

    def _add(self, nodes: Sequence[BaseNode]) -> list[str]:
        checked = inputs.nodes(nodes)
        missing = self._facts.dropped_by_clear
        if missing is not None and missing.add_needs_collection(bool(checked)):
            self._after_clear("add", lambda: None)
        added = self._writes.add(checked)
        if checked:  # the integration created the collection, or it had one
            self._no_collection = False
        return added

    async def async_add(self, nodes: Sequence[BaseNode], **add_kwargs: Any) -> list[str]:
        self._rest("async_add", add_kwargs, "add")
        later = self._call_kwargs("async_add", add_kwargs)[1]
        added = self._add(nodes)
        if later:  # MilvusVectorStore: force_flush=True raises once the nodes are written
            raise later[0]
        return added

    def delete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
        """Delete every node whose source document is ``ref_doc_id`` (unknown: no-op)."""
        self._rest("delete", delete_kwargs)
        self._refuse("delete")
        restriction = self._restrictions.of_delete(inputs.text(ref_doc_id, "ref_doc_id"))
        self._after_clear("delete", lambda: None)
        self._writes.delete(*restriction)

    async def adelete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
        self.delete(ref_doc_id, **delete_kwargs)

    def delete_nodes(
        self,
        node_ids: list[str] | None = None,
        filters: MetadataFilters | None = None,
        **delete_kwargs: Any,
    ) -> None:
        """Delete the nodes among ``node_ids`` that pass ``filters`` (missing ids: no-op), all
        or nothing."""
        self._rest("delete_nodes", delete_kwargs)
        self._refuse("delete_nodes")
        node_ids = inputs.node_ids(node_ids, "node_ids")
        filters = inputs.filters(filters)
        restriction = self._after_clear(
            "delete_nodes", lambda: self._restrictions.of_delete_nodes(node_ids, filters)
        )
        if restriction is not None:
            self._writes.delete(*restriction)

    async def adelete_nodes(
        self,
        node_ids: list[str] | None = None,
        filters: MetadataFilters | None = None,
        **delete_kwargs: Any,
    ) -> None:
        self.delete_nodes(node_ids, filters, **delete_kwargs)

    def clear(self) -> None:
        """Delete every node of this store's namespace.

        An integration whose ``clear()`` drops the collection then fails the later calls as it
        does without a collection (``IntegrationFacts.dropped_by_clear``), at once, even while
        its deletes wait for ``refresh()``; one that refuses to clear nothing raises its
        ``call_errors["clear(empty)"]`` (``ChromaVectorStore``). The records cleared are the
        ones a read lists now: under ``visibility="manual"`` an add still waiting for
        ``refresh()`` is not cleared (it then counts as a record of the collection), and a
        chroma store whose only records wait raises ``clear(empty)``'s error, as
        ``ChromaVectorStore.clear`` deletes the ids a stale ``Collection.get()`` lists."""
        self._refuse("clear")
        refused = self._facts.call_errors.get("clear(empty)")
        if refused is not None and not self._store.ids(self.namespace):
            raise refused()
        self._writes.clear()
        if self._facts.dropped_by_clear is not None:
            self._no_collection = True

    async def aclear(self) -> None:
        self.clear()

    # -- reads -----------------------------------------------------------------------------

    def get_nodes(
        self,
        node_ids: list[str] | None = None,
        filters: MetadataFilters | None = None,
        **kwargs: Any,
    ) -> list[BaseNode]:
        """The stored nodes among ``node_ids`` passing ``filters``, in the profile's order.

        ``limit=`` (qdrant profile, as ``QdrantVectorStore.get_nodes``): at most that many.
        """
        self._refuse("get_nodes")
        kwargs = self._call_kwargs("get_nodes", kwargs)[0]
        limit = self._get_nodes_limit(kwargs) or self._facts.get_nodes_limit_default
        node_ids = inputs.node_ids(node_ids, "node_ids")
        filters = inputs.filters(filters)
        call = "get_nodes(ids)" if node_ids else "get_nodes(filters)"
        where, ids = self._after_clear(
            call, lambda: self._restrictions.of_get_nodes(node_ids, filters)
        )
        if limit is not None and ids is not None:
            limit = min(limit, len(ids))
        records = self._search.select(where, ids, limit=limit)
        return [self._codec.stored_node(record) for record in records]

    async def aget_nodes(
        self,
        node_ids: list[str] | None = None,
        filters: MetadataFilters | None = None,
        **kwargs: Any,
    ) -> list[BaseNode]:
        return self.get_nodes(node_ids, filters, **kwargs)

    def _get_nodes_limit(self, kwargs: dict[str, Any]) -> int | None:
        accepted = {"limit"} if self._facts.get_nodes_limit else set()
        _reject_kwargs("get_nodes", {k: v for k, v in kwargs.items() if k not in accepted})
        limit = kwargs.get("limit")
        if limit is None:
            return None
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"get_nodes() limit must be an int >= 1 or None, got {shown(limit)}")
        return limit

    def get(self, text_id: str) -> list[float]:
        """The stored embedding of node ``text_id`` (``SimpleVectorStore.get``); ``KeyError``
        if there is none."""
        record_id = self._codec.record_id(inputs.text(text_id, "text_id"))
        record = self._store.get(record_id, namespace=self.namespace)
        if record is None or record.vector is None:
            raise KeyError(text_id)
        return [float(x) for x in record.vector]

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        """Top ``similarity_top_k`` nodes for ``query_embedding`` (modes DEFAULT and MMR).

        Keyword arguments (``vector_store_kwargs`` of a retriever): ``mmr_threshold`` (the only
        threshold the default, chroma and milvus profiles read, as their real stores do;
        pgvector reads ``query.mmr_threshold`` first), ``mmr_prefetch_factor``/``mmr_prefetch_k``
        (chroma, milvus and pgvector profiles),
        ``fetch_k`` (candidates before a post-filter), ``where`` (a core-dialect filter, not
        combinable with ``query.filters``; accepted and ignored by the qdrant, milvus, pgvector
        and faiss profiles, as their real stores never read it), ``where_document`` (Chroma's
        filter on the node text, applied with the other filters; ``ChromaVectorStore`` forwards
        it to Chroma, as its source shows) and ``qdrant_filters`` (qdrant profile: a
        ``qdrant_client.models.Filter`` on the payload, which replaces ``filters``, ``doc_ids``
        and ``node_ids``, as in ``QdrantVectorStore``:
        ``docs/integrations/llamaindex.md#li-qdrant-native-filter``); and the keywords of
        ``IntegrationFacts.call_kwargs`` (milvus profile: ``milvus_partition_names=None``).
        A query without embedding lists the records that pass, in listing order
        (``stores_text=False``: ``IntegrationFacts.unranked_error``). Modes that
        need a sparse index or a learner raise ``NotImplementedError`` naming them.
        """
        query = inputs.query(query, self._facts.top_k_not_int)
        kwargs = self._call_kwargs("query", kwargs)[0]
        call = "query(embedding)" if query.query_embedding else "query(no embedding)"
        return self._after_clear(call, lambda: self._query(query, kwargs))

    def _query(self, query: VectorStoreQuery, kwargs: dict[str, Any]) -> VectorStoreQueryResult:
        options = QueryOptions.parse(kwargs, query, self._facts)
        where, ids = self._restrictions.of_query(query, options)
        k = query.similarity_top_k
        if not query.query_embedding:
            records = self._search.select(
                where, ids, limit=k, where_document=options.where_document
            )
            refusal = self._facts.unranked_error
            if refusal is None:
                return self._codec.unranked(records)
            if records:
                raise refusal[0](refusal[1])
            return self._codec.ranked([])
        nan_query = _non_finite_rule(self._facts, query.query_embedding)
        width = self._store.dimension
        if (
            nan_query != "refuse"
            and (width is None or len(query.query_embedding) == width)  # else the core refuses
        ):
            if callable(nan_query):
                raise nan_query()
            if nan_query == "empty":
                return self._codec.ranked([])
            if nan_query == "infinite_products":
                ranked = self._search.infinite_products(
                    query.query_embedding, k, where, ids, options
                )
                # MMR over +inf picks (MilvusVectorStore: KeyError None) is left to the core
                if not options.mmr or not ranked.matches:
                    return self._codec.ranked(ranked.matches, ranked.reported)
            elif not options.mmr:
                ranked = self._search.nan_scored(k, where, ids, options, nan_query)
                return self._codec.ranked(ranked.matches, ranked.reported)
        ranked = self._search.nearest(query.query_embedding, k, where, ids, options)
        if not ranked.matches and self._facts.empty_result is not None:
            error, message = self._facts.empty_result
            raise error(message)
        return self._codec.ranked(ranked.matches, ranked.reported)

    async def aquery(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        return self.query(query, **kwargs)


def _non_finite_rule(facts: IntegrationFacts, vector: Sequence[object]) -> NanQuery:
    """The rule for a query vector with a non-finite component: ``IntegrationFacts.nan_query``
    for a NaN one, else ``IntegrationFacts.inf_query`` for an infinite one, else ``"refuse"``
    (a finite vector: the core ranks it, or checks anything else)."""
    reals = [x for x in vector if isinstance(x, numbers.Real)]
    if any(math.isnan(x) for x in reals):
        return facts.nan_query
    if any(math.isinf(x) for x in reals):
        return facts.inf_query
    return "refuse"


def _check_constructor_arguments(data: Mapping[str, Any]) -> None:
    """Refuse an engine-only argument (``NotImplementedError``) or an unknown one (``TypeError``
    naming the accepted ones), before pydantic sees them."""
    fields = PlaceboVectorStore.model_fields
    refuse_engine_arguments([name for name in data if name not in fields], "PlaceboVectorStore()")
    inputs.keyword_arguments("PlaceboVectorStore()", data, ["embedder", *fields])
