"""Declared faults: degraded recall and injected query failures.

Everything here is deterministic. Recall dropout comes from a keyed 64-bit hash of the query and
the record id, so the same query loses the same records on every run and on every machine, and a
different query loses a different set. (Visibility and orphaned ids are write-path states kept by
the store itself; see ``store.py``.)
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from placeborag_core.embedding.hashing import finalise64
from placeborag_core.messages import shown

__all__ = ["FailureQueue", "id_hash", "query_hash", "recall_keep_mask"]

_KEY = b"placeborag.recall.v1"
_U64 = np.uint64
_GOLDEN = _U64(0x9E3779B97F4A7C15)  # SplitMix64's increment


def id_hash(record_id: str) -> int:
    """Keyed 64-bit hash of a record id (computed once, when the record is written)."""
    digest = hashlib.blake2b(record_id.encode("utf-8"), digest_size=8, key=_KEY).digest()
    return int.from_bytes(digest, "little")


def query_hash(query: npt.NDArray[np.float64]) -> int:
    """Keyed 64-bit hash of a query vector (a text query is hashed through its vector)."""
    data = np.ascontiguousarray(query, dtype="<f4").tobytes()
    digest = hashlib.blake2b(data, digest_size=8, key=_KEY + b".q").digest()
    return int.from_bytes(digest, "little")


def recall_keep_mask(
    qhash: int, id_hashes: npt.NDArray[np.uint64], recall: float
) -> npt.NDArray[np.bool_]:
    """True for each record the query can see: probability ``recall`` per (query, record) pair.

    The pair hash is splitmix64 of ``query_hash ^ id_hash`` (one step of the generator, then its
    finaliser), done in wrapping uint64 arithmetic.
    """
    if recall >= 1.0:
        return np.ones(id_hashes.shape, dtype=bool)
    z = finalise64((id_hashes ^ _U64(qhash)) + _GOLDEN)
    uniform = (z >> _U64(11)).astype(np.float64) * (1.0 / 2.0**53)
    keep: npt.NDArray[np.bool_] = uniform < recall
    return keep


_HELD: ContextVar[tuple[FailureQueue, ...]] = ContextVar("placeborag_held_failures", default=())
"""The queues whose failures are held in the current context (see ``FailureQueue.held``)."""


@dataclass
class _Pending:
    error: BaseException | type[BaseException]
    remaining: int


class FailureQueue:
    """Failures armed with ``fail_next_query``, consumed first-in first-out, one per query."""

    def __init__(self) -> None:
        self._queue: deque[_Pending] = deque()

    def arm(self, error: object, times: object) -> None:
        """Make the next ``times`` queries raise ``error`` (after any already armed): an
        exception instance, raised as is, or class, instantiated with a message."""
        valid = isinstance(error, BaseException) or (
            isinstance(error, type) and issubclass(error, BaseException)
        )
        if not valid:
            raise TypeError(f"error must be an exception instance or class, got {shown(error)}")
        if isinstance(times, bool) or not isinstance(times, int) or times < 1:
            raise ValueError(f"times must be an int >= 1, got {shown(times)}")
        if isinstance(error, type):
            try:  # the class is instantiated with a message when it fires: it must take one
                _injected(error)
            except Exception as failure:  # any failure means: pass an instance
                raise TypeError(
                    f"error class {error.__name__} cannot be built from a message "
                    f"({type(failure).__name__}: {failure}); pass an instance instead"
                ) from None
        self._queue.append(_Pending(error, times))  # type: ignore[arg-type]

    def __len__(self) -> int:
        return sum(p.remaining for p in self._queue)

    def armed(self) -> list[tuple[BaseException | type[BaseException], int]]:
        """The armed failures, first to fire first: (error, queries it still fails)."""
        return [(p.error, p.remaining) for p in self._queue]

    def take(self) -> BaseException | None:
        """The exception the current query must raise, or None (consumes one use); always None
        inside :meth:`held`."""
        if not self._queue or any(queue is self for queue in _HELD.get()):
            return None
        pending = self._queue[0]
        pending.remaining -= 1
        if pending.remaining == 0:
            self._queue.popleft()
        if isinstance(pending.error, BaseException):
            return pending.error
        return _injected(pending.error)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Within the block, queries made in this thread (this context) neither raise nor consume
        an armed failure; the queue is left as it was. Queries of other threads are unaffected.
        For checkers that query a store a test has armed for its own code."""
        token = _HELD.set((*_HELD.get(), self))
        try:
            yield
        finally:
            _HELD.reset(token)


def _injected(error: type[BaseException]) -> BaseException:
    return error(f"injected query failure ({error.__name__})")
