"""Canned context states check what they are built from, naming the field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from placeborag_core import CannedChunk, ContextState
from placeborag_core.testing.scenarios import no_chunks, weak_chunk


@pytest.mark.parametrize(
    "build",
    [
        lambda: CannedChunk(1, "text", 0.5),  # type: ignore[arg-type]
        lambda: CannedChunk("a", None, 0.5),  # type: ignore[arg-type]
        lambda: CannedChunk("a", "text", "high"),  # type: ignore[arg-type]
        lambda: CannedChunk("a", "text", 0.5, None),  # type: ignore[arg-type]
        lambda: ContextState("n", "q", ("a",), "e"),  # type: ignore[arg-type]
        lambda: ContextState("n", None, (), "e"),  # type: ignore[arg-type]
        lambda: no_chunks(5),  # type: ignore[arg-type]
        lambda: weak_chunk(score="0.1"),  # type: ignore[arg-type]
    ],
)
def test_a_value_of_the_wrong_type_is_a_type_error(build: Callable[[], Any]) -> None:
    with pytest.raises(TypeError, match="must be"):
        build()


@pytest.mark.parametrize(
    "build",
    [
        lambda: CannedChunk("", "text", 0.5),
        lambda: CannedChunk("a", "text", float("nan")),
        lambda: weak_chunk(score=float("-inf")),
        lambda: ContextState("n", "q\ud800", (), "e"),
    ],
)
def test_an_empty_id_a_non_finite_score_or_bad_unicode_is_a_value_error(
    build: Callable[[], Any],
) -> None:
    with pytest.raises(ValueError, match=r"must be|not valid Unicode"):
        build()


@pytest.mark.parametrize(
    ("build", "shown"),
    [
        (lambda: CannedChunk("a", "text", 7), "7"),
        (lambda: CannedChunk("a", "text", -3), "-3"),
        (lambda: CannedChunk("a", "text", 1.0000001), "1.0000001"),
        (lambda: weak_chunk(score=0.9, floor=2.0), "2.0"),
        (lambda: ContextState("n", "q", (), "e", score_floor=-0.5), "-0.5"),
    ],
)
def test_a_score_outside_zero_to_one_is_a_value_error(build: Callable[[], Any], shown: str) -> None:
    with pytest.raises(ValueError, match=rf"must be an int or float in \[0, 1\] .*, got {shown}$"):
        build()


def test_the_ends_of_the_range_are_scores() -> None:
    assert CannedChunk("a", "text", 0).score == 0
    assert weak_chunk(score=0.0, floor=1.0).score_floor == 1.0
