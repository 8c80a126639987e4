"""`PlaceboEmbeddings`: LangChain's `Embeddings` interface over the core `FakeEmbedder`.

LangChain's own fakes are either random on every call or deterministic but without any geometry
(identical texts match, nothing else is near anything). This class hands LangChain the core
embedder instead, so texts that share words land near each other and declared clusters hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from langchain_core.embeddings import Embeddings

from placeborag_core import FakeEmbedder

__all__ = ["PlaceboEmbeddings", "core_embedder_of"]


class PlaceboEmbeddings(Embeddings):
    """Deterministic LangChain embeddings with the core embedder's geometry.

    The constructor takes the `FakeEmbedder` options (and validates them the same way), or an
    already built `embedder`, never both. Every vector is a `list` of Python floats with unit
    L2 norm; batches go through the vectorised `embed_lists` path in one call.
    """

    def __init__(
        self,
        model_name: str = "placeborag-hash-v1",
        dimensions: int = 384,
        clusters: Mapping[str, Sequence[str]] | None = None,
        cluster_match: Literal["exact", "substring"] = "exact",
        cluster_spread: float = 0.2,
        *,
        embedder: FakeEmbedder | None = None,
    ) -> None:
        if embedder is not None:
            if not isinstance(embedder, FakeEmbedder):
                raise TypeError(
                    "embedder must be a placeborag_core.FakeEmbedder, got "
                    f"{type(embedder).__name__}"
                )
            self._embedder = embedder
        else:
            self._embedder = FakeEmbedder(
                model_name=model_name,
                dimensions=dimensions,
                clusters=clusters,
                cluster_match=cluster_match,
                cluster_spread=cluster_spread,
            )

    @property
    def core_embedder(self) -> FakeEmbedder:
        """The wrapped core embedder (for seeding, manifests and `explain`)."""
        return self._embedder

    @property
    def model_name(self) -> str:
        """The embedding space's model name (changing it changes every vector)."""
        return self._embedder.model_name

    @property
    def dimensions(self) -> int:
        """Length of every vector."""
        return self._embedder.dimensions

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed a batch of texts in one vectorised pass."""
        given: object = texts
        if isinstance(given, str | bytes):
            raise TypeError(
                f"embed_documents expects a list of str, got a single {type(given).__name__}"
            )
        if isinstance(given, Mapping) or not isinstance(given, Iterable):
            raise TypeError(f"embed_documents expects a list of str, got {type(given).__name__}")
        texts = list(texts)
        if not texts:
            return []
        return self._embedder.embed_lists(texts)

    def embed_query(self, text: str) -> list[float]:
        """Embed one query text (the same vector `embed_documents([text])[0]` gives)."""
        return self._embedder.embed(text)

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        """Async twin of `embed_documents`: computed inline, no executor thread."""
        return self.embed_documents(texts)

    async def aembed_query(self, text: str) -> list[float]:
        """Async twin of `embed_query`: computed inline, no executor thread."""
        return self.embed_query(text)

    def __repr__(self) -> str:
        return f"PlaceboEmbeddings(model_name={self.model_name!r}, dimensions={self.dimensions})"

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its options (the core embedder holds caches and a lock): the copy embeds
        every text to the same vector."""
        core = self._embedder
        options = (
            core.model_name,
            core.dimensions,
            core.clusters or None,
            core.cluster_match,
            core.cluster_spread,
        )
        return (type(self), options)


def core_embedder_of(embedding: object) -> FakeEmbedder | None:
    """The core embedder of `embedding` when it is our own embeddings with its methods untouched
    (None otherwise).

    A store then hands texts to the core store as text, to be embedded there in one vectorised
    pass (the same vectors `embed_documents` would return); any other `Embeddings` is called
    through its public methods and the core receives vectors.
    """
    if not isinstance(embedding, PlaceboEmbeddings):
        return None
    cls = type(embedding)
    untouched = all(
        getattr(cls, name) is getattr(PlaceboEmbeddings, name)
        for name in ("embed_documents", "embed_query", "aembed_documents", "aembed_query")
    )
    return embedding.core_embedder if untouched else None
