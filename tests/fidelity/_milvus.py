"""Milvus Lite 2.5 in process: one server per test process, pools of shared collections.

Creating a Milvus collection costs ~0.5 s, so every side here takes an emptied collection from a
pool: ``MilvusSide`` (the engine, via ``MilvusClient``), ``llamaindex_milvus_store`` and
``langchain_milvus_store`` (the integrations, on the same server). ``release_milvus`` stops the
server and removes its files (``conftest`` calls it when the session ends).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ._compare import Hit
from ._engines import Listing, Meta, collection_name

__all__ = [
    "LC_MILVUS_SEED",
    "MILVUS_METRICS",
    "MILVUS_POOL_DIM",
    "MILVUS_POOL_ROWS",
    "MilvusSide",
    "langchain_milvus_store",
    "lc_milvus_options",
    "llamaindex_milvus_store",
    "milvus_client",
    "milvus_uri",
    "release_langchain_milvus_store",
    "release_llamaindex_milvus_store",
    "release_milvus",
    "seed_lc_milvus",
]


def _suffix() -> str:
    """A fresh number for a collection name (Milvus names allow no ``-``)."""
    return collection_name().rsplit("-", 1)[1]


MILVUS_POOL_DIM = 32
"""Every pooled collection has this width; a side of a smaller width pads its vectors with zeros
(exactly the same scores: a zero component adds nothing), so one collection per (metric, id
type) serves every drawn dimension. Vectors of any other width go unpadded, and the engine
rejects them as it would."""

_milvus: dict[str, Any] = {}
_milvus_free: dict[tuple[str, str, int], list[str]] = {}


@contextlib.contextmanager
def _output_to(path: str) -> Iterator[None]:
    """Point file descriptors 1 and 2 at ``path`` while the server process starts, then restore
    them: the server keeps the file as its stdout and stderr, so the C++ assertion messages and
    parser errors it prints for every rejected expression stay out of the test and report
    output (and go with ``root``)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = (os.dup(1), os.dup(2))
    try:
        with open(path, "ab") as log:
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
            yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, copy in zip((1, 2), saved, strict=True):
            os.dup2(copy, fd)
            os.close(copy)


def milvus_client() -> Any:
    """The process's Milvus Lite client, started on first use (3 attempts: milvus-lite 2.5.1's
    server occasionally fails to open its storage; a fresh path starts)."""
    if "client" not in _milvus:
        import logging
        import shutil
        import tempfile

        from milvus_lite.server_manager import server_manager_instance
        from pymilvus import MilvusClient

        # pymilvus logs every rejected request with its traceback (ERROR, on the handler its
        # own logging config puts on its two loggers), langchain-milvus every failed insert or
        # delete: here a rejection is an outcome the cases compare, not news
        for name in ("pymilvus", "pymilvus.milvus_client", "langchain_milvus"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        root = tempfile.mkdtemp(prefix="placeborag-milvus-")
        os.environ["GLOG_log_dir"] = root  # noqa: SIM112 - glog's own variable name
        last: Exception | None = None
        for attempt in range(3):
            uri = os.path.join(root, f"m{attempt}.db")
            try:
                with _output_to(os.path.join(root, "server.log")):
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


_li_milvus_free: dict[tuple[str, int], list[Any]] = {}


def llamaindex_milvus_store(metric: str, dim: int) -> Any:
    """A ``MilvusVectorStore`` on an empty pooled collection of the shared server: the first
    store of a metric and width creates its collection (``overwrite=True``, ~0.5 s); later
    cases take a store back from the pool, which ``release_llamaindex_milvus_store`` emptied
    (constructing a store again costs four more round trips)."""
    free = _li_milvus_free.setdefault((metric, dim), [])
    if free:
        return free.pop()
    from llama_index.vector_stores.milvus import MilvusVectorStore

    return MilvusVectorStore(
        uri=milvus_uri(), dim=dim, collection_name=f"li_{metric}_{dim}_{_suffix()}",
        similarity_metric=metric.upper(), overwrite=True, db_name="default",
        use_async_client=False,
    )  # fmt: skip


def release_llamaindex_milvus_store(store: Any, metric: str, dim: int, ids: Sequence[str]) -> None:
    """Delete the rows a case added (``ids``, one round trip: no listing query) and put the
    store back in the pool, or drop its collection once it has taken ``MILVUS_POOL_ROWS``."""
    client = milvus_client()
    name = store.collection_name
    _milvus_rows[name] = _milvus_rows.get(name, 0) + len(ids)
    if _milvus_rows[name] > MILVUS_POOL_ROWS:
        client.drop_collection(name)
        return
    if ids:
        client.delete(name, ids=list(ids))
    _li_milvus_free.setdefault((metric, dim), []).append(store)


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

    name = f"lc_{metric}_{variant}_{_suffix()}"
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
            self.name = f"pool_{metric}_{id_type}_{_suffix()}"
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
