"""Value objects handed out by the store: stored records, query matches and query traces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Match", "Record", "Trace", "TraceStatus"]


@dataclass(frozen=True)
class Record:
    """A stored record: id, text, metadata (a copy) and the stored vector as a tuple of floats."""

    id: str
    text: str | None
    metadata: dict[str, Any] = field(default_factory=dict)
    vector: tuple[float, ...] | None = None

    def __repr__(self) -> str:
        """The fields, with the vector as its length: 384 floats would drown a test report."""
        vector = "None" if self.vector is None else f"<{len(self.vector)} floats>"
        return (
            f"Record(id={self.id!r}, text={self.text!r}, metadata={self.metadata!r}, "
            f"vector={vector})"
        )


@dataclass(frozen=True)
class Match:
    """One query result.

    ``score`` is the number the profile's engine would report (a distance when the profile's
    ``higher_is_better`` is False); ``similarity`` is always the raw cosine between the query and
    the stored vector, so assertions can be written once for every profile. ``text`` is None and
    ``metadata`` empty for an orphaned id (see ``FakeVectorStore(orphaned_ids=True)``).
    """

    id: str
    text: str | None
    metadata: dict[str, Any]
    score: float
    similarity: float


TraceStatus = Literal[
    "ranked", "filtered_out", "lost_to_recall", "not_visible", "excluded_by_ids", "orphaned"
]


@dataclass(frozen=True)
class Trace:
    """Why one record is, or is not, in the results of a query (see ``FakeVectorStore.trace``).

    ``rank`` is the 1-based position the record would take with an unbounded ``k``, or None when
    it would not be returned. ``score`` and ``similarity`` are None only for records whose vector
    is not in the index yet (``not_visible``).
    """

    id: str
    status: TraceStatus
    rank: int | None
    score: float | None
    similarity: float | None
