"""Plan an add: resolve every document's id and check the integration's id rules first.

Nothing is written until the whole batch is known to be acceptable, so a rejected add leaves
the store exactly as it was (FAISS's real add corrupts its index when an id already exists; the
error is reproduced, the corruption is not).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.documents import Document

from placeborag_langchain.ids import canonical_qdrant_id, generated_id
from placeborag_langchain.integrations import IntegrationFacts

__all__ = ["AddPlan", "plan_add"]


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


def _core_id(facts: IntegrationFacts, value: Any) -> str:
    if facts.id_style == "qdrant":
        canonical = canonical_qdrant_id(value)
        if canonical is None:
            raise ValueError(f"Point id {value} is not a valid UUID")
        return canonical
    if not isinstance(value, str):
        raise ValueError(facts.id_type_error.format(id=value, type=type(value).__name__))
    if not value:
        raise ValueError(facts.id_empty_error)
    return value


def plan_add(
    facts: IntegrationFacts,
    documents: Sequence[Document],
    ids: Sequence[Any] | None,
    ordinal_start: int,
    exists: Callable[[str], bool],
) -> AddPlan:
    """Validate a batch and decide every id (see `AddPlan`); raises before anything is written."""
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
        core_ids.append(_core_id(facts, value))
    seen: set[str] = set()
    dups = [i for i in core_ids if i in seen or seen.add(i)]  # type: ignore[func-returns-value]
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
