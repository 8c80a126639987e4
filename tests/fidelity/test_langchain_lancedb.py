"""``placeborag_langchain.PlaceboVectorStore(profile="lancedb")`` against langchain-community's
``LanceDB`` in process.

Each case builds both stores the LangChain way (``LanceDB(connection=..., embedding=...,
table_name=..., mode=..., distance=...)`` beside ``PlaceboVectorStore(embedding,
profile="lancedb", mode=..., distance=...)``, the same ``PlaceboEmbeddings``), writes to both
(``add_texts`` with drawn metadata: keys missing, ints beside floats, new keys that the table
lacks; repeated ids; ``add_texts`` without metadatas; deletes by ids, by SQL filter and all),
and compares every call: results (text, metadata, score within float32 tolerance, rank by
rank: ties are insertion order on both sides), the warnings LanceDB and LangChain emit, and
errors by kind and exact message. Searches draw SQL filters on ``metadata.<key>``, the id and
the text (missing keys, type mismatches, syntax errors), dict filters (which the integration
turns into SQL without the ``metadata.`` prefix), ``prefilter=``, relevance scores under each
``distance=``, MMR, ``get_by_ids`` and ``k=0``.

Named divergence (``_divergences.py``): LanceDB's projection error after an append that lacks
a struct field (``lancedb-struct-projection``). Generated ids are uuid4 in LanceDB (random) and
are not compared: every drawn add names its ids (``add_texts`` without metadatas stores
``{"id": id}``, which is compared).
"""

from __future__ import annotations

import itertools
import re
import warnings
from typing import Any

import pytest

from ._compare import Verdict, compare_errors
from ._divergences import FLOAT_ROUNDING, KNOWN, LANCEDB_PROJECTION
from ._draw import Draw, check_drawn_cases
from ._lc_rounding import near_tie
from ._runners import attempt

pytest.importorskip("lancedb", reason="pip install 'placeborag[fidelity]'")
pytest.importorskip("langchain_community", reason="pip install 'placeborag[fidelity]'")
pytest.importorskip("placeborag_langchain", reason="pip install 'placeborag[langchain]'")

from . import _lancedb

pytestmark = pytest.mark.fidelity

DIM = 16
_tables = itertools.count()
PHRASES = ("refund policy", "shipping times", "opening hours", "password reset", "red alpha")
COLORS = ("red", "blue", "", "it's", "darkred", "Red")
NUMBERS = (1, 2, 5, 2.5, 1.0, -1)
TITLES = ("alpha beta", "gamma")
IDS = (*(f"id{i}" for i in range(6)), "it's")
PROJECTION_ERROR = "Invalid input, projection supplied fewer column indices than its fields"


def _embedding() -> Any:
    from placeborag_langchain import PlaceboEmbeddings

    return PlaceboEmbeddings(dimensions=DIM)


def _stores(mode: str, distance: str) -> tuple[Any, Any]:
    from langchain_community.vectorstores import LanceDB

    from placeborag_langchain import PlaceboVectorStore

    real = LanceDB(
        connection=_lancedb.connection(),
        embedding=_embedding(),
        table_name=f"lc_{next(_tables)}",
        mode=mode,
        distance=distance,
    )
    ours = PlaceboVectorStore(_embedding(), profile="lancedb", mode=mode, distance=distance)
    return ours, real


def draw_meta(d: Draw, keys: tuple[str, ...]) -> dict[str, Any]:
    """Metadata with some of ``keys`` (each kept at 80%), typed as the table expects."""
    meta: dict[str, Any] = {}
    for key in keys:
        if d.chance(0.8):
            if key == "color":
                meta[key] = d.choice(COLORS)
            elif key == "n":
                meta[key] = d.choice(NUMBERS)
            else:
                meta[key] = d.choice(TITLES)
    return meta or {keys[0]: d.choice(COLORS) if keys[0] == "color" else 1}


def draw_add(d: Draw, first: bool) -> tuple[list[str], list[dict[str, Any]] | None, list[str]]:
    """An ``add_texts`` call: texts, metadatas (None now and then, later adds only) and ids."""
    n = d.integer(1, 4 if first else 2)
    texts = [d.choice(PHRASES) for _ in range(n)]
    ids = [d.choice(IDS) for _ in range(n)]
    if not first and d.chance(0.1):
        return texts, None, ids
    keys = ("color", "n", "title") if first else d.choice((("color", "n"), ("n",), ("other",)))
    return texts, [draw_meta(d, keys) for _ in range(n)], ids


def _condition(d: Draw) -> str:
    column = d.choice(
        ("metadata.color", "metadata.n", "metadata.title", "metadata.missing", "id", "text")
    )
    op = d.choice(("=", "!=", ">", "<=", "IN", "LIKE", "IS NULL", "IS NOT NULL"))
    literal = d.choice(("'red'", "'it''s'", "1", "2.5", "'2'", "'%a%'", "true", "'id1'"))
    if op.startswith("IS"):
        return f"{column} {op}"
    if op == "IN":
        return f"{column} IN ({literal}, {d.choice(('1', chr(39) + 'blue' + chr(39)))})"
    return f"{column} {op} {literal}"


def draw_filter(d: Draw) -> Any:
    """A SQL filter (maybe combined, negated or broken) or a dict filter."""
    if d.chance(0.15):
        return {d.choice(("color", "metadata.color", "n")): d.choice(("red", "1"))}
    text = _condition(d)
    if d.chance(0.4):
        text = f"{text} {d.choice(('AND', 'OR'))} {_condition(d)}"
    if d.chance(0.1):
        text = f"NOT ({text})"
    if d.chance(0.05):
        text += d.choice((" AND", ")", " =="))
    return text


_NUMBER = re.compile(r"-?\d+\.\d+(e-?\d+)?")


def _outcome(call: Any, store: Any) -> tuple[Any, BaseException | None, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result, error = attempt(lambda: call(store))
    # LangChain's relevance warning lists the results: they are compared as results (scores
    # within tolerance, ties in either order)
    shown = [
        _NUMBER.sub("<n>", f"{w.category.__name__}: {w.message}").split(", got [(", 1)[0]
        for w in caught
        if not issubclass(w.category, DeprecationWarning)
    ]
    return result, error, shown


def _plain(value: Any) -> Any:
    """Documents (and scored pairs) as comparable data; scores kept apart."""
    from langchain_core.documents import Document

    if isinstance(value, Document):
        return ("doc", value.page_content, value.metadata, value.id)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Document):
        return ("scored", _plain(value[0]), float(value[1]))
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _same(ours: Any, theirs: Any, tol: float = 1e-5) -> bool:
    if isinstance(ours, list) and isinstance(theirs, list):
        return len(ours) == len(theirs) and all(
            _same(a, b, tol) for a, b in zip(ours, theirs, strict=True)
        )
    if isinstance(ours, tuple) and isinstance(theirs, tuple) and ours[:1] == ("scored",):
        return _same(ours[1], theirs[1]) and abs(ours[2] - theirs[2]) <= tol * max(
            1.0, abs(theirs[2])
        )
    return bool(ours == theirs)


def _doc_key(value: Any) -> Any:
    plain = _plain(value)
    return repr(plain[1] if plain[0] == "scored" else plain)


def _tie_groups(scores: list[float], tol: float = 1e-5) -> list[tuple[int, int]]:
    """Runs of consecutive ranks whose scores chain within ``tol``."""
    groups: list[tuple[int, int]] = []
    start = 0
    for end in range(1, len(scores) + 1):
        if end == len(scores) or abs(scores[end] - scores[end - 1]) > tol * max(
            1.0, abs(scores[end])
        ):
            groups.append((start, end))
            start = end
    return groups


def _tie_aware(ours: list[Any], theirs: list[Any], scores: list[float]) -> Verdict:
    """Rankings equal up to the order inside groups of equal scores (``scores``: the engine's,
    rank by rank) and which tied documents a cut group keeps: the engine's float32 kernels
    break exact ties by their rounding, the store's exact scores by insertion order."""
    if len(ours) != len(theirs) or len(scores) < len(theirs):
        return Verdict(False, detail=f"results: ours {ours!r}\n theirs {theirs!r}")
    if not _same(_plain(ours), _plain(theirs)):
        groups = _tie_groups(scores[: len(theirs)])
        for n, (start, end) in enumerate(groups):
            mine = sorted(_doc_key(v) for v in ours[start:end])
            real = sorted(_doc_key(v) for v in theirs[start:end])
            if mine != real and not (n == len(groups) - 1 and len(scores) > len(theirs)):
                return Verdict(False, detail=f"results: ours {ours!r}\n theirs {theirs!r}")
        return Verdict(True, divergences=(FLOAT_ROUNDING,))
    return Verdict(True)


def compare_call(ours: Any, theirs: Any, call: Any, ranking: Any = None) -> Verdict:
    """One call on both stores: same result, warnings and error. ``ranking``: a call giving the
    engine's scores of the same search, rank by rank (ties may then be ordered differently);
    for an MMR, of its candidates (MMR picks among tied candidates then differ too)."""
    our_result, our_error, our_warnings = _outcome(call, ours)
    their_result, their_error, their_warnings = _outcome(call, theirs)
    if their_error is not None and PROJECTION_ERROR in str(their_error) and our_error is None:
        return Verdict(True, divergences=(LANCEDB_PROJECTION,))
    if our_error is not None or their_error is not None:
        verdict = compare_errors(our_error, their_error)
        if verdict.agree and _lancedb.message(our_error) != _lancedb.message(their_error):  # type: ignore[arg-type]
            return Verdict(False, detail=f"messages: ours {our_error!r} theirs {their_error!r}")
        return verdict
    same = _same(_plain(our_result), _plain(their_result))
    if our_warnings == their_warnings and same:
        return Verdict(True)
    if ranking is not None:
        kind, call_scores, *rounded = ranking
        scores = [float(score) for _, score in call_scores(theirs)]
        tied = any(end - start > 1 for start, end in _tie_groups(scores))
        tied = tied or any(check(theirs) for check in rounded)
        if kind in ("mmr", "post") and tied:
            # MMR picks among tied candidates, or a post-filter applied to a top k that
            # cut a group of ties, depend on the order the ties come in
            return Verdict(True, divergences=(FLOAT_ROUNDING,))
        if kind not in ("mmr", "post") and our_warnings == their_warnings:
            return _tie_aware(our_result, their_result, scores)
    if our_warnings != their_warnings:
        return Verdict(False, detail=f"warnings: ours {our_warnings} theirs {their_warnings}")
    return Verdict(False, detail=f"results: ours {our_result!r}\n theirs {their_result!r}")


def _listing(store: Any) -> Any:
    return store.similarity_search(PHRASES[0], k=50)


def lancedb_case(d: Draw) -> list[tuple[str, Verdict]]:
    """Build both stores, write 1-3 times, then compare 2-4 drawn calls and the final rows."""
    mode = d.choice(("overwrite", "append", "append"))
    distance = d.choice(("l2", "l2", "cosine", "ip", "dot"))
    ours, theirs = _stores(mode, distance)
    verdicts: list[tuple[str, Verdict]] = []
    texts, metas, ids = draw_add(d, first=True)
    verdicts.append(
        (f"{mode} add {texts} {metas} {ids}",
         compare_call(ours, theirs, lambda s: s.add_texts(texts, metas, ids=ids)))
    )  # fmt: skip
    if not verdicts[-1][1].agree:
        return verdicts
    for _ in range(d.integer(0, 2)):
        kind = d.choice(("add", "add", "delete ids", "delete filter", "delete none"))
        if kind == "add":
            texts, metas, ids = draw_add(d, first=False)
            label = f"add {texts} {metas} {ids}"
            call: Any = lambda s, t=texts, m=metas, i=ids: s.add_texts(t, m, ids=i)  # noqa: E731
        elif kind == "delete ids":
            doomed = [d.choice(IDS) for _ in range(d.integer(0, 2))]
            label, call = f"delete {doomed}", lambda s, x=doomed: s.delete(ids=x)
        elif kind == "delete filter":
            flt = draw_filter(d)
            if isinstance(flt, dict):
                flt = "metadata.n >= 2"
            label, call = f"delete filter={flt!r}", lambda s, f=flt: s.delete(filter=f)
        else:
            label, call = "delete()", lambda s: s.delete()
        verdicts.append((f"{mode} {label}", compare_call(ours, theirs, call)))
        if verdicts[-1][1].divergences:  # the engine's write failed on its bug: states differ
            return verdicts
    for _ in range(d.integer(2, 4)):
        label, call, ranking = draw_read(d)
        verdicts.append((f"{mode}/{distance} {label}", compare_call(ours, theirs, call, ranking)))
    listing = ("all", lambda s: s.similarity_search_with_score(PHRASES[0], k=50))
    verdicts.append((f"{mode} rows at the end", compare_call(ours, theirs, _listing, listing)))
    return verdicts


def draw_read(d: Draw) -> tuple[str, Any, Any]:
    """A search, relevance search, MMR, get_by_ids or k=0 call."""
    query = d.choice(PHRASES)
    k = d.choice((1, 2, 3, 4, 9))
    flt = draw_filter(d) if d.chance(0.6) else None
    extra: dict[str, Any] = {}
    if flt is not None and d.chance(0.4):
        extra["prefilter"] = d.chance(0.5)
    kind = d.choice(("score", "score", "search", "relevance", "mmr", "get", "k0"))
    label = f"{kind} {query!r} k={k} filter={flt!r} {extra}"

    def scored(s: Any, n: int = k) -> Any:
        return s.similarity_search_with_score(query, k=n, filter=flt, **extra)

    # the engine's scores of one more rank tell whether k cut a group of ties; a post-filter
    # (LanceDB's default) filters the unfiltered top k
    ranking: Any = ("cut", lambda s: scored(s, k + 1)[: k + 1])
    if flt is not None and not extra.get("prefilter"):
        ranking = ("post", lambda s: s.similarity_search_with_score(query, k=k + 1))
    if kind == "score":
        return label, scored, ranking
    if kind == "search":
        return label, lambda s: s.similarity_search(query, k=k, filter=flt, **extra), ranking
    if kind == "relevance":
        return (
            label,
            lambda s: s.similarity_search_with_relevance_scores(query, k=k, filter=flt, **extra),
            ranking,
        )
    if kind == "mmr":
        fetch = d.choice((2, 5, 20))

        def candidates(s: Any) -> Any:
            return s.similarity_search_with_score(query, k=fetch + 1, filter=flt)

        def objectives_tie(s: Any) -> bool:  # e.g. two picks at MMR objective 0, exactly
            texts = [doc.page_content for doc, _ in candidates(s)[:fetch]]
            return near_tie(_embedding(), query, texts, k, 0.5)

        return (
            f"{label} fetch_k={fetch}",
            lambda s: s.max_marginal_relevance_search(query, k=k, fetch_k=fetch, filter=flt),
            ("mmr", candidates, objectives_tie),
        )
    if kind == "get":
        return label, lambda s: s.get_by_ids(["id1"]), None
    return label, lambda s: s.similarity_search(query, k=0), None


EXAMPLES = 200
"""Drawn cases (~0.08 s each), each comparing several calls."""


def test_langchain_lancedb_agrees() -> None:
    cases: list[int] = []

    def run(d: Draw) -> None:
        for label, verdict in lancedb_case(d):
            cases.append(1)
            assert verdict.agree, f"{label}: {verdict.detail}"
            for key in verdict.divergences:
                assert "lancedb" in KNOWN[key].engines, (key, label)

    check_drawn_cases("lc-lancedb", EXAMPLES, run)
    assert len(cases) >= 200
