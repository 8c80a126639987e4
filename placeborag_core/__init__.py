"""placeborag_core: deterministic, framework-agnostic test doubles for RAG retrieval.

Everything a test needs to make retrieval assertions meaningful: an embedder whose geometry
is a pure function of the text, a vector store whose backend behaviour is declared data,
and faults that happen the same way on every run. This package depends on numpy only.
"""

from placeborag_core._version import __version__
from placeborag_core.embedder import FakeEmbedder, cosine_similarity

__all__ = [
    "FakeEmbedder",
    "__version__",
    "cosine_similarity",
]
