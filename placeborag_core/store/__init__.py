"""The store layer: ``FakeVectorStore`` and its query pipeline.

The store is one collection: its vector width is fixed by the first vector ever written (in any
namespace) and stays fixed, as Chroma, Qdrant and Pinecone fix it per collection/index. Namespaces
partition that collection and are walls: each has its own rows and index, and every read and write
names exactly one.

Query pipeline (in this order):

0. an injected failure fires (``fail_next_query``), before anything else;
1. ``k`` is checked and the filter compiled under the profile's dialect (raises before any read);
2. the namespace's visible rows are taken (pending writes under ``visibility="manual"`` are not);
3. the ``ids=`` restriction and, in filter mode ``pre``, the filter mask are applied;
4. recall dropout removes each row with probability ``1 - recall`` (keyed hash of query and id);
5. one float32 pass over the candidate rows (every row, or the rows left by step 3-4, gathered)
   bounds every score; the rows that can rank or tie with the k-th are scored exactly, so a
   score is the same bit for bit on every machine (``scoring.py``);
6. those rows are ordered by the profile's tie rule (which also decides which of the records
   tied at the cut survive: see ``backends/ties.py``);
7. in filter mode ``post`` the filter runs on the ``fetch_k`` selected rows (so fewer than ``k``
   may remain) and the list is cut to ``k``;
8. ``Match`` objects are built with copies of the text and metadata.

Thread safety: one re-entrant lock serialises every state change and every query's read.

``FakeVectorStore`` is imported on first use, so that the storage modules (partitions, the column
index) can be imported by lower layers without importing the pipeline.
"""

from typing import TYPE_CHECKING

from placeborag_core.lazy_imports import lazy_exports

if TYPE_CHECKING:
    from placeborag_core.store.reading import QueryInput, Where
    from placeborag_core.store.vector_store import FakeVectorStore, RecordInput

__all__ = ["FakeVectorStore", "QueryInput", "RecordInput", "Where"]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "FakeVectorStore": "vector_store",
        "QueryInput": "reading",
        "RecordInput": "vector_store",
        "Where": "reading",
    },
)
