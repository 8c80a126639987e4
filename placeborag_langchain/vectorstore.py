"""`PlaceboVectorStore`: LangChain's `VectorStore` over the core `FakeVectorStore`.

A thin translation layer. Ranking, filtering, ties and faults all happen in the core store; this
class turns LangChain calls into core calls and core results into what the real integration of
the chosen profile would hand back. What differs between integrations is data
(`integration_facts.IntegrationFacts`, one row per profile in `integrations`), applied by
collaborators the store owns: `searches.Search` (LangChain's search methods are in its base,
`search_methods.SearchMethods`), `writes.Writes`, `deletes.Deletes`, `reads.Reads`, and FAISS's
options in `distance.DistanceOptions`. The constructor's checks are in `constructor`, and the
methods each real class has beyond LangChain's in the bases gathered by `integration_methods`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from placeborag_core import FakeVectorStore, Profile
from placeborag_langchain.collection import CollectionGuard, ordinals_of
from placeborag_langchain.constructor import (
    check_wrapped,
    checked_embedding,
    merged_options,
    payload_format,
    profile_name,
    strategy_for,
    table_profile,
    with_distance_option,
)
from placeborag_langchain.deletes import Deletes
from placeborag_langchain.distance import DistanceOptions, requested_distance, shown_setting
from placeborag_langchain.documents import to_document
from placeborag_langchain.embeddings import core_embedder_of
from placeborag_langchain.filters import StoreFilters
from placeborag_langchain.ids import DocumentIds
from placeborag_langchain.integration_facts import IntegrationFacts
from placeborag_langchain.integration_methods import IntegrationMethods
from placeborag_langchain.integrations import integration_for
from placeborag_langchain.options import read_options
from placeborag_langchain.reads import Reads
from placeborag_langchain.searches import Search
from placeborag_langchain.store_retriever import PlaceboStoreRetriever
from placeborag_langchain.text_constructors import TextConstructors
from placeborag_langchain.typed_fields import store_collections
from placeborag_langchain.writes import Writes, texts_to_documents

__all__ = ["PlaceboVectorStore"]


class PlaceboVectorStore(TextConstructors, IntegrationMethods):
    """A deterministic stand-in for `Chroma`, `QdrantVectorStore`, LangChain's `FAISS` or
    `langchain_milvus.Milvus`.

    Args:
        embedding: any LangChain `Embeddings`; default `PlaceboEmbeddings()`.
        profile: core profile (name or `Profile`): "default" (clean conventions), "chroma",
            "qdrant", "faiss", "milvus", "pgvector" or "lancedb".
            Scores, relevance scores, filter format, Document shape, id rules and the
            delete/get_by_ids/MMR conventions follow that profile's real integration.
        metric, recall, visibility, orphaned_ids: passed to the core store.
        filter_mode: "pre" or "post"; default the real integration's (FAISS: post over fetch_k).
        namespace: the default namespace of every call (each call may pass `namespace=`).
        collection_name: shown where the real integration shows it (Qdrant's metadata).
        relevance_score_fn: overrides the profile's relevance function, as Chroma's and FAISS's
            constructors allow.
        distance_strategy: FAISS's `DistanceStrategy` (the enum or its name), as `FAISS` and
            `FAISS.from_texts` take it: MAX_INNER_PRODUCT runs on metric "ip", the others on
            "l2" with FAISS's relevance function and `score_threshold` direction for each
            (faiss profile only; default from the metric, EUCLIDEAN_DISTANCE for "l2").
        normalize_L2: FAISS's option: vectors are scaled to unit length (in float32, as
            `faiss.normalize_L2` does) before they are stored and before a search by vector,
            MMR included (FAISS's own MMR path does not normalise the query:
            `docs/integrations/langchain.md#lc-faiss-mmr-normalize`); the built-in
            `PlaceboEmbeddings` vectors are unit length already; under a strategy other than
            EUCLIDEAN_DISTANCE it warns as FAISS does (faiss profile only).
        integration_options: the real class's own keyword options (`options.py`): Chroma's
            `embedding_function`, `collection_metadata`, `collection_configuration`; Qdrant's
            `distance`, `content_payload_key`, `metadata_payload_key`, `vector_name`, ...;
            Milvus's `index_params`, `primary_field`, `text_field`, `enable_dynamic_field`, ...;
            those that need a real client or server (`client`, hosts, URLs, on-disk paths,
            sparse retrieval) raise NotImplementedError naming them.

    `PlaceboVectorStore.from_core_store(store)` wraps an existing core store instead. The
    methods of each real class, and what is deliberately left out, are listed in
    `docs/integrations/langchain-parity.md`.
    """

    def __init__(
        self,
        embedding: Embeddings | None = None,
        *,
        profile: str | Profile = "default",
        metric: str | None = None,
        filter_mode: Literal["pre", "post"] | None = None,
        recall: float = 1.0,
        visibility: Literal["immediate", "manual"] = "immediate",
        orphaned_ids: bool = False,
        namespace: str = "",
        collection_name: str = "langchain",
        relevance_score_fn: Callable[[float], float] | None = None,
        distance_strategy: str | None = None,
        normalize_L2: bool = False,  # noqa: N803 - FAISS's own spelling
        **integration_options: Any,
    ) -> None:
        facts = integration_for(profile_name(profile))
        options = read_options(facts.profile, integration_options, "PlaceboVectorStore()")
        embedding, metric = merged_options(facts, embedding, metric, options)
        if metric is None and distance_strategy is None:
            metric = facts.default_metric
        embedding = checked_embedding(embedding, namespace, collection_name, relevance_score_fn)
        distance_strategy = with_distance_option(facts, distance_strategy, options)
        metric, _ = requested_distance(facts, metric, distance_strategy)
        profile = table_profile(facts, profile)
        core = FakeVectorStore(
            embedder=core_embedder_of(embedding),
            profile=profile,
            metric=metric,
            filter_mode=filter_mode or facts.default_filter_mode,
            recall=recall,
            visibility=visibility,
            orphaned_ids=orphaned_ids,
        )
        self._wrap(
            core,
            namespace=namespace,
            embedding=embedding,
            collection_name=collection_name,
            relevance_score_fn=relevance_score_fn,
            distance_strategy=distance_strategy,
            normalize_L2=normalize_L2,
            content_payload_key=options.content_payload_key,
            metadata_payload_key=options.metadata_payload_key,
            field_names=options.field_names,
            overwrite=options.overwrite,
        )

    @classmethod
    def from_core_store(
        cls, store: FakeVectorStore, *, namespace: str = "", **options: Any
    ) -> PlaceboVectorStore:
        """Wrap an existing core store (for instance one seeded by `placeborag_core`).

        The records are shared, not copied; the store's profile, metric, filter mode and
        faults stay its own. `options` are the constructor's LangChain-side options:
        `embedding`, `collection_name`, `relevance_score_fn`, `distance_strategy` (which must
        run on the store's metric), `normalize_L2`, and Qdrant's `content_payload_key` and
        `metadata_payload_key`.
        """
        check_wrapped(store, options)
        wrapper = cls.__new__(cls)
        wrapper._wrap(store, namespace=namespace, **options)
        return wrapper

    def _wrap(
        self,
        core: FakeVectorStore,
        *,
        namespace: str,
        embedding: Embeddings | None = None,
        collection_name: str = "langchain",
        relevance_score_fn: Callable[[float], float] | None = None,
        distance_strategy: str | None = None,
        normalize_L2: bool = False,  # noqa: N803 - FAISS's own spelling
        content_payload_key: str = "page_content",
        metadata_payload_key: str = "metadata",
        field_names: Mapping[str, Any] | None = None,
        overwrite: bool | None = None,
        probe: bool = True,
    ) -> None:
        """Set the store up over `core` (`probe`: make the integration's construction-time
        embedding call, where it has one)."""
        embedding = checked_embedding(embedding, namespace, collection_name, relevance_score_fn)
        facts = integration_for(core.profile.name)
        refused = facts.collection_name_error and facts.collection_name_error(collection_name)
        if refused:
            raise ValueError(refused)  # chromadb raises its InvalidArgumentError
        filter_format = payload_format(facts, content_payload_key, metadata_payload_key)
        setting = strategy_for(facts, distance_strategy, core.profile.metric)
        # Texts go to the core as text only when the core embeds with this very embedder (a
        # wrapped store may hold another one: then its vectors come from `embedding`).
        own = core_embedder_of(embedding)
        native = own is not None and own is core.embedder
        self._embedding = embedding
        self._store = core
        self._facts: IntegrationFacts = facts
        # stacklevel 3: the warning points at the caller of __init__ or from_core_store.
        self._distance = DistanceOptions.for_store(
            facts,
            core.profile.metric,
            setting,
            normalize_L2,
            stacklevel=3,
            shown=shown_setting(distance_strategy),
        )
        self._namespace = namespace
        self.collection_name = collection_name
        self.content_payload_key = content_payload_key
        self.metadata_payload_key = metadata_payload_key
        self._relevance_override = relevance_score_fn
        self._guard = CollectionGuard(facts.collection_deleted_error)
        guard = self._guard.check
        ids = DocumentIds(facts, core.profile.ids)
        self._collections = store_collections(facts.typed_fields, facts.profile, core, field_names)
        collections = self._collections
        filters = StoreFilters(
            filter_format,
            core.profile,
            facts.callable_filter_arg,
            self._document,
            schema_for=None if collections is None else collections.schema,
        )
        ordinals = ordinals_of(core)
        self._writes = Writes(
            core, ids, self._distance, namespace, embedding, native, guard, ordinals, collections
        )
        self._writes.overwrite = facts.overwrite_by_default if overwrite is None else overwrite
        self._search = Search(
            core, facts, self._distance, filters, namespace, embedding, native, guard, collections
        )
        self._deletes = Deletes(core, ids, filters, namespace, guard, collections)
        self._reads = Reads(core, ids, filters, guard)
        if probe:
            self._search.probe_embedding("init")
        self._register_collection()

    def _document(self, record_id: str, text: str | None, metadata: Mapping[str, Any]) -> Document:
        """A record as the integration returns it (see `documents.to_document`)."""
        id_key = None
        if self._facts.returned_id_key is not None:
            rules = None if self._collections is None else self._collections.rules
            id_key = self._facts.returned_id_key if rules is None else rules.primary_field
        return to_document(
            self._facts,
            self._store.profile.ids.external,
            record_id,
            text,
            metadata,
            self.collection_name,
            id_key,
        )

    # --- properties and fault controls ----------------------------------------------------

    @property
    def embeddings(self) -> Embeddings:
        """The `Embeddings` this store embeds texts and queries with."""
        return self._embedding

    @property
    def core_store(self) -> FakeVectorStore:
        """The wrapped core store: profile, faults, traces, seeding and drift checks."""
        return self._store

    @property
    def facts(self) -> IntegrationFacts:
        """The conventions of the real integration this store reproduces."""
        return self._facts

    @property
    def distance_strategy(self) -> str:
        """The integration's name for this store's distance (FAISS: the `DistanceStrategy`
        name, e.g. "COSINE"; other profiles: the core metric)."""
        return self._distance.setting

    @property
    def namespace(self) -> str:
        """The namespace calls use unless they pass `namespace=`."""
        return self._namespace

    def fail_next_query(
        self, error: BaseException | type[BaseException] | None = None, *, times: int = 1
    ) -> None:
        """Make the next `times` searches raise `error` (default `RetrievalTimeout`)."""
        self._store.fail_next_query(error, times=times)

    def refresh(self) -> None:
        """Make pending writes visible (only meaningful with `visibility="manual"`)."""
        self._store.refresh()

    # --- writes ---------------------------------------------------------------------------

    def add_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
        """Add or overwrite documents; returns their ids (one per document).

        Id precedence: the `ids` argument, then `Document.id`, then a deterministic generated
        id (see `placeborag_langchain.ids`). Extra keyword arguments such as `batch_size` are
        accepted and ignored, as the real integrations do. The input Documents are not changed.
        """
        return self._writes.add(documents, kwargs)

    async def aadd_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
        """Async twin of `add_documents` (embeds with `aembed_documents`)."""
        return await self._writes.aadd(documents, kwargs)

    def add_texts(
        self,
        texts: Iterable[str],
        metadatas: list[dict[Any, Any]] | None = None,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        """Embed and add texts; `ids` entries that are None get a generated id. `ids` may be
        passed positionally, as the real classes take it."""
        documents = texts_to_documents(texts, metadatas)
        if metadatas is None and self._facts.id_metadata_key is not None:
            return self._writes.add(documents, {"ids": ids, **kwargs}, id_metadata=True)
        return self.add_documents(documents, ids=ids, **kwargs)

    async def aadd_texts(
        self,
        texts: Iterable[str],
        metadatas: list[dict[Any, Any]] | None = None,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        """Async twin of `add_texts`."""
        docs = texts_to_documents(texts, metadatas, method="aadd_texts")
        return await self.aadd_documents(docs, ids=ids, **kwargs)

    # --- deletes and reads by id ----------------------------------------------------------

    def delete(self, ids: list[Any] | None = None, **kwargs: Any) -> bool | None:
        """Delete by id; the return value and the edge cases follow the integration.

        `ids=None` raises ValueError in every profile (as every real integration does), unless a
        Chroma-style `where=` or `where_document=` filter is given (chroma and default profiles):
        then the records that pass it, among `ids` if given, are deleted. Missing ids are
        ignored, except under the faiss profile, where any missing id raises and nothing is
        deleted (LangChain FAISS). Returns True (None under the chroma profile).
        """
        return self._deletes.delete(ids, kwargs)

    async def adelete(self, ids: list[Any] | None = None, **kwargs: Any) -> bool | None:
        """Async twin of `delete`."""
        return self.delete(ids, **kwargs)

    def get_by_ids(self, ids: Sequence[Any], /, *, namespace: str | None = None) -> list[Document]:
        """Documents for the ids that exist; missing ids are skipped.

        Order: request order with duplicates repeated (default, qdrant, faiss) or the store's
        listing order (chroma, which also rejects a repeated id and an empty list). LanceDB and
        langchain-milvus have no `get_by_ids`: NotImplementedError, as they raise.
        """
        return self._reads.by_ids(ids, self._namespace if namespace is None else namespace)

    async def aget_by_ids(
        self, ids: Sequence[Any], /, *, namespace: str | None = None
    ) -> list[Document]:
        """Async twin of `get_by_ids`."""
        return self.get_by_ids(ids, namespace=namespace)

    # --- relevance -----------------------------------------------------------------------

    def _select_relevance_score_fn(self) -> Callable[[float], float]:
        """The real integration's relevance function for the store's metric (or the override).

        These are reproduced even where they leave [0, 1] (LangChain then warns) or invert
        the ranking (Qdrant DOT, FAISS inner product): see the README's fidelity table.
        """
        if self._relevance_override is not None:
            return self._relevance_override
        self._guard.check()
        collections = self._collections
        if collections is not None and not collections.exists(self._namespace):
            raise ValueError(collections.rules.no_collection_relevance_error)
        return self._distance.relevance(self._facts)

    # --- the retriever -------------------------------------------------------------------

    def _get_retriever_tags(self) -> list[str]:
        """The imitated class's name, then the embeddings' (LangChain's tags for a store)."""
        return [self._facts.class_name, type(self._embedding).__name__]

    def as_retriever(self, **kwargs: Any) -> PlaceboStoreRetriever:
        """LangChain's `VectorStoreRetriever` over this store; its tags and LangSmith
        `ls_vector_store_provider` name the imitated class ("Chroma", "QdrantVectorStore",
        "FAISS"), as the real store's retriever does."""
        tags = kwargs.pop("tags", None) or [*self._get_retriever_tags()]
        return PlaceboStoreRetriever(vectorstore=self, tags=tags, **kwargs)

    def __repr__(self) -> str:
        store, setting = self._store, self._distance.setting
        distance = f"distance_strategy={setting!r}, " if self._facts.distance_settings else ""
        return (
            f"PlaceboVectorStore(profile={store.profile.name!r}, metric={store.profile.metric!r}, "
            f"{distance}namespace={self._namespace!r}, count={store.count(self._namespace)})"
        )
