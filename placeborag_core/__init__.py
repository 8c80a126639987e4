"""placeborag_core: deterministic, framework-agnostic test doubles for RAG retrieval.

Everything a test needs to make retrieval assertions meaningful: an embedder whose geometry
is a pure function of the text, a vector store whose backend behaviour is declared data,
and faults that happen the same way on every run. This package depends on numpy only.

The public names are imported on first use (PEP 562), so importing the package, as pytest does
for the plugin entry point in every session, costs neither numpy nor the store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from placeborag_core._version import __version__
from placeborag_core.lazy_imports import lazy_exports

if TYPE_CHECKING:
    from placeborag_core.assertions import assert_top_k, assert_top_k_unordered
    from placeborag_core.chunking import Span, WordChunker
    from placeborag_core.embedder import FakeEmbedder, cosine_similarity
    from placeborag_core.errors import (
        DimensionError,
        FilterError,
        RetrievalError,
        RetrievalTimeout,
    )
    from placeborag_core.explanation import Explanation, SharedFeature, explain
    from placeborag_core.isolation import IsolationError, assert_tenant_isolation
    from placeborag_core.manifest import (
        Drift,
        DriftError,
        Manifest,
        ManifestError,
        build_manifest,
        check_drift,
    )
    from placeborag_core.options import OptionError, RoutedOptions, route_options
    from placeborag_core.profiles import PROFILES, Profile
    from placeborag_core.records import Match, Record, Trace
    from placeborag_core.scenarios import CannedChunk, ContextState, context_states
    from placeborag_core.seeding import (
        Document,
        DocumentsFileError,
        SeedReport,
        chunk_documents,
        chunk_id,
        read_documents_jsonl,
        seed_namespaces,
        seed_store,
    )
    from placeborag_core.store import FakeVectorStore

__all__ = [
    "PROFILES",
    "CannedChunk",
    "ContextState",
    "DimensionError",
    "Document",
    "DocumentsFileError",
    "Drift",
    "DriftError",
    "Explanation",
    "FakeEmbedder",
    "FakeVectorStore",
    "FilterError",
    "IsolationError",
    "Manifest",
    "ManifestError",
    "Match",
    "OptionError",
    "Profile",
    "Record",
    "RetrievalError",
    "RetrievalTimeout",
    "RoutedOptions",
    "SeedReport",
    "SharedFeature",
    "Span",
    "Trace",
    "WordChunker",
    "__version__",
    "assert_tenant_isolation",
    "assert_top_k",
    "assert_top_k_unordered",
    "build_manifest",
    "check_drift",
    "chunk_documents",
    "chunk_id",
    "context_states",
    "cosine_similarity",
    "explain",
    "read_documents_jsonl",
    "route_options",
    "seed_namespaces",
    "seed_store",
]

# Where each public name is defined; a name is imported from its home the first time it is read.
_HOMES = {
    "assertions": ("assert_top_k", "assert_top_k_unordered"),
    "chunking": ("Span", "WordChunker"),
    "embedder": ("FakeEmbedder", "cosine_similarity"),
    "errors": ("DimensionError", "FilterError", "RetrievalError", "RetrievalTimeout"),
    "explanation": ("Explanation", "SharedFeature", "explain"),
    "isolation": ("IsolationError", "assert_tenant_isolation"),
    "manifest": (
        "Drift",
        "DriftError",
        "Manifest",
        "ManifestError",
        "build_manifest",
        "check_drift",
    ),
    "options": ("OptionError", "RoutedOptions", "route_options"),
    "profiles": ("PROFILES", "Profile"),
    "records": ("Match", "Record", "Trace"),
    "scenarios": ("CannedChunk", "ContextState", "context_states"),
    "seeding": (
        "Document",
        "DocumentsFileError",
        "SeedReport",
        "chunk_documents",
        "chunk_id",
        "read_documents_jsonl",
        "seed_namespaces",
        "seed_store",
    ),
    "store": ("FakeVectorStore",),
}
__getattr__, __dir__ = lazy_exports(
    __name__, {name: module for module, names in _HOMES.items() for name in names}
)
