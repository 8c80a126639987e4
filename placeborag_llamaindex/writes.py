"""The writes of one ``PlaceboVectorStore``: adding nodes to, and deleting records from, its
namespace of the core store, with the integration's rules for repeated and existing ids.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from llama_index.core.schema import BaseNode

from placeborag_core import FakeVectorStore
from placeborag_core.store import Where
from placeborag_llamaindex.integrations import IntegrationFacts
from placeborag_llamaindex.nodes import NodeCodec, NodeRecord
from placeborag_llamaindex.restrictions import FirstKeys

__all__ = ["Writes"]


@dataclass(frozen=True)
class Writes:
    """Writes ``namespace`` of ``store`` the way ``integration`` writes its engine."""

    store: FakeVectorStore
    namespace: str
    integration: IntegrationFacts
    codec: NodeCodec
    first_keys: FirstKeys

    def add(self, nodes: Sequence[BaseNode]) -> list[str]:
        """Store nodes that carry embeddings, all or nothing; returns their node ids (or, where
        the engine numbers vectors, their positions), in order."""
        if self.integration.record_ids == "position":
            return self._add_positions(nodes)
        if self.integration.existing_id == "append":
            return self._append(nodes)
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

    def _append(self, nodes: Sequence[BaseNode]) -> list[str]:
        """Every node becomes a new row, an id already stored or repeated included (LanceDB's
        ``table.add``)."""
        records = [(self.codec.record_id(n.node_id), *self.codec.contents(n)) for n in nodes]
        if records:
            self.store.append_many(records, namespace=self.namespace)
            if self.first_keys.keys is None:
                self.first_keys.keys = list(records[0][2])
        return [node.node_id for node in nodes]

    def _add_positions(self, nodes: Sequence[BaseNode]) -> list[str]:
        """Vectors only, numbered by position (FAISS: the index keeps no ids, no text)."""
        start = self.store.count(self.namespace)
        ids = [str(start + i) for i in range(len(nodes))]
        records: list[tuple[str, None, dict[str, Any], list[float]]] = [
            (i, None, {}, n.get_embedding()) for i, n in zip(ids, nodes, strict=True)
        ]
        if records:
            self.store.upsert_many(records, namespace=self.namespace)
        return ids

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
