"""`PlaceboVectorStore`: LangChain's `VectorStore` over the core `FakeVectorStore`.

A thin translation layer. Ranking, filtering, ties and faults all happen in the core store; this
class turns LangChain calls into core calls and core results into what the real integration of
the chosen profile would hand back (see `integrations.IntegrationFacts`, one row per profile).
"""

from __future__ import annotations

import operator
import threading
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import VectorStore

from placeborag_core import FakeVectorStore, Match, Profile, Record
from placeborag_core.filters import record_condition
from placeborag_langchain.chroma_get import chroma_get
from placeborag_langchain.documents import to_document
from placeborag_langchain.embeddings import PlaceboEmbeddings
from placeborag_langchain.filters import TranslatedFilter, translate_filter
from placeborag_langchain.ids import canonical_qdrant_id
from placeborag_langchain.integrations import (
    IntegrationFacts,
    default_setting,
    integration_for,
    resolve_distance,
)
from placeborag_langchain.writes import AddPlan, plan_add

__all__ = ["PlaceboVectorStore"]

_SEARCH_KWARGS = ("namespace", "fetch_k")


def _is_native(embedding: Embeddings) -> bool:
    """True when `embedding` is our own embeddings with its methods untouched.

    Then texts go to the core store as text and are embedded there in one vectorised pass (the
    same vectors `embed_documents` would return); any other `Embeddings` is called through its
    public methods and the core receives vectors.
    """
    cls = type(embedding)
    return isinstance(embedding, PlaceboEmbeddings) and all(
        getattr(cls, name) is getattr(PlaceboEmbeddings, name)
        for name in ("embed_documents", "embed_query", "aembed_documents", "aembed_query")
    )


class PlaceboVectorStore(VectorStore):
    """A deterministic stand-in for `Chroma`, `QdrantVectorStore` or LangChain's `FAISS`.

    Args:
        embedding: any LangChain `Embeddings`; default `PlaceboEmbeddings()`.
        profile: core profile (name or `Profile`): "default" (clean conventions), "chroma",
            "qdrant" or "faiss".
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
            MMR included (the built-in `PlaceboEmbeddings` vectors are unit length already);
            under a strategy other than EUCLIDEAN_DISTANCE it warns as FAISS does (faiss
            profile only).
        store: an existing core store to wrap instead of building one (its profile wins).
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
        store: FakeVectorStore | None = None,
        distance_strategy: str | None = None,
        normalize_L2: bool = False,  # noqa: N803 - FAISS's own spelling
    ) -> None:
        if embedding is None:
            embedding = PlaceboEmbeddings()
        if not isinstance(embedding, Embeddings):
            raise TypeError(
                f"embedding must be a langchain_core Embeddings, got {type(embedding).__name__}"
            )
        if not isinstance(namespace, str):
            raise TypeError(f"namespace must be a str, got {type(namespace).__name__}")
        if not isinstance(collection_name, str) or not collection_name:
            raise ValueError("collection_name must be a non-empty str")
        if relevance_score_fn is not None and not callable(relevance_score_fn):
            raise TypeError("relevance_score_fn must be a callable taking the score")
        self._embedding = embedding
        self._native = _is_native(embedding)
        if store is not None and not isinstance(store, FakeVectorStore):
            raise TypeError(f"store must be a FakeVectorStore, got {type(store).__name__}")
        named = profile if store is None else store.profile
        facts = integration_for(named if isinstance(named, str) else named.name)
        metric, setting = resolve_distance(facts, metric, distance_strategy)
        if store is not None and setting is not None and metric != store.profile.metric:
            raise ValueError(
                f"distance_strategy={setting} needs metric {metric!r}; the given store has "
                f"{store.profile.metric!r}"
            )
        if store is None:
            core_embedder = embedding.core_embedder if self._native else None  # type: ignore[attr-defined]
            store = FakeVectorStore(
                embedder=core_embedder,
                profile=profile,
                metric=metric,
                filter_mode=filter_mode or facts.default_filter_mode,
                recall=recall,
                visibility=visibility,
                orphaned_ids=orphaned_ids,
            )
        self._store = store
        self._facts: IntegrationFacts = integration_for(store.profile.name)
        self._setting = setting or default_setting(self._facts, store.profile.metric)
        self._normalize = self._normalize_option(normalize_L2)
        self._namespace = namespace
        self.collection_name = collection_name
        self._relevance_override = relevance_score_fn
        self._lock = threading.Lock()
        self._generated = 0
        self._probe_embedding("init")

    def _normalize_option(self, normalize: bool) -> bool:
        """Check FAISS's `normalize_L2` against this integration and warn where FAISS does."""
        if not isinstance(normalize, bool):
            raise TypeError(f"normalize_L2 must be a bool, got {type(normalize).__name__}")
        quiet = self._facts.normalize_l2_quiet
        if normalize and quiet is None:
            raise ValueError(
                f"normalize_L2 is FAISS's option; {self._facts.integration} has no such option"
            )
        if normalize and quiet is not None and self._setting not in quiet:
            warnings.warn(
                self._facts.normalize_l2_warning.format(setting=self._setting),
                UserWarning,
                stacklevel=3,
            )
        return normalize

    def _unit(self, vectors: list[list[float]]) -> list[list[float]]:
        """`vectors` as `faiss.normalize_L2` leaves them (float32, zero vectors unchanged)
        when the store normalises; otherwise as given."""
        if not self._normalize or not vectors:
            return vectors
        try:
            matrix = np.asarray(vectors, dtype=np.float32)
        except (TypeError, ValueError):
            return vectors  # malformed: the core's validation names the record at fault
        if matrix.ndim != 2:
            return vectors
        norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))
        scale = np.ones_like(norms)
        np.divide(np.float32(1.0), norms, out=scale, where=norms > 0)
        unit: list[list[float]] = (matrix * scale[:, None]).tolist()
        return unit

    def _unit_query(self, query: str | list[float]) -> str | list[float]:
        return query if isinstance(query, str) else self._unit([list(query)])[0]

    def _probe_embedding(self, occasion: Literal["init", "mmr"]) -> None:
        """Repeat the integration's dimension probe (a call a counting embedder would see)."""
        if occasion in self._facts.embedding_probes and not self._native:
            self._embedding.embed_documents(["dummy_text"])

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
        return self._setting

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

    def _plan(self, documents: Sequence[Document], ids: Sequence[Any] | None, ns: str) -> AddPlan:
        # Planning reserves the ordinals of the ids it generates, so concurrent adds of the same
        # content never get the same generated id.
        with self._lock:
            plan = plan_add(
                self._facts,
                documents,
                ids,
                self._generated,
                lambda core_id: self._store.get(core_id, namespace=ns) is not None,
            )
            self._generated += plan.generated
        return plan

    def _write(self, plan: AddPlan, vectors: list[list[float]] | None, ns: str) -> None:
        columns: list[Sequence[Any]] = [plan.core_ids, plan.texts, plan.metadatas]
        if vectors is not None:
            columns.append(self._unit(vectors))
        self._store.upsert_many(list(zip(*columns, strict=True)), namespace=ns)

    def add_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
        """Add or overwrite documents; returns their ids (one per document).

        Id precedence: the `ids` argument, then `Document.id`, then a deterministic generated
        id (see `placeborag_langchain.ids`). Extra keyword arguments such as `batch_size` are
        accepted and ignored, as the real integrations do. The input Documents are not changed.
        """
        ids = kwargs.pop("ids", None)
        ns = kwargs.pop("namespace", self._namespace)
        documents = list(documents)
        plan = self._plan(documents, ids, ns)
        vectors = None
        if not self._native:
            # Every input text is embedded, repeated ids included, as the real stores do.
            every = self._embedding.embed_documents([d.page_content for d in documents])
            vectors = [every[n] for n in plan.positions]
        self._write(plan, vectors, ns)
        return plan.returned

    async def aadd_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
        """Async twin of `add_documents` (embeds with `aembed_documents`)."""
        ids = kwargs.pop("ids", None)
        ns = kwargs.pop("namespace", self._namespace)
        documents = list(documents)
        plan = self._plan(documents, ids, ns)
        vectors = None
        if not self._native:
            every = await self._embedding.aembed_documents([d.page_content for d in documents])
            vectors = [every[n] for n in plan.positions]
        self._write(plan, vectors, ns)
        return plan.returned

    @staticmethod
    def _texts_to_documents(
        texts: Iterable[str], metadatas: list[dict[Any, Any]] | None
    ) -> list[Document]:
        texts = list(texts)
        if metadatas is not None and len(metadatas) != len(texts):
            raise ValueError(
                f"got {len(metadatas)} metadatas for {len(texts)} texts; pass one per text"
            )
        metas = metadatas if metadatas is not None else [{} for _ in texts]
        pairs = zip(texts, metas, strict=True)
        return [Document(page_content=t, metadata=m or {}) for t, m in pairs]

    def add_texts(
        self,
        texts: Iterable[str],
        metadatas: list[dict[Any, Any]] | None = None,
        *,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        """Embed and add texts; `ids` entries that are None get a generated id."""
        return self.add_documents(self._texts_to_documents(texts, metadatas), ids=ids, **kwargs)

    async def aadd_texts(
        self,
        texts: Iterable[str],
        metadatas: list[dict[Any, Any]] | None = None,
        *,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        """Async twin of `add_texts`."""
        docs = self._texts_to_documents(texts, metadatas)
        return await self.aadd_documents(docs, ids=ids, **kwargs)

    def _core_ids(self, ids: Iterable[Any]) -> list[str]:
        if self._facts.id_style != "qdrant":
            return [str(i) for i in ids]
        canonical = (canonical_qdrant_id(i) for i in ids)
        return [i for i in canonical if i is not None]  # Qdrant skips invalid ids silently

    def delete(self, ids: list[Any] | None = None, **kwargs: Any) -> bool | None:
        """Delete by id; the return value and the edge cases follow the integration.

        `ids=None` raises ValueError in every profile (as every real integration does), unless a
        Chroma-style `where=` or `where_document=` filter is given (chroma and default profiles):
        then the records that pass it, among `ids` if given, are deleted. Missing ids are
        ignored, except under the faiss profile, where any missing id raises and nothing is
        deleted (LangChain FAISS). Returns True (None under the chroma profile).
        """
        facts = self._facts
        ns = kwargs.pop("namespace", self._namespace)
        chroma, chroma_names = self._pop_chroma_filters(kwargs, ("where", "where_document"))
        where, where_document = chroma["where"], chroma["where_document"]
        self._reject_kwargs(kwargs, "delete", chroma_names)
        filtered = where is not None or where_document is not None
        if ids is None and not filtered:
            raise ValueError(facts.delete_none_error)
        given: object = ids
        if isinstance(given, str):
            raise TypeError("ids must be a list of ids, got a single str")
        id_list = None if ids is None else list(ids)
        if id_list == []:
            if facts.delete_empty_error is not None:
                raise ValueError(facts.delete_empty_error)
            return facts.delete_returns
        core_ids = None if id_list is None else self._core_ids(id_list)
        if facts.delete_missing_error is not None and core_ids is not None:
            missing = {i for i in core_ids if self._store.get(i, namespace=ns) is None}
            if missing:
                raise ValueError(facts.delete_missing_error.format(ids=missing))
        if filtered:
            translated = translate_filter(where, facts.filter_dialect, "metadata")
            self._store.delete(
                core_ids,
                namespace=ns,
                where=self._where(translated),
                where_document=where_document,
            )
        else:
            self._store.delete(core_ids or [], namespace=ns)
        return facts.delete_returns

    async def adelete(self, ids: list[Any] | None = None, **kwargs: Any) -> bool | None:
        """Async twin of `delete`."""
        return self.delete(ids, **kwargs)

    def _checked_get_ids(self, ids: list[Any]) -> list[str]:
        """The core ids of a read by id, refusing what the integration refuses."""
        facts = self._facts
        if not ids and facts.get_empty_error is not None:
            raise ValueError(facts.get_empty_error)
        if facts.get_duplicate_error is not None and len(set(ids)) != len(ids):
            seen: set[Any] = set()
            dups = [i for i in ids if i in seen or seen.add(i)]  # type: ignore[func-returns-value]
            raise ValueError(facts.get_duplicate_error.format(dups=", ".join(map(str, dups))))
        return self._core_ids(ids)

    def get(  # noqa: PLR0917 - langchain_chroma.Chroma.get's signature
        self,
        ids: str | list[str] | None = None,
        where: Any = None,
        limit: int | None = None,
        offset: int | None = None,
        where_document: Any = None,
        include: list[str] | None = None,
        *,
        namespace: str | None = None,
    ) -> dict[str, Any]:
        """Chroma's raw read (`langchain_chroma.Chroma.get`): a dict of parallel lists.

        Storage order, filtered by `ids`, `where` and `where_document`, then `offset` and
        `limit`; `include` picks among "documents", "metadatas" (the default pair) and
        "embeddings" (a float64 numpy array). Offered under every profile, with Chroma's
        conventions and messages (see `chroma_get.py`).
        """
        translated = translate_filter(where, self._facts.filter_dialect, "metadata")
        if translated.ids is not None:
            raise TypeError("get(where=...) takes metadata filters only")
        return chroma_get(
            self._store,
            self._namespace if namespace is None else namespace,
            ids=ids,
            where=self._where(translated),
            where_document=where_document,
            limit=limit,
            offset=offset,
            include=include,
            check_ids=self._checked_get_ids,
        )

    def get_by_ids(self, ids: Sequence[Any], /, *, namespace: str | None = None) -> list[Document]:
        """Documents for the ids that exist; missing ids are skipped.

        Order: request order with duplicates repeated (default, qdrant, faiss) or the store's
        listing order (chroma, which also rejects a repeated id and an empty list).
        """
        facts = self._facts
        ns = self._namespace if namespace is None else namespace
        core_ids = self._checked_get_ids(list(ids))
        if facts.get_order == "storage":
            wanted = set(core_ids)
            core_ids = [i for i in self._store.ids(ns) if i in wanted]
        docs = []
        for core_id in core_ids:
            record = self._store.get(core_id, namespace=ns)
            if record is not None and record.text is not None:
                docs.append(
                    to_document(
                        facts, record.id, record.text, record.metadata, self.collection_name
                    )
                )
        return docs

    async def aget_by_ids(
        self, ids: Sequence[Any], /, *, namespace: str | None = None
    ) -> list[Document]:
        """Async twin of `get_by_ids`."""
        return self.get_by_ids(ids, namespace=namespace)

    # --- searches -------------------------------------------------------------------------

    def _pop_chroma_filters(
        self, kwargs: dict[str, Any], names: tuple[str, ...]
    ) -> tuple[dict[str, Any], tuple[str, ...]]:
        """Chroma's extra filter arguments (``names``), popped from ``kwargs`` when the
        integration takes them: their values (None when absent or not taken) and the names to
        accept. Where they are not taken they stay in ``kwargs``, for `_reject_kwargs`."""
        if not self._facts.document_filter:
            return dict.fromkeys(names), ()
        return {name: kwargs.pop(name, None) for name in names}, names

    def _reject_kwargs(self, kwargs: dict[str, Any], method: str, accepted: Sequence[str]) -> None:
        if kwargs and self._facts.strict_kwargs:
            raise TypeError(
                f"{method}() got unexpected keyword argument(s) {', '.join(sorted(kwargs))} "
                f"(profile {self._facts.profile!r}, like {self._facts.integration}); "
                f"accepted: {', '.join(accepted) or 'none'}"
            )

    def _where(self, translated: TranslatedFilter) -> Any:
        """The core `where=`: the translated clause, or the callable as a core record condition.

        The core evaluates it at its filter step, so it follows the filter mode like a dict
        filter (FAISS post-filters callables over `fetch_k` too). A `Document` has no vector,
        so the records it is built from are read without theirs.
        """
        predicate = translated.predicate
        if predicate is None:
            return translated.where
        facts, name = self._facts, self.collection_name
        if translated.predicate_arg == "metadata":

            def on_metadata(record: Record) -> bool:
                if record.text is None:  # an orphan: FAISS's docstore miss raises here
                    to_document(facts, record.id, record.text, record.metadata, name)
                return bool(predicate(dict(record.metadata)))

            return record_condition(on_metadata, vector=False)

        def on_document(record: Record) -> bool:
            return bool(
                predicate(to_document(facts, record.id, record.text, record.metadata, name))
            )

        return record_condition(on_document, vector=False)

    def _query(
        self, query: str | list[float], k: int, flt: Any, kwargs: dict[str, Any], method: str
    ) -> list[Match]:
        facts = self._facts
        ns = kwargs.pop("namespace", self._namespace)
        fetch_k = kwargs.pop("fetch_k", None)
        threshold = kwargs.pop("score_threshold", None) if facts.score_threshold else None
        chroma, chroma_names = self._pop_chroma_filters(kwargs, ("where_document",))
        accepted = (
            ("k", "filter", *_SEARCH_KWARGS)
            + (("score_threshold",) if facts.score_threshold else ())
            + chroma_names
        )
        self._reject_kwargs(kwargs, method, accepted)
        translated = translate_filter(flt, facts.filter_dialect, facts.callable_filter_arg)
        if fetch_k is None and flt is not None:
            fetch_k = facts.default_fetch_k
        matches = self._store.query(
            self._unit_query(query),
            k,
            where=self._where(translated),
            namespace=ns,
            ids=translated.ids,
            fetch_k=fetch_k,
            where_document=chroma["where_document"],
        )
        if threshold is not None:
            matches = self._apply_threshold(matches, threshold)
        return matches

    def _apply_threshold(self, matches: list[Match], threshold: float) -> list[Match]:
        keeps_higher = self._facts.threshold_keeps_higher
        higher = (
            self._store.profile.higher_is_better
            if keeps_higher is None
            else self._setting in keeps_higher
        )
        if self._facts.score_threshold == "strict":
            keep = operator.gt if higher else operator.lt
        else:
            keep = operator.ge if higher else operator.le
        # Compared in the integration's number type: FAISS compares numpy.float32 scores, so a
        # Python-float threshold is rounded to float32 first (0.8 keeps a score of f32(0.8)).
        convert = self._facts.score_type
        return [m for m in matches if keep(convert(m.score), threshold)]

    def _pairs(self, matches: list[Match]) -> list[tuple[Document, float]]:
        facts = self._facts
        return [
            (
                to_document(facts, m.id, m.text, m.metadata, self.collection_name),
                facts.score_type(m.score),
            )
            for m in matches
        ]

    def _query_input(self, query: str) -> str | list[float]:
        return query if self._native else self._embedding.embed_query(query)

    async def _aquery_input(self, query: str) -> str | list[float]:
        return query if self._native else await self._embedding.aembed_query(query)

    def similarity_search_with_score(
        self, query: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Documents and the score the real integration reports (Chroma: distance; FAISS: a
        numpy.float32 squared L2; Qdrant: similarity; default: cosine similarity)."""
        matches = self._query(
            self._query_input(query), k, filter, kwargs, "similarity_search_with_score"
        )
        return self._pairs(matches)

    async def asimilarity_search_with_score(
        self, query: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Async twin of `similarity_search_with_score`."""
        vector = await self._aquery_input(query)
        return self._pairs(self._query(vector, k, filter, kwargs, "similarity_search_with_score"))

    def similarity_search(
        self, query: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[Document]:
        """The `k` nearest documents (after the profile's filtering)."""
        return [doc for doc, _ in self.similarity_search_with_score(query, k, filter, **kwargs)]

    async def asimilarity_search(
        self, query: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[Document]:
        """Async twin of `similarity_search`."""
        pairs = await self.asimilarity_search_with_score(query, k, filter, **kwargs)
        return [doc for doc, _ in pairs]

    def similarity_search_with_score_by_vector(
        self, embedding: list[float], k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Like `similarity_search_with_score`, for a query vector."""
        matches = self._query(
            list(embedding), k, filter, kwargs, "similarity_search_with_score_by_vector"
        )
        return self._pairs(matches)

    def similarity_search_by_vector(
        self, embedding: list[float], k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[Document]:
        """Like `similarity_search`, for a query vector."""
        pairs = self.similarity_search_with_score_by_vector(embedding, k, filter, **kwargs)
        return [doc for doc, _ in pairs]

    async def asimilarity_search_by_vector(
        self, embedding: list[float], k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[Document]:
        """Async twin of `similarity_search_by_vector`."""
        return self.similarity_search_by_vector(embedding, k, filter, **kwargs)

    def _select_relevance_score_fn(self) -> Callable[[float], float]:
        """The real integration's relevance function for the store's metric (or the override).

        These are reproduced even where they leave [0, 1] (LangChain then warns) or invert
        the ranking (Qdrant DOT, FAISS inner product): see the README's fidelity table.
        """
        if self._relevance_override is not None:
            return self._relevance_override
        try:
            return self._facts.relevance[self._setting]
        except KeyError:
            raise ValueError(self._facts.relevance_error.format(metric=self._setting)) from None

    # --- maximal marginal relevance -------------------------------------------------------

    def _mmr(  # noqa: PLR0917 - mirrors LangChain's positional MMR signature
        self,
        query: str | list[float],
        k: int,
        fetch_k: int,
        lambda_mult: float,
        flt: Any,
        kwargs: dict[str, Any],
    ) -> list[Match]:
        facts = self._facts
        ns = kwargs.pop("namespace", self._namespace)
        chroma, chroma_names = self._pop_chroma_filters(kwargs, ("where_document",))
        accepted = ("k", "fetch_k", "lambda_mult", "filter", *chroma_names)
        self._reject_kwargs(kwargs, "max_marginal_relevance_search", accepted)
        translated = translate_filter(flt, facts.filter_dialect, facts.callable_filter_arg)
        if flt is not None:
            fetch_k *= facts.mmr_filter_window
        return self._store.max_marginal_relevance(
            self._unit_query(query),
            k,
            fetch_k=fetch_k,
            lambda_mult=1.0 - lambda_mult if facts.mmr_lambda_inverted else lambda_mult,
            where=self._where(translated),
            namespace=ns,
            ids=translated.ids,
            order=facts.mmr_order,
            where_document=chroma["where_document"],
        )

    def max_marginal_relevance_search_with_score_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """MMR picks with the score each pick has in a plain search (FAISS/Qdrant style)."""
        return self._pairs(self._mmr(list(embedding), k, fetch_k, lambda_mult, filter, kwargs))

    def max_marginal_relevance_search_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[Document]:
        """MMR over the `fetch_k` nearest (lambda 1 = pure relevance, 0 = most diverse)."""
        pairs = self.max_marginal_relevance_search_with_score_by_vector(
            embedding, k, fetch_k, lambda_mult, filter, **kwargs
        )
        return [doc for doc, _ in pairs]

    def max_marginal_relevance_search(
        self,
        query: str,
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[Document]:
        """MMR for a text query; order and lambda convention follow the integration."""
        self._probe_embedding("mmr")
        matches = self._mmr(self._query_input(query), k, fetch_k, lambda_mult, filter, kwargs)
        return [doc for doc, _ in self._pairs(matches)]

    async def amax_marginal_relevance_search(
        self,
        query: str,
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[Document]:
        """Async twin of `max_marginal_relevance_search`."""
        self._probe_embedding("mmr")
        vector = await self._aquery_input(query)
        matches = self._mmr(vector, k, fetch_k, lambda_mult, filter, kwargs)
        return [doc for doc, _ in self._pairs(matches)]

    async def amax_marginal_relevance_search_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[Document]:
        """Async twin of `max_marginal_relevance_search_by_vector`."""
        return self.max_marginal_relevance_search_by_vector(
            embedding, k, fetch_k, lambda_mult, filter, **kwargs
        )

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def from_texts(
        cls,
        texts: list[str],
        embedding: Embeddings,
        metadatas: list[dict[Any, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """Build a store (constructor options as keyword arguments) and add the texts."""
        store = cls(embedding, **kwargs)
        store.add_texts(texts, metadatas, ids=ids)
        return store

    @classmethod
    async def afrom_texts(
        cls,
        texts: list[str],
        embedding: Embeddings,
        metadatas: list[dict[Any, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """Async twin of `from_texts`."""
        store = cls(embedding, **kwargs)
        await store.aadd_texts(texts, metadatas, ids=ids)
        return store

    def __repr__(self) -> str:
        return (
            f"PlaceboVectorStore(profile={self._store.profile.name!r}, "
            f"metric={self._store.profile.metric!r}, "
            + (f"distance_strategy={self._setting!r}, " if self._facts.distance_settings else "")
            + f"namespace={self._namespace!r}, "
            f"count={self._store.count(self._namespace)})"
        )
