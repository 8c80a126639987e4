"""Seed manifests: what a seeded store should contain, as a small JSON document to commit.

Per namespace a manifest holds two digests with different jobs: the chunk-ids digest changes when
the documents or the chunker change (ids are content-derived, see
:mod:`placeborag_core.corpus.seeding`); the vector digest changes when the same chunks got
different vectors -- another embedding model, dimension or salt, or vectors computed from the
wrong text. ``corpus/drift.py`` compares a live store with a manifest.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from placeborag_core.corpus import strict_json
from placeborag_core.embedding.embedder import FakeEmbedder
from placeborag_core.messages import shown
from placeborag_core.store.unwrap import core_store_of
from placeborag_core.unicode_text import require_unicode

__all__ = [
    "MANIFEST_FORMAT",
    "EmbeddingIdentity",
    "Manifest",
    "ManifestError",
    "NamespaceDigest",
    "build_manifest",
    "chunk_ids_digest",
    "tenant_set_digest",
    "vector_digest",
]

MANIFEST_FORMAT = 1
# Vectors are digested after rounding to this many decimals: far finer than any real change of
# embedding (which moves every coordinate), far coarser than float32 noise between backends.
_VECTOR_DECIMALS = 4


class ManifestError(ValueError):
    """A manifest file or mapping is malformed (names the field and what is allowed).

    ``line`` is the 1-based line of the JSON text at fault, when there is one.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def _sha256_json(value: Any) -> str:
    encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def tenant_set_digest(namespaces: Iterable[str]) -> str:
    """SHA-256 over the sorted namespace names."""
    return _sha256_json(sorted(namespaces))


def chunk_ids_digest(ids: Iterable[str]) -> str:
    """SHA-256 over the sorted chunk ids: order-free, changes with any added or removed id."""
    return _sha256_json(sorted(ids))


def vector_digest(store: object, namespace: str = "") -> str:
    """SHA-256 over ``(id, vector rounded to 4 decimals)`` for every id of ``namespace``, by id."""
    ids, _, _, matrix = core_store_of(store).snapshot(namespace)
    quantised = np.rint(matrix.astype(np.float64) * 10**_VECTOR_DECIMALS).astype("<i8")
    hasher = hashlib.sha256()
    for row in sorted(range(len(ids)), key=ids.__getitem__):
        hasher.update(ids[row].encode("utf-8") + b"\x00" + quantised[row].tobytes() + b"\x00")
    return hasher.hexdigest()


@dataclass(frozen=True)
class EmbeddingIdentity:
    """Which embedding space produced the vectors; ``salt_id`` is :attr:`FakeEmbedder.identity`."""

    model_name: str
    dimensions: int
    salt_id: str

    @classmethod
    def of(cls, embedder: FakeEmbedder) -> EmbeddingIdentity:
        """The identity of ``embedder``."""
        return cls(embedder.model_name, embedder.dimensions, embedder.identity)


@dataclass(frozen=True)
class NamespaceDigest:
    """What one namespace should contain. ``chunk_ids`` is kept only when asked for (diagnosis)."""

    chunk_count: int
    chunk_ids_digest: str
    vector_digest: str
    chunk_ids: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Manifest:
    """The committed description of a seeded store."""

    seed_version: str
    embedding: EmbeddingIdentity
    dimension: int
    tenant_set_digest: str
    namespaces: Mapping[str, NamespaceDigest]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping (namespaces sorted)."""
        namespaces: dict[str, Any] = {}
        for name in sorted(self.namespaces):
            entry = self.namespaces[name]
            item: dict[str, Any] = {
                "chunk_count": entry.chunk_count,
                "chunk_ids_digest": entry.chunk_ids_digest,
                "vector_digest": entry.vector_digest,
            }
            if entry.chunk_ids is not None:
                item["chunk_ids"] = list(entry.chunk_ids)
            namespaces[name] = item
        return {
            "format": MANIFEST_FORMAT,
            "seed_version": self.seed_version,
            "embedding": {
                "model_name": self.embedding.model_name,
                "dimensions": self.embedding.dimensions,
                "salt_id": self.embedding.salt_id,
            },
            "dimension": self.dimension,
            "tenant_set_digest": self.tenant_set_digest,
            "namespaces": namespaces,
        }

    def to_json(self) -> str:
        """Stable, diff-friendly JSON (indented, sorted namespaces, trailing newline)."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def dump(self, path: str | Path) -> None:
        """Write :meth:`to_json` to ``path`` (UTF-8)."""
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Manifest:
        """Parse what :meth:`to_dict` wrote; raises :class:`ManifestError` naming the bad field."""
        if not isinstance(data, Mapping):
            raise ManifestError(f"a manifest must be a JSON object, got {type(data).__name__}")
        if type(data.get("format")) is not int or data.get("format") != MANIFEST_FORMAT:
            raise ManifestError(
                f"manifest field 'format' must be {MANIFEST_FORMAT}, got "
                f"{shown(data.get('format'))}"
            )
        embedding = _field(data, "embedding", Mapping)
        namespaces_data = _field(data, "namespaces", Mapping)
        namespaces: dict[str, NamespaceDigest] = {}
        for name, entry in namespaces_data.items():
            where = f"namespaces[{shown(name)}]"
            _unicode(name, f"{where} (the namespace name)")
            if not isinstance(entry, Mapping):
                raise ManifestError(f"manifest field {where} must be an object")
            ids = entry.get("chunk_ids")
            if ids is not None and (
                not isinstance(ids, list) or not all(isinstance(i, str) for i in ids)
            ):
                raise ManifestError(f"manifest field {where}.chunk_ids must be a list of str")
            for index, chunk_id in enumerate(ids or ()):
                _unicode(chunk_id, f"{where}.chunk_ids[{index}]")
            if _field(entry, "chunk_count", int, where) < 0:
                raise ManifestError(f"manifest field {where}.chunk_count must be >= 0")
            digest = NamespaceDigest(
                chunk_count=_field(entry, "chunk_count", int, where),
                chunk_ids_digest=_field(entry, "chunk_ids_digest", str, where),
                vector_digest=_field(entry, "vector_digest", str, where),
                chunk_ids=tuple(ids) if ids is not None else None,
            )
            if digest.chunk_ids is not None and (
                chunk_ids_digest(digest.chunk_ids) != digest.chunk_ids_digest
                or len(digest.chunk_ids) != digest.chunk_count
            ):
                raise ManifestError(
                    f"manifest field {where}.chunk_ids does not match its chunk_ids_digest and "
                    "chunk_count (edited by hand?); regenerate the manifest"
                )
            namespaces[name] = digest
        manifest = cls(
            seed_version=_field(data, "seed_version", str),
            embedding=EmbeddingIdentity(
                model_name=_field(embedding, "model_name", str, "embedding"),
                dimensions=_field(embedding, "dimensions", int, "embedding"),
                salt_id=_field(embedding, "salt_id", str, "embedding"),
            ),
            dimension=_field(data, "dimension", int),
            tenant_set_digest=_field(data, "tenant_set_digest", str),
            namespaces=namespaces,
        )
        _unicode(manifest.seed_version, "seed_version")
        _unicode(manifest.embedding.model_name, "embedding.model_name")
        _unicode(manifest.embedding.salt_id, "embedding.salt_id")
        for label, width in (
            ("dimension", manifest.dimension),
            ("embedding.dimensions", manifest.embedding.dimensions),
        ):
            if width < 1:
                raise ManifestError(f"manifest field {label!r} must be an int >= 1, got {width}")
        if tenant_set_digest(namespaces) != manifest.tenant_set_digest:
            raise ManifestError(
                "manifest field tenant_set_digest does not match its namespaces (edited by hand?)"
            )
        return manifest

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        """Parse JSON text; raises :class:`ManifestError` on invalid JSON or fields."""
        try:
            data = strict_json.loads(text)
        except json.JSONDecodeError as error:
            raise ManifestError(
                f"manifest is not valid JSON: {error.msg}", line=error.lineno
            ) from None
        except (RecursionError, ValueError) as error:  # nesting, or an integer of 4,300+ digits
            reason = "nested too deep" if isinstance(error, RecursionError) else str(error)
            raise ManifestError(f"manifest cannot be read as JSON: {reason}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Manifest:
        """Read a manifest file (errors name the file)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise ManifestError(
                f"{path}: not UTF-8 text ({error.reason} at byte {error.start})"
            ) from None
        try:
            return cls.from_json(text)
        except ManifestError as error:
            where = f"{path}:{error.line}" if error.line is not None else str(path)
            raise ManifestError(f"{where}: {error}", line=error.line) from None


def _unicode(text: str, label: str) -> None:
    """A string read from a manifest (JSON may spell a lone surrogate as ``\\ud800``)."""
    try:
        require_unicode(text, f"manifest field {label}")
    except ValueError as error:
        raise ManifestError(str(error)) from None


def _field(data: Mapping[str, Any], name: str, kind: type[Any], where: str = "") -> Any:
    label = f"{where}.{name}" if where else name
    if name not in data:
        raise ManifestError(f"manifest field {shown(label)} is missing")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ManifestError(
            f"manifest field {shown(label)} must be of type {kind.__name__}, got "
            f"{type(value).__name__}"
        )
    return value


def build_manifest(
    store: object,
    *,
    seed_version: str = "1",
    namespaces: Iterable[str] | None = None,
    record_ids: bool = True,
) -> Manifest:
    """Describe what ``store`` holds now (run it right after seeding).

    ``namespaces`` defaults to every namespace holding records. With ``record_ids`` the sorted chunk
    ids are kept in the manifest, so a drift report can count added and removed ids; without it the
    manifest stays tiny and drift reports only the change in count.
    """
    core = core_store_of(store)
    if not isinstance(seed_version, str) or not seed_version:
        raise ValueError(f"seed_version must be a non-empty str, got {shown(seed_version)}")
    if namespaces is not None and (
        isinstance(namespaces, str | bytes) or not isinstance(namespaces, Iterable)
    ):
        raise TypeError(
            "namespaces must be a collection of namespace names (or None for all), "
            f"got {type(namespaces).__name__} {shown(namespaces)}"
        )
    listed = core.namespaces() if namespaces is None else list(namespaces)
    for name in listed:
        if isinstance(name, str):
            require_unicode(name, "a namespace name")
        if not isinstance(name, str):
            raise TypeError(
                f"namespaces must hold str names, got {type(name).__name__} {shown(name)}"
            )
    embedder = core.embedder
    names = sorted(set(listed))
    entries: dict[str, NamespaceDigest] = {}
    for name in names:
        ids = sorted(core.ids(name))
        entries[name] = NamespaceDigest(
            chunk_count=len(ids),
            chunk_ids_digest=chunk_ids_digest(ids),
            vector_digest=vector_digest(core, name),
            chunk_ids=tuple(ids) if record_ids else None,
        )
    return Manifest(
        seed_version=seed_version,
        embedding=EmbeddingIdentity.of(embedder),
        dimension=core.dimension if core.dimension is not None else embedder.dimensions,
        tenant_set_digest=tenant_set_digest(names),
        namespaces=entries,
    )
