"""The writes of one ``PlaceboVectorStore``: adding nodes to, and deleting records from, its
namespace of the core store, with the integration's rules for repeated and existing ids.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from llama_index.core.schema import BaseNode

from placeborag_core import FakeVectorStore
from placeborag_core.store import Where
from placeborag_llamaindex.integrations import IntegrationFacts
from placeborag_llamaindex.nodes import NodeCodec, NodeRecord

__all__ = ["Writes"]


@dataclass(frozen=True)
class Writes:
    """Writes ``namespace`` of ``store`` the way ``integration`` writes its engine."""

    store: FakeVectorStore
    namespace: str
    integration: IntegrationFacts
    codec: NodeCodec

    def add(self, nodes: Sequence[BaseNode]) -> list[str]:
        """Store nodes that carry embeddings, all or nothing; returns their node ids, in order."""
        records: dict[str, NodeRecord] = {}
        for node in nodes:
            key = self.codec.record_id(node.node_id)
            if key in records and self.integration.duplicate_ids_in_add == "raise":
                raise ValueError(
                    f"Expected IDs to be unique, found duplicates of: {node.node_id} in add."
                )
            records[key] = (key, *self.codec.contents(node))
        if self.integration.existing_id == "keep_first":
            records = {
                key: record
                for key, record in records.items()
                if self.store.get(key, namespace=self.namespace) is None
            }
        if records:
            self.store.upsert_many(list(records.values()), namespace=self.namespace)
        return [node.node_id for node in nodes]

    def delete(self, where: Where | None, ids: Collection[str] | None) -> None:
        """Delete the records among ``ids`` (None: any) that pass ``where``."""
        doomed = self.store.select(where, ids=ids, namespace=self.namespace)
        if doomed:
            self.store.delete([record.id for record in doomed], namespace=self.namespace)

    def clear(self) -> None:
        """Delete every record of the namespace."""
        ids = self.store.ids(self.namespace)
        if ids:
            self.store.delete(ids, namespace=self.namespace)
