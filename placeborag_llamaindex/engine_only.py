"""What the real LlamaIndex vector stores take that only a real client or server can serve.

``PlaceboVectorStore`` raises ``NotImplementedError`` naming the argument, method or query mode
and saying why, instead of accepting it and silently doing nothing (the parity tables of
``docs/integrations/llamaindex-parity.md`` list every one). The messages are built here, from one
table, so the constructor, the methods and the docs agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from llama_index.core.vector_stores.types import VectorStoreQueryMode

__all__ = [
    "ENGINE_ONLY_ARGUMENTS",
    "ENGINE_ONLY_MODES",
    "refuse_engine_arguments",
    "refuse_engine_mode",
    "refuse_engine_only",
]

_CHROMA_CLIENT = "ChromaVectorStore's connection to a Chroma collection or server"
_QDRANT_CLIENT = "QdrantVectorStore's connection to a Qdrant server"
_QDRANT_SPARSE = "QdrantVectorStore's sparse vectors and hybrid search (a Qdrant server feature)"
_QDRANT_COLLECTION = "QdrantVectorStore's collection configuration on the Qdrant server"
_QDRANT_SHARDS = "QdrantVectorStore's custom sharding (a Qdrant cluster feature)"
_QDRANT_UPLOAD = "QdrantVectorStore's upload tuning (nothing is uploaded in memory)"
_QDRANT_PAYLOAD = "QdrantVectorStore's payload layout (the double keeps the default one)"
_SIMPLE = "SimpleVectorStore's storage internals (seed with add() or from_core_store())"
_PG_CONNECTION = "PGVectorStore's connection to PostgreSQL (its engines, database and table)"
_PG_TABLE = "PGVectorStore's table definition on the PostgreSQL server"
_PG_INDEX = (
    "PGVectorStore's approximate pgvector index (HNSW); the double is the exact scan, as "
    "PGVectorStore without hnsw_kwargs"
)
_PG_FULL_TEXT = (
    "PGVectorStore's hybrid search over a PostgreSQL full-text (tsvector) column, a server feature"
)

ENGINE_ONLY_ARGUMENTS: Mapping[str, str] = MappingProxyType(
    {
        # ChromaVectorStore(...)
        "chroma_collection": _CHROMA_CLIENT,
        "host": _CHROMA_CLIENT,
        "port": _CHROMA_CLIENT,
        "ssl": _CHROMA_CLIENT,
        "headers": _CHROMA_CLIENT,
        "persist_dir": _CHROMA_CLIENT + " (a PersistentClient directory)",
        "collection_kwargs": _CHROMA_CLIENT,
        # both: each PlaceboVectorStore is its own collection
        "collection_name": (
            "the real stores' collection on the engine (each PlaceboVectorStore is its own "
            "collection; namespace= selects a partition of its core store)"
        ),
        # QdrantVectorStore(...)
        "client": _QDRANT_CLIENT,
        "aclient": _QDRANT_CLIENT,
        "url": _QDRANT_CLIENT,
        "api_key": _QDRANT_CLIENT,
        "client_kwargs": _QDRANT_CLIENT,
        "batch_size": _QDRANT_UPLOAD,
        "parallel": _QDRANT_UPLOAD,
        "max_retries": _QDRANT_UPLOAD,
        "dense_config": _QDRANT_COLLECTION + " (the metric is metric=)",
        "quantization_config": _QDRANT_COLLECTION,
        "payload_indexes": _QDRANT_COLLECTION,
        "index_doc_id": _QDRANT_COLLECTION,
        "enable_hybrid": _QDRANT_SPARSE,
        "fastembed_sparse_model": _QDRANT_SPARSE,
        "sparse_config": _QDRANT_SPARSE,
        "sparse_doc_fn": _QDRANT_SPARSE,
        "sparse_query_fn": _QDRANT_SPARSE,
        "hybrid_fusion_fn": _QDRANT_SPARSE,
        "sparse_vector_name": _QDRANT_SPARSE,
        "dense_vector_name": _QDRANT_PAYLOAD,
        "text_key": _QDRANT_PAYLOAD,
        "shard_number": _QDRANT_SHARDS,
        "sharding_method": _QDRANT_SHARDS,
        "shard_key_selector_fn": _QDRANT_SHARDS,
        "shard_keys": _QDRANT_SHARDS,
        "replication_factor": _QDRANT_SHARDS,
        "write_consistency_factor": _QDRANT_SHARDS,
        "shard_identifier": _QDRANT_SHARDS,
        # PGVectorStore(...) / PGVectorStore.from_params(...)
        "connection_string": _PG_CONNECTION,
        "async_connection_string": _PG_CONNECTION,
        "engine": _PG_CONNECTION,
        "async_engine": _PG_CONNECTION,
        "create_engine_kwargs": _PG_CONNECTION,
        "database": _PG_CONNECTION,
        "user": _PG_CONNECTION,
        "password": _PG_CONNECTION,
        "debug": _PG_CONNECTION,
        "perform_setup": _PG_TABLE,
        "initialization_fail_on_error": _PG_TABLE,
        "table_name": _PG_TABLE,
        "schema_name": _PG_TABLE,
        "embed_dim": _PG_TABLE + " (the double takes the width of the first vector)",
        "use_jsonb": _PG_TABLE + " (the double keeps metadata as the default json column)",
        "use_halfvec": _PG_TABLE + " (half-precision vectors)",
        "indexed_metadata_keys": _PG_TABLE + " (metadata indexes)",
        "cache_ok": _PG_TABLE,
        "customize_query_fn": "PGVectorStore's SQLAlchemy query customisation",
        "hnsw_kwargs": _PG_INDEX,
        "hybrid_search": _PG_FULL_TEXT,
        "text_search_config": _PG_FULL_TEXT,
        # SimpleVectorStore(...)
        "data": _SIMPLE,
        "fs": "SimpleVectorStore's default filesystem (pass fs= to persist() instead)",
    }
)
"""Constructor (and, for ``shard_identifier``, method) arguments of the real stores that only a
real client or server can serve, with the reason given in the ``NotImplementedError``."""

_SPARSE_MODES = (
    "a search of a sparse or full-text index (a server feature, as in hybrid search: Qdrant's "
    "sparse vectors, PGVectorStore's hybrid_search tsvector column)"
)
_LEARNERS = "a scikit-learn model fitted per query (SimpleVectorStore only)"

ENGINE_ONLY_MODES: Mapping[VectorStoreQueryMode, str] = MappingProxyType(
    {
        VectorStoreQueryMode.SPARSE: _SPARSE_MODES,
        VectorStoreQueryMode.HYBRID: _SPARSE_MODES,
        VectorStoreQueryMode.TEXT_SEARCH: _SPARSE_MODES,
        VectorStoreQueryMode.SEMANTIC_HYBRID: _SPARSE_MODES,
        VectorStoreQueryMode.SVM: _LEARNERS,
        VectorStoreQueryMode.LOGISTIC_REGRESSION: _LEARNERS,
        VectorStoreQueryMode.LINEAR_REGRESSION: _LEARNERS,
    }
)
"""Query modes a real store may serve and the double does not, with the reason."""


def refuse_engine_only(what: str, reason: str) -> NotImplementedError:
    """The error for one engine-only feature (returned, for ``raise``)."""
    return NotImplementedError(
        f"PlaceboVectorStore does not provide {what}: it is {reason}. A test double holds its "
        "records in memory (core_store); see docs/integrations/llamaindex-parity.md"
    )


def refuse_engine_arguments(names: Iterable[str], call: str) -> None:
    """Raise ``NotImplementedError`` for the first engine-only argument among ``names``."""
    for name in names:
        reason = ENGINE_ONLY_ARGUMENTS.get(name)
        if reason is not None:
            raise refuse_engine_only(f"{call} argument {name}=", reason)


def refuse_engine_mode(mode: VectorStoreQueryMode) -> None:
    """Raise ``NotImplementedError`` if ``mode`` is one only a real engine serves."""
    reason = ENGINE_ONLY_MODES.get(mode)
    if reason is not None:
        raise refuse_engine_only(f"query mode {mode.value!r}", reason)
