"""Which records a LlamaIndex call reads or deletes, in core terms: a ``where`` clause and an id
restriction, built with the integration's rules.

The arguments come from ``VectorStoreQuery`` (``filters``, ``doc_ids``, ``node_ids``), from the
query's keyword arguments (a core-dialect ``where``, the engine's native filter) and from
``get_nodes``/``delete_nodes``. Nothing is evaluated here: the core store does that.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from llama_index.core.vector_stores.types import (
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)

from placeborag_core.backends import NativeFilter
from placeborag_core.store import Where
from placeborag_llamaindex.integrations import IntegrationFacts
from placeborag_llamaindex.nodes import NodeCodec
from placeborag_llamaindex.query_options import QueryOptions

__all__ = ["FirstKeys", "Restriction", "Restrictions"]

Restriction = tuple[Where | None, Collection[str] | None]
"""A ``where`` clause (None: no condition) and record ids (None: no id restriction)."""


def _all_of(clauses: Sequence[Where]) -> Where | None:
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": list(clauses)}


class FirstKeys:
    """The metadata keys of the first node a store added (LanceDBVectorStore's
    ``_metadata_keys``: which filter keys it prefixes with ``metadata.``); None before."""

    def __init__(self) -> None:
        self.keys: list[str] | None = None


@dataclass(frozen=True)
class Restrictions:
    """Builds the restriction of each kind of call for one integration over one engine.

    ``native_filter`` is the engine profile's reader of its own filter objects; it is needed
    only when the integration has a native filter keyword or builds SQL (``sql_filters``).
    """

    integration: IntegrationFacts
    codec: NodeCodec
    native_filter: NativeFilter | None
    first_keys: FirstKeys = field(default_factory=FirstKeys)

    def sql(self, text: str, *, plain: bool = False, delete: bool = False) -> Where | None:
        """SQL the integration builds, read with the engine's reader (``plain``: for a
        search without a vector; ``delete``: for a delete)."""
        layout = self.integration.native_payload
        reader = self.native_filter
        if plain:
            reader = self.integration.sql_plain_reader
        elif delete:
            reader = self.integration.sql_delete_reader
        assert layout is not None
        assert reader is not None
        where: Where | None = reader(text, layout).where
        return where

    def of_sql_filters(self, filters: MetadataFilters, *, plain: bool = False) -> Where | None:
        """``filters`` as the integration's SQL (see ``IntegrationFacts.sql_filters``)."""
        build = self.integration.sql_filters
        assert build is not None
        return self.sql(build(filters, self.first_keys.keys), plain=plain)

    def __post_init__(self) -> None:
        if self.integration.native_filter_kwarg is not None and self.native_filter is None:
            raise ValueError(
                f"{self.integration.integration} takes {self.integration.native_filter_kwarg}=, "
                "but the engine profile reads no native filter"
            )

    def of_filters(self, filters: MetadataFilters | None) -> Where | None:
        """``filters`` translated as the integration does; its rejections raise here."""
        if filters is None:
            return None
        if self.integration.sql_filters is not None:
            return self.of_sql_filters(filters)
        return self.integration.translate_filters(filters)

    def of_query(self, query: VectorStoreQuery, options: QueryOptions) -> Restriction:
        """The restriction of a query.

        The native filter replaces the query's filters, ``doc_ids`` and ``node_ids``, as the
        integration sends it to the engine instead of the filter it would build
        (``docs/integrations/llamaindex.md#li-qdrant-native-filter``).
        """
        layout = self.integration.native_payload
        if options.native_filter is not None and layout is not None:
            assert self.native_filter is not None  # checked when built
            read = self.native_filter(options.native_filter, layout)
            return read.where, read.ids
        if isinstance(options.where, str):  # the engine's SQL (rows with sql_filters)
            return self.sql(options.where), None
        clauses: list[Where] = []
        if self.integration.honours_doc_ids and query.doc_ids:
            clauses.append({"doc_id": {"$in": list(query.doc_ids)}})
        translated = self.of_filters(query.filters)
        if translated is not None:
            clauses.append(translated)
        if options.where is not None:
            clauses.append(options.where)
        ids = None
        if self.integration.honours_node_ids:
            ids = self.codec.record_ids(query.node_ids)
        if ids is not None and not ids:
            ids = None  # the index passes [] for "no restriction" to text-storing stores
        return _all_of(clauses), ids

    def of_get_nodes(
        self, node_ids: Sequence[str] | None, filters: MetadataFilters | None
    ) -> Restriction:
        """The restriction of ``get_nodes``: the nodes among ``node_ids`` passing ``filters``
        (the integration's ``call_errors`` for the shapes it refuses)."""
        self._refuse("get_nodes()", node_ids is None and filters is None)
        if not node_ids and self.integration.get_nodes_empty_ids == "everything":
            node_ids = None
        build = self.integration.get_nodes_sql
        if build is not None:  # the integration's own SQL; node ids win over filters
            if node_ids is not None:
                return self.sql(build(list(node_ids)), plain=True), None
            if filters is None:
                return None, None
            return self.of_sql_filters(filters, plain=True), None
        where = self.of_filters(filters)
        self._refuse("get_nodes(ids, filters)", node_ids is not None and where is not None)
        self._refuse("get_nodes([])", node_ids is not None and not node_ids)
        return self._joined(where, self.codec.record_ids(node_ids))

    def _refuse(self, shape: str, applies: bool) -> None:
        """Raise the integration's error for a call of ``shape`` (``call_errors``), if the call
        has that shape and the integration refuses it."""
        error = self.integration.call_errors.get(shape)
        if applies and error is not None:
            raise error()

    def _joined(self, where: Where | None, ids: list[str] | None) -> Restriction:
        """The integration's way of combining ids with a filter (see ``ids_into_where``)."""
        join = self.integration.ids_into_where
        if join is None or where is None or ids is None:
            return where, ids
        return join(where, ids), ids

    def of_delete(self, ref_doc_id: str) -> Restriction:
        """The restriction of ``delete(ref_doc_id)``: the nodes of that source document (or
        what the integration's own SQL for it selects)."""
        build = self.integration.delete_sql
        if build is not None:
            return self.sql(build(ref_doc_id), delete=True), None
        return {"document_id": ref_doc_id}, None

    def of_delete_nodes(
        self, node_ids: Sequence[str] | None, filters: MetadataFilters | None
    ) -> Restriction | None:
        """The restriction of ``delete_nodes``: the nodes among ``node_ids`` passing ``filters``;
        None when the integration deletes nothing (``PGVectorStore`` without ids or filters).

        With ``ids_filter_key`` the ids join the filters as one more condition (Milvus: the
        union under OR). An unsupported filter is reported first. With neither ids nor filters
        the real ``QdrantVectorStore`` and ``SimpleVectorStore`` delete every node
        (``docs/integrations/llamaindex.md``: ``li-qdrant-delete-nodes``,
        ``li-simple-delete-nodes-none``); a test double refuses instead and points at
        ``clear()``.
        """
        build = self.integration.delete_nodes_sql
        if build is not None:  # the integration deletes by its own SQL and ignores filters
            return self.sql(build(node_ids), delete=True), None  # type: ignore[arg-type]
        key = self.integration.ids_filter_key
        if key is not None:  # the ids as one more filter, under the filters' condition
            joined = MetadataFilters(filters=[]) if filters is None else filters.model_copy()
            joined.filters = list(joined.filters)
            if node_ids:
                joined.filters.append(
                    MetadataFilter(key=key, value=list(node_ids), operator=FilterOperator.IN)
                )
            where = self.of_filters(joined)
            self._refuse("delete_nodes(nothing)", where is None)
            return where, None
        if self.integration.delete_nodes_unrestricted == "nothing":
            if not node_ids and filters is None:
                return None
            return self._joined(self.of_filters(filters), self.codec.record_ids(node_ids or None))
        where = self.of_filters(filters)
        self._refuse("delete_nodes(nothing)", not node_ids and where is None)
        if self.integration.delete_nodes_needs_ids and not node_ids:
            count = len(node_ids or [])
            raise ValueError(f"Expected IDs to be a non-empty list, got {count} IDs in delete.")
        if node_ids is None and where is None:
            raise ValueError(
                "delete_nodes() needs node_ids or non-empty filters; with neither, the real "
                "QdrantVectorStore and SimpleVectorStore delete every node. Use clear() for that."
            )
        return where, self.codec.record_ids(node_ids)
