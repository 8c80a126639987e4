"""Backend profiles: score formulas, directions, ties, writes, k and id rules (docs/engines)."""

from __future__ import annotations

import math
import uuid
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from placeborag_core import PROFILES, FakeVectorStore, Profile
from placeborag_core.backends.faiss import FaissDimensionError, FaissKError

F32 = np.float32

# The probes' geometry (docs/engines/*.md, *-score-* facts): every candidate formula gives a
# different number on these
Q1_DOCS = {
    "same": [1.0, 0.0, 0.0],
    "twice": [2.0, 0.0, 0.0],
    "c34": [3.0, 4.0, 0.0],
    "diag": [0.6, 0.0, 0.8],
    "ortho": [0.0, 1.0, 0.0],
    "opp": [-1.0, 0.0, 0.0],
}
Q = [1.0, 0.0, 0.0]


def _q1_store(profile: str, metric: str | None = None) -> FakeVectorStore:
    store = FakeVectorStore(profile=profile, metric=metric)
    for i, (name, vec) in enumerate(Q1_DOCS.items(), start=1):
        # qdrant needs point ids; keep the name in the text
        store.upsert(str(i), name, vector=vec)
    return store


def _scores(store: FakeVectorStore) -> dict[str, float]:
    return {m.text: m.score for m in store.query(Q, k=10)}  # type: ignore[misc]


def _l2_recipe(q: list[float], v: list[float]) -> float:
    q32, v32 = np.asarray(q, F32), np.asarray(v, F32)
    return float(np.sum((q32 - v32) ** 2, dtype=F32))


@pytest.mark.parametrize(
    ("profile", "metric", "expected", "first", "higher"),
    [
        (
            "chroma",
            "l2",
            {"same": 0, "diag": 0.8, "twice": 1, "ortho": 2, "opp": 4, "c34": 20},
            "same",
            False,
        ),
        (
            "chroma",
            "cosine",
            {"same": 0, "twice": 0, "c34": 0.4, "diag": 0.4, "ortho": 1, "opp": 2},
            "same",
            False,
        ),
        (
            "chroma",
            "ip",
            {"c34": -2, "twice": -1, "same": 0, "diag": 0.4, "ortho": 1, "opp": 2},
            "c34",
            False,
        ),
        (
            "qdrant",
            "cosine",
            {"twice": 1, "same": 1, "c34": 0.6, "diag": 0.6, "ortho": 0, "opp": -1},
            "same",
            True,
        ),
        (
            "qdrant",
            "dot",
            {"c34": 3, "twice": 2, "same": 1, "diag": 0.6, "ortho": 0, "opp": -1},
            "c34",
            True,
        ),
        (
            "qdrant",
            "euclid",
            {
                "same": 0,
                "diag": 0.894427191,
                "twice": 1,
                "ortho": 2**0.5,
                "opp": 2,
                "c34": 4.472135955,
            },
            "same",
            False,
        ),
        (
            "faiss",
            "l2",
            {"same": 0, "diag": 0.8, "twice": 1, "ortho": 2, "opp": 4, "c34": 20},
            "same",
            False,
        ),
        (
            "faiss",
            "ip",
            {"c34": 3, "twice": 2, "same": 1, "diag": 0.6, "ortho": 0, "opp": -1},
            "c34",
            True,
        ),
        (
            "pgvector",
            "l2",
            {"same": 0, "diag": 0.894427191, "twice": 1, "ortho": 2**0.5, "opp": 2, "c34": 20**0.5},
            "same",
            False,
        ),
        (
            "pgvector",
            "cosine",
            {"same": 0, "twice": 0, "c34": 0.4, "diag": 0.4, "ortho": 1, "opp": 2},
            "same",
            False,
        ),
        (
            "pgvector",
            "ip",
            {"c34": -3, "twice": -2, "same": -1, "diag": -0.6, "ortho": 0, "opp": 1},
            "c34",
            False,
        ),
        (
            "weaviate",
            "cosine",
            {"same": 0, "twice": 0, "c34": 0.4, "diag": 0.4, "ortho": 1, "opp": 2},
            "same",
            False,
        ),
        (
            "default",
            "cosine",
            {"same": 1, "twice": 1, "c34": 0.6, "diag": 0.6, "ortho": 0, "opp": -1},
            "same",
            True,
        ),
    ],
)
def test_q1_score_formulas_and_directions(
    profile: str, metric: str, expected: dict[str, float], first: str, higher: bool
) -> None:
    store = _q1_store(profile, metric)
    assert store.profile.higher_is_better is higher
    got = _scores(store)
    assert got == pytest.approx(expected, abs=1e-6)
    matches = store.query(Q, k=10)
    assert matches[0].text == first
    ordered = [m.score for m in matches]
    assert ordered == sorted(ordered, reverse=higher)


def test_default_metric_of_each_profile_is_its_engines_default() -> None:
    assert {name: p.metric for name, p in PROFILES.items()} == {
        "default": "cosine",
        "chroma": "l2",
        "qdrant": "cosine",
        "faiss": "l2",
        "weaviate": "cosine",
        "milvus": "cosine",
        "milvus_int64": "cosine",
        "pgvector": "cosine",
        "lancedb": "l2",
    }
    assert PROFILES["milvus"].metrics == ("cosine", "l2", "ip")
    assert PROFILES["chroma"].metrics == ("l2", "cosine", "ip")
    assert PROFILES["qdrant"].metrics == ("cosine", "dot", "euclid")
    assert PROFILES["faiss"].metrics == ("l2", "ip")


def test_chroma_float32_precision_is_visible() -> None:
    # chroma-score-float32: 1 - 0.6 comes back as 0.3999999761581421 (the cosine rounded to
    # float32, then 1 - x in float32, as the engine's kernel)
    got = _scores(_q1_store("chroma", "cosine"))
    assert got["c34"] == 0.3999999761581421
    # qdrant reports float64: (3, 4, 0) and (1, 0, 0) are integer directions, whose cosine
    # the store computes exactly (qdrant-client gives 0.6000000238418579 from the float32 row)
    assert _scores(_q1_store("qdrant"))["c34"] == 0.6


def _exact(values: list[float]) -> list[Fraction]:
    return [Fraction(x) for x in values]


def test_chroma_and_faiss_l2_report_the_exact_distance_rounded_to_float32() -> None:
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(40, 24)).tolist()
    query = rng.normal(size=24).tolist()
    q = _exact(np.asarray(query, F32).tolist())
    for profile in ("chroma", "faiss"):
        store = FakeVectorStore(profile=profile)
        store.upsert_many([(str(i), None, None, v) for i, v in enumerate(vectors)])
        for match in store.query(query, k=40):
            v = _exact(np.asarray(vectors[int(match.id)], F32).tolist())
            exact = sum(((a - b) ** 2 for a, b in zip(v, q, strict=True)), Fraction(0))
            assert match.score == float(F32(float(exact)))
            # and within a few float32 ulps of the engines' float32 recipe
            assert match.score == pytest.approx(_l2_recipe(query, vectors[int(match.id)]), 4e-7)


@pytest.mark.parametrize("size", [30, 5000])  # one block of rows; several, and a partial one
@pytest.mark.parametrize("metric", ["cosine", "dot", "euclid"])
def test_qdrant_reports_exact_quantities_close_to_the_local_mode_recipe(
    metric: str, size: int
) -> None:
    rng = np.random.default_rng(11)
    vectors = rng.normal(size=(size, 16))
    query = rng.normal(size=16)
    matrix = vectors.astype(F32)
    q = query.astype(np.float64)
    if metric == "cosine":
        matrix = np.stack([r / np.linalg.norm(r) for r in matrix])
        want = np.dot(matrix, q / np.linalg.norm(q))
    elif metric == "dot":
        want = np.dot(matrix, q)
    else:
        want = np.linalg.norm(matrix - q, axis=-1)
    store = FakeVectorStore(profile="qdrant", metric=metric)
    store.upsert_many([(str(i), None, None, v) for i, v in enumerate(vectors.tolist())])
    _, _, _, stored = store.snapshot()
    fq = _exact(q.tolist())
    for match in store.query(query.tolist(), k=size):
        row = int(match.id)
        assert match.score == pytest.approx(float(want[row]), rel=1e-6, abs=1e-6)
        if row % 97:
            continue  # the exact check is slow: a sample of rows
        v = _exact(stored[row].astype(np.float64).tolist())
        if metric == "euclid":
            exact = sum(((a - b) ** 2 for a, b in zip(v, fq, strict=True)), Fraction(0))
            assert match.score == math.sqrt(float(exact))
        else:
            dot = float(sum((a * b for a, b in zip(v, fq, strict=True)), Fraction(0)))
            if metric == "cosine":
                norm = math.sqrt(float(sum((b * b for b in fq), Fraction(0))))
                dot = dot / norm
            assert match.score == dot


def test_qdrant_cosine_normalises_on_upsert_chroma_does_not() -> None:
    qdrant = FakeVectorStore(profile="qdrant")
    qdrant.upsert("1", None, vector=[3.0, 4.0, 0.0])
    assert qdrant.get("1").vector == pytest.approx((0.6, 0.8, 0.0))  # type: ignore[union-attr]
    chroma = FakeVectorStore(profile="chroma", metric="cosine")
    chroma.upsert("1", None, vector=[3.0, 4.0, 0.0])
    assert chroma.get("1").vector == (3.0, 4.0, 0.0)  # type: ignore[union-attr]
    dot = FakeVectorStore(profile="qdrant", metric="dot")
    dot.upsert("1", None, vector=[3.0, 4.0, 0.0])
    assert dot.get("1").vector == (3.0, 4.0, 0.0)  # type: ignore[union-attr]


# ---------------------------------------------------------------- ties
# docs/engines: chroma-ties-*, qdrant-ties-*, faiss-ties-*


def _tied(profile: str, ids: list[str], metric: str | None = None) -> FakeVectorStore:
    store = FakeVectorStore(profile=profile, metric=metric)
    for record_id in ids:
        store.upsert(record_id, None, vector=[0.0, 0.0, 1.0])
    return store


@pytest.mark.parametrize("metric", ["l2", "cosine", "ip"])
def test_chroma_ties_follow_insertion_slot(metric: str) -> None:
    store = _tied("chroma", ["c", "a", "b", "d"], metric)
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=4)] == ["c", "a", "b", "d"]
    store.upsert("a", None, vector=[0.0, 0.0, 1.0])  # upsert keeps the slot
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=4)] == ["c", "a", "b", "d"]
    store.delete("c")
    store.upsert("c", None, vector=[0.0, 0.0, 1.0])  # delete + re-add moves to the end
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=4)] == ["a", "b", "d", "c"]
    assert store.ids() == ["a", "b", "d", "c"]
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=2)] == ["a", "b"]


@pytest.mark.parametrize("metric", ["cosine", "dot", "euclid"])
def test_qdrant_ties_follow_point_id_like_the_server(metric: str) -> None:
    u1, u2 = str(uuid.UUID(int=5)), str(uuid.UUID(int=2**100))
    store = _tied("qdrant", [u2, "3", "10", u1, "1", "2"], metric)
    expected = ["1", "2", "3", "10", u1, u2]  # unsigned ints by value, then UUIDs by value
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=6)] == expected
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=3)] == expected[:3]
    assert store.ids() == expected  # scroll order


def test_faiss_l2_ties_take_the_first_inserted_in_order() -> None:
    store = _tied("faiss", [f"t{i}" for i in range(10)])
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=5)] == ["t0", "t1", "t2", "t3", "t4"]


def test_faiss_ip_ties_take_the_first_inserted_in_descending_position() -> None:
    store = _tied("faiss", [f"t{i}" for i in range(10)], "ip")
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=5)] == ["t4", "t3", "t2", "t1", "t0"]
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=10)] == [f"t{i}" for i in range(9, -1, -1)]
    # lc-faiss-ties, faiss-ties-ip-pure: k=3 over t3,t1,t4,t0,t2 gives t4,t1,t3
    store = _tied("faiss", ["t3", "t1", "t4", "t0", "t2"], "ip")
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=3)] == ["t4", "t1", "t3"]


def test_faiss_ip_reverses_each_tie_group_separately() -> None:
    store = FakeVectorStore(profile="faiss", metric="ip")
    store.upsert_many(
        [
            ("a1", None, None, [1.0, 0.0]),
            ("b1", None, None, [0.5, 0.0]),
            ("a2", None, None, [1.0, 0.0]),
            ("b2", None, None, [0.5, 0.0]),
        ]
    )
    assert [m.id for m in store.query([1.0, 0.0], k=4)] == ["a2", "a1", "b2", "b1"]


def _ip_scores(scores: list[float]) -> FakeVectorStore:
    """A faiss/ip store whose record ``p<i>`` scores ``scores[i]`` against the query [1, 0]."""
    store = FakeVectorStore(profile="faiss", metric="ip")
    store.upsert_many([(f"p{i}", None, None, [s, 0.0]) for i, s in enumerate(scores)])
    return store


@pytest.mark.parametrize(
    ("scores", "k", "expected"),
    [
        # tests/fidelity/probes/faiss_ip_heap_ties.py: the heap is filled by p0-p2; the better
        # p3 evicts the earliest kept tie (p0), so p1 and p2 survive, not "the first inserted".
        ([1.0, 1.0, 1.0, 2.0], 3, ["p3", "p2", "p1"]),
        ([1.0, 1.0, 3.0, 1.0, 2.0, 1.0], 3, ["p2", "p4", "p1"]),
        ([1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0], 4, ["p6", "p5", "p3", "p2"]),
        # a better record that arrives first evicts nothing: the first ties stay
        ([2.0, 1.0, 1.0, 1.0], 2, ["p0", "p1"]),
        # worse records never protect or replace a tie
        ([1.0, 0.5, 1.0, 0.25, 1.0, 2.0], 3, ["p5", "p4", "p2"]),
    ],
)
def test_faiss_ip_heap_decides_which_ties_survive_the_cut(
    scores: list[float], k: int, expected: list[str]
) -> None:
    assert [m.id for m in _ip_scores(scores).query([1.0, 0.0], k=k)] == expected


def test_faiss_ip_heap_runs_over_the_candidates_only() -> None:
    store = FakeVectorStore(profile="faiss", metric="ip")
    scores = [1.0, 1.0, 1.0, 2.0, 3.0]
    store.upsert_many([(f"p{i}", None, {"in": i != 4}, [s, 0.0]) for i, s in enumerate(scores)])
    # p4 is filtered out before the heap, so only p3 evicts a tie (p0)
    assert [m.id for m in store.query([1.0, 0.0], k=3, where={"in": True})] == ["p3", "p2", "p1"]
    # without a cut nothing is evicted: score order, each tie group in descending position
    ranked = [t.id for t in store.trace([1.0, 0.0]) if t.rank is not None]
    assert ranked == ["p4", "p3", "p2", "p1", "p0"]


def test_faiss_l2_keeps_the_first_inserted_ties_with_mixed_scores() -> None:
    store = FakeVectorStore(profile="faiss")
    offsets = [1.0, 1.0, 1.0, 0.0]  # squared distances from the query [0, 1]
    store.upsert_many([(f"p{i}", None, None, [d, 1.0]) for i, d in enumerate(offsets)])
    assert [m.id for m in store.query([0.0, 1.0], k=3)] == ["p3", "p0", "p1"]


def test_default_ties_follow_insertion() -> None:
    store = _tied("default", ["z", "y", "x"])
    assert [m.id for m in store.query([0.0, 0.0, 1.0], k=2)] == ["z", "y"]


_unit_sets = st.lists(
    st.lists(st.floats(-1, 1, allow_nan=False), min_size=4, max_size=4), min_size=2, max_size=8
)


@settings(max_examples=60, deadline=None)
@given(raw=_unit_sets, qraw=st.lists(st.floats(-1, 1, allow_nan=False), min_size=4, max_size=4))
def test_rank_order_is_identical_across_profiles_for_unit_vectors(
    raw: list[list[float]], qraw: list[float]
) -> None:
    vectors = np.asarray(raw)
    query = np.asarray(qraw)
    norms = np.linalg.norm(vectors, axis=1)
    assume(np.all(norms > 0.1) and np.linalg.norm(query) > 0.1)
    units = vectors / norms[:, None]
    q = query / np.linalg.norm(query)
    cos = np.sort(units @ q)
    assume(np.all(np.diff(cos) > 1e-4))  # no near-ties: rounding must not decide the order
    orders = set()
    for name, profile in PROFILES.items():
        for metric in profile.metrics:
            store = FakeVectorStore(profile=name, metric=metric)
            store.upsert_many([(str(i), None, None, v) for i, v in enumerate(units.tolist())])
            orders.add(tuple(m.id for m in store.query(q.tolist(), k=len(units))))
    assert len(orders) == 1


# ---------------------------------------------------------------- writes


def test_chroma_upsert_merges_metadata_and_keeps_the_document() -> None:
    store = FakeVectorStore(profile="chroma")
    store.upsert("a", "doc", {"a": 1, "b": 2}, vector=[1.0, 0.0])
    store.upsert("a", None, {"c": 3}, vector=[0.0, 1.0])
    record = store.get("a")
    assert record is not None
    assert record.metadata == {"a": 1, "b": 2, "c": 3}
    assert record.text == "doc"
    assert record.vector == (0.0, 1.0)
    assert store.query([0.0, 1.0], k=1, where={"b": 2})[0].id == "a"
    assert store.query([0.0, 1.0], k=1, where={"c": 3})[0].id == "a"


def test_chroma_none_value_removes_the_key_and_is_never_stored() -> None:
    store = FakeVectorStore(profile="chroma")
    store.upsert("a", "doc", {"a": 1, "b": 2}, vector=[1.0, 0.0])
    store.upsert_many([("a", None, {"b": None, "c": 3}, [1.0, 0.0])])
    store.upsert_many([("n", None, {"y": None, "w": 1}, [0.0, 1.0])])
    assert [r.metadata for r in store.select()] == [{"a": 1, "c": 3}, {"w": 1}]
    assert store.query([1.0, 0.0], k=2, where={"b": 2}) == []
    assert [m.id for m in store.query([1.0, 0.0], k=2, where={"c": 3})] == ["a"]


def test_other_profiles_store_none_values() -> None:
    store = FakeVectorStore(profile="qdrant")
    store.upsert("1", "doc", {"a": None, "b": 2}, vector=[1.0, 0.0])
    record = store.get("1")
    assert record is not None
    assert record.metadata == {"a": None, "b": 2}


@pytest.mark.parametrize("profile", ["qdrant", "default", "faiss", "weaviate"])
def test_other_profiles_replace_on_upsert(profile: str) -> None:
    store = FakeVectorStore(profile=profile)
    store.upsert("1", "doc", {"a": 1, "b": 2}, vector=[1.0, 0.0])
    store.upsert("1", "new", {"c": 3}, vector=[1.0, 0.0])
    record = store.get("1")
    assert record is not None
    assert (record.text, record.metadata) == ("new", {"c": 3})
    assert store.query([1.0, 0.0], where={"b": 2}) == []


def test_duplicate_ids_in_a_batch_per_engine() -> None:
    batch = [("1", "first", None, [1.0]), ("1", "second", None, [2.0])]
    qdrant = FakeVectorStore(profile="qdrant")
    qdrant.upsert_many(batch)
    assert qdrant.get("1").text == "second"  # type: ignore[union-attr]
    assert qdrant.count() == 1
    with pytest.raises(ValueError, match=r"^Expected IDs to be unique, found duplicates of: 1 in"):
        FakeVectorStore(profile="chroma").upsert_many(batch)
    with pytest.raises(ValueError, match=r"^Duplicate ids found: 1$"):
        FakeVectorStore(profile="faiss").upsert_many(batch)


# ---------------------------------------------------------------- k and ids


@pytest.mark.parametrize(
    ("profile", "k", "error", "message"),
    [
        (
            "chroma",
            0,
            TypeError,
            "Number of requested results 0, cannot be negative, or zero. in query.",
        ),
        (
            "chroma",
            -1,
            TypeError,
            "Number of requested results -1, cannot be negative, or zero. in query.",
        ),
        (
            "chroma",
            1.5,
            ValueError,
            "Expected requested number of results to be a int, got 1.5 in query.",
        ),
        ("qdrant", 0, ValueError, "limit value 0 is invalid. Must be 1 or larger."),
        ("qdrant", -1, ValueError, "limit value -1 is invalid. Must be 1 or larger."),
        ("faiss", 0, FaissKError, "k must be a positive int (1 or larger), got 0"),
        ("qdrant", 1.5, ValueError, "limit: Input should be a valid integer, got 1.5"),
        ("weaviate", 0, ValueError, "k must be a positive int (1 or larger), got 0"),
    ],
)
def test_bad_k_per_engine(profile: str, k: Any, error: type, message: str) -> None:
    store = FakeVectorStore(profile=profile)
    store.upsert("1", None, vector=[1.0])
    with pytest.raises(error) as info:
        store.query([1.0], k=k)
    assert type(info.value) is error
    assert str(info.value) == message


@pytest.mark.parametrize("profile", list(PROFILES))
def test_k_above_the_collection_size_truncates_silently(profile: str) -> None:
    store = FakeVectorStore(profile=profile)
    store.upsert_many([(str(i), None, None, [1.0, float(i)]) for i in range(1, 4)])
    assert len(store.query([1.0, 0.0], k=10)) == 3


_UUID = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("0", "0"),
        ("1", "1"),
        ("01", "1"),  # a str of digits is the unsigned-int point id it spells
        ("00001", "1"),
        ("18446744073709551615", "18446744073709551615"),
        (_UUID, _UUID),
        (_UUID.upper(), _UUID),  # qdrant-ids-canonical: stored dashed and lower case
        (_UUID.replace("-", ""), _UUID),
        (str(uuid.UUID(int=7)), str(uuid.UUID(int=7))),
    ],
)
def test_qdrant_stores_a_point_id_as_the_engine_spells_it(given: str, stored: str) -> None:
    store = FakeVectorStore(profile="qdrant")
    store.upsert(given, None, vector=[1.0])
    assert store.ids() == [stored]
    assert store.get(given) == store.get(stored) != None  # noqa: E711 - a Record, not None
    assert [m.id for m in store.query([1.0], k=1, ids=[given])] == [stored]
    assert store.delete(given) == 1
    assert store.count() == 0


def test_qdrant_spellings_of_one_point_are_one_record() -> None:
    store = FakeVectorStore(profile="qdrant")
    store.upsert_many(
        [("1", "a", None, [1.0]), ("01", "b", None, [1.0]), ("00001", "c", None, [1.0])]
    )
    assert store.ids() == ["1"]
    record = store.get("1")
    assert record is not None
    assert record.text == "c"  # one batch: the last spelling wins, as for any repeated id


@pytest.mark.parametrize("bad", ["c", "-1", "18446744073709551616", "1.5", "id_c", " 1"])
def test_qdrant_rejects_other_ids_with_its_message(bad: str) -> None:
    store = FakeVectorStore(profile="qdrant")
    with pytest.raises(ValueError, match=r"^Point id .* is not a valid UUID$") as info:
        store.upsert_many([("1", None, None, [1.0]), (bad, None, None, [1.0])])
    assert str(info.value) == f"Point id {bad} is not a valid UUID"
    assert store.count() == 0


def test_other_profiles_accept_any_non_empty_id() -> None:
    for profile in ("default", "chroma", "faiss", "weaviate"):
        store = FakeVectorStore(profile=profile)
        store.upsert("id_c", None, vector=[1.0])
        store.upsert(" ünï code ", None, vector=[1.0])
        assert store.count() == 2


# ---------------------------------------------------------------- data hygiene


def test_every_profile_and_metric_cites_evidence() -> None:
    for profile in PROFILES.values():
        assert profile.evidence, profile.name
        assert all(rule and source for rule, source in profile.evidence)
        for variant in profile.variants:
            assert variant.evidence, (profile.name, variant.name)
            assert variant.description, (profile.name, variant.name)


def test_with_metric_and_custom_profiles() -> None:
    chroma = PROFILES["chroma"]
    cosine = chroma.with_metric("cosine")
    assert (cosine.name, cosine.metric, cosine.higher_is_better) == ("chroma", "cosine", False)
    assert PROFILES["faiss"].with_metric("ip").higher_is_better is True
    assert PROFILES["faiss"].with_metric("ip").tie_rule.name == "faiss_heap"
    assert (
        PROFILES["faiss"].tie_rule.name == "insertion"
    )  # IndexFlatL2: k smallest by (d, position)
    with pytest.raises(ValueError, match="profile 'faiss' has no metric 'cosine'"):
        PROFILES["faiss"].with_metric("cosine")
    store = FakeVectorStore(profile=cosine)
    assert store.profile is cosine
    assert isinstance(store.profile, Profile)
    with pytest.raises(TypeError):
        PROFILES["x"] = cosine  # type: ignore[index]


def test_profiles_are_frozen() -> None:
    with pytest.raises(AttributeError):
        PROFILES["chroma"].metric = "ip"  # type: ignore[misc]


def test_faiss_errors_are_assertion_errors_with_messages() -> None:
    store = FakeVectorStore(profile="faiss")
    store.upsert("a", None, vector=[1.0, 0.0])
    with pytest.raises(AssertionError, match="k must be a positive int"):
        store.query([1.0, 0.0], k=0)
    with pytest.raises(AssertionError, match="dimension 2, got 3") as info:
        store.query([1.0, 0.0, 0.0])
    assert isinstance(info.value, FaissDimensionError)
    assert isinstance(info.value, ValueError)
    with pytest.raises(FaissDimensionError):
        store.upsert("b", None, vector=[1.0])


def test_nested_metadata_per_profile() -> None:
    nested = {"doc": {"title": "t", "authors": [{"name": "a"}]}, "tags": ["x"]}
    for profile in ("default", "qdrant", "faiss", "weaviate"):
        store = FakeVectorStore(profile=profile)
        store.upsert("1", None, nested, vector=[1.0])
        record = store.get("1")
        assert record is not None
        assert record.metadata == nested
        record.metadata["doc"]["authors"][0]["name"] = "changed"
        assert store.get("1").metadata == nested  # type: ignore[union-attr]
    with pytest.raises(ValueError, match=r"Expected metadata value to be a str, int, float"):
        FakeVectorStore(profile="chroma").upsert("1", None, nested, vector=[1.0])


# ---------------------------------------------------------------- zero vectors (probed)

ZERO_SCORES = [
    # (profile, metric, score of the stored zero vector for query (0.6, 0.8, 0), for a zero query)
    ("chroma", "l2", 1.0, 0.0),
    ("chroma", "cosine", 1.0, 1.0),
    ("chroma", "ip", 1.0, 1.0),
    ("qdrant", "cosine", 0.0, 0.0),
    ("qdrant", "dot", 0.0, 0.0),
    ("qdrant", "euclid", 1.0, 0.0),
    ("faiss", "l2", 1.0, 0.0),
    ("faiss", "ip", 0.0, 0.0),
]


@pytest.mark.parametrize(("profile", "metric", "for_query", "for_zero"), ZERO_SCORES)
def test_engines_that_accept_zero_vectors_score_them_as_measured(
    profile: str, metric: str, for_query: float, for_zero: float
) -> None:
    store = FakeVectorStore(profile=profile, metric=metric)
    store.upsert_many([("1", None, None, [1.0, 0.0, 0.0]), ("2", None, None, [0.0, 0.0, 0.0])])
    zero = next(m for m in store.query([0.6, 0.8, 0.0], k=2) if m.id == "2")
    assert zero.score == pytest.approx(for_query, abs=1e-6)
    assert zero.similarity == 0.0  # the cosine of a zero vector is taken as 0
    by_zero = store.query([0.0, 0.0, 0.0], k=2)
    assert {m.id: m.score for m in by_zero}["2"] == pytest.approx(for_zero, abs=1e-6)
    assert all(m.similarity == 0.0 for m in by_zero)
    assert store.get("2").vector == (0.0, 0.0, 0.0)  # type: ignore[union-attr]
    picks = store.max_marginal_relevance([0.6, 0.8, 0.0], k=2, fetch_k=2)
    assert {m.id for m in picks} == {"1", "2"}
    assert {t.id: t.status for t in store.trace([0.0, 0.0, 0.0])} == {"1": "ranked", "2": "ranked"}


@pytest.mark.parametrize("profile", ["default", "weaviate"])
def test_profiles_without_measured_zero_vectors_reject_them(profile: str) -> None:
    store = FakeVectorStore(profile=profile)
    with pytest.raises(
        ValueError,
        match=r"zero vector.*\(chroma, qdrant, faiss, milvus, milvus_int64, pgvector, lancedb\)",
    ):
        store.upsert("2", None, vector=[0.0, 0.0, 0.0])
    store.upsert("1", None, vector=[1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="query vector is the zero vector"):
        store.query([0.0, 0.0, 0.0])
    assert store.ids() == ["1"]


def test_a_profile_cannot_disagree_with_its_metric() -> None:
    import dataclasses

    profile = PROFILES["default"]
    assert profile.higher_is_better is profile.variant.higher_is_better
    with pytest.raises(TypeError, match="higher_is_better"):
        dataclasses.replace(profile, higher_is_better=False)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="profile 'default' has no metric 'l2'; allowed: 'cosine'"):
        dataclasses.replace(profile, metric="l2")
    with pytest.raises(ValueError, match=r"Profile\.upsert_metadata must be one of"):
        dataclasses.replace(profile, upsert_metadata="append")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one metric"):
        dataclasses.replace(profile, variants=())
    with pytest.raises(TypeError, match=r"Profile\.dimension_error must be a DimensionError"):
        dataclasses.replace(profile, dimension_error=ValueError)  # type: ignore[arg-type]


def test_a_filter_dialect_checks_its_choices() -> None:
    import dataclasses

    dialect = PROFILES["default"].filters
    with pytest.raises(ValueError, match=r"FilterDialect\.list_values must be one of"):
        dataclasses.replace(dialect, list_values="every")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"FilterDialect\.field_ops must be a frozenset of"):
        dataclasses.replace(dialect, field_ops=frozenset({"$like"}))
    with pytest.raises(TypeError, match=r"FilterDialect\.validate must be callable"):
        dataclasses.replace(dialect, validate="strict")  # type: ignore[arg-type]


def test_the_registry_lists_each_engine_module_once() -> None:
    from placeborag_core.backends import ENGINES

    names = [
        p.name
        for engine in ENGINES
        for p in (engine.PROFILE, *getattr(engine, "MORE_PROFILES", ()))
    ]
    assert names == list(PROFILES)
