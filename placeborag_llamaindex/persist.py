"""The JSON file a ``PlaceboVectorStore`` persists to (never pickle: the file is data, not code).

Format, version 2 (one UTF-8 JSON object)::

    {
      "format": "placeborag.llamaindex.vector_store",
      "version": 2,
      "store": {"profile": "chroma", "metric": null, "filter_mode": "pre", "recall": 1.0,
                "visibility": "immediate", "orphaned_ids": false, "namespace": ""},
      "namespaces": {
        "": [{"id": "n1", "text": "node text", "metadata": {...}, "vector": [0.1, ...]}, ...]
      },
      "embedding_dict": {"placeborag": ["This file was written by ..."]}
    }

``store`` holds the constructor fields of the store (``stores_text`` only where it is not the
profile's own: ``false`` under the default profile's opt-in), plus ``no_collection`` where the
store's collection state is not the one a fresh store loaded with the same records has (a
qdrant collection emptied by deletes: ``false``; a milvus store after ``clear()``: ``true``),
``namespaces`` every namespace
that holds records, each a list of records in the profile's listing order. ``metadata`` is what
the store keeps for a node: the node's own metadata plus LlamaIndex's bookkeeping keys
(``_node_content``, ``_node_type``, ``doc_id``, ``document_id``, ``ref_doc_id``). Floats are
written with ``repr`` precision, so vectors come back bit for bit.

``embedding_dict`` is a guard for LlamaIndex: ``StorageContext.from_defaults(persist_dir=...)``
without ``vector_store=`` reads ``default__vector_store.json`` as a ``SimpleVectorStore``, which
would silently come up empty; the guard makes that load fail with ``ValueError: could not
convert string to float: 'This file was written by ...'`` saying how to load the file instead.
Readers ignore it. Version 1 files (the same without the guard) are still read.

A store holding writes that wait for ``refresh()`` or orphaned ids (``orphaned_ids=True``) is
refused with ``ValueError`` before anything is written: neither has a place in the file, and
dropping them would silently change what queries return. Pickling keeps both.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from placeborag_core import FakeVectorStore, Record
from placeborag_core.adapter_kit import shown

__all__ = [
    "FORMAT",
    "GUARD",
    "VERSION",
    "MissingFileError",
    "check_payload",
    "is_ours",
    "load_records",
    "payload_of",
    "read_payload",
    "write_payload",
]

FORMAT = "placeborag.llamaindex.vector_store"
VERSION = 2
_READABLE = (1, 2)
_RECORD_KEYS = frozenset({"id", "text", "metadata", "vector"})
_TOP_KEYS = frozenset({"format", "version", "store", "namespaces", "embedding_dict"})
GUARD = (
    "This file was written by placeborag_llamaindex.PlaceboVectorStore, not by "
    "SimpleVectorStore: load it with store = PlaceboVectorStore.from_persist_dir(persist_dir) "
    "and StorageContext.from_defaults(persist_dir=persist_dir, vector_store=store)"
)
"""The text LlamaIndex shows when it reads the file as a ``SimpleVectorStore``."""


class MissingFileError(FileNotFoundError, ValueError):
    """No file at the path read: a ``ValueError``, as ``SimpleVectorStore.from_persist_path``
    raises, and a ``FileNotFoundError``, as ``open`` does."""


def payload_of(store: FakeVectorStore, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The file's content for the core ``store`` of a ``PlaceboVectorStore`` built with the
    constructor ``fields``: every namespace, each in listing order. ``ValueError`` if the store
    holds what the file cannot (see the module docstring)."""
    _refuse_unsaveable(store)
    return {
        "format": FORMAT,
        "version": VERSION,
        "store": dict(fields),
        "namespaces": {
            name: [_record_json(store.get(i, namespace=name)) for i in store.ids(name)]
            for name in store.namespaces()
        },
        "embedding_dict": {"placeborag": [GUARD]},
    }


def _refuse_unsaveable(store: FakeVectorStore) -> None:
    if store.pending_writes:
        raise ValueError(
            f"persist() would lose {store.pending_writes} writes waiting for refresh() "
            '(visibility="manual"): call refresh() first, or pickle the store, which keeps them'
        )
    if not store.orphaned_ids or store.dimension is None:
        return
    probe = [1.0] + [0.0] * (store.dimension - 1)
    for name in store.namespaces():
        orphans = [t.id for t in store.trace(probe, namespace=name) if t.status == "orphaned"]
        if orphans:
            raise ValueError(
                f"persist() would lose {len(orphans)} orphaned ids of namespace {shown(name)} "
                f"({orphans[:3]}...): call core_store.compact() first, or pickle the store, "
                "which keeps them"
            )


def load_records(store: FakeVectorStore, payload: Mapping[str, Any], source: str) -> None:
    """Write the records of a payload checked by ``check_payload`` into the core ``store``, all
    at once; they are visible at once, as they were when written. A record the store refuses
    raises ``ValueError`` naming ``source``."""
    try:
        with store.batch() as batch:
            for name, records in payload["namespaces"].items():
                batch.upsert_many(records, namespace=name)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{source}: a record cannot be loaded: {error}") from None
    if store.visibility == "manual":
        store.refresh()


def _record_json(record: Record | None) -> dict[str, Any]:
    assert record is not None  # listed by ids(), so visible
    assert record.vector is not None
    return {
        "id": record.id,
        "text": record.text,
        "metadata": dict(record.metadata),
        "vector": [float(x) for x in record.vector],
    }


def write_payload(payload: Mapping[str, Any], persist_path: str, fs: Any | None) -> None:
    """Write ``payload`` as JSON to ``persist_path`` (local disk unless ``fs`` is given)."""
    text = json.dumps(payload, ensure_ascii=False, allow_nan=False)
    if fs is None:
        directory = os.path.dirname(persist_path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        with open(persist_path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    directory = os.path.dirname(persist_path)
    if directory:
        fs.makedirs(directory, exist_ok=True)
    with fs.open(persist_path, "w", encoding="utf-8") as handle:
        handle.write(text)


def read_payload(persist_path: str, fs: Any | None) -> dict[str, Any]:
    """Read and check a file written by ``write_payload``; ``ValueError`` naming the file says
    what is wrong (a missing file: :class:`MissingFileError`, both a ``ValueError`` and a
    ``FileNotFoundError``)."""
    return check_payload(read_json(persist_path, fs), persist_path)


def read_json(persist_path: str, fs: Any | None) -> Any:
    """The JSON value of ``persist_path``; ``ValueError`` naming the file if it is not JSON."""
    raw: Any
    try:
        if fs is None:
            with open(persist_path, "rb") as handle:
                raw = handle.read()
        else:
            with fs.open(persist_path, "rb") as handle:
                raw = handle.read()
    except FileNotFoundError:
        raise MissingFileError(
            2, "No existing PlaceboVectorStore file found (persist() writes one)", persist_path
        ) from None
    if isinstance(raw, str):  # a filesystem that ignores "b"
        raw = raw.encode("utf-8", "surrogatepass")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{persist_path} is not a PlaceboVectorStore file: not UTF-8 text "
            f"({error.reason} at byte {error.start})"
        ) from None
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{persist_path}:{error.lineno} is not a JSON file: {error.msg}") from None
    except (RecursionError, ValueError) as error:  # nesting, or an integer of 4,300+ digits
        reason = "nested too deep" if isinstance(error, RecursionError) else str(error)
        raise ValueError(f"{persist_path} cannot be read as JSON: {reason}") from None
    return payload


def is_ours(persist_path: str, fs: Any | None) -> bool:
    """Whether ``persist_path`` claims to be a PlaceboVectorStore file (a JSON object whose
    ``format`` is ours); it is checked in full when read."""
    try:
        payload = read_json(persist_path, fs)
    except ValueError:
        return False
    return isinstance(payload, dict) and payload.get("format") == FORMAT


def check_payload(payload: Any, source: str) -> dict[str, Any]:
    """``payload`` if it is a store written by ``payload_of``; ``ValueError`` naming ``source``
    and what is wrong otherwise."""
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise ValueError(
            f"{source} is not a PlaceboVectorStore file: expected "
            f'"format": "{FORMAT}" at the top level'
        )
    if payload.get("version") not in _READABLE:
        raise ValueError(
            f"{source} has format version {shown(payload.get('version'))}; "
            f"this placeborag reads versions {', '.join(map(str, _READABLE))}"
        )
    unknown = sorted(set(payload) - _TOP_KEYS)
    if unknown:
        raise ValueError(
            f"{source}: unknown top-level keys {unknown}; allowed: {sorted(_TOP_KEYS)}"
        )
    _check_shape(payload, source)
    return payload


def _check_shape(payload: dict[str, Any], persist_path: str) -> None:
    if not isinstance(payload.get("store"), dict):
        raise ValueError(f'{persist_path}: "store" must be an object of constructor fields')
    namespaces = payload.get("namespaces")
    if not isinstance(namespaces, dict):
        raise ValueError(f'{persist_path}: "namespaces" must map namespace names to records')
    for name, records in namespaces.items():
        if not isinstance(records, list):
            raise ValueError(f'{persist_path}: namespace "{name}" must hold a list of records')
        for index, record in enumerate(records):
            if not isinstance(record, dict) or set(record) != _RECORD_KEYS:
                raise ValueError(
                    f'{persist_path}: namespace "{name}" record {index} must have exactly the '
                    f"keys {sorted(_RECORD_KEYS)}"
                )
