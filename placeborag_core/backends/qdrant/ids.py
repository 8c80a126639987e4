"""Qdrant point ids: unsigned 64-bit ints or UUIDs, ordered ints first (by value), then UUIDs.

The store's record ids are strings, so a point id is kept as its decimal digits (an int) or as
the dashed lower-case UUID Qdrant reports (any form ``uuid.UUID`` parses is accepted).
Facts: ``docs/engines/qdrant.md#ids``.
"""

from __future__ import annotations

import re
import uuid

__all__ = [
    "MESSAGE",
    "canonical_point_id",
    "canonical_record_id",
    "external_point_id",
    "point_id_key",
]

MESSAGE = "Point id {id} is not a valid UUID"
_UINT = re.compile(r"[0-9]+")
_U64 = 2**64


def canonical_point_id(point_id: object) -> str | None:
    """The record id of a point id as Qdrant's client takes it (an unsigned int, or a str that
    is a UUID), or None if Qdrant would reject it."""
    if isinstance(point_id, bool):
        return None
    if isinstance(point_id, int):
        return str(point_id) if 0 <= point_id < _U64 else None
    if not isinstance(point_id, str):
        return None
    try:
        return str(uuid.UUID(point_id))
    except ValueError:
        return None


def canonical_record_id(record_id: str) -> str | None:
    """A store record id under the qdrant profile: a str of digits stands for that unsigned-int
    point id, any other str must be a UUID."""
    if _UINT.fullmatch(record_id):
        return canonical_point_id(int(record_id))
    return canonical_point_id(record_id)


def point_id_key(record_id: str) -> tuple[int, int]:
    """Qdrant's order of point ids: unsigned ints first (by value), then UUIDs (by value); an id
    Qdrant would reject sorts last."""
    if _UINT.fullmatch(record_id):
        value = int(record_id)
        if value < _U64:
            return (0, value)
    try:
        return (1, uuid.UUID(record_id).int)
    except ValueError:
        return (2, 0)


def external_point_id(record_id: str) -> str | int:
    """A point id as Qdrant reports it: an int for an unsigned-int id, else the UUID string."""
    return int(record_id) if _UINT.fullmatch(record_id) else record_id
