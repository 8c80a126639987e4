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
    from placeborag_core.backends import PROFILES, Profile
    from placeborag_core.corpus.chunking import Span, WordChunker
    from placeborag_core.corpus.documents_file import DocumentsFileError, read_documents_jsonl
    from placeborag_core.corpus.drift import Drift, DriftError, check_drift
    from placeborag_core.corpus.manifest import Manifest, ManifestError, build_manifest
    from placeborag_core.corpus.seeding import (
        Document,
        SeedReport,
        chunk_documents,
        chunk_id,
        seed_namespaces,
        seed_store,
    )
    from placeborag_core.embedding.embedder import DEFAULT_DIMENSIONS, FakeEmbedder
    from placeborag_core.embedding.similarity import cosine_similarity
    from placeborag_core.errors import (
        DimensionError,
        FilterError,
        RetrievalError,
        RetrievalTimeout,
    )
    from placeborag_core.records import Match, Record, Trace
    from placeborag_core.store import FakeVectorStore
    from placeborag_core.testing.assertions import assert_top_k, assert_top_k_unordered
    from placeborag_core.testing.explanation import Explanation, SharedFeature, explain
    from placeborag_core.testing.isolation import IsolationError, assert_tenant_isolation
    from placeborag_core.testing.options import OptionError, RoutedOptions, route_options
    from placeborag_core.testing.scenarios import CannedChunk, ContextState, context_states

__all__ = [
    "DEFAULT_DIMENSIONS",
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
    "testing.assertions": ("assert_top_k", "assert_top_k_unordered"),
    "corpus.chunking": ("Span", "WordChunker"),
    "embedding.embedder": ("DEFAULT_DIMENSIONS", "FakeEmbedder"),
    "embedding.similarity": ("cosine_similarity",),
    "errors": ("DimensionError", "FilterError", "RetrievalError", "RetrievalTimeout"),
    "testing.explanation": ("Explanation", "SharedFeature", "explain"),
    "testing.isolation": ("IsolationError", "assert_tenant_isolation"),
    "corpus.manifest": ("Manifest", "ManifestError", "build_manifest"),
    "corpus.drift": ("Drift", "DriftError", "check_drift"),
    "testing.options": ("OptionError", "RoutedOptions", "route_options"),
    "backends": ("PROFILES", "Profile"),
    "records": ("Match", "Record", "Trace"),
    "testing.scenarios": ("CannedChunk", "ContextState", "context_states"),
    "corpus.seeding": (
        "Document",
        "SeedReport",
        "chunk_documents",
        "chunk_id",
        "seed_namespaces",
        "seed_store",
    ),
    "corpus.documents_file": ("DocumentsFileError", "read_documents_jsonl"),
    "store": ("FakeVectorStore",),
}
__getattr__, __dir__ = lazy_exports(
    __name__, {name: module for module, names in _HOMES.items() for name in names}
)
