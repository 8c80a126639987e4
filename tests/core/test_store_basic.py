"""FakeVectorStore: writes, reads, validation, dimensions, the embedder contract."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pytest

from placeborag_core import (
    DimensionError,
    Document,
    FakeEmbedder,
    FakeVectorStore,
    Match,
    Record,
    seed_store,
)

KNOWLEDGE_BASE = [
    ("en-1", "our refund policy allows returns within 30 days", "en"),
    ("en-2", "refund policy exceptions for sale items", "en"),
    ("en-3", "how to request a refund under the refund policy", "en"),
    ("en-4", "refund policy for digital purchases", "en"),
    ("hu-1", "pénzvisszatérítési szabályzat harminc napon belül", "hu"),
    ("hu-2", "hogyan kérek vissza pénzt vásárlás után", "hu"),
]


class CountingEmbedder(FakeEmbedder):
    """A FakeEmbedder that records every call, to prove which paths embed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.calls: list[list[str]] = []

    def embed(self, text: str) -> list[float]:
        self.calls.append([text])
        return super().embed(text)

    def embed_many(self, texts: Iterable[str], **options: Any) -> Any:
        batch = list(texts)
        self.calls.append(batch)
        return super().embed_many(batch, **options)


def _kb_store(filter_mode: str) -> FakeVectorStore:
    store = FakeVectorStore(embedder=FakeEmbedder(), filter_mode=filter_mode)  # type: ignore[arg-type]
    for doc_id, text, lang in KNOWLEDGE_BASE:
        store.upsert(doc_id, text, metadata={"lang": lang})
    return store


def test_pre_and_post_filtering_reproduce_the_knowledge_base_example() -> None:
    pre = _kb_store("pre").query("refund policy", k=5, where={"lang": "hu"})
    post = _kb_store("post").query("refund policy", k=5, where={"lang": "hu"})
    assert sorted(m.id for m in pre) == ["hu-1", "hu-2"]
    assert len(post) == 1
    assert post[0].id in {"hu-1", "hu-2"}


def test_post_filter_fetch_k_widens_the_candidate_pool() -> None:
    store = _kb_store("post")
    assert len(store.query("refund policy", k=5, where={"lang": "hu"}, fetch_k=6)) == 2
    # fetch_k is ignored in pre mode
    assert len(_kb_store("pre").query("refund policy", k=1, where={"lang": "hu"}, fetch_k=6)) == 1


def test_query_returns_best_first_with_copies() -> None:
    store = _kb_store("pre")
    matches = store.query("refund policy", k=6)
    assert [m.id for m in matches][:4] == sorted(
        [m.id for m in matches][:4], key=lambda i: -next(m.score for m in matches if m.id == i)
    )
    assert all(isinstance(m, Match) for m in matches)
    scores = [m.score for m in matches]
    assert scores == sorted(scores, reverse=True)
    matches[0].metadata["lang"] = "mutated"
    assert store.query("refund policy", k=1)[0].metadata == {
        "lang": store.get(matches[0].id).metadata["lang"]  # type: ignore[union-attr]
    }
    assert store.get(matches[0].id).metadata["lang"] != "mutated"  # type: ignore[union-attr]


def test_metadata_is_copied_in() -> None:
    store = FakeVectorStore()
    meta: dict[str, Any] = {"tags": ["a"], "n": 1}
    store.upsert("x", None, meta, vector=[1.0, 0.0])
    meta["tags"].append("b")
    meta["n"] = 2
    record = store.get("x")
    assert record is not None
    assert record.metadata == {"tags": ["a"], "n": 1}
    record.metadata["tags"].append("c")
    assert store.get("x").metadata == {"tags": ["a"], "n": 1}  # type: ignore[union-attr]


def test_get_ids_count_namespaces() -> None:
    store = FakeVectorStore()
    assert store.get("nope") is None
    assert store.ids() == []
    assert store.namespaces() == []
    store.upsert("b", "bee", vector=[1.0, 0.0, 0.0])
    store.upsert("a", "ay", {"k": "v"}, vector=[0.0, 1.0, 0.0], namespace="other")
    store.upsert("c", "see", vector=[0.0, 0.0, 2.0])
    assert store.ids() == ["b", "c"]
    assert store.ids("other") == ["a"]
    assert store.count() == 2
    assert store.count("other") == 1
    assert store.namespaces() == ["", "other"]
    assert store.get("a", namespace="other") == Record("a", "ay", {"k": "v"}, (0.0, 1.0, 0.0))
    assert store.get("a") is None
    assert store.dimension == 3


def test_delete_returns_how_many_existed_and_empties_namespaces() -> None:
    store = FakeVectorStore()
    store.upsert("a", None, vector=[1.0, 0.0], namespace="n")
    store.upsert("b", None, vector=[0.0, 1.0], namespace="n")
    assert store.delete(["a", "missing", "a"], namespace="n") == 1
    assert store.delete("b", namespace="n") == 1
    assert store.delete("b", namespace="n") == 0
    assert store.namespaces() == []
    assert store.query([1.0, 0.0], namespace="n") == []


def test_upsert_keeps_slot_and_readd_moves_to_the_end() -> None:
    store = FakeVectorStore()
    for record_id in "cabd":
        store.upsert(record_id, None, vector=[1.0, 0.0])
    store.upsert("a", "new", vector=[1.0, 0.0])
    assert store.ids() == ["c", "a", "b", "d"]
    assert [m.id for m in store.query([1.0, 0.0], k=4)] == ["c", "a", "b", "d"]
    store.delete("c")
    store.upsert("c", None, vector=[1.0, 0.0])
    assert [m.id for m in store.query([1.0, 0.0], k=4)] == ["a", "b", "d", "c"]


def test_upsert_many_accepts_every_record_shape() -> None:
    embedder = CountingEmbedder(dimensions=16)
    store = FakeVectorStore(embedder=embedder)
    vec = embedder.embed("given")
    embedder.calls.clear()
    store.upsert_many(
        [
            Record("r", "record text", {"a": 1}),
            ("t2", "two tuple"),
            ("t3", "three tuple", {"b": 2}),
            ("t4", "four tuple", None, vec),
            {"id": "m", "text": "mapping", "metadata": {"c": 3}},
            {"id": "mv", "text": None, "vector": vec},
        ]
    )
    assert store.ids() == ["r", "t2", "t3", "t4", "m", "mv"]
    # one embed_many call for the four records without vectors, none for the others
    assert embedder.calls == [["record text", "two tuple", "three tuple", "mapping"]]
    assert store.get("t4").vector == pytest.approx(tuple(vec))  # type: ignore[union-attr]


def test_vectors_never_reach_the_embedder() -> None:
    embedder = CountingEmbedder(dimensions=8)
    store = FakeVectorStore(embedder=embedder)
    store.upsert("a", "text is ignored for embedding", vector=[1.0] * 8)
    store.query([1.0] * 8)
    store.trace([1.0] * 8)
    assert embedder.calls == []
    store.query("a text query")
    assert embedder.calls == [["a text query"]]


def test_any_width_works_and_the_first_vector_fixes_it() -> None:
    store = FakeVectorStore()
    assert store.query([1.0, 2.0, 3.0, 4.0, 5.0]) == []  # empty store: any width, no error
    store.upsert("a", None, vector=[1.0] * 5)
    assert store.dimension == 5
    with pytest.raises(DimensionError, match="dimension 5, got 3"):
        store.upsert("b", None, vector=[1.0, 2.0, 3.0])
    with pytest.raises(DimensionError, match="dimension 5, got 2"):
        store.query([1.0, 2.0])
    # other namespaces share the collection's width
    with pytest.raises(DimensionError):
        store.upsert("c", None, vector=[1.0, 2.0], namespace="elsewhere")
    store.delete("a")
    assert store.dimension == 5  # fixed when emptied, like Chroma (chroma-dim-kept-when-emptied)
    # a text query with a 384-wide default embedder no longer fits
    with pytest.raises(DimensionError, match="dimension 5, got 384"):
        store.query("text")


@pytest.mark.parametrize(
    ("record", "error", "message"),
    [
        ((1, "t"), TypeError, "id must be a str, got int 1"),
        (("", "t"), ValueError, "non-empty"),
        (("a", 5), TypeError, "text must be a str or None"),
        (("a", "t", ["x"]), TypeError, "metadata must be a mapping"),
        (("a", "t", {"k": {1, 2}}), TypeError, r"metadata\['k'\] must be str, int, float"),
        (("a", "t", {"k": [1, object()]}), TypeError, r"metadata\['k'\] must be"),
        (("a", "t", {"k": {"x": float("nan")}}), TypeError, r"metadata\['k'\] must be"),
        (("a", "t", {"k": {1: "x"}}), TypeError, r"metadata\['k'\] must be"),
        (("a", "t", {"$k": 1}), ValueError, "must be non-empty str not starting"),
        (("a", "t", None, [1.0, float("nan")]), ValueError, "NaN or infinite"),
        (("a", "t", None, [1.0, float("inf")]), ValueError, "NaN or infinite"),
        (("a", "t", None, [0.0, 0.0]), ValueError, "zero vector"),
        (("a", "t", None, []), ValueError, "non-empty 1-D"),
        (("a", "t", None, [[1.0, 2.0]]), ValueError, "non-empty 1-D"),
        (("a", "t", None, ["x", "y"]), TypeError, "must hold real numbers"),
        (("a", "t", None, "vec"), TypeError, "sequence of numbers"),
        (("a", "t", None, [1e39, 1.0]), ValueError, "too large for float32"),
        (("a", None), ValueError, "neither a text nor a vector"),
        ({"id": "a", "txt": "t"}, ValueError, "needs key 'id'"),
        (["a", "t"], TypeError, "expected a Record, a tuple"),
    ],
)
def test_bad_records_raise_and_write_nothing(record: Any, error: type, message: str) -> None:
    store = FakeVectorStore()
    store.upsert("keep", None, vector=[1.0, 0.0])
    with pytest.raises(error, match=message):
        store.upsert_many([("first-good", None, None, [0.0, 1.0]), record])
    assert store.ids() == ["keep"]
    assert store.get("first-good") is None


def test_batch_mixing_widths_is_rejected_whole() -> None:
    store = FakeVectorStore()
    with pytest.raises(DimensionError, match="record 'b' has dimension 3"):
        store.upsert_many([("a", None, None, [1.0, 0.0]), ("b", None, None, [1.0, 0.0, 0.0])])
    assert store.dimension is None
    assert store.count() == 0


def test_duplicate_ids_in_one_batch_raise_under_default() -> None:
    store = FakeVectorStore()
    with pytest.raises(ValueError, match="duplicate ids in one batch: a"):
        store.upsert_many([("a", None, None, [1.0]), ("a", None, None, [2.0])])
    assert store.count() == 0


def test_text_queries_need_matching_width_and_use_the_embedder() -> None:
    embedder = CountingEmbedder(dimensions=32)
    store = FakeVectorStore(embedder=embedder)
    store.upsert_many([(d, t) for d, t, _ in KNOWLEDGE_BASE])
    embedder.calls.clear()
    matches = store.query("refund policy", k=2)
    assert embedder.calls == [["refund policy"]]
    assert matches[0].id.startswith("en-")
    assert store.embedder is embedder


def test_default_embedder_is_created_lazily_and_is_384_wide() -> None:
    store = FakeVectorStore()
    store.upsert("a", "refund policy")
    assert store.dimension == 384
    assert isinstance(store.embedder, FakeEmbedder)


@pytest.mark.parametrize("k", [0, -1])
def test_default_profile_rejects_non_positive_k(k: int) -> None:
    store = FakeVectorStore()
    with pytest.raises(ValueError, match=f"k must be a positive int \\(1 or larger\\), got {k}"):
        store.query([1.0], k=k)


@pytest.mark.parametrize("k", [1.5, "2", True, None])
def test_default_profile_rejects_non_int_k(k: Any) -> None:
    with pytest.raises(TypeError, match="k must be an int"):
        FakeVectorStore().query([1.0], k=k)


def test_k_larger_than_the_collection_returns_everything() -> None:
    store = FakeVectorStore()
    store.upsert_many([("a", None, None, [1.0, 0.0]), ("b", None, None, [0.0, 1.0])])
    assert [m.id for m in store.query([1.0, 0.1], k=10)] == ["a", "b"]


def test_ids_restriction() -> None:
    store = _kb_store("pre")
    got = store.query("refund policy", k=5, ids={"hu-1", "en-2", "missing"})
    assert sorted(m.id for m in got) == ["en-2", "hu-1"]
    assert store.query("refund policy", ids=[]) == []
    with pytest.raises(TypeError, match="ids must be a collection of str"):
        store.query("refund policy", ids="en-1")


def test_match_similarity_is_raw_cosine_under_every_profile() -> None:
    for profile in ("default", "chroma", "qdrant", "faiss", "weaviate", "lancedb"):
        store = FakeVectorStore(profile=profile)
        store.upsert("1", None, vector=[3.0, 4.0, 0.0])
        (match,) = store.query([2.0, 0.0, 0.0], k=1)
        assert match.similarity == pytest.approx(0.6, abs=1e-6), profile


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"profile": "pinecone"}, ValueError, "unknown profile 'pinecone'; allowed: 'default'"),
        ({"profile": "chroma", "metric": "dot"}, ValueError, "allowed: 'l2', 'cosine', 'ip'"),
        ({"filter_mode": "mid"}, ValueError, "filter_mode must be 'pre' or 'post'"),
        ({"recall": 1.5}, ValueError, r"recall must be in \[0, 1\]"),
        ({"recall": "high"}, TypeError, "recall must be a float"),
        ({"visibility": "eventual"}, ValueError, "visibility must be"),
        ({"orphaned_ids": 1}, TypeError, "orphaned_ids must be a bool"),
    ],
)
def test_bad_constructor_options(kwargs: dict[str, Any], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        FakeVectorStore(**kwargs)


def test_read_only_settings() -> None:
    store = FakeVectorStore(
        profile="qdrant",
        metric="dot",
        filter_mode="post",
        recall=0.5,
        visibility="manual",
        orphaned_ids=True,
    )
    assert (store.profile.name, store.profile.metric) == ("qdrant", "dot")
    assert store.filter_mode == "post"
    assert store.recall == 0.5
    assert store.visibility == "manual"
    assert store.orphaned_ids is True
    with pytest.raises(AttributeError):
        store.recall = 1.0  # type: ignore[misc]


def test_namespace_must_be_a_str() -> None:
    with pytest.raises(TypeError, match="namespace must be a str, got int"):
        FakeVectorStore().upsert("a", None, vector=[1.0], namespace=1)  # type: ignore[arg-type]


def test_numpy_vectors_and_queries() -> None:
    store = FakeVectorStore()
    store.upsert("a", None, vector=np.array([1.0, 0.0], dtype=np.float32))
    vectors: Sequence[float] = np.array([1, 0])  # type: ignore[assignment]
    assert store.query(vectors, k=1)[0].id == "a"


def test_mixed_batches_check_given_against_embedded_widths() -> None:
    store = FakeVectorStore(embedder=FakeEmbedder(dimensions=16))
    with pytest.raises(DimensionError, match="record 'b' has dimension 2, the embedder gives 16"):
        store.upsert_many([("a", "embedded first"), ("b", None, None, [1.0, 0.0])])
    with pytest.raises(DimensionError, match="the embedder gives dimension 16, the batch's first"):
        store.upsert_many([("b", None, None, [1.0, 0.0]), ("a", "embedded second")])
    assert store.dimension is None
    store.upsert_many([("a", "embedded"), ("b", None, None, [1.0] * 16)])
    assert store.ids() == ["a", "b"]


def test_large_batches_are_validated_per_record_when_one_is_bad() -> None:
    store = FakeVectorStore()
    good = [(f"r{i}", None, None, np.ones(4)) for i in range(5)]
    for bad, message in [
        (np.array([1.0, np.nan, 0.0, 0.0]), "record 'bad' contains NaN"),
        (np.zeros(4), "record 'bad' is the zero vector"),
        (np.array([1e39, 0.0, 0.0, 0.0]), "record 'bad' has a component too large"),
        (np.ones(3), "record 'bad' has dimension 3, record 'r0' has 4"),
    ]:
        with pytest.raises(ValueError, match=message):
            store.upsert_many([*good, ("bad", None, None, bad)])
    assert store.count() == 0
    store.upsert_many(good)
    assert store.get("r3").vector == (1.0, 1.0, 1.0, 1.0)  # type: ignore[union-attr]


def test_a_batch_refuses_writes_after_its_block_ended() -> None:
    store = FakeVectorStore(embedder=FakeEmbedder(dimensions=16))
    with store.batch() as batch:
        batch.upsert_many([("a", "first")])
    for late in (lambda: batch.upsert_many([("b", "late")]), lambda: batch.delete(["a"])):
        with pytest.raises(RuntimeError, match="block has ended"):
            late()
    assert store.ids() == ["a"]


def test_a_namespace_name_must_be_valid_unicode() -> None:
    store = FakeVectorStore(embedder=FakeEmbedder(dimensions=16))
    with pytest.raises(ValueError, match="namespace is not valid Unicode"):
        store.upsert("a", "text", namespace="\ud800")
    with pytest.raises(ValueError, match="namespace is not valid Unicode"):
        seed_store(store, [Document("d", "text")], namespace="\udfff")
    assert store.namespaces() == []


def test_a_batch_upserts_one_record_as_the_store_does() -> None:
    store = FakeVectorStore(embedder=FakeEmbedder(dimensions=16))
    with store.batch() as batch:
        batch.upsert("a", "refund policy", {"lang": "en"})
        batch.upsert("b", None, vector=[1.0] * 16, namespace="other")
    assert store.get("a").metadata == {"lang": "en"}  # type: ignore[union-attr]
    assert store.get("b", namespace="other").vector == (1.0,) * 16  # type: ignore[union-attr]


def test_a_record_repr_shows_the_vector_as_its_length() -> None:
    store = FakeVectorStore()
    store.upsert("a", "refund policy", {"k": 1})
    assert repr(store.get("a")) == (
        "Record(id='a', text='refund policy', metadata={'k': 1}, vector=<384 floats>)"
    )
    assert repr(Record("b", None)) == "Record(id='b', text=None, metadata={}, vector=None)"
