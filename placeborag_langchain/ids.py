"""Document ids: deterministic generation and Qdrant's id rules.

Real integrations name a document without an id with `uuid4()`, so two runs of the same test
store different ids. Here a generated id is a digest of what is being added: the text, the
metadata (canonical JSON, keys sorted) and an ordinal, the count of ids this store has generated
before. The same sequence of adds therefore yields the same ids on every run and machine, while
adding the same text twice still yields two documents (as with uuid4). The digest is formatted
the way the real integration formats its random ids (dashed UUID, or 32 hex digits for Qdrant).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from typing import Any, Literal

__all__ = ["canonical_qdrant_id", "external_qdrant_id", "generated_id"]

_ID_SCHEME = b"placeborag-langchain-id-v1"


def _canonical_json(metadata: Mapping[str, Any]) -> str:
    return json.dumps(metadata, sort_keys=True, separators=(",", ":"), default=repr)


def generated_id(
    text: str, metadata: Mapping[str, Any], ordinal: int, style: Literal["uuid", "hex"]
) -> str:
    """A deterministic id for a document added without one.

    `sha256(scheme, text, canonical metadata JSON, ordinal)`, the first 16 bytes as a
    name-based (version 5 layout) UUID; `style="hex"` drops the dashes like `uuid4().hex`.
    """
    digest = hashlib.sha256()
    for part in (_ID_SCHEME, text.encode("utf-8"), _canonical_json(metadata).encode("utf-8")):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    digest.update(ordinal.to_bytes(8, "big"))
    value = uuid.UUID(bytes=digest.digest()[:16], version=5)
    return value.hex if style == "hex" else str(value)


def canonical_qdrant_id(point_id: object) -> str | None:
    """The core-store id for a Qdrant point id, or None if Qdrant would reject it.

    Qdrant accepts unsigned ints and UUID strings (any form `uuid.UUID` parses: dashed, 32 hex
    digits, upper case); it stores and reports the dashed lower-case form. Ints are kept as
    their decimal string, which never parses as a UUID, so the mapping is reversible.
    """
    if isinstance(point_id, bool):
        return None
    if isinstance(point_id, int):
        return str(point_id) if point_id >= 0 else None
    if isinstance(point_id, str):
        try:
            return str(uuid.UUID(point_id))
        except ValueError:
            return None
    return None


def external_qdrant_id(core_id: str) -> str | int:
    """What Qdrant reports in `metadata['_id']` for a stored point: an int or a dashed UUID."""
    return int(core_id) if core_id.isdigit() else core_id
