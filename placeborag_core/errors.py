"""Exceptions raised by the store, whatever the profile.

Kept in one module so that adapters and user code can catch them without importing the store.
An engine's own error types (FAISS's assertion errors) live in its backend module.
"""

from __future__ import annotations

__all__ = [
    "DimensionError",
    "FilterError",
    "RetrievalError",
    "RetrievalTimeout",
]


class FilterError(ValueError):
    """A ``where=`` filter is malformed.

    Raised while the filter is compiled, before any record is read: a filter that cannot mean
    anything is a bug in the test or the pipeline, not a record that happens not to match.
    Under a backend profile the message is the backend's own text.
    """


class DimensionError(ValueError):
    """A vector does not have the width the store was fixed to by its first vector."""


class RetrievalError(Exception):
    """The read path of the store failed (injected with ``fail_next_query``)."""


class RetrievalTimeout(RetrievalError, TimeoutError):  # noqa: N818 - the public name
    """The default injected failure: a query that timed out."""
