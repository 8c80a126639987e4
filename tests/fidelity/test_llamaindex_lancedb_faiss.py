"""``placeborag_llamaindex.PlaceboVectorStore`` against llama-index's LanceDB and FAISS stores.

Both stores sit behind ``VectorStoreIndex`` (``StorageContext.from_defaults(vector_store=...)``,
the same ``PlaceboEmbedding``) and are read through the index's retriever; the writes and the
store-level calls (``delete``, ``delete_nodes``, ``get_nodes``) are made on the stores
themselves. Compared: node ids tie-aware, scores within float32 tolerance (LanceDB's float32
``exp(-distance)``, FAISS's raw distance or inner product), node text and metadata by id, and
errors by kind and, for LanceDB, by message (its SQL errors are exact).

LanceDB runs on the session's database directory (``_lancedb.connection``, removed at the end);
FAISS on ``IndexFlatL2`` / ``IndexFlatIP``. Named divergence: lance's projection error after an
add whose nodes all lack a metadata key (``lancedb-struct-projection``); ties within float32
rounding may come in another order (``float-rounding``).
"""

from __future__ import annotations

import itertools
import uuid
import warnings
from typing import Any

import numpy as np
import pytest

from ._compare import Hit, Verdict, compare_errors, compare_rankings
from ._divergences import KNOWN, LANCEDB_PROJECTION
from ._draw import Draw, check_drawn_cases
from ._runners import attempt

pytest.importorskip(
    "llama_index.vector_stores.lancedb", reason="pip install 'placeborag[fidelity]'"
)
pytest.importorskip("llama_index.vector_stores.faiss", reason="pip install 'placeborag[fidelity]'")
pytest.importorskip("placeborag_llamaindex", reason="pip install 'placeborag[llamaindex]'")

from . import _lancedb

pytestmark = pytest.mark.fidelity

METRICS = {"lancedb": ("l2",), "faiss": ("l2", "ip")}
_tables = itertools.count()
DIM = 32
COLORS = ("red", "blue", "green", "", "it's", "darkred")
TITLES = ("alpha beta", "Beta gamma", "gamma")
PHRASES = ("refund policy", "shipping times", "opening hours", "password reset", "red alpha")
OPERATORS = ("==", "!=", ">", ">=", "<", "<=", "in", "nin", "text_match", "contains", "is_empty")


def _embedding() -> Any:
    from placeborag_llamaindex import PlaceboEmbedding

    return PlaceboEmbedding(dimensions=DIM)


def _real(backend: str, metric: str) -> Any:
    if backend == "lancedb":
        from llama_index.vector_stores.lancedb import LanceDBVectorStore

        _lancedb.connection()
        uri = _lancedb._state["dir"]
        return LanceDBVectorStore(uri=uri, table_name=f"li_{next(_tables)}")
    import faiss
    from llama_index.vector_stores.faiss import FaissVectorStore

    index = faiss.IndexFlatL2(DIM) if metric == "l2" else faiss.IndexFlatIP(DIM)
    return FaissVectorStore(faiss_index=index)


def _ours(backend: str, metric: str) -> Any:
    from placeborag_llamaindex import PlaceboVectorStore

    return PlaceboVectorStore(profile=backend, metric=metric)


def _index(store: Any, nodes: list[Any]) -> Any:
    from llama_index.core import StorageContext, VectorStoreIndex

    context = StorageContext.from_defaults(vector_store=store)
    return VectorStoreIndex(nodes, storage_context=context, embed_model=_embedding())


def draw_nodes(d: Draw, n: int, *, prefix: str = "") -> list[Any]:
    """Nodes with some metadata keys missing, ``n`` an int or a float, ids in shuffled order."""
    from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode

    rng = np.random.default_rng(d.integer(0, 2**32 - 1))
    out = []
    for i in rng.permutation(n):
        meta: dict[str, Any] = {}
        if rng.random() < 0.8:
            meta["color"] = COLORS[int(rng.integers(len(COLORS)))]
        if rng.random() < 0.8:
            meta["n"] = [1, 2, 5, 2.5, 1.0][int(rng.integers(5))]
        if rng.random() < 0.5:
            meta["title"] = TITLES[int(rng.integers(len(TITLES)))]
        source = RelatedNodeInfo(node_id=f"doc{int(i) % 3}")
        out.append(
            TextNode(
                id_=f"{prefix}{uuid.UUID(int=int(i) + 1)}",
                text=PHRASES[int(rng.integers(len(PHRASES)))],
                metadata=meta,
                relationships={NodeRelationship.SOURCE: source},
            )
        )
    return out


def draw_filters(d: Draw) -> Any:
    from llama_index.core.vector_stores.types import (
        FilterCondition,
        MetadataFilter,
        MetadataFilters,
    )

    parts: list[Any] = []
    for _ in range(d.integer(1, 3)):
        key = d.choice(("color", "n", "title", "missing", "doc_id"))
        op = d.choice(OPERATORS[:9] if d.chance(0.9) else OPERATORS)
        value: Any
        if op in ("in", "nin"):
            value = [d.choice(COLORS), d.choice(COLORS)] if key != "n" else [d.choice((1, 2, 5))]
        elif key == "n" or (op in (">", ">=", "<", "<=") and d.chance(0.7)):
            value = d.choice((1, 2, 5, 2.5, 1.0))
        elif key == "title":
            value = d.choice((*TITLES, "alpha"))
        elif key == "doc_id":
            value = d.choice(("doc0", "doc1"))
        else:
            value = d.choice(COLORS)
        parts.append(MetadataFilter(key=key, value=value, operator=op))
    condition = d.choice((FilterCondition.AND, FilterCondition.OR, FilterCondition.NOT, None))
    return MetadataFilters(filters=parts, condition=condition)


def _retrieve(index: Any, query: str, k: int, filters: Any) -> list[Any]:
    return list(index.as_retriever(similarity_top_k=k, filters=filters).retrieve(query))


PROJECTION_ERROR = "Invalid input, projection supplied fewer column indices than its fields"


def _errors(backend: str, ours: BaseException | None, theirs: BaseException | None) -> Verdict:
    if theirs is not None and PROJECTION_ERROR in str(theirs) and PROJECTION_ERROR not in str(ours):
        return Verdict(True, divergences=(LANCEDB_PROJECTION,))  # lance's reader bug
    verdict = compare_errors(ours, theirs)
    if not verdict.agree or ours is None or theirs is None:
        return verdict
    if type(theirs) is Warning and type(ours) is not Warning:
        return Verdict(False, detail=f"the engine raises Warning, we raise {ours!r}")
    if backend == "lancedb" and _lancedb.message(ours) != _lancedb.message(theirs):
        return Verdict(False, detail=f"messages differ:\n ours:   {ours}\n theirs: {theirs}")
    return verdict


def _compare_retrieval(
    backend: str, ours: Any, theirs: Any, query: str, k: int, filters: Any, n: int
) -> Verdict:
    our_nodes, our_error = attempt(lambda: _retrieve(ours, query, k, filters))
    their_nodes, their_error = attempt(lambda: _retrieve(theirs, query, k, filters))
    if our_error is not None or their_error is not None:
        return _errors(backend, our_error, their_error)
    exhaustive = _retrieve(theirs, query, max(1, n), filters)
    candidates = {r.node.node_id: float(r.score) for r in exhaustive}
    mine = {r.node.node_id: float(r.score) for r in _retrieve(ours, query, max(1, n), filters)}
    content = {r.node.node_id: (r.node.get_content(), r.node.metadata) for r in exhaustive}
    for r in our_nodes:
        if type(r.score) is not float:
            return Verdict(False, detail=f"score type {type(r.score).__name__}")
        got = (r.node.get_content(), r.node.metadata)
        if r.node.node_id in content and got != content[r.node.node_id]:
            return Verdict(
                False, detail=f"node {r.node.node_id}: {got} vs {content[r.node.node_id]}"
            )
    if len(set(candidates)) < len(exhaustive):  # repeated node ids: compare rank by rank
        return _lancedb.compare_with_duplicates(
            [Hit(r.node.node_id, float(r.score)) for r in our_nodes],
            [Hit(r.node.node_id, float(r.score)) for r in their_nodes],
            1e-5,
        )
    return compare_rankings(
        [Hit(r.node.node_id, float(r.score)) for r in our_nodes],
        [Hit(r.node.node_id, float(r.score)) for r in their_nodes],
        k=k, candidates=candidates, tol=1e-5 if backend == "lancedb" else 1e-4,
        policy=_POLICY, our_candidates=mine,
    )  # fmt: skip


_POLICY = _lancedb.POLICY


def _store_call(backend: str, ours: Any, theirs: Any, call: Any) -> Verdict:
    our_result, our_error = attempt(lambda: call(ours))
    their_result, their_error = attempt(lambda: call(theirs))
    if our_error is not None or their_error is not None:
        return _errors(backend, our_error, their_error)
    if our_result != their_result:
        return Verdict(False, detail=f"results differ: {our_result!r} vs {their_result!r}")
    return Verdict(True)


def llamaindex_case(d: Draw, backend: str, metric: str) -> list[tuple[str, Verdict]]:
    """Index drawn nodes in both stores, maybe add more (repeating some ids), then compare
    1-3 retrievals (most of them filtered) and one store-level call."""
    from llama_index.core.vector_stores.types import MetadataFilter, MetadataFilters

    n = d.integer(1, 9)
    seed = d.integer(0, 2**31)
    verdicts: list[tuple[str, Verdict]] = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # LanceDBVectorStore calls lancedb's deprecated table_names() (its own business)
        warnings.filterwarnings("ignore", r"table_names\(\) is deprecated", DeprecationWarning)
        ours = _index(_ours(backend, metric), draw_nodes(_Seeded(seed), n))
        theirs = _index(_real(backend, metric), draw_nodes(_Seeded(seed), n))
        if d.chance(0.3):  # a second add: new nodes and some ids again
            more = d.integer(1, 3)
            extra = d.integer(0, 2**31)
            write = _store_call(
                backend,
                ours,
                theirs,
                lambda i: i.insert_nodes(draw_nodes(_Seeded(extra), more)),
            )
            verdicts.append(("insert_nodes", write))
            n += more
        for _ in range(d.integer(1, 3)):
            query = d.choice(PHRASES)
            k = d.choice((1, 2, 3, 5, n + 2))
            filters = draw_filters(d) if d.chance(0.6 if backend == "lancedb" else 0.15) else None
            label = f"retrieve {query!r} k={k} filters={filters!r}"
            verdicts.append(
                (label, _compare_retrieval(backend, ours, theirs, query, k, filters, n))
            )
        store_calls = {
            "get_nodes by ids": lambda i: [x.node_id for x in i.vector_store.get_nodes(["x"])],
            "get_nodes by filter": lambda i: sorted(
                x.node_id
                for x in i.vector_store.get_nodes(
                    filters=MetadataFilters(filters=[MetadataFilter(key="color", value="red")])
                )
            ),
            "delete_nodes": lambda i: i.vector_store.delete_nodes(["x"]),
            "delete ref doc": lambda i: i.vector_store.delete("doc1"),
            "k=0": lambda i: i.as_retriever(similarity_top_k=0).retrieve("refund policy"),
        }
        name = d.choice(sorted(store_calls))
        verdicts.append(
            (f"store call {name}", _store_call(backend, ours, theirs, store_calls[name]))
        )
    return verdicts


class _Seeded:
    """A draw that replays one seed, so both sides get the very same nodes."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def integer(self, lo: int, hi: int) -> int:
        return self.seed % (hi - lo + 1) + lo

    def choice(self, options: Any) -> Any:
        return options[self.seed % len(options)]

    def chance(self, p: float) -> bool:
        return False


EXAMPLES = {"lancedb": 200, "faiss": 100}
"""Drawn cases per backend and metric: 200 for each integration (FAISS over its two metrics)."""


@pytest.mark.parametrize(
    ("backend", "metric"),
    [pytest.param(b, m, id=f"{b}-{m}") for b, ms in METRICS.items() for m in ms],
)
def test_llamaindex_lancedb_and_faiss_agree(backend: str, metric: str) -> None:
    cases: list[str] = []

    def run(d: Draw) -> None:
        for label, verdict in llamaindex_case(d, backend, metric):
            cases.append(label)
            assert verdict.agree, f"{label}: {verdict.detail}"
            for key in verdict.divergences:
                assert backend in KNOWN[key].engines, (key, label)

    check_drawn_cases(f"li-{backend}/{metric}", EXAMPLES[backend], run)
    # at least 200 compared calls per integration (FAISS: over its two metrics)
    assert len(cases) >= 200 // len(METRICS[backend])
