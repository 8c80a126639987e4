"""Milvus: the profiles ``milvus`` (VARCHAR keys) and ``milvus_int64`` (INT64 keys), the reader
of Milvus filter expressions, and Milvus's error types. Facts: ``docs/engines/milvus.md``."""
