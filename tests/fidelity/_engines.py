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
from typing import Any

import numpy as np

from ._compare import Hit

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
    if engine == "chroma":
        return ChromaSide(metric)
    if engine == "qdrant":
        return QdrantSide(metric, dim)
    if engine in ("milvus", "milvus_int64"):
        return MilvusSide(metric, dim, "int" if engine == "milvus_int64" else "string")
    if engine == "pgvector":
        return PgvectorSide(metric, dim)
    return FaissSide(metric, dim)


# --- Milvus: one Milvus Lite 2.5 server per test process, a pool of shared collections ---------

MILVUS_POOL_DIM = 32
"""Every pooled collection has this width; a side of a smaller width pads its vectors with zeros
(exactly the same scores: a zero component adds nothing), so one collection per (metric, id
type) serves every drawn dimension. Vectors of any other width go unpadded, and the engine
rejects them as it would."""

_milvus: dict[str, Any] = {}
_milvus_free: dict[tuple[str, str, int], list[str]] = {}


def milvus_client() -> Any:
    """The process's Milvus Lite client, started on first use (3 attempts: milvus-lite 2.5.1's
    server occasionally fails to open its storage; a fresh path starts)."""
    if "client" not in _milvus:
        import logging
        import shutil
        import tempfile

        from milvus_lite.server_manager import server_manager_instance
        from pymilvus import MilvusClient

        logging.getLogger("pymilvus").disabled = True  # it logs every rejected request
        root = tempfile.mkdtemp(prefix="placeborag-milvus-")
        os.environ["GLOG_log_dir"] = root  # noqa: SIM112 - glog's own variable name
        last: Exception | None = None
        for attempt in range(3):
            uri = os.path.join(root, f"m{attempt}.db")
            try:
                client = MilvusClient(uri, db_name="default")
            except Exception as error:  # the start failure is a plain MilvusException
                last = error
                server_manager_instance.release_all()
                continue
            _milvus.update(client=client, root=root, uri=uri, attempts=attempt + 1)
            break
        else:
            shutil.rmtree(root, ignore_errors=True)
            raise RuntimeError(f"Milvus Lite did not start in 3 attempts: {last}")
    return _milvus["client"]


def milvus_uri() -> str:
    """The ``.db`` path of the process's Milvus Lite server (integrations connect to it)."""
    milvus_client()
    return str(_milvus["uri"])


_li_milvus_free: dict[str, list[str]] = {}


def llamaindex_milvus_store(metric: str, dim: int) -> Any:
    """A ``MilvusVectorStore`` on an empty pooled collection of the shared server: the first
    store of a metric and width creates it (``overwrite=True``, ~0.5 s), later ones attach to a
    free one (``overwrite=False``) that ``release_llamaindex_milvus_store`` emptied."""
    from llama_index.vector_stores.milvus import MilvusVectorStore

    key = f"{metric}_{dim}"
    free = _li_milvus_free.setdefault(key, [])
    reuse = bool(free)
    name = free.pop() if reuse else f"li_{key}_{next(_names)}"
    return MilvusVectorStore(
        uri=milvus_uri(), dim=dim, collection_name=name, similarity_metric=metric.upper(),
        overwrite=not reuse, db_name="default", use_async_client=False,
    )  # fmt: skip


def release_llamaindex_milvus_store(store: Any) -> None:
    """Empty the store's collection and put it back in the pool (or drop it once it has taken
    ``MILVUS_POOL_ROWS``)."""
    client = milvus_client()
    name = store.collection_name
    rows = client.query(name, filter="", limit=16384, output_fields=["id"])
    _milvus_rows[name] = _milvus_rows.get(name, 0) + len(rows)
    if _milvus_rows[name] > MILVUS_POOL_ROWS:
        client.drop_collection(name)
        return
    if rows:
        client.delete(name, ids=[r["id"] for r in rows])
    key = name.split("_", 1)[1].rsplit("_", 1)[0]
    _li_milvus_free.setdefault(key, []).append(name)


_lc_milvus_free: dict[tuple[str, str], list[Any]] = {}

LC_MILVUS_SEED: dict[str, dict[str, Any] | None] = {
    "typed": {"color": "red", "n": 1, "price": 1.5, "flag": True},
    "plain": None,
    "dynamic": {"color": "red", "n": 1},
}
"""The first record of each kind of langchain-milvus collection: ``typed`` fixes the fields
color VARCHAR, n INT64, price DOUBLE, flag BOOL (in this order); ``plain`` fixes none (records
keep no metadata); ``dynamic`` is ``enable_dynamic_field=True`` (every key kept, JSON rules)."""


def lc_milvus_options(metric: str, variant: str) -> dict[str, Any]:
    """The ``langchain_milvus.Milvus`` constructor options of a pooled collection (ours take
    the same)."""
    return {
        "index_params": {"metric_type": MILVUS_METRICS[metric], "index_type": "FLAT"},
        "consistency_level": "Strong",
        "enable_dynamic_field": variant == "dynamic",
    }


def seed_lc_milvus(store: Any, variant: str) -> None:
    """Create the collection's schema as its first batch does (one seed record, then deleted),
    on either side."""
    seed = LC_MILVUS_SEED[variant]
    store.add_texts(["seed"], metadatas=None if seed is None else [dict(seed)], ids=["seed"])
    store.delete(["seed"])


def langchain_milvus_store(metric: str, variant: str, embeddings: Any) -> Any:
    """A ``langchain_milvus.Milvus`` on an empty pooled collection of the shared server whose
    schema ``seed_lc_milvus`` fixed (creating one costs ~0.6 s; a pooled one is emptied by
    ``release_langchain_milvus_store``)."""
    free = _lc_milvus_free.setdefault((metric, variant), [])
    if free:
        return free.pop()
    from langchain_milvus import Milvus

    name = f"lc_{metric}_{variant}_{next(_names)}"
    store = Milvus(
        embeddings,
        connection_args={"uri": milvus_uri(), "db_name": "default"},
        collection_name=name,
        **lc_milvus_options(metric, variant),
    )
    seed_lc_milvus(store, variant)
    return store


def release_langchain_milvus_store(store: Any, metric: str, variant: str, added: int) -> None:
    """Empty the store's collection and put it back in the pool (or drop it once it has taken
    ``MILVUS_POOL_ROWS``; ``added``: the rows this case inserted)."""
    client = milvus_client()
    name = store.collection_name
    _milvus_rows[name] = _milvus_rows.get(name, 0) + added
    if _milvus_rows[name] > MILVUS_POOL_ROWS:
        client.drop_collection(name)
        return
    rows = client.query(name, filter="", limit=16384, output_fields=["pk"])
    if rows:
        client.delete(name, ids=[r["pk"] for r in rows])
    _lc_milvus_free.setdefault((metric, variant), []).append(store)


def release_milvus() -> None:
    """Stop the Milvus Lite server and remove its files (a no-op if it never started)."""
    if "client" not in _milvus:
        return
    import shutil

    from milvus_lite.server_manager import server_manager_instance

    _milvus["client"].close()
    server_manager_instance.release_all()
    shutil.rmtree(_milvus["root"], ignore_errors=True)
    _milvus.clear()
    _milvus_free.clear()
    _li_milvus_free.clear()
    _lc_milvus_free.clear()
    _milvus_rows.clear()


MILVUS_METRICS = {"cosine": "COSINE", "l2": "L2", "ip": "IP"}
MILVUS_POOL_ROWS = 500
"""Rows a pooled collection takes (deleted ones count: they stay in its growing segment) before
it is dropped for a fresh one. Past ~1,000 rows Milvus builds an interim index over a growing
segment (approximate search) and gives its raw vectors up (``query(output_fields=["*"])`` then
fails with "Growing segment loss raw data"), which fresh collections never meet."""
_milvus_rows: dict[str, int] = {}


class MilvusSide:
    """A pooled Milvus collection (quick setup: AUTOINDEX, dynamic fields), emptied when the
    side closes. Metadata keys are dynamic fields; the primary key is ``id`` (VARCHAR, or INT64
    for ``id_type="int"``). Filters are Milvus expression strings; a core dict filter is
    translated by the profile's own ``expression_of`` (both sides then read the same string)."""

    def __init__(self, metric: str, dim: int, id_type: str = "string") -> None:
        self.client = milvus_client()
        self.dim = dim
        self.int_ids = id_type == "int"
        # Narrower vectors are zero-padded to the pool's width; wider ones (the score agreement's
        # 384-d records) get a pool of their own width.
        self.width = max(dim, MILVUS_POOL_DIM)
        free = _milvus_free.setdefault((metric, id_type, self.width), [])
        if free:
            self.name = free.pop()
        else:
            self.name = f"pool_{metric}_{id_type}_{next(_names)}"
            extra = {} if self.int_ids else {"max_length": 65535}
            self.client.create_collection(
                self.name, dimension=self.width, metric_type=MILVUS_METRICS[metric],
                id_type=id_type, **extra,
            )  # fmt: skip
        self.pool = (metric, id_type, self.width)

    def key(self, record_id: str) -> Any:
        return int(record_id) if self.int_ids else record_id

    def vector(self, vector: Any) -> list[float]:
        values = [float(x) for x in np.asarray(vector, dtype=np.float64).ravel()]
        if len(values) == self.dim:
            values += [0.0] * (self.width - self.dim)
        return values

    def upsert(self, ids: Sequence[str], vectors: Any, metas: Sequence[Meta]) -> None:
        rows = [
            {**dict(m), "id": self.key(i), "vector": self.vector(v)}
            for i, v, m in zip(ids, vectors, metas, strict=True)
        ]
        if rows:
            self.client.upsert(self.name, rows)
            _milvus_rows[self.name] = _milvus_rows.get(self.name, 0) + len(rows)

    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self.client.delete(self.name, ids=[self.key(i) for i in ids])

    def query(
        self,
        vector: Any,
        k: Any,
        where: Meta | str | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Hit]:
        from placeborag_core.backends.milvus.filters import expression_of, literal_text

        expr = "" if where is None else where if isinstance(where, str) else expression_of(where)
        if ids is not None:
            # Milvus rejects ``id in []``; an id no record has stands for "none allowed"
            listed = ", ".join(literal_text(self.key(i)) for i in ids) or (
                str(-(2**63)) if self.int_ids else '"no such id"'
            )
            expr = f"({expr}) and id in [{listed}]" if expr else f"id in [{listed}]"
        found = self.client.search(self.name, [self.vector(vector)], limit=k, filter=expr)
        return [Hit(str(h["id"]), float(h["distance"])) for h in found[0]]

    def listing(self) -> Listing:
        # Not "*": the vectors are not compared, and a growing segment that built its interim
        # index may have given them up ("Growing segment loss raw data").
        rows = self.client.query(self.name, filter="", limit=16384, output_fields=["$meta"])
        return [
            (str(r["id"]), {k: v for k, v in r.items() if k not in ("id", "vector")}) for r in rows
        ]

    def close(self) -> None:
        if _milvus_rows.get(self.name, 0) > MILVUS_POOL_ROWS:
            self.client.drop_collection(self.name)
            return
        rows = self.client.query(self.name, filter="", limit=16384, output_fields=["id"])
        if rows:
            self.client.delete(self.name, ids=[r["id"] for r in rows])
        _milvus_free.setdefault(self.pool, []).append(self.name)
