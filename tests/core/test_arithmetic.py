"""placeborag_core.arithmetic: every result equals the exact value, rounded once, checked against
Python's ``fractions.Fraction``."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import FakeEmbedder, arithmetic
from placeborag_core.arithmetic import (
    Operand,
    cosine,
    cosine_table,
    dot,
    dot64,
    lattice_cosines,
    lattice_directions,
    norm32,
    squared_distances,
    squared_norms,
)
from placeborag_core.arithmetic.float32_norm import _exact_norm32

F32 = np.float32

# float32 values of every magnitude, subnormals and zeros included
floats32 = st.floats(width=32, allow_nan=False, allow_infinity=False)
floats64 = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e30, max_value=1e30)
nice64 = st.one_of(floats64, st.floats(min_value=-1e-40, max_value=1e-40))


def _rows(draw: st.DrawFn, width: int, count: int) -> np.ndarray:
    return np.array(
        [[draw(floats32) for _ in range(width)] for _ in range(count)], dtype=np.float64
    )


def _fr(values: list[float]) -> list[Fraction]:
    return [Fraction(x) for x in values]


def _exact_dot(a: list[float], b: list[float]) -> Fraction:
    return sum((x * y for x, y in zip(_fr(a), _fr(b), strict=True)), Fraction(0))


@st.composite
def rows_and_query(draw: st.DrawFn, f64_query: bool) -> tuple[np.ndarray, np.ndarray]:
    width = draw(st.integers(1, 12))
    rows = _rows(draw, width, draw(st.integers(1, 4)))
    element = nice64 if f64_query else floats32
    query = np.array([draw(element) for _ in range(width)], dtype=np.float64)
    if not f64_query:
        query = query.astype(F32).astype(np.float64)
    return rows, query


@settings(max_examples=150)
@given(st.booleans().flatmap(rows_and_query))
def test_dot_norms_and_distances_are_the_exact_values_rounded_once(
    case: tuple[np.ndarray, np.ndarray],
) -> None:
    rows, query = case
    operand = Operand(query)
    dots, norms, dists = dot(rows, operand), squared_norms(rows), squared_distances(rows, operand)
    q = query.tolist()
    for i, row in enumerate(rows.tolist()):
        assert dots[i] == float(_exact_dot(row, q))
        assert norms[i] == float(_exact_dot(row, row))
        exact = sum(((a - b) ** 2 for a, b in zip(_fr(row), _fr(q), strict=True)), Fraction(0))
        assert dists[i] == float(exact)


@settings(max_examples=100)
@given(
    st.integers(1, 40).flatmap(
        lambda m: st.lists(
            st.lists(
                st.builds(  # products of float32 (and split float64) values: 2**-330 to 2**260
                    math.ldexp,
                    st.one_of(st.just(0.0), st.floats(0.5, 1), st.floats(-1, -0.5)),
                    st.integers(-300, 250),
                ),
                min_size=m,
                max_size=m,
            ),
            min_size=1,
            max_size=4,
        )
    )
)
def test_row_parts_sum_exactly_to_the_rows(rows: list[list[float]]) -> None:
    parts = arithmetic.row_parts(np.array(rows))
    for row, found in zip(rows, parts.tolist(), strict=True):
        assert sum(map(Fraction, found), Fraction(0)) == sum(map(Fraction, row), Fraction(0))
        assert len(found) <= 20


def test_rounding_ties_and_cancellation() -> None:
    big = 2.0**60
    # 2**60 + 1 - 2**60 is exactly 1 (cancellation); 2**53 + 1 is a tie, rounded to even
    rows = np.array([[big, 1.0, -big], [2.0**53, 1.0, 0.0], [2.0**53, 1.0, 2.0**-40]])
    got = dot(rows, Operand(np.ones(3)))
    assert got.tolist() == [1.0, 2.0**53, 2.0**53 + 2.0]


def test_a_float64_query_is_split_exactly_and_tiny_components_fall_back_to_fractions() -> None:
    rng = np.random.default_rng(3)
    rows = rng.standard_normal((5, 8)).astype(F32).astype(np.float64)
    for query in (rng.standard_normal(8), np.array([1e-300, 1.0, 0, 0, 0, 0, 0, 3.0])):
        operand = Operand(query)
        assert operand.exotic == (np.abs(query[query != 0]).min() < 2.0**-126)
        for i, row in enumerate(rows.tolist()):
            assert dot(rows, operand)[i] == float(_exact_dot(row, query.tolist()))
            exact = sum(
                ((a - b) ** 2 for a, b in zip(_fr(row), _fr(query.tolist()), strict=True)),
                Fraction(0),
            )
            assert squared_distances(rows, operand)[i] == float(exact)


@settings(max_examples=100)
@given(st.lists(floats64, min_size=1, max_size=10).flatmap(
    lambda a: st.tuples(st.just(a), st.lists(nice64, min_size=len(a), max_size=len(a)))
))  # fmt: skip
def test_dot64_is_the_exact_dot_rounded_once(pair: tuple[list[float], list[float]]) -> None:
    a, b = pair
    assert dot64(a, b) == float(_exact_dot(a, b))


def _rn32_sqrt(value: Fraction) -> float:
    """RN32(sqrt(value)) from exact comparisons (ties to even)."""
    guess = F32(math.sqrt(float(value)))
    for candidate in (np.nextafter(guess, F32(0)), guess, np.nextafter(guess, F32(np.inf))):
        low = (Fraction(float(np.nextafter(candidate, F32(0)))) + Fraction(float(candidate))) / 2
        high = (
            Fraction(float(candidate)) + Fraction(float(np.nextafter(candidate, F32(np.inf))))
        ) / 2
        even = not (np.array(candidate).view(np.uint32) & 1)
        if (low**2 < value or (low**2 == value and even)) and (
            value < high**2 or (value == high**2 and even)
        ):
            return float(candidate)
    raise AssertionError("no float32 candidate")


moderate32 = st.floats(width=32, min_value=-(2.0**60), max_value=2.0**60)


@settings(max_examples=100)
@given(st.integers(1, 20).flatmap(lambda n: st.lists(moderate32, min_size=n, max_size=n)))
def test_norm32_is_the_correctly_rounded_float32_norm(values: list[float]) -> None:
    row = np.array([values], dtype=F32)
    exact = sum((x * x for x in _fr(row[0].astype(np.float64).tolist())), Fraction(0))
    got = float(norm32(row)[0])
    assert got == (_rn32_sqrt(exact) if exact else 0.0)


def test_norm32_beyond_float32_is_infinite() -> None:
    big = np.finfo(F32).max
    assert norm32(np.array([[big, big], [big, 0]], dtype=F32)).tolist() == [np.inf, big]


def test_norm32_settles_rows_near_a_rounding_boundary_exactly() -> None:
    # force the exact path: a guess one float32 step off, and an exact midpoint (ties to even)
    y = F32(1.5)
    up = np.nextafter(y, F32(np.inf))
    mid = (float(y) + float(up)) / 2
    settled = _exact_norm32([mid], up)
    assert settled == (y if not np.array(y).view(np.uint32) & 1 else up)
    assert _exact_norm32([3.0, 4.0], F32(5.000001)) == F32(5.0)


def test_norm32_of_many_rows_matches_the_exact_path() -> None:
    rng = np.random.default_rng(5)
    rows = (rng.standard_normal((3000, 384)) * rng.uniform(0.01, 100, (3000, 1))).astype(F32)
    fast = norm32(rows)
    for i in range(0, 3000, 50):
        slow = _exact_norm32(rows[i].astype(np.float64).tolist(), fast[i])
        assert fast[i] == slow


# ---------------------------------------------------------------------------- lattice vectors

TEXTS = ["refund policy", "shipping times", "a", "", "!!!", "the refund window is 30 days " * 20]


def test_embeddings_are_recognised_in_every_form_a_store_keeps() -> None:
    embedder = FakeEmbedder()
    f64 = embedder.embed_many(TEXTS)
    doubled = (embedder._sums.of(TEXTS) * 2).astype(np.int64)
    f32 = f64.astype(F32)
    lengths = norm32(f32)
    renormalised = f32 / lengths[:, None]  # the qdrant cosine profile's stored rows
    for form in (f64, f32.astype(np.float64), renormalised.astype(np.float64)):
        k, found = lattice_directions(form)
        assert found.all()
        for i, text in enumerate(TEXTS):
            if doubled[i].any():  # texts without tokens get the fallback vector (k = +-1)
                ratio = k[i][doubled[i] != 0] / doubled[i][doubled[i] != 0]
                assert np.all(ratio == ratio[0])
            else:
                assert set(np.abs(k[i]).tolist()) == {1}, text


def test_other_vectors_are_not_lattice_vectors() -> None:
    rng = np.random.default_rng(1)
    random = rng.standard_normal((50, 384))
    random /= np.linalg.norm(random, axis=1, keepdims=True)
    clustered = FakeEmbedder(clusters={"refund": ["refund policy"], "ship": ["shipping"]})
    members = clustered.embed_many(["refund policy", "shipping"])
    nudged = FakeEmbedder().embed_many(TEXTS[:2])
    nudged[:, 0] = np.nextafter(nudged[:, 0], 2.0)
    for rows in (random, members, nudged, 2 * FakeEmbedder().embed_many(TEXTS[:2])):
        assert not lattice_directions(rows)[1].any()


@settings(max_examples=100)
@given(
    st.lists(st.integers(-300, 300), min_size=3, max_size=3),
    st.lists(st.integers(-300, 300), min_size=3, max_size=3),
)
def test_lattice_cosines_round_the_exact_squared_cosine_once(a: list[int], b: list[int]) -> None:
    if not any(a) or not any(b):
        return
    ka, kb = np.array([a], dtype=np.float64), np.array(b, dtype=np.float64)
    got = lattice_cosines(ka, np.array([float(ka[0] @ ka[0])]), kb, float(kb @ kb))[0]
    d = sum(x * y for x, y in zip(a, b, strict=True))
    squared = float(Fraction(d * d, sum(x * x for x in a) * sum(y * y for y in b)))
    assert got == math.copysign(math.sqrt(squared), d) if d else got == 0.0


def exact_squared_cosine(a: np.ndarray, b: np.ndarray) -> tuple[int, Fraction]:
    """(sign, cos**2) of two integer vectors, exactly."""
    d = int(a @ b)
    return (d > 0) - (d < 0), Fraction(d * d, int(a @ a) * int(b @ b))


WORDS = [w + "s" for w in ("lemon", "melon", "peach", "grape", "olive", "mango", "guava", "apple")]


def test_texts_with_equal_exact_cosines_get_equal_cosines() -> None:
    embedder = FakeEmbedder()
    texts = [f"{a} {b}" for a in WORDS for b in WORDS if a < b] + WORDS
    doubled = (embedder._sums.of(texts) * 2).astype(np.int64)
    vectors = embedder.embed_many(texts)
    groups: dict[tuple[int, Fraction], set[float]] = {}
    query = doubled[texts.index("lemons")]
    for i in range(len(texts)):
        key = exact_squared_cosine(doubled[i], query)
        groups.setdefault(key, set()).add(cosine(vectors[i], vectors[texts.index("lemons")]))
    assert all(len(values) == 1 for values in groups.values())
    assert len(groups) < len(texts) - 5  # many different texts share an exact cosine


def test_cosine_and_its_table_agree_and_are_symmetric() -> None:
    rng = np.random.default_rng(2)
    vectors = np.vstack(
        [FakeEmbedder().embed_many(TEXTS[:3]), rng.standard_normal((3, 384)), np.eye(384)[:2]]
    )
    table = cosine_table(vectors)
    for i in range(len(vectors)):
        assert table[i, i] == 1.0
        for j in range(len(vectors)):
            assert table[i, j] == table[j, i] == cosine(vectors[i], vectors[j])
