"""Real LangChain integrations beside ``placeborag_langchain.PlaceboVectorStore``.

Both sides get the same ``PlaceboEmbeddings`` (any LangChain ``Embeddings`` works with the real
stores), the same texts, metadata and ids, and are then asked the same framework calls. Real
sides: ``langchain_chroma.Chroma`` over the in-process Chroma client, ``langchain_qdrant.
QdrantVectorStore`` over ``QdrantClient(":memory:")``, ``langchain_community`` FAISS.
"""

from __future__ import annotations

import uuid
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from ._compare import Hit, Verdict, compare_errors, compare_rankings
from ._divergences import FLOAT_ROUNDING
from ._engines import chroma_client, collection_name
from ._qdrant_filter import to_qdrant
from ._runners import POLICIES, attempt

LANGCHAIN_METRICS: dict[str, tuple[str, ...]] = {
    "chroma": ("l2", "cosine", "ip"),
    "qdrant": ("cosine", "dot", "euclid"),
    "faiss": ("l2", "ip"),
    "pgvector": ("cosine", "l2", "ip"),
}

PG_STRATEGIES = {"cosine": "cosine", "l2": "l2", "ip": "inner"}
"""Our pgvector metric -> langchain-postgres ``DistanceStrategy`` value."""

SUNSET = "`langchain-community` is being sunset"
"""The DeprecationWarning langchain-community 0.4 emits on import; filtered by its text."""


def record_id(backend: str, number: int, case: str = "") -> str:
    """Qdrant needs UUID (or unsigned int) ids; a UUID from a counter, never uuid4.
    langchain-postgres keeps every collection in one table keyed by id (an id added to a second
    collection overwrites the first's row and stays there), so its ids carry the case."""
    if backend == "qdrant":
        return str(uuid.UUID(int=number + 1))
    return f"{case}doc-{number}" if backend == "pgvector" else f"doc-{number}"


def build(
    backend: str,
    metric: str,
    embeddings: Any,
    texts: Sequence[str],
    metadatas: Sequence[dict[str, Any]],
    ids: Sequence[str],
) -> tuple[Any, Any]:
    """(fake, real) LangChain vector stores holding the same documents."""
    from placeborag_langchain import PlaceboVectorStore

    name = collection_name()
    if backend == "pgvector":
        fake = PlaceboVectorStore(
            embeddings, profile=backend, collection_name=name,
            distance_strategy=PG_STRATEGIES[metric],
        )  # fmt: skip
    else:
        fake = PlaceboVectorStore(embeddings, profile=backend, metric=metric, collection_name=name)
    fake.add_texts(list(texts), metadatas=[dict(m) for m in metadatas], ids=list(ids))
    real = _real(backend, metric, embeddings, name, texts, metadatas, ids)
    return fake, real


def _real(
    backend: str,
    metric: str,
    embeddings: Any,
    name: str,
    texts: Sequence[str],
    metadatas: Sequence[dict[str, Any]],
    ids: Sequence[str],
) -> Any:
    metas = [dict(m) for m in metadatas]
    if backend == "pgvector":
        from langchain_postgres import PGVector
        from langchain_postgres.vectorstores import DistanceStrategy

        from . import _pg

        # A fresh heap for every case: rows that earlier cases deleted leave space that
        # PostgreSQL reuses once autovacuum has run (at its own time), which puts a new row
        # before older ones in heap order, and ties follow heap order
        # (docs/engines/pgvector.md#pgvector-write-reinsert-goes-to-end).
        con = _pg.connection()
        if con.execute("SELECT to_regclass('langchain_pg_embedding')").fetchone()[0]:
            con.execute("TRUNCATE langchain_pg_embedding")
        real = PGVector(
            embeddings, connection=_pg.sqlalchemy_engine(), collection_name=name,
            distance_strategy=DistanceStrategy(PG_STRATEGIES[metric]), use_jsonb=True,
        )  # fmt: skip
        real.add_texts(list(texts), metadatas=metas, ids=list(ids))
        return real
    if backend == "chroma":
        from langchain_chroma import Chroma

        real = Chroma(
            collection_name=name,
            embedding_function=embeddings,
            client=chroma_client(),
            collection_metadata={"hnsw:space": metric},
        )
        real.add_texts(list(texts), metadatas=metas, ids=list(ids))
        return real
    if backend == "qdrant":
        from langchain_qdrant import QdrantVectorStore
        from qdrant_client import QdrantClient, models

        distance = models.Distance({"cosine": "Cosine", "dot": "Dot", "euclid": "Euclid"}[metric])
        client = QdrantClient(":memory:")
        size = len(embeddings.embed_query("size"))
        client.create_collection(
            name, vectors_config=models.VectorParams(size=size, distance=distance)
        )
        real = QdrantVectorStore(client=client, collection_name=name, embedding=embeddings,
                                 distance=distance)  # fmt: skip
        real.add_texts(list(texts), metadatas=metas, ids=list(ids))
        return real
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=SUNSET, category=DeprecationWarning)
        from langchain_community.vectorstores import FAISS
        from langchain_community.vectorstores.utils import DistanceStrategy

    strategy = {"l2": DistanceStrategy.EUCLIDEAN_DISTANCE, "ip": DistanceStrategy.MAX_INNER_PRODUCT}
    return FAISS.from_texts(list(texts), embeddings, metadatas=metas, ids=list(ids),
                            distance_strategy=strategy[metric])  # fmt: skip


def native_filter(backend: str, where: dict[str, Any] | None) -> Any:
    """Our dict filter in the integration's own format (Qdrant: models.Filter on metadata.*)."""
    if where is None:
        return None
    return to_qdrant(where, prefix="metadata.") if backend == "qdrant" else where


def doc_id(backend: str, doc: Any) -> str:
    """langchain-qdrant leaves Document.id None and puts the id in metadata['_id'];
    langchain-milvus puts it in metadata['pk']."""
    if backend == "milvus":
        return str(doc.metadata["pk"])
    return str(doc.metadata["_id"]) if backend == "qdrant" else str(doc.id)


def call_recorded(call: Callable[[], Any]) -> tuple[Any, BaseException | None, list[str]]:
    """Run ``call`` recording its warnings (both sides must warn alike)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result, error = attempt(call)
    # The message text up to ", got" (what follows is a repr of the results and their floats).
    seen = {f"{w.category.__name__}: {str(w.message).split(', got')[0]}" for w in caught}
    return result, error, sorted(seen)


def compare_scored(
    backend: str,
    metric: str,
    fake: Any,
    real: Any,
    call: Callable[[Any, int], list[tuple[Any, float]]],
    *,
    k: int,
    size: int,
    tol: float,
    raw: Callable[[Any, int], list[tuple[Any, float]]] | None = None,
) -> Verdict:
    """Compare a framework call returning (Document, score) pairs, tie-aware.

    Also compared: the warnings each side emitted, the documents' text and metadata by id, and
    the Python type of the scores (FAISS hands back numpy.float32).

    ``raw``: for relevance scores, the call giving the underlying scores. LangChain's
    inner-product relevance function (``1 - d if d > 0 else -d``) jumps at distance 0, so a
    distance that rounds to 0 on one side and to 1.2e-7 on the other gives relevance -0.0
    against 0.9999999. If the raw scores agree (tie-aware) and, at every rank where the
    relevance differs, both raw scores are within ``tol`` of 0, the difference is float
    rounding, amplified.
    """
    verdict = _compare_scored(backend, fake, real, call, k=k, size=size, tol=tol)
    if verdict.agree or raw is None:
        return verdict
    if not _compare_scored(backend, fake, real, raw, k=k, size=size, tol=tol).agree:
        return verdict
    ours = [float(s) for _, s in call_recorded(lambda: call(fake, k))[0]]
    theirs = [float(s) for _, s in call_recorded(lambda: call(real, k))[0]]
    our_raw = [float(s) for _, s in call_recorded(lambda: raw(fake, k))[0]]
    their_raw = [float(s) for _, s in call_recorded(lambda: raw(real, k))[0]]
    if not len(ours) == len(theirs) == len(our_raw) == len(their_raw):
        return verdict
    for rank, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        # At each rank where the relevance differs, both raw scores must sit at the jump.
        if abs(a - b) > tol and not (abs(our_raw[rank]) <= tol and abs(their_raw[rank]) <= tol):
            return verdict
    return Verdict(True, divergences=(FLOAT_ROUNDING,), detail=verdict.detail)


def _compare_scored(
    backend: str,
    fake: Any,
    real: Any,
    call: Callable[[Any, int], list[tuple[Any, float]]],
    *,
    k: int,
    size: int,
    tol: float,
) -> Verdict:
    ours, our_error, our_warnings = call_recorded(lambda: call(fake, k))
    theirs, their_error, their_warnings = call_recorded(lambda: call(real, k))
    if our_error is not None or their_error is not None:
        return compare_errors(our_error, their_error)
    if our_warnings != their_warnings:
        return Verdict(False, detail=f"warnings: ours {our_warnings}, theirs {their_warnings}")
    exhaustive, _, _ = call_recorded(lambda: call(real, max(1, size)))
    candidates = {doc_id(backend, d): float(s) for d, s in exhaustive}
    mine_all, _, _ = call_recorded(lambda: call(fake, max(1, size)))
    mine = {doc_id(backend, d): float(s) for d, s in mine_all}
    docs = {doc_id(backend, d): (d.page_content, d.metadata) for d, _ in exhaustive}
    for doc, score in ours:
        key = doc_id(backend, doc)
        if key in docs and (doc.page_content, doc.metadata) != docs[key]:
            return Verdict(False, detail=f"document {key}: ours {doc!r}, theirs {docs[key]!r}")
        their_types = {type(s) for _, s in theirs}
        if their_types and type(score) not in their_types:
            return Verdict(False, detail=f"score type {type(score)} vs {their_types}")
    return compare_rankings(
        [Hit(doc_id(backend, d), float(s)) for d, s in ours],
        [Hit(doc_id(backend, d), float(s)) for d, s in theirs],
        k=k, candidates=candidates, tol=tol, policy=POLICIES[backend], our_candidates=mine,
    )  # fmt: skip
