"""The chroma profile refuses the metadata chromadb refuses, with its exception types and
messages (docs/engines/chroma.md#chroma-metadata-values), and writes nothing."""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np
import pytest

from placeborag_core import FakeVectorStore

LIST_TYPES = "to contain only str, int, float, or bool and all elements must be the same type"


@pytest.mark.parametrize(
    ("metadata", "error", "message"),
    [
        (
            {"d": {"x": 1}},
            ValueError,
            (
                "Expected metadata value to be a str, int, float, bool, SparseVector, list, or "
                "None, got {'x': 1} which is a dict in upsert."
            ),
        ),
        ({1: "x"}, TypeError, "Expected metadata key to be a str, got 1 which is a int in upsert."),
        ({"tags": []}, ValueError, "Expected metadata list value for key 'tags' to be non-empty"),
        ({"tags": [1, "a"]}, ValueError, f"key 'tags' {LIST_TYPES}, got [1, 'a'] in upsert."),
        ({"tags": [{"x": 1}]}, ValueError, f"key 'tags' {LIST_TYPES}, got [{{'x': 1}}]"),
        ({"chroma:document": "x"}, ValueError, "reserved key chroma:document in upsert."),
        (
            {"when": datetime.datetime(2024, 1, 2)},
            ValueError,
            "None, got 2024-01-02 00:00:00 which is a datetime in upsert.",  # str(), as chromadb
        ),
        ({"n": np.int64(3)}, ValueError, "None, got 3 which is a int64 in upsert."),
    ],
)
def test_chroma_refuses_what_validate_metadata_refuses(
    metadata: dict[Any, Any], error: type[Exception], message: str
) -> None:
    store = FakeVectorStore(profile="chroma")
    store.upsert("a", None, {"k": 1}, vector=[1.0, 0.0])
    with pytest.raises(error) as caught:
        store.upsert_many([("b", None, None, [0.0, 1.0]), ("c", None, metadata, [1.0, 1.0])])
    assert message in str(caught.value)
    assert store.ids() == ["a"]


def test_chroma_takes_lists_of_one_scalar_type() -> None:
    store = FakeVectorStore(profile="chroma")
    store.upsert("a", None, {"b": [True, False], "n": [1, 2], "s": ["x"]}, vector=[1.0, 0.0])
    assert store.get("a").metadata == {"b": [True, False], "n": [1, 2], "s": ["x"]}
