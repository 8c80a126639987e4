"""Milvus primary keys: VARCHAR (any str) or INT64, listed in key order.

Milvus lists records (``query``) in primary-key order: byte order of the UTF-8 text for VARCHAR
keys, numeric order for INT64 keys. The store's record ids are strings; under the INT64 profile a
record id is the decimal spelling of the key (``"007"`` is key 7, stored as ``"7"``).
Facts: ``docs/engines/milvus.md#ties-and-listing`` and ``#errors-and-k``.
"""

from __future__ import annotations

import re

__all__ = [
    "INT64_MESSAGE",
    "VARCHAR_MESSAGE",
    "canonical_int64",
    "canonical_int64_record",
    "canonical_varchar",
    "external_int64",
    "int64_key",
    "varchar_key",
]

_INT = re.compile(r"[+-]?[0-9]+")
_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1

VARCHAR_MESSAGE = (
    "The Input data type is inconsistent with defined schema, {{id}} field should be a varchar, "
    "but got a {{<class 'int'>}} instead. Detail: {id!r} is not a str"
)
INT64_MESSAGE = (
    "The Input data type is inconsistent with defined schema, {{id}} field should be a int64, "
    "but got a {{<class 'str'>}} instead. Detail: {id!r} cannot be interpreted as an integer"
)


def canonical_varchar(key: object) -> str | None:
    """A VARCHAR key as the client takes it: any str (Milvus Lite accepts ``""`` too)."""
    return key if isinstance(key, str) else None


def varchar_key(record_id: str) -> bytes:
    """Milvus's order of VARCHAR keys: the bytes of their UTF-8 text."""
    return record_id.encode("utf-8", "surrogatepass")


def canonical_int64(key: object) -> str | None:
    """An INT64 key as the client takes it (an int in the int64 range, not a bool)."""
    if isinstance(key, bool) or not isinstance(key, int):
        return None
    return str(key) if _I64_MIN <= key <= _I64_MAX else None


def canonical_int64_record(record_id: str) -> str | None:
    """A store record id under the INT64 profile: the decimal spelling of an int64."""
    if not _INT.fullmatch(record_id):
        return None
    return canonical_int64(int(record_id))


def int64_key(record_id: str) -> int:
    """Milvus's order of INT64 keys: numeric."""
    return int(record_id)


def external_int64(record_id: str) -> int:
    """An INT64 key as Milvus reports it: an int."""
    return int(record_id)
