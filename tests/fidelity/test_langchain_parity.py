"""Drop-in parity: the real classes' own methods, against the real classes, in process.

Each test calls the same method, with the same arguments, on ``langchain_chroma.Chroma``,
``langchain_qdrant.QdrantVectorStore`` or ``langchain_community`` FAISS and on
``PlaceboVectorStore`` under the matching profile, and compares what comes back (documents,
ids, scores and their types, vectors) or the error (its type, and its message where the message
is the contract). Where we deliberately differ, the test pins the difference and names the row
of ``docs/integrations/langchain-parity.md`` that documents it.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import uuid
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

pytestmark = pytest.mark.fidelity

SUNSET = "`langchain-community` is being sunset"
_NAMES = itertools.count()
TEXTS = ["refund policy", "shipping times", "refund window", "privacy notice", "billing cycle"]
METAS: list[dict[str, Any]] = [
    {"page": 1, "topic": "refunds"},
    {"page": None, "topic": "shipping"},
    {"topic": "refunds"},
    {"page": 4, "details": {"page": 2}},
    {"page": 5, "details": [{"page": 2}, {"page": 7}]},
]


def _embeddings() -> Any:
    from placeborag_langchain import PlaceboEmbeddings

    return PlaceboEmbeddings(dimensions=16)


def _faiss() -> tuple[Any, Any]:
    pytest.importorskip("faiss")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=SUNSET, category=DeprecationWarning)
        from langchain_community.vectorstores import FAISS
        from langchain_community.vectorstores.utils import DistanceStrategy
    return FAISS, DistanceStrategy


def _chroma(emb: Any, **kwargs: Any) -> Any:
    chromadb = pytest.importorskip("chromadb")
    from chromadb.config import Settings

    chroma_cls = pytest.importorskip("langchain_chroma").Chroma
    client = chromadb.EphemeralClient(Settings(anonymized_telemetry=False))
    return chroma_cls(
        collection_name=f"parity{next(_NAMES)}", embedding_function=emb, client=client, **kwargs
    )


class Raised:
    """An exception as compared: equal to another when the messages' first lines are equal
    and this one (ours, on the left) is catchable as the other's builtin base type, as a
    test written for the real class catches it (chromadb's DuplicateIDError is a plain
    Exception; ours is a ValueError, which `except Exception` catches too)."""

    KINDS = (NotImplementedError, KeyError, TypeError, ValueError, AttributeError, Exception)

    def __init__(self, error: Exception, *, message: bool = True) -> None:
        self.error = error
        self.kind = next(k for k in self.KINDS if isinstance(error, k))
        self.message = str(error).split("\n")[0] if message else None

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Raised):
            return NotImplemented
        return isinstance(self.error, other.kind) and (
            self.message is None or other.message is None or self.message == other.message
        )

    def __repr__(self) -> str:
        return f"Raised({type(self.error).__name__}: {self.message})"


def outcome(fn: Callable[[], Any], *, message: bool = True) -> tuple[str, Any]:
    """("ok", value) or ("raises", Raised(error)); `message=False` compares the type only."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # out-of-range relevance, on both
            return "ok", fn()
    except Exception as exc:
        return "raises", Raised(exc, message=message)


def docs_of(results: list[Any]) -> list[tuple[Any, str, dict[str, Any]]]:
    """Documents (or the documents of (document, score) pairs) as comparable tuples."""
    docs = [item[0] if isinstance(item, tuple) else item for item in results]
    return [(d.id, d.page_content, d.metadata) for d in docs]


# --- Chroma ------------------------------------------------------------------------------------


def chroma_pair() -> tuple[Any, Any]:
    from placeborag_langchain import PlaceboVectorStore

    emb = _embeddings()
    real = _chroma(emb)
    ours = PlaceboVectorStore(emb, profile="chroma")
    ids = [f"id{i}" for i in range(len(TEXTS))]
    metas = [{k: v for k, v in m.items() if not isinstance(v, dict | list)} for m in METAS]
    metas = [{k: v for k, v in m.items() if v is not None} for m in metas]
    for store in (real, ours):
        store.add_texts(TEXTS, metas, ids=ids)
    return real, ours


def test_chroma_delete_collection_and_reset_collection_match() -> None:
    real, ours = chroma_pair()
    calls: list[Callable[[Any], Any]] = [
        lambda s: s.delete_collection(),
        lambda s: s.similarity_search("refund", k=2),
        lambda s: s.add_texts(["new"]),
        lambda s: s.get(),
        lambda s: s.get_by_ids(["id0"]),
        lambda s: s.delete(["id0"]),
        lambda s: s.similarity_search_with_relevance_scores("refund", k=2),
        lambda s: s.max_marginal_relevance_search("refund", k=2),
        lambda s: s.delete_collection(),  # a second delete raises (no collection)
        lambda s: s.reset_collection(),  # and so does reset: it deletes first
    ]
    for n, call in enumerate(calls):
        assert outcome(lambda c=call: c(ours)) == outcome(lambda c=call: c(real)), n


def test_chroma_reset_collection_empties_the_collection() -> None:
    real, ours = chroma_pair()
    for store in (real, ours):
        store.reset_collection()
    assert outcome(ours.get) == outcome(real.get)
    for store in (real, ours):
        store.add_texts(["after reset"], ids=["r"])
    assert docs_of(ours.similarity_search_with_score("reset", k=3)) == docs_of(
        real.similarity_search_with_score("reset", k=3)
    )


def _doc(text: str, **metadata: Any) -> Any:
    from langchain_core.documents import Document

    return Document(page_content=text, metadata=metadata)


UPDATES: list[Any] = [
    (["id0", "missing"], [_doc("refund policy v2", page=9), _doc("ghost", page=1)]),
    (["id1"], [_doc("shipping soon", topic=None, extra="x")]),  # None removes "topic"
    (["id2"], [_doc("no metadata")]),  # Chroma refuses empty metadata
    (["id0", "id1"], [_doc("one", a=1)]),  # unequal lengths
    (["id0", "id0"], [_doc("a", a=1), _doc("b", a=2)]),  # duplicates
    ([3], [_doc("x", a=1)]),  # a non-str id
    ([], []),
]


@pytest.mark.parametrize(("ids", "documents"), UPDATES)
def test_chroma_update_documents_matches(ids: Any, documents: Any) -> None:
    real, ours = chroma_pair()
    assert outcome(lambda: ours.update_documents(ids, documents)) == outcome(
        lambda: real.update_documents(ids, documents)
    )
    assert ours.get(include=["documents", "metadatas"]) == real.get(
        include=["documents", "metadatas"]
    )
    assert docs_of(ours.similarity_search_with_score("policy", k=5)) == docs_of(
        real.similarity_search_with_score("policy", k=5)
    )


def test_chroma_update_document_matches() -> None:
    real, ours = chroma_pair()
    for store in (real, ours):
        assert store.update_document("id3", _doc("privacy policy", page=3)) is None
    assert ours.get(ids=["id3"]) == real.get(ids=["id3"])


def test_chroma_similarity_search_with_vectors_matches() -> None:
    real, ours = chroma_pair()
    theirs = real.similarity_search_with_vectors("refund", k=3, filter={"topic": "refunds"})
    mine = ours.similarity_search_with_vectors("refund", k=3, filter={"topic": "refunds"})
    assert docs_of(mine) == docs_of(theirs)
    for (_, a), (_, b) in zip(mine, theirs, strict=True):
        assert type(a) is type(b)
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, atol=1e-7)
    where_document = {"$contains": "refund"}
    assert docs_of(ours.similarity_search_with_vectors("x", where_document=where_document)) == (
        docs_of(real.similarity_search_with_vectors("x", where_document=where_document))
    )


def test_chroma_search_by_vector_with_relevance_scores_reports_distances() -> None:
    real, ours = chroma_pair()
    query = _embeddings().embed_query("refund")
    theirs = real.similarity_search_by_vector_with_relevance_scores(query, k=4)
    mine = ours.similarity_search_by_vector_with_relevance_scores(query, k=4)
    assert docs_of(mine) == docs_of(theirs)
    assert [type(s) for _, s in mine] == [type(s) for _, s in theirs]
    np.testing.assert_allclose([s for _, s in mine], [s for _, s in theirs], atol=2.5e-7)
    # the same numbers as the plain score search: distances, despite the name
    plain = real.similarity_search_with_score("refund", k=4)
    np.testing.assert_allclose([s for _, s in theirs], [s for _, s in plain], atol=2.5e-7)
    flt = {"topic": "refunds"}
    assert docs_of(
        ours.similarity_search_by_vector_with_relevance_scores(query, filter=flt)
    ) == docs_of(real.similarity_search_by_vector_with_relevance_scores(query, filter=flt))


def test_chroma_constructor_options_match() -> None:
    from placeborag_langchain import PlaceboVectorStore

    emb = _embeddings()
    real = _chroma(emb, collection_metadata={"hnsw:space": "cosine"})
    ours = PlaceboVectorStore(
        embedding_function=emb, profile="chroma", collection_metadata={"hnsw:space": "cosine"}
    )
    assert ours.core_store.profile.metric == "cosine"
    for store in (real, ours):
        store.add_texts(TEXTS, ids=[f"id{i}" for i in range(len(TEXTS))])
    _, theirs = outcome(lambda: real.similarity_search_with_relevance_scores("refund", k=5))
    _, mine = outcome(lambda: ours.similarity_search_with_relevance_scores("refund", k=5))
    assert docs_of(mine) == docs_of(theirs)
    np.testing.assert_allclose([s for _, s in mine], [s for _, s in theirs], atol=2.5e-7)


# --- Qdrant ------------------------------------------------------------------------------------


def qdrant_pair(**options: Any) -> tuple[Any, Any]:
    from placeborag_langchain import PlaceboVectorStore

    qdrant = pytest.importorskip("langchain_qdrant")
    emb = _embeddings()
    name = f"parity{next(_NAMES)}"
    ids = [str(uuid.UUID(int=i + 1)) for i in range(len(TEXTS))]
    real = qdrant.QdrantVectorStore.from_texts(
        TEXTS, emb, METAS, ids, location=":memory:", collection_name=name, **options
    )
    ours = PlaceboVectorStore.from_texts(
        TEXTS, emb, METAS, ids, profile="qdrant", location=":memory:", collection_name=name,
        **options,
    )  # fmt: skip
    return real, ours


def _field(key: str, **condition: Any) -> Any:
    from qdrant_client import models

    return models.Filter(must=[models.FieldCondition(key=key, **condition)])


def nested_filters() -> list[Any]:
    pytest.importorskip("qdrant_client")
    from qdrant_client import models

    return [
        _field("metadata.details.page", match=models.MatchValue(value=2)),
        _field("metadata.details[].page", match=models.MatchValue(value=2)),
        _field("metadata.details[].page", match=models.MatchValue(value=7)),
        _field("metadata.details[1].page", match=models.MatchAny(any=[7, 8])),
        _field("metadata.details.page", range=models.Range(gte=2)),
        models.Filter(
            must_not=[
                models.FieldCondition(key="metadata.details.page", match=models.MatchValue(value=2))
            ]
        ),
        models.Filter(
            must=[
                models.IsEmptyCondition(is_empty=models.PayloadField(key="metadata.details.page"))
            ]
        ),
        _field("metadata.details.page.deeper", match=models.MatchValue(value=2)),
    ]


@pytest.mark.parametrize("n", range(8))
def test_qdrant_nested_payload_paths_match(n: int) -> None:
    flt = nested_filters()[n]
    real, ours = qdrant_pair()
    theirs = real.similarity_search_with_score("refund", k=5, filter=flt)
    mine = ours.similarity_search_with_score("refund", k=5, filter=flt)
    assert docs_of(mine) == docs_of(theirs)
    np.testing.assert_allclose([s for _, s in mine], [s for _, s in theirs], atol=2.5e-7)


def test_qdrant_payload_keys_match() -> None:
    from qdrant_client import models

    options = {"content_payload_key": "body", "metadata_payload_key": "meta"}
    real, ours = qdrant_pair(**options)
    assert (ours.content_payload_key, ours.metadata_payload_key) == ("body", "meta")
    filters = [
        _field("meta.topic", match=models.MatchValue(value="refunds")),
        _field("metadata.topic", match=models.MatchValue(value="refunds")),  # the default key
        _field("body", match=models.MatchText(text="refund")),
        _field("page_content", match=models.MatchText(text="refund")),
        _field("meta.details[].page", match=models.MatchValue(value=7)),
    ]
    for flt in filters:
        theirs = real.similarity_search("refund", k=5, filter=flt)
        assert docs_of(ours.similarity_search("refund", k=5, filter=flt)) == docs_of(theirs)


def test_qdrant_from_existing_collection_matches(tmp_path: Path) -> None:
    from placeborag_langchain import PlaceboVectorStore

    qdrant = pytest.importorskip("langchain_qdrant")
    emb = _embeddings()
    ids = [str(uuid.UUID(int=i + 1)) for i in range(len(TEXTS))]
    real_first = qdrant.QdrantVectorStore.from_texts(
        TEXTS, emb, METAS, ids, path=str(tmp_path), collection_name="docs"
    )
    real_first.client.close()
    real = qdrant.QdrantVectorStore.from_existing_collection(
        "docs", emb, path=str(tmp_path), metadata_payload_key="metadata"
    )
    PlaceboVectorStore.from_texts(TEXTS, emb, METAS, ids, profile="qdrant", collection_name="docs")
    ours = PlaceboVectorStore.from_existing_collection("docs", emb, metadata_payload_key="metadata")
    assert docs_of(ours.similarity_search_with_score("refund", k=5)) == docs_of(
        real.similarity_search_with_score("refund", k=5)
    )
    # another client of the same collection sees the writes
    for store in (real, ours):
        store.add_texts(["added later"], ids=[str(uuid.UUID(int=99))])
    assert docs_of(ours.similarity_search("added later", k=1)) == docs_of(
        real.similarity_search("added later", k=1)
    )
    real.client.close()
    # a mismatching distance: langchain-qdrant's own error type (checked on an in-memory
    # client: a client on `path` that fails validation is never closed)
    client = real_first.client.__class__(location=":memory:")
    client.create_collection(
        "docs", vectors_config=_models().VectorParams(size=16, distance=_models().Distance.COSINE)
    )
    mismatch = {"distance": "Dot"}
    assert outcome(
        lambda: PlaceboVectorStore.from_existing_collection("docs", emb, **mismatch)
    ) == (
        outcome(
            lambda: qdrant.QdrantVectorStore(client, "docs", emb, distance=_models().Distance.DOT)
        )
    )
    missing = outcome(lambda: PlaceboVectorStore.from_existing_collection("nope", emb))
    assert missing == outcome(
        lambda: qdrant.QdrantVectorStore.from_existing_collection("nope", emb, location=":memory:")
    )
    client.close()


def _models() -> Any:
    from qdrant_client import models

    return models


@pytest.mark.parametrize(
    "kwargs",
    [
        {"k": 2, "offset": 1},
        {"k": 3, "offset": 1, "score_threshold": 0.3},
        {"k": 2, "offset": 9},
        {"k": 2, "search_params": None, "consistency": None, "hybrid_fusion": None},
    ],
)
def test_qdrant_search_arguments_match(kwargs: dict[str, Any]) -> None:
    real, ours = qdrant_pair()
    theirs = real.similarity_search_with_score("refund", **kwargs)
    mine = ours.similarity_search_with_score("refund", **kwargs)
    assert docs_of(mine) == docs_of(theirs)
    np.testing.assert_allclose([s for _, s in mine], [s for _, s in theirs], atol=2.5e-7)


@pytest.mark.parametrize("threshold", [None, 0.3, 0.6, 2.0])
def test_qdrant_mmr_score_threshold_matches(threshold: float | None) -> None:
    """Only candidates above the threshold take part. lambda_mult=0 (diversity 0: relevance
    order) keeps the comparison about the candidates, not about MMR's arithmetic."""
    real, ours = qdrant_pair()
    query = _embeddings().embed_query("refund")
    kwargs = {"k": 3, "fetch_k": 5, "lambda_mult": 0.0, "score_threshold": threshold}
    theirs = real.max_marginal_relevance_search_with_score_by_vector(query, **kwargs)
    mine = ours.max_marginal_relevance_search_with_score_by_vector(query, **kwargs)
    assert docs_of(mine) == docs_of(theirs)
    assert docs_of(ours.max_marginal_relevance_search("refund", **kwargs)) == docs_of(
        real.max_marginal_relevance_search("refund", **kwargs)
    )


def test_qdrant_client_needs_a_real_server() -> None:
    real, ours = qdrant_pair()
    assert real.client is not None
    with pytest.raises(NotImplementedError, match="client needs a real client"):
        _ = ours.client
    with pytest.raises(NotImplementedError, match="url='http://localhost:6333'"):
        type(ours).from_texts(["a"], _embeddings(), profile="qdrant", url="http://localhost:6333")
    with pytest.raises(NotImplementedError, match="retrieval_mode"):
        type(ours).from_texts(["a"], _embeddings(), profile="qdrant", retrieval_mode="hybrid")


# --- FAISS -------------------------------------------------------------------------------------


def faiss_pair(**options: Any) -> tuple[Any, Any]:
    from placeborag_langchain import PlaceboVectorStore

    faiss_cls, _ = _faiss()
    emb = _embeddings()
    ids = [f"id{i}" for i in range(len(TEXTS))]
    real = faiss_cls.from_texts(TEXTS, emb, METAS, ids=ids, **options)
    ours = PlaceboVectorStore.from_texts(TEXTS, emb, METAS, ids, profile="faiss", **options)
    return real, ours


NONE_FILTERS: list[Any] = [
    {"page": None},
    {"page": {"$eq": None}},
    {"page": {"$in": [None]}},
    {"page": {"$in": [None, 4]}},
    {"page": [None, 5]},
    {"page": {"$neq": None}},
    {"page": {"$nin": [None]}},
    {"page": {"$nin": [None, 4]}},
    {"$not": {"page": None}},
    {"page": {"$gt": 3}},  # None (stored or missing) cannot be ordered: TypeError on both
    {"page": {"$eq": 1.0}},  # Python's equality: 1 == 1.0
    {"page": {"$in": list(range(20))}},  # a long list becomes a frozenset in FAISS
    {"$and": [{"topic": "refunds"}, {"page": None}]},
    {"$or": [{"page": 4}, {"details": None}]},
]


@pytest.mark.parametrize("flt", NONE_FILTERS)
def test_faiss_none_values_match(flt: Any) -> None:
    real, ours = faiss_pair()
    mine = outcome(lambda: docs_of(ours.similarity_search_with_score("refund", k=5, filter=flt)))
    theirs = outcome(lambda: docs_of(real.similarity_search_with_score("refund", k=5, filter=flt)))
    assert mine == theirs


def test_faiss_unknown_distance_strategy_matches() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        real, ours = faiss_pair(distance_strategy="fake", normalize_L2=True)
    theirs = real.similarity_search_with_score("refund", k=3)
    mine = ours.similarity_search_with_score("refund", k=3)
    assert docs_of(mine) == docs_of(theirs)
    np.testing.assert_allclose([s for _, s in mine], [s for _, s in theirs], atol=2.5e-7)
    assert outcome(lambda: ours.similarity_search_with_relevance_scores("refund")) == outcome(
        lambda: real.similarity_search_with_relevance_scores("refund")
    )
    # score_threshold compares like L2 (<=) for an unknown strategy
    threshold = float(theirs[1][1])
    assert docs_of(ours.similarity_search_with_score("refund", score_threshold=threshold)) == (
        docs_of(real.similarity_search_with_score("refund", score_threshold=threshold))
    )
    faiss_cls, _ = _faiss()
    emb = _embeddings()
    with pytest.warns(UserWarning, match="Normalizing L2") as theirs_warned:
        faiss_cls.from_texts(["a"], emb, distance_strategy="fake", normalize_L2=True)
    with pytest.warns(UserWarning, match="Normalizing L2") as ours_warned:
        type(ours).from_texts(
            ["a"], emb, profile="faiss", distance_strategy="fake", normalize_L2=True
        )
    assert [str(w.message) for w in ours_warned] == [str(w.message) for w in theirs_warned]


def test_faiss_async_searches_by_vector_match() -> None:
    real, ours = faiss_pair()
    query = _embeddings().embed_query("refund")

    async def both(store: Any) -> tuple[Any, Any]:
        scored = await store.asimilarity_search_with_score_by_vector(
            query, k=3, filter={"topic": "refunds"}
        )
        mmr = await store.amax_marginal_relevance_search_with_score_by_vector(
            query, k=3, fetch_k=5, lambda_mult=0.3
        )
        return scored, mmr

    (mine_scored, mine_mmr), (their_scored, their_mmr) = (
        asyncio.run(both(ours)),
        asyncio.run(both(real)),
    )
    for mine, theirs in ((mine_scored, their_scored), (mine_mmr, their_mmr)):
        assert docs_of(mine) == docs_of(theirs)
        assert [type(s) for _, s in mine] == [type(s) for _, s in theirs]
        np.testing.assert_allclose([s for _, s in mine], [s for _, s in theirs], atol=2.5e-7)


def test_faiss_add_embeddings_and_from_embeddings_match() -> None:
    from placeborag_langchain import PlaceboVectorStore

    faiss_cls, _ = _faiss()
    emb = _embeddings()
    pairs = [(t, emb.embed_query(t)) for t in TEXTS]
    real = faiss_cls.from_embeddings(pairs[:3], emb, METAS[:3], ids=["a", "b", "c"])
    ours = PlaceboVectorStore.from_embeddings(
        pairs[:3], emb, METAS[:3], ids=["a", "b", "c"], profile="faiss"
    )
    calls: list[Callable[[Any], Any]] = [
        lambda s: s.add_embeddings(pairs[3:], METAS[3:], ids=["d", "e"]),
        lambda s: s.add_embeddings(pairs[:2], ids=["x", "x"]),  # a repeated id
        lambda s: s.add_embeddings([]),  # nothing to unpack: ValueError (our own message)
        lambda s: docs_of(s.similarity_search_with_score("refund", k=5)),
        lambda s: s.add_embeddings(pairs[:1], ids=["a"]),  # an existing id
    ]
    for n, call in enumerate(calls):
        message = n != 2  # FAISS's is Python's "not enough values to unpack (expected 2...)"
        assert outcome(lambda c=call: c(ours), message=message) == outcome(
            lambda c=call: c(real), message=message
        ), n
    # FAISS's index grew before its docstore refused the id (lc-faiss-ids-existing): its next
    # search fails; ours is unchanged.
    assert outcome(lambda: real.similarity_search("refund", k=5))[0] == "raises"
    assert len(ours.similarity_search("refund", k=5)) == 5


def test_faiss_merge_from_matches() -> None:
    real, ours = faiss_pair()
    faiss_cls, _ = _faiss()
    emb = _embeddings()
    real_other = faiss_cls.from_texts(["merged one", "merged two"], emb, ids=["m1", "m2"])
    ours_other = type(ours).from_texts(
        ["merged one", "merged two"], emb, ids=["m1", "m2"], profile="faiss"
    )
    assert ours.merge_from(ours_other) is None
    real.merge_from(real_other)
    theirs = real.similarity_search_with_score("merged", k=7)
    mine = ours.similarity_search_with_score("merged", k=7)
    assert docs_of(mine) == docs_of(theirs)
    np.testing.assert_allclose([s for _, s in mine], [s for _, s in theirs], atol=2.5e-7)
    assert ours_other.get_by_ids(["m1", "m2"]) == real_other.get_by_ids(["m1", "m2"])
    # merging again: every id exists; FAISS raises after growing its index (corrupt, see
    # lc-faiss-merge-existing), ours before anything changes
    assert outcome(lambda: ours.merge_from(ours_other)) == outcome(
        lambda: real.merge_from(real_other)
    )
    assert len(ours.core_store) == 7


def test_faiss_save_and_load_round_trip_matches(tmp_path: Path) -> None:
    from placeborag_langchain import PlaceboVectorStore

    faiss_cls, strategy = _faiss()
    real, ours = faiss_pair(distance_strategy=strategy.MAX_INNER_PRODUCT)
    real.save_local(str(tmp_path / "real"))
    ours.save_local(str(tmp_path / "ours"))
    emb = _embeddings()
    real_loaded = faiss_cls.load_local(
        str(tmp_path / "real"),
        emb,
        allow_dangerous_deserialization=True,
        distance_strategy=strategy.MAX_INNER_PRODUCT,
    )
    ours_loaded = PlaceboVectorStore.load_local(str(tmp_path / "ours"), emb)
    for mine, theirs in (
        (ours_loaded.similarity_search_with_score("refund", k=5), real_loaded.similarity_search_with_score("refund", k=5)),  # noqa: E501
        (ours_loaded.similarity_search_with_relevance_scores("refund", k=5), real_loaded.similarity_search_with_relevance_scores("refund", k=5)),  # noqa: E501
    ):  # fmt: skip
        assert docs_of(mine) == docs_of(theirs)
        assert [type(s) for _, s in mine] == [type(s) for _, s in theirs]
        np.testing.assert_allclose([s for _, s in mine], [s for _, s in theirs], atol=2.5e-7)
    mine_bytes = PlaceboVectorStore.deserialize_from_bytes(ours.serialize_to_bytes(), emb)
    their_bytes = faiss_cls.deserialize_from_bytes(
        real.serialize_to_bytes(),
        emb,
        allow_dangerous_deserialization=True,
        distance_strategy=strategy.MAX_INNER_PRODUCT,
    )
    assert docs_of(mine_bytes.similarity_search_with_score("refund", k=5)) == docs_of(
        their_bytes.similarity_search_with_score("refund", k=5)
    )


def test_faiss_load_local_forgets_the_strategy_and_we_keep_it(tmp_path: Path) -> None:
    """Divergence `persist-settings` (docs/integrations/langchain-parity.md): FAISS saves the
    index and docstore but not `distance_strategy`, so a loaded IP store reports euclidean
    relevance over inner products; ours restores every setting."""
    from placeborag_langchain import PlaceboVectorStore

    faiss_cls, strategy = _faiss()
    real, ours = faiss_pair(distance_strategy=strategy.MAX_INNER_PRODUCT)
    real.save_local(str(tmp_path / "real"))
    ours.save_local(str(tmp_path / "ours"))
    emb = _embeddings()
    real_loaded = faiss_cls.load_local(
        str(tmp_path / "real"), emb, allow_dangerous_deserialization=True
    )
    ours_loaded = PlaceboVectorStore.load_local(str(tmp_path / "ours"), emb)
    assert real_loaded.distance_strategy == strategy.EUCLIDEAN_DISTANCE
    assert ours_loaded.distance_strategy == "MAX_INNER_PRODUCT"
    original = [s for _, s in real.similarity_search_with_relevance_scores("refund", k=3)]
    mine = [s for _, s in ours_loaded.similarity_search_with_relevance_scores("refund", k=3)]
    np.testing.assert_allclose(mine, original, atol=2.5e-7)


def test_faiss_files_are_never_unpickled(tmp_path: Path) -> None:
    from placeborag_langchain import PlaceboVectorStore
    from placeborag_langchain.persistence import StoreFileError

    real, _ = faiss_pair()
    real.save_local(str(tmp_path))
    with pytest.raises(StoreFileError, match=r"index\.faiss and .*index\.pkl: written by"):
        PlaceboVectorStore.load_local(str(tmp_path), _embeddings())
    with pytest.raises(StoreFileError, match="serialized bytes: this is a pickle"):
        PlaceboVectorStore.deserialize_from_bytes(real.serialize_to_bytes(), _embeddings())


# --- the retriever -----------------------------------------------------------------------------


def test_retriever_reports_the_imitated_class() -> None:
    chroma_real, chroma_ours = chroma_pair()
    qdrant_real, qdrant_ours = qdrant_pair()
    faiss_real, faiss_ours = faiss_pair()
    for real, ours in (
        (chroma_real, chroma_ours),
        (qdrant_real, qdrant_ours),
        (faiss_real, faiss_ours),
    ):
        mine, theirs = ours.as_retriever(), real.as_retriever()
        assert mine.tags == theirs.tags
        assert mine._get_ls_params() == theirs._get_ls_params()
        assert mine.get_name() == theirs.get_name() == "VectorStoreRetriever"
        assert mine.get_name("Input") == theirs.get_name("Input")
        assert mine.to_json()["id"] == theirs.to_json()["id"]
        kwargs = {"search_kwargs": {"k": 2}, "tags": ["mine"]}
        assert ours.as_retriever(**kwargs).tags == real.as_retriever(**kwargs).tags
