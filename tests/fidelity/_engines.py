"""The same small interface over each real engine and over our FakeVectorStore.

Every side offers ``upsert``, ``delete``, ``query`` (-> list of ``Hit``) and ``listing``
(the visible records, in the engine's own listing order), so a test drives the fake and the
real engine with identical calls and compares what comes back. Real engines run in process:
chromadb's EphemeralClient (telemetry off), qdrant-client's ``:memory:`` local mode, faiss-cpu
flat indexes. Collections are named from a counter, never from uuid4.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._compare import Hit

if TYPE_CHECKING:
    from ._milvus import MilvusSide

os.environ["ANONYMIZED_TELEMETRY"] = "False"

_names = itertools.count()

Meta = Mapping[str, Any]
Listing = list[tuple[str, dict[str, Any]]]

ENGINE_METRICS: dict[str, tuple[str, ...]] = {
    "chroma": ("l2", "cosine", "ip"),
    "qdrant": ("cosine", "dot", "euclid"),
    "faiss": ("l2", "ip"),
    "milvus": ("cosine", "l2", "ip"),
    "milvus_int64": ("cosine",),
    "pgvector": ("cosine", "l2", "ip"),
}
"""Our metric names per engine (the profile's names), each driven on the real engine."""


class FakeSide:
    """Our FakeVectorStore under a backend profile and metric."""

    def __init__(self, profile: str, metric: str) -> None:
        from placeborag_core import FakeVectorStore

        self.store = FakeVectorStore(profile=profile, metric=metric)

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, metas: Sequence[Meta]) -> None:
        self.store.upsert_many(
            [
                (i, None, dict(m), np.asarray(v, dtype=np.float64))
                for i, v, m in zip(ids, vectors, metas, strict=True)
            ]
        )

    def delete(self, ids: Sequence[str]) -> None:
        self.store.delete(list(ids))

    def query(
        self,
        vector: Any,
        k: Any,
        where: Meta | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Hit]:
        matches = self.store.query(vector, k, where=where, ids=ids)
        return [Hit(m.id, float(m.score)) for m in matches]

    def listing(self) -> Listing:
        out: Listing = []
        for i in self.store.ids():
            record = self.store.get(i)
            assert record is not None
            out.append((i, dict(record.metadata)))
        return out

    def close(self) -> None:
        pass


_chroma: list[Any] = []


def chroma_client() -> Any:
    """The process's one in-process Chroma client, telemetry off."""
    if not _chroma:
        import chromadb
        from chromadb.config import Settings

        _chroma.append(chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False)))
    return _chroma[0]


def collection_name() -> str:
    """A fresh collection name (from a counter: never uuid4)."""
    return f"fidelity-{next(_names)}"


class ChromaSide:
    """A fresh chromadb collection (hnsw:space = metric) with no embedding function.

    ``close`` does not delete the collection. That works around a Chroma 1.5.9 bug that this
    suite found: after ``delete_collection``, the list-valued metadata of its records
    reappears on the records of a *later* collection that sit at the same internal offset,
    whatever their ids, and ``$contains`` filters see it. Collections here are small, so
    keeping them costs little memory.
    """

    def __init__(self, metric: str) -> None:
        self.name = collection_name()
        self.col = chroma_client().create_collection(
            self.name, metadata={"hnsw:space": metric}, embedding_function=None
        )

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, metas: Sequence[Meta]) -> None:
        if not ids:
            return  # Chroma rejects an empty batch; an empty batch is a no-op everywhere else
        self.col.upsert(
            ids=list(ids),
            embeddings=[list(map(float, v)) for v in vectors],
            metadatas=[dict(m) if m else None for m in metas],
        )

    def delete(self, ids: Sequence[str]) -> None:
        self.col.delete(ids=list(ids))

    def query(
        self,
        vector: Any,
        k: Any,
        where: Meta | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Hit]:
        result = self.col.query(
            query_embeddings=[list(map(float, vector))],
            n_results=k,
            where=dict(where) if where is not None else None,
            ids=list(ids) if ids is not None else None,
            include=["distances"],
        )
        return [
            Hit(i, float(s)) for i, s in zip(result["ids"][0], result["distances"][0], strict=True)
        ]

    def listing(self) -> Listing:
        got = self.col.get(include=["metadatas"])
        return [(i, dict(m or {})) for i, m in zip(got["ids"], got["metadatas"], strict=True)]

    def close(self) -> None:
        pass  # see the class docstring: deleting a collection corrupts later ones


def qdrant_point_id(record_id: str) -> int:
    """``"7"`` -> 7: the cases use decimal ids, which Qdrant takes as unsigned int point ids."""
    return int(record_id)


QDRANT_DISTANCES = {"cosine": "Cosine", "dot": "Dot", "euclid": "Euclid"}


class QdrantSide:
    """A collection in qdrant-client's local (``:memory:``) mode."""

    def __init__(self, metric: str, dim: int) -> None:
        from qdrant_client import QdrantClient, models

        self.client = QdrantClient(":memory:")
        self.name = "fidelity"
        self.client.create_collection(
            self.name,
            vectors_config=models.VectorParams(
                size=dim, distance=models.Distance(QDRANT_DISTANCES[metric])
            ),
        )

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, metas: Sequence[Meta]) -> None:
        from qdrant_client import models

        points = [
            models.PointStruct(id=qdrant_point_id(i), vector=list(map(float, v)), payload=dict(m))
            for i, v, m in zip(ids, vectors, metas, strict=True)
        ]
        if points:
            self.client.upsert(self.name, points=points)

    def delete(self, ids: Sequence[str]) -> None:
        from qdrant_client import models

        self.client.delete(
            self.name, points_selector=models.PointIdsList(points=[qdrant_point_id(i) for i in ids])
        )

    def query(
        self,
        vector: Any,
        k: Any,
        where: Meta | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Hit]:
        from qdrant_client import models

        from ._qdrant_filter import to_qdrant

        # Local mode does not validate ``limit`` (1.5 returns two points); the client's server
        # path builds a pydantic QueryRequest first, which does. We validate the same way.
        limit = models.QueryRequest(query=list(map(float, vector)), limit=k).limit
        query_filter = to_qdrant(where) if where is not None else None
        if ids is not None:
            has_id = models.HasIdCondition(has_id=[qdrant_point_id(i) for i in ids])
            query_filter = models.Filter(must=[has_id, *([query_filter] if query_filter else [])])
        points = self.client.query_points(
            self.name, query=list(map(float, vector)), limit=limit, query_filter=query_filter
        ).points
        return [Hit(str(p.id), float(p.score)) for p in points]

    def listing(self) -> Listing:
        records, _ = self.client.scroll(self.name, limit=100_000, with_payload=True)
        return [(str(r.id), dict(r.payload or {})) for r in records]

    def close(self) -> None:
        self.client.close()


class FaissSide:
    """A faiss flat index plus the position -> id table a user keeps beside it.

    FAISS has no ids of its own, no metadata and no upsert: ``upsert`` of an existing id is
    ``remove_ids`` then ``add`` (the record moves to the end), ``delete`` is ``remove_ids``
    (positions compact, relative order kept), and an ``ids=`` restriction is an
    ``IDSelectorBatch`` over positions.
    """

    def __init__(self, metric: str, dim: int) -> None:
        import faiss

        self.faiss = faiss
        self.index = faiss.IndexFlatL2(dim) if metric == "l2" else faiss.IndexFlatIP(dim)
        self.ids: list[str] = []

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, metas: Sequence[Meta]) -> None:
        if not ids:
            return
        self.delete([i for i in ids if i in self.ids])
        self.index.add(np.asarray(vectors, dtype=np.float32).reshape(len(ids), -1))
        self.ids.extend(ids)

    def delete(self, ids: Sequence[str]) -> None:
        positions = sorted({self.ids.index(i) for i in ids if i in self.ids})
        if positions:
            self.index.remove_ids(np.asarray(positions, dtype=np.int64))
            for p in reversed(positions):
                del self.ids[p]

    def query(
        self,
        vector: Any,
        k: Any,
        where: Meta | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Hit]:
        if where is not None:
            raise TypeError("faiss has no metadata filters")
        params = None
        if ids is not None:
            chosen = np.asarray([p for p, i in enumerate(self.ids) if i in set(ids)], np.int64)
            params = self.faiss.SearchParameters(sel=self.faiss.IDSelectorBatch(chosen))
        query = np.asarray([vector], dtype=np.float32)
        scores, labels = self.index.search(query, k, params=params)
        return [
            Hit(self.ids[int(p)], float(s))
            for p, s in zip(labels[0], scores[0], strict=True)
            if p >= 0
        ]

    def listing(self) -> Listing:
        return [(i, {}) for i in self.ids]

    def close(self) -> None:
        pass


PG_OPERATORS = {"cosine": "<=>", "l2": "<->", "ip": "<#>"}


def pg_vector(vector: Any) -> str:
    """A vector as pgvector's text input (float64 reprs; pgvector rounds them to float32)."""
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


class PgvectorSide:
    """A fresh table ``(id text PRIMARY KEY, embedding vector(dim), meta jsonb)`` on the
    session's PostgreSQL (``_pg``), queried as an exact search:
    ``SELECT id, embedding <op> $q AS d FROM t WHERE <filter> ORDER BY d LIMIT k``.

    Upserts are one ``INSERT ... ON CONFLICT (id) DO UPDATE`` statement per batch (so an id
    twice in a batch fails as it does for a user), deletes ``DELETE ... WHERE id = ANY(...)``,
    the listing a plain ``SELECT`` (heap order). Filters are the profile's dialect written as
    SQL (``_pgvector_filter``).
    """

    def __init__(self, metric: str, dim: int) -> None:
        from . import _pg

        self.con = _pg.connection()
        self.name = _pg.table_name()
        self.op = PG_OPERATORS[metric]
        self.con.execute(
            f"CREATE TABLE {self.name} (id text PRIMARY KEY, embedding vector({dim}), "
            "meta jsonb NOT NULL)"
        )

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, metas: Sequence[Meta]) -> None:
        import json

        if not ids:
            return
        rows = ", ".join("(%s, %s::vector, %s::jsonb)" for _ in ids)
        params: list[Any] = []
        for i, v, m in zip(ids, vectors, metas, strict=True):
            params += [i, pg_vector(v), json.dumps(dict(m))]
        self.con.execute(
            f"INSERT INTO {self.name} (id, embedding, meta) VALUES {rows} ON CONFLICT (id) "
            "DO UPDATE SET embedding = EXCLUDED.embedding, meta = EXCLUDED.meta",
            params,
        )

    def delete(self, ids: Sequence[str]) -> None:
        self.con.execute(f"DELETE FROM {self.name} WHERE id = ANY(%s)", (list(ids),))

    def query(
        self,
        vector: Any,
        k: Any,
        where: Meta | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Hit]:
        from ._pgvector_filter import to_sql

        params: list[Any] = [pg_vector(vector)]
        conditions = []
        if where is not None:
            conditions.append(to_sql(where, params))
        if ids is not None:
            conditions.append("id = ANY(%s)")
            params.append(list(ids))
        clause = f"WHERE {' AND '.join(conditions)}" if conditions else ""
        params.append(k)
        rows = self.con.execute(
            f"SELECT id, embedding {self.op} %s::vector AS d FROM {self.name} {clause} "
            "ORDER BY d LIMIT %s",
            params,
        ).fetchall()
        return [Hit(i, float(d)) for i, d in rows]

    def listing(self) -> Listing:
        rows = self.con.execute(f"SELECT id, meta FROM {self.name}").fetchall()
        return [(i, dict(m)) for i, m in rows]

    def close(self) -> None:
        import contextlib

        with contextlib.suppress(Exception):
            self.con.execute(f"DROP TABLE IF EXISTS {self.name}")


def real_side(
    engine: str, metric: str, dim: int
) -> ChromaSide | QdrantSide | FaissSide | MilvusSide | PgvectorSide:
    """A fresh, empty real collection of an engine."""
    from ._milvus import MilvusSide

    if engine == "chroma":
        return ChromaSide(metric)
    if engine == "qdrant":
        return QdrantSide(metric, dim)
    if engine in ("milvus", "milvus_int64"):
        return MilvusSide(metric, dim, "int" if engine == "milvus_int64" else "string")
    if engine == "pgvector":
        return PgvectorSide(metric, dim)
    return FaissSide(metric, dim)
