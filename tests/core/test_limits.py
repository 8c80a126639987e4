"""Limits on nesting, and the messages of a write that breaks them or holds bad Unicode."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest

from placeborag_core import FakeVectorStore
from placeborag_core.limits import MAX_METADATA_DEPTH, nesting_depth_exceeds


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"k": value}
    return value


@pytest.mark.parametrize("flat", [{}, {"a": 1, "b": "x", "c": None, "d": 2.5, "e": True}])
@pytest.mark.parametrize("container", [dict, OrderedDict])
def test_a_flat_mapping_is_one_level_deep(flat: dict[str, Any], container: type) -> None:
    value = container(flat)
    assert nesting_depth_exceeds(value, 0)
    assert not nesting_depth_exceeds(value, 1)


@pytest.mark.parametrize("depth", [1, 2, 5])
def test_nested_mappings_count_every_level(depth: int) -> None:
    assert nesting_depth_exceeds(_nested(depth), depth - 1)
    assert not nesting_depth_exceeds(_nested(depth), depth)
    assert nesting_depth_exceeds({"list": [1, 2]}, 1)


def test_a_mapping_that_contains_itself_exceeds_any_limit() -> None:
    cycle: dict[str, Any] = {"k": 1}
    cycle["self"] = cycle
    assert nesting_depth_exceeds(cycle, 10_000)


def test_a_write_names_the_record_whose_text_or_metadata_is_bad() -> None:
    store = FakeVectorStore()
    with pytest.raises(ValueError, match=r"record 'b': text is not valid Unicode"):
        store.upsert_many([("a", "fine"), ("b", "bad \ud800")])
    with pytest.raises(ValueError, match=r"record 'c': metadata\['k'\] is not valid Unicode"):
        store.upsert_many([("a", "fine", {"k": "ok"}), ("c", "x", {"k": "\udfff"})])
    with pytest.raises(
        ValueError,
        match=rf"record 'd': metadata is nested more than "
        rf"{MAX_METADATA_DEPTH} levels",
    ):
        store.upsert_many([("d", "x", _nested(MAX_METADATA_DEPTH + 2))])
    assert len(store) == 0
