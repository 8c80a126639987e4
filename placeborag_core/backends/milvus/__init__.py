"""Milvus: the profiles ``milvus`` (VARCHAR keys) and ``milvus_int64`` (INT64 keys), the reader
of Milvus filter expressions, and Milvus's error types. Facts: ``docs/engines/milvus.md``.

The package exports what the integrations build on: :func:`read_expression` over a collection's
:class:`Schema` (its key, text and typed fields) and the error types pymilvus and the server
raise."""

from placeborag_core.backends.milvus.errors import (
    MilvusDataError,
    MilvusError,
    MilvusParamError,
)
from placeborag_core.backends.milvus.filters import Schema, read_expression

__all__ = ["MilvusDataError", "MilvusError", "MilvusParamError", "Schema", "read_expression"]
