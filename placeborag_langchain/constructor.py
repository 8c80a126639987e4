"""What `PlaceboVectorStore`'s constructor checks and merges before it builds anything.

The LangChain-side options (embedding, namespace, collection name, relevance function), the
profile given by name or as a `Profile`, the real class's own options merged with the generic
ones (an embedding or a distance given twice), Qdrant's payload keys folded into the
integration's filter format, and FAISS's `distance_strategy` matched to a wrapped store's
metric. Each refuses what the store would refuse, with the same message, so a store is built
only from valid options.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.embeddings import Embeddings

from placeborag_core import FakeVectorStore, Profile
from placeborag_core.adapter_kit import require_unicode
from placeborag_core.backends import PROFILES
from placeborag_langchain.distance import requested_distance
from placeborag_langchain.embeddings import PlaceboEmbeddings
from placeborag_langchain.filters import EngineFilter
from placeborag_langchain.integration_facts import IntegrationFacts
from placeborag_langchain.options import IntegrationOptions

__all__ = [
    "WRAP_OPTIONS",
    "check_wrapped",
    "checked_embedding",
    "merged_options",
    "payload_format",
    "profile_name",
    "strategy_for",
    "table_profile",
    "with_distance_option",
]

WRAP_OPTIONS = (
    "embedding",
    "collection_name",
    "relevance_score_fn",
    "distance_strategy",
    "normalize_L2",
    "content_payload_key",
    "metadata_payload_key",
)
"""The constructor options `from_core_store` takes: the LangChain side of the store."""


def check_wrapped(store: Any, options: Mapping[str, Any]) -> None:
    """`from_core_store`'s checks: `store` is a core store, and `options` only LangChain-side
    ones (the core store keeps its own profile, metric and faults)."""
    if not isinstance(store, FakeVectorStore):
        raise TypeError(f"store must be a FakeVectorStore, got {type(store).__name__}")
    unknown = sorted(set(options) - set(WRAP_OPTIONS))
    if unknown:
        raise TypeError(
            f"from_core_store() got unexpected option(s) {', '.join(unknown)}; the core "
            "store keeps its own profile, metric, filter_mode, recall, visibility and "
            f"orphaned_ids; accepted: {', '.join(WRAP_OPTIONS)}"
        )


def checked_embedding(
    embedding: Embeddings | None,
    namespace: str,
    collection_name: str,
    relevance_score_fn: Callable[[float], float] | None,
) -> Embeddings:
    """`embedding` (default `PlaceboEmbeddings()`), once every LangChain-side option is valid."""
    if embedding is None:
        embedding = PlaceboEmbeddings()
    if not isinstance(embedding, Embeddings):
        raise TypeError(
            f"embedding must be a langchain_core Embeddings, got {type(embedding).__name__}"
        )
    if not isinstance(namespace, str):
        raise TypeError(f"namespace must be a str, got {type(namespace).__name__}")
    require_unicode(namespace, "namespace")
    if not isinstance(collection_name, str):
        raise TypeError(f"collection_name must be a str, got {type(collection_name).__name__}")
    if not collection_name:
        raise ValueError("collection_name must be a non-empty str")
    require_unicode(collection_name, "collection_name")
    if relevance_score_fn is not None and not callable(relevance_score_fn):
        raise TypeError("relevance_score_fn must be a callable taking the score")
    return embedding


def profile_name(profile: Any) -> str:
    if isinstance(profile, str):
        return profile
    if isinstance(profile, Profile):
        return profile.name
    raise TypeError(f"profile must be a profile name or a Profile, got {type(profile).__name__}")


def payload_format(facts: IntegrationFacts, content_key: Any, metadata_key: Any) -> Any:
    """The integration's filter format, with Qdrant's payload keys where the user set them."""
    for name, value in (
        ("content_payload_key", content_key),
        ("metadata_payload_key", metadata_key),
    ):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__}")
        require_unicode(value, name)
    fmt = facts.filter_format
    if (content_key, metadata_key) == ("page_content", "metadata"):
        return fmt
    if not isinstance(fmt, EngineFilter):
        raise TypeError(
            "content_payload_key and metadata_payload_key are QdrantVectorStore's options; "
            f"profile {facts.profile!r} has no payload"
        )
    layout = dataclasses.replace(
        fmt.layout, metadata_prefix=f"{metadata_key}.", text_key=content_key
    )
    return dataclasses.replace(fmt, layout=layout)


def merged_options(
    facts: IntegrationFacts, embedding: Any, metric: str | None, options: IntegrationOptions
) -> tuple[Any, str | None]:
    """The embedding and metric once the real class's options are applied."""
    if options.embedding is not None:
        if embedding is not None:
            raise TypeError(
                "give the embedding once: as embedding= or as embedding_function= "
                f"({facts.class_name}'s name for it), not both"
            )
        embedding = options.embedding
    if options.metric is not None:
        if metric is not None and metric != options.metric:
            raise ValueError(
                f"metric={metric!r} contradicts {facts.class_name}'s distance option "
                f"({options.metric!r}); give the distance once"
            )
        metric = options.metric
    return embedding, metric


def strategy_for(facts: IntegrationFacts, distance_strategy: Any, metric: str) -> str | None:
    """The `distance_strategy` setting of a store over a core store of `metric` (None when not
    given); ValueError when the strategy runs on another metric."""
    wanted, setting = requested_distance(facts, None, distance_strategy)
    if setting is not None and wanted != metric:
        raise ValueError(
            f"distance_strategy={setting} needs metric {wanted!r}; the given store has {metric!r}"
        )
    return setting


def with_distance_option(
    facts: IntegrationFacts, distance_strategy: Any, options: IntegrationOptions
) -> Any:
    """The distance setting: ``distance_strategy=`` or the real class's own option for it
    (LanceDB's ``distance=``), not both."""
    if options.distance_setting is None:
        return distance_strategy
    if distance_strategy is not None:
        raise TypeError(
            f"give the distance once: as distance_strategy= or as distance= "
            f"({facts.class_name}'s name for it), not both"
        )
    return options.distance_setting


def table_profile(facts: IntegrationFacts, profile: str | Profile) -> str | Profile:
    """The profile with the integration's own table layout, where it has one (LanceDB: the
    metadata as one struct column); a given `Profile` is used as it is."""
    if facts.profile_columns is None or not isinstance(profile, str):
        return profile
    return dataclasses.replace(PROFILES[profile], columns=facts.profile_columns)
