"""`filter=` values in core terms.

LangChain passes `filter=` through untouched, so its format is whatever the real integration
takes; each `IntegrationFacts` row names its format (`IntegrationFacts.filter_format`):
the core dict dialect as is (Chroma's `where`, interpreted by the core's chroma profile), the
engine's own filter object (Qdrant's `models.Filter`, read by the profile's `native_filter`, by
duck typing, so qdrant-client need not be installed), or a dialect of the integration's own
(FAISS's, `faiss_filters.py`). Everywhere a Python callable is accepted too. Nothing here
evaluates a filter against records: a filter becomes a core `where`, an id restriction, or a
predicate that the store hands to the core wrapped as a `Record` callable (so it runs at the
core's filter step).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from langchain_core.documents import Document

from placeborag_core import Record
from placeborag_core.backends import PayloadLayout, Profile
from placeborag_core.filters import Predicate, record_condition

__all__ = [
    "CORE_WHERE",
    "CoreWhere",
    "DocumentFactory",
    "EngineFilter",
    "FilterFormat",
    "MilvusExpression",
    "SqlFilterFormat",
    "StoreFilters",
    "TranslatedFilter",
    "core_where",
    "translate_filter",
]

CallableArg = Literal["document", "metadata"]
DocumentFactory = Callable[[str, str | None, Mapping[str, Any]], Document]
"""Builds the `Document` of a record (id, text, metadata) in the integration's shape."""


@dataclass(frozen=True)
class TranslatedFilter:
    """A filter in core terms.

    `where`: the core dialect clause, possibly holding compiled core predicates for conditions
    the dialect cannot say (a Qdrant condition on the text or the id), or one such predicate
    (None: no filter); `ids`: an id restriction (None: none, empty: nothing matches);
    `predicate`: the caller's callable the store must evaluate, with `predicate_arg` saying
    whether it receives the `Document` or its metadata.
    """

    where: Mapping[str, Any] | Predicate | None = None
    ids: frozenset[str] | None = None
    predicate: Callable[[Any], bool] | None = None
    predicate_arg: CallableArg = "document"


class FilterFormat(Protocol):
    """What an integration's `filter=` takes, besides a callable."""

    def read(self, flt: Any, profile: Profile) -> TranslatedFilter:
        """`flt` (not None, not a callable) in core terms, for a store of `profile`."""
        ...


class CoreWhere:
    """The core dict dialect, handed to the core as is (the profile's dialect validates it)."""

    def read(self, flt: Any, profile: Profile) -> TranslatedFilter:
        """`flt` as the core `where`."""
        return TranslatedFilter(where=flt)


CORE_WHERE = CoreWhere()


@dataclass(frozen=True)
class EngineFilter:
    """The engine's own filter object, read by the profile's `native_filter`.

    `layout`: where the integration keeps a document in the engine's payload (its
    `canonical_id` is replaced by the profile's id rule: the ids in a filter are the engine's).
    `attributes`: what the object must have; anything else (a dict, say) raises
    `AttributeError` for the first missing one, as the real integration does. `takes`: what to
    name in that error.
    """

    layout: PayloadLayout
    attributes: tuple[str, ...]
    takes: str

    def read(self, flt: Any, profile: Profile) -> TranslatedFilter:
        """`flt` in core terms; AttributeError for an object of another shape."""
        missing = [name for name in self.attributes if not hasattr(flt, name)]
        if missing:
            raise AttributeError(
                f"'{type(flt).__name__}' object has no attribute '{missing[0]}' (profile "
                f"{profile.name!r} takes {self.takes}, or any object shaped like one, or a "
                "callable)"
            )
        read_native = profile.native_filter
        if read_native is None:
            raise TypeError(f"profile {profile.name!r} reads no native filter objects")
        layout = dataclasses.replace(self.layout, canonical_id=profile.ids.canonical)
        read = read_native(flt, layout)
        return TranslatedFilter(where=read.where, ids=read.ids)


@dataclass(frozen=True)
class MilvusExpression:
    """A Milvus boolean expression string (langchain-milvus's `expr=`), read over the typed
    fields of the store's collection (`typed_fields.Collections.schema`): the integration
    hands the string to the engine as is."""

    takes: str = "a Milvus expression str"

    def read(self, flt: Any, profile: Profile) -> TranslatedFilter:
        """`flt` over a collection without typed fields (dynamic names only)."""
        from placeborag_core.backends.milvus import Schema

        return self.read_in(flt, profile, Schema(dynamic=True))

    def read_in(self, flt: Any, profile: Profile, schema: Any) -> TranslatedFilter:
        """`flt` over `schema` (a `placeborag_core.backends.milvus.filters.Schema`)."""
        from placeborag_core.backends.milvus import read_expression
        from placeborag_core.filters import Everything

        if not isinstance(flt, str):
            raise TypeError(f"the filter is {self.takes}, got {type(flt).__name__} {flt!r}")
        predicate = read_expression(flt, schema)
        return TranslatedFilter(where=None if isinstance(predicate, Everything) else predicate)


@dataclass(frozen=True)
class SqlFilterFormat:
    """The engine's SQL text (LanceDB), read by the engine profile's SQL reader against the
    integration's table `layout`; a dict becomes SQL by the integration's own `from_dict`
    (whatever SQL that builds, errors included). `delete_reader` reads the SQL of a delete,
    whose errors differ from a search's."""

    layout: PayloadLayout
    reader: Callable[[Any, PayloadLayout], Any]
    delete_reader: Callable[[Any, PayloadLayout], Any]
    from_dict: Callable[[dict[Any, Any]], str]

    def read(self, flt: Any, profile: Profile) -> TranslatedFilter:
        """`flt` (SQL text or a dict) in core terms, as a search filter."""
        return self._read(flt, self.reader)

    def read_delete(self, flt: Any, profile: Profile) -> TranslatedFilter:
        """`flt` in core terms, as the predicate of a delete."""
        return self._read(flt, self.delete_reader)

    def _read(self, flt: Any, reader: Callable[[Any, PayloadLayout], Any]) -> TranslatedFilter:
        if isinstance(flt, Mapping):
            flt = self.from_dict(dict(flt))
        return TranslatedFilter(where=reader(flt, self.layout).where)


def translate_filter(
    flt: Any, filter_format: FilterFormat, profile: Profile, callable_arg: CallableArg
) -> TranslatedFilter:
    """Turn a LangChain `filter=` value into core terms.

    A callable (not a mapping) becomes `predicate`, receiving what `callable_arg` says; any
    other value is read by `filter_format`, which raises the real integration's error type for
    what it rejects, and NotImplementedError, naming the clause, for the few constructs the core
    cannot express yet.
    """
    if flt is None:
        return TranslatedFilter()
    if callable(flt) and not isinstance(flt, Mapping):
        return TranslatedFilter(predicate=flt, predicate_arg=callable_arg)
    return filter_format.read(flt, profile)


def core_where(translated: TranslatedFilter, document: DocumentFactory) -> Any:
    """The core `where=`: the translated clause, or the callable as a core record condition.

    The core evaluates it at its filter step, so it follows the filter mode like a dict
    filter (FAISS post-filters callables over `fetch_k` too). A `Document` has no vector,
    so the records it is built from are read without theirs.
    """
    predicate = translated.predicate
    if predicate is None:
        return translated.where
    if translated.predicate_arg == "metadata":

        def on_metadata(record: Record) -> bool:
            if record.text is None:  # an orphan: FAISS's docstore miss raises here
                document(record.id, record.text, record.metadata)
            return bool(predicate(dict(record.metadata)))

        return record_condition(on_metadata, vector=False)

    def on_document(record: Record) -> bool:
        return bool(predicate(document(record.id, record.text, record.metadata)))

    return record_condition(on_document, vector=False)


@dataclass(frozen=True)
class StoreFilters:
    """How one store reads `filter=` values: its integration's format over its profile, and
    callables given the `Document` or its metadata as the integration does."""

    filter_format: FilterFormat
    profile: Profile
    callable_arg: CallableArg
    document: DocumentFactory
    schema_for: Callable[[str], Any] | None = None

    def translate(
        self, flt: Any, callable_arg: CallableArg | None = None, namespace: str = ""
    ) -> TranslatedFilter:
        """`translate_filter` for this store (`callable_arg` overrides the integration's); a
        format that reads a collection's typed fields (`MilvusExpression`) gets the schema of
        `namespace`."""
        arg = self.callable_arg if callable_arg is None else callable_arg
        fmt = self.filter_format
        if (
            self.schema_for is not None
            and isinstance(fmt, MilvusExpression)
            and flt is not None
            and not (callable(flt) and not isinstance(flt, Mapping))
        ):
            return fmt.read_in(flt, self.profile, self.schema_for(namespace))
        return translate_filter(flt, fmt, self.profile, arg)

    def translate_delete(self, flt: Any) -> TranslatedFilter:
        """`flt` as the predicate of a delete (a format with its own delete reading uses it)."""
        read_delete = getattr(self.filter_format, "read_delete", None)
        if read_delete is None or flt is None or callable(flt):
            return self.translate(flt, "metadata")
        translated: TranslatedFilter = read_delete(flt, self.profile)
        return translated

    def where(self, translated: TranslatedFilter) -> Any:
        """`core_where` for this store."""
        return core_where(translated, self.document)
