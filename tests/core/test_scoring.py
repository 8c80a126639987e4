"""Score formulas: computing in blocks must not change a bit."""

from __future__ import annotations

import numpy as np

from placeborag_core.backends.formulas import SQUARED_L2_F32
from placeborag_core.store.scoring import row_norms


def test_blocked_squared_l2_is_bit_identical_to_the_whole_matrix_recipe() -> None:
    rng = np.random.default_rng(7)
    matrix = rng.standard_normal((5000, 24)).astype(np.float32)  # several blocks and a tail
    query = rng.standard_normal(24)
    expected = np.sum((matrix - query.astype(np.float32)) ** 2, axis=1, dtype=np.float32)
    got = SQUARED_L2_F32.score(matrix, row_norms(matrix), query)
    assert got.dtype == np.float32
    assert got.view(np.uint32).tolist() == expected.view(np.uint32).tolist()
    empty = np.zeros((0, 24), dtype=np.float32)
    assert SQUARED_L2_F32.score(empty, row_norms(empty), query).shape == (0,)
