"""Saving and loading a store: FAISS's `save_local` / `load_local` and `serialize_to_bytes` /
`deserialize_from_bytes`, and pickling, all through the JSON of `persistence`.

A saved store is its core records (`persistence.core_state`) plus the LangChain-side options
and the counter of generated ids; loading builds a store over a restored core with those
options, which the caller may override. Nothing in the file can run code.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.embeddings import Embeddings

from placeborag_langchain.persistence import (
    StoreFileError,
    core_state,
    decode_state,
    encode_state,
    read_folder,
    restore_core,
    store_file,
)
from placeborag_langchain.store_parts import StoreParts

if TYPE_CHECKING:
    from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = ["PersistenceMethods"]

_Store = TypeVar("_Store", bound="PersistenceMethods")

_LOAD_OPTIONS = (
    "relevance_score_fn",
    "distance_strategy",
    "normalize_L2",
    "collection_name",
    "namespace",
)


class PersistenceMethods(StoreParts):
    """A store saved to a folder, to bytes or by pickle, and loaded back."""

    def _state(self) -> dict[str, Any]:
        self._guard.check()
        state = core_state(self._store)
        state["options"] = {
            "namespace": self._namespace,
            "collection_name": self.collection_name,
            "distance_strategy": self._distance.setting if self._facts.distance_settings else None,
            "normalize_L2": self._distance.normalize,
            "content_payload_key": self.content_payload_key,
            "metadata_payload_key": self.metadata_payload_key,
        }
        state["generated"] = self._writes.ordinals.value
        return state

    @classmethod
    def _restored(
        cls,
        state: Mapping[str, Any],
        embeddings: Embeddings,
        source: str,
        overrides: Mapping[str, Any],
    ) -> PlaceboVectorStore:
        from placeborag_langchain.embeddings import core_embedder_of

        unknown = sorted(set(overrides) - set(_LOAD_OPTIONS))
        if unknown:
            raise TypeError(
                f"unexpected keyword argument(s) {', '.join(unknown)}; a loaded store takes "
                f"{', '.join(_LOAD_OPTIONS)}"
            )
        saved = state["options"]
        options = {
            "namespace": saved.get("namespace", ""),
            "collection_name": saved.get("collection_name", "langchain"),
            "distance_strategy": saved.get("distance_strategy"),
            "normalize_L2": saved.get("normalize_L2", False),
            "content_payload_key": saved.get("content_payload_key", "page_content"),
            "metadata_payload_key": saved.get("metadata_payload_key", "metadata"),
        }
        core = restore_core(state, core_embedder_of(embeddings), source)
        options.update(overrides)
        store: PlaceboVectorStore = cls.__new__(cls)  # type: ignore[assignment]
        with warnings.catch_warnings():
            if "normalize_L2" not in overrides and "distance_strategy" not in overrides:
                warnings.simplefilter("ignore", UserWarning)  # warned when it was built
            try:
                store._wrap(core, embedding=embeddings, **options)
            except (TypeError, ValueError) as error:
                if overrides:
                    raise
                raise StoreFileError(f"{source}: the saved options are invalid: {error}") from None
        generated = state["generated"]
        if generated < 0:
            raise StoreFileError(f"{source}: field 'generated' must be >= 0")
        store._writes.ordinals.value = generated
        return store

    def save_local(self, folder_path: str | Path, index_name: str = "index") -> None:
        """Save the store to `folder_path/<index_name>.placeborag.json` (FAISS's
        `save_local`, without pickle: see `persistence.py`); the folder is created if needed.
        Raises before writing anything if the store cannot be saved."""
        if not isinstance(index_name, str) or not index_name:
            raise TypeError(f"index_name must be a non-empty str, got {index_name!r}")
        data = encode_state(self._state())
        path = store_file(folder_path, index_name)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)

    @classmethod
    def load_local(
        cls,
        folder_path: str | Path,
        embeddings: Embeddings,
        index_name: str = "index",
        *,
        allow_dangerous_deserialization: bool = False,
        io_flags: int = 0,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """A store saved by `save_local` (FAISS's `load_local`). Nothing in the file can run
        code, so `allow_dangerous_deserialization` is not needed (and is accepted); `kwargs`
        override saved options (`relevance_score_fn`, `distance_strategy`, `normalize_L2`,
        `collection_name`, `namespace`). A file that is not a saved PlaceboVectorStore (a
        FAISS pickle, another JSON, a corrupt file) raises StoreFileError naming it."""
        del allow_dangerous_deserialization, io_flags
        if not isinstance(index_name, str) or not index_name:
            raise TypeError(f"index_name must be a non-empty str, got {index_name!r}")
        data, source = read_folder(folder_path, index_name)
        return cls._restored(decode_state(data, source), embeddings, source, kwargs)

    def serialize_to_bytes(self) -> bytes:
        """The store as bytes (FAISS's `serialize_to_bytes`, without pickle)."""
        return encode_state(self._state())

    @classmethod
    def deserialize_from_bytes(
        cls,
        serialized: bytes,
        embeddings: Embeddings,
        *,
        allow_dangerous_deserialization: bool = False,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """A store from `serialize_to_bytes` (FAISS's `deserialize_from_bytes`); see
        `load_local` for the flag and `kwargs`."""
        del allow_dangerous_deserialization
        source = "serialized bytes"
        return cls._restored(decode_state(serialized, source), embeddings, source, kwargs)

    def __copy__(self: _Store) -> _Store:
        """`copy.copy(store)`: a second store object over the same records, as a shallow copy
        of every real store shares its client, collection or docstore (an add through either
        is seen by both; `lc-faiss-copy-shares`). `copy.deepcopy` and pickle give an
        independent store (`__reduce__`)."""
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling goes through the same JSON (no pickled store internals); the embeddings and
        a `relevance_score_fn` are pickled as the caller's own objects."""
        from placeborag_langchain.integration_methods import _unpickle

        args = (self.serialize_to_bytes(), self._embedding, self._relevance_override)
        return (_unpickle, args)
