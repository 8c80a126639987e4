"""``placeborag_langchain.PlaceboVectorStore`` against the real LangChain integrations.

The same documents go into ``langchain_chroma.Chroma`` / ``langchain_qdrant.QdrantVectorStore`` /
``langchain_community`` FAISS and into our store under the matching profile. Then both answer
``similarity_search_with_score`` and ``similarity_search_with_relevance_scores`` (with drawn
filters in the integration's own format), and the retriever. Compared: ids tie-aware, scores
and relevance scores within float32 tolerance, score types, documents, and warnings.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest

from ._cases import CHROMA_FIELD_OPS, PHRASES, draw_metadata, draw_where
from ._compare import Verdict
from ._divergences import CHROMA_TIE_SUBSET, FLOAT_ROUNDING, KNOWN
from ._draw import Draw, check_drawn_cases
from ._engines import collection_name
from ._langchain import LANGCHAIN_METRICS, build, compare_scored, doc_id, native_filter, record_id
from ._lc_rounding import near_tie

pytestmark = pytest.mark.fidelity

QDRANT_OPS = ("bare", "$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$text_match",
              "$is_empty", "$exists")  # fmt: skip
PGVECTOR_OPS = ("bare", "$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists")
OPS = {"chroma": CHROMA_FIELD_OPS, "qdrant": QDRANT_OPS, "pgvector": PGVECTOR_OPS}
PACKAGES = {
    "chroma": "langchain_chroma",
    "qdrant": "langchain_qdrant",
    "faiss": "faiss",
    "pgvector": "langchain_postgres",
}


def pgvector_filter(d: Draw) -> dict[str, Any]:
    """langchain-postgres's own operators on top of the shared ones: ``$not``, ``$between``,
    ``$like``/``$ilike``, text ``$in`` with mixed types."""
    kind = d.choice(("shared", "not", "between", "like", "in"))
    if kind == "not":
        return {"$not": draw_where(d, PGVECTOR_OPS, depth=1)}
    if kind == "between":
        low = d.choice((-1, 0, 1, 1.5, 2))
        return {d.choice(("n", "color")): {"$between": [low, low + d.choice((0, 1, 3))]}}
    if kind == "like":
        op = d.choice(("$like", "$ilike"))
        return {d.choice(("color", "title", "n")): {op: d.choice(("r%", "%a%", "B%", "_", "5"))}}
    if kind == "in":
        items = [d.choice((1, "5", 2.5, "red", 1.0)) for _ in range(d.integer(1, 3))]
        return {d.choice(("n", "color", "tags")): {d.choice(("$in", "$nin")): items}}
    return draw_where(d, PGVECTOR_OPS, depth=1)


EXTRA_WORDS = ("alpha", "beta", "refund", "policy", "times", "gamma")


def _params() -> list[Any]:
    out = []
    for backend, metrics in LANGCHAIN_METRICS.items():
        missing = [m for m in (PACKAGES[backend], "placeborag_langchain", "langchain_core")
                   if importlib.util.find_spec(m) is None]  # fmt: skip
        reason = f"not installed: {', '.join(missing)} (pip install 'placeborag[fidelity,all]')"
        mark = pytest.mark.skipif(bool(missing), reason=reason)
        out += [pytest.param(backend, m, id=f"{backend}-{m}", marks=mark) for m in metrics]
    return out


def langchain_case(d: Draw, backend: str, metric: str) -> list[tuple[str, Verdict]]:
    """Load drawn documents on both sides; compare 1-2 queries through three calls each."""
    from placeborag_langchain import PlaceboEmbeddings

    embeddings = PlaceboEmbeddings(dimensions=32)
    n = d.integer(1, 12)
    texts = [
        d.choice(PHRASES) if d.chance(0.6) else f"{d.choice(PHRASES)} {d.choice(EXTRA_WORDS)}"
        for _ in range(n)
    ]
    rng = np.random.default_rng(d.integer(0, 2**32 - 1))
    metadatas = [{"position": i, **draw_metadata(rng)} for i in range(n)]
    case = f"{collection_name()}-"
    ids = [record_id(backend, int(i), case) for i in rng.permutation(n)]
    fake, real = build(backend, metric, embeddings, texts, metadatas, ids)
    verdicts: list[tuple[str, Verdict]] = []
    for _ in range(d.integer(1, 2)):
        query = d.choice(PHRASES)
        k = d.choice((1, 2, 3, 5, n + 2))
        where = None
        if backend in OPS and d.chance(0.5):
            where = (
                pgvector_filter(d)
                if backend == "pgvector"
                else draw_where(d, OPS[backend], depth=1)
            )
        try:
            native = native_filter(backend, where)
        except ValueError:  # a Filter the user could not build (pydantic): nothing to call
            native = where = None
        kwargs: dict[str, Any] = {"filter": native} if native is not None else {}

        def scored(store: Any, k: int, q: str = query, kw: dict[str, Any] = kwargs) -> Any:
            return store.similarity_search_with_score(q, k=k, **kw)

        def relevance(store: Any, k: int, q: str = query, kw: dict[str, Any] = kwargs) -> Any:
            return store.similarity_search_with_relevance_scores(q, k=k, **kw)

        for name, call, raw in (("scores", scored, None), ("relevance scores", relevance, scored)):
            verdict = compare_scored(
                backend, metric, fake, real, call, k=k, size=n, tol=1e-5, raw=raw
            )
            verdicts.append((f"{name}: {query!r} k={k} where={where}", verdict))
        verdicts.append((f"retriever: {query!r} k={k}", _retriever(backend, fake, real, query, k)))
        lam = d.choice((0.0, 0.25, 0.5, 1.0))
        fetch_k = d.choice((k, k + 3, 20))
        verdicts.append(
            (f"mmr: {query!r} k={k} fetch_k={fetch_k} lambda={lam}",
             _mmr(backend, fake, real, query, k, fetch_k, lam))
        )  # fmt: skip
    return verdicts


def _retriever(backend: str, fake: Any, real: Any, query: str, k: int) -> Verdict:
    """Each side's retriever returns exactly its own similarity_search_with_score ids."""
    for side, store in (("ours", fake), ("theirs", real)):
        got = [
            doc_id(backend, doc) for doc in store.as_retriever(search_kwargs={"k": k}).invoke(query)
        ]
        scored = [doc_id(backend, doc) for doc, _ in store.similarity_search_with_score(query, k=k)]
        if got != scored:
            return Verdict(False, detail=f"{side}: retriever {got} != search {scored}")
    return Verdict(True)


def _mmr(
    backend: str, fake: Any, real: Any, query: str, k: int, fetch_k: int, lam: float
) -> Verdict:
    """Both sides pick the same documents, in the same order.

    Picks carry no score, so they are compared by text: the embedding is a function of the
    text, and documents with equal text are interchangeable. langchain-chroma hands the picks
    back in distance order, the others in pick order. If the picks differ, MMR is replayed
    (langchain-core's rule, lambda inverted for Qdrant, whose engine takes diversity =
    lambda_mult) over the engine's fetch_k candidates and over ours (Chroma's approximate index
    may hand its MMR another subset of a tie group). If some step has its two best candidates
    within 1e-5 of each other, the engines' float32 arithmetic decides that step
    (``float-rounding``), and every pick after it may differ. Otherwise the picks disagree.
    """
    picks: list[list[str]] = []
    for store in (fake, real):
        docs = store.max_marginal_relevance_search(query, k=k, fetch_k=fetch_k, lambda_mult=lam)
        picks.append([doc.page_content for doc in docs])
    ours, theirs = picks
    if ours == theirs:
        return Verdict(True)
    if backend == "chroma" and _same_but_tied(real, query, ours, theirs):
        return Verdict(True, divergences=(CHROMA_TIE_SUBSET,))
    if backend == "pgvector" and (
        _same_but_rounded(fake, real, query, ours, theirs)
        or _cut_rounded(fake, real, query, fetch_k)
    ):
        return Verdict(True, divergences=(FLOAT_ROUNDING,))
    weight = 1 - lam if backend == "qdrant" else lam
    for side in (real, fake):  # Chroma's approximate index may hand MMR another tie subset
        candidates = [
            doc.page_content for doc, _ in side.similarity_search_with_score(query, fetch_k)
        ]
        if len(ours) == len(theirs) and near_tie(fake.embeddings, query, candidates, k, weight):
            return Verdict(True, divergences=(FLOAT_ROUNDING,))
    return Verdict(False, detail=f"mmr picks: ours {ours}, theirs {theirs}")


def _same_but_tied(real: Any, query: str, ours: list[str], theirs: list[str]) -> bool:
    """Whether the two pick lists (langchain-chroma returns them in its distance order) differ
    only in the order of documents at equal distance: among ties, Chroma's approximate index
    decides the order (``chroma-tie-subset``)."""
    if sorted(ours) != sorted(theirs):
        return False
    distance = {doc.page_content: d for doc, d in real.similarity_search_with_score(query, 100)}
    return all(
        abs(distance[a] - distance[b]) <= 1e-6 for a, b in zip(ours, theirs, strict=True) if a != b
    )


def _same_but_rounded(fake: Any, real: Any, query: str, ours: list[str], theirs: list[str]) -> bool:
    """Whether the picks (langchain-postgres hands them back in distance order) are the same
    documents and each pair the two sides order differently has distances within 1e-6 that are
    not equal on both sides: the engine's float32 lanes and our exact quantities order them
    differently. Pairs, not positions: one document moved by rounding shifts the others
    (three rows at exact 0 for us, one of them at -3.7e-09 for the engine, comes first there)."""
    if sorted(ours) != sorted(theirs):
        return False
    mine = {doc.page_content: d for doc, d in fake.similarity_search_with_score(query, 100)}
    engine = {doc.page_content: d for doc, d in real.similarity_search_with_score(query, 100)}
    rank = {pick: i for i, pick in enumerate(_occurrences(theirs))}
    picks = _occurrences(ours)
    for i, (a, _) in enumerate(picks):
        for b, _ in (pick for pick in picks[i + 1 :] if rank[pick] < rank[picks[i]]):
            if a == b:
                continue  # documents with equal text are interchangeable
            if abs(engine[a] - engine[b]) > 1e-6 or (engine[a] == engine[b] and mine[a] == mine[b]):
                return False
    return True


def _cut_rounded(fake: Any, real: Any, query: str, fetch_k: int) -> bool:
    """Whether the fetch_k candidates MMR starts from differ only by documents at the cut that
    the engine's float32 lanes order and our exact quantities tie (or nearly): every document
    in one list and not the other lies within 1e-6 of the cut on both sides, and the engine's
    distances there are not all equal (then the tie rule would decide). MMR over other
    candidates may pick others."""
    mine = {doc.page_content: d for doc, d in fake.similarity_search_with_score(query, 100)}
    engine = {doc.page_content: d for doc, d in real.similarity_search_with_score(query, 100)}
    ours = [doc.page_content for doc, _ in fake.similarity_search_with_score(query, fetch_k)]
    theirs = [doc.page_content for doc, _ in real.similarity_search_with_score(query, fetch_k)]
    moved = set(ours) ^ set(theirs)
    if not moved or not ours or not theirs:
        return False
    cut, my_cut = engine[theirs[-1]], mine[ours[-1]]
    return all(
        abs(engine[t] - cut) <= 1e-6 and abs(mine[t] - my_cut) <= 1e-6 for t in moved
    ) and any(engine[t] != cut for t in moved)


def _occurrences(texts: list[str]) -> list[tuple[str, int]]:
    """Each text with its occurrence number, so that repeated texts pair up in order."""
    seen: dict[str, int] = {}
    out = []
    for text in texts:
        out.append((text, seen.get(text, 0)))
        seen[text] = seen.get(text, 0) + 1
    return out


EXAMPLES = {"pgvector": 67}
"""Drawn cases per backend and metric (default 25); each compares 4-8 calls. langchain-postgres
on a real PostgreSQL: 201 cases over its three strategies (~0.08 s a case)."""


@pytest.mark.parametrize(("backend", "metric"), _params())
def test_langchain_integration_agrees(backend: str, metric: str) -> None:
    def run(d: Draw) -> None:
        for label, verdict in langchain_case(d, backend, metric):
            assert verdict.agree, f"{label}: {verdict.detail}"
            for key in verdict.divergences:
                assert backend in KNOWN[key].engines, (key, label)

    check_drawn_cases(f"lc-{backend}/{metric}", EXAMPLES.get(backend, 25), run)


class _Scored:
    """A store stub answering ``similarity_search_with_score`` from a text -> distance table."""

    def __init__(self, distances: dict[str, float]) -> None:
        self.distances = distances

    def similarity_search_with_score(self, query: str, k: int) -> list[tuple[Any, float]]:
        from types import SimpleNamespace

        ranked = sorted(self.distances.items(), key=lambda item: item[1])[:k]
        return [(SimpleNamespace(page_content=text), d) for text, d in ranked]


def test_a_pick_moved_by_rounding_may_shift_the_others() -> None:
    # lc-pgvector, ip, RandomDraw(777184): three rows at exact 0 for us, one of them at
    # -3.7e-09 in the engine's float32 lanes, which puts it first among them
    ours = ["delivery", "refund", "money b", "money a", "reset"]
    theirs = ["delivery", "money a", "refund", "money b", "reset"]
    mine = {"delivery": -0.04, "refund": -0.0, "money b": -0.0, "money a": -0.0, "reset": 0.33}
    engine = {**mine, "money a": -3.725290298461914e-09}
    assert _same_but_rounded(_Scored(mine), _Scored(engine), "q", ours, theirs)
    # the same orders over exact ties on both sides are a tie order, not rounding
    assert not _same_but_rounded(_Scored(mine), _Scored(mine), "q", ours, theirs)


def test_a_fetch_cut_decided_by_rounding_lets_the_mmr_picks_differ() -> None:
    # lc-pgvector, cosine, RandomDraw(20066), fetch_k=3: we tie three documents at distance 1,
    # the engine's float32 lanes put "delivery" just below 1 and the others just above
    mine = {"hogyan": 0.0, "reset": 0.98, "refund": 1.0, "delivery": 1.0}
    engine = {**mine, "delivery": 0.9999999962747097, "refund": 1.0000000149011612}
    assert _cut_rounded(_Scored(mine), _Scored(engine), "q", 3)
    # exact ties on both sides, cut elsewhere: the tie rule decides, not rounding
    tied = {"hogyan": 0.0, "reset": 0.98, "delivery": 1.0, "refund": 1.0}
    assert not _cut_rounded(_Scored(mine), _Scored(tied), "q", 3)
