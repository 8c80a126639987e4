"""``PlaceboVectorStore(profile="pgvector")`` against llama-index's real ``PGVectorStore``.

The real store runs on the session's PostgreSQL (``_pg``): one ``PGVectorStore`` (one table) for
the whole test, emptied with ``TRUNCATE`` between cases so that every case starts with a fresh
heap (heap order is insertion order). Both stores get the same nodes (with embeddings: drawn
FakeEmbedder vectors with many ties, raw vectors, a zero vector now and then) through the
store API, then the same calls: ``query`` (default and MMR mode, drawn ``MetadataFilters`` with
every operator, nested groups, missing keys and values of the wrong type, k from 0 to above the
size), ``get_nodes``, ``delete_nodes``, ``delete`` and more adds (write sequences). Compared:
node ids tie-aware, scores (``1 - cosine distance``) within 1e-5, node text and metadata, and
errors: both fail or neither; a cast error on the data must carry PostgreSQL's message.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from ._cases import COLORS, PHRASES
from ._compare import Hit, Verdict, compare_errors, compare_rankings, weak_order
from ._divergences import FLOAT_ROUNDING, KNOWN
from ._draw import Draw, check_drawn_cases
from ._runners import POLICIES, attempt

pytestmark = pytest.mark.fidelity

DIM = 16
EXAMPLES = 200
"""Drawn cases; each compares 3-6 calls and the state after each (~0.25 s a case; the
development runs compared 900 cases, about 8,000 calls, with 0 unexplained)."""

NEEDED = ("llama_index.vector_stores.postgres", "pgserver", "placeborag_llamaindex")
MISSING = [m for m in NEEDED if importlib.util.find_spec(m.split(".")[0]) is None]
if not MISSING and importlib.util.find_spec("llama_index.vector_stores.postgres") is None:
    MISSING = ["llama-index-vector-stores-postgres"]

OPERATORS = ("==", "!=", ">", ">=", "<", "<=", "in", "nin", "any", "all", "contains",
             "text_match", "text_match_insensitive", "is_empty")  # fmt: skip
VALUES: tuple[Any, ...] = (1, 2, 2.5, 1.0, 0, -3, "1", "2.5", " 7 ", "abc", "red", "Red", "b",
                           "NaN", "1e3")  # fmt: skip
"""Metadata values of every kind the cast meets: numbers, numeric and other strings."""


def open_real_store() -> Any:
    """A real ``PGVectorStore`` on a fresh table of the session's PostgreSQL (closed when the
    server stops)."""
    from llama_index.vector_stores.postgres import PGVectorStore

    from . import _pg

    store = PGVectorStore.from_params(
        connection_string=_pg.sqlalchemy_url("psycopg2"),
        async_connection_string=_pg.sqlalchemy_url("asyncpg"),
        table_name=_pg.table_name("li"),
        embed_dim=DIM,
    )
    store._initialize()
    _pg.on_stop(lambda: asyncio.run(store.close()))
    return store


@pytest.fixture(scope="module")
def real_store() -> Any:
    store = open_real_store()
    yield store
    _truncate(store)


def _truncate(store: Any) -> None:
    import sqlalchemy

    with store._engine.begin() as con:
        con.execute(sqlalchemy.text(f"TRUNCATE {store._table_class.__tablename__}"))
        con.execute(sqlalchemy.text("SET enable_indexscan = off"))


def _metadata(d: Draw, i: int) -> dict[str, Any]:
    meta: dict[str, Any] = {"position": i}
    if d.chance(0.75):
        meta["color"] = d.choice(COLORS) if d.chance(0.8) else d.choice(VALUES)
    if d.chance(0.75):
        meta["n"] = (
            d.choice((1, 2, 5, 2.5, 1.0, -1, 0))
            if d.chance(0.8)
            else d.choice(("1", " 7 ", "NaN", "abc", True, None, [1, 2], "1e3"))
        )
    if d.chance(0.4):
        meta["tags"] = d.choice((["x"], ["x", "y"], ["y", 1], "x", [], {"x": 1}))
    if d.chance(0.3):
        meta["title"] = d.choice(("alpha", "Beta", "gamma 50%", "under_score", "é"))
    return meta


def _vectors(d: Draw, n: int, embedding: Any) -> list[list[float]]:
    kind = d.choice(("phrases", "raw", "grid"))
    rng = np.random.default_rng(d.integer(0, 2**32 - 1))
    if kind == "phrases":
        out = [embedding.get_text_embedding(d.choice(PHRASES) or "empty") for _ in range(n)]
    elif kind == "raw":
        out = rng.standard_normal((n, DIM)).tolist()
    else:
        out = rng.integers(-1, 2, size=(n, DIM)).astype(float).tolist()
    if d.chance(0.1):
        out[d.integer(0, n - 1)] = [0.0] * DIM
    return [[float(x) for x in v] for v in out]


def _leaf(d: Draw) -> Any:
    from llama_index.core.vector_stores.types import MetadataFilter

    op = d.choice(OPERATORS)
    key = d.choice(("color", "n", "n", "tags", "title", "missing"))
    value: Any
    if op in ("in", "nin", "any", "all"):
        pool = d.choice((("red", "blue", "x", "y", "1"), (1, 2, 5), (2.5, 1.0)))
        value = [d.choice(pool) for _ in range(d.integer(1, 3))]  # one type per list
        if d.chance(0.1):
            value = d.choice(("red", "xy"))  # a str is iterated character by character
    elif op == "contains":
        value = d.choice(("x", "y", "red", 1))
    elif op in ("text_match", "text_match_insensitive"):
        value = d.choice(("re", "RE", "a", "%", "_e", "50%", "1"))
    elif op == "is_empty":
        value = None
    else:
        value = d.choice(VALUES)
    return MetadataFilter(key=key, value=value, operator=op)


def _filters(d: Draw, depth: int = 1) -> Any:
    from llama_index.core.vector_stores.types import FilterCondition, MetadataFilters

    parts: list[Any] = []
    for _ in range(d.integer(1, 3)):
        if depth > 0 and d.chance(0.25):
            parts.append(_filters(d, depth - 1))
        else:
            parts.append(_leaf(d))
    condition: Any = d.choice((FilterCondition.AND, FilterCondition.OR))
    if d.chance(0.05):
        condition = d.choice((FilterCondition.NOT, None))
    return MetadataFilters(filters=parts, condition=condition)


def _nodes(ids: list[str], vectors: list[list[float]], metas: list[dict[str, Any]]) -> list[Any]:
    from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode

    out = []
    for node_id, vector, meta in zip(ids, vectors, metas, strict=True):
        node = TextNode(id_=node_id, text=f"text of {node_id}", metadata=dict(meta),
                        embedding=list(vector))  # fmt: skip
        node.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(
            node_id=f"doc-{meta['position'] % 3}"
        )
        out.append(node)
    return out


def _same_error(ours: BaseException | None, theirs: BaseException | None) -> Verdict:
    verdict = compare_errors(ours, theirs)
    if verdict.agree and theirs is not None and "InvalidTextRepresentation" in str(theirs):
        from placeborag_core.backends.pgvector.sqltext import PgvectorCastError

        if not isinstance(ours, PgvectorCastError) or str(ours) not in str(theirs):
            return Verdict(False, detail=f"cast error: ours {ours!r}, theirs {theirs}")
    return verdict


def _compare_query(fake: Any, real: Any, query: Any, size: int, **kwargs: Any) -> Verdict:
    from llama_index.core.vector_stores.types import VectorStoreQuery

    ours, our_error = attempt(lambda: fake.query(query, **kwargs))
    theirs, their_error = attempt(lambda: real.query(query, **kwargs))
    if our_error is not None or their_error is not None:
        return _same_error(our_error, their_error)
    for mine, other in zip(ours.nodes, theirs.nodes, strict=False):
        if mine.node_id == other.node_id and (
            mine.get_content() != other.get_content() or mine.metadata != other.metadata
        ):
            return Verdict(False, detail=f"node {mine.node_id}: {mine!r} vs {other!r}")
    if query.similarity_top_k == 0:  # LIMIT 0: PostgreSQL does not even scan
        return Verdict(ours.ids == theirs.ids == [], detail=f"{ours.ids} vs {theirs.ids}")
    # With fewer matching rows than k, PGVectorStore's MMR falls back to a plain search
    # ("Not enough valid embeddings for MMR"): its answer is then a ranking like any other.
    mmr = query.mode == "mmr" and len(theirs.ids) >= query.similarity_top_k
    if mmr:  # picks in order, scored with their MMR objectives (li-pgvector-mmr-score-objective)
        scores_agree = np.allclose(ours.similarities, theirs.similarities, rtol=0, atol=1e-5)
        if ours.ids == theirs.ids:
            detail = f"mmr objectives: ours {ours.similarities}, theirs {theirs.similarities}"
            return Verdict(bool(scores_agree), detail=detail)
        detail = f"mmr picks: ours {ours.ids}, theirs {theirs.ids}"
        if _mmr_near_tie(fake, real, query):
            return Verdict(True, divergences=(FLOAT_ROUNDING,), detail=detail)
        return Verdict(False, detail=detail)
    everything = VectorStoreQuery(query_embedding=query.query_embedding,
                                  similarity_top_k=max(1, size), filters=query.filters)  # fmt: skip
    all_theirs = real.query(everything)
    all_ours = fake.query(everything)
    verdict = compare_rankings(
        [Hit(i, float(s)) for i, s in zip(ours.ids, ours.similarities, strict=True)],
        [Hit(i, float(s)) for i, s in zip(theirs.ids, theirs.similarities, strict=True)],
        k=query.similarity_top_k,
        candidates=dict(zip(all_theirs.ids, map(float, all_theirs.similarities), strict=True)),
        tol=1e-5, policy=POLICIES["pgvector"],
        our_candidates=dict(zip(all_ours.ids, map(float, all_ours.similarities), strict=True)),
    )  # fmt: skip
    if verdict.agree or not verdict.detail.startswith("tie order"):
        return verdict
    # The sort saw distances (1 - d can make different ones equal): if their last bits order
    # any two candidates differently, the sort's comparisons differ (whole_sort).
    ids = set(all_theirs.ids)
    theirs_raw = {i: d for i, d in _engine_distances(real, query.query_embedding) if i in ids}
    ours_raw = {
        m.id: m.score for m in fake.core_store.query(query.query_embedding, size + 1) if m.id in ids
    }
    if weak_order(theirs_raw) != weak_order(ours_raw):
        return Verdict(True, divergences=(FLOAT_ROUNDING,), detail=verdict.detail)
    return verdict


def _mmr_near_tie(fake: Any, real: Any, query: Any) -> bool:
    """Whether replaying ``get_top_k_mmr_embeddings`` over the engine's prefetch (4 x top_k,
    in its order) meets a step whose two best objectives are within 1e-9: the engine's float64
    cosines and our exact ones then decide it differently (``float-rounding``)."""
    from llama_index.core.vector_stores.types import VectorStoreQuery

    k = query.similarity_top_k
    wide = VectorStoreQuery(
        query_embedding=query.query_embedding, similarity_top_k=4 * k, filters=query.filters
    )
    prefetch = real.query(wide)
    ids = list(prefetch.ids)
    if len(ids) < k:
        return False
    vectors = np.array([fake.core_store.get(i).vector for i in ids], dtype=np.float64)
    q = np.asarray(query.query_embedding, dtype=np.float64)
    unit = vectors / np.linalg.norm(vectors, axis=1)[:, None]
    to_query = unit @ (q / np.linalg.norm(q))
    threshold = 0.5 if query.mmr_threshold is None else query.mmr_threshold
    gains = to_query * threshold
    left = list(range(len(ids)))
    for step in range(k):
        ranked = sorted((gains[i] for i in left), reverse=True)
        exact_zeros = step == 0 and threshold == 0  # every gain is 0: the first one is taken
        if len(ranked) > 1 and ranked[0] - ranked[1] <= 1e-9 and not exact_zeros:
            return True
        best = max(left, key=lambda i: gains[i])
        left.remove(best)
        gains = threshold * to_query - (1 - threshold) * (unit @ unit[best])
    return False


def _engine_distances(real: Any, vector: list[float]) -> list[tuple[str, float]]:
    import sqlalchemy

    table = real._table_class.__tablename__
    with real._engine.begin() as con:
        rows = con.execute(
            sqlalchemy.text(f"SELECT node_id, embedding <=> CAST(:q AS vector) FROM {table}"),
            {"q": str([float(x) for x in vector])},
        ).fetchall()
    return [(str(r[0]), float(r[1])) for r in rows]


def _listing(nodes: list[Any]) -> list[tuple[str, str, Any]]:
    return [(n.node_id, n.get_content(), n.metadata) for n in nodes]


def _compare_calls(fake: Any, real: Any, call: Callable[[Any], Any]) -> Verdict:
    ours, our_error = attempt(lambda: call(fake))
    theirs, their_error = attempt(lambda: call(real))
    if our_error is not None or their_error is not None:
        return _same_error(our_error, their_error)
    if ours != theirs:
        return Verdict(False, detail=f"ours {ours}, theirs {theirs}")
    return Verdict(True)


def pgvector_case(d: Draw, real: Any) -> list[tuple[str, Verdict]]:
    """Add drawn nodes to both stores, then compare 3-6 drawn calls."""
    from llama_index.core.vector_stores.types import MetadataFilters, VectorStoreQuery

    from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore

    _truncate(real)
    embedding = PlaceboEmbedding(dimensions=DIM)
    fake = PlaceboVectorStore(profile="pgvector")
    n = d.integer(1, 10)
    counter = [0]

    zero = [False]

    def fresh(count: int) -> list[Any]:
        ids = [f"node-{counter[0] + i}" for i in range(count)]
        metas = [_metadata(d, counter[0] + i) for i in range(count)]
        counter[0] += count
        vectors = _vectors(d, count, embedding)
        zero[0] = zero[0] or any(not any(v) for v in vectors)
        return _nodes(ids, vectors, metas)

    first = fresh(n)
    fake.add(first)
    real.add(first)
    size = n
    verdicts: list[tuple[str, Verdict]] = []
    for _ in range(d.integer(3, 6)):
        what = d.choice(("query", "query", "query", "mmr", "get", "delete", "add"))
        if what == "mmr" and zero[0]:
            what = "query"  # MMR's Python cosine divides by a zero norm (RuntimeWarning)
        qvec = (_vectors(d, 1, embedding)[0] if d.chance(0.5)
                else embedding.get_query_embedding(d.choice(PHRASES) or "empty"))  # fmt: skip
        filters = _filters(d) if d.chance(0.7) else None
        if what == "mmr" and not any(qvec):
            what = "query"  # a zero query: get_top_k_mmr_embeddings raises KeyError(None)
        if what in ("query", "mmr"):
            k = d.choice((0, 1, 2, 3, 5, size + 2))
            kwargs: dict[str, Any] = {}
            if what == "mmr":
                k = max(k, 1)
                query = VectorStoreQuery(query_embedding=qvec, similarity_top_k=k,
                                         filters=filters, mode="mmr",
                                         mmr_threshold=d.choice((None, 0.0, 0.5, 1.0)))  # fmt: skip
            else:
                query = VectorStoreQuery(query_embedding=qvec, similarity_top_k=k,
                                         filters=filters)  # fmt: skip
            verdict = _compare_query(fake, real, query, size, **kwargs)
            verdicts.append((f"{what} k={k} filters={filters!r}", verdict))
        elif what == "get":
            ids = None
            if filters is None or d.chance(0.5):
                ids = [f"node-{d.integer(0, counter[0])}" for _ in range(d.integer(0, 3))]

            def get(store: Any, i: Any = ids, f: Any = filters) -> Any:
                return _listing(store.get_nodes(node_ids=i, filters=f))

            verdicts.append((f"get_nodes {ids} {filters!r}", _compare_calls(fake, real, get)))
        elif what == "delete":
            if d.chance(0.3):
                doc = f"doc-{d.integer(0, 3)}"

                def delete(store: Any, doc: str = doc) -> Any:
                    return store.delete(doc)
            else:
                ids = ([f"node-{d.integer(0, counter[0])}" for _ in range(d.integer(0, 3))]
                       if d.chance(0.7) else None)  # fmt: skip
                if ids is None and filters is None:
                    filters = MetadataFilters(filters=[_leaf(d)])

                def delete(store: Any, i: Any = ids, f: Any = filters) -> Any:
                    return store.delete_nodes(node_ids=i, filters=f)

            verdicts.append((f"delete {filters!r}", _compare_calls(fake, real, delete)))
        else:
            more = fresh(d.integer(1, 4))
            verdicts.append(("add", _compare_calls(fake, real, lambda s, m=more: s.add(m))))
            size += len(more)
        everything = VectorStoreQuery(query_embedding=qvec, similarity_top_k=size + 1)
        verdicts.append(("state", _compare_query(fake, real, everything, size)))
    return verdicts


@pytest.mark.skipif(bool(MISSING), reason=f"not installed: {', '.join(MISSING)}")
def test_llamaindex_pgvector_store_agrees(real_store: Any) -> None:
    def run(d: Draw) -> None:
        for label, verdict in pgvector_case(d, real_store):
            assert verdict.agree, f"{label}: {verdict.detail}"
            for key in verdict.divergences:
                assert "pgvector" in KNOWN[key].engines, (key, label)

    check_drawn_cases("li-pgvector", EXAMPLES, run)
