"""langchain_core.indexing.index over PlaceboVectorStore with an InMemoryRecordManager."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document
from langchain_core.indexing import InMemoryRecordManager, index

from placeborag_langchain import PlaceboEmbeddings, PlaceboVectorStore


@pytest.fixture
def store() -> PlaceboVectorStore:
    return PlaceboVectorStore(PlaceboEmbeddings(dimensions=32))


@pytest.fixture
def manager() -> InMemoryRecordManager:
    rm = InMemoryRecordManager(namespace="placebo/test")
    rm.create_schema()
    return rm


def docs(*pairs: tuple[str, str]) -> list[Document]:
    return [Document(page_content=text, metadata={"source": source}) for text, source in pairs]


def contents(store: PlaceboVectorStore) -> list[str]:
    core = store.core_store
    return sorted(r.text or "" for r in (core.get(i) for i in core.ids()) if r is not None)


def run(
    store: PlaceboVectorStore, manager: InMemoryRecordManager, batch: list[Document], cleanup: str
) -> dict[str, int]:
    result = index(
        batch,
        manager,
        store,
        cleanup=cleanup,
        source_id_key="source",
        key_encoder="sha256",  # type: ignore[arg-type]
    )
    return dict(result)


def test_incremental_cleanup_adds_skips_and_deletes(
    store: PlaceboVectorStore, manager: InMemoryRecordManager
) -> None:
    first = docs(("refund policy v1", "refunds.md"), ("shipping times", "shipping.md"))
    assert run(store, manager, first, "incremental") == {
        "num_added": 2,
        "num_updated": 0,
        "num_skipped": 0,
        "num_deleted": 0,
    }
    assert run(store, manager, first, "incremental") == {
        "num_added": 0,
        "num_updated": 0,
        "num_skipped": 2,
        "num_deleted": 0,
    }
    changed = docs(("refund policy v2", "refunds.md"))
    assert run(store, manager, changed, "incremental") == {
        "num_added": 1,
        "num_updated": 0,
        "num_skipped": 0,
        "num_deleted": 1,
    }
    # shipping.md was not in this batch: incremental cleanup leaves it alone.
    assert contents(store) == ["refund policy v2", "shipping times"]


def test_full_cleanup_deletes_everything_not_in_the_batch(
    store: PlaceboVectorStore, manager: InMemoryRecordManager
) -> None:
    run(store, manager, docs(("a text", "a.md"), ("b text", "b.md"), ("c text", "c.md")), "full")
    result = run(store, manager, docs(("a text", "a.md"), ("b text v2", "b.md")), "full")
    assert result == {"num_added": 1, "num_updated": 0, "num_skipped": 1, "num_deleted": 2}
    assert contents(store) == ["a text", "b text v2"]
    assert store.core_store.count() == len(manager.list_keys())
