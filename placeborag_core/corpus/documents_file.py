"""Documents files: JSON Lines of ``{"id", "text", "metadata", "namespace"}`` objects, read whole
and checked line by line, so a bad line is reported as ``file:line`` before anything is seeded."""

from __future__ import annotations

import json
from pathlib import Path

from placeborag_core.corpus import strict_json
from placeborag_core.corpus.seeding import CHUNK_METADATA_KEYS, Document
from placeborag_core.limits import MAX_METADATA_DEPTH, nesting_depth_exceeds
from placeborag_core.messages import shown
from placeborag_core.store.inputs import check_metadata
from placeborag_core.unicode_text import require_unicode

__all__ = ["DocumentsFileError", "read_documents_jsonl"]


class DocumentsFileError(ValueError):
    """A documents file cannot be read or a line of it is malformed (names the file and line)."""


_DOCUMENT_KEYS = {"id", "text", "metadata", "namespace"}


def _parse_document_line(line: str, where: str) -> tuple[str, Document]:
    try:
        data = strict_json.loads(line)
    except json.JSONDecodeError as error:
        raise DocumentsFileError(f"{where}: invalid JSON ({error.msg})") from None
    except (RecursionError, ValueError) as error:  # nesting, or an integer of 4,300+ digits
        reason = "nested too deep" if isinstance(error, RecursionError) else str(error)
        raise DocumentsFileError(f"{where}: cannot read the JSON ({reason})") from None
    if not isinstance(data, dict):
        raise DocumentsFileError(f"{where}: expected a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - _DOCUMENT_KEYS)
    if unknown:
        raise DocumentsFileError(
            f"{where}: unknown keys {unknown} (allowed: {sorted(_DOCUMENT_KEYS)})"
        )
    doc_id, text = data.get("id"), data.get("text")
    metadata, namespace = data.get("metadata", {}), data.get("namespace", "")
    if not isinstance(doc_id, str) or not doc_id:
        raise DocumentsFileError(f"{where}: 'id' must be a non-empty string, got {shown(doc_id)}")
    if not isinstance(text, str):
        raise DocumentsFileError(f"{where}: 'text' must be a string, got {type(text).__name__}")
    if not isinstance(metadata, dict):
        raise DocumentsFileError(
            f"{where}: 'metadata' must be an object, got {type(metadata).__name__}"
        )
    if not isinstance(namespace, str):
        raise DocumentsFileError(
            f"{where}: 'namespace' must be a string, got {type(namespace).__name__}"
        )
    reserved = sorted(set(metadata) & set(CHUNK_METADATA_KEYS))
    if reserved:
        raise DocumentsFileError(f"{where}: metadata keys {reserved} are reserved for chunks")
    try:
        for value, what in ((doc_id, "'id'"), (text, "'text'"), (namespace, "'namespace'")):
            require_unicode(value, what)
        if nesting_depth_exceeds(metadata, MAX_METADATA_DEPTH + 1):
            raise ValueError(
                f"'metadata' is nested more than {MAX_METADATA_DEPTH} levels deep; flatten it"
            )
        check_metadata(doc_id, metadata, nested=True)
    except (TypeError, ValueError) as error:
        raise DocumentsFileError(f"{where}: {error}") from None
    return namespace, Document(doc_id, text, metadata)


def read_documents_jsonl(path: str | Path) -> dict[str, list[Document]]:
    """Read a JSONL file of documents into ``{namespace: [Document, ...]}``.

    One JSON object per line: ``{"id": str, "text": str, "metadata": {...}, "namespace": str}``
    (``metadata`` and ``namespace`` optional, namespace default ``""``); blank lines are skipped.
    Any problem raises :class:`DocumentsFileError` naming the file and the 1-based line.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.readlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise DocumentsFileError(f"{path}: cannot read: {reason}") from None
    tenants: dict[str, list[Document]] = {}
    first_line: dict[tuple[str, str], int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        namespace, doc = _parse_document_line(line, where)
        key = (namespace, doc.id)
        if key in first_line:
            raise DocumentsFileError(
                f"{where}: document id {shown(doc.id)} already used on line {first_line[key]} "
                f"(namespace {shown(namespace)})"
            )
        first_line[key] = number
        tenants.setdefault(namespace, []).append(doc)
    return tenants
