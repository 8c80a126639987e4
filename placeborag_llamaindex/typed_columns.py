"""The typed columns of an integration's collection, for the expression strings it filters with.

``MilvusVectorStore`` creates its collection with ``id``, ``doc_id`` and ``text`` as VARCHAR
fields and keeps every other metadata key in Milvus's dynamic JSON field, so an expression that
compares ``doc_id`` with a number, or applies an array function or ``array_length`` to it, is
rejected by the engine (``Invalid expr``) instead of matching nothing
(``docs/integrations/new_integrations.md#li-milvus-filter-doc-id-typed``). The core's Milvus
reader knows typed fields through :class:`~placeborag_core.backends.milvus.Schema`; this module
gives a profile a filter reader that reads the integration's expression strings against the
integration's schema (``IntegrationFacts.expression_schema``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from placeborag_core.backends import Profile
from placeborag_core.backends.milvus import Schema, read_expression
from placeborag_core.filters import FilterDialect, FilterReader, Predicate, all_of

__all__ = ["typed_profile"]


@dataclasses.dataclass(frozen=True)
class _TypedReader:
    """Expression strings (alone or in a top ``$and`` beside core clauses, as the adapter joins
    a query's parts) read against ``schema``; anything else as the profile reads it
    (``fallback``). A class rather than a closure, so that a store holding it pickles."""

    schema: Schema
    fallback: FilterReader | None

    def __call__(self, where: Any, dialect: FilterDialect) -> Predicate:
        if isinstance(where, Predicate):
            return where
        if isinstance(where, str):
            return read_expression(where, self.schema)
        if isinstance(where, Mapping) and list(where) == ["$and"]:
            parts = where["$and"]
            if isinstance(parts, list) and any(isinstance(part, str) for part in parts):
                return all_of([self(part, dialect) for part in parts])
        if self.fallback is None:
            raise TypeError(f"the {dialect.name} profile reads no filter {where!r}")
        return self.fallback(where, dialect)


def typed_profile(profile: Profile, schema: Schema) -> Profile:
    """``profile`` with a filter dialect that reads expression strings against ``schema``."""
    dialect = profile.filters
    reader = _TypedReader(schema, dialect.reader)
    return dataclasses.replace(profile, filters=dataclasses.replace(dialect, reader=reader))
