"""What each real LlamaIndex vector-store integration does, as one table keyed by profile.

The core profile reproduces the *engine* (distances, ties, filter semantics, listing order). What
is left is what the LlamaIndex *integration* adds on top, and that is recorded here, one frozen
row per profile, each fact measured in process against llama-index-vector-stores-chroma 0.6.0 and
-qdrant 0.10.4 (see the fidelity table in the README):

========================  =====================  ===========================  ===================
fact                      default                chroma (ChromaVectorStore)   qdrant (Qdrant...)
========================  =====================  ===========================  ===================
``NodeWithScore.score``   core score (cosine)    ``exp(-distance)``           raw engine score
metadata                  any JSON               flat only, None stored ""    any JSON
node ids                  any str                any non-empty str            UUID strings only
add of an existing id     replaces it            ignored, first kept          replaces it
same id twice in one add  last wins              ValueError                   last wins
``doc_ids`` / node_ids    honoured               ignored                      honoured
MMR mode                  all candidates         prefetch 4 x top_k           ignored (top-k)
``get_nodes([])``         nothing                every node                   nothing
``delete_nodes`` no ids   needs filters          ValueError                   needs filters
query without embedding   score None             score None                   score 1.0
``get_nodes`` vectors     no                     no                           yes
``qdrant_filters=``       TypeError              TypeError                    replaces every filter
========================  =====================  ===========================  ===================

The adapter reads a row and never branches on a profile name.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from placeborag_core.backends import PayloadLayout
from placeborag_llamaindex.filters import Translator, chroma_where, default_where, qdrant_where

__all__ = ["INTEGRATIONS", "IntegrationFacts", "integration_for"]


def _same_score(score: float) -> float:
    return float(score)


def _chroma_score(distance: float) -> float:
    # ChromaVectorStore._query: similarity_score = math.exp(-distance)
    return math.exp(-distance)


def _any_id(node_id: str) -> str:
    if not node_id:
        raise ValueError("node id must be a non-empty str, got ''")
    return node_id


def _uuid_id(node_id: str) -> str:
    # Qdrant point ids are UUIDs (or unsigned ints, which a LlamaIndex str id never is); the
    # engine keys points by the canonical form, so an upper-case id finds its lower-case twin.
    try:
        return str(uuid.UUID(node_id))
    except (ValueError, TypeError, AttributeError):
        raise ValueError(f"Point id {node_id} is not a valid UUID") from None


def _uuid_id_or_none(point_id: object) -> str | None:
    """A ``HasIdCondition`` id as a record id; None for one no node can have."""
    try:
        return str(uuid.UUID(str(point_id))) if isinstance(point_id, str) else None
    except ValueError:
        return None


@dataclass(frozen=True)
class IntegrationFacts:
    """The conventions of one real LlamaIndex integration (see the module docstring)."""

    profile: str
    integration: str
    translate_filters: Translator
    node_score: Callable[[float], float]
    flat_metadata: bool
    none_metadata_as_empty_string: bool
    canonical_id: Callable[[str], str]
    existing_id: Literal["replace", "keep_first"]
    duplicate_ids_in_add: Literal["last_wins", "raise"]
    honours_doc_ids: bool
    honours_node_ids: bool
    mmr: Literal["all_candidates", "prefetch", "ignored"]
    get_nodes_empty_ids: Literal["nothing", "everything"]
    delete_nodes_needs_ids: bool
    unranked_score: float | None
    get_nodes_with_embedding: bool
    qdrant_payload: PayloadLayout | None = None


_ROWS = {
    "default": IntegrationFacts(
        profile="default",
        integration="PlaceboVectorStore (no real counterpart: the clean profile)",
        translate_filters=default_where,
        node_score=_same_score,
        flat_metadata=False,
        none_metadata_as_empty_string=False,
        canonical_id=_any_id,
        existing_id="replace",
        duplicate_ids_in_add="last_wins",
        honours_doc_ids=True,
        honours_node_ids=True,
        mmr="all_candidates",
        get_nodes_empty_ids="nothing",
        delete_nodes_needs_ids=False,
        unranked_score=None,
        get_nodes_with_embedding=False,
    ),
    "chroma": IntegrationFacts(
        profile="chroma",
        integration="llama_index.vector_stores.chroma.ChromaVectorStore",
        translate_filters=chroma_where,
        node_score=_chroma_score,
        flat_metadata=True,
        none_metadata_as_empty_string=True,
        canonical_id=_any_id,
        existing_id="keep_first",
        duplicate_ids_in_add="raise",
        honours_doc_ids=False,
        honours_node_ids=False,
        mmr="prefetch",
        get_nodes_empty_ids="everything",
        delete_nodes_needs_ids=True,
        unranked_score=None,
        get_nodes_with_embedding=False,
    ),
    "qdrant": IntegrationFacts(
        profile="qdrant",
        integration="llama_index.vector_stores.qdrant.QdrantVectorStore",
        translate_filters=qdrant_where,
        node_score=_same_score,
        flat_metadata=False,
        none_metadata_as_empty_string=False,
        canonical_id=_uuid_id,
        existing_id="replace",
        duplicate_ids_in_add="last_wins",
        honours_doc_ids=True,
        honours_node_ids=True,
        mmr="ignored",
        get_nodes_empty_ids="nothing",
        delete_nodes_needs_ids=False,
        unranked_score=1.0,
        get_nodes_with_embedding=True,
        # Metadata keys are the payload's own; the text lives inside "_node_content".
        qdrant_payload=PayloadLayout(canonical_id=_uuid_id_or_none),
    ),
}

INTEGRATIONS: Mapping[str, IntegrationFacts] = MappingProxyType(_ROWS)


def integration_for(profile: str) -> IntegrationFacts:
    """The row of ``profile``; ``ValueError`` naming the profiles LlamaIndex facts exist for."""
    try:
        return INTEGRATIONS[profile]
    except KeyError:
        raise ValueError(
            f"profile {profile!r} has no LlamaIndex integration facts; "
            f"PlaceboVectorStore supports: {', '.join(INTEGRATIONS)}"
        ) from None
