"""Bad input fails on our side exactly when it fails on the engine's, with a catchable type.

Types are compared by the engine exception's nearest builtin ancestor (see ``_compare``):
Chroma's own ``InvalidArgumentError`` derives from ``Exception`` only, so any exception of ours
is catchable where it is; its plain ``ValueError``/``TypeError`` must be matched by a
``ValueError``/``TypeError`` of ours; qdrant's pydantic ``ValidationError`` is a ``ValueError``.
After a rejected write both sides must hold the same records (nothing written).
"""

from __future__ import annotations

import pytest

from ._cases import CHROMA_ILLEGAL_WHERE
from ._divergences import KNOWN
from ._params import engine_metric_params
from ._runners import (
    MILVUS_ILLEGAL_WHERE,
    PGVECTOR_ILLEGAL_WHERE,
    QDRANT_ILLEGAL_WHERE,
    Outcome,
    error_cases,
)

pytestmark = pytest.mark.fidelity


def _failures(outcomes: list[Outcome]) -> list[str]:
    return [f"{o.behaviour} {o.case}: {o.verdict.detail}" for o in outcomes if not o.verdict.agree]


@pytest.mark.parametrize(("engine", "metric"), engine_metric_params())
def test_errors_agree_with_the_engine(engine: str, metric: str) -> None:
    outcomes = error_cases(engine, metric)
    behaviours = {o.behaviour for o in outcomes}
    assert {"k errors", "dimension errors"} <= behaviours
    assert _failures(outcomes) == []
    for outcome in outcomes:
        for key in outcome.verdict.divergences:
            assert engine in KNOWN[key].engines, (key, outcome.case)


@pytest.mark.parametrize(
    ("engine", "count"),
    [
        ("chroma", len(CHROMA_ILLEGAL_WHERE)),
        ("qdrant", len(QDRANT_ILLEGAL_WHERE)),
        ("milvus", len(MILVUS_ILLEGAL_WHERE)),
        ("pgvector", len(PGVECTOR_ILLEGAL_WHERE)),
    ],
)
def test_every_illegal_filter_is_compared(engine: str, count: int) -> None:
    from ._params import installed

    if not installed(engine):
        pytest.skip(f"{engine} is not installed")
    outcomes = error_cases(engine, "cosine" if engine in ("qdrant", "milvus", "pgvector") else "l2")
    assert len([o for o in outcomes if o.behaviour == "filter errors"]) == count
