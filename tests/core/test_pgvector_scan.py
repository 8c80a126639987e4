"""The pgvector profile's tuplesort replay over only the candidates that can enter the bounded
heap (``PostgresSortTies.select_scan``, ``store/scan.py``) gives the same ids and scores, bit
for bit, as the full replay over every candidate scored exactly (``pg_order``, which the
fidelity suite checks against PostgreSQL)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import FakeVectorStore
from placeborag_core.backends.pgvector.ties import PostgresSortTies, pg_order
from placeborag_core.backends.ties import dense_ranks
from placeborag_core.store.scan import Scan, entrants, ranks_by_keys
from placeborag_core.store.scoring import ScoringQuery, exact_scores

RULE = PostgresSortTies()


class FakeScan:
    """Badness known in advance, phase-1 keys off by up to ``error`` in either direction
    (``bounded`` False: no bound, every candidate an entrant)."""

    def __init__(self, badness: Any, noise: Any, error: float, bounded: bool) -> None:
        self.values = np.asarray(badness, dtype=np.float64)
        self.count = len(self.values)
        self.rows = np.arange(self.count, dtype=np.intp) * 3 + 1
        self.bounded = bounded
        self.keys = -self.values + np.clip(noise, -error, error)
        self.margin = 2 * error * (1 + 2.0**-20) + 1e-12
        self.read: set[int] = set()

    def badness(self, positions: Any) -> Any:
        self.read.update(positions.tolist())
        return self.values[positions]

    def entrants(self, bound: int) -> Any:
        if not self.bounded:
            return np.arange(self.count)
        return entrants(self.keys, self.margin, bound)

    def ranks(self, positions: Any) -> Any:
        if not self.bounded:
            return dense_ranks(self.badness(positions))
        return ranks_by_keys(
            self.keys[positions], self.margin, lambda at: self.badness(positions[at])
        )


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 700),
    st.sampled_from([1, 2, 3, 5, 8, 20, 1000]),
    st.sampled_from([0.0, 0.2, 0.5, 2.0]),
    st.booleans(),
    st.booleans(),
)
def test_replay_over_entrants_equals_the_full_replay(
    seed: int, count: int, levels: int, error: float, bounded: bool, sorted_input: bool
) -> None:
    rng = np.random.default_rng(seed)
    badness = rng.integers(0, levels, count).astype(np.float64) * 0.5
    if sorted_input:  # every row enters the heap: the worst case for the block thresholds
        badness = np.sort(badness)[::-1].copy()
    if not bounded:  # no bound: zero vectors' NaN distances, -0.0
        badness[rng.random(count) < 0.1] = math.nan
        badness[badness == 0.0] = rng.choice([0.0, -0.0], int((badness == 0.0).sum()))
    noise = rng.uniform(-error, error, count)
    scan = FakeScan(badness, noise, error, bounded)
    for limit in sorted({1, 2, 3, 7, count // 2, count // 2 - 1, count, count + 3} - {-1, 0}):
        chosen = RULE.select_scan(scan, limit, str)
        expected = [3 * p + 1 for p in pg_order(badness, limit)]
        assert chosen.tolist() == expected


def test_the_replay_reads_few_candidates_when_the_keys_separate_them() -> None:
    rng = np.random.default_rng(7)
    badness = np.round(rng.standard_normal(20_000), 2)  # many exact ties
    scan = FakeScan(badness, np.zeros(len(badness)), 0.0, True)
    chosen = RULE.select_scan(scan, 100, str)
    assert chosen.tolist() == [3 * p + 1 for p in pg_order(badness, 100)]
    assert len(scan.read) < 1_500


# ---------------------------------------------------------------------------- in a store


def _oracle(store: FakeVectorStore, query: Any, k: int, group: int | None) -> list[Any]:
    """Every candidate scored exactly, then the full replay (the store's previous path)."""
    part = store._spaces.get("")  # type: ignore[attr-defined]
    live = part.live_rows()
    rows = np.asarray(
        [r for r in live.tolist() if group is None or part.metadata_at(r).get("g") == group],
        dtype=np.intp,
    )
    if len(rows) == 0 or k == 0:
        return []
    formula = store.profile.variant.formula
    scoring = ScoringQuery.build(formula, np.asarray(query, dtype=np.float64))
    scores, _ = exact_scores(part, scoring, rows)
    chosen = RULE.select(scores, rows, k, part.id_at)
    at = np.searchsorted(rows, chosen)
    return [(part.id_at(r), s) for r, s in zip(chosen.tolist(), scores[at].tolist(), strict=True)]


def _same(got: list[Any], expected: list[Any]) -> bool:
    def key(score: float) -> Any:
        return "nan" if math.isnan(score) else (score, math.copysign(1.0, score))

    return [(i, key(s)) for i, s in got] == [(i, key(s)) for i, s in expected]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(["cosine", "l2", "ip"]),
    st.integers(5, 300),
    st.sampled_from([1, 2, 4, 40]),
    st.booleans(),
)
def test_store_answers_equal_the_full_replay(
    seed: int, metric: str, count: int, distinct: int, zeros: bool
) -> None:
    rng = np.random.default_rng(seed)
    dim = 12
    pool = rng.standard_normal((distinct, dim)).astype(np.float32).astype(np.float64)
    if zeros:
        pool[0] = 0.0  # NaN cosine distances: no bound, every candidate scored
    # Permutations of one vector tie exactly against a constant query, while their float32
    # phase-1 products round differently: the bound's margin is what keeps them.
    vectors = np.array([rng.permutation(pool[p]) for p in rng.integers(0, distinct, count)])
    store = FakeVectorStore(profile="pgvector", metric=metric)
    store.upsert_many([(f"r{i}", None, {"g": int(i % 3)}, vectors[i]) for i in range(count)])
    moved = rng.choice(count, size=count // 10, replace=False)
    store.upsert_many([(f"r{i}", None, {"g": int(i % 3)}, vectors[i]) for i in moved.tolist()])
    store.delete([f"r{i}" for i in rng.choice(count, size=count // 20, replace=False).tolist()])
    query = np.full(dim, float(rng.choice([0.3, -1.7, 2.5])))
    for k in sorted({1, 3, count // 6, count // 2, count // 2 + 1, count} - {0}):
        for group in (None, 1):
            where = None if group is None else {"g": group}
            got = [(m.id, m.score) for m in store.query(query, k, where=where)]
            assert _same(got, _oracle(store, query, k, group)), (k, group)


@pytest.mark.parametrize("metric", ["cosine", "l2", "ip"])
def test_a_large_tied_store_scores_a_small_share_of_its_candidates(
    metric: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(3)
    pool = rng.standard_normal((300, 16))
    vectors = pool[rng.integers(0, 300, 20_000)]  # every vector ~67 times: ties at every cut
    store = FakeVectorStore(profile="pgvector", metric=metric)
    store.upsert_many([(f"r{i}", None, {}, v) for i, v in enumerate(vectors)])
    scored: list[int] = []
    original = Scan.badness

    def counting(self: Scan, positions: Any) -> Any:
        scored.append(len(positions))
        return original(self, positions)

    monkeypatch.setattr(Scan, "badness", counting)
    query = rng.standard_normal(16)
    got = [(m.id, m.score) for m in store.query(query, 100)]
    assert scored, "the ties at the cut send the query through the scan"
    assert sum(scored) < 2_000
    monkeypatch.undo()
    assert _same(got, _oracle(store, query, 100, None))


def test_dense_ranks_compare_as_float8() -> None:
    values = [0.5, math.nan, -0.0, 0.0, -1.0, math.inf, math.nan, 0.5]
    assert dense_ranks(np.array(values)).tolist() == [2, 4, 1, 1, 0, 3, 4, 2]
