"""Upsert, delete and re-add sequences leave the same visible state on both sides.

A drawn sequence (``_runners.write_sequence_case``) applies the same writes to our profile and
to the real engine (``_runners.WriteSequence``): batches of new and present ids with metadata
(Chroma merges it on upsert, Qdrant replaces it), deletes of present and absent ids, re-adds
after a delete. After every write the listings (ids in the engine's listing order, with
metadata) must be equal, and queries over grid vectors (many exact ties) must agree tie-aware.
"""

from __future__ import annotations

import pytest

from ._draw import check_drawn_cases
from ._params import engine_metric_params, installed
from ._runners import WriteSequence, check_outcomes, grid_vectors, write_sequence_case

pytestmark = pytest.mark.fidelity

STEPS = 15
"""Writes and queries per drawn sequence; the state is compared after every write."""

SEQUENCES = {"milvus": 17, "milvus_int64": 6, "pgvector": 12}
"""Drawn sequences per metric (default 30): each runs up to 15 steps against the real engine.
Fewer where a step is a round trip to a server (CI time): Milvus (~0.4 s a sequence) gets 51
plus 6 with INT64 keys, pgvector 36; with the drawn rankings (``test_rankings.EXAMPLES``) every
engine draws at least 200 cases (``test_case_counts.py``)."""


@pytest.mark.parametrize(("engine", "metric"), engine_metric_params())
def test_write_sequences_leave_the_same_state(engine: str, metric: str) -> None:
    check_drawn_cases(
        f"sequences/{engine}/{metric}",
        SEQUENCES.get(engine, 30),
        lambda d: check_outcomes(write_sequence_case(d, engine, metric, steps=STEPS)),
    )


def test_the_state_check_compares_metadata_too() -> None:
    if not installed("qdrant"):
        pytest.skip("qdrant-client is not installed (pip install 'placeborag[fidelity]')")
    sequence = WriteSequence("qdrant", "cosine")
    try:
        vectors = grid_vectors(0, 1)
        sequence.fake.upsert(["1"], vectors, [{"a": 1}])
        sequence.real.upsert(["1"], vectors, [{"a": 2}])
        assert not sequence.state().verdict.agree
    finally:
        sequence.close()
