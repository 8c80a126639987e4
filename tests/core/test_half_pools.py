"""HalfPools: shared floats for unit vectors of halves, bit-identical to array division."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import placeborag_core.embedding._speed.half_pools as half_pools
from placeborag_core.embedding._speed.half_pools import HalfPools


def _division(doubled: np.ndarray) -> list[float]:
    halves = doubled * 0.5
    result: list[float] = (halves / math.sqrt(float(halves @ halves))).tolist()
    return result


def _bits(vector: list[float]) -> bytes:
    return np.array(vector, dtype=np.float64).tobytes()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-40, 40), min_size=1, max_size=64))
def test_unit_lists_are_bit_identical_to_dividing_the_array(entries: list[int]) -> None:
    doubled = np.array(entries, dtype=np.intp)
    pools = HalfPools(max_length=len(entries))
    unit = pools.unit_list(doubled)
    if not any(entries):
        assert unit is None  # the caller decides what a zero vector becomes
        return
    assert unit is not None
    assert _bits(unit) == _bits(_division(doubled))  # pooled or, if too long, divided


def test_vectors_of_equal_squared_norm_share_one_float_per_value() -> None:
    pools = HalfPools(max_length=16)
    a = pools.unit_list(np.array([2, -1, 0, 0, 2, 0, 0, 0], dtype=np.intp))
    b = pools.unit_list(np.array([0, 0, 1, 2, 0, -2, 0, 0], dtype=np.intp))
    assert a is not None
    assert b is not None
    assert a[0] is b[3]
    assert a[1] is not b[2]
    assert len({id(x) for x in a + b}) == len(set(a + b))  # 0.0, 2/3, -1/3, 1/3, -2/3
    a[0] = 5.0
    assert b[3] == 2 / 3  # rows are fresh lists: changing one leaves the pool alone


def test_pools_longer_than_allowed_are_not_made() -> None:
    pools = HalfPools(max_length=8)
    doubled = np.array([9, 0, 0, 0], dtype=np.intp)  # reach 9: 19 quotients for 4 entries
    assert pools.pool(81) is None
    assert pools.unit_list(doubled) == [1.0, 0.0, 0.0, 0.0]


def test_pools_start_afresh_past_their_memory_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(half_pools, "_KEPT_ENTRIES", 20)
    pools = HalfPools(max_length=64)
    first = pools.pool(4)  # 5 quotients
    assert first is not None
    assert pools.pool(4) is first
    assert pools.pool(36) is not None  # 13 more: 18 kept
    assert pools.pool(4) is first
    assert pools.pool(16) is not None  # 9 more would pass 20: the old pools are dropped
    again = pools.pool(4)
    assert again is not first
    assert again is not None
    assert again.tolist() == first.tolist()


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda width: st.lists(
            st.lists(st.integers(-9, 9), min_size=width, max_size=width), min_size=1, max_size=8
        )
    ),
    st.integers(1, 24),
)
def test_rows_of_a_matrix_equal_their_single_unit_lists(
    matrix: list[list[int]], max_length: int
) -> None:
    doubled = np.array(matrix, dtype=np.intp)
    rows = HalfPools(max_length).unit_lists(doubled)  # pooled, or divided when too wide
    singles = [HalfPools(max_length).unit_list(row) for row in doubled]
    assert [None if r is None else _bits(r) for r in rows] == [
        None if r is None else _bits(r) for r in singles
    ]


def test_rows_of_equal_squared_norm_share_their_floats() -> None:
    rows = HalfPools(max_length=16).unit_lists(
        np.array([[2, -1, 0, 2], [0, 2, 2, -1], [0, 0, 0, 0]], dtype=np.intp)
    )
    assert rows[0] is not None
    assert rows[1] is not None
    assert rows[0][0] is rows[1][1]
    assert rows[0][1] is rows[1][3]
    assert rows[2] is None
