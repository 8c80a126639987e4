"""Saving and loading ``PlaceboVectorStore``: ``persist`` and its readers, ``to_dict`` /
``from_dict``, and pickling.

The JSON forms are the core store's records and the constructor fields, in the format of
:mod:`placeborag_llamaindex.persist`, written where ``SimpleVectorStore`` writes (so that
``StorageContext.persist`` and ``from_persist_dir`` find them). A pickle holds the fields and the
core store itself, so it also keeps what the JSON has no place for (held writes, orphaned ids,
armed failures).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from llama_index.core.utils import concat_dirs

from placeborag_core import FakeEmbedder, FakeVectorStore
from placeborag_llamaindex import inputs, persist
from placeborag_llamaindex.embedding import PlaceboEmbedding
from placeborag_llamaindex.integrations import integration_for

if TYPE_CHECKING:
    from placeborag_llamaindex.integrations import IntegrationFacts
    from placeborag_llamaindex.vector_store import PlaceboVectorStore

__all__ = ["PersistenceMethods"]

_PERSIST_NAMESPACE_SEP = "__"  # llama_index.core.vector_stores.simple.NAMESPACE_SEP
_PERSIST_FNAME = "vector_store.json"  # llama_index.core.vector_stores.types.DEFAULT_PERSIST_FNAME
_DEFAULT_PERSIST_DIR = "./storage"  # llama_index.core.vector_stores.types.DEFAULT_PERSIST_DIR
_NO_COLLECTION = "no_collection"  # the saved state beside the constructor fields


class PersistenceMethods:
    """The store written as JSON or pickled, and read back (see the module docstring)."""

    if TYPE_CHECKING:  # what PlaceboVectorStore, the only class built on this one, provides
        profile: str
        stores_text: bool
        metric: str | None
        filter_mode: str
        recall: float
        visibility: str
        orphaned_ids: bool
        namespace: str
        _store: FakeVectorStore
        _facts: IntegrationFacts
        _no_collection: bool

        def __init__(
            self, *, embedder: FakeEmbedder | PlaceboEmbedding | None = None, **data: Any
        ) -> None: ...

        def _bind(self, store: FakeVectorStore, integration: IntegrationFacts) -> None: ...

        @classmethod
        def class_name(cls) -> str: ...

    def _fields(self) -> dict[str, Any]:
        """The constructor fields that configure the store (the persisted ``store``);
        ``stores_text`` only where it is not the profile's own (the default profile's
        ``stores_text=False``), so other files stay as they were."""
        fields = {
            "profile": self.profile,
            "metric": self.metric,
            "filter_mode": self.filter_mode,
            "recall": self.recall,
            "visibility": self.visibility,
            "orphaned_ids": self.orphaned_ids,
            "namespace": self.namespace,
        }
        if self.stores_text is not integration_for(self.profile).stores_text:
            fields["stores_text"] = self.stores_text
        return fields

    def _saved(self) -> dict[str, Any]:
        """The persisted ``store``: ``_fields()``, plus ``no_collection`` where the real store's
        collection state (``IntegrationFacts.dropped_by_clear``) is not the one a fresh store
        loaded with the same records has: a qdrant collection emptied by deletes (it exists),
        a milvus store after ``clear()`` (it has none). Other files stay as they were."""
        fields = self._fields()
        dropped = self._facts.dropped_by_clear
        empty = self._store.count(self.namespace) == 0
        if dropped is not None and empty and self._no_collection is not dropped.from_start:
            fields[_NO_COLLECTION] = self._no_collection
        return fields

    def _restore_collection_state(self, no_collection: object, source: str) -> None:
        """Set the collection state ``_saved`` (or a pickle) recorded: ``None`` (absent) keeps
        the fresh store's."""
        if no_collection is None:
            return
        if not isinstance(no_collection, bool) or self._facts.dropped_by_clear is None:
            raise ValueError(
                f'{source}: "store" holds an invalid {_NO_COLLECTION}: {no_collection!r} '
                f"(a bool, for a profile whose clear() drops the collection)"
            )
        self._no_collection = no_collection

    def persist(
        self,
        persist_path: str = os.path.join(_DEFAULT_PERSIST_DIR, _PERSIST_FNAME),
        fs: Any | None = None,
    ) -> None:
        """Write every namespace of the core store to ``persist_path`` as JSON (format:
        ``placeborag_llamaindex.persist``). Raises ``ValueError``, writing nothing, if the store
        holds writes waiting for ``refresh()`` or orphaned ids (neither has a place in the file;
        pickling keeps both)."""
        path = inputs.path(persist_path, "persist_path")
        persist.write_payload(persist.payload_of(self._store, self._saved()), path, fs)

    @classmethod
    def from_persist_path(
        cls,
        persist_path: str,
        fs: Any | None = None,
        *,
        embedder: FakeEmbedder | PlaceboEmbedding | None = None,
    ) -> PlaceboVectorStore:
        """Rebuild a store written by ``persist``; a file that is not one raises ``ValueError``
        naming it."""
        path = inputs.path(persist_path, "persist_path")
        return cls._from_payload(persist.read_payload(path, fs), path, embedder)

    @classmethod
    def from_persist_dir(
        cls,
        persist_dir: str = _DEFAULT_PERSIST_DIR,
        namespace: str = "default",
        fs: Any | None = None,
        *,
        embedder: FakeEmbedder | PlaceboEmbedding | None = None,
    ) -> PlaceboVectorStore:
        """Rebuild the store ``StorageContext.persist(persist_dir)`` wrote for the index's
        vector-store ``namespace`` (``"default"``: the file ``default__vector_store.json``), as
        ``SimpleVectorStore.from_persist_dir`` does.

        Pass it on to LlamaIndex::

            store = PlaceboVectorStore.from_persist_dir("./storage")
            context = StorageContext.from_defaults(persist_dir="./storage", vector_store=store)
        """
        directory = inputs.path(persist_dir, "persist_dir")
        name = inputs.text(namespace, "namespace")
        filename = f"{name}{_PERSIST_NAMESPACE_SEP}{_PERSIST_FNAME}"
        if fs is not None:
            path = concat_dirs(directory, filename)
        else:
            path = os.path.join(directory, filename)
        return cls.from_persist_path(path, fs, embedder=embedder)

    @classmethod
    def _from_payload(
        cls,
        payload: Mapping[str, Any],
        source: str,
        embedder: FakeEmbedder | PlaceboEmbedding | None,
    ) -> PlaceboVectorStore:
        fields = dict(payload["store"])
        no_collection = fields.pop(_NO_COLLECTION, None)
        try:
            store = cast("PlaceboVectorStore", cls(embedder=embedder, **fields))
        except (TypeError, ValueError) as error:
            raise ValueError(
                f'{source}: "store" holds invalid constructor fields: {error}'
            ) from None
        store._restore_collection_state(no_collection, source)
        persist.load_records(store._store, payload, source)
        return store

    def to_dict(self, **kwargs: Any) -> dict[str, Any]:
        """The store as JSON-ready data: what ``persist`` writes (every record and setting),
        plus ``class_name``; ``from_dict`` reads it back. (``SimpleVectorStore.to_dict`` also
        returns its data, not only its fields.)"""
        if kwargs:
            raise TypeError(
                f"PlaceboVectorStore.to_dict() takes no arguments, got {sorted(kwargs)}"
            )
        payload = persist.payload_of(self._store, self._saved())
        payload["class_name"] = self.class_name()
        return payload

    @classmethod
    def from_dict(cls, data: dict[str, Any], **kwargs: Any) -> PlaceboVectorStore:
        """The store ``to_dict`` described, records and all; ``ValueError`` for anything else.
        Keyword: ``embedder``."""
        embedder = kwargs.pop("embedder", None)
        if kwargs:
            raise TypeError(
                "PlaceboVectorStore.from_dict() got unexpected keyword arguments "
                f"{sorted(kwargs)}; it accepts embedder="
            )
        if not isinstance(data, Mapping):
            raise TypeError(
                f"from_dict() needs the mapping to_dict() returned, got {type(data).__name__}"
            )
        payload = {k: v for k, v in data.items() if k != "class_name"}
        checked = persist.check_payload(payload, "from_dict() data")
        return cls._from_payload(checked, "from_dict() data", embedder)

    @classmethod
    def from_namespaced_persist_dir(
        cls,
        persist_dir: str = _DEFAULT_PERSIST_DIR,
        fs: Any | None = None,
        *,
        embedder: FakeEmbedder | PlaceboEmbedding | None = None,
    ) -> dict[str, PlaceboVectorStore]:
        """Every store ``StorageContext.persist(persist_dir)`` wrote with this class, by the
        index's vector-store namespace (``SimpleVectorStore.from_namespaced_persist_dir``).
        Files of other stores (LlamaIndex's ``image__vector_store.json``, a
        ``SimpleVectorStore``) are not ours and are left out; one of ours that is damaged
        raises ``ValueError`` naming it."""
        directory = inputs.path(persist_dir, "persist_dir")
        names = fs.listdir(directory, detail=False) if fs is not None else os.listdir(directory)
        stores: dict[str, PlaceboVectorStore] = {}
        for entry in sorted(os.path.basename(str(n).rstrip("/")) for n in names):
            suffix = f"{_PERSIST_NAMESPACE_SEP}{_PERSIST_FNAME}"
            if not entry.endswith(suffix):
                continue
            path = (
                concat_dirs(directory, entry) if fs is not None else os.path.join(directory, entry)
            )
            if persist.is_ours(path, fs):
                stores[entry[: -len(suffix)]] = cls.from_persist_path(path, fs, embedder=embedder)
        return stores

    # -- pickling --------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the fields and the core store itself (records, held writes, orphans, armed
        failures, settings); never the collaborators, which are rebuilt. LlamaIndex's own
        ``BaseComponent`` pickling would drop the store and re-run ``__init__``, losing every
        record. ``no_collection``: whether the real store has no collection now
        (``IntegrationFacts.dropped_by_clear``), which ``_bind`` would reset."""
        return {"fields": self._fields(), "store": self._store, _NO_COLLECTION: self._no_collection}

    def __setstate__(self, state: dict[str, Any]) -> None:
        keys = {"fields", "store"}
        if not isinstance(state, dict) or set(state) not in (keys, {*keys, _NO_COLLECTION}):
            raise TypeError("not a pickled PlaceboVectorStore state")
        store = state["store"]
        no_collection = state.get(_NO_COLLECTION, False)
        if not isinstance(store, FakeVectorStore) or not isinstance(no_collection, bool):
            raise TypeError("not a pickled PlaceboVectorStore state: no FakeVectorStore")
        self.__init__(**state["fields"])  # type: ignore[misc]
        self._bind(store, self._facts)
        if _NO_COLLECTION in state and self._facts.dropped_by_clear is not None:
            self._no_collection = no_collection
