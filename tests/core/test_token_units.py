"""TokenUnits: a token list's exact doubled bucket sums from kept per-token units."""

from __future__ import annotations

import numpy as np
import pytest

from placeborag_core import FakeEmbedder
from placeborag_core.token_table import TokenTable
from placeborag_core.token_units import TokenUnits

WEIGHTS = np.array([-0.5, 0.5, -1.0, 1.0])


def _table(features: dict[str, list[tuple[int, int]]]) -> TokenTable:
    """A table whose tokens have the given (bucket, weight index) features."""

    def hasher(tokens: list[str]) -> tuple[list[int], list[int]]:
        codes = [bucket * 4 + index for token in tokens for bucket, index in features[token]]
        return codes, [len(features[token]) for token in tokens]

    return TokenTable(hasher, reserved="\x00")


def test_doubled_sums_add_every_feature_of_every_occurrence() -> None:
    units = TokenUnits(_table({"a": [(0, 3), (2, 1)], "b": [(2, 0), (1, 2)]}), 3, WEIGHTS)
    assert units.doubled_sums(["a"]).tolist() == [2, 0, 1]
    assert units.doubled_sums(["a", "b", "a"]).tolist() == [4, -2, 1]  # +1 +1 -1 at bucket 2
    assert units.doubled_sums(["b", "b"]).tolist() == [0, -4, -2]
    assert units.kept == 2


def test_the_embedder_single_route_uses_them_exactly() -> None:
    embedder = FakeEmbedder(dimensions=16)
    doubled = embedder._units.doubled_sums(["refund", "policy", "refund"])
    assert (doubled * 0.5 == embedder._bucket_sums(["refund policy refund"])[0]).all()


def test_weights_that_are_not_halves_or_ones_are_refused() -> None:
    with pytest.raises(ValueError, match="code weights must be"):
        TokenUnits(_table({}), 3, np.array([-0.25, 0.25, -1.0, 1.0]))
