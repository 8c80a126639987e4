"""``PlaceboVectorStore(profile="milvus")`` against the real ``langchain_milvus.Milvus``.

Both sides are configured the LangChain way (``index_params`` with the metric, FLAT,
``consistency_level="Strong"``, ``enable_dynamic_field``), get the same ``PlaceboEmbeddings``
and the same first record (which fixes the collection's typed fields), then the same drawn
write sequence: ``add_texts`` batches whose metadata now and then lacks a field, holds a value
of another type or an extra key, ``delete`` by ids or by a drawn ``expr=``; and the same drawn
queries: ``similarity_search_with_score`` and ``similarity_search_with_relevance_scores`` with
drawn ``expr=`` filters over the typed fields (or the dynamic field), the retriever, MMR, and
the calls the integration refuses (``filter=``, ``k=0``, ``get_by_ids``). Compared: ids
tie-aware, scores and relevance within float32 tolerance, documents (text, metadata with
``pk``), score types, warnings, returned ids, and errors by kind and message. The real side
runs on the session's Milvus Lite 2.5 server (pooled collections, emptied between cases).
"""

from __future__ import annotations

import importlib.util
import re
from typing import Any

import pytest

from ._cases import COLORS, PHRASES, TITLES
from ._compare import Verdict
from ._divergences import FLOAT_ROUNDING
from ._draw import Draw, check_drawn_cases
from ._langchain import call_recorded, compare_scored
from ._lc_rounding import Scored, cut_rounded, near_tie
from ._milvus import (
    LC_MILVUS_SEED,
    langchain_milvus_store,
    lc_milvus_options,
    release_langchain_milvus_store,
    seed_lc_milvus,
)

pytestmark = [
    pytest.mark.fidelity,
    pytest.mark.skipif(
        any(importlib.util.find_spec(m) is None for m in ("langchain_milvus", "milvus_lite")),
        reason="not installed: langchain-milvus, milvus-lite (pip install 'placeborag[fidelity]')",
    ),
]

METRICS = ("cosine", "l2", "ip")
EXAMPLES = 70
"""Per metric: 3 x 70 = 210 random cases for the integration."""
VARIANTS = ("typed", "typed", "typed", "plain", "dynamic")
EXTRA_WORDS = ("alpha", "beta", "refund", "policy", "times", "gamma")

_EMBEDDINGS: list[Any] = []


def _embeddings() -> Any:
    """One ``PlaceboEmbeddings`` for the session (the pooled real stores keep theirs)."""
    if not _EMBEDDINGS:
        from placeborag_langchain import PlaceboEmbeddings

        _EMBEDDINGS.append(PlaceboEmbeddings(dimensions=32))
    return _EMBEDDINGS[0]


# --- drawing ---------------------------------------------------------------------------------

_WRONG = {
    "color": (7, 2.5, False),
    "n": (2.5, True, "5", 2**63),
    "price": ("5", 3, True),
    "flag": (1, 0, 2.5, "true"),
}
"""Values of another type per typed field: some the field takes (a DOUBLE takes ints and bools,
a BOOL takes ints), some pymilvus refuses."""


def _value(d: Draw, key: str) -> Any:
    if key == "color":
        return d.choice(COLORS)
    if key == "n":
        return d.choice((-1, 0, 1, 2, 5, 10))
    if key == "price":
        return d.choice((-1.5, 0.0, 1.5, 2.5, 10.0))
    if key == "flag":
        return d.choice((True, False))
    return d.choice(TITLES)


def _metadata(d: Draw, variant: str) -> dict[str, Any] | None:
    """One record's metadata for a collection of ``variant``: the seed's keys with drawn values,
    now and then one missing, one of another type, or an extra key (dropped by a typed
    collection, kept by a dynamic one)."""
    seed = LC_MILVUS_SEED[variant]
    if seed is None:
        return {"title": _value(d, "title")} if d.chance(0.3) else {}
    keys = list(seed)
    meta = {key: _value(d, key) for key in keys}
    if variant == "dynamic":
        for key in list(meta):
            if d.chance(0.25):
                del meta[key]
        if d.chance(0.3):
            meta["n"] = d.choice((1.0, "5", True, 2.5))
    else:
        roll = d.integer(0, 19)
        if roll == 0:
            del meta[d.choice(keys)]
        elif roll == 1:
            key = d.choice(keys)
            meta[key] = d.choice(_WRONG[key])
        elif roll == 2 and d.chance(0.5):
            # A row's own key order decides which of its errors pymilvus reports first.
            meta = dict(reversed(list(meta.items())))
    if d.chance(0.2):
        meta["title"] = _value(d, "title")
    return meta


_TYPED_NAMES = ("color", "n", "price", "flag", "text", "pk", "title", "missing")


def _literal(d: Draw, name: str) -> str:
    from placeborag_core.backends.milvus.filters import literal_text

    if d.chance(0.8):
        if name == "pk":
            return literal_text(f"doc-{d.integer(0, 20)}")
        if name == "text":
            return literal_text(d.choice(PHRASES))
        return literal_text(_value(d, name if name in LC_MILVUS_SEED["typed"] else "title"))
    return literal_text(d.choice((2.5, -1, 1, "red", True, 0.0, "5")))


def _condition(d: Draw) -> str:
    from placeborag_core.backends.milvus.filters import quote

    name = d.choice(_TYPED_NAMES)
    roll = d.integer(0, 99)
    if roll < 45:
        op = d.choice(("==", "!=", "<", "<=", ">", ">="))
        return f"{name} {op} {_literal(d, name)}"
    if roll < 60:
        first = _literal(d, name)
        items = [first] + [_literal(d, name) for _ in range(d.integer(0, 2))]
        same = [i for i in items if i[0] == first[0] or i[0].isdigit() == first[0].isdigit()]
        return f"{name} {d.choice(('in', 'not in'))} [{', '.join(same)}]"
    if roll < 72:
        pattern = d.choice(("r%", "%e%", "refund%", "%times", "_e%", "%"))
        return f"{d.choice(('color', 'text', 'title', 'pk'))} like {quote(pattern)}"
    if roll < 80:
        return f"{d.choice((-1, 0, 1))} < n <= {d.choice((2, 5, 10))}"
    if roll < 88:
        # Arithmetic on a typed field (lc-milvus-typed-arithmetic); division by zero and
        # arithmetic inside ``in`` are not drawn (not measured).
        field = d.choice(("n", "price", "color"))
        arith = d.choice(("+", "-", "*", "/", "%", "**"))
        operand = d.choice((1, 2, 3, -2, 1.5))
        result = d.choice((0, 1, 2, 3, -1, 2.5, 3.0))
        cmp = d.choice(("==", "==", "!=", ">"))
        if d.chance(0.15):
            return f"{result} {cmp} {field} {arith} {operand}"
        if d.chance(0.15):
            return f"{operand} {arith} {field} {cmp} {result}"
        return f"{field} {arith} {operand} {cmp} {result}"
    return d.choice((
        'not (color == "red")', "color", "flag", "flag == true", 'color = "red"', "n > ",
        "exists color", "color is null", "n in []", 'pk in ["doc-1", "doc-2"]',
    ))  # fmt: skip


def draw_expression(d: Draw, depth: int = 2) -> str:
    """A Milvus expression over the typed fields (and the key, text and unknown names)."""
    if depth > 0 and d.chance(0.25):
        parts = [draw_expression(d, depth - 1) for _ in range(d.integer(2, 3))]
        return "(" + d.choice((" and ", " or ", " && ", " || ")).join(parts) + ")"
    return _condition(d)


# --- comparing -------------------------------------------------------------------------------


_PLAN_NODE = re.compile(r"plan node id: \d+")


def _message(error: BaseException) -> str:
    """The error's text; the plan node id in a run-time filter error is a counter of the
    server process, shown as 0 by the profile (docs/engines/milvus.md, "Messages that vary")."""
    return _PLAN_NODE.sub("plan node id: 0", str(error))


def _kind(error: BaseException) -> str:
    """What pymilvus shows as the error's class (ours carry it as ``kind``)."""
    return str(getattr(error, "kind", type(error).__name__))


def compare_outcomes(
    ours: tuple[Any, BaseException | None, list[str]],
    theirs: tuple[Any, BaseException | None, list[str]],
    result: Any = None,
) -> Verdict:
    """Two recorded calls: the same warnings, the same error (kind and message) or the same
    result (``result`` maps a result to what is compared)."""
    (our_result, our_error, our_warnings) = ours
    (their_result, their_error, their_warnings) = theirs
    if our_warnings != their_warnings:
        return Verdict(False, detail=f"warnings: ours {our_warnings}, theirs {their_warnings}")
    if our_error is not None or their_error is not None:
        if our_error is None or their_error is None:
            return Verdict(False, detail=f"errors: ours {our_error!r}, theirs {their_error!r}")
        if _kind(our_error) != _kind(their_error) or _message(our_error) != _message(their_error):
            return Verdict(
                False,
                detail=f"errors: ours {_kind(our_error)}: {our_error}; theirs "
                f"{_kind(their_error)}: {their_error}",
            )
        return Verdict(True)
    mine = result(our_result) if result else our_result
    other = result(their_result) if result else their_result
    if mine != other:
        return Verdict(False, detail=f"results: ours {mine!r}, theirs {other!r}")
    return Verdict(True)


def _both(fake: Any, real: Any, call: Any, result: Any = None) -> Verdict:
    return compare_outcomes(
        call_recorded(lambda: call(fake)), call_recorded(lambda: call(real)), result
    )


def _doc_ids(docs: Any) -> list[str]:
    return [str(doc.metadata["pk"]) for doc in docs]


# --- one case --------------------------------------------------------------------------------


def milvus_case(d: Draw, metric: str) -> list[tuple[str, Verdict]]:
    """A drawn write sequence, then 1-2 drawn queries, on both sides."""
    from placeborag_langchain import PlaceboVectorStore

    embeddings = _embeddings()
    variant = d.choice(VARIANTS)
    real = langchain_milvus_store(metric, variant, embeddings)
    fake = PlaceboVectorStore(embeddings, profile="milvus", **lc_milvus_options(metric, variant))
    seed_lc_milvus(fake, variant)
    added = 0
    try:
        verdicts, added = _writes(d, variant, fake, real)
        for _ in range(d.integer(1, 2)):
            verdicts += _queries(d, metric, variant, fake, real, size=added)
        return verdicts
    finally:
        release_langchain_milvus_store(real, metric, variant, added)


def _writes(d: Draw, variant: str, fake: Any, real: Any) -> tuple[list[tuple[str, Verdict]], int]:
    verdicts: list[tuple[str, Verdict]] = []
    next_id = 0
    live: list[str] = []
    added = 0
    for _ in range(d.integer(1, 3)):
        roll = d.integer(0, 9)
        if roll < 7 or not live:
            n = d.integer(1, 8)
            texts = [
                d.choice(PHRASES)
                if d.chance(0.6)
                else f"{d.choice(PHRASES)} {d.choice(EXTRA_WORDS)}"
                for _ in range(n)
            ]
            metas = [_metadata(d, variant) for _ in range(n)]
            ids = [f"doc-{next_id + i}" for i in range(n)]
            next_id += n
            if d.chance(0.05):
                ids[-1] = ids[0]  # a repeated id: langchain-milvus's assertion
            if d.chance(0.03):
                ids[0] = 5  # type: ignore[call-overload]  # not a str: its assertion

            def add(store: Any, t: list[str] = texts, m: Any = metas, i: Any = ids) -> Any:
                return store.add_texts(t, metadatas=[dict(x) for x in m], ids=list(i))

            verdicts.append((f"add_texts: {texts}, {metas}, {ids}", _both(fake, real, add)))
            added += n
        elif roll < 9:
            chosen = [d.choice(live) for _ in range(d.integer(1, 3))] + (
                ["nope"] if d.chance(0.3) else []
            )

            def delete(store: Any, ids: list[str] = chosen) -> Any:
                return store.delete(ids)

            verdicts.append((f"delete by ids: {chosen}", _both(fake, real, delete)))
        else:
            expr = draw_expression(d, depth=1)

            def delete_expr(store: Any, e: str = expr) -> Any:
                return store.delete(expr=e)

            verdicts.append((f"delete by expr: {expr!r}", _both(fake, real, delete_expr)))
        live = [i for i in fake.core_store.ids() if i != "seed"]
    return verdicts, added


def _queries(
    d: Draw, metric: str, variant: str, fake: Any, real: Any, size: int
) -> list[tuple[str, Verdict]]:
    query = d.choice(PHRASES)
    k = d.choice((1, 2, 3, 5, size + 2))
    expr = draw_expression(d) if d.chance(0.6) else None
    kwargs: dict[str, Any] = {} if expr is None else {"expr": expr}
    label = f"{variant}: {query!r} k={k} expr={expr!r}"

    def scored(store: Any, k: int, q: str = query, kw: dict[str, Any] = kwargs) -> Any:
        return store.similarity_search_with_score(q, k=k, **kw)

    def relevance(store: Any, k: int, q: str = query, kw: dict[str, Any] = kwargs) -> Any:
        return store.similarity_search_with_relevance_scores(q, k=k, **kw)

    verdicts = []
    for name, call, raw in (("scores", scored, None), ("relevance", relevance, scored)):
        verdict = compare_scored(
            "milvus", metric, fake, real, call, k=k, size=max(size, 1), tol=1e-5, raw=raw
        )
        verdicts.append((f"{name}: {label}", verdict))
    verdicts.append((f"retriever: {label}", _retriever(fake, real, query, k, metric, max(size, 1))))
    lam = d.choice((0.0, 0.5, 1.0))
    fetch_k = d.choice((k, k + 3, 20))
    verdicts.append(
        (f"mmr: {label} fetch_k={fetch_k} lambda={lam}",
         _mmr(fake, real, query, k, fetch_k, lam, kwargs))
    )  # fmt: skip
    refused = d.choice((
        ("filter=", lambda s: s.similarity_search(query, k=2, filter={"color": "red"})),
        ("k=0", lambda s: s.similarity_search(query, k=0)),
        ("k=-1", lambda s: s.similarity_search(query, k=-1)),
        ("k=16385", lambda s: s.similarity_search(query, k=16385)),
        ("get_by_ids", lambda s: s.get_by_ids(["doc-0"])),
        ("delete()", lambda s: s.delete()),
        ("delete([])", lambda s: s.delete([])),
    ))  # fmt: skip
    verdicts.append((f"refused calls: {refused[0]}", _both(fake, real, refused[1], _doc_ids)))
    return verdicts


def _retriever(fake: Any, real: Any, query: str, k: int, metric: str, size: int) -> Verdict:
    """Both retrievers return the same documents, or each returns its own store's search and
    those searches agree up to float32 rounding (compared as under "scores": a k cut, or two
    documents we tie exactly at 0 and the engine orders by 4e-9, RandomDraw(33983547650022))."""

    def retrieved(store: Any) -> Any:
        return store.as_retriever(search_kwargs={"k": k}).invoke(query)

    verdict = _both(fake, real, retrieved, _doc_ids)
    if verdict.agree or "results:" not in verdict.detail:
        return verdict
    for store in (fake, real):
        if _doc_ids(retrieved(store)) != _doc_ids(store.similarity_search(query, k=k)):
            return verdict

    def scored(store: Any, n: int) -> Any:
        return store.similarity_search_with_score(query, k=n)

    searches = compare_scored("milvus", metric, fake, real, scored, k=k, size=size, tol=1e-5)
    if searches.agree:
        return Verdict(True, divergences=(FLOAT_ROUNDING,), detail=verdict.detail)
    return verdict


def _mmr(
    fake: Any, real: Any, query: str, k: int, fetch_k: int, lam: float, kwargs: dict[str, Any]
) -> Verdict:
    """The same picks in the same order, or a pick decided by a float32 near tie."""

    def call(store: Any) -> Any:
        return store.max_marginal_relevance_search(
            query, k=k, fetch_k=fetch_k, lambda_mult=lam, **kwargs
        )

    verdict = _both(fake, real, call, _doc_ids)
    if verdict.agree:
        return verdict
    ours, theirs = call_recorded(lambda: call(fake)), call_recorded(lambda: call(real))
    if ours[1] is not None or theirs[1] is not None:
        return verdict
    candidates = [doc.page_content for doc in real.similarity_search(query, k=fetch_k, **kwargs)]
    if near_tie(fake.embeddings, query, candidates, k, lam) or cut_rounded(
        fake, real, query, fetch_k, kwargs
    ):
        return Verdict(True, divergences=(FLOAT_ROUNDING,))
    return verdict


def test_a_cut_decided_by_rounding_is_float_rounding() -> None:
    # RandomDraw(20051), cosine, k=2: doc-1 and doc-5 are orthogonal to the query; we score
    # both 0 (our tie order puts doc-5 first), the engine -3.7e-09 and a little less
    mine = {"doc-6": 1.0, "doc-5": 0.0, "doc-1": 0.0, "doc-0": -0.3}
    engine = {**mine, "doc-1": -3.7252903e-09, "doc-5": -7.4505806e-09}
    assert cut_rounded(Scored(mine), Scored(engine), "q", 2)
    # exact ties on both sides, ordered otherwise: the tie rule decides, not rounding
    tied = {"doc-6": 1.0, "doc-1": 0.0, "doc-5": 0.0, "doc-0": -0.3}
    assert not cut_rounded(Scored(mine), Scored(tied), "q", 2)


@pytest.mark.parametrize("metric", METRICS)
def test_langchain_milvus_agrees(metric: str) -> None:
    def run(d: Draw) -> None:
        for label, verdict in milvus_case(d, metric):
            assert verdict.agree, f"{label}: {verdict.detail}"
            for key in verdict.divergences:
                assert key == FLOAT_ROUNDING, (key, label)

    check_drawn_cases(f"lc-milvus/{metric}", EXAMPLES, run)
