"""numpy scalars in metadata are stored as the Python bool, int or float of the same value,
after the profile's own metadata rule has judged the raw value (chromadb refuses np.int64)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from placeborag_core import FakeVectorStore

FLAT_PROFILES = ["default", "qdrant", "pgvector", "lancedb", "faiss", "weaviate", "milvus"]
IDS = {"qdrant": "1"}  # qdrant ids are unsigned ints or UUIDs


def kinds(value: Any) -> Any:
    """``value`` with each scalar replaced by its type, containers kept."""
    if isinstance(value, dict):
        return {key: kinds(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(kinds(item) for item in value)
    return type(value)


@pytest.mark.parametrize("profile", FLAT_PROFILES)
def test_numpy_scalars_are_stored_as_python_numbers(profile: str) -> None:
    store = FakeVectorStore(profile=profile)
    record_id = IDS.get(profile, "a")
    metadata = {
        "count": np.int64(3),
        "mean": np.float64(1.5),
        "small": np.float32(0.25),
        "flag": np.bool_(True),
        "tags": [np.int32(1), 2],
    }
    store.upsert(record_id, "text", metadata)
    stored = store.get(record_id)
    assert stored is not None
    assert stored.metadata == {"count": 3, "mean": 1.5, "small": 0.25, "flag": True, "tags": [1, 2]}
    assert kinds(stored.metadata) == {
        "count": int,
        "mean": float,
        "small": float,
        "flag": bool,
        "tags": [int, int],
    }
    assert type(metadata["count"]) is np.int64  # the caller's dict is left alone


def test_nested_numpy_scalars_are_converted_at_any_depth() -> None:
    store = FakeVectorStore(profile="qdrant")
    store.upsert("1", "text", {"a": {"b": [{"c": np.uint8(7)}], "t": (np.float16(0.5), "x")}})
    stored = store.get("1")
    assert stored is not None
    assert stored.metadata == {"a": {"b": [{"c": 7}], "t": (0.5, "x")}}
    assert kinds(stored.metadata) == {"a": {"b": [{"c": int}], "t": (float, str)}}


def test_the_chroma_rule_judges_the_raw_value_as_chromadb_does() -> None:
    store = FakeVectorStore(profile="chroma")
    store.upsert("a", "text", {"mean": np.float64(1.5)})  # a float subclass: chromadb takes it
    stored = store.get("a")
    assert stored is not None
    assert type(stored.metadata["mean"]) is float
    for value in (np.int64(3), np.bool_(True), np.float32(1.5)):
        with pytest.raises(ValueError, match="Expected metadata value to be a str, int, float"):
            store.upsert("b", "text", {"n": value})
    assert store.ids() == ["a"]


def test_a_stored_numpy_value_filters_like_the_python_one() -> None:
    store = FakeVectorStore()
    store.upsert_many([("a", "refund", {"n": np.int64(3)}), ("b", "refund", {"n": 4})])
    assert [m.id for m in store.query("refund", k=2, where={"n": 3})] == ["a"]
