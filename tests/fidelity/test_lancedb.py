"""The lancedb profile against LanceDB itself (``lancedb.connect(<tmp dir>)``, in process).

Drawn tables (typed metadata, some values of other types) are written to both sides through
``merge_insert``/``upsert_many`` and ``add``/``append_many``; drawn SQL filters (well typed, ill
typed, unknown columns, NULLs, malformed) run as pre- and post-filters; errors must agree in kind
and message, results tie-aware within float32 tolerance, and the tables row for row after every
write. pyarrow's type inference, which decides a table's schema, is compared on its own.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ._draw import check_drawn_cases
from ._runners import check_outcomes

pytest.importorskip("lancedb", reason="lancedb is missing (pip install 'placeborag[fidelity]')")

from . import _lancedb as lance

pytestmark = pytest.mark.fidelity

RANKING_EXAMPLES = 55
"""Drawn tables per metric; each gives 1-2 write comparisons and 1-4 queries."""
SEQUENCE_EXAMPLES = 12
"""Drawn write sequences per metric (10 steps each): with the tables, 201 drawn cases."""


@pytest.mark.parametrize("metric", lance.METRICS)
def test_drawn_tables_queries_and_sql_filters_agree(metric: str) -> None:
    check_drawn_cases(
        f"lancedb-rankings/{metric}",
        RANKING_EXAMPLES,
        lambda d: check_outcomes(lance.ranking_case(d, metric)),
    )


@pytest.mark.parametrize("metric", lance.METRICS)
def test_drawn_write_sequences_agree(metric: str) -> None:
    check_drawn_cases(
        f"lancedb-sequences/{metric}",
        SEQUENCE_EXAMPLES,
        lambda d: check_outcomes(lance.write_sequence_case(d, metric)),
    )


def test_error_cases_agree() -> None:
    outcomes = lance.error_cases("l2")
    assert {o.behaviour for o in outcomes} >= {"k errors", "dimension errors", "filter errors"}
    check_outcomes(outcomes)


RECORDS: list[tuple[str, dict[str, Any]]] = [
    ("r1", {"color": "red", "n": 1, "tags": ["x", "y"], "flag": None}),
    ("r2", {"color": "blue", "n": 5}),
    ("r3", {"n": 10}),
    ("r4", {"color": "green"}),
    ("r5", {}),
    ("r7", {"n": 2.5, "color": "blue"}),
    ("r8", {"flag": True, "n": 1.0}),
    ("r9", {"flag": False, "color": ""}),
]
"""The records of docs/engines/lancedb.md#filters-sql-where (the first row names every column)."""

FILTERS = [
    "color = 'red'", "color == 'red'", "n = 1", "n = 1.0", "flag = true", "flag = 1",
    "n = '1'", "color != 'red'", "color <> 'red'", "n != 1", "color IN ('red', 'green')",
    "color NOT IN ('red', 'green')", "NOT (color = 'red')", "n > 2", "n BETWEEN 1 AND 5",
    "color LIKE 'r%'", "color ILIKE 'R%'", "color IS NULL", "color IS NOT NULL",
    "color = 'red' AND n = 1", "color = 'red' OR n > 5", "array_has(tags, 'x')",
    "array_contains(tags, 'x')", "color = red", "nosuch = 1", "n >", "NOT n", "flag",
    "NOT flag", "flag IS NOT TRUE", "color IN ('red', NULL)", "color NOT IN ('red', NULL)",
    "n IS NULL OR color IS NULL", "nosuch IS NULL", '"Color" IS NULL', "Color = 'red'",
    "n LIKE 'x'", "NOT (n = 'x')", "NOT (color = 1)", "color = 'it''s'", "color = 'it's'",
    "color = 'red' junk", "(color = 'red'", "n IN ()", "n = +1", "n <=> 1",
    "n IS DISTINCT FROM 1", "tags = 'x'", "1 = 1", "NULL", "n = 1 AND AND n = 2",
]  # fmt: skip


@pytest.mark.parametrize("where", FILTERS)
@pytest.mark.parametrize("prefilter", [True, False], ids=["pre", "post"])
def test_documented_filters_agree(where: str, prefilter: bool) -> None:
    ids = [i for i, _ in RECORDS]
    metas = [m for _, m in RECORDS]
    vectors = np.array([[1.0, float(j)] for j in range(len(RECORDS))])
    fake, real = lance.LanceFakeSide("l2", prefilter), lance.LanceSide("l2", prefilter)
    try:
        assert lance.compare_writes(fake, real, "upsert", ids, vectors, metas).agree
        verdict = lance.compare_query(fake, real, [1.0, 0.0], 20, where, len(ids), 1e-5)
        assert verdict.agree, verdict.detail
    finally:
        real.close()


POOL: list[Any] = [
    None, True, False, 0, 1, 5, 2**63, 1.5, 0.0, "x", "", [], ["x"], [1], [1.5], [True],
    [None], [1, "x"], ["x", 1], [True, 1], {"a": 1}, {"b": "x"}, {"a": True}, {"a": 1.5}, {},
]  # fmt: skip


def test_pyarrow_inference_agrees() -> None:
    """The schema of a table is pyarrow's inference: 3000 drawn columns of mixed values."""
    import pyarrow as pa

    from placeborag_core.backends.lancedb.arrow import infer_column

    def real(values: list[Any]) -> str:
        try:
            return str(pa.array(values).type)
        except Exception as error:  # pyarrow's errors are compared
            return f"{type(error).__name__}: {error}"

    def ours(values: list[Any]) -> str:
        try:
            return infer_column(values).pyarrow
        except Exception as error:  # our imitation of them
            return f"{type(error).__name__}: {error}"

    for seed in range(3000):
        rng = random.Random(seed)
        values = [rng.choice(POOL) for _ in range(rng.randint(1, 4))]
        assert ours(values) == real(values), values
