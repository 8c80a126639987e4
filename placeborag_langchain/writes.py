"""Adds: resolve every document's id and check the integration's id rules first.

Nothing is written until the whole batch is known to be acceptable, so a rejected add leaves
the store exactly as it was (FAISS's real add corrupts its index when an id already exists,
`docs/integrations/langchain.md#lc-faiss-ids-existing`; the error is reproduced, the corruption
is not).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from placeborag_core import FakeVectorStore
from placeborag_langchain.distance import DistanceOptions
from placeborag_langchain.ids import DocumentIds, generated_id, repeated

__all__ = ["AddPlan", "Writes", "plan_add", "texts_to_documents"]


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
    texts: Iterable[str], metadatas: list[dict[Any, Any]] | None
) -> list[Document]:
    """`add_texts` arguments as Documents (one metadata dict per text, or none at all)."""
    texts = list(texts)
    if metadatas is not None and len(metadatas) != len(texts):
        raise ValueError(
            f"got {len(metadatas)} metadatas for {len(texts)} texts; pass one per text"
        )
    metas = metadatas if metadatas is not None else [{} for _ in texts]
    pairs = zip(texts, metas, strict=True)
    return [Document(page_content=t, metadata=m or {}) for t, m in pairs]


def _resolve_ids(documents: Sequence[Document], ids: Sequence[Any] | None) -> list[Any | None]:
    if ids is None:
        return [doc.id or None for doc in documents]
    if isinstance(ids, str):
        raise TypeError("ids must be a list of ids, got a single str")
    ids = list(ids)
    if len(ids) != len(documents):
        raise ValueError(
            f"got {len(ids)} ids for {len(documents)} documents; pass one id per document"
        )
    return ids


def plan_add(
    ids_rule: DocumentIds,
    documents: Sequence[Document],
    ids: Sequence[Any] | None,
    ordinal_start: int,
    exists: Callable[[str], bool],
) -> AddPlan:
    """Validate a batch and decide every id (see `AddPlan`); raises before anything is written."""
    facts = ids_rule.facts
    for position, doc in enumerate(documents):
        if not isinstance(doc, Document):
            raise TypeError(
                f"expected langchain_core Document objects, got {type(doc).__name__} at "
                f"position {position}"
            )
    wanted = _resolve_ids(documents, ids)
    returned: list[Any] = []
    core_ids: list[str] = []
    generated = 0
    for doc, requested in zip(documents, wanted, strict=True):
        value = requested
        if value is None:
            value = generated_id(
                doc.page_content, doc.metadata, ordinal_start + generated, facts.generated_id
            )
            generated += 1
        returned.append(value)
        core_ids.append(ids_rule.record_id(value))
    dups = repeated(core_ids)
    if dups and facts.duplicate_ids != "last_wins":
        raise ValueError(facts.duplicate_ids.format(dups=", ".join(dict.fromkeys(dups))))
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
    untouched): then texts go to the core as text and are embedded there. Planning reserves the
    ordinals of the ids it generates, so concurrent adds of the same content never get the same
    generated id.
    """

    def __init__(  # noqa: PLR0917 - the store's parts, in the order the store builds them
        self,
        core: FakeVectorStore,
        ids: DocumentIds,
        distance: DistanceOptions,
        namespace: str,
        embedding: Embeddings,
        native: bool,
    ) -> None:
        self._core = core
        self._ids = ids
        self._distance = distance
        self._namespace = namespace
        self._embedding = embedding
        self._native = native
        self._lock = threading.Lock()
        self._generated = 0

    def add(self, documents: Iterable[Document], kwargs: dict[str, Any]) -> list[Any]:
        """Add `documents` (`kwargs`: the call's `ids`, `namespace` and ignored extras); the
        ids, one per document."""
        ids = kwargs.pop("ids", None)
        ns = kwargs.pop("namespace", self._namespace)
        documents = list(documents)
        plan = self._plan(documents, ids, ns)
        vectors = None
        if not self._native:
            # Every input text is embedded, repeated ids included, as the real stores do.
            every = self._embedding.embed_documents([d.page_content for d in documents])
            vectors = [every[n] for n in plan.positions]
        self._write(plan, vectors, ns)
        return plan.returned

    async def aadd(self, documents: Iterable[Document], kwargs: dict[str, Any]) -> list[Any]:
        """Async twin of `add` (embeds with `aembed_documents`)."""
        ids = kwargs.pop("ids", None)
        ns = kwargs.pop("namespace", self._namespace)
        documents = list(documents)
        plan = self._plan(documents, ids, ns)
        vectors = None
        if not self._native:
            every = await self._embedding.aembed_documents([d.page_content for d in documents])
            vectors = [every[n] for n in plan.positions]
        self._write(plan, vectors, ns)
        return plan.returned

    def _plan(self, documents: Sequence[Document], ids: Sequence[Any] | None, ns: str) -> AddPlan:
        def exists(core_id: str) -> bool:
            return self._core.get(core_id, namespace=ns) is not None

        with self._lock:
            plan = plan_add(self._ids, documents, ids, self._generated, exists)
            self._generated += plan.generated
        return plan

    def _write(self, plan: AddPlan, vectors: list[list[float]] | None, ns: str) -> None:
        columns: list[Sequence[Any]] = [plan.core_ids, plan.texts, plan.metadatas]
        if vectors is not None:
            columns.append(self._distance.unit(vectors))
        self._core.upsert_many(list(zip(*columns, strict=True)), namespace=ns)
