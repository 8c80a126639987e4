"""``PlaceboEmbedding``: LlamaIndex's ``BaseEmbedding`` over the deterministic ``FakeEmbedder``.

The options of ``FakeEmbedder`` are pydantic fields, so they are validated at construction, appear
in ``to_dict()`` and come back with ``from_dict()``; the embedder built from them is private state
that pydantic never serialises. Batches go through ``embed_lists`` in one vectorised call.
``embed_batch_size`` defaults to 256 rather than LlamaIndex's 10 (a span, an event and a
validation of every float per batch) or its maximum of 2048: LlamaIndex copies and validates each
batch's vectors right after we build them, and at 256 rows both copies still sit in a core's
cache (``benchmarks/llamaindex_store.py``; measured on 10,000 texts: 2048 rows per batch took
~25% longer).

Remember that ``VectorStoreIndex`` embeds ``node.get_content(MetadataMode.EMBED)``, which starts
with a ``key: value`` header of the node's metadata; exclude keys with
``excluded_embed_metadata_keys`` if a test reasons about the vector of the bare text.
"""

from __future__ import annotations

from typing import Any, Literal

from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import ConfigDict, Field, PrivateAttr, StrictFloat, StrictInt, StrictStr

from placeborag_core import FakeEmbedder
from placeborag_llamaindex import inputs

__all__ = ["PlaceboEmbedding"]

_MAX_BATCH = 2048  # BaseEmbedding.embed_batch_size is declared with le=2048
_DEFAULT_BATCH = 256


class PlaceboEmbedding(BaseEmbedding):
    """A drop-in LlamaIndex embedding model whose vectors are a pure function of the text.

    Works as ``Settings.embed_model = PlaceboEmbedding()`` and as ``embed_model=`` of an index,
    a retriever or an ``IngestionPipeline`` transformation. Query and text embeddings are the
    same function (an embedding space with no query/document asymmetry).

    The embedder options are frozen fields: they build the embedder once, so assigning one
    afterwards raises instead of silently changing nothing. Build a new model instead.
    """

    model_config = ConfigDict(extra="forbid")

    model_name: StrictStr = Field(
        default="placeborag-hash-v1",
        frozen=True,
        description="Names the embedding space; another name gives unrelated vectors.",
    )
    dimensions: StrictInt = Field(default=384, frozen=True, description="Vector length.")
    clusters: dict[str, list[str]] | None = Field(
        default=None,
        frozen=True,
        description="Optional {cluster name: member texts}; members land near their anchor.",
    )
    cluster_match: Literal["exact", "substring"] = Field(
        default="exact", frozen=True, description="How a text joins a declared cluster."
    )
    cluster_spread: StrictFloat = Field(
        default=0.2,
        frozen=True,
        description="Upper bound of a member's jitter around its cluster anchor.",
    )
    embed_batch_size: StrictInt = Field(
        default=_DEFAULT_BATCH,
        gt=0,
        le=_MAX_BATCH,
        description="Texts per call of the vectorised batch path.",
    )
    num_workers: StrictInt | None = Field(
        default=None, description="Workers for async embedding calls (BaseEmbedding's)."
    )

    _embedder: FakeEmbedder = PrivateAttr()

    def __init__(self, **data: Any) -> None:
        inputs.keyword_arguments("PlaceboEmbedding()", data, list(type(self).model_fields))
        super().__init__(**data)
        self._embedder = FakeEmbedder(
            model_name=self.model_name,
            dimensions=self.dimensions,
            clusters=self.clusters,
            cluster_match=self.cluster_match,
            cluster_spread=self.cluster_spread,
        )

    @classmethod
    def class_name(cls) -> str:
        return "PlaceboEmbedding"

    @property
    def core_embedder(self) -> FakeEmbedder:
        """The ``placeborag_core.FakeEmbedder`` producing the vectors (shared, not a copy)."""
        return self._embedder

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._embedder.embed(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._embedder.embed(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._embedder.embed(text)

    async def _aget_text_embedding(self, text: str) -> list[float]:
        return self._embedder.embed(text)

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._embedder.embed_lists(texts)

    async def _aget_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._get_text_embeddings(texts)
