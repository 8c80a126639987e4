"""The drift check: proof that a live store still holds what its manifest describes.

:func:`check_drift` compares a store with a :class:`~placeborag_core.corpus.manifest.Manifest`
and raises :class:`DriftError` saying which digest moved, in which namespace, and what that points
at, so a retrieval test never runs against a store whose premise is no longer true.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from placeborag_core.corpus.manifest import (
    EmbeddingIdentity,
    Manifest,
    NamespaceDigest,
    chunk_ids_digest,
    tenant_set_digest,
    vector_digest,
)
from placeborag_core.messages import shown
from placeborag_core.store.unwrap import core_store_of
from placeborag_core.store.vector_store import FakeVectorStore

__all__ = [
    "POINTS_AT_DOCUMENTS",
    "POINTS_AT_EMBEDDING",
    "POINTS_AT_TENANTS",
    "POINTS_AT_VECTORS",
    "Drift",
    "DriftError",
    "check_drift",
]

POINTS_AT_DOCUMENTS = "the documents or the chunker changed"
POINTS_AT_EMBEDDING = "the embedding model, its dimensions or its salt changed"
POINTS_AT_VECTORS = (
    "the chunks are the same but their vectors are not: the embedding derivation or salt "
    "changed, or vectors were computed from the wrong text"
)
POINTS_AT_TENANTS = "the tenant list changed, or a namespace was left over or never seeded"


@dataclass(frozen=True)
class Drift:
    """One difference between a store and its manifest.

    ``digest`` names the manifest field that differs; ``namespace`` is None for store-wide fields;
    ``added``/``removed`` count ids (or namespaces, for the tenant set) the store has beyond / lacks
    compared with the manifest, None when the manifest did not record the ids.
    """

    digest: str
    namespace: str | None
    expected: str
    actual: str
    points_at: str
    added: int | None = None
    removed: int | None = None

    def describe(self) -> str:
        """One line: what differs, where, expected vs actual, what it points at, counts."""
        where = f" in namespace {shown(self.namespace)}" if self.namespace is not None else ""
        counts = ""
        if self.added is not None and self.removed is not None:
            counts = f"; {self.added} added, {self.removed} removed"
        return (
            f"{self.digest} differs{where} (manifest {self.expected}, store {self.actual}): "
            f"{self.points_at}{counts}"
        )


class DriftError(AssertionError):
    """The store no longer matches its manifest; tests that rely on the seed cannot be trusted."""

    def __init__(self, drifts: Iterable[Drift]) -> None:
        self.drifts = tuple(drifts)
        lines = "\n".join(f"  - {drift.describe()}" for drift in self.drifts)
        super().__init__(f"seeded store drifted from its manifest:\n{lines}")


def _short(digest: str) -> str:
    return digest[:12]


def _namespace_drifts(core: FakeVectorStore, name: str, want: NamespaceDigest) -> list[Drift]:
    ids = core.ids(name)
    have_ids = chunk_ids_digest(ids)
    if have_ids != want.chunk_ids_digest:
        added = removed = None
        if want.chunk_ids is not None:
            added = len(set(ids) - set(want.chunk_ids))
            removed = len(set(want.chunk_ids) - set(ids))
        points_at = POINTS_AT_DOCUMENTS
        if want.chunk_ids is None:
            points_at += f" (chunk count {want.chunk_count} -> {len(ids)})"
        return [
            Drift(
                "chunk_ids_digest",
                name,
                _short(want.chunk_ids_digest),
                _short(have_ids),
                points_at,
                added,
                removed,
            )
        ]
    have_vectors = vector_digest(core, name)
    if have_vectors != want.vector_digest:
        return [
            Drift(
                "vector_digest",
                name,
                _short(want.vector_digest),
                _short(have_vectors),
                POINTS_AT_VECTORS,
            )
        ]
    return []


def check_drift(store: object, manifest: Manifest) -> None:
    """Raise :class:`DriftError` unless ``store`` holds exactly what ``manifest`` describes.

    ``store`` is a :class:`FakeVectorStore` or an adapter store exposing ``.core_store``. Checked,
    all reported together: the store's embedder against the manifest's embedding identity (a
    swapped query-time model would silently mis-rank an index built with another one), the index
    dimension, the set of namespaces, and per expected namespace the chunk-ids digest and -- when
    the ids agree -- the vector digest.
    """
    core = core_store_of(store)
    if not isinstance(manifest, Manifest):
        raise TypeError(f"manifest must be a Manifest, got {type(manifest).__name__}")
    drifts: list[Drift] = []
    have = EmbeddingIdentity.of(core.embedder)
    if have != manifest.embedding:
        drifts.append(
            Drift(
                "embedding.salt_id",
                None,
                f"{manifest.embedding.salt_id} ({shown(manifest.embedding.model_name)}, "
                f"{manifest.embedding.dimensions} dims)",
                f"{have.salt_id} ({shown(have.model_name)}, {have.dimensions} dims)",
                POINTS_AT_EMBEDDING,
            )
        )
    if core.dimension is not None and core.dimension != manifest.dimension:
        drifts.append(
            Drift(
                "dimension",
                None,
                str(manifest.dimension),
                str(core.dimension),
                POINTS_AT_EMBEDDING,
            )
        )
    present = set(core.namespaces())
    expected = set(manifest.namespaces)
    if tenant_set_digest(present) != manifest.tenant_set_digest:
        extra, missing = sorted(present - expected), sorted(expected - present)
        drifts.append(
            Drift(
                "tenant_set_digest",
                None,
                _short(manifest.tenant_set_digest),
                _short(tenant_set_digest(present)),
                f"{POINTS_AT_TENANTS} (unexpected: {extra}, missing: {missing})",
                len(extra),
                len(missing),
            )
        )
    for name in sorted(expected & present):
        drifts.extend(_namespace_drifts(core, name, manifest.namespaces[name]))
    if drifts:
        raise DriftError(drifts)
