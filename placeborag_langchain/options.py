"""The real classes' own constructor and factory options, read into the store's options.

`PlaceboVectorStore(profile=...)`, `from_texts`, `from_documents`, `from_embeddings` and
`from_existing_collection` take the keyword options the real class of the profile takes, so a
call written for `Chroma.from_texts`, `QdrantVectorStore.from_texts` or `FAISS.from_texts` works
with `profile=` added. Each option is one of:

* mapped onto a store option (Chroma's `collection_metadata={"hnsw:space": ...}` and
  `collection_configuration`, Qdrant's `distance`: the metric; Chroma's `embedding_function`
  and PGVector's `embeddings`: the embedding);
* kept (Qdrant's `content_payload_key` / `metadata_payload_key`, which decide the filter keys);
* accepted with no effect on a store in memory (Qdrant's `vector_name`, `batch_size`,
  `validate_*`, the in-process `location=":memory:"`; PGVector's `connection`, `engine_args`,
  `async_mode`, ...);
* refused with `NotImplementedError` naming it when it needs a real client or server (`client`,
  HTTP and cloud settings, on-disk clients, an existing FAISS index or docstore, Qdrant's
  sparse and hybrid retrieval modes), unless it is given its default value.

An option of another profile's class raises TypeError listing the options of this one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["IntegrationOptions", "read_options"]

_NEEDS_CLIENT = (
    "{cls} option {name}={value!r} needs a real {what}; placeborag keeps the store in memory. "
    "Leave it out (or at its default {default!r})"
)


@dataclass
class IntegrationOptions:
    """What a call's real-class options amount to."""

    embedding: Any = None
    metric: str | None = None
    content_payload_key: str = "page_content"
    metadata_payload_key: str = "metadata"
    field_names: dict[str, Any] = field(default_factory=dict)
    distance_setting: str | None = None
    overwrite: bool | None = None


@dataclass(frozen=True)
class _Option:
    """One option: `apply(value, options, profile)` reads it; `default` is the value that
    needs nothing (for the refused ones)."""

    apply: Callable[[Any, IntegrationOptions, str], None] | None = None
    refuse: str | None = None  # what it needs ("Chroma client", "Qdrant server", ...)
    default: Any = None
    defaults: tuple[Any, ...] = field(default_factory=tuple)


def _ignore(value: Any, options: IntegrationOptions, profile: str) -> None:
    del value, options, profile


def _str_option(name: str) -> Callable[[Any, IntegrationOptions, str], None]:
    def check(value: Any, options: IntegrationOptions, profile: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__}")

    return check


def _bool_option(name: str) -> Callable[[Any, IntegrationOptions, str], None]:
    def check(value: Any, options: IntegrationOptions, profile: str) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be a bool, got {type(value).__name__}")

    return check


def _embedding_function(value: Any, options: IntegrationOptions, profile: str) -> None:
    options.embedding = value


def _set_metric(options: IntegrationOptions, metric: str, source: str) -> None:
    if options.metric is not None and options.metric != metric:
        raise ValueError(
            f"{source} asks for metric {metric!r}, but another option already chose "
            f"{options.metric!r}; give the distance once"
        )
    options.metric = metric


def _chroma_space(value: Any, source: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{source} must be a str ('l2', 'cosine' or 'ip'), got {value!r}")
    return value


def _collection_metadata(value: Any, options: IntegrationOptions, profile: str) -> None:
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise TypeError(f"collection_metadata must be a dict, got {type(value).__name__}")
    space = _chroma_space(value.get("hnsw:space"), "collection_metadata['hnsw:space']")
    if space is not None:
        _set_metric(options, space, "collection_metadata['hnsw:space']")


def _collection_configuration(value: Any, options: IntegrationOptions, profile: str) -> None:
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise TypeError(f"collection_configuration must be a dict, got {type(value).__name__}")
    for index in ("hnsw", "spann"):
        part = value.get(index)
        if part is None:
            continue
        if not isinstance(part, Mapping):
            raise TypeError(
                f"collection_configuration[{index!r}] must be a dict, got {type(part).__name__}"
            )
        space = _chroma_space(part.get("space"), f"collection_configuration[{index!r}]['space']")
        if space is not None:
            _set_metric(options, space, f"collection_configuration[{index!r}]['space']")


def _qdrant_distance(value: Any, options: IntegrationOptions, profile: str) -> None:
    name = getattr(value, "value", value)  # models.Distance is a str enum ("Cosine", ...)
    if not isinstance(name, str):
        raise TypeError(
            "distance must be a qdrant_client.models.Distance or its value ('Cosine', 'Dot', "
            f"'Euclid', 'Manhattan'), got {value!r}"
        )
    _set_metric(options, name.lower(), "distance")


def _payload_key(name: str) -> Callable[[Any, IntegrationOptions, str], None]:
    def apply(value: Any, options: IntegrationOptions, profile: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__}")
        setattr(options, name, value)

    return apply


def _retrieval_mode(value: Any, options: IntegrationOptions, profile: str) -> None:
    mode = getattr(value, "value", value)
    if mode == "dense":
        return
    if mode in ("sparse", "hybrid"):
        raise NotImplementedError(
            f"QdrantVectorStore option retrieval_mode={value!r} needs sparse vectors, which "
            "placeborag does not imitate; only RetrievalMode.DENSE is supported"
        )
    raise ValueError(
        f"retrieval_mode must be RetrievalMode.DENSE, SPARSE or HYBRID ('dense', 'sparse', "
        f"'hybrid'), got {value!r}"
    )


def _sparse_embedding(value: Any, options: IntegrationOptions, profile: str) -> None:
    if value is not None:
        raise NotImplementedError(
            "QdrantVectorStore option sparse_embedding needs sparse vectors, which placeborag "
            "does not imitate; leave it out (RetrievalMode.DENSE)"
        )


def _location(value: Any, options: IntegrationOptions, profile: str) -> None:
    if value not in (None, ":memory:"):
        raise NotImplementedError(
            f"QdrantVectorStore option location={value!r} needs a Qdrant server; placeborag "
            "keeps the collection in memory: leave it out or pass location=':memory:'"
        )


def _create_collection(value: Any, options: IntegrationOptions, profile: str) -> None:
    if value is not True and value is not None:
        raise NotImplementedError(
            f"Chroma option create_collection_if_not_exists={value!r} opens an existing "
            "collection, which needs a real Chroma client; leave it at True"
        )


def _milvus_index_params(value: Any, options: IntegrationOptions, profile: str) -> None:
    if value is None:
        return
    if isinstance(value, list):
        if len(value) != 1:
            raise NotImplementedError(
                "Milvus option index_params with several entries is for several vector "
                "fields, which placeborag does not imitate; give one dict"
            )
        value = value[0]
    if not isinstance(value, Mapping):
        raise TypeError(f"index_params must be a dict, got {type(value).__name__}")
    metric = value.get("metric_type", "L2")
    if not isinstance(metric, str) or metric.upper() not in ("L2", "IP", "COSINE"):
        raise NotImplementedError(
            f"Milvus index_params metric_type={metric!r}: placeborag imitates the dense float "
            "metrics L2, IP and COSINE"
        )
    _set_metric(options, metric.lower(), "index_params['metric_type']")


def _milvus_field(name: str) -> Callable[[Any, IntegrationOptions, str], None]:
    def apply(value: Any, options: IntegrationOptions, profile: str) -> None:
        if not isinstance(value, str) or not value:
            raise TypeError(f"{name} must be a non-empty str, got {value!r}")
        options.field_names[name] = value

    return apply


def _milvus_dynamic(value: Any, options: IntegrationOptions, profile: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"enable_dynamic_field must be a bool, got {type(value).__name__}")
    options.field_names["dynamic"] = value


def _milvus_auto_id(value: Any, options: IntegrationOptions, profile: str) -> None:
    if value:
        raise NotImplementedError(
            "Milvus option auto_id=True gives documents INT64 keys from the server's clock, "
            "which placeborag does not imitate; leave it False and pass ids="
        )


_CHROMA_CLIENT = "Chroma client or server"
_QDRANT_SERVER = "Qdrant client or server"

_CHROMA: dict[str, _Option] = {
    "embedding_function": _Option(_embedding_function),
    "collection_metadata": _Option(_collection_metadata),
    "collection_configuration": _Option(_collection_configuration),
    "create_collection_if_not_exists": _Option(_create_collection),
    "client": _Option(refuse=_CHROMA_CLIENT),
    "client_settings": _Option(refuse=_CHROMA_CLIENT),
    "persist_directory": _Option(refuse="Chroma client writing to disk"),
    "host": _Option(refuse=_CHROMA_CLIENT),
    "port": _Option(refuse=_CHROMA_CLIENT),
    "ssl": _Option(refuse=_CHROMA_CLIENT, default=False),
    "headers": _Option(refuse=_CHROMA_CLIENT),
    "chroma_cloud_api_key": _Option(refuse="Chroma Cloud connection"),
    "tenant": _Option(refuse=_CHROMA_CLIENT),
    "database": _Option(refuse=_CHROMA_CLIENT),
}

_QDRANT: dict[str, _Option] = {
    "distance": _Option(_qdrant_distance),
    "content_payload_key": _Option(_payload_key("content_payload_key")),
    "metadata_payload_key": _Option(_payload_key("metadata_payload_key")),
    "vector_name": _Option(_str_option("vector_name")),
    "sparse_vector_name": _Option(_str_option("sparse_vector_name")),
    "retrieval_mode": _Option(_retrieval_mode),
    "sparse_embedding": _Option(_sparse_embedding),
    "validate_embeddings": _Option(_bool_option("validate_embeddings")),
    "validate_collection_config": _Option(_bool_option("validate_collection_config")),
    "force_recreate": _Option(_bool_option("force_recreate")),
    "batch_size": _Option(_ignore),
    "location": _Option(_location),
    "client": _Option(refuse=_QDRANT_SERVER),
    "url": _Option(refuse=_QDRANT_SERVER),
    "host": _Option(refuse=_QDRANT_SERVER),
    "port": _Option(refuse=_QDRANT_SERVER, default=6333),
    "grpc_port": _Option(refuse=_QDRANT_SERVER, default=6334),
    "prefer_grpc": _Option(refuse=_QDRANT_SERVER, default=False),
    "https": _Option(refuse=_QDRANT_SERVER),
    "api_key": _Option(refuse=_QDRANT_SERVER),
    "prefix": _Option(refuse=_QDRANT_SERVER),
    "timeout": _Option(refuse=_QDRANT_SERVER),
    "path": _Option(refuse="Qdrant client writing to disk"),
    "collection_create_options": _Option(refuse="Qdrant collection", defaults=({},)),
    "vector_params": _Option(refuse="Qdrant collection", defaults=({},)),
    "sparse_vector_params": _Option(refuse="Qdrant collection", defaults=({},)),
}

_FAISS: dict[str, _Option] = {
    "embedding_function": _Option(_embedding_function),
    "index": _Option(refuse="faiss index"),
    "docstore": _Option(refuse="LangChain docstore"),
    "index_to_docstore_id": _Option(refuse="faiss index", defaults=({},)),
}

_MILVUS_SCHEMA = "Milvus collection schema"
_MILVUS: dict[str, _Option] = {
    "embedding_function": _Option(_embedding_function),
    "index_params": _Option(_milvus_index_params),
    "primary_field": _Option(_milvus_field("primary_field")),
    "text_field": _Option(_milvus_field("text_field")),
    "vector_field": _Option(_milvus_field("vector_field")),
    "enable_dynamic_field": _Option(_milvus_dynamic),
    "auto_id": _Option(_milvus_auto_id),
    # Accepted, no effect on one process's store in memory: reads see every write
    # (consistency), the index is exact, there is one replica, shard and partition set.
    "connection_args": _Option(_ignore),
    "consistency_level": _Option(_str_option("consistency_level")),
    "search_params": _Option(_ignore),
    "drop_old": _Option(_bool_option("drop_old")),
    "collection_description": _Option(_str_option("collection_description")),
    "collection_properties": _Option(_ignore),
    "replica_number": _Option(_ignore),
    "timeout": _Option(_ignore),
    "num_shards": _Option(_ignore),
    "num_partitions": _Option(_ignore),
    "partition_names": _Option(_ignore),
    "metadata_field": _Option(refuse="Milvus JSON metadata field (deprecated)"),
    "partition_key_field": _Option(refuse=_MILVUS_SCHEMA),
    "vector_schema": _Option(refuse=_MILVUS_SCHEMA),
    "metadata_schema": _Option(refuse=_MILVUS_SCHEMA),
    "builtin_function": _Option(refuse="Milvus built-in function (BM25, text embedding)"),
}


def _lance_distance(value: Any, options: IntegrationOptions, profile: str) -> None:
    # LanceDB's distance= names the relevance function only (every search runs on l2)
    if not isinstance(value, str):
        raise TypeError(f"distance must be a str ('l2', 'cosine' or 'ip'), got {value!r}")
    options.distance_setting = value


def _lance_mode(value: Any, options: IntegrationOptions, profile: str) -> None:
    if value not in ("overwrite", "append"):
        raise ValueError(f"mode must be 'overwrite' or 'append', got {value!r}")
    options.overwrite = value == "overwrite"


_LANCEDB_CONNECTION = "LanceDB connection"
_LANCEDB: dict[str, _Option] = {
    "distance": _Option(_lance_distance),
    "mode": _Option(_lance_mode),
    "uri": _Option(_str_option("uri")),
    "table_name": _Option(_str_option("table_name")),
    "connection": _Option(refuse=_LANCEDB_CONNECTION),
    "table": _Option(refuse=_LANCEDB_CONNECTION),
    "api_key": _Option(refuse="LanceDB Cloud connection"),
    "region": _Option(refuse="LanceDB Cloud connection"),
    "reranker": _Option(refuse="LanceDB reranker"),
    "vector_key": _Option(refuse="LanceDB table", default="vector"),
    "id_key": _Option(refuse="LanceDB table", default="id"),
    "text_key": _Option(refuse="LanceDB table", default="text"),
}


def _use_jsonb(value: Any, options: IntegrationOptions, profile: str) -> None:
    if value is not True:
        # langchain-postgres's own refusal (lc-pgvector-constructor-options)
        raise NotImplementedError("use_jsonb=False is no longer supported.")


def _optional_int(name: str) -> Callable[[Any, IntegrationOptions, str], None]:
    def check(value: Any, options: IntegrationOptions, profile: str) -> None:
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{name} must be an int or None, got {type(value).__name__}")

    return check


def _optional_dict(name: str) -> Callable[[Any, IntegrationOptions, str], None]:
    def check(value: Any, options: IntegrationOptions, profile: str) -> None:
        if value is not None and not isinstance(value, Mapping):
            raise TypeError(f"{name} must be a dict or None, got {type(value).__name__}")

    return check


# langchain-postgres PGVector (lc-pgvector-constructor-options). The connection, its engine
# arguments, the extension and the sync or async engine only reach a PostgreSQL server: accepted
# without effect (both method twins work here). A new store's collection is empty, so
# `pre_delete_collection` has nothing to delete (`from_existing_index` honours it);
# `embedding_length` only types the vector column the first store of a database creates.
_PGVECTOR: dict[str, _Option] = {
    "embeddings": _Option(_embedding_function),
    "connection": _Option(_ignore),
    "engine_args": _Option(_optional_dict("engine_args")),
    "async_mode": _Option(_bool_option("async_mode")),
    "create_extension": _Option(_bool_option("create_extension")),
    "pre_delete_collection": _Option(_bool_option("pre_delete_collection")),
    "embedding_length": _Option(_optional_int("embedding_length")),
    "collection_metadata": _Option(_optional_dict("collection_metadata")),
    "logger": _Option(_ignore),
    "use_jsonb": _Option(_use_jsonb),
}

_BY_PROFILE: Mapping[str, tuple[str, dict[str, _Option]]] = {
    "default": ("PlaceboVectorStore", {}),
    "chroma": ("Chroma", _CHROMA),
    "qdrant": ("QdrantVectorStore", _QDRANT),
    "faiss": ("FAISS", _FAISS),
    "milvus": ("Milvus", _MILVUS),
    "lancedb": ("LanceDB", _LANCEDB),
    "pgvector": ("PGVector", _PGVECTOR),
}


def accepted_options(profile: str) -> tuple[str, ...]:
    """The real class's option names a store of `profile` takes."""
    return tuple(_BY_PROFILE.get(profile, ("", {}))[1])


def read_options(profile: str, given: Mapping[str, Any], where: str) -> IntegrationOptions:
    """`given` (the real class's options) for a store of `profile`; `where` names the call in
    errors. Checks every option before any is applied."""
    cls, table = _BY_PROFILE.get(profile, ("PlaceboVectorStore", {}))
    unknown = sorted(set(given) - set(table))
    if unknown:
        takes = ", ".join(table) or f"none of the real classes' options (profile {profile!r})"
        raise TypeError(
            f"{where} got unexpected keyword argument(s) {', '.join(unknown)}; under profile "
            f"{profile!r} it takes the store options and {cls}'s: {takes}"
        )
    options = IntegrationOptions()
    for name, value in given.items():
        option = table[name]
        if option.refuse is not None:
            if value is None or value == option.default or value in option.defaults:
                continue
            raise NotImplementedError(
                _NEEDS_CLIENT.format(
                    cls=cls, name=name, value=value, what=option.refuse, default=option.default
                )
            )
        if option.apply is not None:
            option.apply(value, options, profile)
    return options
