"""The methods one real class has beyond LangChain's `VectorStore`, offered under every profile.

Chroma's collection handling (`delete_collection`, `reset_collection`, `fork`,
`update_document(s)`, `similarity_search_with_vectors`,
`similarity_search_by_vector_with_relevance_scores`), FAISS's (`add_embeddings`,
`from_embeddings`, `merge_from`, `save_local` / `load_local`, `serialize_to_bytes` /
`deserialize_from_bytes`, the async searches by vector with scores) and Qdrant's
(`from_existing_collection`), each with the real signature, return type and errors. What needs a
real client or server (`client`, `_collection`, `index`, `docstore`, images, hybrid search)
raises `NeedsRealClientError`, a NotImplementedError (and an AttributeError, so `hasattr` is False)
naming it. The full table: `docs/integrations/langchain-parity.md`.
"""

from __future__ import annotations

import base64
import warnings
import weakref
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from placeborag_core import FakeVectorStore
from placeborag_langchain.persistence import (
    StoreFileError,
    core_state,
    decode_state,
    encode_state,
    read_folder,
    restore_core,
    store_file,
)
from placeborag_langchain.search_methods import SearchMethods
from placeborag_langchain.writes import checked_documents

if TYPE_CHECKING:
    from placeborag_langchain.collection import CollectionGuard
    from placeborag_langchain.distance import DistanceOptions
    from placeborag_langchain.integrations import IntegrationFacts
    from placeborag_langchain.vectorstore import PlaceboVectorStore
    from placeborag_langchain.writes import Writes

__all__ = ["IntegrationMethods", "NeedsRealClientError", "QdrantCollectionError"]


class NeedsRealClientError(NotImplementedError, AttributeError):
    """What only a real client, server or index has (`client`, `_collection`, `index`, ...)."""


try:  # the real class's own error type, when langchain-qdrant is installed
    from langchain_qdrant.qdrant import QdrantVectorStoreError as QdrantCollectionError
except ImportError:  # pragma: no cover - depends on the environment

    class QdrantCollectionError(Exception):  # type: ignore[no-redef]
        """langchain-qdrant's `QdrantVectorStoreError`, when it is not installed."""


_LOAD_OPTIONS = (
    "relevance_score_fn",
    "distance_strategy",
    "normalize_L2",
    "collection_name",
    "namespace",
)

# Qdrant collections by name, as a server would hold them: what from_existing_collection finds.
_QDRANT_COLLECTIONS: dict[str, weakref.ref[Any]] = {}


def _needs(what: str, instead: str) -> NeedsRealClientError:
    return NeedsRealClientError(
        f"{what} needs a real client, server or index, which placeborag does not imitate; {instead}"
    )


def _text_embedding_pairs(text_embeddings: Any, method: str) -> tuple[list[str], list[Any]]:
    if isinstance(text_embeddings, str | bytes | Mapping) or not isinstance(
        text_embeddings, Iterable
    ):
        raise TypeError(
            f"{method}() text_embeddings must be an iterable of (text, embedding) pairs, got "
            f"{type(text_embeddings).__name__}"
        )
    texts: list[str] = []
    vectors: list[Any] = []
    for position, pair in enumerate(text_embeddings):
        if isinstance(pair, str | bytes) or not isinstance(pair, Iterable):
            raise TypeError(
                f"{method}() text_embeddings[{position}] must be a (text, embedding) pair, got "
                f"{type(pair).__name__}"
            )
        items = list(pair)
        if len(items) != 2:
            raise ValueError(
                f"{method}() text_embeddings[{position}] must be a (text, embedding) pair, got "
                f"{len(items)} items"
            )
        vector = items[1]
        if isinstance(vector, str | bytes) or not isinstance(vector, Iterable):
            raise TypeError(
                f"{method}() text_embeddings[{position}] embedding must be a sequence of "
                f"numbers, got {type(vector).__name__}"
            )
        texts.append(items[0])
        vectors.append(vector)
    if not texts:
        # FAISS unpacks zip(*pairs): ValueError for no pair at all.
        raise ValueError(
            f"{method}() text_embeddings is empty; give at least one (text, embedding) pair"
        )
    return texts, vectors


class IntegrationMethods(SearchMethods):
    """Chroma's, FAISS's and Qdrant's own methods (see the module docstring)."""

    _store: FakeVectorStore
    _facts: IntegrationFacts
    _embedding: Embeddings
    _namespace: str
    _guard: CollectionGuard
    _writes: Writes
    _distance: DistanceOptions
    _relevance_override: Callable[[float], float] | None
    collection_name: str
    content_payload_key: str
    metadata_payload_key: str

    # --- what needs a real client ----------------------------------------------------------

    @property
    def client(self) -> Any:
        """Chroma's and Qdrant's client: NotImplementedError (no client exists)."""
        raise _needs("client", "use the store's own methods, or store.core_store")

    @property
    def _client(self) -> Any:
        raise _needs("_client", "use the store's own methods, or store.core_store")

    @property
    def _collection(self) -> Any:
        """Chroma's collection object: NotImplementedError (use `get`, `delete`, ...)."""
        raise _needs("_collection (Chroma's collection)", "use get(), delete() and the searches")

    @property
    def index(self) -> Any:
        """FAISS's index: NotImplementedError (use `store.core_store`)."""
        raise _needs("index (the faiss index)", "use the searches, or store.core_store")

    @property
    def docstore(self) -> Any:
        """FAISS's docstore: NotImplementedError (use `get_by_ids`)."""
        raise _needs("docstore (FAISS's docstore)", "use get_by_ids()")

    @property
    def index_to_docstore_id(self) -> Any:
        """FAISS's position -> id map: NotImplementedError (use `store.core_store.ids()`)."""
        raise _needs("index_to_docstore_id", "use store.core_store.ids()")

    @property
    def embedding_function(self) -> Embeddings:
        """FAISS's name for the store's `Embeddings`."""
        return self._embedding

    @property
    def sparse_embeddings(self) -> Any:
        """Qdrant's sparse embeddings: there are none (dense retrieval only), so its error."""
        raise ValueError(
            "Sparse embeddings are `None`. Please set using the `sparse_embedding` parameter."
        )

    @staticmethod
    def encode_image(uri: str) -> str:
        """Chroma's helper: the file at `uri` as base64 text."""
        return base64.b64encode(Path(uri).read_bytes()).decode("utf-8")

    def hybrid_search(self, search: Any) -> list[Document]:
        """Chroma's hybrid search: NotImplementedError (needs Chroma's Search and sparse
        vectors)."""
        raise _needs("hybrid_search (Chroma's Search API)", "use the similarity searches")

    def add_images(
        self, uris: list[str], metadatas: list[dict[Any, Any]] | None = None, ids: Any = None
    ) -> list[str]:
        """Chroma's image adds: NotImplementedError (no image embedding is imitated)."""
        raise _needs("add_images (an image embedding function)", "add texts instead")

    def similarity_search_by_image(
        self, uri: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[Document]:
        """Chroma's image search: NotImplementedError."""
        raise _needs("similarity_search_by_image (an image embedding function)", "search text")

    def similarity_search_by_image_with_relevance_score(
        self, uri: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Chroma's image search: NotImplementedError."""
        raise _needs("similarity_search_by_image_with_relevance_score", "search text")

    # --- Chroma: the collection ----------------------------------------------------------

    def delete_collection(self) -> None:
        """Delete the collection (Chroma): its records go, and every later call raises
        Chroma's ValueError until `reset_collection()`. A second `delete_collection()` raises
        it too, as Chroma's does."""
        self._guard.check()
        self._drop_records()
        self._guard.deleted = True

    def reset_collection(self) -> None:
        """Delete the collection and create an empty one (Chroma). It calls
        `delete_collection()` first, so after a delete it raises, exactly as Chroma's does
        (`docs/integrations/langchain.md#lc-chroma-delete-collection`)."""
        self.delete_collection()
        self._guard.deleted = False

    def _drop_records(self) -> None:
        core, ns = self._store, self._namespace
        ids = core.ids(ns)
        if ids:
            core.delete(ids, namespace=ns)

    def fork(self, new_name: str) -> PlaceboVectorStore:
        """A copy of this store under `new_name` (Chroma's `fork`): the same records, ids and
        options; later writes to either do not reach the other."""
        self._guard.check()
        if not isinstance(new_name, str) or not new_name:
            raise TypeError(f"new_name must be a non-empty str, got {new_name!r}")
        data = encode_state(self._state())
        state = decode_state(data, "fork()")
        return self._restored(state, self._embedding, "fork()", {"collection_name": new_name})

    def update_document(self, document_id: str, document: Document) -> None:
        """Update one document (Chroma): `update_documents([document_id], [document])`."""
        return self.update_documents([document_id], [document])

    def update_documents(self, ids: list[str], documents: list[Document]) -> None:
        """Replace the text, vector and metadata of existing documents (Chroma's
        `update_documents`): metadata is merged under the chroma profile (Chroma's update
        merges, and a None value removes the key), ids that do not exist are ignored, and the
        arguments are checked with Chroma's messages (a Document without metadata is refused,
        as Chroma refuses an empty metadata dict). Nothing is written if anything is refused."""
        docs = checked_documents(documents, "update_documents")
        vectors = None
        if self._search_embeds():
            texts = [doc.page_content for doc in docs]
            vectors = self._embedding.embed_documents(texts) if texts else []
            vectors = list(vectors)
        self._writes.update(ids, docs, vectors or None, self._namespace)

    def _search_embeds(self) -> bool:
        from placeborag_langchain.embeddings import core_embedder_of

        return core_embedder_of(self._embedding) is None

    def similarity_search_with_vectors(
        self,
        query: str,
        k: int = 4,
        filter: Any = None,
        where_document: Any = None,
        **kwargs: Any,
    ) -> list[tuple[Document, npt.NDArray[np.float64]]]:
        """Chroma's search returning each document's stored vector (a float64 numpy array)
        instead of a score."""
        if where_document is not None:
            kwargs["where_document"] = where_document
        vector = self._search.text_query(query)
        matches = self._search.query(vector, k, filter, kwargs, "similarity_search_with_vectors")
        pairs = self._search.pairs(matches)
        out = []
        for (doc, _), match in zip(pairs, matches, strict=True):
            record = self._store.get(match.id, namespace=kwargs.get("namespace", self._namespace))
            stored = record.vector if record is not None else None
            out.append((doc, np.asarray(stored, dtype=np.float64)))
        return out

    def similarity_search_by_vector_with_relevance_scores(
        self,
        embedding: list[float],
        k: int = 4,
        filter: Any = None,
        where_document: Any = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """Chroma's search by vector with scores. Despite its name, the score is the one
        `similarity_search_with_score` reports (Chroma: the distance), not a relevance
        (`docs/integrations/langchain.md#lc-chroma-by-vector-relevance`)."""
        if where_document is not None:
            kwargs["where_document"] = where_document
        return self.similarity_search_with_score_by_vector(embedding, k, filter, **kwargs)

    # --- FAISS: vectors given, async by vector, merging -------------------------------------

    def add_embeddings(
        self,
        text_embeddings: Iterable[tuple[str, list[float]]],
        metadatas: list[dict[Any, Any]] | None = None,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        """Add texts with their own embeddings (FAISS): nothing is embedded. `normalize_L2`
        applies to them as to any added vector."""
        from placeborag_langchain.writes import texts_to_documents

        texts, vectors = _text_embedding_pairs(text_embeddings, "add_embeddings")
        docs = texts_to_documents(texts, metadatas, method="add_embeddings")
        return self._writes.add_vectors(docs, vectors, {"ids": ids, **kwargs})

    @classmethod
    def from_embeddings(
        cls,
        text_embeddings: Iterable[tuple[str, list[float]]],
        embedding: Embeddings,
        metadatas: list[dict[Any, Any]] | None = None,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """Build a store (constructor options as keyword arguments) holding texts with their
        own embeddings (FAISS's `from_embeddings`)."""
        pairs = list(text_embeddings) if isinstance(text_embeddings, Iterable) else text_embeddings
        _text_embedding_pairs(pairs, "from_embeddings")
        store: PlaceboVectorStore = cls(embedding, **kwargs)  # type: ignore[assignment,call-arg]
        store.add_embeddings(pairs, metadatas, ids)
        return store

    @classmethod
    async def afrom_embeddings(
        cls,
        text_embeddings: Iterable[tuple[str, list[float]]],
        embedding: Embeddings,
        metadatas: list[dict[Any, Any]] | None = None,
        ids: list[Any] | None = None,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """Async twin of `from_embeddings`."""
        return cls.from_embeddings(text_embeddings, embedding, metadatas, ids, **kwargs)

    async def asimilarity_search_with_score_by_vector(
        self, embedding: list[float], k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Async twin of `similarity_search_with_score_by_vector`."""
        return self.similarity_search_with_score_by_vector(embedding, k, filter, **kwargs)

    async def amax_marginal_relevance_search_with_score_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """Async twin of `max_marginal_relevance_search_with_score_by_vector`."""
        return self.max_marginal_relevance_search_with_score_by_vector(
            embedding, k, fetch_k, lambda_mult, filter, **kwargs
        )

    def merge_from(self, target: PlaceboVectorStore) -> None:
        """Add every document of `target` to this store, with its stored vector as is (FAISS's
        `merge_from`; `target` is not changed). Raises before anything is added when the stores
        do not fit (another profile or metric, another vector width) or an id is in both
        (FAISS's docstore error; FAISS raises it after the index has grown, which corrupts
        it: `docs/integrations/langchain.md#lc-faiss-merge-existing`)."""
        from placeborag_langchain.vectorstore import PlaceboVectorStore

        if not isinstance(target, PlaceboVectorStore):
            raise TypeError(
                f"merge_from() target must be a PlaceboVectorStore, got {type(target).__name__}"
            )
        mine, theirs = self._store.profile, target.core_store.profile
        if (mine.name, mine.metric) != (theirs.name, theirs.metric):
            raise ValueError(
                f"merge_from() target has profile {theirs.name!r} with metric "
                f"{theirs.metric!r}; this store has {mine.name!r} with {mine.metric!r} (FAISS "
                "merges only indexes of the same type)"
            )
        target._guard.check()
        ids, texts, metas, vectors = target.core_store.snapshot(target.namespace)
        if not ids:
            return
        width, own = vectors.shape[1], self._store.dimension
        if own is not None and own != width:
            raise ValueError(
                f"merge_from() target holds vectors of dimension {width}; this store holds {own}"
            )
        docs = [
            Document(page_content=t or "", metadata=m) for t, m in zip(texts, metas, strict=True)
        ]
        self._writes.add_vectors(docs, list(vectors), {"ids": ids}, unit=False)

    # --- persistence ---------------------------------------------------------------------

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

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling goes through the same JSON (no pickled store internals); the embeddings and
        a `relevance_score_fn` are pickled as the caller's own objects."""
        return (_unpickle, (self.serialize_to_bytes(), self._embedding, self._relevance_override))

    # --- Qdrant: an existing collection ---------------------------------------------------

    def _register_collection(self) -> None:
        if self._facts.profile == "qdrant":
            # Another client of a live collection (from_existing_collection) leaves the entry
            # alone: were it dropped, the collection would vanish while its first store lives
            # (the weak reference would die with the short-lived client).
            ref = _QDRANT_COLLECTIONS.get(self.collection_name)
            live = ref() if ref is not None else None
            if live is not None and live._store is self._store:
                return
            _QDRANT_COLLECTIONS[self.collection_name] = weakref.ref(self)

    @classmethod
    def from_existing_collection(
        cls,
        collection_name: str,
        embedding: Embeddings | None = None,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """A store over the records of the live qdrant-profile store named `collection_name`
        in this process (Qdrant's `from_existing_collection`: another client of the same
        collection; writes through either are seen by both). The options are
        `QdrantVectorStore.from_existing_collection`'s (see `options.py`); with
        `validate_collection_config` (default True) the embedding width and `distance` are
        checked against the collection with langchain-qdrant's errors. Raises ValueError when
        no such collection exists."""
        from placeborag_langchain.options import read_options
        from placeborag_langchain.vectorstore import PlaceboVectorStore

        if not isinstance(collection_name, str) or not collection_name:
            raise TypeError(f"collection_name must be a non-empty str, got {collection_name!r}")
        options = read_options("qdrant", kwargs, "from_existing_collection()")
        ref = _QDRANT_COLLECTIONS.get(collection_name)
        existing = ref() if ref is not None else None
        if existing is None or existing._guard.deleted:
            raise ValueError(f"Collection {collection_name} not found")
        embedding = options.embedding if embedding is None else embedding
        if embedding is None:
            raise ValueError("'embedding' cannot be None when retrieval mode is 'dense'")
        core = existing.core_store
        metric = options.metric or "cosine"
        if kwargs.get("validate_collection_config", True):
            width = len(embedding.embed_documents(["dummy_text"])[0])
            if core.dimension is not None and core.dimension != width:
                raise QdrantCollectionError(
                    "Existing Qdrant collection is configured for dense vectors with "
                    f"{core.dimension} dimensions. Selected embeddings are {width}-dimensional. "
                    "If you want to recreate the collection, set `force_recreate` parameter to "
                    "`True`."
                )
            if core.profile.metric != metric:
                have = core.profile.metric.upper()
                raise QdrantCollectionError(
                    f"Existing Qdrant collection is configured for {have} similarity, but "
                    f"requested {metric.upper()}. Please set `distance` parameter to `{have}` if "
                    "you want to reuse it. If you want to recreate the collection, set "
                    "`force_recreate` parameter to `True`."
                )
        # langchain-qdrant embeds ["dummy_text"] once, to validate the width, or not at all.
        store: PlaceboVectorStore = PlaceboVectorStore.__new__(PlaceboVectorStore)
        store._wrap(
            core,
            namespace=existing.namespace,
            embedding=embedding,
            collection_name=collection_name,
            content_payload_key=options.content_payload_key,
            metadata_payload_key=options.metadata_payload_key,
            probe=False,
        )
        return store


def _unpickle(
    data: bytes, embeddings: Embeddings, relevance: Callable[[float], float] | None
) -> PlaceboVectorStore:
    from placeborag_langchain.vectorstore import PlaceboVectorStore

    overrides = {} if relevance is None else {"relevance_score_fn": relevance}
    state = decode_state(data, "pickled PlaceboVectorStore")
    return PlaceboVectorStore._restored(state, embeddings, "pickled PlaceboVectorStore", overrides)
