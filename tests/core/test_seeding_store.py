"""Seeding reconciles a namespace with its documents: idempotent, self-repairing, tenant-scoped."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core.corpus.chunking import WordChunker
from placeborag_core.corpus.documents_file import DocumentsFileError, read_documents_jsonl
from placeborag_core.corpus.seeding import (
    Document,
    SeedReport,
    chunk_documents,
    seed_namespaces,
    seed_store,
)
from placeborag_core.embedding.embedder import FakeEmbedder
from placeborag_core.store import FakeVectorStore
from placeborag_core.store.unwrap import core_store_of

CHUNKER = WordChunker(size=4)
DOCS = [
    Document("refunds", "Refunds are paid within five business days of the return.", {"tier": 1}),
    Document("returns", "Returns must be posted within thirty days of delivery.", {"tier": 2}),
]


def _snapshot(store: FakeVectorStore, namespace: str = "") -> dict[str, Any]:
    return {
        record_id: store.get(record_id, namespace=namespace) for record_id in store.ids(namespace)
    }


def _store(**options: Any) -> FakeVectorStore:
    return FakeVectorStore(embedder=FakeEmbedder(), **options)


def test_first_run_writes_every_chunk_with_its_metadata() -> None:
    store = _store()
    report = seed_store(store, DOCS, chunker=CHUNKER)
    expected = chunk_documents(DOCS, CHUNKER)
    assert report == SeedReport(namespace="", upserted=len(expected), unchanged=0, deleted=0)
    assert report.expected == len(expected)
    assert report.changed
    assert sorted(store.ids()) == sorted(c.id for c in expected)
    record = store.get(expected[0].id)
    assert record is not None
    assert record.text == expected[0].text
    assert record.metadata == dict(expected[0].metadata)


def test_second_run_changes_nothing() -> None:
    store = _store()
    seed_store(store, DOCS, chunker=CHUNKER)
    before = _snapshot(store)
    report = seed_store(store, DOCS, chunker=CHUNKER)
    assert report == SeedReport("", upserted=0, unchanged=len(before), deleted=0)
    assert not report.changed
    assert _snapshot(store) == before
    assert store.ids() == list(before)  # listing order untouched too


@pytest.mark.parametrize("profile", ["default", "chroma", "qdrant", "faiss", "weaviate", "lancedb"])
def test_idempotent_under_every_profile(profile: str) -> None:
    # qdrant re-normalises vectors on write and accepts only uint/UUID ids: chunk ids are dashed
    # UUIDs, stored as given, and the comparison tolerates float32 re-normalisation
    store = _store(profile=profile)
    seed_store(store, DOCS, chunker=CHUNKER)
    assert seed_store(store, DOCS, chunker=CHUNKER).upserted == 0


def test_changed_text_metadata_or_stale_ids_are_reconciled() -> None:
    store = _store()
    seed_store(store, DOCS, chunker=CHUNKER)
    edited = [
        Document("refunds", DOCS[0].text, {"tier": 9}),  # metadata only: same ids, rewritten
        Document("new", "Store credit is instant.", {}),  # added
    ]  # "returns" removed
    report = seed_store(store, edited, chunker=CHUNKER)
    refunds = [c for c in chunk_documents(edited, CHUNKER) if c.doc_id == "refunds"]
    returns = [c for c in chunk_documents(DOCS, CHUNKER) if c.doc_id == "returns"]
    assert report.upserted == len(refunds) + 1
    assert report.unchanged == 0
    assert report.deleted == len(returns)
    assert sorted(store.ids()) == sorted(c.id for c in chunk_documents(edited, CHUNKER))
    assert all(store.get(c.id).metadata["tier"] == 9 for c in refunds)  # type: ignore[union-attr]


def test_a_record_tampered_in_place_is_rewritten() -> None:
    store = _store()
    seed_store(store, DOCS, chunker=CHUNKER)
    victim = store.ids()[0]
    store.upsert(victim, "something else entirely")
    report = seed_store(store, DOCS, chunker=CHUNKER)
    assert (report.upserted, report.deleted) == (1, 0)


def test_a_wrong_vector_is_rewritten() -> None:
    store = _store()
    seed_store(store, DOCS, chunker=CHUNKER)
    victim = store.get(store.ids()[0])
    assert victim is not None
    wrong = FakeEmbedder(model_name="other").embed(victim.text or "")
    store.upsert(victim.id, victim.text, victim.metadata, vector=wrong)
    report = seed_store(store, DOCS, chunker=CHUNKER)
    assert (report.upserted, report.deleted) == (1, 0)


def test_rechunking_replaces_every_chunk() -> None:
    store = _store()
    first = seed_store(store, DOCS, chunker=CHUNKER)
    report = seed_store(store, DOCS, chunker=WordChunker(size=3))
    assert report.deleted == first.upserted
    assert report.upserted == len(chunk_documents(DOCS, WordChunker(size=3)))
    assert store.count() == report.upserted


class _FlakyStore(FakeVectorStore):
    """Fails while its next batch of writes is being collected, like a seeding job that dies."""

    def __init__(self, fail: bool) -> None:
        super().__init__(embedder=FakeEmbedder())
        self.fail = fail

    @contextlib.contextmanager
    def batch(self) -> Iterator[Any]:
        with super().batch() as batch:
            yield batch
            if self.fail:
                self.fail = False
                raise ConnectionError("connection reset during seeding")


def _clean(documents: list[Document]) -> dict[str, Any]:
    clean = _store()
    seed_store(clean, documents, chunker=CHUNKER)
    return _snapshot(clean)


def test_a_run_after_a_half_finished_one_writes_only_what_is_missing() -> None:
    store = _store()
    seed_store(store, DOCS[:1], chunker=CHUNKER)  # the job died before the second document
    report = seed_store(store, DOCS, chunker=CHUNKER)
    first = len(chunk_documents(DOCS[:1], CHUNKER))
    total = len(chunk_documents(DOCS, CHUNKER))
    assert (report.upserted, report.unchanged, report.deleted) == (total - first, first, 0)
    assert _snapshot(store) == _clean(DOCS)


def test_a_failed_write_leaves_the_namespace_untouched_and_a_rerun_repairs() -> None:
    store = _FlakyStore(fail=False)
    seed_store(store, DOCS[:1], chunker=CHUNKER)
    before = _snapshot(store)
    store.fail = True
    with pytest.raises(ConnectionError):
        seed_store(store, DOCS[1:], chunker=CHUNKER)  # writes and deletes: neither lands
    assert _snapshot(store) == before  # all or nothing
    stale = len(chunk_documents(DOCS[:1], CHUNKER))
    report = seed_store(store, DOCS[1:], chunker=CHUNKER)
    assert report.deleted == stale
    assert _snapshot(store) == _clean(DOCS[1:])


def test_seeding_several_namespaces_is_all_or_nothing() -> None:
    store = _store()
    good = [Document("d1", "our refund policy allows returns", {"lang": "en"})]
    bad = [Document("d2", "x", {"$bad": 1})]
    with pytest.raises(
        ValueError, match=r"^document 'd2': metadata keys must be non-empty str not starting"
    ):
        seed_namespaces(store, {"a": good, "b": bad}, chunker=CHUNKER)
    assert store.namespaces() == []  # "a" sorts first and was fine: still not written


def test_metadata_the_store_rejects_writes_nothing() -> None:
    store = _store()
    seed_store(store, DOCS, chunker=CHUNKER)
    before = _snapshot(store)
    unstorable = [*DOCS, Document("bad", "a set is no metadata value", {"owner": {"x", "y"}})]
    # the message names the document, not the id of the chunk that would have carried the value
    with pytest.raises(TypeError, match=r"^document 'bad': metadata\['owner'\] must be"):
        seed_store(store, unstorable, chunker=CHUNKER, batch_size=1)
    assert _snapshot(store) == before


def test_namespaces_are_seeded_independently() -> None:
    store = _store()
    reports = seed_namespaces(store, {"globex": DOCS[1:], "acme": DOCS}, chunker=CHUNKER)
    assert list(reports) == ["acme", "globex"]
    assert store.namespaces() == ["acme", "globex"]
    seed_store(store, [], namespace="acme", chunker=CHUNKER)  # offboarding acme
    assert store.namespaces() == ["globex"]
    assert store.count("globex") == reports["globex"].upserted


def test_progress_reports_each_batch() -> None:
    calls: list[tuple[int, int]] = []
    seed_store(
        _store(), DOCS, chunker=CHUNKER, batch_size=4, progress=lambda d, t: calls.append((d, t))
    )
    total = len(chunk_documents(DOCS, CHUNKER))
    assert calls[-1] == (total, total)
    assert [done for done, _ in calls] == [*range(4, total, 4), total]


def test_bad_input_raises_before_anything_is_written() -> None:
    store = _store()
    seed_store(store, DOCS, namespace="acme", chunker=CHUNKER)
    before = _snapshot(store, "acme")
    with pytest.raises(ValueError, match="document id 'refunds' appears more than once"):
        seed_store(store, [*DOCS, DOCS[0]], namespace="acme", chunker=CHUNKER)
    with pytest.raises(ValueError, match="batch_size must be an int >= 1, got 0"):
        seed_store(store, DOCS, namespace="acme", batch_size=0)
    with pytest.raises(TypeError, match="namespace must be a str, got int"):
        seed_store(store, DOCS, namespace=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="appears more than once"):
        seed_namespaces(store, {"acme": [], "globex": [DOCS[0], DOCS[0]]})
    assert _snapshot(store, "acme") == before
    assert store.namespaces() == ["acme"]


def test_adapter_stores_are_unwrapped_and_others_rejected() -> None:
    core = _store()

    class Adapter:
        core_store = core

    assert core_store_of(Adapter()) is core
    seed_store(Adapter(), DOCS, chunker=CHUNKER)
    assert core.count() > 0
    with pytest.raises(TypeError, match=r"exposing it as \.core_store, got dict"):
        seed_store({}, DOCS)


def test_read_documents_jsonl_groups_by_namespace(tmp_path: Path) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text(
        '{"id": "a", "text": "alpha", "namespace": "acme", "metadata": {"lang": "en"}}\n'
        "\n"
        '{"id": "a", "text": "alpha again", "namespace": "globex"}\n'
        '{"id": "b", "text": "beta"}\n',
        encoding="utf-8",
    )
    assert read_documents_jsonl(path) == {
        "acme": [Document("a", "alpha", {"lang": "en"})],
        "globex": [Document("a", "alpha again", {})],
        "": [Document("b", "beta", {})],
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"id": "a", "text": "x"}\n{"id": "b", "text": \n', "docs.jsonl:2: invalid JSON"),
        ("[1, 2]\n", "docs.jsonl:1: expected a JSON object, got list"),
        ('{"id": "a", "txt": "x"}\n', "docs.jsonl:1: unknown keys \\['txt'\\]"),
        ('{"id": "", "text": "x"}\n', "docs.jsonl:1: 'id' must be a non-empty string"),
        ('{"id": "a", "text": 1}\n', "docs.jsonl:1: 'text' must be a string, got int"),
        (
            '{"id": "a", "text": "x", "metadata": []}\n',
            "docs.jsonl:1: 'metadata' must be an object",
        ),
        (
            '{"id": "a", "text": "x", "namespace": 1}\n',
            "docs.jsonl:1: 'namespace' must be a string",
        ),
        ('{"id": "a", "text": "x", "metadata": {"doc_id": 1}}\n', "docs.jsonl:1: metadata keys"),
        (
            '{"id": "a", "text": "x"}\n\n{"id": "a", "text": "y"}\n',
            "docs.jsonl:3: document id 'a' already used on line 1",
        ),
    ],
)
def test_read_documents_jsonl_names_file_and_line(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DocumentsFileError, match=message):
        read_documents_jsonl(path)


def test_read_documents_jsonl_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DocumentsFileError, match=r"nope\.jsonl: cannot read: No such file"):
        read_documents_jsonl(tmp_path / "nope.jsonl")


_WORDS = st.sampled_from(["refund", "return", "parcel", "days", "five", "ten", "policy"])
_CORPUS = st.dictionaries(
    st.sampled_from(["a", "b", "c", "d"]),
    st.lists(_WORDS, min_size=0, max_size=9).map(" ".join),
    max_size=4,
)


@settings(max_examples=25, derandomize=True, deadline=None)
@given(before=_CORPUS, after=_CORPUS)
def test_reseeding_any_corpus_equals_seeding_it_fresh(
    before: dict[str, str], after: dict[str, str]
) -> None:
    def docs(corpus: dict[str, str]) -> list[Document]:
        return [Document(doc_id, text, {"len": len(text)}) for doc_id, text in corpus.items()]

    store = _store()
    seed_store(store, docs(before), chunker=CHUNKER)
    seed_store(store, docs(after), chunker=CHUNKER)
    assert _snapshot(store) == _clean(docs(after))
    again = seed_store(store, docs(after), chunker=CHUNKER)
    assert (again.upserted, again.deleted) == (0, 0)
