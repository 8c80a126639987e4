"""Scores, order and result counts agree with the real engine, tie-aware, on drawn data.

Records come from the FakeEmbedder and from raw vectors (unit and non-unit, integer grids with
many exact ties, repeated vectors); queries are stored or fresh vectors; k runs from 1 to above
the collection size; half the queries carry a drawn filter and some an ``ids`` restriction.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ._draw import check_drawn_cases
from ._params import engine_metric_params
from ._runners import check_outcomes, compare_query, ranking_case

pytestmark = pytest.mark.fidelity

EXAMPLES = {
    "chroma": 150,
    "qdrant": 150,
    "faiss": 150,
    "milvus": 50,
    "milvus_int64": 40,
    "pgvector": 55,
}
"""Drawn datasets per metric; each yields 1-3 compared queries, so every engine gets several
hundred ranking cases (run ``benchmarks/fidelity_report.py`` for the counts per behaviour).
Milvus runs fewer per metric (three metrics plus INT64 keys; each call is a gRPC round trip);
pgvector's three metrics, against a real PostgreSQL, get 165 datasets (CI time)."""


@pytest.mark.parametrize(("engine", "metric"), engine_metric_params())
def test_drawn_queries_agree_with_the_engine(engine: str, metric: str) -> None:
    check_drawn_cases(
        f"rankings/{engine}/{metric}",
        EXAMPLES[engine],
        lambda d: check_outcomes(ranking_case(d, engine, metric)),
    )


COUNT_CASES = [
    pytest.param(0, 3, None, id="empty-collection"),
    pytest.param(4, 10, None, id="k-above-size"),
    pytest.param(4, 4, None, id="k-equals-size"),
    pytest.param(4, 3, {"color": "purple"}, id="filter-matches-nothing"),
    pytest.param(4, 10, {"color": "red"}, id="filter-fewer-than-k"),
]


def _count_params() -> list[Any]:
    # FAISS has no metadata filters: its filtered cases do not exist rather than skip.
    return [
        pytest.param(*engine.values, *case.values, id=f"{engine.id}-{case.id}", marks=engine.marks)
        for engine in engine_metric_params()
        for case in COUNT_CASES
        if not (engine.values[0] == "faiss" and case.values[2] is not None)
    ]


@pytest.mark.parametrize(("engine", "metric", "size", "k", "where"), _count_params())
def test_result_counts_agree(
    engine: str, metric: str, size: int, k: int, where: dict[str, str] | None, sides: Any
) -> None:
    vectors = np.random.default_rng(size).standard_normal((size, 3))
    ids = [str(i) for i in range(size)]
    metas = [{"color": "red" if i % 2 else "blue"} for i in range(size)]
    fake, real = sides(engine, metric, 3)
    fake.upsert(ids, vectors, metas)
    real.upsert(ids, vectors, metas)
    verdict = compare_query(engine, fake, real, vector=np.ones(3), k=k, where=where,
                            tol=1e-5, size=size)  # fmt: skip
    assert verdict.agree, verdict.detail
    expected = min(k, size if where is None else len(fake.query(np.ones(3), 99, where=where)))
    assert len(fake.query(np.ones(3), k, where=where)) == expected
