"""Upsert, delete and re-add sequences leave the same visible state on both sides.

A hypothesis state machine applies the same writes to our profile and to the real engine
(``_runners.WriteSequence``): batches of new and present ids with metadata (Chroma merges it
on upsert, Qdrant replaces it), deletes of present and absent ids, re-adds after a delete.
After every step the listings (ids in the engine's listing order, with metadata) must be
equal, and queries over grid vectors (many exact ties) must agree tie-aware.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from ._divergences import KNOWN
from ._draw import HypothesisDraw
from ._params import FIDELITY, engine_metric_params, installed
from ._runners import FILTER_OPS, SEQUENCE_POOL, WriteSequence, draw_filter, grid_vectors

pytestmark = pytest.mark.fidelity

ids_strategy = st.lists(st.sampled_from(SEQUENCE_POOL), min_size=1, max_size=4, unique=True)


def machine_for(engine: str, metric: str) -> type[RuleBasedStateMachine]:
    """A state machine comparing our profile with ``engine``/``metric``."""

    class WriteSequences(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.sequence = WriteSequence(engine, metric)

        def teardown(self) -> None:
            self.sequence.close()

        @rule(ids=ids_strategy, seed=st.integers(0, 2**16))
        def upsert(self, ids: list[str], seed: int) -> None:
            self.sequence.upsert(ids, seed)

        @rule(ids=ids_strategy)
        def delete(self, ids: list[str]) -> None:
            self.sequence.delete(ids)

        @rule(seed=st.integers(0, 2**16), k=st.integers(1, 12), data=st.data())
        def query(self, seed: int, k: int, data: st.DataObject) -> None:
            where = None
            if engine in FILTER_OPS and data.draw(st.booleans()):
                where = draw_filter(HypothesisDraw(data.draw), engine, depth=1)
            outcome = self.sequence.query(seed, k, where)
            assert outcome.verdict.agree, f"{outcome.case}: {outcome.verdict.detail}"
            for key in outcome.verdict.divergences:
                assert engine in KNOWN[key].engines

        @invariant()
        def same_visible_state(self) -> None:
            outcome = self.sequence.state()
            assert outcome.verdict.agree, f"{outcome.case}: {outcome.verdict.detail}"

    WriteSequences.__name__ = f"WriteSequences_{engine}_{metric}"
    return WriteSequences


SEQUENCES = {"milvus": 17, "milvus_int64": 6, "pgvector": 12}
"""Drawn sequences per metric (default 30): each runs up to 15 steps against the real engine.
Fewer where a step is a round trip to a server (CI time): Milvus (~0.4 s a sequence) gets 51
plus 6 with INT64 keys, pgvector 36; with the drawn rankings (``test_rankings.EXAMPLES``) every
engine draws at least 200 cases (``test_case_counts.py``)."""


@pytest.mark.parametrize(("engine", "metric"), engine_metric_params())
def test_write_sequences_leave_the_same_state(engine: str, metric: str) -> None:
    run_state_machine_as_test(
        machine_for(engine, metric),
        settings=settings(FIDELITY, max_examples=SEQUENCES.get(engine, 30), stateful_step_count=15),
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
