"""Building ``where=`` clauses from parts, with the always-true and never-true cases folded away.

Translating another dialect (a LangChain integration's filter dict, Qdrant's filter model) into
the core's often yields parts already known to match everything or nothing: a key the payload
does not have, an empty ``should``. :data:`ALWAYS` and :data:`NEVER` stand for those, and the
combinators below simplify them, so the clause handed to the store is as small as the filter
allows and a filter that can match nothing is recognised before any record is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["ALWAYS", "NEVER", "Constant", "conjunction", "disjunction", "negation"]


class Constant:
    """A part known to be always true or always false."""

    def __init__(self, value: bool) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "ALWAYS" if self.value else "NEVER"


ALWAYS = Constant(True)
NEVER = Constant(False)


def _combine(parts: Sequence[Any], operator: str, neutral: Constant, absorbing: Constant) -> Any:
    kept: list[Any] = []
    for part in parts:
        if part is absorbing:
            return absorbing
        if part is not neutral:
            kept.append(part)
    if not kept:
        return neutral
    return kept[0] if len(kept) == 1 else {operator: kept}


def conjunction(parts: Sequence[Any]) -> Any:
    """All of ``parts``: NEVER if one is NEVER, ALWAYS if none is left, else the clause."""
    return _combine(parts, "$and", ALWAYS, NEVER)


def disjunction(parts: Sequence[Any]) -> Any:
    """Any of ``parts``: ALWAYS if one is ALWAYS, NEVER if none is left, else the clause."""
    return _combine(parts, "$or", NEVER, ALWAYS)


def negation(part: Any) -> Any:
    """Not ``part`` (a constant flips)."""
    if isinstance(part, Constant):
        return NEVER if part.value else ALWAYS
    return {"$not": part}
