"""One store's searches: similarity (with the integration's `score_threshold`) and MMR.

Ranking, filtering and ties happen in the core store; this module turns a LangChain search
call into a core call the way the real integration would make it: how it embeds the query (and
the dimension probes a counting embedder sees), which keyword arguments it takes, how many
candidates a post-filter sees (FAISS: `fetch_k`, which Chroma and Qdrant refuse), how
`score_threshold` compares, and MMR's candidate window, lambda convention and result order.
Facts:
`docs/integrations/langchain.md#lc-qdrant-embedding-probe`, `#lc-qdrant-embedding-probe-mmr`,
`#lc-faiss-postfilter`, `#lc-qdrant-threshold-strict`, `#lc-faiss-threshold`,
`#lc-chroma-mmr-order`, `#lc-qdrant-mmr`, `#lc-faiss-mmr`, `#lc-chroma-search-fetch-k`,
`#lc-qdrant-search-fetch-k`.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any, Literal

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from placeborag_core import FakeVectorStore, Match
from placeborag_langchain.arguments import (
    checked_namespace,
    checked_threshold,
    refuse_unimitated,
    reject_unknown,
    take_document_filters,
)
from placeborag_langchain.distance import DistanceOptions
from placeborag_langchain.filters import StoreFilters
from placeborag_langchain.integration_facts import IntegrationFacts
from placeborag_langchain.typed_fields import Collections

__all__ = ["Search"]


def _checked_offset(offset: Any) -> int:
    """Qdrant's `offset`: an int >= 0 (TypeError or ValueError naming it)."""
    if isinstance(offset, bool) or not isinstance(offset, int):
        raise TypeError(f"offset must be an int >= 0, got {type(offset).__name__} {offset!r}")
    if offset < 0:
        raise ValueError(f"offset must be an int >= 0, got {offset}")
    return offset


class Search:
    """The searches of one store over its core store, as its integration runs them.

    `embedding` embeds text queries unless `native` (the store's own `PlaceboEmbeddings`,
    untouched): then a text query goes to the core as text and is embedded there.
    """

    def __init__(  # noqa: PLR0917 - the store's parts, in the order the store builds them
        self,
        core: FakeVectorStore,
        facts: IntegrationFacts,
        distance: DistanceOptions,
        filters: StoreFilters,
        namespace: str,
        embedding: Embeddings,
        native: bool,
        guard: Callable[[], None],
        collections: Collections | None = None,
    ) -> None:
        self._collections = collections
        self._guard = guard
        self._core = core
        self._facts = facts
        self._distance = distance
        self._filters = filters
        self._namespace = namespace
        self._embedding = embedding
        self._native = native

    def text_query(self, query: str) -> str | list[float]:
        """A text query as the core receives it: the text itself, or its embedding."""
        return query if self._native else self._embedding.embed_query(query)

    async def atext_query(self, query: str) -> str | list[float]:
        """Async twin of `text_query` (embeds with `aembed_query`)."""
        return query if self._native else await self._embedding.aembed_query(query)

    def probe_embedding(self, occasion: Literal["init", "mmr"]) -> None:
        """Repeat the integration's dimension probe (a call a counting embedder would see)."""
        if occasion in self._facts.embedding_probes and not self._native:
            self._embedding.embed_documents(["dummy_text"])

    def _filter_argument(self, flt: Any, kwargs: dict[str, Any]) -> Any:
        """The call's filter: `filter=`, or the integration's own keyword (langchain-milvus's
        `expr=`, which then refuses `filter=` as the real class does)."""
        facts = self._facts
        if facts.filter_kwarg == "filter":
            return flt
        if flt is not None and facts.filter_conflict is not None:
            kind, message = facts.filter_conflict
            raise kind(message)
        return kwargs.pop(facts.filter_kwarg, None)

    def _no_collection(self, namespace: str) -> bool:
        """Whether the namespace's collection does not exist yet (langchain-milvus: searches
        then return nothing, `#lc-milvus-search-before-collection`)."""
        return self._collections is not None and not self._collections.exists(namespace)

    def query(
        self, query: str | list[float], k: int, flt: Any, kwargs: dict[str, Any], method: str
    ) -> list[Match]:
        """A similarity search for `method` (named in errors), `kwargs` being the call's
        extra keyword arguments."""
        self._guard()
        facts = self._facts
        refuse_unimitated(facts, kwargs, method)
        ns = checked_namespace(kwargs.pop("namespace", self._namespace))
        flt = self._filter_argument(flt, kwargs)
        if self._no_collection(ns):
            return []
        fetch_k = kwargs.pop("fetch_k", None) if facts.search_fetch_k else None
        threshold = None
        if facts.score_threshold:
            threshold = checked_threshold(kwargs.pop("score_threshold", None))
        offset = _checked_offset(kwargs.pop("offset", 0)) if facts.search_offset else 0
        filter_mode: Literal["pre", "post"] | None = None
        if facts.filter_mode_kwarg is not None and facts.filter_mode_kwarg in kwargs:
            filter_mode = "pre" if kwargs.pop(facts.filter_mode_kwarg) else "post"
        for name in facts.ignored_search_kwargs:
            kwargs.pop(name, None)
        extra, extra_names = take_document_filters(facts, kwargs, ("where_document",))
        accepted = (
            ("k", facts.filter_kwarg, "namespace")
            + (("fetch_k",) if facts.search_fetch_k else ())
            + (("score_threshold",) if facts.score_threshold else ())
            + (("offset",) if facts.search_offset else ())
            + facts.ignored_search_kwargs
            + extra_names
        )
        reject_unknown(facts, kwargs, method, accepted)
        translated = self._filters.translate(flt, namespace=ns)
        if fetch_k is None and flt is not None:
            fetch_k = facts.default_fetch_k
        wanted = k + offset if isinstance(k, int) and not isinstance(k, bool) else k
        matches = self._core.query(
            self._distance.unit_query(query),
            wanted,
            where=self._filters.where(translated),
            namespace=ns,
            ids=translated.ids,
            fetch_k=fetch_k,
            where_document=extra["where_document"],
            filter_mode=filter_mode,
        )
        self._warn_if_empty(matches)
        if threshold is not None:
            matches = self._threshold(matches, threshold)
        return matches[offset:] if offset else matches

    def _warn_if_empty(self, matches: list[Match]) -> None:
        """The integration's warning for a search that found nothing (LanceDB's)."""
        if not matches and self._facts.empty_result_warning is not None:
            warnings.warn(self._facts.empty_result_warning, UserWarning, stacklevel=4)

    def _threshold(self, matches: list[Match], threshold: float) -> list[Match]:
        higher = self._distance.keeps_higher(self._facts, self._core.profile)
        if self._facts.score_threshold == "strict":
            keep = operator.gt if higher else operator.lt
        else:
            keep = operator.ge if higher else operator.le
        # Compared in the integration's number type: FAISS compares numpy.float32 scores, so a
        # Python-float threshold is rounded to float32 first (0.8 keeps a score of f32(0.8)).
        convert = self._facts.score_type
        return [m for m in matches if keep(convert(m.score), threshold)]

    def mmr(  # noqa: PLR0917 - mirrors LangChain's positional MMR signature
        self,
        query: str | list[float],
        k: int,
        fetch_k: int,
        lambda_mult: float,
        flt: Any,
        kwargs: dict[str, Any],
    ) -> list[Match]:
        """A maximal-marginal-relevance search, `kwargs` being the call's extra keyword
        arguments."""
        self._guard()
        facts = self._facts
        refuse_unimitated(facts, kwargs, "max_marginal_relevance_search")
        ns = checked_namespace(kwargs.pop("namespace", self._namespace))
        flt = self._filter_argument(flt, kwargs)
        if self._no_collection(ns):
            return []
        if isinstance(lambda_mult, bool) or not isinstance(lambda_mult, int | float):
            raise TypeError(
                f"lambda_mult must be a number in [0, 1], got {type(lambda_mult).__name__} "
                f"{lambda_mult!r}"
            )
        threshold = None
        if facts.search_offset:  # Qdrant's MMR takes score_threshold too
            threshold = checked_threshold(kwargs.pop("score_threshold", None))
        for name in facts.ignored_search_kwargs:
            kwargs.pop(name, None)
        extra, extra_names = take_document_filters(facts, kwargs, ("where_document",))
        accepted = (
            ("k", "fetch_k", "lambda_mult", facts.filter_kwarg)
            + (("score_threshold",) if facts.search_offset else ())
            + facts.ignored_search_kwargs
            + extra_names
        )
        reject_unknown(facts, kwargs, "max_marginal_relevance_search", accepted)
        translated = self._filters.translate(flt, namespace=ns)
        if flt is not None:
            fetch_k *= facts.mmr_filter_window
        vector = self._distance.unit_query(query)
        where = self._filters.where(translated)
        ids = translated.ids
        if self._collections is not None:
            error = self._collections.no_candidates_error()
            if error is not None and not self._core.query(
                vector, fetch_k, where=where, namespace=ns, ids=ids, fetch_k=fetch_k
            ):
                raise error
        if threshold is not None:
            # Only the candidates above the threshold take part (Qdrant's engine).
            nearest = self._core.query(
                vector, fetch_k, where=where, namespace=ns, ids=ids, fetch_k=fetch_k
            )
            ids = frozenset(m.id for m in self._threshold(nearest, threshold))
        if self._facts.empty_result_warning is not None:  # its candidate search warns
            self._warn_if_empty(
                self._core.query(vector, fetch_k, where=where, namespace=ns, ids=ids)
            )
        return self._core.max_marginal_relevance(
            vector,
            k,
            fetch_k=fetch_k,
            lambda_mult=1.0 - lambda_mult if facts.mmr_lambda_inverted else lambda_mult,
            where=where,
            namespace=ns,
            ids=ids,
            order=facts.mmr_order,
            where_document=extra["where_document"],
        )

    def pairs(self, matches: list[Match]) -> list[tuple[Document, float]]:
        """Documents with the score in the integration's number type."""
        document, score_type = self._filters.document, self._facts.score_type
        return [(document(m.id, m.text, m.metadata), score_type(m.score)) for m in matches]
