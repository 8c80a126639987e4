"""TokenUnits: a token list's exact doubled bucket sums from kept per-token units."""

from __future__ import annotations

from placeborag_core import FakeEmbedder
from placeborag_core.embedding._speed.token_table import TokenTable
from placeborag_core.embedding._speed.token_units import TokenUnits


def _table(features: dict[str, list[tuple[int, float]]]) -> TokenTable:
    """A table whose tokens have the given (bucket, signed weight) features."""

    def hasher(tokens: list[str]) -> tuple[list[int], list[float], list[int]]:
        found = [feature for token in tokens for feature in features[token]]
        return [b for b, _ in found], [w for _, w in found], [len(features[t]) for t in tokens]

    return TokenTable(hasher, reserved="\x00")


def test_doubled_sums_add_every_feature_of_every_occurrence() -> None:
    units = TokenUnits(_table({"a": [(0, 1.0), (2, 0.5)], "b": [(2, -0.5), (1, -1.0)]}), 3)
    assert units.doubled_sums(["a"]).tolist() == [2, 0, 1]
    assert units.doubled_sums(["a", "b", "a"]).tolist() == [4, -2, 1]  # +1 +1 -1 at bucket 2
    assert units.doubled_sums(["b", "b"]).tolist() == [0, -4, -2]
    assert units.kept == 2


def test_the_embedder_single_route_uses_them_exactly() -> None:
    embedder = FakeEmbedder(dimensions=16)
    doubled = embedder._units.doubled_sums(["refund", "policy", "refund"])
    assert (doubled * 0.5 == embedder._sums.of(["refund policy refund"])[0]).all()
