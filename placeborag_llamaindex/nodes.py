"""LlamaIndex nodes as core records and back, the way the text-storing integrations store them.

A node is stored as its text (the record's text), ``node_to_metadata_dict(node,
remove_text=True)`` (the record's metadata: the node's own keys plus LlamaIndex's bookkeeping
``_node_content``, ``_node_type``, ``doc_id``, ``document_id``, ``ref_doc_id``) and its embedding.
So a node comes back whole (relationships, excluded keys, node type), and the implicit keys can
be filtered on. Facts: ``docs/integrations/llamaindex.md#li-chroma-stored-keys``,
``#li-qdrant-payload``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from llama_index.core.schema import BaseNode, MetadataMode, TextNode
from llama_index.core.vector_stores.types import VectorStoreQueryResult
from llama_index.core.vector_stores.utils import metadata_dict_to_node, node_to_metadata_dict

from placeborag_core import Match, Record
from placeborag_core.adapter_kit import require_unicode
from placeborag_core.backends import IdRule

if TYPE_CHECKING:
    from placeborag_llamaindex.integrations import IntegrationFacts

__all__ = ["NodeCodec", "NodeIdError", "NodeRecord", "node_record_id"]

NodeRecord = tuple[str, str, dict[str, Any], list[float]]
"""A node as the core writes it: record id, text, metadata, vector."""


class NodeIdError(ValueError):
    """The engine's id rule refused a node id (the engine's message): a check the engine makes,
    so a store without its collection raises its "not found" first (``DroppedByClear.passes``).
    """


def node_record_id(ids: IdRule, node_id: object) -> str | None:
    """The record id of a node id under the engine's id rule, or None if the engine rejects it.

    LlamaIndex node ids are str, so anything else is rejected; the engine's client rule decides
    the rest (Qdrant: a UUID, in any spelling, kept in its canonical form).
    """
    return ids.canonical(node_id) if isinstance(node_id, str) else None


@dataclass(frozen=True)
class NodeCodec:
    """Converts between LlamaIndex nodes and core records under one integration and engine."""

    integration: IntegrationFacts
    ids: IdRule

    def record_id(self, node_id: object) -> str:
        """``node_id`` as a record id; ``NodeIdError`` (a ``ValueError``) with the engine's message
        if rejected."""
        record_id = node_record_id(self.ids, node_id)
        if record_id is None:
            raise NodeIdError(self.ids.message.format(id=node_id))
        return record_id

    def record_ids(self, node_ids: Sequence[str] | None) -> list[str] | None:
        """Each of ``node_ids`` as a record id (None stays None: no id restriction)."""
        if node_ids is None:
            return None
        return [self.record_id(node_id) for node_id in node_ids]

    def contents(self, node: BaseNode) -> tuple[str, dict[str, Any], list[float]]:
        """The text, metadata and vector a node is stored with; ``ValueError`` for a node
        without an embedding (``"embedding not set."``, as in every LlamaIndex store) and, where
        metadata must be flat, for a nested value."""
        embedding = node.get_embedding()
        metadata = node_to_metadata_dict(
            node, remove_text=True, flat_metadata=self.integration.flat_metadata
        )
        for key in node.metadata:
            if isinstance(key, str):
                require_unicode(key, f"metadata key of node {node.node_id!r}")
        if self.integration.none_metadata_as_empty_string:
            metadata = {k: ("" if v is None else v) for k, v in metadata.items()}
        return node.get_content(metadata_mode=MetadataMode.NONE), metadata, embedding

    def node(self, record_id: str, text: str | None, metadata: dict[str, Any]) -> BaseNode:
        """The node a record holds. A record written straight into the core store (seeding) or
        an orphaned id has no LlamaIndex bookkeeping, so it becomes a plain ``TextNode``."""
        if "_node_content" in metadata:
            return metadata_dict_to_node(dict(metadata), text=text)
        return TextNode(id_=record_id, text=text or "", metadata=dict(metadata))

    def stored_node(self, record: Record) -> BaseNode:
        """A record as ``get_nodes`` returns it: with its vector where the integration does."""
        node = self.node(record.id, record.text, record.metadata)
        if self.integration.get_nodes_with_embedding and record.vector is not None:
            node.embedding = list(record.vector)
        return node

    def ranked(
        self, matches: Sequence[Match], reported: Sequence[float] | None = None
    ) -> VectorStoreQueryResult:
        """A query result: the matches' nodes, scored as the integration reports them (with
        ``reported``, those scores: MMR objectives, not the engine's numbers)."""
        score = self.integration.node_score
        number = self.integration.similarity_type
        if reported is None:
            similarities = [number(score(m.score)) for m in matches]
        else:
            similarities = [number(value) for value in reported]
        if not self.integration.stores_text:  # the index keeps the nodes; only ids come back
            return VectorStoreQueryResult(similarities=similarities, ids=[m.id for m in matches])
        return VectorStoreQueryResult(
            nodes=[self.node(m.id, m.text, m.metadata) for m in matches],
            similarities=similarities,
            ids=[m.id for m in matches],
        )

    def unranked(self, records: Sequence[Record]) -> VectorStoreQueryResult:
        """The result of a query without embedding: the records in listing order, each with the
        integration's fixed score (or none)."""
        unranked = self.integration.unranked_score
        return VectorStoreQueryResult(
            nodes=[self.node(r.id, r.text, r.metadata) for r in records],
            similarities=None if unranked is None else [unranked] * len(records),
            ids=[r.id for r in records],
        )
