"""Deterministic chunk ids and idempotent seeding of a store, one namespace (tenant) at a time.

A chunk id is a digest of everything that defines the chunk -- the document it came from, the
chunker that cut it, its position and its (white-space normalised) text -- so re-seeding the same
corpus produces the same ids and any change to the corpus or the chunker produces new ones.
Seeding then is a reconciliation, not an append: every expected chunk is written if it is missing
or differs, and every id the namespace holds that is no longer expected is deleted. Running it
twice changes nothing the second time, and running it after a run that died half way repairs the
namespace instead of duplicating it.
"""

from __future__ import annotations

import hashlib
import json
import math
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from placeborag_core.corpus.chunking import Chunker, WordChunker
from placeborag_core.limits import MAX_METADATA_DEPTH, nesting_depth_exceeds
from placeborag_core.messages import shown
from placeborag_core.numbers import python_values
from placeborag_core.store.inputs import check_metadata
from placeborag_core.store.unwrap import core_store_of
from placeborag_core.unicode_text import require_unicode

if TYPE_CHECKING:
    from placeborag_core.store.vector_store import FakeVectorStore

__all__ = [
    "CHUNK_METADATA_KEYS",
    "Chunk",
    "Document",
    "SeedReport",
    "chunk_documents",
    "chunk_id",
    "normalise_whitespace",
    "seed_namespaces",
    "seed_store",
    "text_digest",
]

# Metadata keys the seeder adds to every chunk; a document may not carry them itself.
CHUNK_METADATA_KEYS = ("doc_id", "chunk_ordinal", "chunk_start", "chunk_end", "chunker_version")

# Two float32 vectors this close in every coordinate are the same stored vector; backends that
# re-normalise on write (the qdrant profile) move the last bit or so of some coordinates.
_VECTOR_TOLERANCE = 1e-6


def normalise_whitespace(text: str) -> str:
    """Collapse every run of white space to one space and strip both ends.

    Only white space is normalised: a chunker change that merely re-spaces a text keeps its text
    digest, while any change to the words themselves changes it.
    """
    return " ".join(text.split())


def text_digest(text: str) -> str:
    """SHA-256 (hex) of the white-space normalised text."""
    return hashlib.sha256(normalise_whitespace(text).encode("utf-8")).hexdigest()


def chunk_id(
    doc_id: str, *, chunker_version: str, ordinal: int, start: int, end: int, text: str
) -> str:
    """The id of one chunk: the first 128 bits of SHA-256 over its defining fields, written as a
    dashed lower-case UUID.

    The fields are hashed as a JSON array, so no two different field tuples hash the same input
    (whatever characters the document id or chunker version contain). The UUID spelling is one
    every engine stores as given (Qdrant rewrites other spellings of a UUID to this one).
    """
    parts = [doc_id, chunker_version, ordinal, start, end, text_digest(text)]
    encoded = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return str(uuid.UUID(hex=hashlib.sha256(encoded.encode("utf-8")).hexdigest()[:32]))


@dataclass(frozen=True)
class Document:
    """A source document: an id (unique in its namespace), its text, metadata for its chunks."""

    id: str
    text: str
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Chunk:
    """One chunk as it will be stored: deterministic id, span text, and its full metadata."""

    id: str
    doc_id: str
    ordinal: int
    start: int
    end: int
    text: str
    metadata: Mapping[str, Any]


@dataclass(frozen=True)
class SeedReport:
    """What one seeding run did to one namespace.

    ``upserted`` chunks were missing or differed (text, metadata or vector); ``unchanged`` were
    already present exactly as expected; ``deleted`` ids were present but no longer expected.
    """

    namespace: str
    upserted: int
    unchanged: int
    deleted: int

    @property
    def expected(self) -> int:
        """How many chunks the namespace holds after the run."""
        return self.upserted + self.unchanged

    @property
    def changed(self) -> bool:
        """Whether the run wrote or deleted anything."""
        return bool(self.upserted or self.deleted)


def _python_metadata(metadata: Mapping[str, Any]) -> Mapping[str, Any]:
    """A document's metadata with its numpy scalars as Python numbers, as ``upsert`` stores them
    (``store/numpy_scalars.py``), so chunks, the comparison with stored records and manifests
    hold only Python types. Metadata nested too deep (or containing itself) is returned as it
    is, for the checks to refuse."""
    if nesting_depth_exceeds(metadata, MAX_METADATA_DEPTH + 1):
        return metadata
    converted: Mapping[str, Any] = python_values(metadata)
    return converted


def _check_documents(
    documents: Sequence[Document],
    nested: bool | None = None,
    rule: Callable[[Mapping[str, Any]], None] | None = None,
) -> None:
    """Raise for the first malformed document, naming it; with ``nested`` (the store's profile
    rule) its metadata values are checked too, so a bad value names its document rather than a
    chunk id. ``rule`` (the profile's engine check) sees the raw metadata first, as in
    ``upsert``, so chroma refuses a numpy scalar here too; the generic check then sees the
    metadata with numpy scalars converted."""
    seen: set[str] = set()
    for position, doc in enumerate(documents):
        if not isinstance(doc, Document):
            raise TypeError(f"documents[{position}] must be a Document, got {type(doc).__name__}")
        if not isinstance(doc.id, str) or not doc.id:
            raise ValueError(
                f"documents[{position}].id must be a non-empty str, got {shown(doc.id)}"
            )
        require_unicode(doc.id, f"documents[{position}].id")
        if not isinstance(doc.text, str):
            raise TypeError(
                f"document {shown(doc.id)}: text must be a str, got {type(doc.text).__name__}"
            )
        require_unicode(doc.text, f"document {shown(doc.id)}: text")
        if not isinstance(doc.metadata, Mapping):
            raise TypeError(
                f"document {shown(doc.id)}: metadata must be a mapping, "
                f"got {type(doc.metadata).__name__}"
            )
        reserved = sorted(set(doc.metadata) & set(CHUNK_METADATA_KEYS))
        if reserved:
            raise ValueError(
                f"document {shown(doc.id)}: metadata keys {reserved} are reserved for chunk "
                f"metadata "
                f"(reserved: {list(CHUNK_METADATA_KEYS)})"
            )
        if rule is not None and doc.metadata:
            rule(doc.metadata)
        if nested is not None:
            check_metadata(doc.id, _python_metadata(doc.metadata), nested, owner="document")
        if doc.id in seen:
            raise ValueError(f"document id {shown(doc.id)} appears more than once in one namespace")
        seen.add(doc.id)


def chunk_documents(documents: Iterable[Document], chunker: Chunker | None = None) -> list[Chunk]:
    """Cut ``documents`` into chunks with deterministic ids, in document then chunk order.

    Every chunk's metadata is the document's metadata (numpy scalars as the Python ``bool``,
    ``int`` or ``float`` of the same value, as ``upsert`` stores them) plus
    :data:`CHUNK_METADATA_KEYS`. Raises ``ValueError``/``TypeError`` for malformed documents or
    duplicate document ids.
    """
    docs = list(documents)
    _check_documents(docs)
    cutter = chunker if chunker is not None else WordChunker()
    version = getattr(cutter, "version", None)
    if not isinstance(version, str) or not callable(getattr(cutter, "split", None)):
        raise TypeError(
            "chunker must follow the Chunker protocol (a str `version` and a `split(text)` "
            f"method returning spans), got {type(cutter).__name__} {shown(cutter)}"
        )
    chunks: list[Chunk] = []
    for doc in docs:
        for ordinal, span in enumerate(cutter.split(doc.text)):
            metadata = {
                **_python_metadata(doc.metadata),
                "doc_id": doc.id,
                "chunk_ordinal": ordinal,
                "chunk_start": span.start,
                "chunk_end": span.end,
                "chunker_version": version,
            }
            chunks.append(
                Chunk(
                    id=chunk_id(
                        doc.id,
                        chunker_version=version,
                        ordinal=ordinal,
                        start=span.start,
                        end=span.end,
                        text=span.text,
                    ),
                    doc_id=doc.id,
                    ordinal=ordinal,
                    start=span.start,
                    end=span.end,
                    text=span.text,
                    metadata=metadata,
                )
            )
    return chunks


def _unchanged_rows(
    stored: np.ndarray[Any, Any], expected: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """Which rows of ``stored`` equal those of ``expected`` (float32, within the tolerance)."""
    if stored.shape != expected.shape:
        return np.zeros(len(expected), dtype=bool)
    if not len(expected):
        return np.zeros(0, dtype=bool)
    difference = np.abs(stored.astype(np.float32) - expected.astype(np.float32))
    return np.asarray(difference.max(axis=1) <= _VECTOR_TOLERANCE)


def _canonical(value: Any) -> Any:
    """``value`` as a key that equal metadata share and different metadata do not: types count
    (``1``, ``1.0`` and ``True`` differ, as filters tell them apart), a list and a tuple holding
    the same items are the same (the store keeps tuples as lists), NaN equals NaN."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("float", "nan" if math.isnan(value) else value.hex())
    if isinstance(value, Mapping):
        return ("map", tuple(sorted((str(k), _canonical(v)) for k, v in value.items())))
    if isinstance(value, list | tuple):
        return ("list", tuple(_canonical(item) for item in value))
    return ("other", repr(value))


def _metadata_to_write(
    core: FakeVectorStore, stored: Mapping[str, Any] | None, expected: Mapping[str, Any]
) -> tuple[dict[str, Any], bool]:
    """The metadata to upsert so the record ends up holding ``expected``, and whether the stored
    metadata already is that. Under a profile whose upsert merges metadata and drops None-valued
    keys (Chroma), a key the documents no longer give is written as None, which removes it."""
    profile = core.profile
    drops_none = profile.none_removes_key
    wanted = {k: v for k, v in expected.items() if not (drops_none and v is None)}
    same = stored is not None and _canonical(stored) == _canonical(wanted)
    write = dict(expected)
    if stored is not None and profile.upsert_metadata == "merge" and drops_none:
        write.update({key: None for key in stored if key not in expected})
    return write, same


def seed_store(
    store: object,
    documents: Iterable[Document],
    *,
    namespace: str = "",
    chunker: Chunker | None = None,
    batch_size: int = 512,
    progress: Callable[[int, int], None] | None = None,
) -> SeedReport:
    """Make ``namespace`` hold exactly the chunks of ``documents``; report what changed.

    ``store`` is a :class:`FakeVectorStore` or an adapter store exposing ``.core_store``; its
    embedder computes the vectors. Every chunk is embedded (``batch_size`` texts at a time, then
    ``progress(done, total)`` is called) and compared with what the namespace holds; the missing or
    different ones are written and every id the namespace holds that the documents no longer
    produce is deleted, all in one store batch: a malformed document or metadata value the store
    rejects leaves the namespace untouched.
    """
    return seed_namespaces(
        store, {namespace: documents}, chunker=chunker, batch_size=batch_size, progress=progress
    )[namespace]


def seed_namespaces(
    store: object,
    tenants: Mapping[str, Iterable[Document]],
    *,
    chunker: Chunker | None = None,
    batch_size: int = 512,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, SeedReport]:
    """Seed one namespace per tenant (``{namespace: documents}``), all or nothing.

    Namespaces of the store that are not in ``tenants`` are left alone: the drift check reports
    them as an unexpected tenant set. Every tenant's documents are chunked, embedded and compared
    first; then all the writes and deletes go to the store in one batch, so a document any tenant
    gets wrong leaves every namespace as it was.
    """
    core = core_store_of(store)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be an int >= 1, got {shown(batch_size)}")
    if not isinstance(tenants, Mapping):
        raise TypeError(
            f"tenants must be a mapping of namespace to documents, got {type(tenants).__name__}"
        )
    for name in tenants:
        if not isinstance(name, str):
            raise TypeError(f"namespace must be a str, got {type(name).__name__} {shown(name)}")
    for name, docs in tenants.items():
        if isinstance(docs, str | bytes | Mapping) or not isinstance(docs, Iterable):
            raise TypeError(
                f"the documents of namespace {shown(name)} must be an iterable of Document, "
                f"got {type(docs).__name__}"
            )
    plans = {name: list(docs) for name, docs in sorted(tenants.items())}
    for docs in plans.values():
        _check_documents(docs, core.profile.nested_metadata, core.profile.metadata_rule)
    reports: dict[str, SeedReport] = {}
    with core.batch() as batch:
        for name, docs in plans.items():
            writes, stale, total = _plan_namespace(
                core, docs, name, chunker=chunker, batch_size=batch_size, progress=progress
            )
            batch.upsert_many(writes, namespace=name)
            batch.delete(stale, namespace=name)
            reports[name] = SeedReport(
                namespace=name,
                upserted=len(writes),
                unchanged=total - len(writes),
                deleted=len(stale),
            )
    return reports


def _plan_namespace(
    core: FakeVectorStore,
    documents: list[Document],
    namespace: str,
    *,
    chunker: Chunker | None,
    batch_size: int,
    progress: Callable[[int, int], None] | None,
) -> tuple[list[dict[str, Any]], list[str], int]:
    """What seeding ``namespace`` must write and delete: (records to upsert, stale ids, chunks)."""
    embedder = core.embedder
    chunks = chunk_documents(documents, chunker)
    ids, texts, metadata, matrix = core.snapshot(namespace)
    row_of = {record_id: row for row, record_id in enumerate(ids)}
    writes: list[dict[str, Any]] = []
    total = len(chunks)
    for first in range(0, total, batch_size):
        batch = chunks[first : first + batch_size]
        vectors = embedder.embed_many([chunk.text for chunk in batch]).astype(np.float32)
        rows = [row_of.get(chunk.id, -1) for chunk in batch]
        stored = [i for i, row in enumerate(rows) if row >= 0]
        same_vector = np.zeros(len(batch), dtype=bool)
        if stored:
            same_vector[stored] = _unchanged_rows(
                matrix[[rows[i] for i in stored]], vectors[stored]
            )
        for i, (chunk, row) in enumerate(zip(batch, rows, strict=True)):
            meta, same_meta = _metadata_to_write(
                core, metadata[row] if row >= 0 else None, chunk.metadata
            )
            if same_vector[i] and texts[row] == chunk.text and same_meta:
                continue
            writes.append(
                {
                    "id": chunk.id,
                    "text": chunk.text,
                    "metadata": meta,
                    "vector": vectors[i],
                }
            )
        if progress is not None:
            progress(min(first + batch_size, total), total)
    stale = sorted(set(ids) - {chunk.id for chunk in chunks})
    return writes, stale, total
