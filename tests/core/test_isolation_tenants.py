"""The tenant-isolation check passes for real walls and names every leak of a leaky store."""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import pytest

from placeborag_core.corpus.seeding import Document, seed_namespaces
from placeborag_core.embedding.embedder import FakeEmbedder
from placeborag_core.errors import RetrievalTimeout
from placeborag_core.records import Match
from placeborag_core.store import FakeVectorStore
from placeborag_core.testing.isolation import IsolationError, Leak, assert_tenant_isolation

# Each tenant holds near-duplicates of the other's documents: if a query in one namespace could
# see the other, the other's chunk would rank at the top and the check would name it.
TENANTS = {
    "test_seed_rag_acme": [
        Document("refunds", "Refunds are paid within five business days of the return."),
        Document("returns", "Returns must be posted within thirty days of delivery."),
    ],
    "test_seed_rag_globex": [
        Document("refunds-gx", "Refunds are paid within five business days of a return."),
        Document("returns-gx", "Returns must be posted within thirty days after delivery."),
    ],
}


def _seeded(store: FakeVectorStore | None = None) -> FakeVectorStore:
    store = store if store is not None else FakeVectorStore(embedder=FakeEmbedder())
    seed_namespaces(store, TENANTS)
    return store


class _LeakyStore(FakeVectorStore):
    """Answers every query from every namespace: a tag on a shared collection, not a wall."""

    def query(  # type: ignore[override]
        self,
        query: Any,
        k: int = 4,
        *,
        where: Mapping[str, Any] | None = None,
        namespace: str = "",
        ids: Collection[str] | None = None,
        fetch_k: int | None = None,
    ) -> list[Match]:
        found: list[Match] = []
        for name in self.namespaces():
            found.extend(super().query(query, k, where=where, namespace=name))
        return sorted(found, key=lambda match: -match.similarity)[:k]


def test_walls_hold_for_every_profile() -> None:
    for profile in ("default", "chroma", "qdrant", "faiss", "weaviate", "lancedb"):
        assert_tenant_isolation(_seeded(FakeVectorStore(embedder=FakeEmbedder(), profile=profile)))


def test_a_leak_is_named_with_query_namespace_chunk_and_owner() -> None:
    store = _seeded(_LeakyStore(embedder=FakeEmbedder()))
    with pytest.raises(IsolationError) as caught:
        assert_tenant_isolation(store, k=1)
    leaks = caught.value.leaks
    # with k=1 the leak is the other tenant's near-duplicate winning outright for its own text
    gx_refunds = store.ids("test_seed_rag_globex")[0]
    probe = store.get(gx_refunds, namespace="test_seed_rag_globex")
    assert probe is not None
    assert Leak("test_seed_rag_acme", probe.text or "", gx_refunds, "test_seed_rag_globex") in leaks
    message = str(caught.value)
    assert message.startswith(f"tenant isolation violated ({len(leaks)} leaks):")
    assert f"in namespace 'test_seed_rag_acme' returned chunk {gx_refunds!r}" in message
    assert "which belongs to namespace 'test_seed_rag_globex'" in message


def test_explicit_queries_and_namespaces() -> None:
    assert_tenant_isolation(_seeded(), ["test_seed_rag_acme"], queries=["a return"], k=4)
    leaky = _seeded(_LeakyStore(embedder=FakeEmbedder()))
    with pytest.raises(IsolationError) as caught:
        assert_tenant_isolation(leaky, ["test_seed_rag_acme"], queries=["a return"], k=4)
    assert {leak.namespace for leak in caught.value.leaks} == {"test_seed_rag_acme"}
    assert {leak.query for leak in caught.value.leaks} == {"a return"}
    assert {leak.owner for leak in caught.value.leaks} == {"test_seed_rag_globex"}


def test_same_id_with_other_text_is_a_leak_but_a_shared_document_is_not() -> None:
    store = FakeVectorStore(embedder=FakeEmbedder())
    store.upsert("public", "opening hours are nine to five", namespace="a")
    store.upsert("public", "opening hours are nine to five", namespace="b")
    assert_tenant_isolation(store)

    class Swapping(FakeVectorStore):
        def query(self, *args: Any, namespace: str = "", **kwargs: Any) -> list[Match]:  # type: ignore[override]
            other = "b" if namespace == "a" else "a"
            return super().query(*args, namespace=other, **kwargs)

    swapping = Swapping(embedder=FakeEmbedder())
    swapping.upsert("x", "text of tenant a", namespace="a")
    swapping.upsert("x", "text of tenant b", namespace="b")
    with pytest.raises(IsolationError, match="returned chunk 'x', which belongs to namespace 'b'"):
        assert_tenant_isolation(swapping, ["a", "b"])


def test_orphans_are_not_leaks() -> None:
    store = _seeded(FakeVectorStore(embedder=FakeEmbedder(), orphaned_ids=True))
    store.delete(store.ids("test_seed_rag_acme")[:1], namespace="test_seed_rag_acme")
    assert_tenant_isolation(store)


def test_adapter_stores_and_bad_arguments() -> None:
    class Adapter:
        core_store = _seeded()

    assert_tenant_isolation(Adapter())
    with pytest.raises(ValueError, match="k must be an int >= 1, got 0"):
        assert_tenant_isolation(_seeded(), k=0)
    with pytest.raises(TypeError, match="queries must be str, got int"):
        assert_tenant_isolation(_seeded(), queries=[1])  # type: ignore[list-item]


def test_many_leaks_are_summarised() -> None:
    leaks: Sequence[Leak] = [Leak("a", f"q{i}", f"id{i}", None) for i in range(12)]
    message = str(IsolationError(leaks))
    assert "which belongs to no known namespace" in message
    assert message.endswith("... and 2 more")


def test_an_armed_failure_is_neither_raised_nor_consumed_by_the_check() -> None:
    store = _seeded()
    store.fail_next_query(RetrievalTimeout("for the pipeline"), times=2)
    store.fail_next_query(ConnectionError)
    armed = store.armed_failures()
    assert_tenant_isolation(store)
    assert store.armed_failures() == armed
    leaky = _seeded(_LeakyStore(embedder=FakeEmbedder()))
    leaky.fail_next_query()
    with pytest.raises(IsolationError):
        assert_tenant_isolation(leaky, k=1)
    assert leaky.armed_failures() == [(RetrievalTimeout, 1)]
    # the failures still fire for the code under test, in order, once the check is done
    with pytest.raises(RetrievalTimeout, match="for the pipeline"):
        store.query("refunds")
    with pytest.raises(RetrievalTimeout, match="for the pipeline"):
        store.query("refunds")
    with pytest.raises(ConnectionError, match="injected query failure"):
        store.query("refunds")
    assert store.query("refunds", k=1, namespace="test_seed_rag_acme")


def test_only_the_checking_thread_passes_armed_failures_by() -> None:
    store = _seeded()
    store.fail_next_query()
    raised: list[BaseException] = []

    def pipeline() -> None:
        try:
            store.query("refunds")
        except RetrievalTimeout as error:
            raised.append(error)

    with store._failures_held():
        assert store.query("refunds", namespace="test_seed_rag_acme")  # held in this thread
        worker = threading.Thread(target=pipeline)
        worker.start()
        worker.join()
    assert [type(error) for error in raised] == [RetrievalTimeout]
    assert store.armed_failures() == []
