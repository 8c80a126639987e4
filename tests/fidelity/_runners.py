"""Run one generated case through our profile and the real engine, and judge the outcome.

Each runner returns ``Outcome`` objects (a behaviour name and a ``Verdict``) instead of
asserting, so the tests assert on them and the report script counts them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._cases import (
    CHROMA_FIELD_OPS,
    CORE_FIELD_OPS,
    MILVUS_FIELD_OPS,
    PGVECTOR_FIELD_OPS,
    Dataset,
    draw_dataset,
    draw_k,
    draw_milvus_expression,
    draw_query,
    draw_where,
)
from ._compare import Hit, TiePolicy, Verdict, compare_errors, compare_rankings
from ._divergences import (
    CHROMA_TIE_SUBSET,
    KNOWN,
    MILVUS_NAN,
    PGVECTOR_K_COERCION,
    QDRANT_K_COERCION,
    QDRANT_TIE_ORDER,
)
from ._draw import Draw
from ._engines import FakeSide, real_side

POLICIES: dict[str, TiePolicy] = {
    "chroma": TiePolicy(subset=CHROMA_TIE_SUBSET, order=None),
    "qdrant": TiePolicy(subset=QDRANT_TIE_ORDER, order=QDRANT_TIE_ORDER),
    "faiss": TiePolicy(subset=None, order=None),
    "milvus": TiePolicy(subset=None, order=None),
    "milvus_int64": TiePolicy(subset=None, order=None),
    "pgvector": TiePolicy(subset=None, order=None, whole_sort=True),
}
"""Which differences in tied results each engine explains (see ``_divergences``)."""

FILTER_OPS: dict[str, tuple[str, ...]] = {
    "chroma": CHROMA_FIELD_OPS,
    "qdrant": CORE_FIELD_OPS,
    "milvus": MILVUS_FIELD_OPS,
    "milvus_int64": MILVUS_FIELD_OPS,
    "pgvector": PGVECTOR_FIELD_OPS,
}
"""Operators drawn per engine: qdrant also draws ours that it lacks (errors are compared)."""

EXPRESSIONS = {"milvus": False, "milvus_int64": True}
"""Engines whose native filters are expression strings (value: INT64 primary keys): half of
their drawn filters are expressions (``draw_milvus_expression``), half core dicts."""


def draw_filter(d: Draw, engine: str, depth: int = 2) -> Any:
    """A drawn ``where``: the engine's native expression or a dict of its dialect."""
    if engine in EXPRESSIONS and d.chance(0.5):
        return draw_milvus_expression(d, int_ids=EXPRESSIONS[engine], depth=depth)
    return draw_where(d, FILTER_OPS[engine], depth=depth)


@dataclass(frozen=True)
class Outcome:
    """One comparison: which behaviour it exercised and what came of it."""

    engine: str
    metric: str
    behaviour: str
    verdict: Verdict
    case: str


def check_outcomes(outcomes: list[Outcome]) -> None:
    """Every comparison agrees, or diverges only in ways named for its engine."""
    for outcome in outcomes:
        assert outcome.verdict.agree, f"{outcome.case}: {outcome.verdict.detail}"
        for key in outcome.verdict.divergences:
            assert outcome.engine in KNOWN[key].engines, (key, outcome.case)


def attempt(call: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    """Run ``call``; return (result, None) or (None, the exception)."""
    try:
        return call(), None
    except Exception as error:  # the engines raise anything; we compare them
        return None, error


TOLERANCE_METRIC = {"pgvector": {"l2": "euclid"}}
"""Metrics whose scores grow like another's (pgvector's ``l2`` is not squared)."""


def tolerance(data: Dataset, query: np.ndarray, metric: str = "l2") -> float:
    """Float32 tolerance for scores of this data and metric.

    Cosine scores live in [-1, 2] whatever the magnitudes; Euclidean distance grows with the
    magnitudes, and squared L2 and dot products with their squares.
    """
    reach = float(np.sqrt(data.scale)) + float(np.linalg.norm(query))
    if metric == "cosine":
        return 1e-5
    if metric == "euclid":
        return 1e-5 * reach + 1e-6
    return 1e-5 * reach * reach + 1e-6


def load(sides: Sequence[Any], data: Dataset, d: Draw) -> None:
    """Write the dataset to every side in the same batches."""
    start = 0
    while start < len(data.ids):
        stop = len(data.ids) if d.chance(0.6) else start + d.integer(1, len(data.ids) - start)
        for side in sides:
            side.upsert(data.ids[start:stop], data.vectors[start:stop], data.metadatas[start:stop])
        start = stop


def compare_query(
    engine: str,
    fake: Any,
    real: Any,
    *,
    vector: np.ndarray,
    k: Any,
    where: Any = None,
    ids: Sequence[str] | None = None,
    tol: float,
    size: int,
) -> Verdict:
    """Run one query on both sides; compare errors, or the rankings tie-aware."""
    from ._qdrant_filter import UntranslatableError

    ours, our_error = attempt(lambda: fake.query(vector, k, where=where, ids=ids))
    theirs, their_error = attempt(lambda: real.query(vector, k, where=where, ids=ids))
    if isinstance(their_error, UntranslatableError):
        # No engine counterpart: the profile must refuse the operator itself.
        if our_error is None:
            return Verdict(False, detail=f"we accept {where!r}, which {engine} cannot express")
        return Verdict(True, detail=f"refused: {our_error}")
    if our_error is not None or their_error is not None:
        return compare_errors(our_error, their_error)
    exhaustive = real.query(vector, max(1, size), where=where, ids=ids)
    candidates = {h.id: h.score for h in exhaustive}
    mine = {h.id: h.score for h in fake.query(vector, max(1, size), where=where, ids=ids)}
    assert isinstance(ours, list)
    assert isinstance(theirs, list)
    return compare_rankings(
        ours, theirs, k=k, candidates=candidates, tol=tol, policy=POLICIES[engine],
        our_candidates=mine,
    )  # fmt: skip


def ranking_case(d: Draw, engine: str, metric: str) -> list[Outcome]:
    """Load a drawn dataset on both sides, then compare 1-3 queries (some filtered)."""
    data = draw_dataset(d, max_n=d.choice((5, 12, 30)))
    fake = FakeSide(engine, metric)
    real = real_side(engine, metric, data.dim)
    outcomes: list[Outcome] = []
    try:
        load([fake, real], data, d)
        for _ in range(d.integer(1, 3)):
            vector = draw_query(d, data)
            k = draw_k(d, len(data.ids))
            where = None
            behaviour = "ranking"
            if engine in FILTER_OPS and d.chance(0.5):
                where = draw_filter(d, engine)
                behaviour = "filters"
            ids = None
            if len(data.ids) and d.chance(0.15):
                ids = [i for i in data.ids if d.chance(0.5)]
                behaviour = "ids restriction"
            verdict = compare_query(
                engine, fake, real, vector=vector, k=k, where=where, ids=ids,
                tol=tolerance(data, vector, TOLERANCE_METRIC.get(engine, {}).get(metric, metric)),
                size=len(data.ids),
            )  # fmt: skip
            case = f"{data.kind} n={len(data.ids)} dim={data.dim} k={k} where={where} ids={ids}"
            outcomes.append(Outcome(engine, metric, behaviour, verdict, case))
    finally:
        real.close()
    return outcomes


def hits(pairs: Sequence[tuple[str, float]]) -> list[Hit]:
    """``[("1", 0.5)]`` -> hits, for hand-written expectations."""
    return [Hit(i, s) for i, s in pairs]


QDRANT_ILLEGAL_WHERE: tuple[dict[str, Any], ...] = (
    {"flag": {"$in": [True]}},
    {"n": {"$in": [1.5]}},
    {"n": {"$ne": 1.5}},
    {"n": {"$nin": [True]}},
    {"n": {"$gt": "a"}},
    {"color": {"$eq": ["red"]}},
    {"color": {"$eq": None}},
    {"color": None},
    {"color": {"$in": "red"}},
    {"color": {"$text_match": 3}},
    {"n": {"$gt": True}},
)
"""Filters whose Qdrant models a user could not build, plus a bool bound pydantic accepts."""

MILVUS_ILLEGAL_WHERE: tuple[Any, ...] = (
    'not (color == "red")',
    "not color",
    "color",
    "exists color",
    "1 < n < 5",
    "n + 1 == 2",
    'color == "red" and',
    "n in []",
    'n in [1, "5"]',
    "n in [1, 2.5]",
    "color == title",
    "flag == fAlse",
    'tags == ["x"]',
    "json_contains_all(tags, [])",
    "color is null",
    "id == 5",
    "n >",
    {"color": {"$foo": "red"}},
    {"$not": {"color": "red"}},
)
"""Expressions Milvus rejects (docs/engines/milvus.md#filter-expressions), and dicts the milvus
profile cannot translate (Milvus has no counterpart: nothing to compare, ours must raise)."""


PGVECTOR_ILLEGAL_WHERE: tuple[dict[str, Any], ...] = (
    {"color": {"$contains": "re"}},
    {"color": {"$foo": "red"}},
    {"$nor": [{"color": "red"}]},
    {"n": {"$gt": "a"}},
    {"flag": {"$gt": True}},
    {"color": None},
    {"color": {"$eq": None}},
    {"color": {"$eq": ["red"]}},
    {"color": {"$in": "red"}},
    {"$and": []},
    {"$or": []},
    {"color": {}},
    {"color": {"$exists": 1}},
)
"""Filters outside the pgvector dialect: no JSONB form, so the profile must refuse them."""

ILLEGAL_WHERE: dict[str, tuple[Any, ...]] = {
    "qdrant": QDRANT_ILLEGAL_WHERE,
    "milvus": MILVUS_ILLEGAL_WHERE,
    "pgvector": PGVECTOR_ILLEGAL_WHERE,
}


KNOWN_ERROR_DIVERGENCES: dict[tuple[str, str], str] = {
    ("qdrant", "k='2'"): QDRANT_K_COERCION,
    ("milvus", "NaN vector"): MILVUS_NAN,
    ("milvus_int64", "NaN vector"): MILVUS_NAN,
    ("pgvector", "k='2'"): PGVECTOR_K_COERCION,
    ("pgvector", "k=1.5"): PGVECTOR_K_COERCION,
}
"""Error cases where we raise and the engine accepts, by documented decision."""


def error_cases(engine: str, metric: str, dim: int = 3) -> list[Outcome]:
    """Bad k, wrong dimensions, NaN and illegal filters on a loaded and on an empty collection.

    Each pair of calls is compared with ``compare_errors``; after a rejected write the
    visible state of both sides is compared too (nothing may have been written).
    """
    from ._cases import CHROMA_ILLEGAL_WHERE

    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((4, dim))
    ids = ["3", "1", "2", "0"]
    metas: list[dict[str, Any]] = [{"color": "red", "n": 1}, {"n": 2.5}, {"flag": True}, {}]
    good = vectors[0]
    outcomes: list[Outcome] = []

    def both(behaviour: str, label: str, call: Callable[[Any], Any], loaded: bool = True) -> None:
        fake = FakeSide(engine, metric)
        real = real_side(engine, metric, dim)
        try:
            if loaded:
                fake.upsert(ids, vectors, metas)
                real.upsert(ids, vectors, metas)
            _, ours = attempt(lambda: call(fake))
            _, theirs = attempt(lambda: call(real))
            verdict = compare_errors(ours, theirs)
            known = KNOWN_ERROR_DIVERGENCES.get((engine, label))
            if known and not verdict.agree and ours is not None and theirs is None:
                verdict = Verdict(True, divergences=(known,), detail=verdict.detail)
            if verdict.agree and ours is not None and not verdict.divergences:
                after_ours, after_theirs = fake.listing(), real.listing()
                if [i for i, _ in after_ours] != [i for i, _ in after_theirs]:
                    verdict = Verdict(False, detail=f"state after error: {after_ours} vs "
                                      f"{after_theirs}")  # fmt: skip
            outcomes.append(Outcome(engine, metric, behaviour, verdict, label))
        finally:
            real.close()

    for k in (0, -1, 1.5, "2"):
        both("k errors", f"k={k!r}", lambda s, k=k: s.query(good, k))
    for width in (dim - 1, dim + 1):
        wrong = np.ones(width)
        both("dimension errors", f"query dim {width}", lambda s, w=wrong: s.query(w, 2))
        both(
            "dimension errors", f"upsert dim {width}",
            lambda s, w=wrong: s.upsert(["9"], w[None, :], [{}]),
        )  # fmt: skip
        if engine == "faiss":
            continue  # a FAISS batch is one matrix: a ragged batch cannot be formed
        both(
            "dimension errors", f"batch with one vector of dim {width}",
            lambda s, w=wrong: s.upsert(["8", "9"], [np.ones(dim), w], [{}, {}]),
        )  # fmt: skip
    if engine == "chroma":
        both(
            "dimension errors", "query of another dim on an empty collection",
            lambda s: s.query(np.ones(dim + 1), 2), loaded=False,
        )  # fmt: skip
    if engine != "faiss":
        nan = np.full((1, dim), np.nan)
        both("write errors", "NaN vector", lambda s: s.upsert(["9"], nan, [{}]))
    illegal = CHROMA_ILLEGAL_WHERE if engine == "chroma" else ILLEGAL_WHERE.get(engine, ())
    for where in illegal:
        both(
            "filter errors", f"where={where!r}",
            lambda s, w=where: s.query(good, 2, where=w),
        )  # fmt: skip
    return outcomes


SEQUENCE_DIM = 3
SEQUENCE_POOL = tuple(str(i) for i in range(10))


def grid_vectors(seed: int, count: int, dim: int = SEQUENCE_DIM) -> np.ndarray:
    """Vectors with entries in {-1, 0, 1} (never zero): exact arithmetic, frequent ties."""
    out = np.random.default_rng(seed).integers(-1, 2, size=(count, dim)).astype(np.float64)
    out[~np.any(out != 0, axis=1), 0] = 1.0
    return out


class WriteSequence:
    """The same writes applied to our profile and the real engine, checked step by step.

    FAISS has no upsert: its harness can only add new ids and ``remove_ids``, so for it an
    upsert of a present id is dropped from the batch before either side sees it.
    """

    def __init__(self, engine: str, metric: str) -> None:
        self.engine, self.metric = engine, metric
        self.fake = FakeSide(engine, metric)
        self.real = real_side(engine, metric, SEQUENCE_DIM)
        self.present: set[str] = set()
        self.log: list[str] = []

    def upsert(self, ids: Sequence[str], seed: int) -> None:
        from ._cases import draw_metadata

        if self.engine == "faiss":
            ids = [i for i in ids if i not in self.present]
        rng = np.random.default_rng(seed)
        metas = [draw_metadata(rng) for _ in ids]
        vectors = grid_vectors(seed, len(ids))
        self.fake.upsert(ids, vectors, metas)
        self.real.upsert(ids, vectors, metas)
        self.present.update(ids)
        self.log.append(f"upsert {list(ids)} seed={seed}")

    def delete(self, ids: Sequence[str]) -> None:
        self.fake.delete(ids)
        self.real.delete(ids)
        self.present.difference_update(ids)
        self.log.append(f"delete {list(ids)}")

    def query(self, seed: int, k: int, where: Any = None) -> Outcome:
        vector = grid_vectors(seed + 1, 1)[0]
        verdict = compare_query(
            self.engine, self.fake, self.real, vector=vector, k=k, where=where,
            tol=1e-5, size=len(SEQUENCE_POOL),
        )  # fmt: skip
        case = " ; ".join([*self.log, f"query seed={seed} k={k} where={where}"])
        behaviour = "write sequences: queries"
        return Outcome(self.engine, self.metric, behaviour, verdict, case)

    def state(self) -> Outcome:
        ours, theirs = self.fake.listing(), self.real.listing()
        if self.engine == "faiss":  # FAISS keeps no metadata: compare ids and their order
            ours = [(i, {}) for i, _ in ours]
        verdict = Verdict(True) if ours == theirs else Verdict(False, detail=f"{ours} != {theirs}")
        behaviour = "write sequences: state"
        return Outcome(self.engine, self.metric, behaviour, verdict, " ; ".join(self.log))

    def close(self) -> None:
        self.real.close()


def write_sequence_case(d: Draw, engine: str, metric: str, steps: int = 12) -> list[Outcome]:
    """A drawn sequence of writes and queries; the state is compared after every write."""
    sequence = WriteSequence(engine, metric)
    outcomes: list[Outcome] = []
    try:
        for _ in range(steps):
            action = d.choice(("upsert", "upsert", "delete", "query"))
            ids = sorted({d.choice(SEQUENCE_POOL) for _ in range(d.integer(1, 4))})
            if action == "upsert":
                sequence.upsert(ids, d.integer(0, 2**16))
            elif action == "delete":
                sequence.delete(ids)
            else:
                where = None
                if engine in FILTER_OPS and d.chance(0.5):
                    where = draw_filter(d, engine, depth=1)
                outcomes.append(sequence.query(d.integer(0, 2**16), d.integer(1, 12), where))
                continue
            outcomes.append(sequence.state())
    finally:
        sequence.close()
    return outcomes
