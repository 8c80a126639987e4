"""Seeding takes the numpy metadata scalars that ``upsert`` takes, stores them as the same Python
numbers, and reseeding and manifests see only Python types (``store/numpy_scalars.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from placeborag_core import (
    Document,
    FakeEmbedder,
    FakeVectorStore,
    build_manifest,
    chunk_documents,
    seed_store,
)

NUMPY_META: dict[str, Any] = {
    "n": np.int64(3),
    "x": np.float32(1.5),
    "ok": np.bool_(True),
    "tags": [np.int32(1), 2],
}
PYTHON_META: dict[str, Any] = {"n": 3, "x": 1.5, "ok": True, "tags": [1, 2]}
RECORD = "00000000-0000-0000-0000-000000000001"  # an id every profile takes


def _store(profile: str = "default") -> FakeVectorStore:
    return FakeVectorStore(embedder=FakeEmbedder(dimensions=16), profile=profile)


def _types(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _types(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_types(item) for item in value]
    return type(value)


@pytest.mark.parametrize("profile", ["default", "qdrant", "pgvector"])
def test_seeding_stores_numpy_scalars_as_upsert_does(profile: str) -> None:
    upserted, seeded = _store(profile), _store(profile)
    upserted.upsert(RECORD, text="refund policy", metadata=dict(NUMPY_META))
    report = seed_store(seeded, [Document("d", "refund policy", dict(NUMPY_META))])
    assert report.upserted == 1
    stored = seeded.get(seeded.ids()[0]).metadata
    assert {k: stored[k] for k in NUMPY_META} == upserted.get(RECORD).metadata == PYTHON_META
    assert _types({k: stored[k] for k in NUMPY_META}) == _types(PYTHON_META)


def test_chunks_hold_python_numbers() -> None:
    (chunk,) = chunk_documents([Document("d", "refund policy", dict(NUMPY_META))])
    assert {k: chunk.metadata[k] for k in NUMPY_META} == PYTHON_META
    assert _types({k: chunk.metadata[k] for k in NUMPY_META}) == _types(PYTHON_META)


@pytest.mark.parametrize("first", [NUMPY_META, PYTHON_META], ids=["numpy", "python"])
@pytest.mark.parametrize("second", [NUMPY_META, PYTHON_META], ids=["numpy", "python"])
def test_reseeding_the_same_values_as_numpy_or_python_writes_nothing(
    first: dict[str, Any], second: dict[str, Any]
) -> None:
    store = _store()
    seed_store(store, [Document("d", "refund policy", dict(first))])
    report = seed_store(store, [Document("d", "refund policy", dict(second))])
    assert (report.upserted, report.unchanged) == (0, 1)


def test_the_manifest_of_numpy_metadata_is_that_of_the_python_values() -> None:
    with_numpy, with_python = _store(), _store()
    seed_store(with_numpy, [Document("d", "refund policy", dict(NUMPY_META))], namespace="t")
    seed_store(with_python, [Document("d", "refund policy", dict(PYTHON_META))], namespace="t")
    assert build_manifest(with_numpy) == build_manifest(with_python)


@pytest.mark.parametrize("value", [np.int64(3), np.float32(1.5), np.bool_(True)])
def test_under_chroma_seeding_refuses_a_numpy_scalar_as_upsert_does(value: Any) -> None:
    upserted, seeded = _store("chroma"), _store("chroma")
    with pytest.raises(ValueError, match="Expected metadata value") as by_upsert:
        upserted.upsert("x", text="refund policy", metadata={"n": value})
    with pytest.raises(ValueError, match="Expected metadata value") as by_seed:
        seed_store(seeded, [Document("d", "refund policy", {"n": value})])
    assert str(by_seed.value) == str(by_upsert.value)
    assert seeded.ids() == []


@pytest.mark.parametrize("profile", ["default", "qdrant"])
def test_metadata_that_contains_itself_is_still_refused_naming_its_document(
    profile: str,
) -> None:
    looped: dict[str, Any] = {"n": np.int64(1)}
    looped["self"] = looped
    store = _store(profile)
    with pytest.raises(TypeError, match="document 'd'"):
        seed_store(store, [Document("d", "refund policy", looped)])
    assert store.ids() == []
