"""`delete`: by id, and where the integration takes them (Chroma), by `where=`/`where_document=`.

The edge cases follow the integration (`IntegrationFacts.delete_*`): `delete(None)` is refused
by every real integration unless Chroma's filters are given; `delete([])` is a no-op or an
error; a missing id is ignored, or (FAISS) raises before anything is deleted; the return value
is True or (Chroma) None. Facts: `docs/integrations/langchain.md#lc-chroma-delete-returns`,
`#lc-chroma-delete-none`, `#lc-chroma-delete-empty`, `#lc-chroma-delete-where`,
`#lc-qdrant-delete`, `#lc-faiss-delete`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from placeborag_core import FakeVectorStore
from placeborag_langchain.arguments import (
    checked_namespace,
    reject_unknown,
    take_document_filters,
)
from placeborag_langchain.filters import StoreFilters
from placeborag_langchain.ids import DocumentIds
from placeborag_langchain.typed_fields import Collections

__all__ = ["Deletes"]


class Deletes:
    """The deletes of one store over its core store, as its integration runs them."""

    def __init__(  # noqa: PLR0917 - the store's parts, in the order the store builds them
        self,
        core: FakeVectorStore,
        ids: DocumentIds,
        filters: StoreFilters,
        namespace: str,
        guard: Callable[[], None],
        collections: Collections | None = None,
    ) -> None:
        self._collections = collections
        self._guard = guard
        self._core = core
        self._ids = ids
        self._facts = ids.facts
        self._filters = filters
        self._namespace = namespace

    def delete(self, ids: Any, kwargs: dict[str, Any]) -> bool | None:
        """Delete `ids` (and/or what Chroma's filters in `kwargs` select); the integration's
        return value."""
        self._guard()
        facts = self._facts
        ns = checked_namespace(kwargs.pop("namespace", self._namespace))
        if facts.delete_filter_kwarg is not None:
            flt = kwargs.pop(facts.delete_filter_kwarg, None)
            if facts.delete_filter_rule == "ids_win":
                return self._ids_win(ids, flt, ns)
            return self._filter_wins(ids, flt, kwargs, ns)
        extra, extra_names = take_document_filters(facts, kwargs, ("where", "where_document"))
        where, where_document = extra["where"], extra["where_document"]
        reject_unknown(facts, kwargs, "delete", extra_names)
        filtered = where is not None or where_document is not None
        if ids is None and not filtered:
            if facts.delete_none_error is None:
                return facts.delete_returns
            raise ValueError(facts.delete_none_error)
        if isinstance(ids, str | bytes):
            raise TypeError(f"ids must be a list of ids, got a single {type(ids).__name__}")
        if ids is not None and (isinstance(ids, Mapping) or not isinstance(ids, Iterable)):
            raise TypeError(f"ids must be a list of ids or None, got {type(ids).__name__}")
        id_list = None if ids is None else list(ids)
        if id_list == []:
            if facts.delete_empty_error is not None:
                raise ValueError(facts.delete_empty_error)
            return facts.delete_returns
        core_ids = None if id_list is None else self._ids.lookup(id_list, "delete")
        if facts.delete_missing_error is not None and id_list is not None:
            # Looked up as given (FAISS): an id that is not a str is missing too.
            missing = {
                i
                for i in id_list
                if not isinstance(i, str) or self._core.get(i, namespace=ns) is None
            }
            if missing:
                raise ValueError(facts.delete_missing_error.format(ids=missing))
        if filtered:
            translated = self._filters.translate(where, "metadata")
            self._core.delete(
                core_ids,
                namespace=ns,
                where=self._filters.where(translated),
                where_document=where_document,
            )
        else:
            self._core.delete(core_ids or [], namespace=ns)
        return facts.delete_returns

    def _ids_win(self, ids: Any, expr: Any, ns: str) -> bool:
        """The "ids_win" rule, langchain-milvus's `delete(ids, expr)`: a non-empty id list
        becomes the expression `pk in [...]` (and `expr` is ignored); otherwise `expr` must be
        a str (AssertionError). False where the engine refuses the delete: no collection yet,
        an invalid expression, an id that is not a str (`pk in [1]` on the VARCHAR key)
        (`docs/integrations/new_integrations.md#lc-milvus-delete`)."""
        facts = self._facts
        missing = self._collections is not None and not self._collections.exists(ns)
        if isinstance(ids, list) and ids:
            if missing or not all(isinstance(i, str) for i in ids):
                return False
            self._core.delete(list(ids), namespace=ns)
            return True
        if not isinstance(expr, str):
            raise facts.delete_error_type(facts.delete_none_error)
        if missing:
            return False
        try:
            translated = self._filters.translate(expr, namespace=ns)
            if translated.where is None:
                return False  # Milvus refuses an empty delete expression
            self._core.delete(None, namespace=ns, where=self._filters.where(translated))
        except ValueError:  # the engine's errors (MilvusFilterError, ...): logged, False
            return False
        return True

    def _filter_wins(self, ids: Any, flt: Any, kwargs: dict[str, Any], ns: str) -> bool | None:
        """The "filter_wins" rule (LanceDB's delete): the filter wins, then the ids, then the
        delete-all flag; with none of them, ``delete_none_error``. Unknown keywords are treated
        as ``reject_unknown`` says."""
        facts = self._facts
        everything = kwargs.pop(facts.delete_all_kwarg or "", None)
        reject_unknown(facts, kwargs, "delete", ())
        if flt:
            translated = self._filters.translate_delete(flt)
            self._core.delete(None, namespace=ns, where=self._filters.where(translated))
        elif ids:
            if isinstance(ids, str | bytes):
                raise TypeError(f"ids must be a list of ids, got a single {type(ids).__name__}")
            self._core.delete(self._ids.lookup(list(ids), "delete"), namespace=ns)
        elif everything:
            self._core.delete(self._core.ids(ns), namespace=ns)
        else:
            raise ValueError(facts.delete_none_error)
        return facts.delete_returns
