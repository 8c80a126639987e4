"""Manifests describe a seeded store; the drift check names what moved and what it points at."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from placeborag_core.corpus.chunking import WordChunker
from placeborag_core.corpus.drift import (
    POINTS_AT_DOCUMENTS,
    POINTS_AT_EMBEDDING,
    POINTS_AT_TENANTS,
    POINTS_AT_VECTORS,
    Drift,
    DriftError,
    check_drift,
)
from placeborag_core.corpus.manifest import (
    EmbeddingIdentity,
    Manifest,
    ManifestError,
    build_manifest,
    chunk_ids_digest,
    tenant_set_digest,
    vector_digest,
)
from placeborag_core.corpus.seeding import Document, seed_namespaces
from placeborag_core.embedding.embedder import FakeEmbedder
from placeborag_core.store import FakeVectorStore

CHUNKER = WordChunker(size=4)
TENANTS = {
    "test_seed_rag_acme": [
        Document("refunds", "Refunds are paid within five business days of the return."),
        Document("returns", "Returns must be posted within thirty days of delivery."),
    ],
    "test_seed_rag_globex": [
        Document("shipping", "Parcels ship from the Rotterdam warehouse every weekday."),
    ],
}


def _seeded(
    tenants: dict[str, list[Document]] | None = None,
    chunker: WordChunker = CHUNKER,
    **embedder: Any,
) -> FakeVectorStore:
    store = FakeVectorStore(embedder=FakeEmbedder(**embedder))
    seed_namespaces(store, TENANTS if tenants is None else tenants, chunker=chunker)
    return store


def _drifts(store: FakeVectorStore, manifest: Manifest) -> tuple[Drift, ...]:
    with pytest.raises(DriftError) as caught:
        check_drift(store, manifest)
    return caught.value.drifts


def test_manifest_records_identity_dimension_tenants_and_digests() -> None:
    store = _seeded()
    manifest = build_manifest(store, seed_version="3")
    embedder = store.embedder
    assert manifest.seed_version == "3"
    assert manifest.embedding == EmbeddingIdentity(
        embedder.model_name, embedder.dimensions, embedder.identity
    )
    assert manifest.dimension == 384
    assert manifest.tenant_set_digest == tenant_set_digest(TENANTS)
    acme = manifest.namespaces["test_seed_rag_acme"]
    ids = store.ids("test_seed_rag_acme")
    assert acme.chunk_count == len(ids)
    assert acme.chunk_ids_digest == chunk_ids_digest(ids)
    assert acme.chunk_ids == tuple(sorted(ids))
    assert acme.vector_digest == vector_digest(store, "test_seed_rag_acme")


def test_digests_are_order_free_and_content_sensitive() -> None:
    assert chunk_ids_digest(["b", "a"]) == chunk_ids_digest(["a", "b"])
    assert chunk_ids_digest(["a"]) != chunk_ids_digest(["a", "b"])
    assert tenant_set_digest(["y", "x"]) == tenant_set_digest(["x", "y"])


def test_a_freshly_seeded_store_matches_and_reseeding_elsewhere_matches_too() -> None:
    manifest = build_manifest(_seeded())
    check_drift(_seeded(), manifest)  # a new process, same inputs: no drift


@pytest.mark.parametrize("profile", ["chroma", "qdrant", "faiss", "weaviate", "lancedb"])
def test_backend_profiles_match_a_manifest_built_on_the_default_one(profile: str) -> None:
    manifest = build_manifest(_seeded())
    store = FakeVectorStore(embedder=FakeEmbedder(), profile=profile)
    seed_namespaces(store, TENANTS, chunker=CHUNKER)
    check_drift(store, manifest)


def test_json_round_trip_is_stable(tmp_path: Path) -> None:
    manifest = build_manifest(_seeded())
    path = tmp_path / "manifest.json"
    manifest.dump(path)
    loaded = Manifest.load(path)
    assert loaded == manifest
    assert loaded.to_json() == path.read_text(encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(data) == [
        "format",
        "seed_version",
        "embedding",
        "dimension",
        "tenant_set_digest",
        "namespaces",
    ]
    assert list(data["embedding"]) == ["model_name", "dimensions", "salt_id"]


def test_a_document_change_points_at_documents_with_added_and_removed_counts() -> None:
    manifest = build_manifest(_seeded())
    edited = dict(TENANTS)
    edited["test_seed_rag_acme"] = [
        TENANTS["test_seed_rag_acme"][0],
        Document("returns", "Returns must be posted within ninety days of delivery."),
    ]
    (drift,) = _drifts(_seeded(edited), manifest)
    assert (drift.digest, drift.namespace) == ("chunk_ids_digest", "test_seed_rag_acme")
    assert drift.points_at == POINTS_AT_DOCUMENTS
    # "thirty" -> "ninety" (same length) rewrites only the chunk holding it
    assert (drift.added, drift.removed) == (1, 1)


def test_a_chunker_change_points_at_documents_or_chunker() -> None:
    manifest = build_manifest(_seeded())
    drifts = _drifts(_seeded(chunker=WordChunker(size=5)), manifest)
    assert {d.digest for d in drifts} == {"chunk_ids_digest"}
    assert {d.namespace for d in drifts} == set(TENANTS)
    assert all(d.points_at == POINTS_AT_DOCUMENTS for d in drifts)


def test_without_recorded_ids_the_count_change_is_reported() -> None:
    store = _seeded()
    manifest = build_manifest(store, record_ids=False)
    assert manifest.namespaces["test_seed_rag_acme"].chunk_ids is None
    assert "chunk_ids" not in manifest.to_dict()["namespaces"]["test_seed_rag_acme"]
    before = store.count("test_seed_rag_acme")
    edited = {**TENANTS, "test_seed_rag_acme": TENANTS["test_seed_rag_acme"][:1]}
    (drift,) = _drifts(_seeded(edited), manifest)
    after = _seeded(edited).count("test_seed_rag_acme")
    assert drift.digest == "chunk_ids_digest"
    assert (drift.added, drift.removed) == (None, None)
    assert drift.points_at == f"{POINTS_AT_DOCUMENTS} (chunk count {before} -> {after})"


def test_a_swapped_embedding_model_points_at_the_embedding() -> None:
    manifest = build_manifest(_seeded())
    drifts = _drifts(_seeded(model_name="text-embedding-3-large"), manifest)
    identity, *vectors = drifts
    assert identity.digest == "embedding.salt_id"
    assert identity.namespace is None
    assert identity.points_at == POINTS_AT_EMBEDDING
    assert "text-embedding-3-large" in identity.actual
    assert {(d.digest, d.namespace) for d in vectors} == {
        ("vector_digest", name) for name in TENANTS
    }
    assert all(d.points_at == POINTS_AT_VECTORS for d in vectors)


def test_vectors_from_the_wrong_text_are_caught_with_ids_unchanged() -> None:
    store = _seeded()
    manifest = build_manifest(store)
    victim = store.get(store.ids("test_seed_rag_globex")[0], namespace="test_seed_rag_globex")
    assert victim is not None
    wrong = store.embedder.embed("some other text")
    store.upsert(
        victim.id, victim.text, victim.metadata, vector=wrong, namespace="test_seed_rag_globex"
    )
    (drift,) = _drifts(store, manifest)
    assert (drift.digest, drift.namespace) == ("vector_digest", "test_seed_rag_globex")


def test_a_changed_dimension_points_at_the_embedding() -> None:
    manifest = build_manifest(_seeded())
    digests = [d.digest for d in _drifts(_seeded(dimensions=64), manifest)]
    assert digests[:2] == ["embedding.salt_id", "dimension"]


def test_a_missing_or_unexpected_namespace_changes_the_tenant_set() -> None:
    manifest = build_manifest(_seeded())
    store = _seeded({"test_seed_rag_acme": TENANTS["test_seed_rag_acme"]})
    store.upsert("stray", "left over from yesterday", namespace="test_seed_rag_initech")
    (drift,) = _drifts(store, manifest)
    assert drift.digest == "tenant_set_digest"
    assert drift.points_at.startswith(POINTS_AT_TENANTS)
    assert "unexpected: ['test_seed_rag_initech']" in drift.points_at
    assert "missing: ['test_seed_rag_globex']" in drift.points_at
    assert (drift.added, drift.removed) == (1, 1)


def test_the_error_message_lists_every_drift_on_its_own_line() -> None:
    manifest = build_manifest(_seeded())
    with pytest.raises(DriftError) as caught:
        check_drift(_seeded(model_name="other"), manifest)
    lines = str(caught.value).splitlines()
    assert lines[0] == "seeded store drifted from its manifest:"
    assert lines[1].startswith("  - embedding.salt_id differs (manifest ")
    assert any("vector_digest differs in namespace 'test_seed_rag_acme'" in ln for ln in lines)
    assert isinstance(caught.value, AssertionError)


def test_adapter_stores_are_checked_through_core_store() -> None:
    manifest = build_manifest(_seeded())

    class Adapter:
        core_store = _seeded(model_name="other")

    with pytest.raises(DriftError):
        check_drift(Adapter(), manifest)
    with pytest.raises(TypeError, match="manifest must be a Manifest, got dict"):
        check_drift(_seeded(), manifest.to_dict())  # type: ignore[arg-type]


def _valid() -> dict[str, Any]:
    return build_manifest(_seeded()).to_dict()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(format=2), "field 'format' must be 1, got 2"),
        (lambda d: d.pop("seed_version"), "field 'seed_version' is missing"),
        (lambda d: d.update(dimension="384"), "field 'dimension' must be of type int, got str"),
        (lambda d: d.update(dimension=True), "field 'dimension' must be of type int, got bool"),
        (lambda d: d["embedding"].pop("salt_id"), "field 'embedding.salt_id' is missing"),
        (lambda d: d.update(tenant_set_digest="0" * 64), "tenant_set_digest does not match"),
        (
            lambda d: d["namespaces"]["test_seed_rag_acme"]["chunk_ids"].pop(),
            "namespaces\\['test_seed_rag_acme'\\].chunk_ids does not match",
        ),
        (
            lambda d: d["namespaces"]["test_seed_rag_acme"].update(chunk_ids=[1]),
            "chunk_ids must be a list of str",
        ),
        (lambda d: d["namespaces"].update(x=[]), "namespaces\\['x'\\] must be an object"),
    ],
)
def test_malformed_manifests_name_the_field(edit: Any, message: str) -> None:
    data = _valid()
    edit(data)
    with pytest.raises(ManifestError, match=message):
        Manifest.from_dict(data)


def test_invalid_json_and_files_are_named(tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ManifestError, match=r"manifest\.json:1: manifest is not valid JSON"):
        Manifest.load(path)
    with pytest.raises(ManifestError, match="a manifest must be a JSON object, got list"):
        Manifest.from_json("[]")
