"""The JSON file a ``PlaceboVectorStore`` persists to (never pickle: the file is data, not code).

Format, version 1 (one UTF-8 JSON object)::

    {
      "format": "placeborag.llamaindex.vector_store",
      "version": 1,
      "store": {"profile": "chroma", "metric": null, "filter_mode": "pre", "recall": 1.0,
                "visibility": "immediate", "orphaned_ids": false, "namespace": ""},
      "namespaces": {
        "": [{"id": "n1", "text": "node text", "metadata": {...}, "vector": [0.1, ...]}, ...]
      }
    }

``store`` holds the constructor fields of the store, ``namespaces`` every namespace that holds
records, each a list of records in the profile's listing order. ``metadata`` is what the store
keeps for a node: the node's own metadata plus LlamaIndex's bookkeeping keys (``_node_content``,
``_node_type``, ``doc_id``, ``document_id``, ``ref_doc_id``). Floats are written with ``repr``
precision, so vectors come back bit for bit. Writes that are still pending (``visibility=
"manual"``) and orphaned ids are not part of the file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from placeborag_core import FakeVectorStore, Record

__all__ = ["FORMAT", "VERSION", "load_records", "payload_of", "read_payload", "write_payload"]

FORMAT = "placeborag.llamaindex.vector_store"
VERSION = 1
_RECORD_KEYS = frozenset({"id", "text", "metadata", "vector"})


def payload_of(store: FakeVectorStore, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The file's content for the core ``store`` of a ``PlaceboVectorStore`` built with the
    constructor ``fields``: every namespace, each in listing order."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "store": dict(fields),
        "namespaces": {
            name: [_record_json(store.get(i, namespace=name)) for i in store.ids(name)]
            for name in store.namespaces()
        },
    }


def load_records(store: FakeVectorStore, payload: Mapping[str, Any]) -> None:
    """Write the records of a payload read by ``read_payload`` into the core ``store``; they
    are visible at once, as they were when written."""
    for name, records in payload["namespaces"].items():
        store.upsert_many(records, namespace=name)
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
    """Read and check a file written by ``write_payload``; ``ValueError`` says what is wrong."""
    if fs is None:
        with open(persist_path, encoding="utf-8") as handle:
            raw = handle.read()
    else:
        with fs.open(persist_path, "r", encoding="utf-8") as handle:
            raw = handle.read()
    try:
        payload = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(f"{persist_path} is not a JSON file: {error}") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise ValueError(
            f"{persist_path} is not a PlaceboVectorStore file: expected "
            f'"format": "{FORMAT}" at the top level'
        )
    if payload.get("version") != VERSION:
        raise ValueError(
            f"{persist_path} has format version {payload.get('version')!r}; "
            f"this placeborag reads version {VERSION}"
        )
    _check_shape(payload, persist_path)
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
