"""The bounds ``store/scan.py`` relies on: a key more than the margin below another's means a
strictly worse reported score (phase 1's float32 keys and the float64 refined keys), and
``kth_largest`` finds the same ``k``-th largest key as a sort."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import PROFILES, FakeEmbedder, FakeVectorStore
from placeborag_core.store.scan import kth_largest
from placeborag_core.store.scoring import (
    ScoringQuery,
    bounded_keys,
    exact_scores,
    refined_keys,
)

VARIANTS = [(p.name, v.name) for p in PROFILES.values() for v in p.variants]


def _near_store(profile: str, metric: str, seed: int, lattice: bool) -> Any:
    """Rows whose scores nearly tie: copies of a few vectors, nudged by one float32 ulp in a
    component, scaled, or permuted; FakeEmbedder vectors (lattice pairs) when ``lattice``."""
    rng = np.random.default_rng(seed)
    if lattice:
        words = [f"w{i}" for i in range(12)]
        texts = [" ".join(rng.choice(words, int(rng.integers(1, 5)))) for _ in range(300)]
        vectors = FakeEmbedder().embed_many(texts, dtype=np.float32).astype(np.float64)
        query = FakeEmbedder().embed(" ".join(rng.choice(words, 3)))
    else:
        base = rng.standard_normal((6, 16)).astype(np.float32)
        picks = base[rng.integers(0, 6, 300)]
        nudged = np.nextafter(picks, np.float32(np.inf)) * (rng.random((300, 16)) < 0.05)
        picks = np.where(nudged != 0, nudged, picks)
        picks = picks * rng.choice([1.0, 2.0, 0.5], (300, 1)).astype(np.float32)
        vectors = np.array([rng.permutation(v) for v in picks], dtype=np.float64)
        query = np.full(16, 0.25)
    store = FakeVectorStore(profile=profile, metric=metric)
    numeric = profile in ("qdrant", "milvus_int64")  # ids that must be integers
    ids = [str(i) if numeric else f"r{i}" for i in range(len(vectors))]
    store.upsert_many([(ident, None, {}, v) for ident, v in zip(ids, vectors, strict=True)])
    part = store._spaces.get("")
    formula = store.profile.variant.formula
    return part, ScoringQuery.build(formula, np.asarray(query, dtype=np.float64)), store


def _strictly_ordered(keys: Any, margin: float, badness: Any) -> bool:
    """Whether every key more than ``margin`` below another has a strictly worse badness."""
    k = np.asarray(keys, dtype=np.float64)
    apart = k[:, None] < (k - margin)[None, :]  # row i's key is clearly below row j's
    return bool((badness[:, None] > badness[None, :])[apart].all())


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1), st.booleans())
def test_keys_apart_by_the_margin_mean_strictly_ordered_scores(
    variant: tuple[str, str], seed: int, lattice: bool
) -> None:
    profile, metric = variant
    part, query, store = _near_store(profile, metric, seed, lattice)
    rows = part.live_rows()
    found = bounded_keys(part, query, rows)
    if found is None:
        return
    scores, _ = exact_scores(part, query, rows)
    badness = -scores if store.profile.higher_is_better else scores
    keys, margin = found
    assert _strictly_ordered(keys, margin, badness)
    fine, fine_margin = refined_keys(part, query, rows)
    assert fine_margin < margin
    assert _strictly_ordered(fine, fine_margin, badness)


@pytest.mark.parametrize("bound", [1, 3, 64, 250, 299])
def test_kth_largest_is_the_kth_of_the_sorted_keys(bound: int) -> None:
    rng = np.random.default_rng(bound)
    for keys in (
        np.round(rng.standard_normal(5_000), 1).astype(np.float32),  # many ties
        np.sort(rng.standard_normal(5_000)),  # rising: the head bounds nothing
        np.sort(rng.standard_normal(5_000))[::-1].copy(),  # falling: the head holds them all
        np.zeros(300),
        rng.standard_normal(1_500),  # just past the head
    ):
        assert kth_largest(keys, bound) == float(np.sort(keys)[::-1][bound - 1])
