"""The keyword arguments an integration takes beyond LangChain's, and what it does with others.

Chroma's searches take `where_document=`, and its `delete` takes `where=` and `where_document=`
(`docs/integrations/langchain.md#lc-chroma-where-document`, `#lc-chroma-delete-where`): where
`IntegrationFacts.document_filter` says so, they are taken out of the call's keyword arguments.
What is left is refused with a TypeError where the integration passes it on to a client that
refuses it (`#lc-chroma-unknown-kwargs`), and ignored where the integration ignores it
(`#lc-faiss-unknown-kwargs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from placeborag_langchain.integrations import IntegrationFacts

__all__ = ["reject_unknown", "take_document_filters"]


def take_document_filters(
    facts: IntegrationFacts, kwargs: dict[str, Any], names: tuple[str, ...]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Chroma's extra filter arguments (`names`), popped from `kwargs` when the integration
    takes them: their values (None when absent or not taken) and the names to accept. Where
    they are not taken they stay in `kwargs`, for `reject_unknown`."""
    if not facts.document_filter:
        return dict.fromkeys(names), ()
    return {name: kwargs.pop(name, None) for name in names}, names


def reject_unknown(
    facts: IntegrationFacts, kwargs: dict[str, Any], method: str, accepted: Sequence[str]
) -> None:
    """TypeError naming what is left in `kwargs`, where the integration refuses it."""
    if kwargs and facts.strict_kwargs:
        raise TypeError(
            f"{method}() got unexpected keyword argument(s) {', '.join(sorted(kwargs))} "
            f"(profile {facts.profile!r}, like {facts.integration}); "
            f"accepted: {', '.join(accepted) or 'none'}"
        )
