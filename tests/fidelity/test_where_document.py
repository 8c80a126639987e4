"""``where_document`` against the real Chroma: which records pass, and what is rejected, how.

Documents, a record stored without a document, plain and negated substring and regex tests,
``$and``/``$or``, and every malformed expression the probe found
(``probes/chroma_where_document.py``). The one deliberate difference: an invalid pattern raises
``FilterError`` (a ValueError) where Chroma raises its ``InvalidArgumentError``.
"""

from __future__ import annotations

from typing import Any

import pytest

from placeborag_core import FakeVectorStore, FilterError

from ._engines import chroma_client, collection_name
from ._params import skip_unless_installed

pytestmark = [pytest.mark.fidelity, skip_unless_installed("chroma")]

IDS = ["a", "b", "c", "d", "e"]
DOCS = ["Refund policy", "refund window", "Shipping 2 days", "naïve café", "x"]
VECTORS = [[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.5, 0.5], [0.2, 0.8]]

EXPRESSIONS: list[Any] = [
    {"$contains": "refund"},
    {"$contains": "Refund"},
    {"$contains": "café"},
    {"$not_contains": "refund"},
    {"$regex": "^[Rr]efund"},
    {"$not_regex": "^[Rr]efund"},
    {"$regex": "(?i)REFUND"},
    {"$regex": r"\d"},
    {"$regex": r"\bwindow$"},
    {"$regex": "p.l"},
    {"$and": [{"$contains": "efund"}, {"$not_contains": "window"}]},
    {"$or": [{"$contains": "Ship"}, {"$contains": "window"}, {"$regex": "é"}]},
    {"$and": [{"$or": [{"$contains": "a"}, {"$contains": "x"}]}, {"$not_regex": "^R"}]},
    {"$and": [{"$contains": "efund"}]},
    {"$or": []},
    {"$contains": ""},
    {"$regex": ""},
    {"$contains": 3},
    {"$contains": ["a"]},
    {"$foo": "x"},
    {},
    {"$contains": "a", "$not_contains": "b"},
    "refund",
]


def _real(where_document: Any) -> tuple[str, Any]:
    collection = chroma_client().create_collection(collection_name(), embedding_function=None)
    collection.add(ids=IDS, documents=DOCS, embeddings=VECTORS)
    collection.add(ids=["no-doc"], embeddings=[[1.0, 0.1]])
    try:
        got = collection.query(
            query_embeddings=[[1.0, 0.0]], n_results=6, where_document=where_document
        )
    except ValueError as error:
        return "error", str(error)
    return "ids", (got["ids"][0], [round(d, 5) for d in got["distances"][0]])


def _ours(where_document: Any) -> tuple[str, Any]:
    store = FakeVectorStore(profile="chroma")
    store.upsert_many(list(zip(IDS, DOCS, [None] * len(IDS), VECTORS, strict=True)))
    store.upsert("no-doc", None, vector=[1.0, 0.1])
    try:
        found = store.query([1.0, 0.0], k=6, where_document=where_document)
    except FilterError as error:
        return "error", str(error)
    return "ids", ([m.id for m in found], [round(m.score, 5) for m in found])


@pytest.mark.parametrize("where_document", EXPRESSIONS, ids=repr)
def test_where_document_agrees_with_chroma(where_document: Any) -> None:
    assert _ours(where_document) == _real(where_document)


def test_an_invalid_pattern_is_rejected_by_both() -> None:
    import chromadb.errors

    with pytest.raises(chromadb.errors.InvalidArgumentError, match="regex parse error"):
        _real({"$regex": "("})
    message = "Regex syntax error: unclosed group at position 0"
    assert _ours({"$regex": "("}) == ("error", f"{message} (pattern '(') in query.")
