"""The comparison machinery itself: what counts as agreement, and what does not."""

from __future__ import annotations

import pytest

from ._compare import TiePolicy, builtin_base, compare_errors, compare_rankings
from ._divergences import CHROMA_TIE_SUBSET, FLOAT_ROUNDING, KNOWN, QDRANT_TIE_ORDER
from ._runners import POLICIES, hits

pytestmark = pytest.mark.fidelity

STRICT = TiePolicy(subset=None, order=None)
CANDIDATES = {"a": 0.0, "b": 1.0, "c": 1.0, "d": 1.0, "e": 2.0}


def test_identical_rankings_agree_without_divergence() -> None:
    ranking = hits([("a", 0.0), ("b", 1.0)])
    verdict = compare_rankings(ranking, ranking, k=2, candidates=CANDIDATES, tol=1e-6,
                               policy=STRICT)  # fmt: skip
    assert verdict.agree
    assert verdict.divergences == ()


def test_a_different_count_disagrees() -> None:
    verdict = compare_rankings(hits([("a", 0.0)]), hits([("a", 0.0), ("b", 1.0)]), k=2,
                               candidates=CANDIDATES, tol=1e-6, policy=STRICT)  # fmt: skip
    assert not verdict.agree
    assert "count" in verdict.detail


def test_a_score_outside_tolerance_disagrees() -> None:
    verdict = compare_rankings(hits([("a", 0.001)]), hits([("a", 0.0)]), k=1,
                               candidates=CANDIDATES, tol=1e-6, policy=STRICT)  # fmt: skip
    assert not verdict.agree
    assert "score of a" in verdict.detail


def test_a_score_within_tolerance_agrees() -> None:
    verdict = compare_rankings(hits([("a", 1e-7)]), hits([("a", 0.0)]), k=1,
                               candidates=CANDIDATES, tol=1e-6, policy=STRICT)  # fmt: skip
    assert verdict.agree


def test_swapped_distinct_scores_disagree() -> None:
    candidates = {"a": 0.0, "e": 2.0}
    verdict = compare_rankings(hits([("e", 2.0), ("a", 0.0)]), hits([("a", 0.0), ("e", 2.0)]),
                               k=2, candidates=candidates, tol=1e-6, policy=STRICT)  # fmt: skip
    assert not verdict.agree


@pytest.mark.parametrize(
    ("policy", "expected"),
    [(POLICIES["chroma"], None), (POLICIES["qdrant"], QDRANT_TIE_ORDER), (STRICT, None)],
)
def test_permuted_exact_tie_group_is_a_divergence_only_where_declared(
    policy: TiePolicy, expected: str | None
) -> None:
    ours = hits([("a", 0.0), ("b", 1.0), ("c", 1.0), ("d", 1.0)])
    theirs = hits([("a", 0.0), ("d", 1.0), ("c", 1.0), ("b", 1.0)])
    verdict = compare_rankings(ours, theirs, k=4, candidates=CANDIDATES, tol=1e-6, policy=policy)
    assert verdict.agree is (expected is not None)
    if expected:
        assert verdict.divergences == (expected,)


@pytest.mark.parametrize(
    ("policy", "expected"),
    [(POLICIES["chroma"], CHROMA_TIE_SUBSET), (POLICIES["qdrant"], QDRANT_TIE_ORDER),
     (STRICT, None)],
)  # fmt: skip
def test_other_tied_records_at_the_cut(policy: TiePolicy, expected: str | None) -> None:
    ours = hits([("a", 0.0), ("b", 1.0)])
    theirs = hits([("a", 0.0), ("d", 1.0)])
    verdict = compare_rankings(ours, theirs, k=2, candidates=CANDIDATES, tol=1e-6, policy=policy)
    assert verdict.agree is (expected is not None)
    if expected:
        assert verdict.divergences == (expected,)


def test_a_non_tied_record_at_the_cut_disagrees_under_any_policy() -> None:
    ours = hits([("a", 0.0), ("e", 1.0)])
    theirs = hits([("a", 0.0), ("d", 1.0)])
    candidates = {**CANDIDATES, "e": 2.0}
    verdict = compare_rankings(ours, theirs, k=2, candidates=candidates, tol=1e-6,
                               policy=POLICIES["qdrant"])  # fmt: skip
    assert not verdict.agree


def test_a_different_subset_of_a_complete_group_disagrees() -> None:
    # k is larger than the results: nothing was cut, so every tied record must be there.
    ours = hits([("a", 0.0), ("b", 1.0)])
    theirs = hits([("a", 0.0), ("d", 1.0)])
    verdict = compare_rankings(ours, theirs, k=5, candidates=CANDIDATES, tol=1e-6,
                               policy=POLICIES["chroma"])  # fmt: skip
    assert not verdict.agree


def test_near_ties_permuted_are_float_rounding_even_for_a_strict_engine() -> None:
    ours = hits([("b", 1.0), ("c", 1.0 + 1e-8)])
    theirs = hits([("c", 1.0), ("b", 1.0 + 1e-8)])
    verdict = compare_rankings(ours, theirs, k=2, candidates={"b": 1.0, "c": 1.0}, tol=1e-6,
                               policy=STRICT)  # fmt: skip
    assert verdict.agree
    assert verdict.divergences == (FLOAT_ROUNDING,)


def test_near_ties_cut_differently_are_float_rounding_even_for_a_strict_engine() -> None:
    candidates = {"a": 0.9, "b": -7e-9, "c": -4e-9}
    ours = hits([("a", 0.9), ("b", -7e-9)])
    theirs = hits([("a", 0.9), ("c", -4e-9)])
    verdict = compare_rankings(ours, theirs, k=2, candidates=candidates, tol=1e-6,
                               policy=STRICT)  # fmt: skip
    assert verdict.agree
    assert verdict.divergences == (FLOAT_ROUNDING,)


def test_a_cut_decided_by_our_rounding_is_float_rounding_even_for_a_strict_engine() -> None:
    # The engine ties b and c exactly; we computed c a few ulps higher, so we keep c.
    candidates = {"a": 0.9, "b": 0.0145049244, "c": 0.0145049244}
    ours = hits([("a", 0.9), ("c", 0.0145049319)])
    theirs = hits([("a", 0.9), ("b", 0.0145049244)])
    mine = {"a": 0.9, "b": 0.0145049244, "c": 0.0145049319}
    verdict = compare_rankings(ours, theirs, k=2, candidates=candidates, tol=1e-6,
                               policy=STRICT, our_candidates=mine)  # fmt: skip
    assert verdict.agree
    assert verdict.divergences == (FLOAT_ROUNDING,)


def test_a_cut_where_both_sides_see_an_exact_tie_is_judged_by_the_tie_rule() -> None:
    candidates = {"a": 0.9, "b": 0.25, "c": 0.25}
    ours = hits([("a", 0.9), ("c", 0.25)])
    theirs = hits([("a", 0.9), ("b", 0.25)])
    verdict = compare_rankings(ours, theirs, k=2, candidates=candidates, tol=1e-6,
                               policy=STRICT, our_candidates=dict(candidates))  # fmt: skip
    assert not verdict.agree


def test_every_policy_divergence_is_documented() -> None:
    for engine, policy in POLICIES.items():
        for key in (policy.subset, policy.order):
            if key is not None:
                assert engine in KNOWN[key].engines
                assert KNOWN[key].reason
                assert KNOWN[key].evidence


class EngineError(Exception):
    """Stands in for chromadb.errors.InvalidArgumentError (not a ValueError)."""


class EngineValueError(ValueError):
    """Stands in for pydantic's ValidationError (a ValueError)."""


def test_builtin_base_finds_the_nearest_builtin_ancestor() -> None:
    assert builtin_base(EngineError) is Exception
    assert builtin_base(EngineValueError) is ValueError
    assert builtin_base(TypeError) is TypeError


@pytest.mark.parametrize(
    ("ours", "theirs", "agree"),
    [
        (None, None, True),
        (ValueError("x"), EngineError("y"), True),
        (ValueError("x"), EngineValueError("y"), True),
        (ValueError("x"), TypeError("y"), False),
        (TypeError("x"), ValueError("y"), False),
        (ValueError("x"), AssertionError(), False),
        (None, ValueError("y"), False),
        (ValueError("x"), None, False),
    ],
)
def test_errors_are_compared_by_the_engines_builtin_base(
    ours: BaseException | None, theirs: BaseException | None, agree: bool
) -> None:
    assert compare_errors(ours, theirs).agree is agree


def test_every_error_divergence_is_documented() -> None:
    from ._runners import KNOWN_ERROR_DIVERGENCES

    for (engine, _label), key in KNOWN_ERROR_DIVERGENCES.items():
        assert engine in KNOWN[key].engines


@pytest.mark.parametrize(
    ("engine", "ours", "theirs"),
    [("chroma", "cosine", "l2"), ("qdrant", "dot", "cosine"), ("faiss", "ip", "l2")],
)
def test_the_harness_notices_a_profile_with_the_wrong_metric(
    engine: str, ours: str, theirs: str
) -> None:
    # The suite must be able to fail: our profile with one metric against the engine with
    # another disagrees on non-unit vectors.
    import numpy as np

    from ._engines import FakeSide, real_side
    from ._params import installed
    from ._runners import compare_query

    if not installed(engine):
        pytest.skip(f"{engine} is not installed")
    vectors = np.array([[3.0, 4.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 1.0]])
    ids, metas = ["0", "1", "2"], [{}, {}, {}]
    fake, real = FakeSide(engine, ours), real_side(engine, theirs, 3)
    try:
        fake.upsert(ids, vectors, metas)
        real.upsert(ids, vectors, metas)
        verdict = compare_query(engine, fake, real, vector=np.array([1.0, 0.5, 0.0]), k=3,
                                tol=1e-5, size=3)  # fmt: skip
    finally:
        real.close()
    assert not verdict.agree
