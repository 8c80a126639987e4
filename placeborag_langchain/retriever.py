"""`CannedRetriever`: a LangChain retriever that returns documents you chose, per query.

For testing what happens *below* the retrieval seam (prompt assembly, citation labels, empty
context handling) without any index: say which chunks come back and the chain receives exactly
those, in that order, as fresh copies every time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import Field

from placeborag_core.adapter_kit import require_unicode

__all__ = ["CannedRetriever"]


def _to_document(item: Any, score_key: str | None) -> Document:
    """A Document from a Document, or from any chunk with `id`, `text`, `metadata` (`score`).

    `placeborag_core.Match` and the scenario chunks qualify. The score, which a Document has
    no field for, is copied into `metadata[score_key]` when `score_key` is given.
    """
    if isinstance(item, Document):
        doc = item.model_copy(deep=True)
        if score_key is not None:
            raise TypeError("score_key applies to chunks with a score, not to Documents")
        return doc
    try:
        text, metadata, chunk_id = item.text, item.metadata, item.id
    except AttributeError:
        raise TypeError(
            f"canned results must be Documents or chunks with id, text and metadata "
            f"attributes, got {type(item).__name__}"
        ) from None
    if not isinstance(text, str):
        raise TypeError(f"chunk {chunk_id!r} has no text (got {type(text).__name__})")
    meta = dict(metadata or {})
    if score_key is not None:
        meta[score_key] = item.score
    doc = Document(page_content=text, metadata=meta, id=chunk_id)
    return doc.model_copy(deep=True)


def _documents(items: Iterable[Any], score_key: str | None) -> list[Document]:
    if isinstance(items, str | bytes | Document | Mapping) or not isinstance(items, Iterable):
        raise TypeError(f"expected a sequence of documents or chunks, got {type(items).__name__}")
    return [_to_document(item, score_key) for item in items]


def _responses(responses: Any, score_key: str | None) -> dict[str, list[Document]]:
    if responses is None:
        return {}
    if not isinstance(responses, Mapping):
        raise TypeError(
            f"responses must be a dict of query text -> documents, got {type(responses).__name__}"
        )
    table = {}
    for query, items in responses.items():
        if not isinstance(query, str):
            raise TypeError(
                f"responses keys must be query texts (str), got {type(query).__name__} {query!r}"
            )
        require_unicode(query, f"responses key {query!r}")
        table[query] = _documents(items, score_key)
    return table


class CannedRetriever(BaseRetriever):
    """Returns the given documents for a query, cut to `k`.

    Args:
        documents: what every query returns (when `responses` has no entry for it).
        responses: query text -> what that query returns. A query in neither raises KeyError
            listing the known queries (a typo in a test should not look like "no results").
        k: how many documents to return at most (None: all); `invoke(query, k=...)` overrides.
        score_key: metadata key that receives a chunk's score (chunks only).

    Documents and chunks (`id`, `text`, `metadata`, optional `score`: `placeborag_core.Match`,
    scenario chunks) are accepted; what `invoke` returns are deep copies, so a chain that
    mutates them cannot change the next call.
    """

    documents: list[Document] | None = None
    responses: dict[str, list[Document]] = Field(default_factory=dict)
    k: int | None = None

    def __init__(
        self,
        documents: Iterable[Any] | None = None,
        *,
        responses: Mapping[str, Iterable[Any]] | None = None,
        k: int | None = None,
        score_key: str | None = None,
        **kwargs: Any,
    ) -> None:
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 0):
            raise ValueError(f"k must be a non-negative int or None, got {k!r}")
        if score_key is not None and not isinstance(score_key, str):
            raise TypeError(f"score_key must be a str or None, got {type(score_key).__name__}")
        unknown = sorted(set(kwargs) - set(BaseRetriever.model_fields))
        if unknown:
            raise TypeError(
                f"CannedRetriever() got unexpected keyword argument(s) {', '.join(unknown)}; "
                f"it takes documents, responses, k, score_key and "
                f"{', '.join(BaseRetriever.model_fields)}"
            )
        canned = None if documents is None else _documents(documents, score_key)
        table = _responses(responses, score_key)
        if canned is None and not table:
            raise ValueError("give documents (for every query) or responses (per query)")
        fields: dict[str, Any] = {"documents": canned, "responses": table, "k": k}
        super().__init__(**fields, **kwargs)

    @classmethod
    def from_context_state(
        cls, state: Any, *, k: int | None = None, score_key: str | None = "score"
    ) -> CannedRetriever:
        """Serve a canned context state (anything with `.chunks`) for every query."""
        chunks = getattr(state, "chunks", None)
        if chunks is None:
            raise TypeError(
                f"state must be a context state (with .chunks), got {type(state).__name__}"
            )
        return cls(chunks, k=k, score_key=score_key)

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        k: int | None = None,
    ) -> list[Document]:
        if not isinstance(query, str):
            raise TypeError(f"query must be a str, got {type(query).__name__} {query!r}")
        if query in self.responses:
            docs = self.responses[query]
        elif self.documents is not None:
            docs = self.documents
        else:
            raise KeyError(
                f"no canned response for query {query!r}; known queries: "
                f"{', '.join(map(repr, sorted(self.responses)))}"
            )
        limit = self.k if k is None else k
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or limit < 0
        ):
            raise ValueError(f"k must be a non-negative int, got {limit!r}")
        chosen = docs if limit is None else docs[:limit]
        return [doc.model_copy(deep=True) for doc in chosen]
