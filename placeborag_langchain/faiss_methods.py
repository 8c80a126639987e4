"""LangChain `FAISS`'s own methods, offered under every profile.

Adding texts with their own vectors (`add_embeddings` in FAISS's form or PGVector's,
`from_embeddings`), the async searches by
vector with scores, merging another store in (`merge_from`) and `embedding_function`, each with
FAISS's signature, return type and errors (`docs/integrations/langchain-parity.md`). Saving and
loading (`save_local`, `load_local`, ...) are in `persistence_methods`.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from placeborag_langchain.store_parts import StoreParts

if TYPE_CHECKING:
    from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = ["FaissMethods"]


def _text_embedding_pairs(text_embeddings: Any, method: str) -> tuple[list[str], list[Any]]:
    if isinstance(text_embeddings, str | bytes | Mapping) or not isinstance(
        text_embeddings, Iterable
    ):
        raise TypeError(
            f"{method}() text_embeddings must be an iterable of (text, embedding) pairs, got "
            f"{type(text_embeddings).__name__}"
        )
    texts: list[str] = []
    vectors: list[Any] = []
    for position, pair in enumerate(text_embeddings):
        if isinstance(pair, str | bytes) or not isinstance(pair, Iterable):
            raise TypeError(
                f"{method}() text_embeddings[{position}] must be a (text, embedding) pair, got "
                f"{type(pair).__name__}"
            )
        items = list(pair)
        if len(items) != 2:
            raise ValueError(
                f"{method}() text_embeddings[{position}] must be a (text, embedding) pair, got "
                f"{len(items)} items"
            )
        vector = items[1]
        if isinstance(vector, str | bytes) or not isinstance(vector, Iterable):
            raise TypeError(
                f"{method}() text_embeddings[{position}] embedding must be a sequence of "
                f"numbers, got {type(vector).__name__}"
            )
        texts.append(items[0])
        vectors.append(vector)
    if not texts:
        # FAISS unpacks zip(*pairs): ValueError for no pair at all.
        raise ValueError(
            f"{method}() text_embeddings is empty; give at least one (text, embedding) pair"
        )
    return texts, vectors


def _faiss_form(
    text_embeddings: Any, metadatas: Any = None, ids: Any = None, **kwargs: Any
) -> None:
    """FAISS's `add_embeddings` parameters (bound by `_embedding_call`)."""


def _pgvector_form(
    texts: Any, embeddings: Any, metadatas: Any = None, ids: Any = None, **kwargs: Any
) -> None:
    """PGVector's `add_embeddings` parameters (bound by `_embedding_call`)."""


def _embedding_call(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[list[str], list[Any], Any, Any, dict[str, Any]]:
    """Texts, vectors, metadatas, ids and the other keywords of an `add_embeddings` call in
    FAISS's form (pairs) or PGVector's (parallel lists: `texts=`/`embeddings=` named, or a
    first argument of str items, which a pair is not). TypeError as Python raises it for
    arguments that fit neither."""
    first = args[0] if args else kwargs.get("texts")
    pgvector = "texts" in kwargs or "embeddings" in kwargs
    if not pgvector and isinstance(first, list | tuple) and first:
        pgvector = all(isinstance(item, str) for item in first)
    form = _pgvector_form if pgvector else _faiss_form
    bound = inspect.signature(form).bind(*args, **kwargs).arguments
    rest = dict(bound.get("kwargs", {}))
    if not pgvector:
        texts, vectors = _text_embedding_pairs(bound["text_embeddings"], "add_embeddings")
        return texts, vectors, bound.get("metadatas"), bound.get("ids"), rest
    texts, vectors = list(bound["texts"]), list(bound["embeddings"])
    if len(texts) != len(vectors):
        raise ValueError(
            f"add_embeddings() got {len(texts)} texts and {len(vectors)} embeddings; give one "
            "embedding per text"
        )
    texts, vectors = _text_embedding_pairs(list(zip(texts, vectors, strict=True)), "add_embeddings")
    return texts, vectors, bound.get("metadatas"), bound.get("ids"), rest


class FaissMethods(StoreParts):
    """FAISS's vectors-given adds, async searches by vector and merging."""

    @property
    def embedding_function(self) -> Embeddings:
        """FAISS's name for the store's `Embeddings`."""
        return self._embedding

    def add_embeddings(self, *args: Any, **kwargs: Any) -> list[str]:
        """Add texts with their own embeddings: nothing is embedded, and `normalize_L2` applies
        to them as to any added vector. Two real forms: FAISS's `add_embeddings(
        text_embeddings, metadatas=None, ids=None)` with (text, vector) pairs, and PGVector's
        `add_embeddings(texts, embeddings, metadatas=None, ids=None)` with parallel lists
        (taken when `texts=`/`embeddings=` is named or the first argument holds str items)."""
        from placeborag_langchain.writes import texts_to_documents

        texts, vectors, metadatas, ids, rest = _embedding_call(args, kwargs)
        docs = texts_to_documents(texts, metadatas, method="add_embeddings")
        return self._writes.add_vectors(docs, vectors, {"ids": ids, **rest})

    async def aadd_embeddings(self, *args: Any, **kwargs: Any) -> list[str]:
        """Async twin of `add_embeddings` (PGVector's `aadd_embeddings`)."""
        return self.add_embeddings(*args, **kwargs)

    @classmethod
    def from_embeddings(
        cls,
        text_embeddings: Iterable[tuple[str, list[float]]],
        embedding: Embeddings,
        metadatas: list[dict[Any, Any]] | None = None,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """Build a store (constructor options as keyword arguments) holding texts with their
        own embeddings (FAISS's `from_embeddings`)."""
        pairs = list(text_embeddings) if isinstance(text_embeddings, Iterable) else text_embeddings
        _text_embedding_pairs(pairs, "from_embeddings")
        store: PlaceboVectorStore = cls(embedding, **kwargs)  # type: ignore[assignment,call-arg]
        store.add_embeddings(pairs, metadatas, ids)
        return store

    @classmethod
    async def afrom_embeddings(
        cls,
        text_embeddings: Iterable[tuple[str, list[float]]],
        embedding: Embeddings,
        metadatas: list[dict[Any, Any]] | None = None,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """Async twin of `from_embeddings`."""
        return cls.from_embeddings(text_embeddings, embedding, metadatas, ids, **kwargs)

    async def asimilarity_search_with_score_by_vector(
        self, embedding: list[float], k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Async twin of `similarity_search_with_score_by_vector`."""
        return self.similarity_search_with_score_by_vector(embedding, k, filter, **kwargs)

    async def amax_marginal_relevance_search_with_score_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """Async twin of `max_marginal_relevance_search_with_score_by_vector`."""
        return self.max_marginal_relevance_search_with_score_by_vector(
            embedding, k, fetch_k, lambda_mult, filter, **kwargs
        )

    def merge_from(self, target: PlaceboVectorStore) -> None:
        """Add every document of `target` to this store, with its stored vector as is (FAISS's
        `merge_from`; `target` is not changed). Raises before anything is added when the stores
        do not fit (another profile or metric, another vector width) or an id is in both
        (FAISS's docstore error; FAISS raises it after the index has grown, which corrupts
        it: `docs/integrations/langchain.md#lc-faiss-merge-existing`)."""
        from placeborag_langchain.vectorstore import PlaceboVectorStore

        if not isinstance(target, PlaceboVectorStore):
            raise TypeError(
                f"merge_from() target must be a PlaceboVectorStore, got {type(target).__name__}"
            )
        mine, theirs = self._store.profile, target.core_store.profile
        if (mine.name, mine.metric) != (theirs.name, theirs.metric):
            raise ValueError(
                f"merge_from() target has profile {theirs.name!r} with metric "
                f"{theirs.metric!r}; this store has {mine.name!r} with {mine.metric!r} (FAISS "
                "merges only indexes of the same type)"
            )
        target._guard.check()
        ids, texts, metas, vectors = target.core_store.snapshot(target.namespace)
        if not ids:
            return
        width, own = vectors.shape[1], self._store.dimension
        if own is not None and own != width:
            raise ValueError(
                f"merge_from() target holds vectors of dimension {width}; this store holds {own}"
            )
        docs = [
            Document(page_content=t or "", metadata=m) for t, m in zip(texts, metas, strict=True)
        ]
        self._writes.add_vectors(docs, list(vectors), {"ids": ids}, unit=False)
