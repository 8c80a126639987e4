"""The keyword arguments an integration takes beyond LangChain's, and what it does with others.

Chroma's searches take `where_document=`, and its `delete` takes `where=` and `where_document=`
(`docs/integrations/langchain.md#lc-chroma-where-document`, `#lc-chroma-delete-where`): where
`IntegrationFacts.document_filter` says so, they are taken out of the call's keyword arguments.
What is left is refused with a TypeError where the integration passes it on to a client that
refuses it (`#lc-chroma-unknown-kwargs`), and ignored where the integration ignores it
(`#lc-faiss-unknown-kwargs`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from placeborag_core.adapter_kit import require_unicode
from placeborag_langchain.integration_facts import IntegrationFacts

__all__ = [
    "checked_namespace",
    "checked_threshold",
    "refuse_unimitated",
    "reject_unknown",
    "take_document_filters",
]


def checked_namespace(namespace: Any) -> str:
    """`namespace` if it is a str of valid Unicode; TypeError or ValueError naming it."""
    if not isinstance(namespace, str):
        raise TypeError(f"namespace must be a str, got {type(namespace).__name__} {namespace!r}")
    require_unicode(namespace, "namespace")
    return namespace


def checked_threshold(value: Any) -> float | None:
    """`score_threshold` (None, or a real number that is not NaN); TypeError or ValueError
    naming it, so a malformed threshold is not compared (and silently matches nothing)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        raise TypeError(
            f"score_threshold must be a number or None, got {type(value).__name__} {value!r}"
        )
    if math.isnan(value):
        raise ValueError("score_threshold must be a number, got NaN")
    return value  # type: ignore[return-value]


def take_document_filters(
    facts: IntegrationFacts, kwargs: dict[str, Any], names: tuple[str, ...]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Chroma's extra filter arguments (`names`), popped from `kwargs` when the integration
    takes them: their values (None when absent or not taken) and the names to accept. Where
    they are not taken they stay in `kwargs`, for `reject_unknown`."""
    if not facts.document_filter:
        return dict.fromkeys(names), ()
    return {name: kwargs.pop(name, None) for name in names}, names


def refuse_unimitated(facts: IntegrationFacts, kwargs: dict[str, Any], method: str) -> None:
    """NotImplementedError naming the search keywords in `kwargs` that the integration honours
    and placeborag does not imitate (`IntegrationFacts.unimitated_search_kwargs`)."""
    named = sorted(name for name in kwargs if name in facts.unimitated_search_kwargs)
    if named:
        raise NotImplementedError(
            f"{method}(): {', '.join(named)}= is not imitated by placeborag (profile "
            f"{facts.profile!r}, like {facts.integration}, where it changes the search)"
        )


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
