"""Adds: resolve every document's id and check the integration's id rules first.

Nothing is written until the whole batch is known to be acceptable, so a rejected add leaves
the store exactly as it was (FAISS's real add corrupts its index when an id already exists,
`docs/integrations/langchain.md#lc-faiss-ids-existing`; the error is reproduced, the corruption
is not).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from placeborag_core import FakeVectorStore
from placeborag_langchain.arguments import checked_namespace
from placeborag_langchain.collection import IdOrdinals
from placeborag_langchain.distance import DistanceOptions
from placeborag_langchain.ids import DocumentIds, generated_id, repeated
from placeborag_langchain.integration_facts import IntegrationFacts
from placeborag_langchain.typed_fields import Collections

__all__ = [
    "AddPlan",
    "Writes",
    "checked_documents",
    "checked_ids",
    "plan_add",
    "resolve_ids",
    "texts_to_documents",
]


@dataclass(frozen=True)
class AddPlan:
    """What an add will write: core ids, texts and metadata (last occurrence of a repeated id
    wins) and the input positions they come from, plus the ids the call returns (one per input
    document, as passed or generated)."""

    returned: list[Any]
    core_ids: list[str]
    texts: list[str]
    metadatas: list[dict[str, Any]]
    generated: int
    positions: list[int]


def texts_to_documents(
    texts: Iterable[str], metadatas: Iterable[Any] | None, *, method: str = "add_texts"
) -> list[Document]:
    """`add_texts` arguments as Documents (one metadata dict, or None, per text, or none at all).

    TypeError for a text that is not a str, a single str passed as `texts`, or a metadata that
    is not a dict; ValueError when the counts differ. `method` names the call in the errors.
    """
    if isinstance(texts, str | bytes) or not isinstance(texts, Iterable):
        raise TypeError(f"{method}() texts must be an iterable of str, got {type(texts).__name__}")
    texts = list(texts)
    for position, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(
                f"{method}() texts[{position}] must be a str, got {type(text).__name__}"
            )
    if metadatas is None:
        metas: list[Any] = [None] * len(texts)
    else:
        if isinstance(metadatas, Mapping | str | bytes) or not isinstance(metadatas, Iterable):
            raise TypeError(
                f"{method}() metadatas must be a list of dicts (one per text) or None, got "
                f"{type(metadatas).__name__}"
            )
        metas = list(metadatas)
        if len(metas) != len(texts):
            raise ValueError(
                f"{method}() got {len(metas)} metadatas for {len(texts)} texts; pass one per text"
            )
    for position, meta in enumerate(metas):
        if meta is not None and not isinstance(meta, Mapping):
            raise TypeError(
                f"{method}() metadatas[{position}] must be a dict or None, got "
                f"{type(meta).__name__}"
            )
    return [
        Document(page_content=t, metadata=dict(m) if m else {})
        for t, m in zip(texts, metas, strict=True)
    ]


def checked_documents(documents: Any, method: str = "add_documents") -> list[Document]:
    """`documents` as a list, each a langchain_core `Document` (TypeError naming the position
    of the first that is not)."""
    if isinstance(documents, str | bytes | Document) or not isinstance(documents, Iterable):
        raise TypeError(
            f"{method}() documents must be a list of Document, got {type(documents).__name__}"
        )
    docs: list[Document] = list(documents)
    for position, doc in enumerate(docs):
        if not isinstance(doc, Document):
            raise TypeError(
                f"expected langchain_core Document objects, got {type(doc).__name__} at "
                f"position {position}"
            )
    return docs


def checked_ids(ids: Any, facts: IntegrationFacts) -> list[Any] | None:
    """The `ids` argument of an add as a list, read once (a generator or iterator can be read
    only once), or None when none was given.

    TypeError for a single str, a mapping or a non-iterable; and, where the integration takes
    the length of `ids` (`IntegrationFacts.sized_ids`: FAISS), for an iterable without one,
    with the TypeError Python raises there.
    """
    if ids is None:
        return None
    if isinstance(ids, str | bytes):
        raise TypeError("ids must be a list of ids, got a single str")
    if isinstance(ids, Mapping) or not isinstance(ids, Iterable):
        raise TypeError(f"ids must be a list of ids or None, got {type(ids).__name__}")
    if facts.sized_ids and not isinstance(ids, Sized):
        raise TypeError(f"object of type '{type(ids).__name__}' has no len()")
    return list(ids)


def resolve_ids(documents: Sequence[Document], ids: Sequence[Any] | None) -> list[Any | None]:
    """One requested id per document: `ids` (the add's argument, as `checked_ids` returns it),
    else each `Document.id` (None where neither gives one)."""
    if ids is None:
        return [doc.id or None for doc in documents]
    wanted = list(ids)
    if len(wanted) != len(documents):
        raise ValueError(
            f"got {len(wanted)} ids for {len(documents)} documents; pass one id per document"
        )
    return wanted


def plan_add(
    ids_rule: DocumentIds,
    documents: Sequence[Document],
    ids: Sequence[Any] | None,
    ordinal_start: int,
    exists: Callable[[str], bool],
) -> AddPlan:
    """Validate a batch and decide every id (see `AddPlan`); raises before anything is written."""
    facts = ids_rule.facts
    if ids is None and not facts.uses_document_ids:
        wanted: list[Any | None] = [None] * len(documents)
    else:
        wanted = resolve_ids(documents, ids)
    # langchain-core's add_documents passes the Document ids on as `ids` when any is set, so a
    # document without one is then a None among the ids the integration receives.
    none_is_passed = ids is not None or any(w is not None for w in wanted)
    returned: list[Any] = []
    core_ids: list[str] = []
    generated = 0
    for doc, requested in zip(documents, wanted, strict=True):
        value = requested
        if value is None:
            if none_is_passed and facts.none_id_error is not None:
                raise facts.none_id_error()
            if facts.generated_id_error is not None:
                raise NotImplementedError(facts.generated_id_error)
            value = generated_id(
                doc.page_content, doc.metadata, ordinal_start + generated, facts.generated_id
            )
            generated += 1
        returned.append(value)
        core_ids.append(ids_rule.record_id(value))
    dups = repeated(core_ids)
    if dups and facts.duplicate_ids != "last_wins":
        raise facts.id_error_type(facts.duplicate_ids.format(dups=", ".join(dict.fromkeys(dups))))
    if facts.existing_id == "append":  # every document is a new row (no primary key)
        return AddPlan(
            returned=returned,
            core_ids=core_ids,
            texts=[doc.page_content for doc in documents],
            metadatas=[doc.metadata for doc in documents],
            generated=generated,
            positions=list(range(len(documents))),
        )
    if facts.existing_id != "upsert":
        existing = {i for i in core_ids if exists(i)}
        if existing:
            raise ValueError(facts.existing_id.format(ids=existing))
    # A repeated id keeps the slot of its first occurrence and the content of its last.
    last: dict[str, int] = {core_id: n for n, core_id in enumerate(core_ids)}
    return AddPlan(
        returned=returned,
        core_ids=list(last),
        texts=[documents[n].page_content for n in last.values()],
        metadatas=[documents[n].metadata for n in last.values()],  # the core copies them
        generated=generated,
        positions=list(last.values()),
    )


class Writes:
    """The adds of one store over its core store, as its integration runs them.

    `embedding` embeds the texts unless `native` (the store's own `PlaceboEmbeddings`,
    untouched): then texts go to the core as text and are embedded there. An add checks its
    arguments, embeds (as the real integrations do, before their client checks the ids), then,
    under the lock, decides the ids and writes: the ordinal of a generated id is taken only when
    the write succeeds, so a failed add leaves no trace, not even in the ids generated later, and
    concurrent adds of the same content never get the same generated id.
    """

    def __init__(  # noqa: PLR0917 - the store's parts, in the order the store builds them
        self,
        core: FakeVectorStore,
        ids: DocumentIds,
        distance: DistanceOptions,
        namespace: str,
        embedding: Embeddings,
        native: bool,
        guard: Callable[[], None],
        ordinals: IdOrdinals,
        collections: Collections | None = None,
    ) -> None:
        self._collections = collections
        self._core = core
        self._ids = ids
        self._distance = distance
        self._namespace = namespace
        self._embedding = embedding
        self._native = native
        self._guard = guard
        self.ordinals = ordinals
        self.overwrite = False
        """Whether an add replaces every row first (``IntegrationFacts.overwrite_by_default``,
        or the constructor's ``mode=``)."""

    def _take(
        self, documents: Any, kwargs: dict[str, Any]
    ) -> tuple[list[Document], list[Any] | None, str]:
        ids = checked_ids(kwargs.pop("ids", None), self._ids.facts)
        ns = checked_namespace(kwargs.pop("namespace", self._namespace))
        documents = checked_documents(documents)
        if ids == [] and documents and self._ids.facts.empty_ids_generate:
            # FAISS: `ids or [uuid4() ...]`, Document.id unused (lc-faiss-ids-empty)
            ids, documents = None, [doc.model_copy(update={"id": None}) for doc in documents]
        resolve_ids(documents, ids)  # the shape of ids, checked before anything is embedded
        empty_error = self._ids.facts.empty_add_error
        if not documents and empty_error is not None:
            raise empty_error[0](empty_error[1])
        return documents, ids, ns

    def add(
        self, documents: Iterable[Document], kwargs: dict[str, Any], *, id_metadata: bool = False
    ) -> list[Any]:
        """Add `documents` (`kwargs`: the call's `ids`, `namespace` and ignored extras); the
        ids, one per document. `id_metadata`: each document's metadata is `{key: its id}`
        (`IntegrationFacts.id_metadata_key`: `add_texts` without metadatas)."""
        docs, ids, ns = self._take(documents, kwargs)
        vectors = None
        if not self._native and docs:
            # Every input text is embedded, repeated ids included, as the real stores do.
            texts = [d.page_content for d in docs]
            vectors = self._checked(self._embedding.embed_documents(texts), len(texts))
        return self._commit(docs, ids, vectors, ns, unit=True, id_metadata=id_metadata)

    async def aadd(self, documents: Iterable[Document], kwargs: dict[str, Any]) -> list[Any]:
        """Async twin of `add` (embeds with `aembed_documents`)."""
        docs, ids, ns = self._take(documents, kwargs)
        vectors = None
        if not self._native and docs:
            texts = [d.page_content for d in docs]
            vectors = self._checked(await self._embedding.aembed_documents(texts), len(texts))
        return self._commit(docs, ids, vectors, ns, unit=True)

    def add_vectors(
        self,
        documents: list[Document],
        vectors: list[Any],
        kwargs: dict[str, Any],
        *,
        unit: bool = True,
    ) -> list[Any]:
        """Add `documents` with their given `vectors` (FAISS's `add_embeddings`, `merge_from`):
        nothing is embedded; `unit=False` stores the vectors exactly as given."""
        docs, ids, ns = self._take(documents, kwargs)
        return self._commit(docs, ids, self._checked(vectors, len(docs)), ns, unit=unit)

    def _checked(self, vectors: Any, expected: int) -> list[Any]:
        if isinstance(vectors, str | bytes) or not isinstance(vectors, Iterable):
            raise TypeError(
                f"the embeddings ({type(self._embedding).__name__}) returned "
                f"{type(vectors).__name__}, not a list of vectors"
            )
        given: list[Any] = list(vectors)
        if len(given) != expected:
            raise ValueError(
                f"got {len(given)} vectors for {expected} texts (from "
                f"{type(self._embedding).__name__}); each text needs exactly one"
            )
        return given

    def _commit(
        self,
        docs: list[Document],
        ids: list[Any] | None,
        vectors: list[Any] | None,
        ns: str,
        *,
        unit: bool,
        id_metadata: bool = False,
    ) -> list[Any]:
        try:
            return self._write(docs, ids, vectors, ns, unit=unit, id_metadata=id_metadata)
        except ValueError as error:
            # langchain-chroma's add_texts re-raises chromadb's refused-metadata ValueError
            # with a hint appended (lc-chroma-metadata-hint).
            hint = self._ids.facts.metadata_error_hint
            if hint is None or hint[0] not in str(error):
                raise
            raise ValueError(f"{error.args[0]}\n\n{hint[1]}") from error

    def _write(
        self,
        docs: list[Document],
        ids: list[Any] | None,
        vectors: list[Any] | None,
        ns: str,
        *,
        unit: bool,
        id_metadata: bool,
    ) -> list[Any]:
        def exists(core_id: str) -> bool:
            return self._core.get(core_id, namespace=ns) is not None

        stored_values = self._ids.facts.stored_values
        if stored_values is not None:
            # The values as the integration's database holds them, or its error for the batch.
            docs = stored_values(docs, resolve_ids(docs, ids))
        with self.ordinals.lock:
            self._guard()
            plan = plan_add(self._ids, docs, ids, self.ordinals.value, exists)
            key = self._ids.facts.id_metadata_key
            metadatas: Sequence[Any] = plan.metadatas
            if id_metadata and key is not None:
                metadatas = [{key: value} for value in plan.returned]
            if self._collections is not None:
                # The collection's typed fields: fixed by the first batch, checked per row.
                metadatas = self._collections.rows(ns, metadatas)
            columns: list[Sequence[Any]] = [plan.core_ids, plan.texts, metadatas]
            if vectors is not None:
                chosen = [vectors[n] for n in plan.positions]
                columns.append(self._distance.unit(chosen) if unit else chosen)
            records = list(zip(*columns, strict=True))
            if self._ids.facts.existing_id == "append":
                if records:
                    self._core.append_many(records, namespace=ns, replace=self.overwrite)
            elif records:
                self._core.upsert_many(records, namespace=ns)
            self.ordinals.value += plan.generated
        return plan.returned

    def update(self, ids: Any, documents: Any, vectors: list[Any] | None, ns: str) -> None:
        """Chroma's `update_documents`: the records of `ids` that exist get the documents' text,
        metadata (merged under the chroma profile, as Chroma's update merges) and vectors;
        ids that do not exist are ignored. Checked with Chroma's messages first."""
        id_list, docs = checked_update(ids, documents, vectors)
        checked_namespace(ns)
        with self.ordinals.lock:
            self._guard()
            keep = [n for n, i in enumerate(id_list) if self._core.get(i, namespace=ns) is not None]
            records = [
                (id_list[n], docs[n].page_content, docs[n].metadata)
                + (() if vectors is None else (self._distance.unit([vectors[n]])[0],))
                for n in keep
            ]
            if records:
                self._core.upsert_many(records, namespace=ns)


def checked_update(
    ids: Any, documents: Any, vectors: list[Any] | None
) -> tuple[list[str], list[Document]]:
    """`update_documents` arguments checked as Chroma checks them (its messages)."""
    docs = checked_documents(documents, "update_documents")
    if isinstance(ids, str | bytes | Mapping) or not isinstance(ids, Iterable):
        raise TypeError(f"update_documents() ids must be a list of str, got {type(ids).__name__}")
    id_list = list(ids)
    if not docs:
        raise ValueError(
            "Expected Embeddings to be non-empty list or numpy array, got [] in update."
        )
    for value in id_list:
        if not isinstance(value, str):
            raise ValueError(f"Expected ID to be a str, got {value} in update.")
        if not value:
            raise ValueError("Empty ID, ID must have at least one character")
    if len(id_list) != len(docs):
        n = len(docs)
        raise ValueError(
            f"Unequal lengths for fields: ids: {len(id_list)}, metadatas: {n}, embeddings: "
            f"{n if vectors is None else len(vectors)}, documents: {n} in update."
        )
    dups = repeated(id_list)
    if dups:
        raise ValueError(
            "Expected IDs to be unique, found duplicates of: "
            f"{', '.join(dict.fromkeys(dups))} in update."
        )
    for doc in docs:
        if not doc.metadata:
            raise ValueError(
                "Expected metadata to be a non-empty dict, got 0 metadata attributes in update."
            )
    return id_list, docs
