"""``CannedRetriever``: a LlamaIndex ``BaseRetriever`` that returns fixed nodes for each query.

For tests of everything after retrieval (postprocessors, synthesizers, query engines, agents):
the test states which context each query gets, including none at all. Nodes are converted once,
at construction, and every call returns deep copies, because postprocessors and synthesizers
mutate the nodes and scores they are given.

A canned item may be a ``NodeWithScore``, a ``BaseNode`` (score ``None``), or any object with
``id``, ``text``, ``metadata`` and ``score`` attributes, such as ``placeborag_core.Match`` or a
scenario chunk, which becomes a ``TextNode`` with that id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import BaseNode, NodeWithScore, QueryBundle, TextNode

from placeborag_core.adapter_kit import require_unicode

__all__ = ["CannedRetriever"]

_CHUNK_ATTRIBUTES = ("id", "text", "metadata", "score")


def _as_node_with_score(item: Any, where: str) -> NodeWithScore:
    if isinstance(item, NodeWithScore):
        return item.model_copy(deep=True)
    if isinstance(item, BaseNode):
        return NodeWithScore(node=item.model_copy(deep=True), score=None)
    if all(hasattr(item, name) for name in _CHUNK_ATTRIBUTES):
        score = None if item.score is None else float(item.score)
        node = TextNode(id_=str(item.id), text=item.text or "", metadata=dict(item.metadata))
        return NodeWithScore(node=node, score=score)
    raise TypeError(
        f"{where}: expected a NodeWithScore, a BaseNode or an object with attributes "
        f"{', '.join(_CHUNK_ATTRIBUTES)}; got {type(item).__name__}"
    )


def _convert(items: Sequence[Any], where: str) -> list[NodeWithScore]:
    if isinstance(items, str | bytes) or not isinstance(items, Sequence):
        raise TypeError(f"{where}: expected a sequence of nodes, got {type(items).__name__}")
    return [_as_node_with_score(item, f"{where}[{i}]") for i, item in enumerate(items)]


class CannedRetriever(BaseRetriever):
    """Return ``responses[query_str]`` (deep copies) for each query.

    Args:
        responses: ``{query string: nodes}``; the nodes come back in the given order.
        default: nodes for any other query. Without it an unknown query raises ``KeyError``
            naming the known queries, so a typo in a test cannot pass as "no context"; pass
            ``default=[]`` to mean "nothing found".

    ``queries`` records every query string received, in order.
    """

    def __init__(
        self,
        responses: Mapping[str, Sequence[Any]],
        *,
        default: Sequence[Any] | None = None,
        callback_manager: CallbackManager | None = None,
    ) -> None:
        if not isinstance(responses, Mapping):
            raise TypeError(f"responses must be a mapping, got {type(responses).__name__}")
        canned: dict[str, list[NodeWithScore]] = {}
        for query, items in responses.items():
            if not isinstance(query, str):
                raise TypeError(f"responses keys must be query strings, got {query!r}")
            require_unicode(query, f"responses key {query!r}")
            canned[query] = _convert(items, f"responses[{query!r}]")
        if callback_manager is not None and not isinstance(callback_manager, CallbackManager):
            raise TypeError(
                "callback_manager must be a llama_index CallbackManager or None, got "
                f"{type(callback_manager).__name__}"
            )
        self._canned = canned
        self._default = None if default is None else _convert(default, "default")
        self.queries: list[str] = []
        super().__init__(callback_manager=callback_manager)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        query = query_bundle.query_str
        self.queries.append(query)
        nodes = self._canned.get(query, self._default)
        if nodes is None:
            known = ", ".join(repr(q) for q in self._canned) or "none"
            raise KeyError(
                f"CannedRetriever has no nodes for query {query!r}; known queries: {known}. "
                "Pass default=[] to return nothing for unknown queries."
            )
        return [item.model_copy(deep=True) for item in nodes]
