"""Reseeding compares metadata by value and type, a second run writes nothing, and a chunker
must follow the Chunker protocol."""

from __future__ import annotations

from typing import Any

import pytest

from placeborag_core import Document, FakeEmbedder, FakeVectorStore, seed_store
from placeborag_core.corpus.chunking import WordChunker


def _store(profile: str = "default") -> FakeVectorStore:
    return FakeVectorStore(embedder=FakeEmbedder(dimensions=16), profile=profile)


@pytest.mark.parametrize(("old", "new"), [(1, True), (1, 1.0), (0, False), ([1], [True])])
def test_reseeding_writes_a_metadata_value_whose_type_changed(old: Any, new: Any) -> None:
    store = _store()
    seed_store(store, [Document("d", "refund policy", {"k": old})])
    report = seed_store(store, [Document("d", "refund policy", {"k": new})])
    assert report.upserted == 1
    assert type(store.get(store.ids()[0]).metadata["k"]) is type(new)


@pytest.mark.parametrize(
    ("profile", "meta"),
    [("default", {"k": (1, 2)}), ("default", {"k": float("nan")}), ("chroma", {"k": None})],
)
def test_a_second_seed_run_writes_nothing(profile: str, meta: dict[str, Any]) -> None:
    store = _store(profile)
    seed_store(store, [Document("d", "refund policy", dict(meta))])
    fresh = {k: float("nan") if v != v else v for k, v in meta.items()}  # a new NaN object
    assert seed_store(store, [Document("d", "refund policy", fresh)]).upserted == 0


def test_reseeding_under_chroma_removes_a_metadata_key_the_documents_dropped() -> None:
    store = _store("chroma")
    seed_store(store, [Document("d", "refund policy", {"a": 1, "b": 2})])
    seed_store(store, [Document("d", "refund policy", {"a": 1})])
    assert "b" not in store.get(store.ids()[0]).metadata
    assert seed_store(store, [Document("d", "refund policy", {"a": 1})]).upserted == 0


@pytest.mark.parametrize("chunker", [object(), "words", WordChunker().split])
def test_a_chunker_outside_the_protocol_is_refused_before_anything_is_written(
    chunker: Any,
) -> None:
    store = _store()
    with pytest.raises(TypeError, match="chunker must follow the Chunker protocol"):
        seed_store(store, [Document("d", "refund policy")], chunker=chunker)
    assert store.ids() == []
