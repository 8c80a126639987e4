"""What each real LlamaIndex vector-store integration adds on top of its engine, as one table.

The core profile reproduces the *engine* (distances, ties, filter semantics, id rule, listing
order). What the LlamaIndex *integration* adds on top is recorded here, one frozen
:class:`IntegrationFacts` row per profile. Each fact is one of ``docs/integrations/llamaindex.md``,
where a probe under ``tests/fidelity/probes/`` re-measures it:

========================  =====================  ===========================  ===================
fact                      default                chroma (ChromaVectorStore)   qdrant (Qdrant...)
========================  =====================  ===========================  ===================
``NodeWithScore.score``   core score (cosine)    ``exp(-distance)``           raw engine score
metadata                  any JSON               flat only, None stored ""    any JSON
node ids                  any non-empty str      any non-empty str            UUID strings only
add of an existing id     replaces it            ignored, first kept          replaces it
same id twice in one add  last wins              ValueError                   last wins
``doc_ids`` / node_ids    honoured               ignored                      honoured
MMR mode                  all candidates         prefetch 4 x top_k           ignored (top-k)
``get_nodes([])``         nothing                every node                   nothing
``delete_nodes`` no ids   needs filters          ValueError                   needs filters
query without embedding   score None             score None                   score 1.0
``get_nodes`` vectors     no                     no                           yes
``get_nodes(limit=)``     TypeError              TypeError                    at most limit
native filter keyword     none                   none                         ``qdrant_filters=``
========================  =====================  ===========================  ===================

Node ids follow the engine's own id rule (``Profile.ids``); a node id is a str, so under Qdrant
it must be a UUID (``li-qdrant-node-ids``). The default profile has no real counterpart; where it
is compared with llama-index-core's ``SimpleVectorStore`` the facts are the ``li-simple-*`` ones.
The adapter reads a row and never branches on a profile name.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from placeborag_core.backends import PROFILES, PayloadLayout
from placeborag_llamaindex.filters import (
    Translator,
    chroma_where,
    default_where,
    milvus_where,
    qdrant_where,
)
from placeborag_llamaindex.nodes import node_record_id

__all__ = ["INTEGRATIONS", "IntegrationFacts", "integration_for"]

DOC = "docs/integrations/llamaindex.md"


def _same_score(score: float) -> float:
    return float(score)


def _exp_minus_distance(distance: float) -> float:
    return math.exp(-distance)


@dataclass(frozen=True)
class IntegrationFacts:
    """The conventions of one real LlamaIndex integration (see the module docstring).

    Attributes:
        profile: the core profile this row belongs to.
        integration: dotted name of the real class, for messages and docs.
        translate_filters: ``MetadataFilters`` -> core ``where`` clause, with the integration's
            rejections (see ``filters``).
        node_score: the engine's score or distance -> ``NodeWithScore.score``.
        flat_metadata: metadata values must be str/int/float/None.
        none_metadata_as_empty_string: a ``None`` metadata value is stored as ``""``.
        existing_id: ``add`` of an id already stored ``"replace"``s it or keeps the first.
        duplicate_ids_in_add: an id twice in one ``add``: ``"last_wins"`` or ``"raise"``.
        honours_doc_ids, honours_node_ids: whether ``VectorStoreQuery.doc_ids`` / ``node_ids``
            restrict a query.
        mmr: MMR mode over ``"all_candidates"``, over a ``"prefetch"`` of the best (with a plain
            query when it yields fewer than ``top_k``), or ``"ignored"`` (a plain top-k).
        mmr_prefetch_factor: the default prefetch, in multiples of ``top_k`` (``"prefetch"``
            only; the ``mmr_prefetch_factor``/``mmr_prefetch_k`` query options override it).
        get_nodes_empty_ids: what ``get_nodes([])`` returns.
        delete_nodes_needs_ids: ``delete_nodes`` raises without ids, even with filters.
        unranked_score: the score of each node of a query without embedding.
        get_nodes_with_embedding: ``get_nodes`` returns nodes with their vectors.
        get_nodes_limit: ``get_nodes`` takes ``limit=`` (at most that many nodes).
        native_filter_kwarg: the ``query`` keyword that takes the engine's own filter object and
            replaces the query's filters (None: no such keyword).
        native_filter_payload: where the integration keeps a node in the engine's payload, for
            reading that filter with the profile's ``native_filter``.
        default_metric: the engine metric when the store names none (None: the profile's;
            ``MilvusVectorStore``'s ``similarity_metric`` defaults to IP).
        evidence: (fact, where it is documented) pairs.
    """

    profile: str
    integration: str
    translate_filters: Translator
    node_score: Callable[[float], float]
    flat_metadata: bool
    none_metadata_as_empty_string: bool
    existing_id: Literal["replace", "keep_first"]
    duplicate_ids_in_add: Literal["last_wins", "raise"]
    honours_doc_ids: bool
    honours_node_ids: bool
    mmr: Literal["all_candidates", "prefetch", "ignored"]
    get_nodes_empty_ids: Literal["nothing", "everything"]
    delete_nodes_needs_ids: bool
    unranked_score: float | None
    get_nodes_with_embedding: bool
    mmr_prefetch_factor: float | None = None
    get_nodes_limit: bool = False
    native_filter_kwarg: str | None = None
    native_filter_payload: PayloadLayout | None = None
    default_metric: str | None = None
    evidence: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if (self.mmr == "prefetch") != (self.mmr_prefetch_factor is not None):
            raise ValueError(
                f"integration {self.profile!r}: mmr_prefetch_factor is needed exactly when mmr "
                "is 'prefetch'"
            )
        if (self.native_filter_kwarg is None) != (self.native_filter_payload is None):
            raise ValueError(
                f"integration {self.profile!r}: native_filter_kwarg and native_filter_payload "
                "go together"
            )


_DEFAULT = IntegrationFacts(
    profile="default",
    integration="PlaceboVectorStore (no real counterpart: the clean profile)",
    translate_filters=default_where,
    node_score=_same_score,
    flat_metadata=False,
    none_metadata_as_empty_string=False,
    existing_id="replace",
    duplicate_ids_in_add="last_wins",
    honours_doc_ids=True,
    honours_node_ids=True,
    mmr="all_candidates",
    get_nodes_empty_ids="nothing",
    delete_nodes_needs_ids=False,
    unranked_score=None,
    get_nodes_with_embedding=False,
    evidence=(
        ("all", "placeborag convention: every operator, strict semantics, nothing silently lost"),
        ("mmr", f"{DOC}#li-simple-mmr-latest-pick"),
        ("delete_nodes", f"{DOC}#li-simple-delete-nodes-none (a divergence: refused here)"),
    ),
)

_CHROMA = IntegrationFacts(
    profile="chroma",
    integration="llama_index.vector_stores.chroma.ChromaVectorStore",
    translate_filters=chroma_where,
    node_score=_exp_minus_distance,
    flat_metadata=True,
    none_metadata_as_empty_string=True,
    existing_id="keep_first",
    duplicate_ids_in_add="raise",
    honours_doc_ids=False,
    honours_node_ids=False,
    mmr="prefetch",
    mmr_prefetch_factor=4.0,  # DEFAULT_MMR_PREFETCH_FACTOR of the integration's source
    get_nodes_empty_ids="everything",
    delete_nodes_needs_ids=True,
    unranked_score=None,
    get_nodes_with_embedding=False,
    evidence=(
        ("score", f"{DOC}#li-chroma-score, #li-chroma-score-cosine"),
        ("metadata", f"{DOC}#li-chroma-flat-metadata, #li-chroma-none-as-empty"),
        ("node ids", f"{DOC}#li-chroma-node-ids"),
        ("add", f"{DOC}#li-chroma-existing-id-ignored, #li-chroma-duplicate-in-add"),
        ("filters", f"{DOC}#li-chroma-filters, #li-chroma-filter-unsupported"),
        ("doc_ids, node_ids", f"{DOC}#li-chroma-ids-ignored, #li-chroma-node-ids-ignored"),
        ("mmr", f"{DOC}#li-chroma-mmr (prefetch and fallback: read from the source)"),
        ("unranked", f"{DOC}#li-chroma-modes"),
        ("get_nodes", f"{DOC}#li-chroma-get-nodes"),
        ("delete_nodes", f"{DOC}#li-chroma-delete-nodes"),
    ),
)

_QDRANT = IntegrationFacts(
    profile="qdrant",
    integration="llama_index.vector_stores.qdrant.QdrantVectorStore",
    translate_filters=qdrant_where,
    node_score=_same_score,
    flat_metadata=False,
    none_metadata_as_empty_string=False,
    existing_id="replace",
    duplicate_ids_in_add="last_wins",
    honours_doc_ids=True,
    honours_node_ids=True,
    mmr="ignored",
    get_nodes_empty_ids="nothing",
    delete_nodes_needs_ids=False,
    unranked_score=1.0,
    get_nodes_with_embedding=True,
    get_nodes_limit=True,
    native_filter_kwarg="qdrant_filters",
    # Metadata keys are the payload's own and the text lives inside "_node_content"; a HasId
    # condition can only name a node by its id, a UUID str.
    native_filter_payload=PayloadLayout(
        canonical_id=functools.partial(node_record_id, PROFILES["qdrant"].ids)
    ),
    evidence=(
        ("score", f"{DOC}#li-qdrant-score, #li-qdrant-score-euclid"),
        ("metadata", f"{DOC}#li-qdrant-nested-metadata, #li-qdrant-payload"),
        ("node ids", f"{DOC}#li-qdrant-node-ids; docs/engines/qdrant.md#qdrant-ids-canonical"),
        ("add", f"{DOC}#li-qdrant-existing-id, #li-qdrant-duplicate-in-add"),
        ("filters", f"{DOC}#li-qdrant-filters, #li-qdrant-filter-unsupported"),
        ("doc_ids, node_ids", f"{DOC}#li-qdrant-doc-ids, #li-qdrant-node-ids-honoured"),
        ("mmr", f"{DOC}#li-qdrant-mmr-ignored"),
        ("unranked", f"{DOC}#li-qdrant-modes"),
        ("get_nodes", f"{DOC}#li-qdrant-get-nodes"),
        ("delete_nodes", f"{DOC}#li-qdrant-delete-nodes (None deletes all: refused here)"),
        ("qdrant_filters", f"{DOC}#li-qdrant-native-filter"),
    ),
)

_MILVUS = IntegrationFacts(
    profile="milvus",
    integration="llama_index.vector_stores.milvus.MilvusVectorStore",
    translate_filters=milvus_where,
    node_score=_same_score,
    flat_metadata=False,
    none_metadata_as_empty_string=False,
    existing_id="replace",
    duplicate_ids_in_add="last_wins",
    honours_doc_ids=True,
    honours_node_ids=True,
    mmr="prefetch",
    mmr_prefetch_factor=4.0,  # DEFAULT_MMR_PREFETCH_FACTOR, read from the integration's source
    get_nodes_empty_ids="nothing",
    delete_nodes_needs_ids=False,
    unranked_score=None,
    get_nodes_with_embedding=False,
    default_metric="ip",
    evidence=(
        ("score", f"{DOC}#li-milvus-score (the engine's number: similarity, or squared L2)"),
        ("metric", f"{DOC}#li-milvus-default-metric-ip"),
        ("filters", f"{DOC}#li-milvus-filters; the engine's rules: docs/engines/milvus.md"),
        ("add", f"{DOC}#li-milvus-existing-id (Milvus keeps both copies: a divergence)"),
        ("mmr, get_nodes, delete_nodes", "read from the integration's source, not compared"),
    ),
)

INTEGRATIONS: Mapping[str, IntegrationFacts] = MappingProxyType(
    {facts.profile: facts for facts in (_DEFAULT, _CHROMA, _QDRANT, _MILVUS)}
)


def integration_for(profile: str) -> IntegrationFacts:
    """The row of ``profile``; ``ValueError`` naming the profiles that have a row."""
    try:
        return INTEGRATIONS[profile]
    except KeyError:
        raise ValueError(
            f"profile {profile!r} has no LlamaIndex integration facts; "
            f"PlaceboVectorStore supports: {', '.join(INTEGRATIONS)}"
        ) from None
