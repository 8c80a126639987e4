"""Qdrant's nested payload keys: ``details.page``, ``details[].page``, ``items[0].name``,
``"a.b"`` (a quoted key holding a dot).

A filter key with a path selects every value the path reaches in the payload: through objects by
key, through arrays by ``[]`` (each element) or ``[n]`` (one element). A plain key (``details``)
never steps into an array: ``details.page`` on ``{"details": [{"page": 2}]}`` selects nothing,
``details[].page`` selects 2. The selected values are matched like the values of a top-level key
(an array value by element). This mirrors qdrant-client's local mode
(``qdrant_client/local/json_path_parser.py``, ``payload_value_extractor.py``), which follows the
server. Facts: ``docs/integrations/langchain.md#lc-qdrant-filter-nested``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from placeborag_core.errors import FilterError
from placeborag_core.filters.predicates import Predicate

__all__ = ["PATH_LEAF", "PathCondition", "PathIsEmpty", "is_path", "parse_path"]

PATH_LEAF = "value"
"""The key under which a path condition's clause sees the selected values."""

_WILDCARD = -1


@dataclass(frozen=True)
class _Step:
    key: str | None = None  # a key step
    index: int | None = None  # an index step; _WILDCARD for []


def is_path(key: str) -> bool:
    """Whether ``key`` is a path (holds ``.``, ``[`` or ``"``) rather than a plain key."""
    return any(c in key for c in '.["')


def _invalid(key: str, why: str) -> FilterError:
    return FilterError(f"invalid Qdrant payload key {key!r}: {why}")


def parse_path(key: str) -> tuple[_Step, ...]:
    """``key`` as steps; FilterError for a key Qdrant refuses (``Invalid path``)."""
    steps: list[_Step] = []
    rest = key
    while True:
        if rest.startswith('"'):
            end = rest.find('"', 1)
            if end < 0:
                raise _invalid(key, "unclosed quote")
            steps.append(_Step(key=rest[1:end]))
            rest = rest[end + 1 :]
        else:
            n = 0
            while n < len(rest) and (rest[n].isalnum() or rest[n] in "_-"):
                n += 1
            if n == 0:
                raise _invalid(key, "expected a key (letters, digits, _ or -) or a quoted key")
            steps.append(_Step(key=rest[:n]))
            rest = rest[n:]
        while rest.startswith("["):
            end = rest.find("]")
            if end < 0:
                raise _invalid(key, "unclosed [")
            inside = rest[1:end]
            if inside == "":
                steps.append(_Step(index=_WILDCARD))
            elif inside.isascii() and inside.isdigit():
                steps.append(_Step(index=int(inside)))
            else:
                raise _invalid(key, f"[{inside}] is neither [] nor an array index")
            rest = rest[end + 1 :]
        if not rest:
            return tuple(steps)
        if not rest.startswith(".") or len(rest) == 1:
            raise _invalid(key, "keys are separated by '.'")
        rest = rest[1:]


def select(payload: Any, steps: tuple[_Step, ...], *, flat: bool) -> list[Any]:
    """The values ``steps`` reach in ``payload`` (``flat``: an array reached by the whole path
    contributes its elements, as Qdrant matches them)."""
    found: list[Any] = []
    stack: list[tuple[Any, int]] = [(payload, 0)]
    while stack:
        data, at = stack.pop()
        if at == len(steps):
            if flat and isinstance(data, list):
                found.extend(data)
            else:
                found.append(data)
            continue
        step = steps[at]
        if step.key is not None:
            if isinstance(data, Mapping) and step.key in data:
                stack.append((data[step.key], at + 1))
        elif isinstance(data, list | tuple):
            if step.index == _WILDCARD:
                stack.extend((item, at + 1) for item in reversed(data))
            elif step.index is not None and step.index < len(data):
                stack.append((data[step.index], at + 1))
    return found


class PathCondition(Predicate):
    """``clause`` (compiled on the key :data:`PATH_LEAF`) on the values a path selects in the
    metadata; no value selected is a missing key."""

    def __init__(self, steps: tuple[_Step, ...], clause: Predicate) -> None:
        self.steps = steps
        self.clause = clause

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        values = select(metadata, self.steps, flat=True)
        if not values:
            return self.clause.matches({})
        return self.clause.matches({PATH_LEAF: values[0] if len(values) == 1 else values})


class PathIsEmpty(Predicate):
    """Qdrant's IsEmpty on a path: nothing selected, or every selected value null or ``[]``."""

    def __init__(self, steps: tuple[_Step, ...]) -> None:
        self.steps = steps

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        values = select(metadata, self.steps, flat=False)
        return all(v is None or (isinstance(v, list | tuple) and not v) for v in values)
