"""Shared LlamaIndex plumbing of the li_* probes: nodes a..f, an index over a store, retrieval."""

from __future__ import annotations

import uuid
import warnings
from typing import Any

from _table import DOCS, META, llamaindex_embedding

warnings.filterwarnings("ignore", message="Payload indexes have no effect")


def node_id(text: str) -> str:
    """A UUID node id whose order follows the text's place in a..f (Qdrant needs UUIDs)."""
    return str(uuid.UUID(int=DOCS.index(text) + 1)) if text in DOCS else text


def nodes(texts=DOCS, ids=None, metadata=None) -> list[Any]:
    from llama_index.core.schema import TextNode

    return [
        TextNode(
            text=text,
            id_=(ids[i] if ids else node_id(text)),
            metadata=dict(metadata[i] if metadata else META.get(text, {})),
        )
        for i, text in enumerate(texts)
    ]


def index_over(store: Any, items: list[Any] | None = None) -> Any:
    """A VectorStoreIndex over ``store``, built through a StorageContext, with the table
    embedder."""
    from llama_index.core import StorageContext, VectorStoreIndex

    context = StorageContext.from_defaults(vector_store=store)
    return VectorStoreIndex(
        nodes() if items is None else items,
        storage_context=context,
        embed_model=llamaindex_embedding(),
    )


def retrieve(index: Any, query: str = "q", k: int = 6, **kwargs: Any) -> list[Any]:
    return index.as_retriever(similarity_top_k=k, **kwargs).retrieve(query)


def texts(index: Any, **kwargs: Any) -> list[str]:
    return [hit.node.get_content() for hit in retrieve(index, **kwargs)]


def filters(*items: tuple[str, str, Any], condition: str | None = "and") -> Any:
    """MetadataFilters from (key, operator, value) triples (operator as in FilterOperator)."""
    from llama_index.core.vector_stores.types import (
        FilterCondition,
        FilterOperator,
        MetadataFilter,
        MetadataFilters,
    )

    built = [
        item
        if not isinstance(item, tuple)
        else MetadataFilter(key=item[0], operator=FilterOperator(item[1]), value=item[2])
        for item in items
    ]
    return MetadataFilters(
        filters=built, condition=FilterCondition(condition) if condition else None
    )


def one(key: str, value: Any, op: Any = "==") -> Any:
    """MetadataFilters of one condition ``key op value`` (``op``: a FilterOperator or its
    value)."""
    from llama_index.core.vector_stores.types import FilterOperator, MetadataFilter, MetadataFilters

    return MetadataFilters(
        filters=[MetadataFilter(key=key, value=value, operator=FilterOperator(op))]
    )
